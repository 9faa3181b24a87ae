import CEGL
import Foundation
import Lamina
import LaminaTestSupport
import Testing

@testable import LaminaGLES

/// A plan drawn again unchanged reuses the last frame's instances (GLESRenderer+Encoding.swift), and the pictures
/// are those of a fresh encoding, also after the pixels of an image it samples change.
@Suite(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display: \(GLESAvailability.skipReason ?? "")"))
struct GLESEncodingReuseTests {
    func bytes(_ image: Image) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: image.baseAddress, count: image.byteCount))
    }

    @Test func anUnchangedPlanIsDrawnFromTheLastFramesInstances() throws {
        let image = TestImages.quadrants(width: 8, height: 8)
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 48)
        root.backgroundColor = .white
        let sprite = Layer(frame: CGRect(x: 3, y: 5, width: 40, height: 30))
        sprite.contents = image
        let turned = Layer(frame: CGRect(x: 30, y: 10, width: 20, height: 14))
        turned.backgroundColor = .red
        turned.transform = Transform3D(rotationAngle: 0.4)
        turned.allowsEdgeAntialiasing = true
        root.sublayers = [sprite, turned]
        let plan = try Planner(scale: 1).plan(root)

        let renderer = try #require(GLESAvailability.renderer())
        let fresh = try #require(GLESAvailability.renderer())
        fresh.reusesEncodedFrames = false
        let first = bytes(try renderer.render(plan))
        #expect(renderer.encodedFramesReused == 0)
        #expect(bytes(try renderer.render(plan)) == first)
        #expect(renderer.encodedFramesReused == 1)

        // Changed pixels under the same plan: reused instances, re-uploaded texture, the new picture.
        image.setWord(0xFF00_FF00, x: 0, y: 0)
        image.markModified()
        let changed = try renderer.render(plan)
        #expect(renderer.encodedFramesReused == 2)
        #expect(bytes(changed) != first)
        #expect(bytes(changed) == bytes(try fresh.render(plan)))
        #expect(fresh.encodedFramesReused == 0)

        // An equal plan built again is other storage: encoded afresh.
        let again = try Planner(scale: 1).plan(root)
        #expect(bytes(try renderer.render(again)) == bytes(changed))
        #expect(renderer.encodedFramesReused == 2)
    }

    /// The planner moves the quads of its last plan in place when a parent moves (Planner+Patch.swift): the new plan
    /// has the old one's storage and a new identity, and must be encoded afresh, with the picture of a fresh renderer.
    @Test func aPlanPatchedInPlaceIsEncodedAfresh() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 48)
        root.backgroundColor = .white
        let container = Layer(frame: CGRect(x: 0, y: 0, width: 64, height: 48))
        for index in 0..<6 {
            let sprite = Layer(frame: CGRect(x: 4 + index * 9, y: 6 + index * 5, width: 8, height: 8))
            sprite.contents = TestImages.quadrants(width: 4, height: 4)
            container.addSublayer(sprite)
        }
        root.sublayers = [container]
        let renderer = try #require(GLESAvailability.renderer())
        let fresh = try #require(GLESAvailability.renderer())
        fresh.reusesEncodedFrames = false
        func storage(_ plan: RenderPlan) -> UnsafeRawPointer? {
            plan.quads.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
        }
        var plan = try renderer.plan(root, at: 0)
        _ = try renderer.render(plan)
        var last = (identity: plan.identity, storage: storage(plan))
        plan = RenderPlan(width: 1, height: 1, quads: [], groups: [])
        var patchedInPlace = 0
        for step in 1...3 {
            Transaction.begin()
            Transaction.setDisableActions(true)
            container.position = CGPoint(x: 32 + Double(step) * 3, y: 24 + Double(step))
            Transaction.commit()
            let moved = try renderer.plan(root, at: 0)
            #expect(moved.identity != last.identity)
            if storage(moved) == last.storage { patchedInPlace += 1 }
            let picture = bytes(try renderer.render(moved))
            #expect(renderer.encodedFramesReused == 0)
            #expect(picture == bytes(try fresh.render(try Planner(scale: 1).plan(root))))
            last = (moved.identity, storage(moved))
        }
        // The quads were moved where they lay (no copy), which is what this test is about.
        #expect(patchedInPlace == 3)
    }

    /// The planner hands back its last plan unchanged under a new identity when nothing changed (for damage and
    /// retained frames): a static tree planned frame after frame is encoded once, until something moves. Found on an
    /// NVIDIA H200, where sprites-100k spent 136 ms a frame encoding a plan that never changed.
    @Test func aStaticTreePlannedAgainIsEncodedOnce() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 48)
        root.backgroundColor = .white
        let sprites = (0..<5).map { index in
            let sprite = Layer(frame: CGRect(x: 3 + index * 11, y: 4 + index * 7, width: 9, height: 9))
            sprite.contents = TestImages.quadrants(width: 4, height: 4)
            return sprite
        }
        root.sublayers = sprites
        let renderer = try #require(GLESAvailability.renderer())
        let fresh = try #require(GLESAvailability.renderer())
        fresh.reusesEncodedFrames = false
        let first = try renderer.plan(root, at: 0)
        let picture = bytes(try renderer.render(first))
        for frame in 1...3 {
            let again = try renderer.plan(root, at: 0)
            #expect(again.identity != first.identity && again.damage?.region.isEmpty == true)
            #expect(bytes(try renderer.render(again)) == picture)
            #expect(renderer.encodedFramesReused == frame)
        }
        // A moved sprite: damage, so encoded afresh, with a fresh renderer's picture; then reused again.
        Transaction.begin()
        Transaction.setDisableActions(true)
        sprites[2].position.x += 5
        Transaction.commit()
        let moved = bytes(try renderer.render(try renderer.plan(root, at: 0)))
        #expect(renderer.encodedFramesReused == 3)
        #expect(moved != picture)
        #expect(moved == bytes(try fresh.render(try Planner(scale: 1).plan(root))))
        #expect(bytes(try renderer.render(try renderer.plan(root, at: 0))) == moved)
        #expect(renderer.encodedFramesReused == 4)
    }
}
