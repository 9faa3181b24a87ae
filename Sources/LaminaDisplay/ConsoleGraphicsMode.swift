import CDRM
import Foundation

/// The text console switched to graphics mode (KDSETMODE KD_GRAPHICS on /dev/tty0) while an fbdev output shows
/// frames, so the console stops drawing its cursor and text over the picture on the same framebuffer; back to text
/// mode on `restore()`. Where the console cannot be opened (no permission, no VT) nothing is changed.
struct ConsoleGraphicsMode {
    // linux/kd.h.
    static let setMode: UInt = 0x4B3A
    static let getMode: UInt = 0x4B3B
    static let graphics = 1

    private var fd: Int32 = -1
    private var previous: Int32 = 0

    init(log: (String) -> Void) {
        let fd = open("/dev/tty0", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            log("fbdev: the console stays in text mode (/dev/tty0: \(String(cString: strerror(errno)).lowercased()))")
            return
        }
        var mode: Int32 = 0
        // KDSETMODE takes the mode as the argument itself, not a pointer to it.
        guard withUnsafeMutablePointer(to: &mode, { drmIoctl(fd, Self.getMode, $0) }) == 0,
              drmIoctl(fd, Self.setMode, UnsafeMutableRawPointer(bitPattern: Self.graphics)) == 0 else {
            log("fbdev: the console stays in text mode (KDSETMODE: \(String(cString: strerror(errno)).lowercased()))")
            Glibc.close(fd)
            return
        }
        self.fd = fd
        previous = mode
        log("fbdev: console in graphics mode")
    }

    /// Puts the console's mode back (text, normally) and closes it. Safe to call twice.
    mutating func restore() {
        guard fd >= 0 else { return }
        _ = drmIoctl(fd, Self.setMode, UnsafeMutableRawPointer(bitPattern: Int(previous)))
        Glibc.close(fd)
        fd = -1
    }
}
