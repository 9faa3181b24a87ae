import Foundation
import Lamina

/// Where failing rendering tests leave their images: `.build/test-failures/NAME/` under the package root
/// (or $LAMINA_TEST_ARTIFACTS), so a failure can be looked at, not just read.
public enum FailureArtifacts {
    public static var root: URL {
        if let custom = ProcessInfo.processInfo.environment["LAMINA_TEST_ARTIFACTS"] {
            return URL(fileURLWithPath: custom)
        }
        return packageRoot.appendingPathComponent(".build/test-failures")
    }

    /// The package root, found from this source file's location.
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// Writes `images` (name -> image) as PNGs into a folder for `test`; returns the folder's path.
    @discardableResult
    public static func write(test: String, images: [String: Image]) -> String {
        let folder = root.appendingPathComponent(test.replacingOccurrences(of: "/", with: "_"))
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, image) in images {
            try? image.writePNG(to: folder.appendingPathComponent("\(name).png"))
        }
        return folder.path
    }
}
