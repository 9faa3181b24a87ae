import Foundation
import Lamina
@testable import LaminaScene
import LaminaTestSupport
import Testing

/// LottieAnimation's API (docs/lottie.md, "Swift API"): what it tells of a file, its layer timed as any layer,
/// replacement texts and images, dotLottie archives, looping, live frames' damage and frames on several threads.
@Suite struct LottieAnimationTests {
    /// 100 x 40 at 30 fps, frames 0..<30: a red 20 x 20 square whose centre moves from x 10 to 90 (linear) over
    /// frames 0..30 at the top, and a blue 20 x 20 square standing at (50, 30) below it; a marker "half" at 15.
    static let moving = #"""
        {"v": "5.7.0", "nm": "moving", "fr": 30, "ip": 0, "op": 30, "w": 100, "h": 40,
         "markers": [{"cm": "half", "tm": 15, "dr": 5}],
         "layers": [
          {"ty": 4, "nm": "red", "ind": 1, "ip": 0, "op": 30, "st": 0,
           "ks": {"p": {"a": 1, "k": [{"t": 0, "s": [10, 10], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}},
                                      {"t": 30, "s": [90, 10]}]}},
           "shapes": [{"ty": "rc", "p": {"k": [0, 0]}, "s": {"k": [20, 20]}, "r": {"k": 0}},
                      {"ty": "fl", "c": {"k": [1, 0, 0]}, "o": {"k": 100}}]},
          {"ty": 4, "nm": "blue", "ind": 2, "ip": 0, "op": 30, "st": 0, "ks": {"p": {"k": [50, 30]}},
           "shapes": [{"ty": "rc", "p": {"k": [0, 0]}, "s": {"k": [20, 20]}, "r": {"k": 0}},
                      {"ty": "fl", "c": {"k": [0, 0, 1]}, "o": {"k": 100}}]}]}
        """#

    static func load(_ text: String = moving, options: LottieOptions = LottieOptions()) throws -> LottieAnimation {
        try LottieAnimation(data: Data(text.utf8), fileName: "moving.json", options: options)
    }

    static let red = RGBA8(r: 255, g: 0, b: 0, a: 255)
    static let clear = RGBA8(r: 0, g: 0, b: 0, a: 0)

    @Test func tellsWhatTheFileSays() throws {
        let animation = try Self.load()
        #expect(animation.size == CGSize(width: 100, height: 40))
        #expect(animation.frameRate == 30 && animation.inFrame == 0 && animation.outFrame == 30)
        #expect(animation.duration == 1)
        #expect(animation.markers == [LottieMarkerInfo(name: "half", frame: 15, duration: 5)])
        #expect(animation.version == "5.7.0")
        #expect(animation.features["shape layers"] == 2 && animation.features["rectangles"] == 2)
        #expect(animation.warnings.isEmpty)
    }

    /// The layer's local time 0 is the in point; its speed and beginTime time it as any layer's.
    @Test func theLayerIsTimedAsAnyLayer() throws {
        let animation = try Self.load()
        let renderer = CPURenderer()
        let plain = animation.makeLayer()
        let half = try renderer.render(plain, at: 0.5)
        #expect(half.rgba(x: 50, y: 10) == Self.red && half.rgba(x: 20, y: 10) == Self.clear)
        // Twice as fast, starting 0.25 s late: at 0.5 s it is 0.5 s into the animation.
        let timed = animation.makeLayer()
        timed.speed = 2
        timed.beginTime = 0.25
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 40)
        root.anchorPoint = .zero
        root.addSublayer(timed)
        let same = try renderer.render(root, at: 0.5)
        #expect(ImageDifference(half, same)?.maxChannelDifference == 0)
        // Before its beginTime the first frame shows.
        let early = try renderer.render(root, at: 0.1)
        #expect(early.rgba(x: 10, y: 10) == Self.red && early.rgba(x: 30, y: 10) == Self.clear)
    }

    /// Past the out point the animation loops; with `loops` false it holds its last frame.
    @Test func loopsOrHolds() throws {
        let renderer = CPURenderer()
        let looping = try renderer.render(try Self.load().makeLayer(), at: 1.5)
        #expect(looping.rgba(x: 50, y: 10) == Self.red, "1.5 s is frame 15 again")
        var options = LottieOptions()
        options.loops = false
        let held = try renderer.render(try Self.load(options: options).makeLayer(), at: 1.5)
        #expect(held.rgba(x: 88, y: 10) == Self.red && held.rgba(x: 50, y: 10) == Self.clear)
    }

    /// Fractional frames interpolate: frame 7.5 puts the centre at 10 + 80 x 7.5 / 30 = 30.
    @Test func fractionalFramesInterpolate() throws {
        let image = try CPURenderer().render(try Self.load().makeLayer(), at: 7.5 / 30)
        #expect(image.rgba(x: 21, y: 10) == Self.red && image.rgba(x: 38, y: 10) == Self.red)
        #expect(image.rgba(x: 18, y: 10) == Self.clear && image.rgba(x: 41, y: 10) == Self.clear)
    }

    /// A text layer's string replaced by layer name, and an image asset replaced by id.
    @Test func textsAndImagesAreReplaced() throws {
        let text = #"""
            {"v": "5.7.0", "fr": 30, "ip": 0, "op": 30, "w": 120, "h": 40,
             "fonts": {"list": [{"fName": "DejaVuSans", "fFamily": "DejaVu Sans", "fStyle": "Book"}]},
             "assets": [{"id": "pic", "w": 10, "h": 10, "u": "", "e": 1,
                         "p": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg=="}],
             "layers": [
              {"ty": 5, "nm": "title", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {"p": {"k": [4, 30]}},
               "t": {"d": {"k": [{"t": 0, "s": {"t": "█", "f": "DejaVuSans", "s": 24, "fc": [0, 0, 0], "j": 0,
                                             "tr": 0, "lh": 28}}]}}},
              {"ty": 2, "nm": "picture", "ind": 2, "ip": 0, "op": 30, "st": 0, "refId": "pic",
               "ks": {"p": {"k": [100, 10]}}}]}
            """#
        let renderer = CPURenderer()
        let animation = try Self.load(text)
        let before = try renderer.render(animation.makeLayer(), at: 0)
        #expect(before.rgba(x: 10, y: 22).a == 255, "the full block is inked")
        #expect(before.rgba(x: 105, y: 15).r > 200 && before.rgba(x: 105, y: 15).b < 60, "the embedded red pixel")
        animation.texts["title"] = " "
        animation.images["pic"] = try Image(width: 4, height: 4, color: Color(red: 0, green: 0, blue: 1))
        let after = try renderer.render(animation.makeLayer(), at: 0)
        #expect(after.rgba(x: 10, y: 22).a == 0, "a space inks nothing")
        #expect(after.rgba(x: 105, y: 15) == RGBA8(r: 0, g: 0, b: 255, a: 255), "the replacement, stretched over 10 x 10")
    }

    /// A dotLottie archive (stored entries) loads its default animation and, by id, another.
    @Test func dotLottieArchives() throws {
        let other = Self.moving.replacingOccurrences(of: "[0, 0, 1]", with: "[0, 1, 0]")
        let manifest = #"{"version": "1", "animations": [{"id": "first"}, {"id": "green"}]}"#
        let archive = StoredZip.make([("manifest.json", Data(manifest.utf8)),
                                      ("animations/first.json", Data(Self.moving.utf8)),
                                      ("animations/green.json", Data(other.utf8))])
        let renderer = CPURenderer()
        let first = try Scene.load(data: archive, baseDirectory: URL(fileURLWithPath: "/"), fileName: "a.lottie")
        #expect(try renderer.render(first.root, at: 0).rgba(x: 50, y: 30) == RGBA8(r: 0, g: 0, b: 255, a: 255))
        var options = SceneOptions()
        options.lottie.animationID = "green"
        let green = try Scene.load(data: archive, baseDirectory: URL(fileURLWithPath: "/"), fileName: "a.lottie",
                                   options: options)
        #expect(try renderer.render(green.root, at: 0).rgba(x: 50, y: 30) == RGBA8(r: 0, g: 255, b: 0, a: 255))
        #expect(green.duration == 1 && green.fps == 30)
        options.lottie.animationID = "gren"
        #expect {
            _ = try Scene.load(data: archive, baseDirectory: URL(fileURLWithPath: "/"), fileName: "a.lottie",
                               options: options)
        } throws: { error in
            "\(error)".contains("a.lottie") && "\(error)".contains("green")
        }
    }

    /// A live frame redraws only what changed: the moving square, not the standing one.
    @Test func liveFramesDamageOnlyWhatMoved() throws {
        let scene = try Scene.load(data: Data(Self.moving.utf8), baseDirectory: URL(fileURLWithPath: "/"),
                                   fileName: "moving.json")
        let planner = CPURenderer()
        _ = try planner.plan(scene.root, at: 0.5)
        let region = try #require(try planner.plan(scene.root, at: 0.5 + 1.0 / 30).damage?.region)
        #expect(region.intersects(PixelBox(x0: 40, y0: 0, x1: 62, y1: 20)), "the red square moved: \(region)")
        #expect(!region.intersects(PixelBox(x0: 40, y0: 21, x1: 60, y1: 40)), "the blue one did not: \(region)")
        let still = try planner.plan(scene.root, at: 0.5 + 1.0 / 30)
        #expect(still.damage?.region.isEmpty == true, "the same time again damages nothing")
    }

    /// Frames of one tree made at once on several threads equal frames made one after another.
    @Test func framesOnSeveralThreadsAgree() throws {
        let layer = try Self.load().makeLayer()
        let times = (0..<12).map { Double($0) / 12 }
        let serial = try times.map { try CPURenderer().render(layer, at: $0) }
        let results = LockedImages(count: times.count)
        DispatchQueue.concurrentPerform(iterations: times.count) { k in
            results.set(k, try? CPURenderer().render(layer, at: times[k]))
        }
        for k in times.indices {
            let image = try #require(results.get(k))
            #expect(ImageDifference(image, serial[k])?.maxChannelDifference == 0, "frame at \(times[k])")
        }
    }
}

/// Images written from several threads.
final class LockedImages: @unchecked Sendable {
    private let lock = NSLock()
    private var images: [Image?]
    init(count: Int) { images = Array(repeating: nil, count: count) }
    func set(_ k: Int, _ image: Image?) { lock.withLock { images[k] = image } }
    func get(_ k: Int) -> Image? { lock.withLock { images[k] } }
}

/// A zip archive of stored (uncompressed) entries, enough for dotLottie tests.
enum StoredZip {
    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func make(_ entries: [(String, Data)]) -> Data {
        var out = Data(), directory = Data()
        func u16(_ v: Int, _ d: inout Data) { d.append(contentsOf: [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)]) }
        func u32(_ v: UInt32, _ d: inout Data) { for s in stride(from: 0, to: 32, by: 8) { d.append(UInt8((v >> UInt32(s)) & 0xFF)) } }
        for (name, data) in entries {
            let offset = UInt32(out.count), crc = crc32(data), nameBytes = Data(name.utf8)
            u32(0x0403_4B50, &out); u16(20, &out); u16(0, &out); u16(0, &out); u16(0, &out); u16(0, &out)
            u32(crc, &out); u32(UInt32(data.count), &out); u32(UInt32(data.count), &out)
            u16(nameBytes.count, &out); u16(0, &out); out.append(nameBytes); out.append(data)
            u32(0x0201_4B50, &directory); u16(20, &directory); u16(20, &directory); u16(0, &directory)
            u16(0, &directory); u16(0, &directory); u16(0, &directory); u32(crc, &directory)
            u32(UInt32(data.count), &directory); u32(UInt32(data.count), &directory); u16(nameBytes.count, &directory)
            u16(0, &directory); u16(0, &directory); u16(0, &directory); u16(0, &directory); u32(0, &directory)
            u32(offset, &directory); directory.append(nameBytes)
        }
        let start = UInt32(out.count)
        out.append(directory)
        u32(0x0605_4B50, &out); u16(0, &out); u16(0, &out); u16(entries.count, &out); u16(entries.count, &out)
        u32(UInt32(directory.count), &out); u32(start, &out); u16(0, &out)
        return out
    }
}
