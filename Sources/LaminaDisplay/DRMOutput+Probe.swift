import CDRM
import Foundation
import LaminaCore

extension DRMOutput {
    /// What `lamina info` lists for DRM: each connector of each /dev/dri/card* (connected or not, with its
    /// preferred mode), or why a card was passed over (cannot be opened, no KMS). Opens the cards read-write only to
    /// read them; sets no mode.
    public static func probe(options: DisplayOutputOptions) -> [OutputProbe] {
        let paths = options.device.map { [$0] } ?? DRMCard.cardPaths()
        guard !paths.isEmpty else {
            return [OutputProbe(kind: .drm, usable: false,
                                detail: "no /dev/dri/card* (the kernel has no display driver for this machine)")]
        }
        var probes: [OutputProbe] = []
        for path in paths {
            let card: DRMCard
            do {
                card = try DRMCard(path: path)
            } catch {
                probes.append(OutputProbe(kind: .drm, usable: false, detail: "\(error)"))
                continue
            }
            if card.connectors.isEmpty {
                probes.append(OutputProbe(kind: .drm, usable: false, detail: "\(path): no connectors"))
            }
            for connector in card.connectors {
                let wanted = options.connector == nil || options.connector == connector.name
                guard connector.isConnected else {
                    probes.append(OutputProbe(kind: .drm, usable: false,
                                              detail: "\(path): connector \(connector.name) not connected"))
                    continue
                }
                let mode = connector.preferredMode.map { ", \($0.label)" } ?? ", no modes"
                let count = connector.modes.count == 1 ? "1 mode" : "\(connector.modes.count) modes"
                let note = wanted ? "" : " (not the --connector asked for)"
                probes.append(OutputProbe(kind: .drm, usable: wanted && connector.preferredMode != nil,
                                          detail: "\(path): connector \(connector.name) connected\(mode) (\(count))\(note)"))
            }
        }
        return probes
    }
}
