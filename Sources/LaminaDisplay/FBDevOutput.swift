import CDRM
import Foundation
import LaminaCore

/// A Linux framebuffer device (/dev/fb0; docs/kiosk.md, "fbdev"): the screen's memory mapped and written by the
/// CPU, 32 bpp XRGB8888 or 16 bpp RGB565 (any channel places the var-info gives). Where the virtual height holds
/// two screens the output draws into the hidden half and pans to it (FBIOPAN_DISPLAY); otherwise it copies the
/// damaged pixels straight to the screen. FBIO_WAITFORVSYNC paces frames where the driver has it; else the frame
/// loop's timer does. Only the CPU path: the GPU renderer draws offscreen and presents images here.
public final class FBDevOutput: DisplayOutput {
    public let kind = DisplayOutputKind.fbdev
    public let summary: String
    public let size: PixelSize
    public var refreshRate: Double
    public var eventDescriptors: [Int32] { [] }
    public var isWaitingForFrame: Bool { false }
    public var supportsEGLWindow: Bool { false }

    let path: String
    let fd: Int32
    let packing: PixelPacking
    let bytesPerRow: Int
    let memory: UnsafeMutableRawPointer
    let memoryLength: Int
    /// The var-info as found: its pan offset is put back by `close()`.
    let original: fb_var_screeninfo
    /// Two screens fit in the virtual height: draw in the hidden one and pan.
    let pans: Bool
    /// Which half shows now (pan mode).
    var shownHalf = 0
    var bufferDamage = AlternatingBufferDamage()
    /// FBIO_WAITFORVSYNC failed once (most drivers lack it): not asked again.
    var vsyncUnsupported = false
    private var closed = false
    /// The text console kept from drawing over the picture.
    private var console: ConsoleGraphicsMode
    let log: @Sendable (String) -> Void

    /// Opens `options.device` (default /dev/fb0) and maps its memory.
    public init(options: DisplayOutputOptions) throws {
        let path = options.device ?? "/dev/fb0"
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw DisplayError.cannotOpen(path, errno: errno) }
        let info: FBDevInfo
        do {
            info = try FBDevInfo(fd: fd, path: path)
        } catch {
            Glibc.close(fd)
            throw error
        }
        if let mode = options.mode, mode.width != info.size.width || mode.height != info.size.height {
            Glibc.close(fd)
            throw DisplayError("\(path): the framebuffer is \(info.size); it has no mode \(mode) (fbdev cannot change "
                               + "modes: set it with the kernel's video= option)")
        }
        let mapped = mmap(nil, info.memoryLength, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let mapped, mapped != MAP_FAILED else {
            let reason = String(cString: strerror(errno)).lowercased()
            Glibc.close(fd)
            throw DisplayError("\(path): cannot map the framebuffer: \(reason)")
        }
        self.path = path
        self.fd = fd
        self.packing = info.packing
        self.bytesPerRow = info.bytesPerRow
        self.memory = mapped
        self.memoryLength = info.memoryLength
        self.original = info.variable
        self.size = info.size
        self.refreshRate = info.refreshRate ?? 60
        self.log = options.log
        let height = Int(info.variable.yres)
        // LAMINA_FBDEV_PAN=0 keeps to one buffer (for drivers whose panning misbehaves, and to test that path).
        pans = Int(info.variable.yres_virtual) >= 2 * height && info.panStep > 0
            && info.bytesPerRow * 2 * height <= info.memoryLength
            && ProcessInfo.processInfo.environment["LAMINA_FBDEV_PAN"] != "0"
        shownHalf = pans && Int(info.variable.yoffset) >= height ? 1 : 0
        summary = "fbdev \(path) \(info.name) \(size) \(packing)\(pans ? ", panning" : "")"
        log("fbdev: \(summary)")
        console = ConsoleGraphicsMode(log: options.log)
    }

    deinit { close() }

    public func dispatchEvents() throws -> [DisplayEvent] { [] }

    public func present(_ frame: Image, damage: DamageRegion) throws {
        guard !closed else { throw DisplayError("\(path): the output is closed") }
        guard frame.width == size.width, frame.height == size.height else {
            throw DisplayError("\(path): a \(frame.width)x\(frame.height) frame for a \(size) framebuffer")
        }
        let x0 = Int(original.xoffset)
        let origin = memory.advanced(by: x0 * packing.bytesPerPixel)
        if pans {
            let back = 1 - shownHalf
            let region = bufferDamage.region(for: back, damage: damage, size: size)
            packing.copy(region, of: frame, into: origin.advanced(by: back * size.height * bytesPerRow),
                         bytesPerRow: bytesPerRow)
            var info = original
            info.yoffset = UInt32(back * size.height)
            guard FBDevInfo.control(fd, FBDevInfo.panDisplay, &info) == 0 else {
                throw DisplayError("\(path): panning failed: \(String(cString: strerror(errno)).lowercased())")
            }
            shownHalf = back
            waitForVSync()
        } else {
            // Straight to the screen: wait for the blank first, so the copy tears less.
            waitForVSync()
            let visible = origin.advanced(by: Int(original.yoffset) * bytesPerRow)
            packing.copy(damage, of: frame, into: visible, bytesPerRow: bytesPerRow)
        }
    }

    func waitForVSync() {
        guard !vsyncUnsupported else { return }
        var screen: UInt32 = 0
        if FBDevInfo.control(fd, FBDevInfo.waitForVSync, &screen) != 0 {
            vsyncUnsupported = true
            log("fbdev: \(path) has no FBIO_WAITFORVSYNC; frames are paced by a timer")
        }
    }

    public func makeEGLWindow() throws -> EGLWindowTarget {
        throw DisplayError("\(path): fbdev has no EGL window (the GLES renderer draws offscreen here)")
    }

    public func didSwapBuffers(damage: DamageRegion) throws {
        throw DisplayError("\(path): fbdev has no EGL window (the GLES renderer draws offscreen here)")
    }

    public func close() {
        guard !closed else { return }
        closed = true
        if pans {
            var info = original
            _ = FBDevInfo.control(fd, FBDevInfo.panDisplay, &info)
        }
        munmap(memory, memoryLength)
        Glibc.close(fd)
        console.restore()
    }
}
