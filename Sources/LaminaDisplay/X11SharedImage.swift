import CX11
import Foundation
import LaminaCore

/// An XImage in System V shared memory (MIT-SHM): frames are copied into it, damaged rectangles only, and put
/// with XShmPutImage, so pixels do not travel through the X socket. Nil where the server has no MIT-SHM or
/// cannot attach the segment (a remote display).
final class X11SharedImage {
    private let display: OpaquePointer
    private let image: UnsafeMutablePointer<XImage>
    private var info = XShmSegmentInfo()

    init?(display: OpaquePointer, visual: UnsafeMutablePointer<Visual>, depth: Int32, size: PixelSize,
          log: (String) -> Void) {
        self.display = display
        guard XShmQueryExtension(display) != 0, depth == 24 || depth == 32 else {
            log("x11: no MIT-SHM (or depth \(depth)): frames go through XPutImage")
            return nil
        }
        guard let image = XShmCreateImage(display, visual, UInt32(depth), ZPixmap, nil, &info, UInt32(size.width),
                                          UInt32(size.height))
        else { return nil }
        self.image = image
        let bytes = Int(image.pointee.bytes_per_line) * Int(image.pointee.height)
        info.shmid = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0o600)
        guard info.shmid >= 0, let address = shmat(info.shmid, nil, 0), address != UnsafeMutableRawPointer(bitPattern: -1)
        else {
            if info.shmid >= 0 { shmctl(info.shmid, IPC_RMID, nil) }
            lamina_XDestroyImage(image)
            log("x11: shmget/shmat failed: frames go through XPutImage")
            return nil
        }
        info.shmaddr = address.assumingMemoryBound(to: CChar.self)
        image.pointee.data = info.shmaddr
        info.readOnly = 0
        // Attached, then marked for removal: the segment goes when both sides detach, even if the process dies.
        let attached = Self.attach(display, &info)
        shmctl(info.shmid, IPC_RMID, nil)
        guard attached else {
            shmdt(address)
            image.pointee.data = nil
            lamina_XDestroyImage(image)
            log("x11: the server cannot attach shared memory (a remote display?): frames go through XPutImage")
            return nil
        }
    }

    /// XShmAttach, with X errors caught: a server on another machine fails it with BadAccess, which by default
    /// would end the process.
    private static func attach(_ display: OpaquePointer, _ info: inout XShmSegmentInfo) -> Bool {
        X11Errors.lock.lock()
        defer { X11Errors.lock.unlock() }
        X11Errors.failed = false
        let previous = XSetErrorHandler { _, _ in
            X11Errors.failed = true
            return 0
        }
        let ok = XShmAttach(display, &info) != 0
        XSync(display, 0)
        XSetErrorHandler(previous)
        return ok && !X11Errors.failed
    }

    /// Copies `region` of `frame` into the shared image and puts those rectangles on `window`; the caller syncs
    /// before the next frame writes the memory again.
    func put(_ frame: Image, _ region: DamageRegion, to window: Window, graphics: GC) {
        let stride = Int(image.pointee.bytes_per_line)
        let base = UnsafeMutableRawPointer(image.pointee.data!)
        for rect in region.rects {
            for y in rect.y0..<rect.y1 {
                memcpy(base + y * stride + rect.x0 * 4, frame.baseAddress + y * frame.bytesPerRow + rect.x0 * 4,
                       rect.width * 4)
            }
            XShmPutImage(display, window, graphics, image, Int32(rect.x0), Int32(rect.y0), Int32(rect.x0),
                         Int32(rect.y0), UInt32(rect.width), UInt32(rect.height), 0)
        }
    }

    deinit {
        XShmDetach(display, &info)
        XSync(display, 0)
        shmdt(info.shmaddr)
        image.pointee.data = nil
        lamina_XDestroyImage(image)
    }
}

/// The X error handler's flag (a C callback captures nothing).
enum X11Errors {
    nonisolated(unsafe) static var failed = false
    static let lock = NSLock()
}
