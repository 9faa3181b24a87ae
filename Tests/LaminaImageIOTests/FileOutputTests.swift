import Foundation
import LaminaCore
@testable import LaminaImageIO
import LaminaTestSupport
import Testing

/// Output is written atomically: on any failure the old file is untouched and no temporary file is left
/// (issue 13, part 7). The failures are real where the machine allows (a full tmpfs, a read-only mount,
/// /dev/full, a missing folder) and injected through `FileOutput.Faults` for the steps a real disk cannot be
/// made to fail on cue (fsync, rename).
@Suite struct FileOutputTests {
    /// The files in `folder`, hidden ones (where a temporary file would be) included.
    func listing(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func replacesTheFileAndKeepsItsMode() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = try folder.write(Data("old".utf8), "out.png")
        #expect(chmod(path, 0o600) == 0)
        try FileOutput.write(Data("new contents".utf8), to: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("new contents".utf8))
        #expect(try listing(folder.url) == ["out.png"])
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        // A new file gets the usual 0644.
        let fresh = folder.path("fresh.png")
        try FileOutput.write(Data("x".utf8), to: fresh)
        #expect(stat(fresh, &info) == 0 && info.st_mode & 0o777 == 0o644)
    }

    @Test(arguments: [FileOutput.Step.write, .sync, .close, .rename])
    func aFailureAtAnyStepKeepsTheOldFile(step: FileOutput.Step) throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = try folder.write(Data("the old picture".utf8), "out.png")
        FileOutput.Faults.inject(ENOSPC, at: step, for: path)
        let error = #expect(throws: FileOutputError.self) { try FileOutput.write(Data(count: 100_000), to: path) }
        #expect(error?.description == "cannot write \"\(path)\": no space left on device")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("the old picture".utf8))
        #expect(try listing(folder.url) == ["out.png"])
    }

    @Test func aReallyFullDiskKeepsTheOldFile() throws {
        // 64 KiB of tmpfs: the old file fits, the new one cannot.
        guard let disk = TemporaryMount.tmpfs(bytes: 64 << 10) else {
            print("FileOutputTests: no tmpfs could be mounted here (needs root and CAP_SYS_ADMIN); skipped")
            return
        }
        defer { disk.unmount() }
        let path = disk.url.appendingPathComponent("out.png").path
        let old = try Image(width: 8, height: 8, color: .init(red: 0, green: 0, blue: 1, alpha: 1))
        try old.writePNG(to: URL(fileURLWithPath: path))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let noise = try Image(width: 256, height: 256)
        for y in 0..<256 { for x in 0..<256 { noise.setWord(UInt32(truncatingIfNeeded: (x &* 2654435761) ^ (y &* 40503)) | 0xFF00_0000, x: x, y: y) } }
        let error = #expect(throws: ImageEncodingError.self) { try noise.writePNG(to: URL(fileURLWithPath: path)) }
        #expect(error?.description == "cannot write \"\(path)\": no space left on device")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try listing(disk.url) == ["out.png"])
    }

    @Test func aReadOnlyFolderIsNamed() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        _ = try folder.write(Data("old".utf8), "out.png")
        // Root ignores permission bits, so a read-only bind mount stands in where it can be made.
        guard let readOnly = TemporaryMount.readOnlyBind(of: folder.url) else {
            print("FileOutputTests: no read-only bind mount could be made here; skipped")
            return
        }
        defer { readOnly.unmount() }
        let path = readOnly.url.appendingPathComponent("out.png").path
        let error = #expect(throws: FileOutputError.self) { try FileOutput.write(Data("new".utf8), to: path) }
        #expect(error?.description == "cannot write \"\(path)\": read-only file system")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("old".utf8))
    }

    @Test func devicesAreWrittenInPlace() throws {
        // /dev/full fails every write with ENOSPC; /dev/null takes them. Neither is replaced by a rename.
        #expect(throws: FileOutputError(path: "/dev/full", reason: "no space left on device")) {
            try FileOutput.write(Data("x".utf8), to: "/dev/full")
        }
        try FileOutput.write(Data("x".utf8), to: "/dev/null")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func aMissingFolderAndAFolderAreNamed() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let missing = folder.path("no/such/out.png")
        #expect(throws: FileOutputError(path: missing, reason: "no such folder \(folder.path("no/such"))")) {
            try FileOutput.write(Data(), to: missing)
        }
        #expect(throws: FileOutputError(path: folder.url.path, reason: "it is a folder")) {
            try FileOutput.write(Data(), to: folder.url.path)
        }
    }

    @Test func aSymbolicLinkIsFollowed() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let target = try folder.write(Data("old".utf8), "real.png")
        let link = folder.path("link.png")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try FileOutput.write(Data("new".utf8), to: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("new".utf8))
    }
}
