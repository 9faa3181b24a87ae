import Foundation
import Lamina
@testable import LaminaScene
import LaminaTestSupport
import Testing

/// The corpus (Tests/LaminaLottieTests/Corpus, its README): small Lottie files, one feature each, rendered on every
/// renderer at the listed frames and scales, with probe pixels worked out from the Lottie semantics; parity between
/// the renderers on every render; malformed and unsupported files with the message each must give.
@Suite struct LottieCorpusTests {
    struct Check: Decodable {
        struct ProbePixel: Decodable {
            var x: Int
            var y: Int
            var rgba: [Int]?
            var alpha: Int?
            var tolerance: Int
            var why: String
        }
        struct Marker: Decodable {
            var name: String
            var frame: Double
            var duration: Double
        }
        var file: String
        var frame: Double
        var scale: Double
        var probes: [ProbePixel]
        var markers: [Marker]?
        var note: String?
    }

    struct ErrorCase: Decodable {
        var file: String
        var kind: String
        var path: String?
        var keyword: String
        var why: String
    }

    static let folder = Bundle.module.resourceURL!.appendingPathComponent("Corpus")

    static let checks: [Check] = {
        let data = try! Data(contentsOf: folder.appendingPathComponent("probes.json"))
        return try! JSONDecoder().decode([Check].self, from: data)
    }()

    static let errors: [ErrorCase] = {
        let data = try! Data(contentsOf: folder.appendingPathComponent("errors.json"))
        return try! JSONDecoder().decode([ErrorCase].self, from: data)
    }()

    static var files: [String] { Array(Set(checks.map(\.file))).sorted() }

    /// Every render of one file, every renderer: probes, and parity between the renderers.
    /// Both ways of building the tree: a layer per Lottie layer (play's), and one drawing layer for the whole
    /// composition (render's and export's).
    @Test(arguments: files, [false, true])
    func probes(_ file: String, oneLayer: Bool) throws {
        var options = SceneOptions()
        options.lottie.drawsAsOneLayer = oneLayer
        let scene = try Scene.load(contentsOf: Self.folder.appendingPathComponent(file), options: options)
        let animation = try #require(scene.lottie)
        var failures: [String] = []
        for check in Self.checks where check.file == file {
            if let markers = check.markers {
                let got = animation.markers.map { "\($0.name)@\($0.frame)+\($0.duration)" }
                let want = markers.map { "\($0.name)@\($0.frame)+\($0.duration)" }
                if got != want { failures.append("markers: expected \(want), got \(got)") }
            }
            let time = (check.frame - animation.inFrame) / animation.frameRate
            var images: [(String, Image)] = []
            for renderer in ReferenceScenes.renderers() {
                let name = (renderer is CPURenderer ? "cpu" : "gles") + (oneLayer ? " one layer" : "")
                let image = try renderer.render(scene.root, scale: CGFloat(check.scale), at: time)
                images.append((name, image))
                for probe in check.probes {
                    guard probe.x >= 0, probe.y >= 0, probe.x < image.width, probe.y < image.height else {
                        failures.append("\(name) frame \(check.frame) x\(check.scale) (\(probe.x), \(probe.y)): outside")
                        continue
                    }
                    let got = image.rgba(x: probe.x, y: probe.y)
                    var bad = false
                    if let rgba = probe.rgba {
                        let want = RGBA8(r: UInt8(rgba[0]), g: UInt8(rgba[1]), b: UInt8(rgba[2]), a: UInt8(rgba[3]))
                        bad = got.maxChannelDifference(to: want) > probe.tolerance
                    } else if let alpha = probe.alpha {
                        bad = abs(Int(got.a) - alpha) > probe.tolerance
                    }
                    if bad {
                        failures.append("\(name) frame \(check.frame) x\(check.scale) (\(probe.x), \(probe.y)) \(probe.why): "
                                        + "expected \(probe.rgba.map { "\($0)" } ?? "alpha \(probe.alpha!)") ±\(probe.tolerance), got \(got)")
                    }
                }
            }
            if images.count == 2, !ImageDifference.meetsParity(images[0].1, images[1].1) {
                let d = ImageDifference(images[0].1, images[1].1, tolerance: 2, premultiplied: true)
                failures.append("frame \(check.frame) x\(check.scale): cpu and gles differ beyond the parity bound: "
                                + "max \(d?.maxChannelDifference ?? -1), \(d?.pixelsOverTolerance ?? -1) pixels over 2")
            }
            if !failures.isEmpty {
                let artifacts = FailureArtifacts.write(
                    test: "lottie-\(file)-\(check.frame)", images: Dictionary(uniqueKeysWithValues: images))
                failures.append("images: \(artifacts)")
            }
        }
        #expect(failures.isEmpty, "\(file):\n\(failures.joined(separator: "\n"))")
    }

    /// Every bad file fails with a message naming its JSON path (or line:column) and the problem; unsupported
    /// features load with `allowUnsupported`, as warnings with the same message.
    @Test(arguments: errors.map(\.file))
    func namedErrors(_ file: String) throws {
        let error = try #require(Self.errors.first { $0.file == file })
        let url = Self.folder.appendingPathComponent(file)
        var message = ""
        do {
            _ = try Scene.load(contentsOf: url)
            Issue.record("\(file) loaded, but should fail: \(error.why)")
            return
        } catch let failure as SceneError {
            message = failure.description
        }
        if let path = error.path { #expect(message.contains(path), "\(file): \(message) should name \(path)") }
        #expect(message.lowercased().contains(error.keyword.lowercased()),
                "\(file): \(message) should say \(error.keyword)")
        #expect(message.contains(file.split(separator: "/").last.map(String.init) ?? file), "names the file: \(message)")
        if error.kind == "unsupported" {
            var options = SceneOptions()
            options.lottie.allowUnsupported = true
            let scene = try Scene.load(contentsOf: url, options: options)
            #expect(scene.warnings.map(\.description).joined(separator: "\n").contains(error.path ?? ""))
        }
    }
}
