import Foundation
import LaminaImageIO
import Testing

/// The zip reader behind dotLottie (docs/archives.md): contents of stored, deflated, zip64 and data-descriptor
/// entries, and every refusal by its exact message, with archives made by `ZipWriter`.
@Suite struct ZipArchiveTests {
    typealias Entry = ZipWriter.Entry

    /// The error `body` throws, or nil (recorded as an issue) when it throws none or another type.
    func zipError<T>(_ body: () throws(ZipError) -> T) -> ZipError? {
        do {
            let value = try body()
            Issue.record("expected a ZipError, got \(value)")
            return nil
        } catch {
            return error
        }
    }

    static var text: Data { Data(String(repeating: "Lamina reads zip archives. ", count: 40).utf8) }

    @Test func storedAndDeflatedEntriesReadBackInArchiveOrder() throws {
        let data = ZipWriter.archive([
            Entry("manifest.json", #"{"animations":[]}"#),
            Entry("images/", Data()),
            Entry("images/long.txt", Self.text, method: 8),
            Entry("empty.txt", Data(), method: 8),
        ], comment: "a comment")
        let archive = try ZipArchive(data: data)
        #expect(archive.entryNames == ["manifest.json", "images/", "images/long.txt", "empty.txt"])
        #expect(try archive.contents(of: "manifest.json") == Data(#"{"animations":[]}"#.utf8))
        #expect(try archive.contents(of: "images/long.txt") == Self.text)
        #expect(try archive.contents(of: "images/") == Data())
        #expect(try archive.contents(of: "empty.txt") == Data())
        #expect(archive.uncompressedSize(of: "images/long.txt") == Self.text.count)
        #expect(archive.contains("images/long.txt") && !archive.contains("long.txt"))
        // Deflate really was used: the entry is much smaller in the archive than inflated.
        #expect(data.count < Self.text.count / 2)
    }

    @Test func anEmptyArchiveHasNoEntries() throws {
        #expect(try ZipArchive(data: ZipWriter.archive([])).entryNames.isEmpty)
    }

    @Test func aSliceOfLargerDataReads() throws {
        let data = Data([1, 2, 3]) + ZipWriter.archive([Entry("a.txt", "alpha", method: 8)])
        // The slice's indices start at 3; the archive's offsets count from its own first byte.
        let archive = try ZipArchive(data: data[3...])
        #expect(try archive.contents(of: "a.txt") == Data("alpha".utf8))
    }

    @Test func zip64RecordsAndExtraFieldsRead() throws {
        var entry = Entry("big.txt", Self.text, method: 8)
        entry.zip64 = true
        let archive = try ZipArchive(data: ZipWriter.archive([entry, Entry("small.txt", "s")], zip64: true))
        #expect(archive.entryNames == ["big.txt", "small.txt"])
        #expect(try archive.contents(of: "big.txt") == Self.text)
        #expect(try archive.contents(of: "small.txt") == Data("s".utf8))
    }

    @Test func dataDescriptorEntriesReadFromTheCentralDirectory() throws {
        var entry = Entry("streamed.txt", Self.text, method: 8)
        entry.dataDescriptor = true
        let archive = try ZipArchive(data: ZipWriter.archive([entry, Entry("after.txt", "after")]))
        #expect(try archive.contents(of: "streamed.txt") == Self.text)
        #expect(try archive.contents(of: "after.txt") == Data("after".utf8))
    }

    @Test func bytesThatAreNotAZipArchiveAreRefused() {
        for data in [Data(), Data("PK".utf8), Data(repeating: 0, count: 100), Data("{\"v\":\"5.7\"}".utf8)] {
            let error = zipError { () throws(ZipError) in try ZipArchive(data: data) }
            #expect(error == .notAZip)
            #expect(error?.description == "not a zip archive (no end of central directory record)")
        }
    }

    @Test func aCentralDirectoryPastItsRecordIsTruncated() {
        // An end record alone that claims a 46-byte directory at offset 0.
        let data = Data(ZipWriter.le32(0x0605_4B50) + ZipWriter.le16(0) + ZipWriter.le16(0) + ZipWriter.le16(1)
            + ZipWriter.le16(1) + ZipWriter.le32(46) + ZipWriter.le32(0) + ZipWriter.le16(0))
        let error = zipError { () throws(ZipError) in try ZipArchive(data: data) }
        #expect(error?.description == "truncated zip archive: the central directory (46 bytes at offset 0) "
            + "does not fit before the end of central directory record at offset 0")
    }

    @Test func anEntryCountTheDirectoryCannotHoldIsMalformed() {
        let data = Data(ZipWriter.le32(0x0605_4B50) + ZipWriter.le16(0) + ZipWriter.le16(0) + ZipWriter.le16(9)
            + ZipWriter.le16(9) + ZipWriter.le32(0) + ZipWriter.le32(0) + ZipWriter.le16(0))
        let error = zipError { () throws(ZipError) in try ZipArchive(data: data) }
        #expect(error?.description == "malformed zip archive: the central directory of 0 bytes cannot hold the 9 "
            + "entries the end of central directory record declares")
    }

    @Test func truncatedAtEveryLengthIsAnErrorNeverATrap() throws {
        var streamed = Entry("c.txt", Self.text, method: 8)
        streamed.dataDescriptor = true
        let data = ZipWriter.archive([Entry("a.txt", "alpha"), Entry("b.txt", Self.text, method: 8), streamed])
        for length in 0..<data.count {
            let prefix = data.prefix(length)
            do {
                let archive = try ZipArchive(data: prefix)
                // Opening a cut archive can only succeed when a stray end record is found; reading it must fail.
                for name in archive.entryNames { _ = try archive.contents(of: name) }
                Issue.record("a prefix of \(length) of \(data.count) bytes read completely")
            } catch {
                #expect(error.description.isEmpty == false)
            }
        }
    }

    @Test func everyDamagedByteGivesTheContentsOrAnError() throws {
        let data = ZipWriter.archive([Entry("a.txt", "alpha"), Entry("b.txt", Self.text, method: 8)])
        let expected = ["a.txt": Data("alpha".utf8), "b.txt": Self.text]
        var refused = 0
        for position in 0..<data.count {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var damaged = data
                damaged[position] ^= flip
                do {
                    let archive = try ZipArchive(data: damaged)
                    for name in archive.entryNames {
                        // A damaged byte inside a name or an unchecked field may leave an entry readable; what
                        // it reads must then be the original (every byte of data is covered by the CRC).
                        let contents = try archive.contents(of: name)
                        if let original = expected[name] { #expect(contents == original) }
                    }
                } catch {
                    refused += 1
                }
            }
        }
        #expect(refused > data.count)
    }

    @Test func unsupportedMethodsAreNamed() {
        var entry = Entry("x", "data")
        entry.declaredMethod = 12
        var unknown = Entry("y", "data")
        unknown.declaredMethod = 77
        let archive = try? ZipArchive(data: ZipWriter.archive([entry, unknown]))
        let bzip2 = zipError { () throws(ZipError) in try archive?.contents(of: "x") }
        #expect(bzip2?.description == #"entry "x": compressed with method 12 (bzip2), which is not supported"#)
        let other = zipError { () throws(ZipError) in try archive?.contents(of: "y") }
        #expect(other?.description == #"entry "y": compressed with method 77, which is not supported"#)
    }

    @Test func encryptedEntriesAreRefused() {
        var entry = Entry("secret.json", "{}")
        entry.flags |= 1
        var aes = Entry("aes.json", "{}")
        aes.declaredMethod = 99
        let archive = try? ZipArchive(data: ZipWriter.archive([entry, aes]))
        #expect(zipError { () throws(ZipError) in try archive?.contents(of: "secret.json") }?.description
            == #"entry "secret.json" is encrypted, which is not supported"#)
        #expect(zipError { () throws(ZipError) in try archive?.contents(of: "aes.json") }?.description
            == #"entry "aes.json" is encrypted, which is not supported"#)
    }

    @Test func aCRCMismatchIsNamed() {
        var entry = Entry("x", Self.text, method: 8)
        entry.crc = 0x1234_5678
        let archive = try? ZipArchive(data: ZipWriter.archive([entry]))
        let error = zipError { () throws(ZipError) in try archive?.contents(of: "x") }
        let actual = ZipWriter.crc32(Self.text)
        #expect(error == .crcMismatch(name: "x", expected: 0x1234_5678, actual: actual))
        #expect(error?.description.hasPrefix(#"entry "x": CRC mismatch (the archive says 0x12345678, the data gives 0x"#) == true)
    }

    @Test func aMissingEntryIsNamed() throws {
        let archive = try ZipArchive(data: ZipWriter.archive([Entry("a", "a")]))
        #expect(zipError { () throws(ZipError) in try archive.contents(of: "x") }?.description == #"no entry named "x""#)
    }

    @Test func entriesPastTheSizeLimitAreRefusedBeforeInflating() {
        let limits = ZipLimits(maxEntrySize: 1024)
        let archive = try? ZipArchive(data: ZipWriter.archive([Entry("big", Self.text, method: 8), Entry("ok", "ok")]),
                                      limits: limits)
        let error = zipError { () throws(ZipError) in try archive?.contents(of: "big") }
        #expect(error?.description == #"entry "big" would inflate past the 1 KiB limit (it declares 1080 bytes)"#)
        // The other entries stay readable.
        #expect((try? archive?.contents(of: "ok")) == Data("ok".utf8))
        let defaultMessage = ZipError.entryTooLarge(name: "x", size: 300 << 20, limit: 256 << 20).description
        #expect(defaultMessage == #"entry "x" would inflate past the 256 MiB limit (it declares 314572800 bytes)"#)
    }

    /// A zip bomb: 8 MiB of zeros deflate to about 8 KB, past the 1000:1 ratio the default limits allow.
    @Test func aZipBombIsRefusedByItsRatio() {
        let zeros = Data(count: 8 << 20)
        let archive = try? ZipArchive(data: ZipWriter.archive([Entry("bomb", zeros, method: 8)]))
        let compressed = ZipWriter.deflate(zeros).count
        let error = zipError { () throws(ZipError) in try archive?.contents(of: "bomb") }
        #expect(error == .ratioTooHigh(name: "bomb", ratio: (8 << 20) / compressed, limit: 1000))
        #expect(error?.description == "entry \"bomb\": a compression ratio of \((8 << 20) / compressed):1 is past the 1000:1 limit")
        // Under 1 MiB the ratio is not checked: 512 KiB of zeros read back.
        let small = Data(count: 512 << 10)
        let smallArchive = try? ZipArchive(data: ZipWriter.archive([Entry("zeros", small, method: 8)]))
        #expect((try? smallArchive?.contents(of: "zeros")) == small)
    }

    /// A bomb that lies about its size: it declares 1 KiB but inflates to 8 MiB. Only the declared 1 KiB is
    /// ever allocated; inflating stops there.
    @Test func dataThatInflatesPastItsDeclaredSizeIsRefused() {
        var entry = Entry("liar", Data(count: 8 << 20), method: 8)
        entry.uncompressedSize = 1024
        let archive = try? ZipArchive(data: ZipWriter.archive([entry]))
        let error = zipError { () throws(ZipError) in try archive?.contents(of: "liar") }
        #expect(error?.description == #"entry "liar" inflates past its declared size of 1024 bytes"#)
    }

    @Test func dataThatInflatesToLessThanDeclaredIsRefused() {
        var entry = Entry("short", Self.text, method: 8)
        entry.uncompressedSize = Self.text.count + 10
        let archive = try? ZipArchive(data: ZipWriter.archive([entry]))
        let error = zipError { () throws(ZipError) in try archive?.contents(of: "short") }
        #expect(error?.description == #"entry "short" inflates to 1080 bytes, not the declared 1090"#)
    }

    @Test func corruptAndCutDeflateDataAreNamed() {
        var invalid = Entry("bad", Self.text, method: 8)
        invalid.compressed = Data([0xFF, 0xFF, 0xFF, 0xFF])
        var cut = Entry("cut", Self.text, method: 8)
        cut.compressed = ZipWriter.deflate(Self.text).prefix(20)
        let archive = try? ZipArchive(data: ZipWriter.archive([invalid, cut]))
        #expect(zipError { () throws(ZipError) in try archive?.contents(of: "bad") }?.description
            == #"entry "bad": invalid deflate data (invalid block type)"#)
        #expect(zipError { () throws(ZipError) in try archive?.contents(of: "cut") }?.description
            == #"entry "cut": the compressed data ends before the deflate stream does"#)
    }

    @Test func theTotalSizeLimitCoversAllEntries() {
        let limits = ZipLimits(maxTotalSize: 2000)
        let data = ZipWriter.archive([Entry("a", Self.text, method: 8), Entry("b", Self.text, method: 8)])
        let error = zipError { () throws(ZipError) in try ZipArchive(data: data, limits: limits) }
        #expect(error?.description == "the entries would inflate past the 2000 bytes limit for the whole archive")
        #expect(ZipError.totalTooLarge(limit: 1 << 30).description
            == "the entries would inflate past the 1 GiB limit for the whole archive")
    }

    @Test func entryCountAndNameLengthLimits() {
        let three = ZipWriter.archive([Entry("a", "a"), Entry("b", "b"), Entry("c", "c")])
        #expect(zipError { () throws(ZipError) in try ZipArchive(data: three, limits: ZipLimits(maxEntries: 2)) }?
            .description == "the archive lists 3 entries, past the limit of 2")
        let long = ZipWriter.archive([Entry("a", "a"), Entry(String(repeating: "n", count: 40), "n")])
        #expect(zipError { () throws(ZipError) in try ZipArchive(data: long, limits: ZipLimits(maxNameLength: 32)) }?
            .description == "central directory entry 2: a name of 40 bytes is past the limit of 32")
    }

    @Test func duplicateAndUnsafeNamesAreRefused() {
        let cases: [(String, String)] = [
            ("../evil.json", #"entry "../evil.json": names with a ".." component are not allowed"#),
            ("images/../../x", #"entry "images/../../x": names with a ".." component are not allowed"#),
            ("a\\..\\b", #"entry "a\\..\\b": names with a ".." component are not allowed"#),
            ("/etc/passwd", #"entry "/etc/passwd": absolute names are not allowed"#),
            ("C:/x", #"entry "C:/x": absolute names are not allowed"#),
        ]
        for (name, message) in cases {
            let data = ZipWriter.archive([Entry(name, "x")])
            #expect(zipError { () throws(ZipError) in try ZipArchive(data: data) }?.description == message)
        }
        // Names that only look alike are fine.
        #expect((try? ZipArchive(data: ZipWriter.archive([Entry("a..b/..c", "x")])))?.entryNames == ["a..b/..c"])
        let twice = ZipWriter.archive([Entry("a.json", "1"), Entry("a.json", "2")])
        #expect(zipError { () throws(ZipError) in try ZipArchive(data: twice) }?.description
            == #"entry "a.json" appears more than once in the archive"#)
    }

    @Test func localHeadersMustAgreeWithTheCentralDirectory() {
        var renamed = Entry("a.json", "x")
        renamed.localName = "b.json"
        let archive = try? ZipArchive(data: ZipWriter.archive([renamed]))
        #expect(zipError { () throws(ZipError) in try archive?.contents(of: "a.json") }?.description
            == #"entry "a.json": the local header's name differs from the central directory's"#)
    }

    @Test func spannedArchivesAreRefused() {
        var data = [UInt8](ZipWriter.archive([Entry("a", "a")]))
        // The end record's "number of this disk" field.
        data[data.count - 22 + 4] = 1
        #expect(zipError { () throws(ZipError) in try ZipArchive(data: Data(data)) }?.description
            == "spanned (multi-disk) zip archives are not supported")
    }

    @Test func namesInErrorsAreEscaped() {
        #expect(ZipError.noEntry("a\"b\n").description == #"no entry named "a\"b\n""#)
    }
}
