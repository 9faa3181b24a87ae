import Foundation
import LaminaImageIO
import Testing

/// Streamed outputs (a y4m or raw export to a file or a pipe): a file appears whole or not at all, and a
/// reader that quits is an EPIPE error, not a signal.
@Suite struct StreamOutputTests {
    @Test func aFileAppearsOnlyWhenFinished() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.path("out.y4m")
        let output = try StreamOutput(path: path)
        try output.write(Data("YUV4MPEG2 ".utf8))
        try output.write(Data("rest".utf8))
        #expect(!FileManager.default.fileExists(atPath: path))
        try output.finish()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("YUV4MPEG2 rest".utf8))
        #expect(output.bytesWritten == 14)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["out.y4m"])
    }

    @Test func abandoningLeavesTheOldFile() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = try folder.write(Data("old".utf8), "out.raw")
        let output = try StreamOutput(path: path)
        try output.write(Data("new".utf8))
        output.abandon()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["out.raw"])
    }

    @Test func openingErrorsNameTheFile() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        #expect(throws: FileOutputError(path: folder.path("none/x.y4m"), reason: "no such folder \(folder.path("none"))")) {
            try StreamOutput(path: folder.path("none/x.y4m"))
        }
        #expect(throws: FileOutputError(path: folder.url.path, reason: "it is a folder")) {
            try StreamOutput(path: folder.url.path)
        }
    }

    /// Export frames are written without a flush each and flushed together at the end.
    @Test func unflushedWritesAreWholeFilesFlushedTogether() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = try folder.write(Data("old".utf8), "f-1.png")
        try FileOutput.write(Data("new".utf8), to: path, flush: false)
        try FileOutput.write(Data("two".utf8), to: folder.path("f-2.png"), flush: false)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("new".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["f-1.png", "f-2.png"])
        try FileOutput.flushFileSystem(of: folder.url.path)
        #expect(throws: FileOutputError(path: folder.path("gone"), reason: "no such folder")) {
            try FileOutput.flushFileSystem(of: folder.path("gone"))
        }
    }

    @Test func aClosedPipeIsBrokenPipe() throws {
        signal(SIGPIPE, SIG_IGN)  // As lamina export does; the test process must survive the write either way.
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let output = try StreamOutput(path: "/dev/fd/\(fds[1])")
        try output.write(Data("FRAME\n".utf8))
        close(fds[0])
        #expect(throws: FileOutputError(path: "/dev/fd/\(fds[1])", reason: "broken pipe (the program reading the output stopped)")) {
            try output.write(Data("FRAME\n".utf8))
        }
        output.abandon()
        close(fds[1])
    }
}
