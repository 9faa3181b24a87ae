import Foundation
import Lamina

/// The options of `lamina export`, checked: everything that can be wrong with the command line is found here,
/// before the scene is read or a file is touched (exit status 2).
struct ExportPlan {
    var format: ExportFormat
    /// For y4m and raw; PNG frames are always straight RGBA.
    var pixelFormat: RawPixelFormat
    /// For PNG frames.
    var pattern: FramePattern?
    /// `-o` as given.
    var output: String
    /// `--fps` when given; else the scene's (ExportTimeline).
    var rate: FrameRate?
    var shard: FrameShard
    var sidecarPath: String?

    init(_ command: Export) throws {
        output = command.output
        guard !output.isEmpty else { throw CLIFailure.badInput("-o must name a frame pattern, a file, or - for stdout") }
        format = command.format ?? ExportPlan.format(for: output)
        switch format {
        case .png:
            guard output != "-" else {
                throw CLIFailure.badInput("PNG frames need a file pattern such as frames/f-%05d.png; -o - writes y4m or raw")
            }
            do { pattern = try FramePattern(output) } catch { throw CLIFailure.badInput("\(error)") }
            if let asked = command.pixelFormat, asked != .rgba {
                throw CLIFailure.badInput(
                    "--pixel-format \(asked.rawValue): PNG frames are rgba; use --format raw for \(asked.rawValue)")
            }
            pixelFormat = .rgba
        case .y4m:
            if let asked = command.pixelFormat, asked != .yuv420p {
                throw CLIFailure.badInput(
                    "--pixel-format \(asked.rawValue): y4m holds yuv420p; use --format raw for \(asked.rawValue)")
            }
            pixelFormat = .yuv420p
        case .raw:
            pixelFormat = command.pixelFormat ?? ExportPlan.pixelFormat(for: output)
        }
        if let text = command.fps {
            guard let rate = FrameRate(parsing: text) else {
                throw CLIFailure.badInput(
                    "--fps must be a positive number or ratio such as 60, 29.97 or 30000/1001, got \"\(text)\"")
            }
            self.rate = rate
        }
        guard command.start.isFinite else { throw CLIFailure.badInput("--start must be a finite number of seconds") }
        if let duration = command.duration, !(duration.isFinite && duration > 0) {
            throw CLIFailure.badInput("--duration must be a positive number of seconds, got \(duration)")
        }
        if let scale = command.scale, !(scale.isFinite && scale > 0) {
            throw CLIFailure.badInput("--scale must be a positive number, got \(scale)")
        }
        if let jobs = command.jobs, jobs < 1 {
            throw CLIFailure.badInput("--jobs must be at least 1, got \(jobs)")
        }
        do { shard = try command.shard.map { try FrameShard(parsing: $0) } ?? .whole } catch {
            throw CLIFailure.badInput("--shard: \(error)")
        }
        if command.noSidecar, command.sidecar != nil {
            throw CLIFailure.badInput("--sidecar and --no-sidecar contradict each other")
        }
        sidecarPath = command.noSidecar ? nil
            : command.sidecar ?? ExportSidecar.defaultPath(format: format, output: output, pattern: pattern, shard: shard)
    }

    /// The format `-o` implies: y4m for stdout and .y4m, raw for .raw/.rgba/.bgra/.yuv, else PNG frames.
    static func format(for output: String) -> ExportFormat {
        if output == "-" { return .y4m }
        let lower = output.lowercased()
        if lower.hasSuffix(".y4m") { return .y4m }
        if [".raw", ".rgba", ".bgra", ".yuv"].contains(where: { lower.hasSuffix($0) }) { return .raw }
        return .png
    }

    /// The raw pixel format a file's extension implies: bgra for .bgra, yuv420p for .yuv, else rgba.
    static func pixelFormat(for output: String) -> RawPixelFormat {
        let lower = output.lowercased()
        if lower.hasSuffix(".bgra") { return .bgra }
        if lower.hasSuffix(".yuv") { return .yuv420p }
        return .rgba
    }

    /// What a job turns each rendered frame into: the bytes to write (encoded on the job's thread, so that PNG
    /// compression runs in parallel too).
    func encoder(width: Int, height: Int, rate: FrameRate) -> @Sendable (Image) throws -> Data {
        switch format {
        case .png:
            return { image in
                do { return try image.pngData() } catch { throw CLIFailure.failed("\(error)") }
            }
        case .y4m:
            let writer = Y4MWriter(width: width, height: height, rate: rate)
            return { image in
                try ExportPlan.checkSize(image, width: width, height: height)
                return writer.frame(image)
            }
        case .raw:
            let pixels = pixelFormat
            return { image in
                try ExportPlan.checkSize(image, width: width, height: height)
                return RawFrameWriter.frame(image, format: pixels)
            }
        }
    }

    /// A video stream's frames all have the header's size; a scene whose root changes size cannot be one.
    static func checkSize(_ image: Image, width: Int, height: Int) throws {
        guard image.width == width, image.height == height else {
            throw CLIFailure.failed(
                "a \(image.width)x\(image.height) frame in a \(width)x\(height) stream: "
                    + "every frame of a video must have one size")
        }
    }
}
