import CEGL
import Foundation
import LaminaDisplay

/// A minimal EGL + GLES 3 context on an output's `EGLWindowTarget`, as a renderer makes one: the platform display,
/// a window config whose red, green, blue (and alpha, when the target needs it) sizes are exactly 8 (Mesa lists
/// 10-bit configs first), a window surface, swap interval 0 (the output paces frames). For testing an output's
/// EGL plumbing before and apart from the GLES renderer.
final class EGLWindowContext {
    let display: EGLDisplay
    let config: EGLConfig
    let context: EGLContext
    let surface: EGLSurface
    private var destroyed = false

    init(_ target: EGLWindowTarget) throws {
        guard let display = eglGetPlatformDisplay(EGLenum(target.platform), target.nativeDisplay, nil) else {
            throw EGLTestError("eglGetPlatformDisplay(0x\(String(target.platform, radix: 16))) failed")
        }
        guard eglInitialize(display, nil, nil) == EGL_TRUE, eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGL_TRUE else {
            throw EGLTestError("eglInitialize failed: 0x\(String(eglGetError(), radix: 16))")
        }
        self.display = display
        let alpha = target.needsAlpha ? 8 : 0
        let attributes: [EGLint] = [EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
                                    EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE,
                                    EGLint(alpha), EGL_NONE]
        var count: EGLint = 0
        var configs = [EGLConfig?](repeating: nil, count: 64)
        guard eglChooseConfig(display, attributes, &configs, 64, &count) == EGL_TRUE else {
            eglTerminate(display)
            throw EGLTestError("eglChooseConfig failed: 0x\(String(eglGetError(), radix: 16))")
        }
        func size(_ config: EGLConfig, _ attribute: EGLint) -> EGLint {
            var value: EGLint = 0
            eglGetConfigAttrib(display, config, attribute, &value)
            return value
        }
        let exact = configs.prefix(Int(count)).compactMap { $0 }.first { config in
            [EGL_RED_SIZE, EGL_GREEN_SIZE, EGL_BLUE_SIZE].allSatisfy { size(config, $0) == 8 }
                && size(config, EGL_ALPHA_SIZE) == EGLint(alpha)
        }
        guard let config = exact else {
            eglTerminate(display)
            throw EGLTestError("no 8-bit window config among \(count)")
        }
        self.config = config
        let contextAttributes: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE]
        guard let context = eglCreateContext(display, config, nil, contextAttributes) else {
            eglTerminate(display)
            throw EGLTestError("eglCreateContext failed: 0x\(String(eglGetError(), radix: 16))")
        }
        self.context = context
        guard let surface = eglCreatePlatformWindowSurface(display, config, target.nativeWindow, nil) else {
            eglDestroyContext(display, context)
            eglTerminate(display)
            throw EGLTestError("eglCreatePlatformWindowSurface failed: 0x\(String(eglGetError(), radix: 16))")
        }
        self.surface = surface
        guard eglMakeCurrent(display, surface, surface, context) == EGL_TRUE else {
            destroy()
            throw EGLTestError("eglMakeCurrent failed: 0x\(String(eglGetError(), radix: 16))")
        }
        eglSwapInterval(display, 0)
    }

    /// Releases the surface, the context and the display (before the output closes its window). Safe twice.
    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        eglMakeCurrent(display, nil, nil, nil)
        eglDestroySurface(display, surface)
        eglDestroyContext(display, context)
        eglTerminate(display)
        eglReleaseThread()
    }

    deinit { destroy() }
}

struct EGLTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
