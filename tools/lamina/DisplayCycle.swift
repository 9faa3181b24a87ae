import ArgumentParser
import CLinux
import Foundation
import Lamina

/// `lamina display-cycle` (hidden, a diagnostic): makes and drops `--count` `Display`s of one output and renderer,
/// each showing one small frame, and prints one JSON line of what the process holds before and after (open file
/// descriptors, malloc's bytes in use, RSS) so that a leak shows as growth (docs/reliability.md, "Displays").
/// The leak tests run it on Xvfb, weston and in the kiosk VM, each in a process of its own so that nothing else
/// moves the figures.
struct DisplayCycle: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "display-cycle",
        abstract: "Make and drop displays and print the file descriptors and memory held before and after (a diagnostic).",
        shouldDisplay: false)

    @Option(help: "drm, fbdev, x11 or wayland.") var output: DisplayOutputKind
    @Option(help: "cpu or gles.") var backend: BackendChoice = .cpu
    @Option(help: "The device, display or socket (as for lamina play).") var device: String?
    @Option(help: "Displays made and dropped between the two measurements.") var count = 1000
    @Option(help: "Displays made and dropped before the first measurement (libraries' one-time allocations).")
    var warmup = 10
    @Option(help: ArgumentHelp("The window's size (X11) or the display mode (DRM).", valueName: "WxH")) var mode: String?

    mutating func run() throws {
        guard count >= 0, warmup >= 0 else { throw CLIFailure.badInput("--count and --warmup must be 0 or more") }
        var parsedMode: DisplayMode?
        if let mode {
            guard let parsed = DisplayMode(parsing: mode) else { throw CLIFailure.badInput("--mode \(mode): expected WxH") }
            parsedMode = parsed
        }
        let choice: Display.Backend = backend == .gles ? .gles : .cpu
        let options = Display.Options(fit: .stretch, output: DisplayOutputOptions(device: device, mode: parsedMode))
        let root = Layer()
        let box = Layer()
        Transaction.begin()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
        root.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.8)
        box.frame = CGRect(x: 8, y: 8, width: 24, height: 24)
        box.backgroundColor = Color(red: 1, green: 0, blue: 0)
        root.addSublayer(box)
        Transaction.commit()
        var summary = ""
        func cycle(_ n: Int) throws {
            for _ in 0..<n {
                let display = try Display(output: output, backend: choice, options: options)
                summary = display.output.summary
                // One frame: onFrame stops the loop, which ends after the frame it is making.
                try display.run(root) { _ in display.stop() }
            }
        }
        do {
            try cycle(warmup)
            let before = ProcessFigures.now()
            let started = currentMediaTime()
            try cycle(count / 2)
            let middle = ProcessFigures.now()
            try cycle(count - count / 2)
            let seconds = currentMediaTime() - started
            let after = ProcessFigures.now()
            let result: [String: Any] = [
                "output": output.rawValue, "backend": choice.rawValue, "count": count, "summary": summary,
                "seconds": (seconds * 1000).rounded() / 1000,
                "fds": [before.fds, middle.fds, after.fds],
                "heap": [before.heap, middle.heap, after.heap],
                "rss": [before.rss, middle.rss, after.rss],
            ]
            let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } catch let error as DisplayError {
            throw CLIFailure.failed("\(error)")
        }
    }
}

/// What the process holds now.
struct ProcessFigures {
    /// Open file descriptors (/proc/self/fd).
    var fds: Int
    /// malloc's bytes in use (mallinfo2's uordblks): what a leak of small objects moves.
    var heap: Int
    /// Resident set size in bytes (/proc/self/statm).
    var rss: Int

    static func now() -> ProcessFigures {
        let fds = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 1) - 1  // the listing's own
        let heap = Int(mallinfo2().uordblks)
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return ProcessFigures(fds: fds, heap: heap, rss: pages * Int(sysconf(Int32(_SC_PAGESIZE))))
    }
}
