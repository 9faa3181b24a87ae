import Foundation

/// One line of a `lamina batch` manifest (docs/scale.md, "The manifest"): a still or an export of one scene,
/// with its edits and replaced images. Paths are absolute, resolved against the manifest's folder.
public struct BatchJob: Sendable, Equatable {
    /// The manifest line, counted from 1.
    public var line: Int
    /// The scene file (a scene or a Lottie file).
    public var scene: String
    /// A PNG path for a still; for an export, a PNG frame pattern (one %d) or a .y4m or raw file.
    public var output: String
    /// The time drawn (a still), in seconds; nil: 0.
    public var time: Double?
    /// Output pixels per point, overriding the scene's.
    public var scale: Double?
    /// "auto", "cpu" or "gles"; nil: the command's.
    public var backend: String?
    /// Control lines (`lamina play --control`'s format) applied as edits of the scene file, in order
    /// (`Scene.edit(controlLine:file:line:path:)`).
    public var edits: [String]
    /// Image names or paths as the scene writes them, to the absolute paths of the files to use instead
    /// (`SceneOptions.imageReplacements`).
    public var images: [String: String]
    /// Set for an export.
    public var export: BatchExport?

    public init(line: Int, scene: String, output: String, time: Double? = nil, scale: Double? = nil,
                backend: String? = nil, edits: [String] = [], images: [String: String] = [:],
                export: BatchExport? = nil) {
        self.line = line
        self.scene = scene
        self.output = output
        self.time = time
        self.scale = scale
        self.backend = backend
        self.edits = edits
        self.images = images
        self.export = export
    }
}

/// A job's `"export"`: the options of `lamina export`.
public struct BatchExport: Sendable, Equatable {
    /// Frames a second as written (a number or a ratio such as "30000/1001"); nil: the scene's.
    public var fps: String?
    /// Seconds; nil: the scene's duration.
    public var duration: Double?
    /// The time of frame 0.
    public var start: Double
    /// "png", "y4m" or "raw"; nil: from the output's extension.
    public var format: String?

    public init(fps: String? = nil, duration: Double? = nil, start: Double = 0, format: String? = nil) {
        self.fps = fps
        self.duration = duration
        self.start = start
        self.format = format
    }
}

extension SceneProblem: Error {}

/// Reads manifest lines (JSON Lines: one object a line; blank lines and lines starting with `#` are skipped).
public enum BatchManifest {
    /// The keys of a job, in the order docs/scale.md lists them.
    public static let jobKeys = ["scene", "output", "time", "scale", "backend", "set", "images", "export"]
    /// The keys of a job's `"export"`.
    public static let exportKeys = ["fps", "duration", "start", "format"]

    /// The job of line `number` of `file` (the manifest's name in messages), or nil for a blank or comment line.
    /// Throws a `SceneProblem` such as `jobs.jsonl:12: export.fomat: unknown key (did you mean "format"?)`.
    public static func job(_ text: Substring, line lineNumber: Int, file: String, folder: URL) throws(SceneProblem)
        -> BatchJob?
    {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
        func problem(_ path: String, _ message: String) -> SceneProblem {
            SceneProblem(file: file, line: lineNumber, path: path, message: message)
        }
        let parsed: (root: JSONValue, issues: [JSONIssue])
        do throws(JSONSyntaxError) {
            parsed = try JSONParser.parse(Data(trimmed.utf8))
        } catch {
            throw SceneProblem(file: file, line: lineNumber, column: error.position.column, path: "",
                               message: error.message)
        }
        if let issue = parsed.issues.first { throw problem(issue.path, issue.message) }
        let value = parsed.root
        guard case .object(let members) = value.kind else {
            throw problem("", "expected a job (an object with \"scene\" and \"output\"), got \(value.typeDescription)")
        }
        var fields: [String: JSONValue] = [:]
        for member in members {
            guard jobKeys.contains(member.key) else {
                let hint = Suggestion.closest(to: member.key, in: jobKeys).map { " (did you mean \"\($0)\"?)" }
                    ?? " (a job has \(jobKeys.map { "\"\($0)\"" }.joined(separator: ", ")))"
                throw problem(member.key, "unknown key" + hint)
            }
            fields[member.key] = member.value
        }
        func string(_ key: String, _ value: JSONValue) throws(SceneProblem) -> String {
            guard case .string(let text) = value.kind, !text.isEmpty else {
                throw problem(key, "expected a non-empty string, got \(value.typeDescription)")
            }
            return text
        }
        func number(_ key: String, _ value: JSONValue, positive: Bool) throws(SceneProblem) -> Double {
            guard case .number(let n) = value.kind, n.isFinite, positive ? n > 0 : n >= 0 else {
                throw problem(key, "expected a \(positive ? "positive number" : "number, 0 or more"), got "
                                  + (value.typeDescription == "a number" ? "\(value.numberText)" : value.typeDescription))
            }
            return n
        }
        func path(_ written: String) -> String {
            written.hasPrefix("/") ? written : FilePaths.normalized(folder.path + "/" + written)
        }
        guard let sceneValue = fields["scene"] else { throw problem("", "required key \"scene\" is missing (a scene file)") }
        guard let outputValue = fields["output"] else {
            throw problem("", "required key \"output\" is missing (a PNG path, or a frame pattern or video file for an export)")
        }
        var job = BatchJob(line: lineNumber, scene: path(try string("scene", sceneValue)),
                           output: path(try string("output", outputValue)))
        if let value = fields["time"] { job.time = try number("time", value, positive: false) }
        if let value = fields["scale"] { job.scale = try number("scale", value, positive: true) }
        if let value = fields["backend"] {
            let backend = try string("backend", value)
            guard ["auto", "cpu", "gles"].contains(backend) else {
                throw problem("backend", "expected \"auto\", \"cpu\" or \"gles\", got \"\(backend)\"")
            }
            job.backend = backend
        }
        if let value = fields["set"] {
            guard case .array(let lines) = value.kind else {
                throw problem("set", "expected a list of control lines such as [{\"layer\": \"title\", \"set\": "
                                  + "{\"string\": \"Hello\"}}], got \(value.typeDescription)")
            }
            for (index, line) in lines.enumerated() {
                guard case .object = line.kind else {
                    throw problem("set[\(index)]", "expected a control line (an object with \"layer\" and \"set\"), got "
                                      + line.typeDescription)
                }
                job.edits.append(line.jsonText)
            }
        }
        if let value = fields["images"] {
            guard case .object(let entries) = value.kind else {
                throw problem("images", "expected an object of images to replace such as {\"logo\": \"logos/ada.png\"}, "
                                  + "got \(value.typeDescription)")
            }
            for entry in entries {
                job.images[entry.key] = path(try string(ScenePath.key("images", entry.key), entry.value))
            }
        }
        if let value = fields["export"] {
            guard case .object(let entries) = value.kind else {
                throw problem("export", "expected an object such as {\"fps\": 30, \"duration\": 2}, got "
                                  + value.typeDescription)
            }
            var export = BatchExport()
            for entry in entries {
                let key = ScenePath.key("export", entry.key)
                switch entry.key {
                case "fps":
                    switch entry.value.kind {
                    case .string(let text): export.fps = text
                    case .number: export.fps = String(try number(key, entry.value, positive: true) == 0 ? "" : entry.value.numberText)
                    default: throw problem(key, "expected a number or a ratio such as \"30000/1001\", got \(entry.value.typeDescription)")
                    }
                case "duration": export.duration = try number(key, entry.value, positive: true)
                case "start": export.start = try number(key, entry.value, positive: false)
                case "format":
                    let format = try string(key, entry.value)
                    guard ["png", "y4m", "raw"].contains(format) else {
                        throw problem(key, "expected \"png\", \"y4m\" or \"raw\", got \"\(format)\"")
                    }
                    export.format = format
                default:
                    let hint = Suggestion.closest(to: entry.key, in: exportKeys).map { " (did you mean \"\($0)\"?)" }
                        ?? " (an export has \(exportKeys.map { "\"\($0)\"" }.joined(separator: ", ")))"
                    throw problem(key, "unknown key" + hint)
                }
            }
            job.export = export
            if job.time != nil { throw problem("time", "an export draws from \"export\".\"start\": it has no \"time\"") }
        }
        return job
    }
}

extension JSONValue {
    /// The value as JSON text (numbers in their shortest exact form): a control line handed on.
    var jsonText: String {
        switch kind {
        case .null, .invalid: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number: return numberText
        case .string(let s): return s.jsonQuoted
        case .array(let items): return "[" + items.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { $0.key.jsonQuoted + ":" + $0.value.jsonText }.joined(separator: ",") + "}"
        }
    }

    /// A number's text ("" for anything else): integers without a fraction.
    var numberText: String {
        guard case .number(let n) = kind else { return "" }
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return "\(n)"
    }
}
