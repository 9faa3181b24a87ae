import CEGL
import Foundation
import LaminaCore

/// A native window for GLES to draw into (a display output's: an X11 window, a wl_egl_window, a gbm_surface),
/// on the EGL display of its platform (`EGLDisplayConnection.platform(_:nativeDisplay:name:)`).
public struct GLESWindowRequest {
    /// What eglCreatePlatformWindowSurface takes: a pointer to the X11 Window id, the wl_egl_window*, the
    /// gbm_surface*. The caller keeps it alive while the renderer lives.
    public var nativeWindow: UnsafeMutableRawPointer
    /// The native visual the config must have (the GBM format, the X11 visual id), or nil for any.
    public var visualID: Int32?
    /// Whether the config must have 8 alpha bits (Wayland compositors may show opaque configs as black).
    public var needsAlpha: Bool

    public init(nativeWindow: UnsafeMutableRawPointer, visualID: Int32? = nil, needsAlpha: Bool = false) {
        self.nativeWindow = nativeWindow
        self.visualID = visualID
        self.needsAlpha = needsAlpha
    }
}

extension GLESContext {
    /// The window config: GLES 3 renderable, a window surface, exactly 8 bits of red, green and blue (Mesa lists
    /// 10-bit configs first), 8 of alpha when the window needs it (else the fewest alpha bits), and the native
    /// visual when one is asked for. Throws a named error listing what was asked when none matches.
    static func chooseWindowConfig(_ display: EGLDisplay, _ window: GLESWindowRequest,
                                   log: (String) -> Void) throws -> EGLConfig {
        var attributes: [EGLint] = [
            EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
            EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, window.needsAlpha ? 8 : 0, EGL_NONE,
        ]
        var count: EGLint = 0
        guard eglChooseConfig(display, &attributes, nil, 0, &count) == EGLBoolean(EGL_TRUE), count > 0 else {
            throw RenderError.unavailable("the EGL display has no GLES 3 window config with 8-bit colour")
        }
        var configs = [EGLConfig?](repeating: nil, count: Int(count))
        _ = eglChooseConfig(display, &attributes, &configs, count, &count)
        func value(_ config: EGLConfig, _ attribute: Int32) -> Int32 {
            var v: EGLint = 0
            eglGetConfigAttrib(display, config, attribute, &v)
            return v
        }
        let candidates = configs.prefix(Int(count)).compactMap { $0 }.filter { config in
            value(config, EGL_RED_SIZE) == 8 && value(config, EGL_GREEN_SIZE) == 8 && value(config, EGL_BLUE_SIZE) == 8
                && (!window.needsAlpha || value(config, EGL_ALPHA_SIZE) == 8)
                && (window.visualID.map { value(config, EGL_NATIVE_VISUAL_ID) == $0 } ?? true)
        }
        // Without a need for alpha, an opaque config where there is one: scanout and X11 visuals of depth 24.
        let ordered = window.needsAlpha ? candidates : candidates.sorted { value($0, EGL_ALPHA_SIZE) < value($1, EGL_ALPHA_SIZE) }
        guard let config = ordered.first else {
            let visual = window.visualID.map { String(format: ", native visual 0x%X", $0) } ?? ""
            throw RenderError.unavailable(
                "the EGL display has no GLES 3 window config with 8-bit RGB\(window.needsAlpha ? "A" : "")\(visual) "
                    + "(of \(count) with 8 bits or more)")
        }
        log("egl: window config \(value(config, EGL_CONFIG_ID)): RGBA \(value(config, EGL_RED_SIZE))"
                + "\(value(config, EGL_GREEN_SIZE))\(value(config, EGL_BLUE_SIZE))\(value(config, EGL_ALPHA_SIZE)), "
                + String(format: "native visual 0x%X", value(config, EGL_NATIVE_VISUAL_ID)))
        return config
    }

    /// Makes no context current on the calling thread if this one is: a context can be current on one thread at a
    /// time, so one made on a thread and used on another is let go by the first (the next frame makes it current).
    public func releaseCurrent() {
        if eglGetCurrentContext() == context { eglMakeCurrent(connection.display, nil, nil, nil) }
    }

    /// The window surface's size now (it follows an X11 window's resizes on its own).
    public var windowSurfaceSize: (width: Int, height: Int) {
        guard let surface, hasWindowSurface else { return (0, 0) }
        var w: EGLint = 0, h: EGLint = 0
        eglQuerySurface(connection.display, surface, EGL_WIDTH, &w)
        eglQuerySurface(connection.display, surface, EGL_HEIGHT, &h)
        return (Int(w), Int(h))
    }
}

extension EGLDisplayConnection {
    /// The EGL display of a window system's native display (EGL_PLATFORM_X11_KHR with a Display*,
    /// EGL_PLATFORM_WAYLAND_KHR with a wl_display*, EGL_PLATFORM_GBM_KHR with a gbm_device*), initialised; `name`
    /// is what logs and `lamina info` call it. Each call makes a display of its own, terminated when released.
    public static func platform(_ platform: UInt32, nativeDisplay: UnsafeMutableRawPointer,
                                name: String) throws -> EGLDisplayConnection {
        let platformName: String
        switch Int32(bitPattern: platform) {
        case EGL_PLATFORM_X11_KHR: platformName = "x11"
        case EGL_PLATFORM_WAYLAND_KHR: platformName = "wayland"
        case EGL_PLATFORM_GBM_KHR: platformName = "gbm"
        default: platformName = String(format: "platform 0x%X", platform)
        }
        guard let display = eglGetPlatformDisplay(EGLenum(platform), nativeDisplay, nil) else {
            throw RenderError.unavailable(
                "eglGetPlatformDisplay(\(platformName)) failed: \(errorName(eglGetError()))")
        }
        guard let version = initialize(display) else {
            throw RenderError.unavailable("eglInitialize on \(platformName) \(name) failed: \(errorName(eglGetError()))")
        }
        return EGLDisplayConnection(display: display, version: version, platform: platformName, device: name,
                                    attempts: [Attempt(platform: platformName, device: name, failure: nil)])
    }
}
