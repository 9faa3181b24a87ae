import CDRM
import Foundation
import LaminaCore

/// An open DRM card (/dev/dri/cardN) and what its KMS resources say: the connectors with their names, states and
/// modes. Picking a card, a connector and a mode (DRMOutput) and `lamina info`'s probe both read it.
final class DRMCard {
    /// One connector as the kernel describes it.
    struct Connector {
        var id: UInt32
        /// "Virtual-1", "HDMI-A-1": the connector type's name and its per-type index, as the kernel and
        /// compositors name them.
        var name: String
        var isConnected: Bool
        var modes: [drmModeModeInfo]
        /// The encoder driving it now (0: none).
        var encoderID: UInt32
        var encoderIDs: [UInt32]

        /// The preferred mode (DRM_MODE_TYPE_PREFERRED), else the first listed.
        var preferredMode: drmModeModeInfo? {
            modes.first { $0.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 } ?? modes.first
        }
    }

    let path: String
    let fd: Int32
    let crtcIDs: [UInt32]
    let connectors: [Connector]

    /// Opens `path` read-write and reads its KMS resources; a card without KMS (a render-only GPU) is an error.
    init(path: String) throws {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw DisplayError.cannotOpen(path, errno: errno) }
        guard let resources = drmModeGetResources(fd) else {
            let code = errno
            close(fd)
            throw DisplayError("\(path): no display outputs (KMS: \(String(cString: strerror(code)).lowercased()))")
        }
        defer { drmModeFreeResources(resources) }
        self.path = path
        self.fd = fd
        let r = resources.pointee
        crtcIDs = (0..<Int(r.count_crtcs)).map { r.crtcs[$0] }
        var connectors: [Connector] = []
        for index in 0..<Int(r.count_connectors) {
            guard let connector = drmModeGetConnector(fd, r.connectors[index]) else { continue }
            defer { drmModeFreeConnector(connector) }
            let c = connector.pointee
            let typeName = drmModeGetConnectorTypeName(c.connector_type).map { String(cString: $0) } ?? "Unknown"
            connectors.append(Connector(
                id: c.connector_id, name: "\(typeName)-\(c.connector_type_id)",
                isConnected: c.connection == DRM_MODE_CONNECTED,
                modes: (0..<Int(c.count_modes)).map { c.modes[$0] },
                encoderID: c.encoder_id, encoderIDs: (0..<Int(c.count_encoders)).map { c.encoders[$0] }))
        }
        self.connectors = connectors
    }

    deinit { close(fd) }

    /// The cards present: /dev/dri/card0, card1, ... in number order.
    static func cardPaths() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return names.filter { $0.hasPrefix("card") && Int($0.dropFirst(4)) != nil }
            .sorted { Int($0.dropFirst(4))! < Int($1.dropFirst(4))! }
            .map { "/dev/dri/\($0)" }
    }

    /// "1 connector, none connected" / "2 connectors, HDMI-A-1 connected".
    var connectorSummary: String {
        let count = connectors.count == 1 ? "1 connector" : "\(connectors.count) connectors"
        let connected = connectors.filter(\.isConnected).map(\.name)
        return "\(count), " + (connected.isEmpty ? "none connected" : connected.joined(separator: ", ") + " connected")
    }

    /// A CRTC that can drive `connector`: the one its encoder drives now, else the first its encoders can use.
    func crtc(for connector: Connector) -> UInt32? {
        if connector.encoderID != 0, let encoder = drmModeGetEncoder(fd, connector.encoderID) {
            defer { drmModeFreeEncoder(encoder) }
            if encoder.pointee.crtc_id != 0 { return encoder.pointee.crtc_id }
        }
        for encoderID in connector.encoderIDs {
            guard let encoder = drmModeGetEncoder(fd, encoderID) else { continue }
            defer { drmModeFreeEncoder(encoder) }
            for (index, crtc) in crtcIDs.enumerated() where encoder.pointee.possible_crtcs & (1 << UInt32(index)) != 0 {
                return crtc
            }
        }
        return nil
    }

    /// The index of `crtc` in the card's list (planes name their CRTCs by index bits).
    func crtcIndex(_ crtc: UInt32) -> Int? { crtcIDs.firstIndex(of: crtc) }
}

extension drmModeModeInfo {
    /// The refresh rate in Hz: the mode's vrefresh, or worked out from the pixel clock and the totals (more
    /// precise, and the only figure some drivers give).
    var refreshRate: Double {
        let total = Double(htotal) * Double(vtotal)
        if clock > 0, total > 0 {
            var rate = Double(clock) * 1000 / total
            if flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0 { rate *= 2 }
            if flags & UInt32(DRM_MODE_FLAG_DBLSCAN) != 0 { rate /= 2 }
            if vscan > 1 { rate /= Double(vscan) }
            return rate
        }
        return vrefresh > 0 ? Double(vrefresh) : 60
    }

    var size: PixelSize { PixelSize(width: Int(hdisplay), height: Int(vdisplay)) }

    /// "1280x800@75": the rate the mode is named by (vrefresh, as xrandr and the kernel list it), else the worked
    /// out one rounded to two decimals.
    var label: String {
        let rate = vrefresh > 0 ? Double(vrefresh) : (refreshRate * 100).rounded() / 100
        return DisplayMode(width: Int(hdisplay), height: Int(vdisplay), refreshRate: rate).description
    }
}
