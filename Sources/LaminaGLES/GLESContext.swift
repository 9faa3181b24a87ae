import CEGL
import Foundation
import LaminaCore

/// A GLES 3.0 context on a headless EGL display, current on the thread that made it. With
/// EGL_KHR_surfaceless_context it has no surface (rendering goes to framebuffer objects); without it, a 1 x 1
/// pbuffer. With EGL_KHR_no_config_context it has no config; without it, an RGBA8 ES3 pbuffer-capable config.
/// Where EGL_EXT_create_context_robustness is offered the context is robust with reset notification
/// (EGL_LOSE_CONTEXT_ON_RESET_EXT), so that a GPU reset is reported (`resetStatus()`) and the renderer can make a
/// new context (GLESRenderer's recovery) instead of drawing into a dead one.
public final class GLESContext {
    public let connection: EGLDisplayConnection
    public let context: EGLContext
    /// How the context was made (config, surface, robustness), for `lamina info` and logs.
    public let request: GLESContextRequest
    /// True when the context was made with reset notification (and so can report a GPU reset).
    public let isRobust: Bool
    /// The surface the context is current on: a window's (`GLESWindowRequest`), or a 1 x 1 pbuffer when the display
    /// lacks EGL_KHR_surfaceless_context, or none.
    let surface: EGLSurface?
    /// The window surface's config, for a context made for a window.
    let windowConfig: EGLConfig?
    /// True when `surface` is a window surface (presented with `GLESRenderer.present(_:)`).
    public var hasWindowSurface: Bool { windowConfig != nil }
    private let getResetStatus: PFNGLGETGRAPHICSRESETSTATUSKHRPROC?
    /// Test seam: a reset status that `resetStatus()` reports as if the GPU had been reset (and that makes
    /// `makeCurrent()` fail as EGL_CONTEXT_LOST would).
    var simulatedReset: GLenum?
    /// Test seam: reset-status queries that still report GL_NO_ERROR before `simulatedReset` shows (a reset in the
    /// middle of a frame).
    var simulatedResetDelay = 0

    /// `ignoring` pretends that the display lacks these extensions (for tests of the config and pbuffer paths on a
    /// driver that has them).
    public convenience init(connection: EGLDisplayConnection, log: (String) -> Void = { _ in }) throws {
        try self.init(connection: connection, ignoring: [], log: log)
    }

    /// With `window`, the context is made with a config for the window and current on a window surface of it
    /// (GLESContext+Window.swift).
    init(connection: EGLDisplayConnection, ignoring: Set<String>, window: GLESWindowRequest? = nil,
         log: (String) -> Void = { _ in }) throws {
        self.connection = connection
        let display = connection.display
        guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGLBoolean(EGL_TRUE) else {
            throw RenderError.unavailable("eglBindAPI(GLES) failed: \(EGLDisplayConnection.errorName(eglGetError()))")
        }
        let offered = ExtensionSet(connection.extensions.names.subtracting(ignoring).joined(separator: " "))
        var request = try GLESContextRequest.plan(extensions: offered, version: connection.version)
        var config: EGLConfig? = nil  // EGL_NO_CONFIG_KHR
        if let window {
            config = try Self.chooseWindowConfig(display, window, log: log)
            request.needsPbuffer = false
        } else if let attributes = request.configAttributes {
            config = try Self.chooseConfig(display, attributes)
        }
        var context: EGLContext?
        var robust = false
        if let attributes = request.robustContextAttributes {
            var list = attributes
            context = eglCreateContext(display, config, nil, &list)
            robust = context != nil
            if context == nil {
                log("egl: a robust context failed (\(EGLDisplayConnection.errorName(eglGetError()))); making a plain one")
            }
        }
        if context == nil {
            var list = request.contextAttributes
            context = eglCreateContext(display, config, nil, &list)
        }
        guard let context else {
            throw RenderError.unavailable(
                "eglCreateContext(GLES 3.0) failed: \(EGLDisplayConnection.errorName(eglGetError()))")
        }
        var surface: EGLSurface?
        if let window {
            surface = eglCreatePlatformWindowSurface(display, config, window.nativeWindow, nil)
            guard surface != nil else {
                let error = EGLDisplayConnection.errorName(eglGetError())
                eglDestroyContext(display, context)
                throw RenderError.unavailable("eglCreatePlatformWindowSurface failed: \(error)")
            }
        } else if request.needsPbuffer {
            var attributes: [EGLint] = [EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE]
            surface = eglCreatePbufferSurface(display, config, &attributes)
            guard surface != nil else {
                eglDestroyContext(display, context)
                throw RenderError.unavailable(
                    "the EGL display lacks EGL_KHR_surfaceless_context and eglCreatePbufferSurface failed: "
                        + EGLDisplayConnection.errorName(eglGetError()))
            }
        }
        guard eglMakeCurrent(display, surface, surface, context) == EGLBoolean(EGL_TRUE) else {
            let error = EGLDisplayConnection.errorName(eglGetError())
            if let surface { eglDestroySurface(display, surface) }
            eglDestroyContext(display, context)
            throw RenderError.unavailable("eglMakeCurrent failed: \(error)")
        }
        self.context = context
        self.surface = surface
        windowConfig = window == nil ? nil : config
        self.request = request
        isRobust = robust
        let glExtensions = ExtensionSet(glGetString(GLenum(GL_EXTENSIONS)).map { String(cString: $0) } ?? "")
        // A reset is reported only to a context made with reset notification; without one the query says nothing.
        getResetStatus = robust && glExtensions.containsAny(ExtensionRequirement.glRobustness.names)
            ? EGLDisplayConnection.procedure("glGetGraphicsResetStatusKHR")
                ?? EGLDisplayConnection.procedure("glGetGraphicsResetStatusEXT")
            : nil
        log("egl: context: \(request.summary), \(robust ? "robust (lose context on reset)" : "not robust")")
    }

    /// The first config of eglChooseConfig for `attributes`, or a named error.
    private static func chooseConfig(_ display: EGLDisplay, _ attributes: [EGLint]) throws -> EGLConfig {
        var list = attributes
        var config: EGLConfig?
        var count: EGLint = 0
        guard eglChooseConfig(display, &list, &config, 1, &count) == EGLBoolean(EGL_TRUE), count > 0, let config else {
            throw RenderError.unavailable(
                "the EGL display lacks EGL_KHR_no_config_context and has no config with GLES 3 rendering to RGBA8 "
                    + "pbuffers (EGL_RENDERABLE_TYPE EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE EGL_PBUFFER_BIT)")
        }
        return config
    }

    /// Makes this context current on the calling thread. Throws `GLESContextLost` when the context was lost (a
    /// GPU reset: EGL_CONTEXT_LOST, or a reset status other than GL_NO_ERROR).
    public func makeCurrent() throws {
        if let simulatedReset, simulatedResetDelay == 0 {
            throw GLESContextLost(status: simulatedReset, during: "making the context current")
        }
        guard eglGetCurrentContext() != context else { return }
        guard eglMakeCurrent(connection.display, surface, surface, context) == EGLBoolean(EGL_TRUE) else {
            let error = eglGetError()
            if error == EGL_CONTEXT_LOST {
                throw GLESContextLost(status: nil, during: "making the context current (EGL_CONTEXT_LOST)")
            }
            throw RenderError.failed("eglMakeCurrent failed: \(EGLDisplayConnection.errorName(error))")
        }
    }

    /// glGetGraphicsResetStatus: GL_NO_ERROR while the context is good (and always, for a context that is not
    /// robust), else GL_GUILTY_CONTEXT_RESET, GL_INNOCENT_CONTEXT_RESET or GL_UNKNOWN_CONTEXT_RESET.
    public func resetStatus() -> GLenum {
        if let simulatedReset {
            guard simulatedResetDelay > 0 else { return simulatedReset }
            simulatedResetDelay -= 1
        }
        return getResetStatus?() ?? GLenum(GL_NO_ERROR)
    }

    /// Whether a GPU reset can be detected: a robust context with glGetGraphicsResetStatus.
    public var reportsResets: Bool { getResetStatus != nil }

    /// Makes this context current for releasing its objects after a reset, bypassing the simulated loss; where it
    /// cannot be made current (truly lost), makes no context current, so that the deletions reach no other
    /// context (GL calls without a current context do nothing; the names are freed with the context anyway).
    func bindForRelease() {
        if eglMakeCurrent(connection.display, surface, surface, context) != EGLBoolean(EGL_TRUE) {
            eglMakeCurrent(connection.display, nil, nil, nil)
        }
    }

    /// Test seam: makes this context behave as after a GPU reset that this context caused
    /// (GL_GUILTY_CONTEXT_RESET): `resetStatus()` reports it and `makeCurrent()` throws `GLESContextLost`.
    func simulateReset(_ status: GLenum = GLenum(GL_GUILTY_CONTEXT_RESET_KHR), afterChecks delay: Int = 0) {
        simulatedReset = status
        simulatedResetDelay = delay
    }

    /// The context's extensions.
    public var extensions: Set<String> {
        Set(string(GL_EXTENSIONS).split(separator: " ").map(String.init))
    }

    deinit {
        // Unbind only when this context is current: a renderer replacing a lost context has already made the new
        // one current.
        if eglGetCurrentContext() == context { eglMakeCurrent(connection.display, nil, nil, nil) }
        eglDestroyContext(connection.display, context)
        if let surface { eglDestroySurface(connection.display, surface) }
    }

    /// glGetString, or "" when the driver returns nothing.
    public func string(_ name: Int32) -> String {
        glGetString(GLenum(name)).map { String(cString: $0) } ?? ""
    }

    public var maxTextureSize: Int {
        var size: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &size)
        return Int(size)
    }
}

/// The GL context was lost to a GPU reset. GLESRenderer catches it, makes a new context and draws the frame again;
/// callers see it only when that fails too (as `RenderError.failed`, which names the reset).
public struct GLESContextLost: Error, CustomStringConvertible {
    /// The reset status, nil when only EGL reported the loss.
    public var status: GLenum?
    public var during: String

    /// "GL_GUILTY_CONTEXT_RESET", or "EGL_CONTEXT_LOST" when GL gave no status.
    public var statusName: String {
        switch status.map(Int32.init) {
        case GL_GUILTY_CONTEXT_RESET_KHR?: return "GL_GUILTY_CONTEXT_RESET"
        case GL_INNOCENT_CONTEXT_RESET_KHR?: return "GL_INNOCENT_CONTEXT_RESET"
        case GL_UNKNOWN_CONTEXT_RESET_KHR?: return "GL_UNKNOWN_CONTEXT_RESET"
        case nil: return "EGL_CONTEXT_LOST"
        case let other?: return String(format: "reset status 0x%04X", other)
        }
    }

    public var description: String { "the GL context was lost to a GPU reset (\(statusName)) while \(during)" }
}

/// What `lamina info` reports about the GLES side of this machine.
public struct GLESInfo: Sendable {
    public var platform: String
    public var device: String
    public var vendor: String
    public var renderer: String
    public var version: String
    public var maxTextureSize: Int
    /// True for software rasterisers (llvmpipe, softpipe, SwiftShader), where the CPU renderer is faster.
    public var isSoftware: Bool
    public var attempts: [EGLDisplayConnection.Attempt]
    /// The EGL version, e.g. "1.5".
    public var eglVersion: String
    /// How the context was made, e.g. "no config, surfaceless".
    public var context: String
    /// Whether the context reports GPU resets (EGL_EXT_create_context_robustness and GL_KHR_robustness), so that
    /// the renderer can recover from one.
    public var resetNotification: Bool
    /// Why no GPU is used although an NVIDIA driver is present (NVIDIAGraphicsCheck); nil otherwise.
    public var gpuNote: String?

    /// Opens a display and a context and reads the driver's strings.
    public static func probe(log: (String) -> Void = { _ in }) throws -> GLESInfo {
        let context = try GLESContext(connection: EGLDisplayConnection.shared(log: log), log: log)
        return describe(context)
    }

    static func describe(_ context: GLESContext) -> GLESInfo {
        let connection = context.connection
        let renderer = context.string(GL_RENDERER)
        let software = ["llvmpipe", "softpipe", "swiftshader", "software"].contains {
            renderer.lowercased().contains($0)
        }
        return GLESInfo(
            platform: connection.platform, device: connection.device, vendor: context.string(GL_VENDOR),
            renderer: renderer, version: context.string(GL_VERSION), maxTextureSize: context.maxTextureSize,
            isSoftware: software, attempts: connection.attempts,
            eglVersion: "\(connection.version.major).\(connection.version.minor)", context: context.request.summary,
            resetNotification: context.reportsResets,
            gpuNote: software ? connection.gpuNote ?? NVIDIAGraphicsCheck.current() : nil)
    }
}
