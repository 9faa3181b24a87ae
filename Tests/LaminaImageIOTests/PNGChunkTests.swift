import Foundation
import LaminaCore
import LaminaImageIO
import Testing

/// An ancillary chunk that claims more bytes than the file holds is refused before libpng allocates its
/// declared length (found by FuzzPNG, docs/fuzzing.md).
@Suite struct PNGChunkTests {
    /// FuzzPNG's input: a 10x1 grey PNG whose tEXt chunk claims 1883789683 bytes (libpng allocated and zeroed
    /// 1.9 GB for it, then failed). Computed, not a stored global: LeakSanitizer cannot follow Data's packed
    /// reference from a static, and reports its bytes as leaked.
    static var hugeText: Data {
        Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAoAAAABAQAAAADPjgLTcEhZc3RFWHR4MAEAAAAAAAAd82c9T54AAAAASUVORK5CYII=")!
    }

    @Test func aTextChunkLongerThanTheFileIsCorrupt() {
        #expect(Self.hugeText.count == 68)
        do {
            let image = try Image(data: Self.hugeText, name: "fuzz.png")
            Issue.record("decoded \(image)")
        } catch let error as ImageDecodingError {
            #expect(error == .corrupt(name: "fuzz.png", reason: "the tEXt chunk claims 1883789683 bytes but only 27 follow"))
            #expect(error.description == #"cannot decode "fuzz.png": the tEXt chunk claims 1883789683 bytes but only 27 follow"#)
        } catch {
            Issue.record("threw \(error), not ImageDecodingError")
        }
    }

    @Test func ancillaryChunksThatFitStillDecode() throws {
        // grey8.png with a well-formed tEXt chunk after IHDR decodes as grey8.png does.
        let plain = [UInt8](try Fixture.data("grey8.png"))
        let data = Array("tEXt".utf8) + Array("Comment".utf8) + [0] + Array("kept".utf8)
        let chunk = Self.bigEndian(data.count - 4) + data + Self.bigEndian(Int(Self.crc32(data)))
        let withText = Array(plain[0..<33]) + chunk + Array(plain[33...])
        let image = try Image(data: Data(withText), name: "text.png")
        let reference = try Image(data: Data(plain), name: "grey8.png")
        #expect(image.width == reference.width && image.height == reference.height)
        #expect(image.word(x: 0, y: 0) == reference.word(x: 0, y: 0))
    }

    private static func bigEndian(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
    }

    /// PNG's CRC-32 (ISO 3309) over a chunk's type and data.
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
