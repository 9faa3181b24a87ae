import Foundation
import LaminaCore
import Testing

/// Damage regions: disjoint rectangles, merged where they overlap, bounded in count and cost.
@Suite struct DamageRegionTests {
    func box(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> PixelBox { PixelBox(x0: x0, y0: y0, x1: x1, y1: y1) }

    @Test func apartRectanglesStayApartAndOverlappingOnesMerge() {
        var region = DamageRegion()
        region.add(box(0, 0, 10, 10))
        region.add(box(20, 0, 30, 10))
        #expect(region.rects == [box(0, 0, 10, 10), box(20, 0, 30, 10)])
        #expect(region.area == 200)
        // Overlapping the first: the two become their bounding box.
        region.add(box(5, 5, 15, 15))
        #expect(region.rects.count == 2)
        #expect(region.rects.contains(box(0, 0, 15, 15)))
        // A box inside adds nothing.
        region.add(box(1, 1, 3, 3))
        #expect(region.rects.count == 2)
        // Reaching both: one box.
        region.add(box(10, 0, 25, 5))
        #expect(region.rects == [box(0, 0, 30, 15)])
        #expect(region.bounds == box(0, 0, 30, 15))
    }

    @Test func emptyBoxesAddNothing() {
        var region = DamageRegion()
        region.add(box(5, 5, 5, 10))
        region.add(box(5, 5, 4, 10))
        #expect(region.isEmpty && region.area == 0 && region.bounds == nil)
        #expect("\(region)" == "no damage")
    }

    @Test func pastTheLimitANewRectangleJoinsTheOneThatGrowsLeast() {
        var region = DamageRegion(rectLimit: 3)
        region.add(box(0, 0, 10, 10))
        region.add(box(100, 0, 110, 10))
        region.add(box(200, 0, 210, 10))
        region.add(box(112, 0, 120, 10))
        #expect(region.rects.count == 3)
        #expect(region.rects.contains(box(100, 0, 120, 10)))
        #expect(region.rects.contains(box(0, 0, 10, 10)) && region.rects.contains(box(200, 0, 210, 10)))
    }

    @Test func manyAdditionsBecomeTheBoundingBox() {
        var region = DamageRegion(rectLimit: 256, exactAdditions: 100)
        for index in 0..<150 { region.add(box(index * 20, 0, index * 20 + 5, 5)) }
        #expect(region.rects == [box(0, 0, 149 * 20 + 5, 5)])
    }

    @Test func rectanglesNeverOverlap() {
        var random = Steps(seed: 7)
        var region = DamageRegion(rectLimit: 16)
        var added: [PixelBox] = []
        for _ in 0..<300 {
            let x = random.below(500), y = random.below(500)
            let b = box(x, y, x + 1 + random.below(40), y + 1 + random.below(40))
            added.append(b)
            region.add(b)
            for (i, a) in region.rects.enumerated() {
                for c in region.rects[(i + 1)...] { #expect(!a.intersects(c), "\(a) and \(c) overlap") }
            }
            #expect(region.rects.count <= 16)
        }
        // Every pixel added is in the region.
        for b in added { #expect(region.rects.contains { $0.contains(b) } || covered(b, by: region.rects)) }
    }

    /// Whether every pixel of `b` lies in one of `rects`.
    func covered(_ b: PixelBox, by rects: [PixelBox]) -> Bool {
        for y in b.y0..<b.y1 {
            for x in b.x0..<b.x1 where !rects.contains(where: { $0.contains(box(x, y, x + 1, y + 1)) }) { return false }
        }
        return true
    }

    @Test func addingABufferOfBoxesIsAddingEachInTurn() {
        // add(contentsOf:) joins the boxes past `exactAdditions` in one pass: the region must be the one the boxes
        // added one by one make, for runs that stay exact, cross into the bounding box (boxes inside it, beyond it,
        // empty and nil among them) and start after it, and for small limits.
        var random = Steps(seed: 11)
        for trial in 0..<300 {
            let (limit, exact) = [(256, 4096), (4, 16), (1, 1), (8, 40)][trial % 4]
            var one = DamageRegion(rectLimit: limit, exactAdditions: exact)
            var bulk = DamageRegion(rectLimit: limit, exactAdditions: exact)
            for _ in 0..<(1 + random.below(3)) {
                let count = random.below(trial % 5 == 0 ? 6_000 : 90)
                let spread = 20 + random.below(400)
                let boxes: [PixelBox?] = (0..<count).map { _ in
                    if random.below(9) == 0 { return nil }
                    let x = random.below(spread), y = random.below(spread)
                    return box(x, y, x + random.below(12), y + random.below(12))  // some empty
                }
                for b in boxes { b.map { one.add($0) } }
                boxes.withUnsafeBufferPointer { bulk.add(contentsOf: $0) }
                #expect(bulk.rects == one.rects, "trial \(trial): \(count) boxes")
            }
        }
    }

    @Test func clippedCutsToABox() {
        var region = DamageRegion()
        region.add(box(-5, -5, 10, 10))
        region.add(box(90, 90, 120, 120))
        let cut = region.clipped(to: box(0, 0, 100, 100))
        #expect(cut.rects == [box(0, 0, 10, 10), box(90, 90, 100, 100)])
        #expect(DamageRegion.full(width: 4, height: 3).area == 12)
    }

    @Test func tilesAnswerWhetherABoxMeetsTheRegion() {
        var region = DamageRegion()
        for index in 0..<10 { region.add(box(index * 50, index * 30, index * 50 + 8, index * 30 + 8)) }
        let tiles = DamageTiles(region, width: 600, height: 400)
        var random = Steps(seed: 3)
        for _ in 0..<2000 {
            let x = random.below(600), y = random.below(400)
            let b = box(x, y, x + 1 + random.below(30), y + 1 + random.below(30))
            #expect(tiles.intersects(b) == region.intersects(b), "\(b)")
        }
    }
}

/// A small fixed generator for these tests.
private struct Steps {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func below(_ n: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(n))
    }
}
