import CDRM
import Foundation
import LaminaCore

/// Atomic modesetting on one connector, CRTC and primary plane: the property ids a commit sets, the mode blob, and
/// the commits themselves (a modeset the first time, then page flips with an event and the damage as
/// FB_DAMAGE_CLIPS where the plane has it). Nil from `init` when the driver has no atomic API or no primary plane
/// for the CRTC; DRMOutput then uses the legacy calls.
final class DRMAtomic {
    let fd: Int32
    let connector: UInt32
    let crtc: UInt32
    let plane: UInt32
    let size: PixelSize
    private var modeBlob: UInt32 = 0
    private let connectorCrtcID: UInt32
    private let crtcModeID: UInt32, crtcActive: UInt32
    private let planeProperties: [String: UInt32]

    init?(fd: Int32, connector: UInt32, crtc: UInt32, crtcIndex: Int, mode: drmModeModeInfo) {
        guard drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1) == 0,
              drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0 else { return nil }
        var primary: UInt32?
        if let planes = drmModeGetPlaneResources(fd) {
            defer { drmModeFreePlaneResources(planes) }
            for index in 0..<Int(planes.pointee.count_planes) {
                let id = planes.pointee.planes[index]
                guard let plane = drmModeGetPlane(fd, id) else { continue }
                let possible = plane.pointee.possible_crtcs
                drmModeFreePlane(plane)
                guard possible & (1 << UInt32(crtcIndex)) != 0 else { continue }
                let properties = Self.properties(fd: fd, object: id, type: UInt32(DRM_MODE_OBJECT_PLANE))
                if let type = properties["type"], Self.value(fd: fd, object: id, type: UInt32(DRM_MODE_OBJECT_PLANE),
                                                            property: type) == UInt64(DRM_PLANE_TYPE_PRIMARY) {
                    primary = id
                    break
                }
            }
        }
        let connectorProperties = Self.properties(fd: fd, object: connector, type: UInt32(DRM_MODE_OBJECT_CONNECTOR))
        let crtcProperties = Self.properties(fd: fd, object: crtc, type: UInt32(DRM_MODE_OBJECT_CRTC))
        guard let primary, let connectorCrtc = connectorProperties["CRTC_ID"], let modeID = crtcProperties["MODE_ID"],
              let active = crtcProperties["ACTIVE"] else {
            drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 0)
            return nil
        }
        let planeProperties = Self.properties(fd: fd, object: primary, type: UInt32(DRM_MODE_OBJECT_PLANE))
        for name in ["FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W", "SRC_H", "CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H"]
            where planeProperties[name] == nil {
            drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 0)
            return nil
        }
        var mode = mode
        var blob: UInt32 = 0
        guard drmModeCreatePropertyBlob(fd, &mode, MemoryLayout<drmModeModeInfo>.size, &blob) == 0 else {
            drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 0)
            return nil
        }
        self.fd = fd
        self.connector = connector
        self.crtc = crtc
        self.plane = primary
        self.size = mode.size
        self.modeBlob = blob
        self.connectorCrtcID = connectorCrtc
        self.crtcModeID = modeID
        self.crtcActive = active
        self.planeProperties = planeProperties
    }

    deinit { if modeBlob != 0 { drmModeDestroyPropertyBlob(fd, modeBlob) } }

    /// Gives up atomic (after a failed first commit): the legacy calls work without the client cap.
    func abandon() { drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 0) }

    /// Shows `framebuffer`: with `modeset` the connector, CRTC and mode too. Completes with a page-flip event
    /// carrying `userData`. Returns 0 or -errno.
    func commit(framebuffer: UInt32, modeset: Bool, damage: DamageRegion?, userData: UnsafeMutableRawPointer) -> Int32 {
        guard let request = drmModeAtomicAlloc() else { return -ENOMEM }
        defer { drmModeAtomicFree(request) }
        if modeset {
            drmModeAtomicAddProperty(request, connector, connectorCrtcID, UInt64(crtc))
            drmModeAtomicAddProperty(request, crtc, crtcModeID, UInt64(modeBlob))
            drmModeAtomicAddProperty(request, crtc, crtcActive, 1)
        }
        func set(_ name: String, _ value: UInt64) { drmModeAtomicAddProperty(request, plane, planeProperties[name]!, value) }
        set("FB_ID", UInt64(framebuffer))
        set("CRTC_ID", UInt64(crtc))
        // SRC_* are 16.16 fixed point.
        set("SRC_X", 0)
        set("SRC_Y", 0)
        set("SRC_W", UInt64(size.width) << 16)
        set("SRC_H", UInt64(size.height) << 16)
        set("CRTC_X", 0)
        set("CRTC_Y", 0)
        set("CRTC_W", UInt64(size.width))
        set("CRTC_H", UInt64(size.height))
        var clipsBlob: UInt32 = 0
        if !modeset, let damage, !damage.isEmpty, let clips = planeProperties["FB_DAMAGE_CLIPS"] {
            var rects = damage.rects.map { drm_mode_rect(x1: Int32($0.x0), y1: Int32($0.y0), x2: Int32($0.x1),
                                                         y2: Int32($0.y1)) }
            if drmModeCreatePropertyBlob(fd, &rects, rects.count * MemoryLayout<drm_mode_rect>.stride, &clipsBlob) == 0 {
                drmModeAtomicAddProperty(request, plane, clips, UInt64(clipsBlob))
            }
        }
        defer { if clipsBlob != 0 { drmModeDestroyPropertyBlob(fd, clipsBlob) } }
        var flags = UInt32(DRM_MODE_PAGE_FLIP_EVENT)
        flags |= modeset ? UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET) : UInt32(DRM_MODE_ATOMIC_NONBLOCK)
        let code = drmModeAtomicCommit(fd, request, flags, userData)
        return code == 0 ? 0 : (code == -1 ? -errno : code)
    }

    static func properties(fd: Int32, object: UInt32, type: UInt32) -> [String: UInt32] {
        guard let list = drmModeObjectGetProperties(fd, object, type) else { return [:] }
        defer { drmModeFreeObjectProperties(list) }
        var result: [String: UInt32] = [:]
        for index in 0..<Int(list.pointee.count_props) {
            guard let property = drmModeGetProperty(fd, list.pointee.props[index]) else { continue }
            let name = withUnsafeBytes(of: property.pointee.name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            result[name] = property.pointee.prop_id
            drmModeFreeProperty(property)
        }
        return result
    }

    static func value(fd: Int32, object: UInt32, type: UInt32, property: UInt32) -> UInt64? {
        guard let list = drmModeObjectGetProperties(fd, object, type) else { return nil }
        defer { drmModeFreeObjectProperties(list) }
        for index in 0..<Int(list.pointee.count_props) where list.pointee.props[index] == property {
            return list.pointee.prop_values[index]
        }
        return nil
    }
}
