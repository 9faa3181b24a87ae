import Foundation
import LaminaBench
import Testing

/// SHA-256 against the NIST examples (FIPS 180-4 / the NIST CSRC "SHA-256" example values) and against
/// `sha256sum` for messages that end on every side of a padding boundary.
@Suite struct SHA256Tests {
    func hex(_ text: String) -> String { SHA256.hash(Array(text.utf8)).hex }

    @Test func nistVectors() {
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu")
            == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
        #expect(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)).hex
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // From Data (a scene file as read), and from a sequence that is not contiguous.
        #expect(SHA256.hash(Data(repeating: UInt8(ascii: "a"), count: 1_000_000)).hex
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(SHA256.hash("abc".utf8.lazy.map { $0 }).hex
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// Lengths where the padding fits in the last block (55), just does not (56, 63), fills whole blocks (64,
    /// 128) or spills over (65, 119, 120); the expected digests are `sha256sum`'s for bytes i * 7 mod 256.
    @Test func paddingBoundaries() {
        let expected = [
            55: "576a1bf8d4478657e6dc4af9398544765c2a92cde28478b019235cfed315fc09",
            56: "9b20501dfd1d99161c257950f3444f3e49230c351c5c8e0943ef369f85f5205d",
            63: "30b345906b493f06f69444b6521113511c242f30e29840462950035043682f1e",
            64: "d8bc63b4fc1156e5e7d95a418b9bf54cd3174bedbc2db40f74895349b229b3c0",
            65: "1ee23b0fbcaecc1aff4a9e8f1645f35ab2c8e13609cd73b68df8b5e3f63ce073",
            119: "7a6589821178918ca8d9edaba5abfc1e9b2669564f4469b66885379c1530b2c8",
            120: "655250427d56b1b0eeb8497d21428704273458a01772d6881b65c0abac0f8a98",
            128: "54c9eb041badfd7064645067b107661fed6113197ce2dd066ba69618abd3732f",
        ]
        for (count, digest) in expected {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7) }
            #expect(SHA256.hash(bytes).hex == digest, "\(count) bytes")
            // Fed in uneven pieces, the hash is the same.
            var hasher = SHA256()
            var rest = bytes[...]
            var piece = 1
            while !rest.isEmpty {
                hasher.update(rest.prefix(piece))
                rest = rest.dropFirst(piece)
                piece = piece * 3 % 70 + 1
            }
            #expect(hasher.finalize().hex == digest, "\(count) bytes in pieces")
        }
        #expect(SHA256.hash(Data("abc".utf8)).bytes.count == 32)
    }
}
