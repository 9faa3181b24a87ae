import Foundation
import Lamina
import Testing

/// `images` and `contents`: names, paths, scales, sharing, and every way a file can be wrong.
@Suite struct SceneImageTests {
    @Test func contentsByNameByPathAndTheirScales() throws {
        let scene = try loadScene(
            #"""
            {"size": [10, 10],
             "images": {"red": {"path": "red-4x4.png", "scale": 2}, "blue": "blue-2x3.png"},
             "layers": [
                {"contents": "red"},
                {"contents": "red", "contentsScale": 3},
                {"contents": "blue"},
                {"contents": "blue-2x3.png"}
             ]}
            """#)
        let layers = scene.root.sublayers ?? []
        #expect(scene.images.keys.sorted() == ["blue", "red"])
        #expect(scene.images["red"]?.width == 4)
        #expect(scene.images["blue"]?.height == 3)
        #expect(layers[0].contentsImage === scene.images["red"])
        #expect(layers[0].contentsScale == 2)
        #expect(layers[1].contentsScale == 3)
        #expect(layers[2].contentsImage === scene.images["blue"])
        #expect(layers[2].contentsScale == 1)
        #expect(layers[3].contentsScale == 1)
    }

    @Test func eachFileIsDecodedOnceAndShared() throws {
        let scene = try loadScene(
            #"""
            {"size": [10, 10], "images": {"red": "red-4x4.png", "again": "./red-4x4.png"},
             "layers": [{"contents": "red-4x4.png"}, {"contents": "red"}, {"contents": "again"},
                        {"sublayers": [{"contents": "./red-4x4.png"}]}]}
            """#)
        let image = try #require(scene.images["red"])
        #expect(scene.images["again"] === image)
        #expect(scene.root.sublayers![0].contentsImage === image)
        #expect(scene.root.sublayers![1].contentsImage === image)
        #expect(scene.root.sublayers![2].contentsImage === image)
        #expect(scene.root.sublayers![3].sublayers![0].contentsImage === image)
    }

    @Test func aSymlinkInsideTheFolderSharesTheImageOfItsTarget() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: Fixtures.url("red-4x4.png"), to: folder.appendingPathComponent("red.png"))
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("alias.png").path, withDestinationPath: "red.png")
        let scene = try loadScene(
            #"{"size": [10, 10], "layers": [{"contents": "red.png"}, {"contents": "alias.png"}]}"#, in: folder)
        #expect(scene.root.sublayers![0].contents != nil)
        #expect(scene.root.sublayers![0].contentsImage === scene.root.sublayers![1].contentsImage)
    }

    @Test func missingImage() {
        let json = sceneWithLayer(#""contents": "snowman.png""#)
        #expect(
            problems(json) == [
                #"scene.json:1:46: layers[0].contents: "snowman.png" not found "#
                    + "(looked for \(Fixtures.path("snowman.png")))"
            ])
    }

    @Test func missingImageSuggestsACloseImageName() {
        let json = #"{"size": [10, 10], "images": {"snowman": "red-4x4.png"}, "layers": [{"contents": "snowmen"}]}"#
        #expect(
            problems(json) == [
                #"scene.json:1:82: layers[0].contents: "snowmen" not found (looked for \#(Fixtures.path("snowmen")); "#
                    + #"did you mean the image "snowman"?)"#
            ])
    }

    @Test func aNamedImageThatIsMissingIsReportedOnceWhereItIsDeclared() {
        let json = #"{"size": [10, 10], "images": {"gone": "gone.png"}, "layers": [{"contents": "gone"}]}"#
        #expect(
            problems(json) == [
                #"scene.json:1:39: images.gone: "gone.png" not found (looked for \#(Fixtures.path("gone.png")))"#
            ])
    }

    @Test func corruptImageNamesTheFileAndTheDecodersReason() throws {
        let path = Fixtures.path("corrupt.png")
        var reason = ""
        do {
            _ = try ImageFile.size(ofFile: path)
        } catch {
            reason = "\(error)"
        }
        #expect(reason == #""\#(path)" is not a PNG or JPEG file"#)
        #expect(
            problems(sceneWithLayer(#""contents": "corrupt.png""#)) == [
                "scene.json:1:46: layers[0].contents: \(reason)"
            ])
    }

    @Test func anImageOverThePixelLimitIsRefusedFromItsHeader() {
        let path = Fixtures.path("huge.png")
        #expect(
            problems(sceneWithLayer(#""contents": "huge.png""#)) == [
                #"scene.json:1:46: layers[0].contents: "\#(path)" is too large: "#
                    + "100000x100000 pixels exceeds the limit of 16384 pixels per side"
            ])
    }

    @Test func theImageLimitComesFromTheOptions() {
        let options = SceneOptions(limits: PixelLimits(maxDimension: 3, maxPixels: 100))
        #expect(
            problems(#"{"size": [2, 2], "images": {"red": "red-4x4.png"}}"#, options: options) == [
                #"scene.json:1:36: images.red: "\#(Fixtures.path("red-4x4.png"))" is too large: "#
                    + "4x4 pixels exceeds the limit of 3 pixels per side"
            ])
    }

    @Test func aPathOutsideTheSceneFolderIsRefused() {
        #expect(
            problems(sceneWithLayer(#""contents": "../secret.png""#)) == [
                #"scene.json:1:46: layers[0].contents: "../secret.png" is outside the scene's folder"#
            ])
        #expect(
            problems(sceneWithLayer(#""contents": "sub/../../secret.png""#)) == [
                #"scene.json:1:46: layers[0].contents: "sub/../../secret.png" is outside the scene's folder"#
            ])
    }

    @Test func anAbsolutePathOutsideTheFolderIsRefusedUnlessAllowed() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = Fixtures.path("red-4x4.png")
        let json = sceneWithLayer(#""contents": "\#(path)""#)
        #expect(
            problems(json, in: folder) == [
                #"scene.json:1:46: layers[0].contents: "\#(path)" is outside the scene's folder"#
            ])
        let scene = try loadScene(json, in: folder, options: SceneOptions(allowFilesOutsideSceneFolder: true))
        #expect(scene.root.sublayers![0].contentsImage?.width == 4)
        // An absolute path that stays inside the folder escapes nothing.
        #expect(try loadScene(json).root.sublayers![0].contentsImage?.width == 4)
    }

    @Test func aParentPathIsAllowedWhenTheOptionSaysSo() throws {
        let json = sceneWithLayer(#""contents": "../red-4x4.png""#)
        let inner = Fixtures.folder.appendingPathComponent("sub")
        #expect(
            problems(json, in: inner) == [
                #"scene.json:1:46: layers[0].contents: "../red-4x4.png" is outside the scene's folder"#
            ])
        let scene = try loadScene(json, in: inner, options: SceneOptions(allowFilesOutsideSceneFolder: true))
        #expect(scene.root.sublayers![0].contentsImage?.width == 4)
    }

    @Test func aSymlinkOutOfTheFolderIsRefused() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = Fixtures.path("red-4x4.png")
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("link.png").path, withDestinationPath: target)
        let json = sceneWithLayer(#""contents": "link.png""#)
        let real = try #require(realPath(target))
        #expect(
            problems(json, in: folder) == [
                #"scene.json:1:46: layers[0].contents: "link.png" is outside the scene's folder "#
                    + "(a symbolic link to \(real))"
            ])
        let scene = try loadScene(json, in: folder, options: SceneOptions(allowFilesOutsideSceneFolder: true))
        #expect(scene.root.sublayers![0].contentsImage?.width == 4)
    }

    @Test func aFolderIsNotAnImage() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("pictures"), withIntermediateDirectories: false)
        let path = folder.appendingPathComponent("pictures").path
        #expect(
            problems(sceneWithLayer(#""contents": "pictures""#), in: folder) == [
                #"scene.json:1:46: layers[0].contents: "pictures" is a folder, not a file (\#(path))"#
            ])
    }

    @Test func imageEntriesAreChecked() {
        let json = #"""
            {"size": [10, 10], "images": {
                "a": {"scale": 2},
                "b": {"path": "red-4x4.png", "scale": 0},
                "c": {"path": 3, "scael": 2},
                "d": 7,
                "e": ""
            }}
            """#
        #expect(
            problems(json) == [
                #"scene.json:2:10: images.a: required key "path" is missing"#,
                #"scene.json:3:43: images.b.scale: must be a positive number"#,
                #"scene.json:4:19: images.c.path: expected a string, got a number"#,
                #"scene.json:4:22: images.c.scael: unknown key (did you mean "scale"?)"#,
                #"scene.json:5:10: images.d: expected a file path or {"path": file, "scale": number}, got a number"#,
                #"scene.json:6:10: images.e: expected a file path, got """#,
            ])
    }

    @Test func imagesMustBeAnObject() {
        #expect(
            problems(#"{"size": [10, 10], "images": ["red-4x4.png"]}"#) == [
                #"scene.json:1:30: images: expected an object of named images such as {"hero": "hero.png"}, "#
                    + "got an array"
            ])
    }

    @Test func contentsMustBeAString() {
        #expect(
            problems(sceneWithLayer(#""contents": 5"#)) == [
                "scene.json:1:46: layers[0].contents: expected a string, got a number"
            ])
    }

    private func realPath(_ path: String) -> String? {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }
}
