import CEGL
import Foundation
import Lamina
import LaminaBench
import LaminaTestSupport
import Testing

@testable import LaminaGLES

/// Pipelined readback through the ring of pixel-pack buffers (GLESRenderer+Readback.swift): frames come back equal
/// to synchronous renders, in order, and the ring's buffers and fences are released. Each frame is compared with a
/// synchronous render of the same plan by the same renderer just before: a renderer's atlas placement depends on
/// what it drew before, which can move a bilinear sample by a float step (a difference of 1 or 2, within parity).
@Suite(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display: \(GLESAvailability.skipReason ?? "")"))
struct GLESReadbackTests {
    /// A different picture per frame: a textured square and a rotated, antialiased one moving along.
    func plan(frame: Int) throws -> RenderPlan {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 96, height: 64)
        root.backgroundColor = Color(red: 0.1, green: 0.2, blue: 0.3, alpha: 1)
        let square = Layer(frame: CGRect(x: 4 + frame * 7, y: 6, width: 24, height: 24))
        square.contents = TestImages.quadrants(width: 8, height: 8)
        root.addSublayer(square)
        let turned = Layer(frame: CGRect(x: 40, y: 20 + frame * 3, width: 30, height: 18))
        turned.backgroundColor = Color(red: 0.9, green: 0.5, blue: 0.1, alpha: 0.8)
        turned.transform = Transform3D(rotationAngle: CGFloat(frame) * 0.3)
        turned.allowsEdgeAntialiasing = true
        root.addSublayer(turned)
        return try Planner(scale: 1).plan(root)
    }

    func bytes(_ image: Image) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: image.baseAddress, count: image.byteCount))
    }

    @Test(arguments: [1, 2, 3, 5])
    func pipelinedFramesEqualSynchronousRendersInOrder(ring: Int) throws {
        let renderer = try #require(GLESAvailability.renderer())
        renderer.readbackRingSize = ring
        let plans = try (0..<7).map { try plan(frame: $0) }
        var expected: [[UInt8]] = []
        var returned: [[UInt8]] = []
        for plan in plans {
            expected.append(bytes(try renderer.render(plan)))
            if let image = try renderer.renderPipelined(plan) { returned.append(bytes(image)) }
            #expect(renderer.framesInFlight <= ring)
        }
        // Until the ring fills, nothing comes back.
        #expect(returned.count == plans.count - (ring - 1))
        returned += try renderer.drainReadbacks().map(bytes)
        // Distinct frames, so that a frame returned out of order would be noticed.
        #expect(Set(expected).count == plans.count)
        #expect(returned == expected)
        #expect(renderer.framesInFlight == 0)
        #expect(renderer.readbackBuffersHeld == ring)
    }

    @Test func framesBeyondTheRingAreKeptAndCollectedInAnyOrder() throws {
        let renderer = try #require(GLESAvailability.renderer())
        renderer.readbackRingSize = 2
        let plans = try (0..<5).map { try plan(frame: $0) }
        // Five frames begun on a ring of two: the three oldest are copied out of the ring to make room.
        var expected: [[UInt8]] = []
        let frames = try plans.map { plan in
            expected.append(bytes(try renderer.render(plan)))
            return try renderer.beginReadback(plan)
        }
        #expect(frames.map(\.sequence) == Array(frames[0].sequence..<frames[0].sequence + 5))
        #expect(renderer.framesInFlight == 5)
        #expect(renderer.readbackBuffersHeld == 2)
        for index in [4, 0, 2, 1, 3] {
            let image = try renderer.collect(frames[index])
            #expect(bytes(image) == expected[index], "frame \(index)")
        }
        #expect(renderer.framesInFlight == 0)
        #expect {
            _ = try renderer.collect(frames[0])
        } throws: { "\($0)".contains("already collected") }
    }

    @Test func resizingTheRingReleasesItsBuffersAndFences() throws {
        let renderer = try #require(GLESAvailability.renderer())
        renderer.readbackRingSize = 3
        let expected = try (0..<2).map { bytes(try renderer.render(plan(frame: $0))) }
        let first = try renderer.beginReadback(plan(frame: 0))
        let second = try renderer.beginReadback(plan(frame: 1))
        let buffers = renderer.readback.slots.map(\.buffer).filter { $0 != 0 }
        let fences = renderer.readback.slots.compactMap(\.fence)
        #expect(buffers.count == 2 && fences.count == 2)
        try renderer.glContext.makeCurrent()
        #expect(buffers.allSatisfy { glIsBuffer($0) == GLboolean(GL_TRUE) })
        #expect(fences.allSatisfy { glIsSync($0) == GLboolean(GL_TRUE) })
        renderer.readbackRingSize = 1
        try renderer.glContext.makeCurrent()
        #expect(renderer.readbackBuffersHeld == 0)
        #expect(buffers.allSatisfy { glIsBuffer($0) == GLboolean(GL_FALSE) })
        #expect(fences.allSatisfy { glIsSync($0) == GLboolean(GL_FALSE) })
        // The frames in flight were copied out before their buffers went, and still come back whole.
        #expect(bytes(try renderer.collect(second)) == expected[1])
        #expect(bytes(try renderer.collect(first)) == expected[0])
        // A collected frame's fence is deleted at once.
        let third = try renderer.beginReadback(plan(frame: 2))
        let fence = try #require(renderer.readback.slots.compactMap(\.fence).first)
        _ = try renderer.collect(third)
        try renderer.glContext.makeCurrent()
        #expect(glIsSync(fence) == GLboolean(GL_FALSE))
        #expect(renderer.readbackBuffersHeld == 1)
    }

    @Test func aGPUResetLosesTheFramesInFlightAndTheRingStartsAgain() throws {
        let renderer = try #require(GLESAvailability.renderer())
        let pending = try renderer.beginReadback(plan(frame: 0))
        renderer.simulateContextLoss()
        let after = try renderer.beginReadback(plan(frame: 1))
        #expect(renderer.contextResets == 1)
        let expected = bytes(try renderer.render(plan(frame: 1)))
        #expect {
            _ = try renderer.collect(pending)
        } throws: { "\($0)".contains("was lost") }
        #expect(bytes(try renderer.collect(after)) == expected)
    }
}


/// The frame split `lamina bench` reports (GLESRenderer+Timing.swift).
@Suite(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display: \(GLESAvailability.skipReason ?? "")"))
struct GLESFrameTimingTests {
    @Test func aMeasuredFrameHasItsPartsAndItsReadback() throws {
        let renderer = try #require(GLESAvailability.renderer())
        let plan = try GLESReadbackTests().plan(frame: 2)
        #expect(renderer.frameTimings == GLESFrameTimings())
        renderer.measuresFrameTimes = true
        try renderer.renderOffscreen(plan)
        try renderer.finish()
        let timings = renderer.frameTimings
        #expect(timings.encodeSeconds > 0 && timings.submitSeconds > 0 && timings.finishWaitSeconds >= 0)
        #expect(timings.gpuClock == (renderer.hasTimerQueries ? .timerQuery : .finish))
        if timings.gpuClock == .finish { #expect(timings.gpuSeconds == timings.finishWaitSeconds) }
        // The readback reads the frame just drawn, and is timed.
        let image = try Image(width: plan.width, height: plan.height)
        try renderer.measureReadback(into: image)
        #expect(renderer.frameTimings.readbackSeconds > 0)
        let expected = try renderer.render(plan)
        #expect(GLESReadbackTests().bytes(image) == GLESReadbackTests().bytes(expected))
    }
}
