import CEGL
import CX11
import Foundation
import LaminaCore

/// The X11 output (docs/kiosk.md): a window the size of the screen, full-screen through EWMH where a window manager
/// runs, with an empty cursor, closed by WM_DELETE_WINDOW. The CPU path puts frames with MIT-SHM (plain XPutImage
/// where the server cannot share memory, e.g. over a network); the GPU path is EGL on the X11 platform. Paced by
/// the server's Present extension (a PresentNotifyMSC after each frame, `X11PresentPacing`), else by the frame
/// loop's timer at 60 Hz (LAMINA_X11_PRESENT=0, or a server without Present).
public final class X11Output: DisplayOutput {
    public let kind = DisplayOutputKind.x11
    public private(set) var size: PixelSize
    /// 60 until Present's completions show the rate (over a fifth of a second).
    public var refreshRate: Double { present?.measuredRate ?? 60 }
    public var summary: String { "x11 \(displayName) window 0x\(String(window, radix: 16)) \(size)\(shm == nil ? ", XPutImage" : ", MIT-SHM")" }
    public var eventDescriptors: [Int32] { [XConnectionNumber(display)] }
    public var isWaitingForFrame: Bool { present?.isWaiting ?? false }
    /// `.present` while the Present extension paces the frames, else `.timer`.
    public var pacing: DisplayPacing { present?.isWorking == true ? .present : .timer }
    public let supportsEGLWindow = true

    let display: OpaquePointer
    let displayName: String
    let window: Window
    private let visual: UnsafeMutablePointer<Visual>
    private let depth: Int32
    private let graphics: GC
    private let deleteWindow: Atom
    private var cursor: Cursor = 0
    private var shm: X11SharedImage?
    /// The Present extension's notifies; nil without it (the timer paces).
    private var present: X11PresentPacing?
    private var windowID: UnsafeMutablePointer<Window>?
    private var closed = false
    private let log: @Sendable (String) -> Void
    /// Set by Xlib's I/O error exit handler when the connection breaks (the server exited or dropped us): by default
    /// Xlib would end the whole process there; Lamina throws a `DisplayError` from the next call instead.
    private let loss = X11ConnectionLoss()

    /// Opens `options.device` or $DISPLAY. The window has `options.mode`'s size when one is given (a windowed
    /// kiosk for development), else the screen's.
    public init(options: DisplayOutputOptions = .init()) throws {
        log = options.log
        XInitThreads()
        let name = options.device ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        displayName = name
        guard let display = XOpenDisplay(name.isEmpty ? nil : name) else {
            throw DisplayError("X11: cannot open display \"\(name)\"")
        }
        self.display = display
        loss.watch(display)
        let screen = XDefaultScreen(display)
        let root = XRootWindow(display, screen)
        let width = options.mode?.width ?? Int(XDisplayWidth(display, screen))
        let height = options.mode?.height ?? Int(XDisplayHeight(display, screen))
        size = PixelSize(width: width, height: height)
        visual = XDefaultVisual(display, screen)
        depth = XDefaultDepth(display, screen)
        var attributes = XSetWindowAttributes()
        attributes.background_pixel = XBlackPixel(display, screen)
        attributes.event_mask = StructureNotifyMask | ExposureMask
        window = XCreateWindow(display, root, 0, 0, UInt32(width), UInt32(height), 0, depth, UInt32(InputOutput),
                               visual, UInt(CWBackPixel | CWEventMask), &attributes)
        graphics = XCreateGC(display, window, 0, nil)
        deleteWindow = XInternAtom(display, "WM_DELETE_WINDOW", 0)
        var protocols = [deleteWindow]
        XSetWMProtocols(display, window, &protocols, 1)
        XStoreName(display, window, "lamina")
        if options.mode == nil { requestFullscreen() }
        hidePointer()
        XMapRaised(display, window)
        XSync(display, 0)
        shm = X11SharedImage(display: display, visual: visual, depth: depth, size: size, log: log)
        present = X11PresentPacing(display: display, window: window, log: log)
        log("x11: \(summary)")
    }

    /// _NET_WM_STATE_FULLSCREEN, set before mapping so a window manager maps it full-screen (EWMH); without one the
    /// window already covers the screen.
    private func requestFullscreen() {
        let state = XInternAtom(display, "_NET_WM_STATE", 0)
        var fullscreen = XInternAtom(display, "_NET_WM_STATE_FULLSCREEN", 0)
        withUnsafeBytes(of: &fullscreen) { bytes in
            _ = XChangeProperty(display, window, state, XA_ATOM, 32, PropModeReplace,
                                bytes.bindMemory(to: UInt8.self).baseAddress, 1)
        }
    }

    /// An empty cursor over the window: kiosks show no pointer.
    private func hidePointer() {
        var zero: UInt8 = 0
        let blank = XCreateBitmapFromData(display, window, &zero, 1, 1)
        var foreground = XColor(), background = XColor()
        cursor = XCreatePixmapCursor(display, blank, blank, &foreground, &background, 0, 0)
        XDefineCursor(display, window, cursor)
        XFreePixmap(display, blank)
    }

    public func dispatchEvents() throws -> [DisplayEvent] {
        var events: [DisplayEvent] = []
        var event = XEvent()
        try checkConnection()
        while XPending(display) > 0, !loss.isLost {
            XNextEvent(display, &event)
            switch event.type {
            case ConfigureNotify:
                let new = PixelSize(width: Int(event.xconfigure.width), height: Int(event.xconfigure.height))
                if new != size, new.width > 0, new.height > 0 {
                    size = new
                    if shm != nil { shm = X11SharedImage(display: display, visual: visual, depth: depth, size: new, log: log) }
                    events.append(.resized(new))
                }
            case Expose:
                if event.xexpose.count == 0 { events.append(.exposed) }
            case ClientMessage:
                if Atom(event.xclient.data.l.0) == deleteWindow { events.append(.closeRequested) }
            case GenericEvent:
                if let shown = present?.handle(&event), let time = shown { events.append(.frameShown(mediaTime: time)) }
            default:
                break
            }
        }
        try checkConnection()
        return events
    }

    /// Throws when Xlib found the connection broken.
    private func checkConnection() throws {
        if loss.isLost {
            throw DisplayError("x11: the connection to display \"\(displayName)\" was lost (the X server exited or closed it)")
        }
    }

    public func present(_ frame: Image, damage: DamageRegion) throws {
        try checkConnection()
        guard frame.width == size.width, frame.height == size.height else {
            throw DisplayError("x11: a \(frame.width)x\(frame.height) frame for a \(size) window")
        }
        let region = damage.clipped(to: PixelBox(x0: 0, y0: 0, x1: size.width, y1: size.height))
        if let shm {
            shm.put(frame, region, to: window, graphics: graphics)
        } else {
            // Lamina's premultiplied BGRA words of an opaque frame are X's 24-bit TrueColor pixels as they are.
            guard let image = XCreateImage(display, visual, UInt32(depth), ZPixmap, 0,
                                           frame.baseAddress.assumingMemoryBound(to: CChar.self),
                                           UInt32(frame.width), UInt32(frame.height), 32, Int32(frame.bytesPerRow))
            else { throw DisplayError("x11: XCreateImage failed") }
            for rect in region.rects {
                XPutImage(display, window, graphics, image, Int32(rect.x0), Int32(rect.y0), Int32(rect.x0),
                          Int32(rect.y0), UInt32(rect.width), UInt32(rect.height))
            }
            image.pointee.data = nil  // The frame's memory is Lamina's: XDestroyImage must not free it.
            lamina_XDestroyImage(image)
        }
        XSync(display, 0)
        present?.frameWasPresented()
        try checkConnection()
    }

    public func makeEGLWindow() throws -> EGLWindowTarget {
        let id = windowID ?? UnsafeMutablePointer<Window>.allocate(capacity: 1)
        id.pointee = window
        windowID = id
        return EGLWindowTarget(platform: UInt32(EGL_PLATFORM_X11_KHR), nativeDisplay: UnsafeMutableRawPointer(display),
                               nativeWindow: UnsafeMutableRawPointer(id),
                               visualID: Int32(truncatingIfNeeded: XVisualIDFromVisual(visual)))
    }

    public func didSwapBuffers(damage: DamageRegion) throws {
        try checkConnection()
        present?.frameWasPresented()
    }

    public func close() {
        guard !closed else { return }
        closed = true
        shm = nil
        present?.close()
        present = nil
        XFreeGC(display, graphics)
        XDestroyWindow(display, window)
        if cursor != 0 { XFreeCursor(display, cursor) }
        loss.unwatch(display)
        XCloseDisplay(display)
        windowID?.deallocate()
        windowID = nil
    }

    deinit { close() }

    /// `lamina info`: whether $DISPLAY is set and opens.
    public static func probe(options: DisplayOutputOptions = .init()) -> [OutputProbe] {
        guard let name = options.device ?? ProcessInfo.processInfo.environment["DISPLAY"], !name.isEmpty else {
            return [OutputProbe(kind: .x11, usable: false, detail: "DISPLAY is not set")]
        }
        XInitThreads()
        guard let display = XOpenDisplay(name) else {
            return [OutputProbe(kind: .x11, usable: false, detail: "cannot open display \"\(name)\"")]
        }
        let loss = X11ConnectionLoss()
        loss.watch(display)
        defer {
            loss.unwatch(display)
            XCloseDisplay(display)
        }
        let screen = XDefaultScreen(display)
        var major: Int32 = 0, minor: Int32 = 0, pixmaps: Int32 = 0
        let shm = XShmQueryVersion(display, &major, &minor, &pixmaps) != 0
        return [OutputProbe(kind: .x11, usable: true,
                            detail: "display \"\(name)\", screen \(XDisplayWidth(display, screen))x"
                                + "\(XDisplayHeight(display, screen)), depth \(XDefaultDepth(display, screen)), "
                                + (shm ? "MIT-SHM \(major).\(minor)" : "no MIT-SHM (XPutImage)"))]
    }
}

/// Catches the loss of an X connection. Xlib first calls the process-wide I/O error handler, whose default prints
/// "X connection to :N broken" and calls exit(1), then (libX11 1.7 and later) the connection's exit handler, whose
/// default exits too: a kiosk whose X server restarts, or a test whose Xvfb stops first, would end the whole process
/// with no message of Lamina's. For Lamina's own connections the process-wide handler (installed once, passing any
/// other connection to the handler it replaced) only returns, and the exit handler records the loss; Xlib then marks
/// the connection dead, its later calls return without I/O, and XCloseDisplay frees it.
final class X11ConnectionLoss: @unchecked Sendable {
    private let flag = LockedFlag()

    var isLost: Bool { flag.isSet }

    /// Installs the handlers for `display`; `self` must outlive the connection (the output keeps it).
    func watch(_ display: OpaquePointer) {
        Self.installProcessHandler
        Self.lock.withLock { _ = Self.watched.insert(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(display)))) }
        XSetIOErrorExitHandler(display, { display, data in
            if let display { X11ConnectionLoss.forget(display) }
            guard let data else { return }
            Unmanaged<X11ConnectionLoss>.fromOpaque(data).takeUnretainedValue().flag.set()
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Before XCloseDisplay: a later connection at the same address is not Lamina's until watched.
    func unwatch(_ display: OpaquePointer) { Self.forget(display) }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var watched: Set<UInt> = []
    nonisolated(unsafe) private static var previous: XIOErrorHandler?

    private static func forget(_ display: OpaquePointer) {
        lock.withLock { _ = watched.remove(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(display)))) }
    }

    private static let installProcessHandler: Void = {
        let replaced = XSetIOErrorHandler { display in
            guard let display else { return 0 }
            let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(display)))
            let (ours, previous) = X11ConnectionLoss.lock.withLock {
                (X11ConnectionLoss.watched.contains(key), X11ConnectionLoss.previous)
            }
            // Lamina's connection: return, so that Xlib calls its exit handler above instead of exiting.
            if ours { return 0 }
            return previous?(display) ?? 0
        }
        lock.withLock { previous = replaced }
    }()
}
