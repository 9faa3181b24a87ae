import Foundation

/// The cores this process may use, read once.
///
/// `ProcessInfo.activeProcessorCount` reads the control group's CPU quota from files on Linux every time it is asked
/// (about 0.1 ms, measured in `animated-1k`'s node frames, where it was asked four times a frame: a tenth of the
/// frame). Frames ask how many chunks to split work into, so the answer is read once per process, as Chromium's
/// `base::SysInfo::NumberOfProcessors()` caches it: a quota changed while the process runs is seen by the next one.
public enum Processors {
    /// `ProcessInfo.processInfo.activeProcessorCount` when first asked; at least 1.
    public static let active = max(1, ProcessInfo.processInfo.activeProcessorCount)
}
