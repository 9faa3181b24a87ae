import Foundation
import Lamina
import LaminaBench
import Testing

/// `emitter-20k` (docs/benchmarks.md, "Emitter (2026-11-26)"): 20,000 live particles at any time, all drawn.
@Suite struct BenchEmitterTests {
    @Test func twentyThousandParticlesAreAliveAtAnyTime() throws {
        let size = CGSize(width: 1920, height: 1080)
        let root = try BenchScene.emitter20k.makeRoot(size: size)
        let emitter = try #require(root.sublayers?.first as? EmitterLayer)
        for time in [10.0, 100.04, 12_345.678] {
            // Each of the 8 cells: 25 births a second living 10 s, 250 alive (251 at the instant of a birth).
            let count = emitter.particles(atLocalTime: time).count
            #expect(count >= 20_000 && count <= 20_008, "\(count) at \(time)")
        }
        let plan = try Planner().plan(root, at: 50.01)
        #expect(plan.quads.count == 1 + 20_000)
    }
}
