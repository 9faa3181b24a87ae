import Foundation
import Lamina

/// Where an export's frames go, in frame order: one PNG file a frame through the pattern, or one stream
/// (stdout or a file) of y4m or raw frames. Every failure is `CLIFailure.failed` (exit status 1).
final class ExportOutput {
    private let pattern: FramePattern?
    private let stream: StreamOutput?
    /// The pattern, path, or `<stdout>`, for messages.
    let name: String

    /// Opens the output: for PNG frames the pattern's folder is created when missing; a stream is opened
    /// (a file as a hidden temporary until `finish()`) and a y4m stream gets its header at once, so that a
    /// shard with no frames is still a valid, empty y4m stream.
    init(_ plan: ExportPlan, width: Int, height: Int, rate: FrameRate) throws {
        if let pattern = plan.pattern {
            self.pattern = pattern
            stream = nil
            name = plan.output
            do {
                try FileManager.default.createDirectory(atPath: pattern.folder, withIntermediateDirectories: true)
            } catch where ExportOutput.isFolder(pattern.folder) {
                // Made at the same moment by another shard writing to the same folder: as good.
            } catch {
                throw CLIFailure.failed(
                    "cannot create the folder \"\(pattern.folder)\" for the frames: \(error.localizedDescription)")
            }
            return
        }
        pattern = nil
        name = plan.output == "-" ? "<stdout>" : plan.output
        do {
            let stream = try StreamOutput(path: plan.output)
            self.stream = stream
            if plan.format == .y4m {
                try stream.write(Y4MWriter(width: width, height: height, rate: rate).header)
            }
        } catch {
            throw CLIFailure.failed("\(error)")
        }
    }

    /// Writes frame `number`'s bytes: its own PNG file (atomically: a temporary file renamed into place), or
    /// the next piece of the stream.
    func write(_ data: Data, frame number: Int) throws {
        do {
            if let pattern {
                // Not flushed one by one (two fsyncs a frame would hold the writer back): `finish()` flushes all.
                try FileOutput.write(data, to: pattern.path(for: number), flush: false)
            } else {
                try stream?.write(data)
            }
        } catch {
            throw CLIFailure.failed("\(error)")
        }
    }

    /// Completes the output: PNG frames are flushed to the disk together, a stream's file is flushed and renamed
    /// into place. Before the sidecar, so that a sidecar means frames that are on the disk.
    func finish() throws {
        do {
            if let pattern { try FileOutput.flushFileSystem(of: pattern.folder) }
            try stream?.finish()
        } catch {
            throw CLIFailure.failed("\(error)")
        }
    }

    /// Gives up after a failure: a stream's temporary file is removed; PNG frames already written stay.
    func abandon() {
        stream?.abandon()
    }

    /// Whether `path` is a folder (after following links).
    private static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
