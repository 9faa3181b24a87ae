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
        subcommands: [Render.self, Export.self, Batch.self, Join.self, Play.self, Info.self, Diff.self, Bench.self, Soak.self,
                      DisplayCycle.self],
        defaultSubcommand: nil)

    /// Runs the command and maps errors to Lamina's exit codes: 2 for bad input or usage, 1 for failures.
    static func main() {
        // Frames allocate the same large buffers again and again (targets, pictures, encoded frames). glibc maps
        // every block over 128 KiB afresh and unmaps it when freed, so each frame paid a page fault per page
        // (18 % of a Lottie export's time in the kernel); kept in the heap they are reused.
        keepLargeBlocksInTheHeap()
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

/// glibc's mallopt (not in Swift's Glibc module): M_MMAP_THRESHOLD (-3) 64 MiB, M_TRIM_THRESHOLD (-1) 128 MiB.
private func keepLargeBlocksInTheHeap() {
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
    let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
    _ = mallopt(-3, 64 << 20)
    _ = mallopt(-1, 128 << 20)
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
