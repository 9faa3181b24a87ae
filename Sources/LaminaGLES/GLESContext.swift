import CEGL
import Foundation
import LaminaCore

/// A GLES 3.0 context on a headless EGL display, current on the thread that made it, with no surface
/// (EGL_KHR_surfaceless_context); rendering goes to framebuffer objects.
public final class GLESContext {
    public let connection: EGLDisplayConnection
    public let context: EGLContext

    public init(connection: EGLDisplayConnection) throws {
        self.connection = connection
        let display = connection.display
        guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGLBoolean(EGL_TRUE) else {
            throw RenderError.unavailable("eglBindAPI(GLES) failed: \(EGLDisplayConnection.errorName(eglGetError()))")
        }
        let extensions = String(cString: eglQueryString(display, EGLint(EGL_EXTENSIONS)))
        guard extensions.contains("EGL_KHR_surfaceless_context") else {
            throw RenderError.unavailable("the EGL display lacks EGL_KHR_surfaceless_context")
        }
        var configAttributes: [EGLint] = [EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_NONE]
        var config: EGLConfig?
        var count: EGLint = 0
        // A config is needed only to create the context; with no surface any ES3-capable one does.
        if eglChooseConfig(display, &configAttributes, &config, 1, &count) != EGLBoolean(EGL_TRUE) || count == 0 {
            config = nil
        }
        var contextAttributes: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE]
        guard let context = eglCreateContext(display, config, nil, &contextAttributes) else {
            throw RenderError.unavailable(
                "eglCreateContext(GLES 3.0) failed: \(EGLDisplayConnection.errorName(eglGetError()))")
        }
        self.context = context
        guard eglMakeCurrent(display, nil, nil, context) == EGLBoolean(EGL_TRUE) else {
            eglDestroyContext(display, context)
            throw RenderError.unavailable("eglMakeCurrent failed: \(EGLDisplayConnection.errorName(eglGetError()))")
        }
    }

    /// Makes this context current on the calling thread; throws when the context was lost.
    public func makeCurrent() throws {
        guard eglGetCurrentContext() != context else { return }
        guard eglMakeCurrent(connection.display, nil, nil, context) == EGLBoolean(EGL_TRUE) else {
            let error = eglGetError()
            if error == EGL_CONTEXT_LOST {
                throw RenderError.failed("the GL context was lost (EGL_CONTEXT_LOST); create a new renderer")
            }
            throw RenderError.failed("eglMakeCurrent failed: \(EGLDisplayConnection.errorName(error))")
        }
    }

    /// The context's extensions.
    public var extensions: Set<String> {
        Set(string(GL_EXTENSIONS).split(separator: " ").map(String.init))
    }

    deinit {
        eglMakeCurrent(connection.display, nil, nil, nil)
        eglDestroyContext(connection.display, context)
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

    /// Opens a display and a context and reads the driver's strings.
    public static func probe(log: (String) -> Void = { _ in }) throws -> GLESInfo {
        let context = try GLESContext(connection: EGLDisplayConnection.shared(log: log))
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
            isSoftware: software, attempts: connection.attempts)
    }
}
