import Foundation
import LaminaCore
import LaminaDrawing
@testable import LaminaLayers
import Testing

/// The particle function of emitter layers (docs/semantics.md, "Emitter layers"): counts and places that follow
/// from birthRate, lifetime, velocity and acceleration; seeds; nesting; limits; the layer's API.
@Suite struct EmitterParticleTests {
    static let dot: Image = {
        let image = try! Image(width: 4, height: 4)
        for y in 0..<4 { for x in 0..<4 { image.setRGBA(RGBA8(r: 255, g: 255, b: 255, a: 255), x: x, y: y) } }
        return image
    }()

    func cell(rate: Float, lifetime: Float, _ setUp: (inout EmitterCellStyle) -> Void = { _ in }) -> EmitterCellStyle {
        var cell = EmitterCellStyle()
        cell.birthRate = rate
        cell.lifetime = lifetime
        cell.contents = Self.dot
        setUp(&cell)
        return cell
    }

    func style(_ cells: [EmitterCellStyle], _ setUp: (inout EmitterStyle) -> Void = { _ in }) -> EmitterStyle {
        var style = EmitterStyle()
        style.emitterCells = cells
        setUp(&style)
        return style
    }

    @Test func countsFollowBirthRateAndLifetime() {
        let s = style([cell(rate: 10, lifetime: 1)])
        // Born at k / 10; alive while age < 1.
        #expect(s.particles(at: 0).count == 1)
        #expect(s.particles(at: 0.35).count == 4)
        #expect(s.particles(at: 2.05).map(\.index) == Array(11...20))
        #expect(s.particles(at: -1).isEmpty)
        // The layer's birthRate and lifetime multiply the cell's.
        let doubled = style([cell(rate: 10, lifetime: 1)]) { $0.birthRate = 2; $0.lifetime = 1.5 }
        #expect(doubled.particles(at: 5.001).count == 30)
        // A disabled cell, a cell without contents or with rate 0 draws nothing.
        #expect(style([cell(rate: 10, lifetime: 1) { $0.isEnabled = false }]).particles(at: 1).isEmpty)
        #expect(style([cell(rate: 10, lifetime: 1) { $0.contents = nil }]).particles(at: 1).isEmpty)
        #expect(style([cell(rate: 0, lifetime: 1)]).particles(at: 1).isEmpty)
    }

    @Test func placesAreExactWithEveryRangeZero() {
        let s = style([cell(rate: 4, lifetime: 3) {
            $0.velocity = 100
            $0.emissionLongitude = .pi / 2
            $0.xAcceleration = 8
            $0.yAcceleration = 50
        }]) { $0.emitterPosition = CGPoint(x: 50, y: 60); $0.velocity = 0.5 }
        let t = 2.3
        let particles = s.particles(at: t)
        #expect(particles.count == 10)
        for p in particles {
            let age = t - Double(p.index) / 4
            #expect(abs(p.age - age) < 1e-12)
            // Longitude pi/2 points along +y (down); the layer's velocity halves the cell's.
            let x = 50 + 50 * cos(Double.pi / 2) * age + 8 * age * age / 2
            let y = 60 + 50 * age + 50 * age * age / 2
            #expect(abs(Double(p.position.x) - x) < 1e-9 && abs(Double(p.position.y) - y) < 1e-9, "\(p)")
            #expect(p.scale == 1 && p.angle == 0 && p.color == .white)
        }
    }

    @Test func spinScaleAndColourChangeWithAge() {
        let s = style([cell(rate: 1, lifetime: 10) {
            $0.spin = 2
            $0.scale = 0.5
            $0.scaleSpeed = 0.25
            $0.color = Color(red: 1, green: 0.5, blue: 0, alpha: 1)
            $0.alphaSpeed = -0.25
            $0.greenSpeed = 0.5
        }]) { $0.scale = 2; $0.spin = 0.5 }
        let p = s.particles(at: 2)[0]
        #expect(p.index == 0 && p.age == 2)
        #expect(abs(Double(p.angle) - 2) < 1e-12)  // 2 x 0.5 rad/s x 2 s
        #expect(abs(Double(p.scale) - 2) < 1e-12)  // (0.5 + 0.25 x 2) x 2
        #expect(abs(p.color.alpha - 0.5) < 1e-6 && abs(p.color.green - 1) < 1e-6 && p.color.red == 1)
        // Fully transparent particles are not drawn.
        #expect(s.particles(at: 4.5).map(\.index) == [1, 2, 3, 4])
    }

    @Test func seedsChooseTheRandomDraws() {
        func ranged(_ seed: UInt32) -> EmitterStyle {
            style([cell(rate: 20, lifetime: 2) {
                $0.velocity = 50
                $0.velocityRange = 20
                $0.emissionRange = .pi
                $0.lifetimeRange = 0.5
                $0.redRange = 0.5
                $0.scaleRange = 0.2
            }]) { $0.seed = seed; $0.emitterShape = .rectangle; $0.emitterSize = CGSize(width: 100, height: 40) }
        }
        let a = ranged(7).particles(at: 3), b = ranged(7).particles(at: 3), c = ranged(8).particles(at: 3)
        #expect(a == b)
        #expect(a != c)
        // Every draw stays in its range.
        for p in a {
            #expect(abs(p.position.x) <= 50 + 70 * 2.5 && p.scale >= 0.8 - 1e-9 && p.scale <= 1.2 + 1e-9)
        }
        // Frames in any order: a frame does not depend on the frames made before it.
        _ = ranged(7).particles(at: 9)
        _ = ranged(7).particles(at: 0.5)
        #expect(ranged(7).particles(at: 3) == a)
    }

    @Test func shapesAndModesPlaceBirths() {
        func births(_ shape: EmitterShape, _ mode: EmitterMode) -> [CGPoint] {
            style([cell(rate: 200, lifetime: 1)]) {
                $0.emitterShape = shape
                $0.emitterMode = mode
                $0.emitterPosition = CGPoint(x: 100, y: 50)
                $0.emitterSize = CGSize(width: 40, height: 20)
            }.particles(at: 0.5).map(\.position)
        }
        #expect(births(.point, .volume).allSatisfy { $0 == CGPoint(x: 100, y: 50) })
        #expect(Set(births(.line, .points).map(\.x)) == [80, 120])
        #expect(births(.line, .outline).allSatisfy { $0.y == 50 && $0.x >= 80 && $0.x <= 120 })
        #expect(Set(births(.rectangle, .points).map { "\($0.x),\($0.y)" }) == ["80.0,40.0", "120.0,40.0", "80.0,60.0", "120.0,60.0"])
        #expect(births(.rectangle, .outline).allSatisfy { [80, 120].contains($0.x) || [40, 60].contains($0.y) })
        #expect(births(.rectangle, .surface).allSatisfy { $0.x >= 80 && $0.x <= 120 && $0.y >= 40 && $0.y <= 60 })
        #expect(births(.circle, .outline).allSatisfy { abs(hypot($0.x - 100, $0.y - 50) - 20) < 1e-9 })
        #expect(births(.circle, .surface).allSatisfy { hypot($0.x - 100, $0.y - 50) <= 20 + 1e-9 })
        #expect(births(.sphere, .volume).allSatisfy { hypot($0.x - 100, $0.y - 50) <= 20 + 1e-9 })
    }

    @Test func subCellsAreEmittedFromTheirParentsPlaces() {
        let sub = cell(rate: 2, lifetime: 1) { $0.velocity = 10; $0.name = "spark" }
        let parent = cell(rate: 1, lifetime: 10) {
            $0.velocity = 20
            $0.emissionLongitude = .pi / 2
            $0.emitterCells = [sub]
        }
        let s = style([parent]) { $0.emitterPosition = CGPoint(x: 10, y: 10) }
        #expect(s.flattenedCells.map(\.name) == [nil, "spark"])
        let particles = s.particles(at: 1.25)
        let parents = particles.filter { $0.cell == 0 }, sparks = particles.filter { $0.cell == 1 }
        #expect(parents.map(\.index) == [0, 1])
        // Parent 0 (age 1.25) gave births at its ages 0.5 and 1.0 that are alive; parent 1 (age 0.25) one at 0.
        #expect(sparks.count == 3)
        for spark in sparks {
            // Born where its parent was, moving at 10 along the parent's heading (down: the sub-cell's longitude 0
            // turned by the parent's direction of travel).
            #expect(abs(spark.position.x - 10) < 1e-9, "\(spark)")
        }
        let first = sparks.first { abs($0.age - 0.75) < 1e-9 }
        #expect(first != nil)
        if let first {
            // Parent 0 at age 0.5 was at y = 10 + 20 x 0.5 = 20; the spark moved 10 x 0.75 further down.
            #expect(abs(first.position.y - 27.5) < 1e-9)
        }
    }

    @Test func renderModesOrderParticles() {
        let cells = [cell(rate: 1, lifetime: 10) { $0.name = "a" }, cell(rate: 2, lifetime: 10) { $0.name = "b" }]
        let unordered = style(cells).particles(at: 1.9)
        #expect(unordered.map(\.cell) == [0, 0, 1, 1, 1, 1])
        let oldestFirst = style(cells) { $0.renderMode = .oldestFirst }.particles(at: 1.9)
        #expect(zip(oldestFirst, oldestFirst.dropFirst()).allSatisfy { $0.birth <= $1.birth })
        let oldestLast = style(cells) { $0.renderMode = .oldestLast }.particles(at: 1.9)
        #expect(zip(oldestLast, oldestLast.dropFirst()).allSatisfy { $0.birth >= $1.birth })
    }

    @Test func theCellsTimingLimitsBirths() {
        // Begins at 1, emits for 0.5 s of its own time at double speed.
        let s = style([cell(rate: 10, lifetime: 100) {
            $0.timing.beginTime = 1
            $0.timing.speed = 2
            $0.timing.duration = 0.5
        }])
        #expect(s.particles(at: 0.99).isEmpty)
        // At 1.1 the cell's clock reads 0.2: births at 0, 0.1, 0.2.
        #expect(s.particles(at: 1.1).count == 3)
        // Births stop when its clock reaches 0.5: 5 in all.
        #expect(s.particles(at: 30).count == 5)
    }

    @Test func liveParticlesAreLimited() {
        let s = style([cell(rate: 1_000_000, lifetime: 10)])
        #expect(s.particles(at: 20).count == EmitterStyle.mostParticles)
        #expect(s.estimatedParticles == 10_000_000)
    }

    @Test func theLayerKeepsItsCellsAndDefaults() {
        let layer = EmitterLayer()
        #expect(layer.emitterCells == nil && layer.birthRate == 1 && layer.lifetime == 1 && layer.scale == 1)
        #expect(layer.emitterShape == .point && layer.emitterMode == .volume && layer.renderMode == .unordered)
        #expect(layer.seed == 0 && layer.velocity == 1 && layer.spin == 1 && !layer.preservesDepth)
        let cell = EmitterCell()
        #expect(cell.isEnabled && cell.birthRate == 0 && cell.scale == 1 && cell.color == .white)
        #expect(cell.contentsRect == CGRect(x: 0, y: 0, width: 1, height: 1) && cell.emitterCells == nil)
        cell.birthRate = 5
        cell.name = "star"
        let spark = EmitterCell()
        spark.velocity = 3
        cell.emitterCells = [spark]
        layer.emitterCells = [cell]
        // The layer keeps the values as they were set.
        cell.birthRate = 9
        #expect(layer.emitterCells?.first?.birthRate == 5 && layer.emitterCells?.first?.name == "star")
        #expect(layer.emitterCells?.first?.emitterCells?.first?.velocity == 3)
        // A cell that contains itself ends at the deepest nesting.
        cell.emitterCells = [cell]
        layer.emitterCells = [cell]
        #expect(layer.emitterStyle.flattenedCells.count == EmitterStyle.mostCellDepth)
        #expect(layer.value(forKey: "seed") as? UInt32 == 0)
        layer.setValue(UInt32(3), forKey: "seed")
        #expect(layer.seed == 3)
        // The cell holds itself, as it would in Core Animation: break the cycle so LeakSanitizer sees no leak.
        cell.emitterCells = nil
    }
}
