import Foundation
import LaminaCore

/// Opening outputs by kind, `--output auto`'s order, and `lamina info`'s list.
public enum DisplayOutputs {
    /// Opens `kind`; `.auto`: Wayland when WAYLAND_DISPLAY is set, else X11 when DISPLAY is set, else the first DRM
    /// card with a connected display, else /dev/fb0 (docs/kiosk.md, "The command"). `gpu`: the GLES renderer will draw
    /// (DRM sets up GBM instead of dumb buffers).
    public static func open(_ kind: DisplayOutputKind, options: DisplayOutputOptions, gpu: Bool) throws -> DisplayOutput {
        switch kind {
        case .x11: return try X11Output(options: options)
        case .wayland: return try WaylandOutput(options: options, gpu: gpu)
        case .drm: return try DRMOutput(options: options, gpu: gpu)
        case .fbdev: return try FBDevOutput(options: options)
        case .auto:
            let environment = ProcessInfo.processInfo.environment
            if let wayland = environment["WAYLAND_DISPLAY"], !wayland.isEmpty {
                return try open(.wayland, options: options, gpu: gpu)
            }
            if let x11 = environment["DISPLAY"], !x11.isEmpty { return try open(.x11, options: options, gpu: gpu) }
            var reasons: [String] = []
            for kind in [DisplayOutputKind.drm, .fbdev] {
                do { return try open(kind, options: options, gpu: gpu) } catch { reasons.append("\(error)") }
            }
            throw DisplayError("no output found: WAYLAND_DISPLAY and DISPLAY are not set; "
                                   + reasons.joined(separator: "; "))
        }
    }

    /// Every output `--output auto` would consider, in its order, with what was found or why it was passed over.
    public static func probe(options: DisplayOutputOptions = .init()) -> [OutputProbe] {
        var probes: [OutputProbe] = []
        probes += WaylandOutput.probe(options: options)
        probes += X11Output.probe(options: options)
        probes += DRMOutput.probe(options: options)
        probes += FBDevOutput.probe(options: options)
        return probes
    }
}
