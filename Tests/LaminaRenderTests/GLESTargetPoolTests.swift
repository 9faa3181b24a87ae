import CEGL
import Foundation
import Lamina
import LaminaTestSupport
import Testing

@testable import LaminaGLES

/// Offscreen targets pooled by size bucket (GLESRenderer+TargetPool.swift): a group that grows or moves keeps its
/// buffer, and the pictures stay those of the CPU renderer.
@Suite(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display: \(GLESAvailability.skipReason ?? "")"))
struct GLESTargetPoolTests {
    /// A half-opaque group of two overlapping squares, `side` points wide, with a shadow.
    func scene(side: CGFloat, x: CGFloat) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 320, height: 200)
        root.backgroundColor = .white
        let group = Layer(frame: CGRect(x: x, y: 20, width: side, height: side * 0.6))
        group.opacity = 0.5
        group.allowsGroupOpacity = true
        group.shadowOpacity = 0.8
        group.shadowRadius = 4
        group.backgroundColor = Color(red: 0.2, green: 0.3, blue: 0.9, alpha: 1)
        let a = Layer(frame: CGRect(x: 0, y: 0, width: side / 2, height: side / 2))
        a.backgroundColor = .green
        let b = Layer(frame: CGRect(x: side / 4, y: 4, width: side / 2, height: side / 2))
        b.backgroundColor = .red
        group.sublayers = [a, b]
        root.addSublayer(group)
        return root
    }

    @Test func sidesRoundUpToBuckets() throws {
        let renderer = try #require(GLESAvailability.renderer())
        #expect([1, 64, 65, 129, 200, 256, 513, 700].map(renderer.bucketed) == [16, 64, 80, 192, 256, 256, 768, 768])
        let small = try #require(GLESAvailability.renderer(options: .init(maxTextureSize: 300)))
        // Never past the largest texture side.
        #expect(small.bucketed(290) == 300)
    }

    @Test func aGrowingMovingGroupKeepsItsBuffersAndMatchesTheCPU() throws {
        let renderer = try #require(GLESAvailability.renderer())
        let cpu = CPURenderer()
        var names: Set<GLuint>?
        for step in 0..<6 {
            let root = scene(side: 200 + CGFloat(step) * 2, x: 10 + CGFloat(step) * 13)
            let gles = try renderer.render(root)
            #expect(renderer.statistics.offscreenPasses >= 1)
            #expect(ImageDifference.meetsParity(try cpu.render(root), gles), "step \(step)")
            let held = Set(renderer.pool.targets.map(\.texture))
            // From the second frame on, the same buffers serve every size (group 256 x 128, silhouette 256 x 192).
            if step > 0, let names { #expect(held == names, "step \(step)") }
            names = held
        }
    }
}
