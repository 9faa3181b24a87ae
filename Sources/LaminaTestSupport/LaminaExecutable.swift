import Foundation

/// The built `lamina` command, for tests that run it as a user would: next to the test bundle (where SwiftPM puts
/// the products of a test build), else .build/debug of the package.
public enum LaminaExecutable {
    public static let url: URL = {
        let candidates = [
            Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        for folder in candidates {
            let url = folder.appendingPathComponent("lamina")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return FailureArtifacts.packageRoot.appendingPathComponent(".build/debug/lamina")
    }()

    public static var path: String { url.path }
}
