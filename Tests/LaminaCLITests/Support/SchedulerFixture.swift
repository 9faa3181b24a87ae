import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Where the scheduler tests stand: the tools they need are there, are required (CI: LAMINA_REQUIRE_SCHEDULERS=1, so
/// a missing one fails), or are missing (the test is skipped, the reason printed).
enum SchedulerRequirement {
    static var required: Bool { ProcessInfo.processInfo.environment["LAMINA_REQUIRE_SCHEDULERS"] == "1" }

    /// Whether a test needing what `missing` describes runs: when nothing is missing, or when it is required (the
    /// test then fails on what is missing). Prints why it is skipped otherwise.
    static func shouldRun(_ what: String, missing: String?) -> Bool {
        guard let missing else { return true }
        if required {
            Issue.record("\(what): \(missing) (LAMINA_REQUIRE_SCHEDULERS=1)")
            return false
        }
        FileHandle.standardError.write(Data("lamina tests: skipping \(what): \(missing)\n".utf8))
        return false
    }

    /// The path of an executable on PATH or in /usr/sbin, /sbin (daemons), or nil.
    static func which(_ name: String) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for folder in path + ["/usr/sbin", "/sbin", "/usr/bin"] {
            let candidate = folder + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// Runs shell command lines with their output in a file (not a pipe: a daemon started by the command keeps its
/// inherited descriptors, and a pipe would then never end), with a time limit.
enum Shell {
    struct Result {
        var status: Int32
        var output: String
    }

    /// The environment for commands that run `lamina`: the built binary's folder first on PATH.
    static var laminaEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        let folder = LaminaExecutable.url.deletingLastPathComponent().path
        environment["PATH"] = folder + ":" + (environment["PATH"] ?? "/usr/bin:/bin") + ":/usr/sbin:/sbin"
        return environment
    }

    @discardableResult
    static func run(_ command: String, in folder: URL, environment: [String: String] = [:],
                    timeout: TimeInterval = 240) throws -> Result {
        let log = folder.appendingPathComponent(".shell-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = try start(command, in: folder, environment: environment, output: handle)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        var timedOut = false
        if process.isRunning {
            timedOut = true
            stop(process)
        }
        var output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        if timedOut { output += "\n(killed after \(Int(timeout)) s)" }
        return Result(status: timedOut || process.isRunning ? 124 : process.terminationStatus, output: output)
    }

    /// Starts `command` under bash with its output to `output`; the caller stops it (`stop`).
    static func start(_ command: String, in folder: URL, environment: [String: String] = [:],
                      output: FileHandle) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = folder
        process.environment = laminaEnvironment.merging(environment) { $1 }
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Stops a process this test started, by its pid: SIGTERM, then SIGKILL after 10 s.
    static func stop(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        // Not waitUntilExit: Process also waits for the end of a descriptor that a daemon may have inherited.
        let killed = Date().addingTimeInterval(10)
        while process.isRunning && Date() < killed { Thread.sleep(forTimeInterval: 0.05) }
    }
}

/// A manifest for the scheduler tests, as users write them: stills, variants through "set", a replaced image, a
/// still at a time, two exports (y4m and PNG frames) and one bad line, over a card scene. `verify` checks every
/// output byte for byte against single `lamina render`/`lamina export` runs of the equivalent (edited) scene, and
/// the shards' summaries together against the manifest.
struct ShardedManifest {
    let folder: URL

    /// The card of BatchCLITests: white, a red box "box", a 2 x 2 green image layer "logo".
    static let card = BatchCLITests.card

    /// A still: its manifest line, its output, the text of the scene `lamina render` draws for it (the card as the
    /// line edits it) and `render`'s other options.
    struct Still { var line: String; var output: String; var scene: String; var options: [String] }
    /// An export: its manifest line, its outputs, and `lamina export`'s options.
    struct Export { var line: String; var output: String; var files: [String]; var options: [String] }

    static func box(_ colour: String, _ extra: String = "") -> String {
        card.replacingOccurrences(of: ##""backgroundColor": "#ff0000""##, with: ##""backgroundColor": "\##(colour)"\##(extra)"##)
    }

    static let stills: [(Int, Still)] = [
        (1, Still(line: ##"{"scene": "card.json", "output": "out/plain.png", "backend": "cpu"}"##,
                  output: "out/plain.png", scene: card, options: [])),
        (2, Still(line: ##"{"scene": "card.json", "output": "out/plain@2x.png", "backend": "cpu", "scale": 2}"##,
                  output: "out/plain@2x.png", scene: card, options: ["--scale", "2"])),
        (3, Still(line: ##"{"scene": "card.json", "output": "out/blue.png", "backend": "cpu", "set": [{"layer": "box", "set": {"backgroundColor": "#0000ff"}}]}"##,
                  output: "out/blue.png", scene: box("#0000ff"), options: [])),
        (5, Still(line: ##"{"scene": "card.json", "output": "out/green-half.png", "backend": "cpu", "set": [{"layer": "box", "set": {"backgroundColor": "#00ff00", "opacity": 0.5}}]}"##,
                  output: "out/green-half.png", scene: box("#00ff00", ##", "opacity": 0.5"##), options: [])),
        (6, Still(line: ##"{"scene": "card.json", "output": "out/ada.png", "backend": "cpu", "images": {"logo": "logos/ada.png"}}"##,
                  output: "out/ada.png", scene: card.replacingOccurrences(of: ##""logo": "logo.png""##, with: ##""logo": "logos/ada.png""##),
                  options: [])),
        (7, Still(line: ##"{"scene": "card.json", "output": "out/yellow@2x.png", "backend": "cpu", "scale": 2, "set": [{"layer": "box", "set": {"backgroundColor": "#ffff00"}}]}"##,
                  output: "out/yellow@2x.png", scene: box("#ffff00"), options: ["--scale", "2"])),
        (10, Still(line: ##"{"scene": "card.json", "output": "out/cyan.png", "backend": "cpu", "set": [{"layer": "box", "set": {"backgroundColor": "#00ffff"}}]}"##,
                   output: "out/cyan.png", scene: box("#00ffff"), options: [])),
        (11, Still(line: ##"{"scene": "card.json", "output": "out/faint-logo.png", "backend": "cpu", "set": [{"layer": "logo", "set": {"opacity": 0.25}}]}"##,
                   output: "out/faint-logo.png",
                   scene: card.replacingOccurrences(of: ##""contentsGravity": "resize"}"##, with: ##""contentsGravity": "resize", "opacity": 0.25}"##),
                   options: [])),
        (12, Still(line: ##"{"scene": "card.json", "output": "out/later.png", "backend": "cpu", "time": 0.5}"##,
                   output: "out/later.png", scene: card, options: ["--time", "0.5"])),
    ]
    static let exports: [(Int, Export)] = [
        (8, Export(line: ##"{"scene": "card.json", "output": "video/card.y4m", "backend": "cpu", "export": {"fps": 10, "duration": 1}}"##,
                   output: "video/card.y4m", files: ["video/card.y4m"], options: ["--fps", "10", "--duration", "1"])),
        (9, Export(line: ##"{"scene": "card.json", "output": "frames/f-%02d.png", "backend": "cpu", "export": {"fps": 5, "duration": 1, "start": 0.5}}"##,
                   output: "frames/f-%02d.png", files: (0..<5).map { String(format: "frames/f-%02d.png", $0) },
                   options: ["--fps", "5", "--duration", "1", "--start", "0.5"])),
    ]
    /// Line 4: a control line naming a layer the card does not have.
    static let badLine = (4, ##"{"scene": "card.json", "output": "out/bad.png", "backend": "cpu", "set": [{"layer": "bax", "set": {"backgroundColor": "#000000"}}]}"##)
    static let badError = #"jobs.jsonl:4: set[0].layer: no layer is named "bax""#
    static var lineCount: Int { stills.count + exports.count + 1 }

    /// Makes the folder: card.json, logo.png (green), logos/ada.png (blue), jobs.jsonl.
    static func make() throws -> ShardedManifest {
        let folder = try CLI.temporaryFolder()
        try card.write(to: folder.appendingPathComponent("card.json"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("logos"), withIntermediateDirectories: true)
        try solid(RGBA8(r: 0, g: 255, b: 0, a: 255), to: folder.appendingPathComponent("logo.png"))
        try solid(RGBA8(r: 0, g: 0, b: 255, a: 255), to: folder.appendingPathComponent("logos/ada.png"))
        var lines = [String](repeating: "", count: lineCount)
        for (number, still) in stills { lines[number - 1] = still.line }
        for (number, export) in exports { lines[number - 1] = export.line }
        lines[badLine.0 - 1] = badLine.1
        try (lines.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("jobs.jsonl"),
                                                        atomically: true, encoding: .utf8)
        return ShardedManifest(folder: folder)
    }

    private static func solid(_ colour: RGBA8, to url: URL) throws {
        let image = try Image(width: 2, height: 2)
        for y in 0..<2 { for x in 0..<2 { image.setRGBA(colour, x: x, y: y) } }
        try image.writePNG(to: url)
    }

    func data(_ path: String) -> Data? { try? Data(contentsOf: folder.appendingPathComponent(path)) }

    /// Every output against a single `lamina render`/`lamina export` of the same (edited) scene, byte for byte; the
    /// bad line's output absent; the summaries in `summaries` (one a shard) together: every line once, the bad one
    /// failed with its error, the others ok or skipped.
    func verify(summaries: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reference = folder.appendingPathComponent("reference")
        try FileManager.default.createDirectory(at: reference, withIntermediateDirectories: true)
        for (number, still) in Self.stills {
            let scene = "reference-\(number).json"   // beside card.json, so its images resolve the same way
            try still.scene.write(to: folder.appendingPathComponent(scene), atomically: true, encoding: .utf8)
            let result = try CLI.run(["render", scene, "--backend", "cpu", "-o", "reference/\(number).png"] + still.options,
                                     in: folder)
            #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
            let output = data(still.output)
            #expect(output != nil, "line \(number): \(still.output) is missing", sourceLocation: sourceLocation)
            #expect(output == data("reference/\(number).png"),
                    "line \(number): \(still.output) differs from lamina render", sourceLocation: sourceLocation)
        }
        for (number, export) in Self.exports {
            let output = "reference/\(number)-" + (export.output as NSString).lastPathComponent
            let result = try CLI.run(["export", "card.json", "--backend", "cpu", "-o", output] + export.options, in: folder)
            #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
            for file in export.files {
                let name = "reference/\(number)-" + (file as NSString).lastPathComponent
                #expect(data(file) != nil, "line \(number): \(file) is missing", sourceLocation: sourceLocation)
                #expect(data(file) == data(name), "line \(number): \(file) differs from lamina export",
                        sourceLocation: sourceLocation)
            }
        }
        // An export's sidecar, written last, is what --resume looks for.
        #expect(data("video/card.y4m.json") != nil, sourceLocation: sourceLocation)
        #expect(data("out/bad.png") == nil, sourceLocation: sourceLocation)

        // The summaries: each line of the manifest in exactly one shard's.
        var records: [Int: [String: Any]] = [:]
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(summaries).path)
        for name in files where name.hasSuffix(".json") {
            let object = try JSONSerialization.jsonObject(with: data("\(summaries)/\(name)") ?? Data()) as? [String: Any]
            for job in object?["jobs"] as? [[String: Any]] ?? [] {
                let line = job["line"] as? Int ?? -1
                #expect(records[line] == nil, "line \(line) is in two summaries", sourceLocation: sourceLocation)
                records[line] = job
            }
        }
        #expect(Set(records.keys) == Set(1...Self.lineCount), "\(records.keys.sorted())", sourceLocation: sourceLocation)
        for (line, record) in records {
            let status = record["status"] as? String ?? ""
            if line == Self.badLine.0 {
                #expect(status == "failed", sourceLocation: sourceLocation)
                #expect((record["error"] as? String ?? "").contains(Self.badError), "\(record)", sourceLocation: sourceLocation)
            } else {
                #expect(status == "ok" || status == "skipped", "line \(line): \(record)", sourceLocation: sourceLocation)
            }
        }
    }

    /// The record of `line` in the summary file `path`, if any.
    func record(line: Int, in path: String) -> [String: Any]? {
        guard let bytes = data(path),
              let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any] else { return nil }
        return (object["jobs"] as? [[String: Any]] ?? []).first { $0["line"] as? Int == line }
    }
}
