import Foundation
import LaminaCore

/// A space-separated extension string (EGL client or display extensions, GL_EXTENSIONS) as a set of names, so
/// that a check matches whole names: a plain substring test would take "EGL_EXT_platform_device" for present
/// in a string that only has "EGL_EXT_platform_device_foo".
public struct ExtensionSet: Sendable, Equatable, CustomStringConvertible {
    public let names: Set<String>

    public init(_ string: String) {
        names = Set(string.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init))
    }

    public func contains(_ name: String) -> Bool { names.contains(name) }

    /// True when any of `names` is offered.
    public func containsAny(_ alternatives: [String]) -> Bool { alternatives.contains(where: contains) }

    public var description: String { names.sorted().joined(separator: " ") }
}

/// An extension (or one of several equivalent ones) that Lamina relies on, and what for: a missing one is named,
/// with its purpose, in the error.
public struct ExtensionRequirement: Sendable, Equatable {
    /// Equivalent names; any one satisfies the requirement (e.g. EGL_KHR_platform_gbm or EGL_MESA_platform_gbm).
    public var names: [String]
    /// What Lamina needs it for, e.g. "to open a display on a render node".
    public var purpose: String

    public init(_ names: String..., for purpose: String) {
        self.names = names
        self.purpose = purpose
    }

    /// "EGL_KHR_platform_gbm (or EGL_MESA_platform_gbm)".
    public var displayName: String {
        names.count == 1 ? names[0] : "\(names[0]) (or \(names.dropFirst().joined(separator: " or ")))"
    }

    // What the EGL code uses (EGLDisplay.swift and GLESContext.swift).
    public static let platformBase = ExtensionRequirement(
        "EGL_EXT_platform_base", for: "to open a display without a window system (eglGetPlatformDisplayEXT)")
    public static let platformDevice = ExtensionRequirement(
        "EGL_EXT_platform_device", for: "to open a display on an EGL device (NVIDIA's headless path)")
    // EGL_EXT_device_base is the older name of the two together; NVIDIA's driver behind glvnd offers only it.
    public static let deviceEnumeration = ExtensionRequirement(
        "EGL_EXT_device_enumeration", "EGL_EXT_device_base", for: "to list EGL devices (eglQueryDevicesEXT)")
    public static let deviceQuery = ExtensionRequirement(
        "EGL_EXT_device_query", "EGL_EXT_device_base", for: "to name EGL devices (eglQueryDeviceStringEXT)")
    public static let platformGBM = ExtensionRequirement(
        "EGL_KHR_platform_gbm", "EGL_MESA_platform_gbm", for: "to open a display on a DRM render node")
    public static let platformSurfaceless = ExtensionRequirement(
        "EGL_MESA_platform_surfaceless", for: "to open Mesa's device-less display (llvmpipe)")
    public static let surfacelessContext = ExtensionRequirement(
        "EGL_KHR_surfaceless_context", for: "to make a context current without a surface")
    public static let noConfigContext = ExtensionRequirement(
        "EGL_KHR_no_config_context", "EGL_MESA_configless_context", for: "to make a context without a config")
    public static let createContext = ExtensionRequirement(
        "EGL_KHR_create_context", for: "to ask for GLES 3.0 by major and minor version")
    public static let contextRobustness = ExtensionRequirement(
        "EGL_EXT_create_context_robustness", for: "to be told of GPU resets (EGL_LOSE_CONTEXT_ON_RESET_EXT)")
    public static let glRobustness = ExtensionRequirement(
        "GL_KHR_robustness", "GL_EXT_robustness", for: "to detect GPU resets (glGetGraphicsResetStatus)")

    /// The first requirement of `requirements` that `offered` does not satisfy, nil when all are met.
    public static func firstMissing(_ requirements: [ExtensionRequirement], in offered: ExtensionSet)
        -> ExtensionRequirement?
    {
        requirements.first { !offered.containsAny($0.names) }
    }

    /// Throws `RenderError.unavailable` naming the first missing requirement, what it is for, and where it was
    /// looked for (e.g. "the EGL display"), e.g. "the EGL display lacks EGL_KHR_surfaceless_context (needed to
    /// make a context current without a surface)".
    public static func check(_ requirements: [ExtensionRequirement], in offered: ExtensionSet, of owner: String)
        throws
    {
        guard let missing = firstMissing(requirements, in: offered) else { return }
        throw RenderError.unavailable("\(owner) lacks \(missing.displayName) (needed \(missing.purpose))")
    }

    /// "lacks X (needed ...)", for attempt logs that go on to the next way.
    public func lackedBy(_ owner: String) -> String {
        "\(owner) lacks \(displayName) (needed \(purpose))"
    }
}
