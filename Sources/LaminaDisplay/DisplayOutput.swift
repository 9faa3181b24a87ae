import Foundation
import LaminaCore

/// The size of an output in pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}

/// What an output tells the frame loop after reading its events.
public enum DisplayEvent: Equatable, Sendable {
    /// The output's size changed (X11 ConfigureNotify, a Wayland configure): the next frame is drawn whole at it.
    case resized(PixelSize)
    /// The output lost its pixels (an X11 Expose): the next frame is presented whole.
    case exposed
    /// The user closed the window (X11 WM_DELETE_WINDOW, xdg_toplevel.close): the loop stops, exit status 0.
    case closeRequested
    /// The frame presented last is on screen (a page flip completed, a frame callback came): the loop may present
    /// the next. `mediaTime` is when it was shown, in `currentMediaTime()` seconds, where the output knows it.
    case frameShown(mediaTime: Double?)
}

/// What an output gives EGL for the GPU path: a native display and window of one EGL platform. The renderer makes
/// an EGL display on `platform` for `nativeDisplay`, a config with a window bit (8-bit ARGB when `needsAlpha`,
/// whose EGL_NATIVE_VISUAL_ID is `visualID` when given), and a window surface for `nativeWindow`.
public struct EGLWindowTarget {
    /// EGL_PLATFORM_X11_KHR, EGL_PLATFORM_WAYLAND_KHR or EGL_PLATFORM_GBM_KHR.
    public var platform: UInt32
    /// Display* (X11), wl_display* (Wayland), gbm_device* (GBM).
    public var nativeDisplay: UnsafeMutableRawPointer
    /// For eglCreatePlatformWindowSurface: a pointer to the X11 Window id (kept alive by the output), the
    /// wl_egl_window*, or the gbm_surface*.
    public var nativeWindow: UnsafeMutableRawPointer
    /// The native visual the config must have (the GBM format, the X11 visual id), or nil for any.
    public var visualID: Int32?
    /// Whether the config must have 8 alpha bits (Wayland: opaque configs show black on some compositors).
    public var needsAlpha: Bool

    public init(platform: UInt32, nativeDisplay: UnsafeMutableRawPointer, nativeWindow: UnsafeMutableRawPointer,
                visualID: Int32? = nil, needsAlpha: Bool = false) {
        self.platform = platform
        self.nativeDisplay = nativeDisplay
        self.nativeWindow = nativeWindow
        self.visualID = visualID
        self.needsAlpha = needsAlpha
    }
}

/// A screen Lamina draws on (docs/kiosk.md): DRM/KMS, fbdev, an X11 window or a Wayland toplevel. An output is a
/// consumer of frames and knows nothing of layers; the frame loop (`Display`) calls it on one thread.
///
/// The two paths:
/// - CPU: `present(_:damage:)` gets each frame as an `Image` (premultiplied BGRA words, Lamina's format) of the
///   output's size, and copies only the damaged pixels into the buffer it shows next.
/// - GPU: the output gives an `EGLWindowTarget`; the renderer draws into the window surface and swaps, then
///   `didSwapBuffers(damage:)` lets the output show the new buffer (DRM: lock the front buffer and flip). Nothing is
///   read back.
public protocol DisplayOutput: AnyObject {
    /// The output's kind ("drm", "fbdev", "x11", "wayland").
    var kind: DisplayOutputKind { get }
    /// One line for logs and `--stats`: kind, device or display, connector, mode.
    var summary: String { get }
    /// The size in pixels now (a window's current size; the mode's).
    var size: PixelSize { get }
    /// The refresh rate in Hz (the mode's; 60 where the output cannot tell).
    var refreshRate: Double { get }
    /// Descriptors the loop polls for the output's events (readable). Empty where there are none.
    var eventDescriptors: [Int32] { get }
    /// Reads and handles every pending event without blocking; returns what the loop must act on.
    func dispatchEvents() throws -> [DisplayEvent]
    /// True from a present until the output can take the next one (a flip or frame callback pending).
    var isWaitingForFrame: Bool { get }
    /// What paces the frames now (docs/kiosk.md, "Pacing"); a default says `.timer`.
    var pacing: DisplayPacing { get }
    /// Whether this output can give an EGL window target (`makeEGLWindow()`); fbdev cannot, so the GPU renderer
    /// draws offscreen there and its frames are presented as images.
    var supportsEGLWindow: Bool { get }
    /// CPU path: shows `frame` (the output's size), of which only `damage` differs from the frame presented last
    /// (the whole frame the first time and after a resize).
    func present(_ frame: Image, damage: DamageRegion) throws
    /// GPU path: the native display and window for EGL; called once, after which frames go through the surface.
    func makeEGLWindow() throws -> EGLWindowTarget
    /// GPU path: called just before eglSwapBuffers (Wayland: ask for the frame callback the swap's commit carries).
    /// A default does nothing.
    func willSwapBuffers() throws
    /// GPU path: called after eglSwapBuffers with the frame's damage (DRM: lock the new front buffer, flip).
    func didSwapBuffers(damage: DamageRegion) throws
    /// Gives the display back: restores the previous mode and CRTC, destroys the window. Safe to call twice.
    func close()
}

extension DisplayOutput {
    /// Outputs with nothing to do before a swap.
    public func willSwapBuffers() throws {}
}

/// The outputs `Display` and `lamina play --output` know.
public enum DisplayOutputKind: String, CaseIterable, Sendable {
    case auto, drm, fbdev, x11, wayland
}

/// An output that cannot be opened or failed while showing frames: exit status 1 in `lamina play`. The message
/// names the device or display and, where one is known, what to do (docs/kiosk.md, "Troubleshooting").
public struct DisplayError: Error, CustomStringConvertible, Equatable {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }

    /// `cannot open PATH: REASON` with a hint for permission errors.
    public static func cannotOpen(_ path: String, errno code: Int32) -> DisplayError {
        let reason = String(cString: strerror(code)).lowercased()
        if code == EACCES || code == EPERM {
            return DisplayError("cannot open \(path): \(reason) (run as a member of the video group, or from a "
                                    + "console session)")
        }
        return DisplayError("cannot open \(path): \(reason)")
    }
}

/// A display mode asked for with `--mode WxH[@HZ]`.
public struct DisplayMode: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// The refresh rate in Hz, or nil for the best the output has at that size.
    public var refreshRate: Double?

    public init(width: Int, height: Int, refreshRate: Double? = nil) {
        self.width = width
        self.height = height
        self.refreshRate = refreshRate
    }

    /// Parses `WxH` or `WxH@HZ` (`1920x1080@60`); nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), w > 0, h > 0, w <= 16384, h <= 16384
        else { return nil }
        var rate: Double?
        if parts.count == 2 {
            guard let hz = Double(parts[1]), hz.isFinite, hz > 0, hz <= 1000 else { return nil }
            rate = hz
        }
        self.init(width: w, height: h, refreshRate: rate)
    }

    public var description: String {
        guard let refreshRate else { return "\(width)x\(height)" }
        return "\(width)x\(height)@" + String(format: refreshRate == refreshRate.rounded() ? "%.0f" : "%.2f", refreshRate)
    }
}

/// What opening an output takes (`lamina play`'s `--device`, `--connector`, `--mode`).
public struct DisplayOutputOptions: Sendable {
    /// A DRM card (/dev/dri/card0) or framebuffer (/dev/fb0); nil: the first that works.
    public var device: String?
    /// The DRM connector by name (HDMI-A-1, Virtual-1); nil: the first connected one.
    public var connector: String?
    /// The mode; nil: the connector's preferred mode (a window: the screen's size).
    public var mode: DisplayMode?
    /// Debug lines (`lamina play --verbose`).
    public var log: @Sendable (String) -> Void

    public init(device: String? = nil, connector: String? = nil, mode: DisplayMode? = nil,
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.device = device
        self.connector = connector
        self.mode = mode
        self.log = log
    }
}

/// One line of `lamina info`'s outputs: an output found, or why it was passed over.
public struct OutputProbe: Sendable, CustomStringConvertible {
    public var kind: DisplayOutputKind
    /// Usable now: `auto` would take it in its turn.
    public var usable: Bool
    /// What was found ("/dev/dri/card0: connector Virtual-1 connected, 1280x800@75") or why not
    /// ("WAYLAND_DISPLAY is not set").
    public var detail: String

    public init(kind: DisplayOutputKind, usable: Bool, detail: String) {
        self.kind = kind
        self.usable = usable
        self.detail = detail
    }

    public var description: String { "\(kind.rawValue): \(usable ? "" : "passed over: ")\(detail)" }
}
