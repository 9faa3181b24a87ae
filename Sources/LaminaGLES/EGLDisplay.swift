import CEGL
import CGBM
import Foundation
import LaminaCore

/// An EGL display opened without any window system, chosen in the order of docs/gpu-and-kiosk.md, "Which display":
/// EGL_EXT_platform_device (hardware devices before software ones: NVIDIA's headless path), GBM on a DRM
/// render node (/dev/dri/renderD*), then EGL_MESA_platform_surfaceless. `LAMINA_EGL_DEVICE` picks one instead:
/// an index into the EGL device list, a render-node path, or `surfaceless`; nothing else is tried then.
public final class EGLDisplayConnection {
    /// One try at opening a display, for logs and error messages.
    public struct Attempt: Sendable, CustomStringConvertible {
        public var platform: String
        public var device: String
        /// nil: it worked.
        public var failure: String?
        public var description: String {
            "\(platform) \(device): \(failure ?? "ok")"
        }
    }

    public let display: EGLDisplay
    /// "device", "gbm" or "surfaceless".
    public let platform: String
    /// The device: a DRM node path, "software" or "default".
    public let device: String
    /// Every attempt made, in order, the last one the winner.
    public let attempts: [Attempt]
    /// The display's extensions.
    public let extensions: ExtensionSet
    /// The EGL version the display initialised with, e.g. (1, 5).
    public let version: (major: Int, minor: Int)
    /// Why no GPU was used, when the display is a software one (or none opened) although an NVIDIA driver is
    /// present: e.g. a container without the `graphics` capability (NVIDIAGraphicsCheck). nil otherwise.
    public let gpuNote: String?
    /// True for Mesa's software devices and the surfaceless platform, which rasterise on the CPU.
    public var isSoftware: Bool { platform == "surfaceless" || device == "software" }
    private var gbmDevice: OpaquePointer?
    private var gbmFile: Int32 = -1

    init(display: EGLDisplay, version: (Int, Int), platform: String, device: String, attempts: [Attempt],
                 gbmDevice: OpaquePointer? = nil, gbmFile: Int32 = -1) {
        self.display = display
        self.version = version
        self.platform = platform
        self.device = device
        self.attempts = attempts
        extensions = ExtensionSet(eglQueryString(display, EGLint(EGL_EXTENSIONS)).map { String(cString: $0) } ?? "")
        gpuNote = platform == "surfaceless" || device == "software" ? NVIDIAGraphicsCheck.current() : nil
        self.gbmDevice = gbmDevice
        self.gbmFile = gbmFile
    }

    deinit {
        eglTerminate(display)
        if let gbmDevice { gbm_device_destroy(gbmDevice) }
        if gbmFile >= 0 { close(gbmFile) }
    }

    private static let sharedState = SharedConnection()

    /// The process's display, opened on first use and kept open: EGL displays are per process and
    /// eglTerminate is not reference counted, so renderers share one and only their contexts come and go.
    /// A failed open is tried again next time.
    /// `device`: one display per device (an EGL device's index or name from `devices()`, a render node, or
    /// `surfaceless`), as `LAMINA_EGL_DEVICE` picks; nil: the default choice.
    public static func shared(device: String? = nil, log: (String) -> Void = { _ in }) throws -> EGLDisplayConnection {
        try sharedState.connection(device: device, log: log)
    }

    private final class SharedConnection: @unchecked Sendable {
        private let lock = NSLock()
        private var connections: [String: EGLDisplayConnection] = [:]

        func connection(device: String?, log: (String) -> Void) throws -> EGLDisplayConnection {
            lock.lock()
            defer { lock.unlock() }
            let key = device ?? ""
            if let connection = connections[key] {
                for attempt in connection.attempts { log("egl: \(attempt) (opened earlier)") }
                return connection
            }
            let opened = try EGLDisplayConnection.open(device: device, log: log)
            if let note = opened.gpuNote { log("egl: software rendering: \(note)") }
            connections[key] = opened
            return opened
        }
    }

    /// An EGL device (EGL_EXT_device_enumeration): its name (a DRM render node or device file where EGL says,
    /// "software" for Mesa's software device, else "device N") and whether it rasterises on the CPU.
    public struct Device: Sendable, Equatable, CustomStringConvertible {
        public var index: Int
        public var name: String
        public var isSoftware: Bool
        public var description: String { isSoftware && name != "software" ? "\(name) (software)" : name }
    }

    /// The EGL devices, hardware ones first (none without the device extensions). Opens nothing.
    public static func devices() -> [Device] {
        let clientExtensions = ExtensionSet(eglQueryString(nil, EGLint(EGL_EXTENSIONS)).map { String(cString: $0) } ?? "")
        guard ExtensionRequirement.firstMissing([.platformDevice, .deviceEnumeration, .deviceQuery],
                                                in: clientExtensions) == nil,
            let queryDevices: PFNEGLQUERYDEVICESEXTPROC = procedure("eglQueryDevicesEXT"),
            let queryString: PFNEGLQUERYDEVICESTRINGEXTPROC = procedure("eglQueryDeviceStringEXT")
        else { return [] }
        let described = describeDevices(queryDevices, queryString)
        return (described.filter { !$0.software } + described.filter(\.software)).map {
            Device(index: $0.index, name: $0.name, isSoftware: $0.software)
        }
    }

    /// Every EGL device with its index, handle, name and whether it is a software one, in EGL's order.
    private static func describeDevices(
        _ queryDevices: PFNEGLQUERYDEVICESEXTPROC, _ queryString: PFNEGLQUERYDEVICESTRINGEXTPROC
    ) -> [(index: Int, device: EGLDeviceEXT, name: String, software: Bool)] {
        var count: EGLint = 0
        _ = queryDevices(0, nil, &count)
        var devices = [EGLDeviceEXT?](repeating: nil, count: Int(max(count, 0)))
        _ = queryDevices(count, &devices, &count)
        return devices.prefix(Int(count)).enumerated().compactMap { index, device in
            guard let device else { return nil }
            let extensions = ExtensionSet(queryString(device, EGLint(EGL_EXTENSIONS)).map { String(cString: $0) } ?? "")
            // Device file names come with EGL_EXT_device_drm(_render_node); without them the device has none.
            let node = extensions.contains("EGL_EXT_device_drm_render_node")
                ? queryString(device, EGLint(EGL_DRM_RENDER_NODE_FILE_EXT)) : nil
            let file = node ?? (extensions.contains("EGL_EXT_device_drm")
                ? queryString(device, EGLint(EGL_DRM_DEVICE_FILE_EXT)) : nil)
            let software = extensions.contains("EGL_MESA_device_software")
            let name = file.map { String(cString: $0) } ?? (software ? "software" : "device \(index)")
            return (index, device, name, software)
        }
    }

    /// Opens the first display that initialises; `log` receives one debug line per step. `device` (else
    /// `LAMINA_EGL_DEVICE`) picks one and tries nothing else: an EGL device's index or name, a render node, or
    /// `surfaceless`. Throws `RenderError.unavailable` naming every attempt when none works.
    public static func open(device: String? = nil, log: (String) -> Void = { _ in }) throws -> EGLDisplayConnection {
        var attempts: [Attempt] = []
        func record(_ platform: String, _ device: String, _ failure: String?) {
            let attempt = Attempt(platform: platform, device: device, failure: failure)
            attempts.append(attempt)
            log("egl: \(attempt)")
        }
        let override = device ?? ProcessInfo.processInfo.environment["LAMINA_EGL_DEVICE"]
        let clientExtensions = ExtensionSet(eglQueryString(nil, EGLint(EGL_EXTENSIONS)).map { String(cString: $0) } ?? "")
        log("egl: client extensions: \(clientExtensions)")
        try ExtensionRequirement.check([.platformBase], in: clientExtensions, of: "EGL (client extensions)")
        guard let getPlatformDisplay: PFNEGLGETPLATFORMDISPLAYEXTPROC = procedure("eglGetPlatformDisplayEXT") else {
            throw RenderError.unavailable("EGL offers EGL_EXT_platform_base but no eglGetPlatformDisplayEXT")
        }

        // 1. EGL_EXT_platform_device, hardware first.
        let deviceRequirements: [ExtensionRequirement] = [.platformDevice, .deviceEnumeration, .deviceQuery]
        if let missing = ExtensionRequirement.firstMissing(deviceRequirements, in: clientExtensions) {
            record("device", "-", missing.lackedBy("EGL"))
        } else if let queryDevices: PFNEGLQUERYDEVICESEXTPROC = procedure("eglQueryDevicesEXT"),
            let queryString: PFNEGLQUERYDEVICESTRINGEXTPROC = procedure("eglQueryDeviceStringEXT")
        {
            let described = describeDevices(queryDevices, queryString).map { ($0.index, $0.device, $0.name, $0.software) }
            let ordered = described.filter { !$0.3 } + described.filter { $0.3 }
            for (index, device, name, _) in ordered {
                if let override, override != String(index), override != name { continue }
                let display = getPlatformDisplay(EGLenum(EGL_PLATFORM_DEVICE_EXT), device, nil)
                if let display, let version = initialize(display) {
                    record("device", name, nil)
                    return EGLDisplayConnection(display: display, version: version, platform: "device", device: name,
                                                attempts: attempts)
                }
                record("device", name, "eglInitialize failed (\(errorName(eglGetError())))")
            }
            if described.isEmpty { record("device", "-", "no EGL devices") }
            if let override, !ordered.contains(where: { String($0.0) == override || $0.2 == override }) {
                record("device", override, "\(device == nil ? "LAMINA_EGL_DEVICE" : "the device") names no EGL device "
                    + "(there are \(ordered.count))")
            }
        } else {
            record("device", "-", "EGL offers the device extensions but not eglQueryDevicesEXT / eglQueryDeviceStringEXT")
        }

        // 2. GBM on a render node.
        if !clientExtensions.containsAny(ExtensionRequirement.platformGBM.names) {
            record("gbm", "-", ExtensionRequirement.platformGBM.lackedBy("EGL"))
        } else {
            let nodes = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? [])
                .filter { $0.hasPrefix("renderD") }.sorted().map { "/dev/dri/" + $0 }
            if nodes.isEmpty { record("gbm", "-", "no /dev/dri/renderD* nodes") }
            for node in nodes {
                if let override, override != node { continue }
                let file = Foundation.open(node, O_RDWR | O_CLOEXEC)
                guard file >= 0 else {
                    record("gbm", node, "cannot open: \(String(cString: strerror(errno)))")
                    continue
                }
                guard let gbm = gbm_create_device(file) else {
                    close(file)
                    record("gbm", node, "gbm_create_device failed")
                    continue
                }
                if let display = getPlatformDisplay(EGLenum(EGL_PLATFORM_GBM_KHR), UnsafeMutableRawPointer(gbm), nil),
                    let version = initialize(display)
                {
                    record("gbm", node, nil)
                    return EGLDisplayConnection(display: display, version: version, platform: "gbm", device: node,
                                                attempts: attempts, gbmDevice: gbm, gbmFile: file)
                }
                record("gbm", node, "eglInitialize failed (\(errorName(eglGetError())))")
                gbm_device_destroy(gbm)
                close(file)
            }
        }

        // 3. Mesa's surfaceless platform (llvmpipe when there is no GPU).
        if let override, override != "surfaceless" {
            record("surfaceless", "default", "skipped: \(device == nil ? "LAMINA_EGL_DEVICE=" : "device ")\(override)")
        } else if clientExtensions.contains("EGL_MESA_platform_surfaceless") {
            if let display = getPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil),
                let version = initialize(display)
            {
                record("surfaceless", "default", nil)
                return EGLDisplayConnection(display: display, version: version, platform: "surfaceless",
                                            device: "default", attempts: attempts)
            }
            record("surfaceless", "default", "eglInitialize failed (\(errorName(eglGetError())))")
        } else {
            record("surfaceless", "-", ExtensionRequirement.platformSurfaceless.lackedBy("EGL"))
        }
        var message = "no EGL display could be opened: " + attempts.map(\.description).joined(separator: "; ")
        if let note = NVIDIAGraphicsCheck.current() { message += "; \(note)" }
        throw RenderError.unavailable(message)
    }

    /// eglInitialize; the version, or nil when it failed.
    static func initialize(_ display: EGLDisplay) -> (Int, Int)? {
        var major: EGLint = 0, minor: EGLint = 0
        guard eglInitialize(display, &major, &minor) == EGLBoolean(EGL_TRUE) else { return nil }
        return (Int(major), Int(minor))
    }

    static func procedure<T>(_ name: String) -> T? {
        guard let pointer = eglGetProcAddress(name) else { return nil }
        return unsafeBitCast(pointer, to: T.self)
    }

    /// The EGL error code's name, e.g. EGL_NOT_INITIALIZED.
    static func errorName(_ code: EGLint) -> String {
        let names: [Int32: String] = [
            EGL_SUCCESS: "EGL_SUCCESS", EGL_NOT_INITIALIZED: "EGL_NOT_INITIALIZED", EGL_BAD_ACCESS: "EGL_BAD_ACCESS",
            EGL_BAD_ALLOC: "EGL_BAD_ALLOC", EGL_BAD_ATTRIBUTE: "EGL_BAD_ATTRIBUTE", EGL_BAD_CONFIG: "EGL_BAD_CONFIG",
            EGL_BAD_CONTEXT: "EGL_BAD_CONTEXT", EGL_BAD_DISPLAY: "EGL_BAD_DISPLAY", EGL_BAD_MATCH: "EGL_BAD_MATCH",
            EGL_BAD_PARAMETER: "EGL_BAD_PARAMETER", EGL_CONTEXT_LOST: "EGL_CONTEXT_LOST",
        ]
        return names[code] ?? String(format: "EGL error 0x%04X", code)
    }
}
