import Foundation
import Testing

@testable import LaminaScene

/// Binary property lists that Foundation would crash on (a set anywhere) or that do not add up are refused
/// with a message; found by FuzzSpriteSheet (docs/fuzzing.md).
@Suite struct BinaryPropertyListTests {
    /// A "bplist00" file of `objects` (object 0 on top), with 1-byte offsets and references.
    private func bplist(_ objects: [[UInt8]]) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        for value in [objects.count, 0, table] { bytes += withUnsafeBytes(of: UInt64(value).bigEndian, Array.init) }
        return Data(bytes)
    }

    private let frames: [UInt8] = [0x56] + Array("frames".utf8)
    private let name: [UInt8] = [0x51] + Array("a".utf8)

    private func parseProblem(_ data: Data) -> String? {
        do {
            _ = try SpriteSheetDescription.parse(data, plistName: "sheet.plist")
            return nil
        } catch {
            return error.message
        }
    }

    @Test func theFuzzersCrashingSheetIsAProblemNamingTheFile() {
        // set.plist: sheet.plist as a binary plist with one bit flipped, which turns "frames" into a set.
        let json = #"{"size": [10, 10], "spriteSheets": {"hero": "set.plist"}, "layers": []}"#
        #expect(
            problems(json) == [
                #"scene.json:1:45: spriteSheets.hero: "set.plist": not a valid property list "#
                    + "(sets are not supported in binary property lists)"
            ])
    }

    @Test func aSetAnywhereIsRefused() {
        let nested = bplist([[0xD1, 1, 2], frames, [0xA1, 3], [0xC1, 4], name])  // {"frames": [set("a")]}
        let top = bplist([[0xC1, 1], name])
        for data in [nested, top] {
            #expect(parseProblem(data) == "not a valid property list (sets are not supported in binary property lists)")
        }
    }

    @Test func aBinarySheetWithoutSetsIsRead() throws {
        // {"frames": {"a": {"frame": "{{0,0},{1,2}}"}}}
        let frame: [UInt8] = [0x55] + Array("frame".utf8)
        let rect: [UInt8] = [0x5D] + Array("{{0,0},{1,2}}".utf8)
        let data = bplist([[0xD1, 1, 2], frames, [0xD1, 3, 4], name, [0xD1, 5, 6], frame, rect])
        #expect(BinaryPropertyList.refusal(data) == nil)
        let sheet = try SpriteSheetDescription.parse(data, plistName: "sheet.plist").sheet
        #expect(sheet.frames["a"]?.rectInTexture == CGRect(x: 0, y: 0, width: 1, height: 2))
    }

    @Test func aTableThatDoesNotAddUpIsDamaged() {
        let good = [UInt8](bplist([[0xD1, 1, 2], frames, [0xD0]]))
        var pastTheEnd = good
        pastTheEnd[pastTheEnd.count - 1] = 0xF0  // the offset table starts past the trailer
        var badOffset = good
        badOffset[badOffset.count - 32 - 1] = 0xEE  // the last object's offset points into the table
        var hugeCount = good
        hugeCount.replaceSubrange((hugeCount.count - 24)..<(hugeCount.count - 16), with: [0x7F] + [UInt8](repeating: 0xFF, count: 7))
        var zeroOffsetSize = good
        zeroOffsetSize[zeroOffsetSize.count - 26] = 0
        let cases = [pastTheEnd, badOffset, hugeCount, zeroOffsetSize, Array("bplist00".utf8)]
        for bytes in cases {
            #expect(BinaryPropertyList.refusal(Data(bytes)) == "a damaged binary property list")
        }
        #expect(BinaryPropertyList.refusal(Data(good)) == nil)
    }

    @Test func otherFormatsAreLeftToFoundation() {
        #expect(BinaryPropertyList.refusal(Data("<?xml version=\"1.0\"?><plist/>".utf8)) == nil)
        #expect(BinaryPropertyList.refusal(Data("{ frames = {}; }".utf8)) == nil)
    }
}
