import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Any finite number in a scene, and any number at all through the Swift API, gives a picture or a named error on
/// every renderer, never a trap (docs/semantics.md, "Numbers").
@Suite struct ExtremeNumberTests {
    static let white = RGBA8(r: 255, g: 255, b: 255, a: 255)
    static let red = RGBA8(r: 255, g: 0, b: 0, a: 255)

    static func scene(_ layer: String, images: Bool = false) throws -> Scene {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-extreme-\(getpid())")
        if images {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let image = try Image(width: 4, height: 4)
            for y in 0..<4 { for x in 0..<4 { image.setRGBA(RGBA8(r: 0, g: 0, b: 255, a: 255), x: x, y: y) } }
            try image.writePNG(to: folder.appendingPathComponent("blue.png"))
        }
        let json = """
            {"size":[64,64],"backgroundColor":"#FFFFFF",\(images ? ##""images":{"b":"blue.png"},"## : "")
             "layers":[\(layer)]}
            """
        return try Scene.load(data: Data(json.utf8), baseDirectory: folder, fileName: "extreme.json")
    }

    static func render(_ scene: Scene) throws -> [(String, Image)] {
        try GroupNestingTests.renderEverywhere(scene.root)
    }

    @Test func aFrameBeyondTheRangeOfTheTargetDrawsNothing() throws {
        for y in [-1e308, 1e308, -1e19, 1e300] {
            for (name, image) in try Self.render(try Self.scene(##"{"frame":[0,\##(y),10,10],"backgroundColor":"#ff0000"}"##)) {
                #expect(image.rgba(x: 5, y: 5) == Self.white, "\(name) at y \(y)")
            }
        }
    }

    @Test func boundsOfAHugeSizeCoverTheTarget() throws {
        for size in [1e300, 1e308, 1e19] {
            let layer = ##"{"position":[32,32],"bounds":[0,0,\##(size),\##(size)],"backgroundColor":"#ff0000","##
                + ##""borderWidth":2,"borderColor":"#000000","cornerRadius":4}"##
            for (name, image) in try Self.render(try Self.scene(layer)) {
                #expect(image.rgba(x: 0, y: 0) == Self.red && image.rgba(x: 63, y: 40) == Self.red, "\(name) \(size)")
            }
        }
    }

    @Test func aHugeScaleStepCoversTheTargetAndATinyOneDrawsNothing() throws {
        for (factor, expected) in [(1e300, Self.red), (1e-300, Self.white), (5e-324, Self.white)] {
            let layer = ##"{"frame":[17,17,30,30],"backgroundColor":"#ff0000","transform":[{"scale":[\##(factor),\##(factor)]}]}"##
            for (name, image) in try Self.render(try Self.scene(layer)) {
                #expect(image.rgba(x: 2, y: 2) == expected, "\(name) scale \(factor)")
            }
        }
    }

    @Test func aShadowOffsetBeyondTheTargetLeavesTheLayerAlone() throws {
        for dx in [1e19, -1e19, 1e308] {
            let layer = ##"{"frame":[10,10,20,20],"backgroundColor":"#ff0000","shadowOpacity":1,"shadowRadius":0,"##
                + ##""shadowOffset":[\##(dx),0]}"##
            for (name, image) in try Self.render(try Self.scene(layer)) {
                #expect(image.rgba(x: 20, y: 20) == Self.red, "\(name) offset \(dx)")
                #expect(image.rgba(x: 50, y: 20) == Self.white && image.rgba(x: 5, y: 20) == Self.white, "\(name)")
            }
        }
    }

    @Test func contentsRectsOfAnySizeDraw() throws {
        let blue = RGBA8(r: 0, g: 0, b: 255, a: 255)
        // Any sample of a one-colour image is that colour (reads clamp to the image's edge texels), however far the
        // rectangle reaches; one whose texels overflow doubles (1e308 x 4 texels) is not drawn.
        for (rect, expected) in [("[0,0,1e19,1]", blue), ("[1e19,1e19,1,1]", blue), ("[0,0,1e4,1e4]", blue),
                                 ("[-1e308,0,1e308,1]", Self.white), ("[0,0,1e-300,1e-300]", blue)] {
            let layer = ##"{"frame":[10,10,20,20],"contents":"b","contentsRect":\##(rect)}"##
            for (name, image) in try Self.render(try Self.scene(layer, images: true)) {
                #expect(image.rgba(x: 20, y: 20) == expected, "\(name) contentsRect \(rect)")
            }
        }
    }

    @Test func rotationsOfAnyAngleAreReducedToOneTurn() throws {
        let huge = try Self.render(try Self.scene(##"{"frame":[17,17,30,30],"backgroundColor":"#ff0000","transform":[{"rotate":1e308}]}"##))
        // 1e308 mod 360 is exact; the same angle written small draws the same picture.
        let turn = (1e308 as Double).truncatingRemainder(dividingBy: 360)
        let small = try Self.render(try Self.scene(##"{"frame":[17,17,30,30],"backgroundColor":"#ff0000","transform":[{"rotate":\##(turn)}]}"##))
        for ((name, a), (_, b)) in zip(huge, small) {
            #expect(ImageDifference(a, b) == nil || ImageDifference(a, b)!.maxChannelDifference == 0, "\(name)")
            #expect(a.rgba(x: 32, y: 32) == Self.red, "\(name)")
        }
    }

    /// Every numeric property set through the Swift API to NaN, infinities and the extremes of doubles: each frame is a
    /// picture or a named error, on every renderer.
    @Test func everyNumericPropertyTakesAnyValueThroughTheAPI() throws {
        let values: [CGFloat] = [.nan, .infinity, -.infinity, 1e308, -1e308, 1e-300, 5e-324, 0, -1]
        let setters: [(String, (Layer, CGFloat) -> Void)] = [
            ("position", { $0.position = CGPoint(x: $1, y: $1) }),
            ("bounds", { $0.bounds = CGRect(x: $1, y: 0, width: $1, height: 20) }),
            ("anchorPoint", { $0.anchorPoint = CGPoint(x: $1, y: 0.5) }),
            ("zPosition", { $0.zPosition = $1 }),
            ("transform", { $0.transform = Transform3D(scaleX: $1, y: 1, z: 1) }),
            ("transform.m34", { var t = Transform3D.identity; t.m34 = $1; $0.transform = t.rotated(by: 0.5, x: 0, y: 1, z: 0) }),
            ("sublayerTransform", { $0.sublayerTransform = Transform3D(translationX: $1, y: 0, z: 0) }),
            ("opacity", { $0.opacity = Float($1) }),
            ("borderWidth", { $0.borderWidth = $1 }),
            ("cornerRadius", { $0.cornerRadius = $1 }),
            ("shadowOffset", { $0.shadowOffset = CGSize(width: $1, height: $1) }),
            ("shadowRadius", { $0.shadowRadius = min($1, 50) }),
            ("shadowOpacity", { $0.shadowOpacity = Float($1) }),
            ("contentsRect", { $0.contentsRect = CGRect(x: 0, y: 0, width: $1, height: 1) }),
            ("contentsCenter", { $0.contentsCenter = CGRect(x: 0.25, y: 0.25, width: $1, height: 0.5) }),
            ("contentsScale", { $0.contentsScale = $1 }),
            ("minificationFilterBias", { $0.minificationFilterBias = Float($1) }),
        ]
        let renderers = ReferenceScenes.renderers()
        for (property, set) in setters {
            for value in values {
                let root = Layer()
                root.bounds = CGRect(x: 0, y: 0, width: 48, height: 48)
                root.backgroundColor = .white
                let layer = Layer(frame: CGRect(x: 8, y: 8, width: 24, height: 24))
                layer.backgroundColor = .red
                layer.contents = try Image(width: 4, height: 4)
                layer.masksToBounds = true
                layer.shadowOpacity = 1
                let child = Layer(frame: CGRect(x: 4, y: 4, width: 8, height: 8))
                child.backgroundColor = .blue
                layer.addSublayer(child)
                root.addSublayer(layer)
                set(layer, value)
                for renderer in renderers {
                    do {
                        let image = try renderer.render(root)
                        #expect(image.width == 48, "\(renderer.name): \(property) = \(value)")
                    } catch let error as PlanError {
                        #expect(!error.description.isEmpty, "\(property) = \(value)")
                    } catch let error as RenderError {
                        Issue.record("\(renderer.name): \(property) = \(value) failed to render: \(error)")
                    }
                }
            }
        }
    }
}
