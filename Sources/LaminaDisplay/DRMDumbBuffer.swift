import CDRM
import Foundation
import LaminaCore

/// A DRM dumb buffer (CPU-drawn scanout memory: DRM_IOCTL_MODE_CREATE_DUMB, MAP_DUMB, mmap) with an XRGB8888
/// framebuffer on it. Often write-combined memory: it is written, never read.
final class DRMDumbBuffer {
    let fd: Int32
    let handle: UInt32
    let framebuffer: UInt32
    let bytesPerRow: Int
    let byteCount: Int
    let pixels: UnsafeMutableRawPointer

    init(fd: Int32, size: PixelSize, devicePath: String) throws {
        var handle: UInt32 = 0, pitch: UInt32 = 0, bytes: UInt64 = 0
        var code = drmModeCreateDumbBuffer(fd, UInt32(size.width), UInt32(size.height), 32, 0, &handle, &pitch, &bytes)
        guard code == 0 else {
            throw DisplayError("\(devicePath): cannot make a \(size) dumb buffer: \(Self.reason(code))")
        }
        var offset: UInt64 = 0
        code = drmModeMapDumbBuffer(fd, handle, &offset)
        guard code == 0 else {
            drmModeDestroyDumbBuffer(fd, handle)
            throw DisplayError("\(devicePath): cannot map a dumb buffer: \(Self.reason(code))")
        }
        let memory = mmap(nil, Int(bytes), PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
        guard let memory, memory != MAP_FAILED else {
            let reason = String(cString: strerror(errno)).lowercased()
            drmModeDestroyDumbBuffer(fd, handle)
            throw DisplayError("\(devicePath): cannot map a dumb buffer: \(reason)")
        }
        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (pitch, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var framebuffer: UInt32 = 0
        code = withUnsafePointer(to: &handles) { h in
            withUnsafePointer(to: &pitches) { p in
                withUnsafePointer(to: &offsets) { o in
                    drmModeAddFB2(fd, UInt32(size.width), UInt32(size.height), DRMFormat.xrgb8888,
                                  UnsafeRawPointer(h).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(p).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(o).assumingMemoryBound(to: UInt32.self), &framebuffer, 0)
                }
            }
        }
        guard code == 0 else {
            munmap(memory, Int(bytes))
            drmModeDestroyDumbBuffer(fd, handle)
            throw DisplayError("\(devicePath): cannot make an XRGB8888 framebuffer: \(Self.reason(code))")
        }
        self.fd = fd
        self.handle = handle
        self.framebuffer = framebuffer
        self.bytesPerRow = Int(pitch)
        self.byteCount = Int(bytes)
        self.pixels = memory
    }

    deinit {
        drmModeRmFB(fd, framebuffer)
        munmap(pixels, byteCount)
        drmModeDestroyDumbBuffer(fd, handle)
    }

    /// libdrm returns -errno (or -1 with errno set).
    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code == -1 ? errno : -code)).lowercased()
    }
}

/// DRM fourcc codes (drm_fourcc.h's macros are not visible to Swift).
enum DRMFormat {
    static func fourcc(_ text: StaticString) -> UInt32 {
        let bytes = text.withUTF8Buffer { Array($0) }
        return UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
    }

    /// DRM_FORMAT_XRGB8888 = GBM_FORMAT_XRGB8888 ('XR24').
    static let xrgb8888 = fourcc("XR24")
}
