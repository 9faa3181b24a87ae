import ArgumentParser
import Foundation
import Lamina

/// `lamina join -o OUT PART...`: the y4m or raw shards of one export, in shard order, as one stream (docs/scale.md,
/// "Joining").
struct Join: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Join the y4m or raw shards of one export into one stream, byte for byte the unsharded export's.",
        discussion: """
            The parts are given in shard order. y4m: the first part's header is kept and the others' (which must be \
            the same) dropped. raw: the parts are concatenated. Where every part has its sidecar (PART.json), the \
            sidecars must be of one export, and the parts must hold its frames from the first to the last without \
            a gap or an overlap; the joined sidecar is written beside OUT. OUT is written to a temporary file and \
            renamed into place; -o - writes to stdout.
            """)

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The joined stream, or - for stdout.", valueName: "path"))
    var output: String

    @Argument(help: "The parts, in shard order.")
    var parts: [String]

    @Flag(help: "Write no joined sidecar, and do not check the parts' sidecars.")
    var noSidecar = false

    mutating func run() throws {
        signal(SIGPIPE, SIG_IGN)
        guard !parts.isEmpty else { throw CLIFailure.badInput("give the parts to join, in shard order") }
        if output == "-", isatty(STDOUT_FILENO) == 1 {
            throw CLIFailure.badInput("-o - writes video to stdout, which is a terminal: pipe or redirect it")
        }
        var inputs: [FileHandle] = []
        for part in parts {
            guard let handle = FileHandle(forReadingAtPath: part), Render.isRegularFile(part) else {
                throw CLIFailure.badInput("\(part): cannot be read (not found, or not a regular file)")
            }
            inputs.append(handle)
        }
        defer { for input in inputs { try? input.close() } }
        // y4m when the first part says so; then every part must be y4m with the same header.
        let headers = try inputs.enumerated().map { index, input in try Self.y4mHeader(input, name: parts[index]) }
        let isY4M = headers[0] != nil
        for (index, header) in headers.enumerated() {
            if (header != nil) != isY4M {
                throw CLIFailure.badInput("\(parts[index]) is \(header == nil ? "not a y4m stream" : "a y4m stream") "
                    + "but \(parts[0]) is \(isY4M ? "one" : "not"): parts of one export have one format")
            }
            if isY4M, header != headers[0] {
                throw CLIFailure.badInput("\(parts[index]) has another y4m header than \(parts[0]) (another export?)")
            }
        }
        let sidecar = noSidecar ? nil : try JoinSidecars(parts: parts)
        let stream: StreamOutput
        do { stream = try StreamOutput(path: output) } catch { throw CLIFailure.failed("\(error)") }
        do {
            if let header = headers[0] { try stream.write(header) }
            for (index, input) in inputs.enumerated() {
                // Past each part's own header line: its frames.
                try input.seek(toOffset: UInt64(headers[index]?.count ?? 0))
                while let chunk = try input.read(upToCount: 4 << 20), !chunk.isEmpty {
                    try stream.write(chunk)
                }
            }
            try stream.finish()
        } catch {
            stream.abandon()
            throw CLIFailure.failed("\(error)")
        }
        if output != "-", let sidecar {
            do {
                try FileOutput.write(Data(sidecar.joined(output: output).utf8), to: output + ".json")
            } catch {
                throw CLIFailure.failed("\(error)")
            }
        }
        note("lamina: joined \(parts.count) parts\(sidecar.map { " (\($0.totalFrames) frames)" } ?? "") into "
             + (output == "-" ? "<stdout>" : output))
    }

    /// The y4m header line (with its newline) at the start of `input`, or nil when it does not start "YUV4MPEG2 ".
    static func y4mHeader(_ input: FileHandle, name: String) throws -> Data? {
        try input.seek(toOffset: 0)
        let start = (try input.read(upToCount: 4096)) ?? Data()
        guard start.starts(with: Data("YUV4MPEG2 ".utf8)) else { return nil }
        guard let end = start.firstIndex(of: 0x0A) else {
            throw CLIFailure.badInput("\(name): a y4m header without its end of line in its first 4096 bytes")
        }
        return start.prefix(through: end)
    }
}

/// The parts' sidecars (PART.json), checked to be the shards of one export holding all its frames in order.
struct JoinSidecars {
    private var firstText: String
    var totalFrames: Int

    /// Nil when a part has no sidecar (then nothing is checked); throws for sidecars of different exports, and for
    /// parts out of order, overlapping or leaving a gap.
    init?(parts: [String]) throws {
        var sidecars: [(name: String, text: String, fields: [String: Any])] = []
        for part in parts {
            let path = part + ".json"
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            guard let fields = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
                throw CLIFailure.badInput("\(path): not an export's sidecar (not a JSON object)")
            }
            sidecars.append((path, String(decoding: data, as: UTF8.self), fields))
        }
        let same = ["format", "pixelFormat", "width", "height", "frameRate", "start", "duration", "totalFrames",
                    "sceneSHA256"]
        var next = 0
        for sidecar in sidecars {
            for key in same where "\(sidecar.fields[key] ?? "none")" != "\(sidecars[0].fields[key] ?? "none")" {
                throw CLIFailure.badInput("\(sidecar.name): \"\(key)\" is \(sidecar.fields[key] ?? "missing"), but "
                    + "\(sidecars[0].name) says \(sidecars[0].fields[key] ?? "missing"): not shards of one export")
            }
            let count = sidecar.fields["frameCount"] as? Int ?? 0
            if count == 0 { continue }
            guard let firstFrame = sidecar.fields["firstFrame"] as? Int else {
                throw CLIFailure.badInput("\(sidecar.name): no \"firstFrame\"")
            }
            if firstFrame > next {
                throw CLIFailure.badInput("\(sidecar.name) starts at frame \(firstFrame): frames \(next) to "
                    + "\(firstFrame - 1) are missing (a shard not given, or given out of order)")
            }
            if firstFrame < next {
                throw CLIFailure.badInput("\(sidecar.name) starts at frame \(firstFrame), which an earlier part "
                    + "holds (a shard given twice, or out of order)")
            }
            next = firstFrame + count
        }
        let total = sidecars[0].fields["totalFrames"] as? Int ?? next
        if next != total {
            throw CLIFailure.badInput("the parts hold frames 0 to \(next - 1) of \(total): the shards after are missing")
        }
        firstText = sidecars[0].text
        totalFrames = total
    }

    /// The sidecar of the joined stream: the first part's with the whole export's frames, shard 0/1, and the output.
    func joined(output: String) -> String {
        var text = firstText
        func replace(_ key: String, _ value: String) {
            guard let range = text.range(of: "\n  \"\(key)\": ") else { return }
            let end = text[range.upperBound...].firstIndex(of: "\n") ?? text.endIndex
            let trailing = text[..<end].hasSuffix(",") ? "," : ""
            text.replaceSubrange(range.upperBound..<end, with: value + trailing)
        }
        replace("output", output.jsonQuoted)
        replace("frameCount", "\(totalFrames)")
        replace("firstFrame", totalFrames == 0 ? "null" : "0")
        replace("lastFrame", totalFrames == 0 ? "null" : "\(totalFrames - 1)")
        replace("shard", "{\"index\": 0, \"count\": 1}")
        return text
    }
}
