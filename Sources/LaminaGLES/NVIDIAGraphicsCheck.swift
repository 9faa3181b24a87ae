import Foundation

/// Why an NVIDIA GPU that is present cannot render through EGL: the usual cause is a container started with the
/// NVIDIA runtime but without the `graphics` driver capability, which mounts the CUDA libraries and /dev/nvidia*
/// but not libEGL_nvidia.so or its EGL vendor file, so EGL silently offers only Mesa's llvmpipe. Lamina still
/// falls back to llvmpipe (or the CPU renderer), but says why (`lamina info`, the renderer's error and log).
public enum NVIDIAGraphicsCheck {
    /// Where the evidence is looked for: device nodes, library folders and glvnd's EGL vendor folders.
    static let libraryFolders = [
        "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/nvidia/lib64",
        "/usr/local/nvidia/lib",
    ]
    static let vendorFolders = ["/usr/share/glvnd/egl_vendor.d", "/etc/glvnd/egl_vendor.d"]

    /// The problem found, as a sentence for the user, or nil when there is no NVIDIA driver or it has what EGL
    /// needs. `files` are paths of the machine (any order): /dev entries, library files and EGL vendor files, as
    /// `presentFiles()` lists them; `environment` is the process's.
    public static func diagnose(environment: [String: String], files: [String]) -> String? {
        let names = files.map { ($0, ($0 as NSString).lastPathComponent) }
        let devices = names.filter { path, name in
            path.hasPrefix("/dev/") && (name == "nvidiactl" || (name.hasPrefix("nvidia") && name.dropFirst(6).allSatisfy(\.isNumber) && name.count > 6))
        }.map(\.0)
        let driverLibraries = names.filter { _, name in
            name.hasPrefix("libcuda.so") || name.hasPrefix("libnvidia-ml.so") || name.hasPrefix("libnvidia-")
        }.map(\.0)
        let hasEGLDriver = names.contains { _, name in name.hasPrefix("libEGL_nvidia.so") }
        let hasVendorFile = names.contains { path, name in
            path.contains("egl_vendor.d/") && name.lowercased().contains("nvidia") && name.hasSuffix(".json")
        }
        guard let evidence = devices.first ?? driverLibraries.first else { return nil }

        let capabilities = environment["NVIDIA_DRIVER_CAPABILITIES"].map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        }
        let lacksGraphics = capabilities.map { !$0.contains("graphics") && !$0.contains("all") } ?? false
        let fix = "start the container with NVIDIA_DRIVER_CAPABILITIES=graphics,compute,utility (or all)"
        if !hasEGLDriver {
            var why = "an NVIDIA driver is present (\(evidence)) but its EGL library libEGL_nvidia.so is not"
            if lacksGraphics, let raw = environment["NVIDIA_DRIVER_CAPABILITIES"] {
                why += ": NVIDIA_DRIVER_CAPABILITIES=\(raw) lacks `graphics`"
            }
            return why + "; \(fix) to render on the GPU"
        }
        if !hasVendorFile {
            return "an NVIDIA driver and libEGL_nvidia.so are present (\(evidence)) but no glvnd EGL vendor file "
                + "(egl_vendor.d/10_nvidia.json), so libEGL does not load it; \(fix), or install the vendor file"
        }
        if lacksGraphics, let raw = environment["NVIDIA_DRIVER_CAPABILITIES"] {
            return "NVIDIA_DRIVER_CAPABILITIES=\(raw) lacks `graphics` (\(evidence)); \(fix) to render on the GPU"
        }
        return nil
    }

    /// The NVIDIA-related files on this machine that `diagnose` looks at: /dev/nvidia*, libcuda, libnvidia-* and
    /// libEGL_nvidia in the usual library folders and LD_LIBRARY_PATH, and glvnd EGL vendor files.
    public static func presentFiles(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        let manager = FileManager.default
        func list(_ folder: String, _ keep: (String) -> Bool) -> [String] {
            ((try? manager.contentsOfDirectory(atPath: folder)) ?? []).filter(keep).map { folder + "/" + $0 }
        }
        var files = list("/dev") { $0.hasPrefix("nvidia") }
        let extra = (environment["LD_LIBRARY_PATH"] ?? "").split(separator: ":").map(String.init)
        for folder in libraryFolders + extra {
            files += list(folder) { $0.hasPrefix("libcuda.so") || $0.hasPrefix("libnvidia-") || $0.hasPrefix("libEGL_nvidia") }
        }
        for folder in vendorFolders { files += list(folder) { $0.hasSuffix(".json") } }
        return files
    }

    /// `diagnose` for this machine.
    public static func current() -> String? {
        let environment = ProcessInfo.processInfo.environment
        return diagnose(environment: environment, files: presentFiles(environment: environment))
    }
}
