import ArgumentParser
import Foundation
import Lamina

/// `lamina`: render scenes, compare images, report backends, benchmark.
@main
struct LaminaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lamina",
        abstract: "A Core Animation-style layer compositor: render layer scenes to PNG.",
        discussion: """
            Exit status: 0 on success, 1 when rendering fails (or `diff` finds images that differ), \
            2 for a bad scene, bad image or bad usage.
            """,
        subcommands: [Render.self, Export.self, Play.self, Info.self, Diff.self, Bench.self, Soak.self],
        defaultSubcommand: nil)

    /// Runs the command and maps errors to Lamina's exit codes: 2 for bad input or usage, 1 for failures.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as CLIFailure {
            FileHandle.standardError.write(Data("lamina: \(failure.message)\n".utf8))
            Foundation.exit(failure.code)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                exit(withError: error)  // --help and --version
            }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }
}

/// An error with the exit status it deserves.
struct CLIFailure: Error {
    var message: String
    /// 2: bad input or usage; 1: failure while rendering.
    var code: Int32

    static func badInput(_ message: String) -> CLIFailure { CLIFailure(message: message, code: 2) }
    static func failed(_ message: String) -> CLIFailure { CLIFailure(message: message, code: 1) }
}

/// Messages for the user on stderr.
func note(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
