import CDRM
import Foundation
import LaminaCore

/// Choosing what to show on (docs/kiosk.md, "DRM/KMS"): the card (--device, else the first with a connected
/// connector), the connector (--connector NAME, else the first connected), the mode (--mode, else the preferred
/// one) and a CRTC for it.
extension DRMOutput {
    struct Selection {
        var card: DRMCard
        var connector: DRMCard.Connector
        var mode: drmModeModeInfo
        var crtc: UInt32
    }

    static func select(_ options: DisplayOutputOptions) throws -> Selection {
        if let device = options.device {
            return try select(on: DRMCard(path: device), options: options)
        }
        let paths = DRMCard.cardPaths()
        guard !paths.isEmpty else {
            throw DisplayError("no DRM device (/dev/dri has no card: the kernel has no display driver for this machine)")
        }
        var passedOver: [String] = []
        var firstOpenError: DisplayError?
        for path in paths {
            let card: DRMCard
            do {
                card = try DRMCard(path: path)
            } catch let error as DisplayError {
                if firstOpenError == nil, error.message.hasPrefix("cannot open") { firstOpenError = error }
                passedOver.append(error.message)
                continue
            }
            let wanted = card.connectors.filter { options.connector == nil || $0.name == options.connector }
            if wanted.contains(where: \.isConnected) {
                return try select(on: card, options: options)
            }
            if let name = options.connector, wanted.isEmpty {
                let names = card.connectors.map(\.name).joined(separator: ", ")
                passedOver.append("\(path): no connector \(name), connectors: \(names.isEmpty ? "none" : names)")
            } else {
                passedOver.append("\(path): \(card.connectorSummary)")
            }
        }
        // Every card refused us: that is the error to fix (permissions), not "no display".
        if let firstOpenError, passedOver.allSatisfy({ $0.hasPrefix("cannot open") }) { throw firstOpenError }
        let what = options.connector.map { "a connected display on connector \($0)" } ?? "a connected display"
        throw DisplayError("no DRM device with \(what) (\(passedOver.joined(separator: "; ")))")
    }

    /// The connector and mode on one card.
    static func select(on card: DRMCard, options: DisplayOutputOptions) throws -> Selection {
        let connector: DRMCard.Connector
        if let name = options.connector {
            guard let found = card.connectors.first(where: { $0.name == name }) else {
                let names = card.connectors.map(\.name).joined(separator: ", ")
                throw DisplayError("\(card.path): no connector \(name) (connectors: \(names.isEmpty ? "none" : names))")
            }
            guard found.isConnected else { throw DisplayError("\(card.path): connector \(name) has no display connected") }
            connector = found
        } else {
            guard let found = card.connectors.first(where: \.isConnected) else {
                throw DisplayError("no DRM device with a connected display (\(card.path): \(card.connectorSummary))")
            }
            connector = found
        }
        let mode = try pickMode(options.mode, on: connector, path: card.path)
        guard let crtc = card.crtc(for: connector) else {
            throw DisplayError("\(card.path): no CRTC can drive connector \(connector.name)")
        }
        return Selection(card: card, connector: connector, mode: mode, crtc: crtc)
    }

    /// The preferred mode, or the one `--mode` names: the same size, the rate within 0.5 Hz when given, else the
    /// highest rate at that size (the preferred one when it has that size and rate).
    static func pickMode(_ wanted: DisplayMode?, on connector: DRMCard.Connector, path: String) throws
        -> drmModeModeInfo {
        guard let preferred = connector.preferredMode else {
            throw DisplayError("\(path): connector \(connector.name) lists no modes")
        }
        guard let wanted else { return preferred }
        let sized = connector.modes.filter { Int($0.hdisplay) == wanted.width && Int($0.vdisplay) == wanted.height }
        let matching = sized.filter { mode in
            wanted.refreshRate.map { abs(mode.refreshRate - $0) < 0.5 || (mode.vrefresh > 0 && abs(Double(mode.vrefresh) - $0) < 0.5) }
                ?? true
        }
        if let best = matching.max(by: { a, b in
            a.refreshRate != b.refreshRate ? a.refreshRate < b.refreshRate : !isSame(a, preferred)
        }) {
            return best
        }
        var labels: [String] = []
        for mode in connector.modes where !labels.contains(mode.label) { labels.append(mode.label) }
        throw DisplayError("\(path): connector \(connector.name) has no mode \(wanted) (modes: "
                           + labels.joined(separator: ", ") + ")")
    }

    static func isSame(_ a: drmModeModeInfo, _ b: drmModeModeInfo) -> Bool {
        a.hdisplay == b.hdisplay && a.vdisplay == b.vdisplay && a.clock == b.clock && a.htotal == b.htotal
            && a.vtotal == b.vtotal && a.flags == b.flags
    }
}
