import Foundation
import Lamina
import Testing

/// `spriteSheets` and "SHEET/FRAME" contents. sheet.png is 64x32; sheet.plist is format 2, sheet3.plist
/// format 3 with metadata scale 2 (same texture), old.plist format 0 on the 8x8 old.png.
@Suite struct SpriteSheetTests {
    private let sheets = #""spriteSheets": {"hero": "sheet.plist", "three": "sheet3.plist", "old": "old.plist"}"#

    private func layers(_ contents: [String], extra: String = "") throws -> (Scene, [Layer]) {
        let list = contents.map { #"{"contents": "\#($0)"\#(extra)}"# }.joined(separator: ", ")
        let scene = try loadScene(#"{"size": [10, 10], \#(sheets), "layers": [\#(list)]}"#)
        return (scene, scene.root.sublayers ?? [])
    }

    @Test func format2Frame() throws {
        let (_, layers) = try layers(["hero/idle.png"])
        let layer = layers[0]
        #expect(layer.contentsImage?.width == 64)
        #expect(layer.contentsImage?.height == 32)
        #expect(layer.contentsRect == CGRect(x: 0, y: 0, width: 16.0 / 64, height: 32.0 / 32))
        #expect(layer.contentsAreRotated == false)
        #expect(layer.contentsScale == 1)
    }

    @Test func format2RotatedFrameUsesTheStoredRectangle() throws {
        // "frame" {{16,0},{24,16}} rotated: the sprite is 24x16 upright and stored as 16x24 in the sheet.
        let (_, layers) = try layers(["hero/jump.png"])
        #expect(layers[0].contentsRect == CGRect(x: 16.0 / 64, y: 0, width: 16.0 / 64, height: 24.0 / 32))
        #expect(layers[0].contentsAreRotated)
    }

    @Test func trimmedFrameUsesTheTrimmedRectangle() throws {
        let (_, layers) = try layers(["hero/trimmed.png"])
        #expect(layers[0].contentsRect == CGRect(x: 40.0 / 64, y: 0, width: 10.0 / 64, height: 12.0 / 32))
        #expect(layers[0].contentsAreRotated == false)
    }

    @Test func format3FramesAndTheSheetScale() throws {
        let (_, layers) = try layers(["three/a.png", "three/b.png"])
        #expect(layers[0].contentsRect == CGRect(x: 0, y: 0, width: 32.0 / 64, height: 16.0 / 32))
        #expect(layers[0].contentsAreRotated == false)
        #expect(layers[0].contentsScale == 2)
        // "textureRect" {{32,0},{8,20}} rotated: stored as 20x8.
        #expect(layers[1].contentsRect == CGRect(x: 32.0 / 64, y: 0, width: 20.0 / 64, height: 8.0 / 32))
        #expect(layers[1].contentsAreRotated)
        #expect(layers[1].contentsScale == 2)
    }

    @Test func format0Frame() throws {
        let (_, layers) = try layers(["old/dot"])
        #expect(layers[0].contentsImage?.width == 8)
        #expect(layers[0].contentsRect == CGRect(x: 2.0 / 8, y: 4.0 / 8, width: 4.0 / 8, height: 2.0 / 8))
    }

    @Test func aLayersOwnContentsScaleWins() throws {
        let (_, layers) = try layers(["three/a.png", "hero/idle.png"], extra: #", "contentsScale": 4"#)
        #expect(layers[0].contentsScale == 4)
        #expect(layers[1].contentsScale == 4)
    }

    @Test func sheetsOnOneTextureShareItsImage() throws {
        let (scene, layers) = try layers(["hero/idle.png", "three/a.png", "hero/jump.png"])
        #expect(layers[0].contentsImage === layers[1].contentsImage)
        #expect(layers[0].contentsImage === layers[2].contentsImage)
        #expect(scene.images.isEmpty)
    }

    @Test func theSameTextureByPathIsSharedToo() throws {
        let scene = try loadScene(
            #"{"size": [10, 10], \#(sheets), "layers": [{"contents": "hero/idle.png"}, {"contents": "sheet.png"}]}"#)
        #expect(scene.root.sublayers![0].contentsImage === scene.root.sublayers![1].contentsImage)
        #expect(scene.root.sublayers![1].contentsRect == CGRect(x: 0, y: 0, width: 1, height: 1))
    }

    @Test func aMissingFrameNamesTheSheetAndAnExample() {
        let json = #"{"size": [10, 10], \#(sheets), "layers": [{"contents": "hero/run-9.png"}]}"#
        #expect(
            problems(json) == [
                #"scene.json:1:130: layers[0].contents: sheet "hero" has no frame "run-9.png" "#
                    + #"(it has 3 frames, e.g. "idle.png")"#
            ])
        let close = #"{"size": [10, 10], \#(sheets), "layers": [{"contents": "hero/jumps.png"}]}"#
        #expect(
            problems(close) == [
                #"scene.json:1:130: layers[0].contents: sheet "hero" has no frame "jumps.png" "#
                    + #"(it has 3 frames, e.g. "jump.png")"#
            ])
    }

    @Test func aSpriteFrameSetsContentsRectSoTheLayerMayNot() {
        let json =
            #"{"size": [10, 10], \#(sheets), "layers": [{"contents": "hero/idle.png", "contentsRect": [0, 0, 1, 1]}]}"#
        #expect(
            problems(json) == [
                #"scene.json:1:147: layers[0].contentsRect: may not be combined with a sprite frame in "contents" "#
                    + "(the frame sets contentsRect)"
            ])
    }

    @Test func aSheetNameAloneIsNotAFile() {
        let json = #"{"size": [10, 10], \#(sheets), "layers": [{"contents": "hero"}]}"#
        #expect(
            problems(json) == [
                #"scene.json:1:130: layers[0].contents: "hero" not found (looked for \#(Fixtures.path("hero")); "#
                    + #""hero" is a sprite sheet: name a frame as "hero/FRAME")"#
            ])
    }

    @Test func badSheets() {
        let json = #"""
            {"size": [10, 10], "spriteSheets": {
                "garbage": "bad.plist",
                "empty": "noframes.plist",
                "gone": "gone.plist",
                "far": "../far.plist",
                "number": 12,
                "outside": "outside.plist"
            }, "layers": [{"contents": "garbage/x.png"}, {"contents": "outside/wide.png"}]}
            """#
        let found = problems(json)
        #expect(found.count == 7)
        #expect(
            found.first?.hasPrefix(#"scene.json:2:16: spriteSheets.garbage: "bad.plist": not a valid property list"#)
                == true)
        #expect(
            Array(found.dropFirst()) == [
                #"scene.json:3:14: spriteSheets.empty: "noframes.plist": not a sprite sheet (no "frames" dictionary)"#,
                #"scene.json:4:13: spriteSheets.gone: "gone.plist" not found "#
                    + "(looked for \(Fixtures.path("gone.plist")))",
                #"scene.json:5:12: spriteSheets.far: "../far.plist" is outside the scene's folder"#,
                #"scene.json:6:15: spriteSheets.number: expected a string, got a number"#,
                #"scene.json:7:16: spriteSheets.outside: "outside.plist": frame "broken.png": "#
                    + #""frame" must be a rectangle "{{x,y},{w,h}}", got "{{1,2}}""#,
                #"scene.json:7:16: spriteSheets.outside: "outside.plist": frame "wide.png" {{60,0},{8,8}} "#
                    + "reaches outside the 64x32 texture",
            ])
    }

    @Test func aMissingTextureNamesThePlistAndTheTexture() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: Fixtures.url("sheet.plist"), to: folder.appendingPathComponent("sheet.plist"))
        let texture = folder.appendingPathComponent("sheet.png").path
        #expect(
            problems(#"{"size": [10, 10], "spriteSheets": {"hero": "sheet.plist"}}"#, in: folder) == [
                #"scene.json:1:45: spriteSheets.hero: "sheet.plist": texture "sheet.png" not found "#
                    + "(looked for \(texture))"
            ])
    }

    @Test func theTextureDefaultsToThePlistsNameWithPNG() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plist = #"""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>frames</key><dict>
            <key>f</key><dict><key>frame</key><string>{{1,1},{2,2}}</string></dict>
            </dict></dict></plist>
            """#
        try Data(plist.utf8).write(to: folder.appendingPathComponent("tiles.plist"))
        try FileManager.default.copyItem(
            at: Fixtures.url("red-4x4.png"), to: folder.appendingPathComponent("tiles.png"))
        let scene = try loadScene(
            #"{"size": [10, 10], "spriteSheets": {"t": "tiles.plist"}, "layers": [{"contents": "t/f"}]}"#, in: folder)
        let layer = scene.root.sublayers![0]
        #expect(layer.contentsImage?.width == 4)
        #expect(layer.contentsRect == CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5))
    }

    @Test func aTextureOutsideTheFolderIsRefused() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plist = #"""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>frames</key><dict/>
            <key>metadata</key><dict><key>textureFileName</key><string>../elsewhere.png</string></dict>
            </dict></plist>
            """#
        try Data(plist.utf8).write(to: folder.appendingPathComponent("s.plist"))
        #expect(
            problems(#"{"size": [10, 10], "spriteSheets": {"s": "s.plist"}}"#, in: folder) == [
                #"scene.json:1:42: spriteSheets.s: "s.plist": texture "../elsewhere.png" is outside the scene's folder"#
            ])
    }
}
