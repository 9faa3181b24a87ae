import CEGL
import Foundation
import Lamina
import LaminaBench
import LaminaTestSupport
import Testing

@testable import LaminaGLES

/// Large plans encoded in chunks on every core (GLESPass+Parallel.swift) give the one-thread encoding's instances,
/// batches and span table exactly, and the same pixels. (This plan's span table passes 32,767 rows, which found
/// that the fragment shaders' row index must be highp.)
@Suite(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display: \(GLESAvailability.skipReason ?? "")"))
struct GLESParallelEncodingTests {
    /// 6,000 quads: an opaque background (the clear colour), sprites from a sheet at whole pixels, scaled and turned
    /// ones (the span table), solid squares, some translucent.
    func plan() throws -> RenderPlan {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 400, height: 300)
        root.backgroundColor = Color(red: 0.1, green: 0.1, blue: 0.15, alpha: 1)
        let sheet = TestImages.quadrants(width: 32, height: 32)
        var random = SplitMix64(seed: 11)
        for index in 0..<6_000 {
            let layer = Layer(frame: CGRect(x: random.below(380), y: random.below(280), width: 8 + random.below(24),
                                            height: 8 + random.below(24)))
            switch index % 4 {
            case 0: layer.contents = sheet
            case 1:
                layer.contents = sheet
                layer.transform = Transform3D(rotationAngle: CGFloat(random.below(628)) / 100)
            case 2:
                layer.backgroundColor = Color(red: CGFloat(random.below(256)) / 255, green: 0.5, blue: 0.2, alpha: 1)
            default:
                layer.backgroundColor = .green
                layer.opacity = 0.5
                layer.transform = Transform3D(rotationAngle: 0.3)
            }
            root.addSublayer(layer)
        }
        return try Planner(scale: 1).plan(root)
    }

    @Test func chunksGiveTheOneThreadEncodingExactly() throws {
        let plan = try plan()
        try #require(GLESBatchEncoder.encodesInParallel(plan), "a plan of plain quads, over the threshold")
        let renderer = try #require(GLESAvailability.renderer())
        try renderer.glContext.makeCurrent()
        renderer.textures.beginFrame()
        var parallel = GLESBatchEncoder()
        try parallel.encode(plan, textures: renderer.textures)
        var serial = GLESBatchEncoder()
        serial.allowsParallel = false
        try serial.encode(plan, textures: renderer.textures)
        #expect(parallel.instances.count > 1_000 * GLESProgram.instanceFloats)
        #expect(parallel.instances == serial.instances)
        #expect(parallel.spanRows == serial.spanRows && !serial.spanRows.isEmpty)
        func spans(_ encoder: GLESBatchEncoder) -> [[Int]] { encoder.batches.map { [$0.first, $0.count, Int($0.texture)] } }
        #expect(spans(parallel) == spans(serial))
        #expect(parallel.batches.map { "\($0.filter) \($0.coverage) \($0.textured)" }
                == serial.batches.map { "\($0.filter) \($0.coverage) \($0.textured)" })
        #expect(parallel.quadsDrawn == serial.quadsDrawn)
        let clear = { (encoder: GLESBatchEncoder) in encoder.clearColor.map { [$0.0, $0.1, $0.2, $0.3] } }
        #expect(clear(parallel) == clear(serial))
        #expect(serial.clearColor != nil)

        let gles = try renderer.render(plan)
        renderer.encoder.allowsParallel = false
        let one = try renderer.render(plan)
        #expect(Array(UnsafeRawBufferPointer(start: gles.baseAddress, count: gles.byteCount))
                == Array(UnsafeRawBufferPointer(start: one.baseAddress, count: one.byteCount)))
        let cpu = try CPURenderer().render(plan)
        let d = try #require(ImageDifference(cpu, gles, tolerance: 2))
        #expect(ImageDifference.meetsParity(cpu, gles), "max \(d.maxChannelDifference), \(d.pixelsOverTolerance) over 2")
    }
}

