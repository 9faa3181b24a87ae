import Foundation
import Lamina

/// Whether GLES tests can run here. They skip, and say why on stderr, only when no EGL display opens; on this
/// project's machines Mesa's llvmpipe is always there, so `LAMINA_REQUIRE_GLES=1` (set by CI) turns a missing
/// display into a failure instead of a skip.
public enum GLESAvailability {
    /// A new GLES renderer, or nil (with the reason printed once) when none can be made.
    public static func renderer(options: GLESRenderer.Options = .init()) -> GLESRenderer? {
        do {
            return try GLESRenderer(options: options)
        } catch {
            if ProcessInfo.processInfo.environment["LAMINA_REQUIRE_GLES"] == "1" {
                fatalError("LAMINA_REQUIRE_GLES=1 but no GLES renderer: \(error)")
            }
            FileHandle.standardError.write(Data("lamina tests: skipping GLES: \(error)\n".utf8))
            return nil
        }
    }

    /// The reason GLES tests are skipped, or nil when they run.
    public static var skipReason: String? {
        do {
            _ = try GLESInfo.probe()
            return nil
        } catch {
            return "\(error)"
        }
    }
}
