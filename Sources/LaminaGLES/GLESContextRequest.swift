import CEGL
import Foundation
import LaminaCore

/// How to make Lamina's GLES 3.0 context on a display, decided from the display's extensions and EGL version
/// alone (a pure function, so each driver's case is tested without that driver):
/// - a config only where EGL_KHR_no_config_context (or EGL_MESA_configless_context) is missing: RGBA8, GLES 3
///   renderable, with EGL_SURFACE_TYPE EGL_PBUFFER_BIT (a config without a surface type may not make a context
///   that can be current on anything);
/// - a 1 x 1 pbuffer where EGL_KHR_surfaceless_context is missing;
/// - a robust context with reset notification where EGL_EXT_create_context_robustness is offered, with a plain
///   context to fall back on;
/// - GLES 3.0 by major and minor version with EGL_KHR_create_context or EGL 1.5, else by client version 3.
public struct GLESContextRequest: Equatable, Sendable {
    /// eglChooseConfig's attributes, nil when the context is made without a config.
    public var configAttributes: [EGLint]?
    /// True when the context needs a 1 x 1 pbuffer to be current on.
    public var needsPbuffer: Bool
    /// eglCreateContext's attributes for a robust context, nil when the display cannot make one.
    public var robustContextAttributes: [EGLint]?
    /// eglCreateContext's attributes for a plain context.
    public var contextAttributes: [EGLint]

    /// The request for a display offering `extensions`, at EGL `version`. Throws `RenderError.unavailable` naming
    /// the missing extension when no GLES 3 context can be asked for.
    public static func plan(extensions: ExtensionSet, version: (major: Int, minor: Int)) throws -> GLESContextRequest {
        let egl15 = version.major > 1 || (version.major == 1 && version.minor >= 5)
        let createContext = egl15 || extensions.contains("EGL_KHR_create_context")
        let noConfig = extensions.containsAny(ExtensionRequirement.noConfigContext.names)
        let surfaceless = extensions.containsAny(ExtensionRequirement.surfacelessContext.names)

        var configAttributes: [EGLint]?
        if !noConfig || !surfaceless {
            // EGL_OPENGL_ES3_BIT is EGL 1.5's (EGL_OPENGL_ES3_BIT_KHR of EGL_KHR_create_context): without either,
            // no config can promise GLES 3.
            guard createContext else {
                let missing = noConfig ? ExtensionRequirement.surfacelessContext : ExtensionRequirement.noConfigContext
                throw RenderError.unavailable(
                    "the EGL \(version.major).\(version.minor) display lacks \(missing.displayName) and "
                        + "\(ExtensionRequirement.createContext.displayName) (needed to choose a GLES 3 config)")
            }
            configAttributes = [
                EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
                EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE,
            ]
        }
        // EGL_CONTEXT_MAJOR_VERSION has EGL_CONTEXT_CLIENT_VERSION's value, so it works on EGL 1.4 alone.
        let versionAttributes: [EGLint] = createContext
            ? [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0] : [EGL_CONTEXT_CLIENT_VERSION, 3]
        let robust: [EGLint]? = extensions.containsAny(ExtensionRequirement.contextRobustness.names)
            ? versionAttributes + [
                EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT, EGL_LOSE_CONTEXT_ON_RESET_EXT,
                EGL_NONE,
            ] : nil
        return GLESContextRequest(
            configAttributes: configAttributes, needsPbuffer: !surfaceless, robustContextAttributes: robust,
            contextAttributes: versionAttributes + [EGL_NONE])
    }

    /// "no config, surfaceless" or "RGBA8 ES3 pbuffer config, 1x1 pbuffer", for logs and `lamina info`.
    public var summary: String {
        let config = configAttributes == nil ? "no config" : "an RGBA8 GLES 3 pbuffer config"
        return config + (needsPbuffer ? ", current on a 1x1 pbuffer" : ", surfaceless")
    }
}
