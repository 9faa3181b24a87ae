import Foundation

/// How an output tells the frame loop when it may present the next frame (docs/kiosk.md, "Pacing"); shown by
/// `DisplayStatistics.pacing` and `lamina play --stats`.
public enum DisplayPacing: String, Sendable {
    /// A timer at the refresh rate (fbdev without FBIO_WAITFORVSYNC; X11 without the Present extension).
    case timer
    /// X11's Present extension: a PresentNotifyMSC after each frame, the next frame when it completes.
    case present
    /// Wayland frame callbacks.
    case frameCallbacks = "frame callbacks"
    /// DRM page-flip events.
    case pageFlips = "page flips"
    /// fbdev's FBIO_WAITFORVSYNC.
    case verticalBlank = "vertical blank"
}

extension DisplayOutput {
    /// Outputs that do not say: the frame loop's timer.
    public var pacing: DisplayPacing { .timer }
}

extension WaylandOutput {
    public var pacing: DisplayPacing { .frameCallbacks }
}

extension DRMOutput {
    public var pacing: DisplayPacing { .pageFlips }
}

extension FBDevOutput {
    public var pacing: DisplayPacing { vsyncUnsupported ? .timer : .verticalBlank }
}
