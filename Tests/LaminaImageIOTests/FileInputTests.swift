import Foundation
import LaminaBench
import LaminaCore
import LaminaImageIO
import LaminaTestSupport
import Testing

/// Only regular files are read as images, and only up to a size checked before reading (issue 13, part 6).
@Suite struct FileInputTests {
    @Test func aFIFONamedAsAnImageIsRefusedAtOnce() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.path("pipe.png")
        #expect(mkfifo(path, 0o644) == 0)
        // Nobody writes to the FIFO: opening it for reading would block forever.
        let result = finishing { try Image(contentsOfFile: path) }
        guard let result else {
            Issue.record("reading a FIFO did not return within 10 s")
            return
        }
        #expect(throws: ImageDecodingError.notAFile(name: path, kind: "a FIFO (named pipe)")) { try result.get() }
        #expect(ImageDecodingError.notAFile(name: path, kind: "a FIFO (named pipe)").description
            == "cannot read \"\(path)\": it is a FIFO (named pipe), not a regular file")
        let size = finishing { try ImageFile.size(ofFile: path) }
        #expect(throws: ImageDecodingError.self) { try size?.get() }
    }

    @Test func devicesAreRefused() {
        // /dev/zero never ends: read whole, it would fill memory.
        #expect(throws: ImageDecodingError.notAFile(name: "/dev/zero", kind: "a character device")) {
            try Image(contentsOfFile: "/dev/zero")
        }
    }

    @Test func aSparse2GBFileIsRefusedWithoutBeingRead() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.path("huge.png")
        // A PNG signature, then 2 GiB of holes: no disk space, but read whole it would take 2 GiB of memory.
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        try Data(signature).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_WRONLY)
        #expect(fd >= 0 && ftruncate(fd, 2 << 30) == 0)
        close(fd)
        let before = ProcessMemory.residentKilobytes
        let expected = ImageDecodingError.fileTooLarge(name: path, size: 2 << 30, limit: 256 << 20)
        #expect(throws: expected) { try Image(contentsOfFile: path) }
        #expect(throws: expected) { try ImageFile.size(ofFile: path) }
        #expect(expected.description == "\"\(path)\" is 2 GiB (2147483648 bytes), over the limit of 256 MiB "
            + "(268435456 bytes) for an image file")
        // Refused from the size alone: nothing near 2 GiB was read (the suite runs other tests alongside).
        #expect(ProcessMemory.residentKilobytes - before < 512 << 10)
    }

    @Test func theFileLimitCanBeSet() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let image = try Image(width: 4, height: 4, color: .init(red: 1, green: 0, blue: 0, alpha: 1))
        let path = try folder.write(try image.pngData(), "small.png")
        let bytes = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(throws: ImageDecodingError.fileTooLarge(name: path, size: bytes, limit: 10)) {
            try Image(contentsOfFile: path, maxFileBytes: 10)
        }
        #expect(try Image(contentsOfFile: path, maxFileBytes: bytes).width == 4)
    }

    @Test func aFolderIsNamed() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        #expect(throws: FileInputError.notAFile(path: folder.url.path, kind: "a folder")) {
            try FileInput.read(folder.url.path, limit: 100, what: "a scene file", allowStreams: true)
        }
    }

    @Test func streamsAreReadWhenAllowedAndCappedAtTheLimit() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.path("scene.fifo")
        #expect(mkfifo(path, 0o644) == 0)
        #expect(throws: FileInputError.notAFile(path: path, kind: "a FIFO (named pipe)")) {
            try FileInput.read(path, limit: 100, what: "a scene file")
        }
        // A writer feeds the FIFO: allowed as a stream, it is read to its end.
        func feed(_ text: String) {
            Thread {
                let fd = open(path, O_WRONLY)
                _ = text.withCString { write(fd, $0, strlen($0)) }
                close(fd)
            }.start()
        }
        feed("{\"size\": [1, 1]}")
        let read = finishing { try FileInput.read(path, limit: 100, what: "a scene file", allowStreams: true) }
        #expect(try read?.get() == Data("{\"size\": [1, 1]}".utf8))
        feed(String(repeating: "x", count: 200))
        let long = finishing { try FileInput.read(path, limit: 100, what: "a scene file", allowStreams: true) }
        let error = #expect(throws: FileInputError.self) { try long?.get() }
        #expect(error?.description == "\"\(path)\" is over the limit of 100 bytes for a scene file")
    }
}
