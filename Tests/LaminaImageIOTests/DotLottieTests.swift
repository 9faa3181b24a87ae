import Foundation
import LaminaCore
import LaminaImageIO
import Testing

/// dotLottie archives (docs/archives.md): both layouts, the default animation, images by asset path, and every
/// manifest error with its JSON path.
@Suite struct DotLottieTests {
    typealias Entry = ZipWriter.Entry

    static let first = #"{"v":"5.7.4","fr":30,"ip":0,"op":60,"w":100,"h":100,"layers":[]}"#
    static let second = #"{"v":"5.7.4","fr":24,"ip":0,"op":24,"w":50,"h":50,"layers":[]}"#
    static var png: Data { Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]) }

    func error(_ data: Data, limits: ZipLimits = .default) -> String? {
        do {
            let archive = try DotLottie(data: data, limits: limits)
            Issue.record("opened \(archive.animationIDs)")
            return nil
        } catch {
            return error.description
        }
    }

    func archive(manifest: String, _ entries: [Entry] = []) -> Data {
        ZipWriter.archive([Entry("manifest.json", manifest, method: 8)] + entries)
    }

    @Test func versionOneLayoutReads() throws {
        let data = archive(manifest: #"""
            {"version":"1.0","generator":"test","animations":[{"id":"wave","loop":true},{"id":"jump","speed":2}],
             "activeAnimationId":"jump"}
            """#, [
            Entry("animations/wave.json", Self.first, method: 8),
            Entry("animations/jump.json", Self.second, method: 8),
            Entry("images/img_0.png", Self.png),
        ])
        #expect(ZipArchive.hasSignature(data) && !ZipArchive.hasSignature(Data(Self.first.utf8)))
        let lottie = try DotLottie(data: data)
        #expect(lottie.version == "1.0")
        #expect(lottie.animationIDs == ["wave", "jump"])
        #expect(lottie.defaultAnimationID == "jump")
        #expect(try lottie.animationData() == Data(Self.second.utf8))
        #expect(try lottie.animationData(id: "wave") == Data(Self.first.utf8))
        // The asset paths animations give (u + p), with and without a leading slash, and v2's folder.
        for path in ["/images/img_0.png", "images/img_0.png", "./images/img_0.png", "img_0.png", "/i/img_0.png"] {
            #expect(try lottie.imageData(path: path) == Self.png, "\(path)")
        }
        #expect(try lottie.imageData(path: "/images/missing.png") == nil)
        #expect(try lottie.imageData(directory: "/images/", file: "img_0.png") == Self.png)
        #expect(try lottie.imageData(directory: "images", file: "img_0.png") == Self.png)
        #expect(try lottie.imageData(directory: "", file: "img_0.png") == Self.png)
        #expect(try lottie.imageData(path: "/images/") == nil)
        #expect(lottie.archive.entryNames.count == 4)
    }

    @Test func versionTwoLayoutReads() throws {
        let data = archive(manifest: #"""
            {"version":"2","animations":[{"id":"a1"},{"id":"b2"}],"initial":{"animation":"b2"},"themes":[]}
            """#, [
            Entry("a/a1.json", Self.first),
            Entry("a/b2.json", Self.second, method: 8),
            Entry("i/photo.jpg", Self.png),
        ])
        let lottie = try DotLottie(data: data)
        #expect(lottie.version == "2")
        #expect(lottie.defaultAnimationID == "b2")
        #expect(try lottie.animationData(id: nil) == Data(Self.second.utf8))
        #expect(try lottie.animationData(id: "a1") == Data(Self.first.utf8))
        #expect(try lottie.imageData(path: "/i/photo.jpg") == Self.png)
        #expect(try lottie.imageData(path: "/images/photo.jpg") == Self.png)
    }

    @Test func theFirstAnimationIsTheDefaultWhenNoneIsNamed() throws {
        let data = archive(manifest: #"{"animations":[{"id":"one"},{"id":"two"}]}"#,
                           [Entry("animations/one.json", Self.first), Entry("animations/two.json", Self.second)])
        let lottie = try DotLottie(data: data)
        #expect(lottie.version == nil)
        #expect(lottie.defaultAnimationID == "one")
        #expect(try lottie.animationData() == Data(Self.first.utf8))
    }

    @Test func anUnknownAnimationListsTheIDsAndSuggestsOne() throws {
        let data = archive(manifest: #"{"animations":[{"id":"loading"},{"id":"success"}]}"#,
                           [Entry("animations/loading.json", Self.first), Entry("animations/success.json", Self.second)])
        let lottie = try DotLottie(data: data)
        do {
            _ = try lottie.animationData(id: "sucess")
            Issue.record("read an unknown animation")
        } catch {
            #expect(error.description == #"no animation "sucess" in the archive (did you mean "success"?); it has "loading", "success""#)
        }
        do {
            _ = try lottie.animationData(id: "zzz")
            Issue.record("read an unknown animation")
        } catch {
            #expect(error.description == #"no animation "zzz" in the archive; it has "loading", "success""#)
        }
    }

    @Test func manifestErrorsNameTheFileAndPath() {
        let cases: [(String, String)] = [
            ("{", "manifest.json: not valid JSON"),
            ("[1]", "manifest.json: expected an object, found an array"),
            (#"{"version":true,"animations":[{"id":"a"}]}"#, "manifest.json: version: expected a string, found a boolean"),
            (#"{"version":"1"}"#, "manifest.json: animations: missing (a dotLottie manifest lists its animations)"),
            (#"{"animations":{}}"#, "manifest.json: animations: expected an array, found an object"),
            (#"{"animations":[]}"#, "manifest.json: animations: the array is empty"),
            (#"{"animations":[{"id":"a"},"b"]}"#, "manifest.json: animations[1]: expected an object, found a string"),
            (#"{"animations":[{"id":"a"},{"id":7}]}"#, "manifest.json: animations[1].id: expected a string, found a number"),
            (#"{"animations":[{"name":"a"}]}"#, "manifest.json: animations[0].id: missing"),
            (#"{"animations":[{"id":""}]}"#, "manifest.json: animations[0].id: empty"),
            (#"{"animations":[{"id":"a"},{"id":"a"}]}"#, #"manifest.json: animations[1].id: "a" is listed twice"#),
            (#"{"animations":[{"id":"a"},{"id":"b"}],"activeAnimationId":"c"}"#,
             #"manifest.json: activeAnimationId: "c" is not one of the animations ("a", "b")"#),
            (#"{"animations":[{"id":"a"}],"activeAnimationId":3}"#,
             "manifest.json: activeAnimationId: expected a string, found a number"),
            (#"{"animations":[{"id":"a"}],"initial":{"animation":"x"}}"#,
             #"manifest.json: initial.animation: "x" is not one of the animations ("a")"#),
            (#"{"animations":[{"id":"a"}],"initial":"a"}"#, "manifest.json: initial: expected an object, found a string"),
        ]
        for (manifest, message) in cases {
            let description = error(archive(manifest: manifest, [Entry("animations/a.json", Self.first)]))
            if message.hasSuffix("not valid JSON") {
                #expect(description?.hasPrefix(message + " (") == true, "\(manifest): \(description ?? "no error")")
            } else {
                #expect(description == message, "\(manifest)")
            }
        }
    }

    @Test func archiveLevelErrors() throws {
        #expect(error(ZipWriter.archive([Entry("animations/a.json", Self.first)]))
            == "not a dotLottie archive: it has no manifest.json")
        #expect(error(Data(Self.first.utf8)) == "not a zip archive (no end of central directory record)")
        var badManifest = Entry("manifest.json", #"{"animations":[{"id":"a"}]}"#)
        badManifest.crc = 1
        #expect(error(ZipWriter.archive([badManifest]))?.hasPrefix(#"entry "manifest.json": CRC mismatch"#) == true)
        let missing = try DotLottie(data: archive(manifest: #"{"animations":[{"id":"a"}]}"#))
        do {
            _ = try missing.animationData()
            Issue.record("read a missing animation")
        } catch {
            #expect(error.description
                == #"animation "a" is in manifest.json but the archive has neither animations/a.json nor a/a.json"#)
        }
    }

    /// Archives Python's zipfile wrote (tools/make-archive-fixtures.py): deflate, data descriptors and zip64.
    @Test func archivesFromAnotherWriterRead() throws {
        let animation = #"{"v":"5.7.4","fr":30,"ip":0,"op":30,"w":32,"h":32,"assets":[{"id":"image_0","w":1,"h":1,"u":"/images/","p":"img_0.png","e":0}],"layers":[]}"#
        let v1 = try DotLottie(data: Fixture.data("dotlottie-v1.lottie"))
        #expect(v1.version == "1.0" && v1.animationIDs == ["a"] && v1.defaultAnimationID == "a")
        #expect(try v1.animationData() == Data(animation.utf8))
        let image = try #require(try v1.imageData(path: "/images/img_0.png"))
        #expect(try Image(data: image, name: "img_0.png").word(x: 0, y: 0) == 0xFFFF_FFFF)
        let v2 = try DotLottie(data: Fixture.data("dotlottie-v2.lottie"))
        #expect(v2.animationIDs == ["a", "b"] && v2.defaultAnimationID == "b")
        #expect(try v2.animationData(id: "a") == Data(animation.utf8))
        #expect(try v2.imageData(path: "/images/img_0.png") == image)
        let streamed = try DotLottie(data: Fixture.data("streamed.lottie"))
        #expect(try streamed.animationData() == Data(animation.utf8))
        let zip64 = try ZipArchive(data: Fixture.data("zip64.zip"))
        #expect(zip64.entryNames == ["big.txt", "manifest.json"])
        #expect(try zip64.contents(of: "big.txt") == Data(String(repeating: "zip64 ", count: 30).utf8))
    }

    @Test func limitsReachTheArchive() {
        let data = archive(manifest: #"{"animations":[{"id":"a"}]}"#, [Entry("animations/a.json", Self.first)])
        #expect(error(data, limits: ZipLimits(maxEntries: 1)) == "the archive lists 2 entries, past the limit of 1")
    }
}
