import CDRM
import Foundation
import LaminaCore

/// What a framebuffer device says about itself (FBIOGET_VSCREENINFO and FBIOGET_FSCREENINFO): its size, pixel
/// packing, row pitch, memory and whether it can pan.
struct FBDevInfo {
    // The ioctl numbers (linux/fb.h; its _IOW macro is not visible to Swift).
    static let getVariable: UInt = 0x4600
    static let getFixed: UInt = 0x4602
    static let panDisplay: UInt = 0x4606
    /// _IOW('F', 0x20, __u32).
    static let waitForVSync: UInt = 0x4004_4620

    var variable: fb_var_screeninfo
    var fixed: fb_fix_screeninfo
    var packing: PixelPacking
    var size: PixelSize { PixelSize(width: Int(variable.xres), height: Int(variable.yres)) }
    var bytesPerRow: Int { Int(fixed.line_length) }
    var memoryLength: Int { Int(fixed.smem_len) }
    /// The driver's id ("bochs-drmdrmfb").
    var name: String {
        withUnsafeBytes(of: fixed.id) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
    /// Lines a pan moves by (0: the driver cannot pan vertically).
    var panStep: Int { Int(fixed.ypanstep) }

    init(fd: Int32, path: String) throws {
        var variable = fb_var_screeninfo()
        var fixed = fb_fix_screeninfo()
        guard Self.control(fd, Self.getVariable, &variable) == 0, Self.control(fd, Self.getFixed, &fixed) == 0 else {
            throw DisplayError("\(path): not a framebuffer device (\(String(cString: strerror(errno)).lowercased()))")
        }
        self.variable = variable
        self.fixed = fixed
        guard fixed.type == UInt32(FB_TYPE_PACKED_PIXELS),
              fixed.visual == UInt32(FB_VISUAL_TRUECOLOR) || fixed.visual == UInt32(FB_VISUAL_DIRECTCOLOR) else {
            throw DisplayError("\(path): not a true-colour packed-pixel framebuffer (type \(fixed.type), visual "
                               + "\(fixed.visual))")
        }
        let channel = { (field: fb_bitfield) in PixelPacking.Channel(offset: Int(field.offset), length: Int(field.length)) }
        switch variable.bits_per_pixel {
        case 32, 16:
            packing = PixelPacking(bytesPerPixel: Int(variable.bits_per_pixel) / 8, red: channel(variable.red),
                                   green: channel(variable.green), blue: channel(variable.blue))
        default:
            throw DisplayError("\(path): \(variable.bits_per_pixel) bits per pixel is not supported (32 or 16)")
        }
        guard variable.xres > 0, variable.yres > 0, bytesPerRow >= Int(variable.xres) * packing.bytesPerPixel,
              bytesPerRow * Int(variable.yres) <= memoryLength else {
            throw DisplayError("\(path): inconsistent geometry (\(variable.xres)x\(variable.yres), pitch \(bytesPerRow), "
                               + "\(memoryLength) bytes)")
        }
    }

    /// The refresh rate from the timings (pixclock is picoseconds per pixel), when the driver fills them in.
    var refreshRate: Double? {
        let v = variable
        guard v.pixclock > 0 else { return nil }
        let width = Double(v.xres + v.left_margin + v.right_margin + v.hsync_len)
        let height = Double(v.yres + v.upper_margin + v.lower_margin + v.vsync_len)
        guard width > 0, height > 0 else { return nil }
        let rate = 1e12 / Double(v.pixclock) / (width * height)
        return rate.isFinite && rate >= 1 && rate <= 1000 ? rate : nil
    }

    /// ioctl with a pointer argument (drmIoctl is plain ioctl that retries on EINTR, and is not variadic in Swift).
    static func control<T>(_ fd: Int32, _ request: UInt, _ argument: inout T) -> Int32 {
        withUnsafeMutablePointer(to: &argument) { drmIoctl(fd, request, $0) }
    }

    /// The framebuffer devices present: /dev/fb0, fb1, ...
    static func devicePaths() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
        return names.filter { $0.hasPrefix("fb") && Int($0.dropFirst(2)) != nil }
            .sorted { Int($0.dropFirst(2))! < Int($1.dropFirst(2))! }
            .map { "/dev/\($0)" }
    }
}

extension FBDevOutput {
    /// What `lamina info` lists for fbdev: each /dev/fb* with its size and format, or why it is passed over.
    public static func probe(options: DisplayOutputOptions) -> [OutputProbe] {
        let paths = options.device.map { [$0] } ?? FBDevInfo.devicePaths()
        guard !paths.isEmpty else {
            return [OutputProbe(kind: .fbdev, usable: false, detail: "no /dev/fb* (no framebuffer driver loaded)")]
        }
        return paths.map { path in
            let fd = open(path, O_RDWR | O_CLOEXEC)
            guard fd >= 0 else {
                return OutputProbe(kind: .fbdev, usable: false, detail: "\(DisplayError.cannotOpen(path, errno: errno))")
            }
            defer { Glibc.close(fd) }
            do {
                let info = try FBDevInfo(fd: fd, path: path)
                let pans = Int(info.variable.yres_virtual) >= 2 * Int(info.variable.yres) && info.panStep > 0
                return OutputProbe(kind: .fbdev, usable: true,
                                   detail: "\(path): \(info.name), \(info.size), \(info.packing)"
                                       + (pans ? ", two buffers (panning)" : ", one buffer"))
            } catch {
                return OutputProbe(kind: .fbdev, usable: false, detail: "\(error)")
            }
        }
    }
}
