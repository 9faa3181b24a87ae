import Foundation

/// The pixels of a frame that differ from the frame before: a few disjoint rectangles of target pixels
/// (docs/architecture.md, "Damage"). Renderers redraw only these pixels of a retained frame.
///
/// Rectangles that overlap are merged into their bounding box, so the rectangles never overlap and no pixel is drawn
/// twice. Above `rectLimit` rectangles the region gives up precision for speed, as compositors do: a new rectangle
/// is merged with the one whose bounding box grows least; and after `exactAdditions` additions the region keeps only
/// its bounding box, so that a frame where thousands of layers moved costs O(1) per layer.
public struct DamageRegion: Hashable, Sendable, CustomStringConvertible {
    /// The rectangles, disjoint and non-empty, in the order they were made.
    public private(set) var rects: [PixelBox] = []
    /// Rectangles kept apart at most.
    public let rectLimit: Int
    /// Additions counted before the region becomes its bounding box.
    public let exactAdditions: Int
    private var additions = 0

    /// An empty region.
    public init(rectLimit: Int = 256, exactAdditions: Int = 4096) {
        self.rectLimit = max(1, rectLimit)
        self.exactAdditions = max(1, exactAdditions)
    }

    /// The region of one rectangle (none when it is empty).
    public init(_ box: PixelBox) {
        self.init()
        add(box)
    }

    /// The whole of a `width` x `height` target.
    public static func full(width: Int, height: Int) -> DamageRegion {
        DamageRegion(PixelBox(x0: 0, y0: 0, x1: width, y1: height))
    }

    public var isEmpty: Bool { rects.isEmpty }

    /// Pixels in the region.
    public var area: Int { rects.reduce(0) { $0 + $1.area } }

    /// The smallest box holding the region; nil when it is empty.
    public var bounds: PixelBox? {
        guard var box = rects.first else { return nil }
        for rect in rects.dropFirst() { box = box.union(rect) }
        return box
    }

    /// Adds `box` (ignored when empty).
    public mutating func add(_ box: PixelBox) {
        guard !box.isEmpty else { return }
        additions += 1
        if additions > exactAdditions, rects.count > 1 || (rects.first.map { !$0.contains(box) } ?? false) {
            rects = [rects.reduce(box) { $0.union($1) }]
            return
        }
        if rects.contains(where: { $0.contains(box) }) { return }
        var merged = box
        if rects.count >= rectLimit, !rects.contains(where: { $0.intersects(merged) }) {
            // Full: the rectangle joins the one whose bounding box grows least.
            var best = 0, bestGrowth = Int.max
            for (index, rect) in rects.enumerated() {
                let growth = rect.union(merged).area - rect.area
                if growth < bestGrowth { (best, bestGrowth) = (index, growth) }
            }
            merged = merged.union(rects.remove(at: best))
        }
        // Overlapping rectangles become one; the union may reach others, so repeat until none overlaps.
        var changed = true
        while changed {
            changed = false
            var index = 0
            while index < rects.count {
                if rects[index].intersects(merged) {
                    merged = merged.union(rects.remove(at: index))
                    changed = true
                } else {
                    index += 1
                }
            }
        }
        rects.append(merged)
    }

    /// Adds each box of `boxes` in order (nil and empty ones are ignored), as `add(_:)` one by one would: once the
    /// region has become its bounding box (after `exactAdditions`), the rest are joined in one pass, which gives the
    /// same box (a box inside the region leaves it as it is, any other makes it the union), without the checks and
    /// the new array each `add(_:)` makes. A moved parent's patch adds 20,000 boxes so.
    public mutating func add(contentsOf boxes: UnsafeBufferPointer<PixelBox?>) {
        var index = 0
        while index < boxes.count, additions < exactAdditions {
            if let box = boxes[index] { add(box) }
            index += 1
        }
        var union: PixelBox?
        while index < boxes.count {
            if let box = boxes[index], !box.isEmpty {
                additions += 1
                union = union.map { $0.union(box) } ?? box
            }
            index += 1
        }
        guard let union else { return }
        if rects.count == 1, rects[0].contains(union) { return }
        rects = [rects.reduce(union) { $0.union($1) }]
    }

    /// Adds every rectangle of `other`.
    public mutating func formUnion(_ other: DamageRegion) {
        for rect in other.rects { add(rect) }
    }

    /// Whether any pixel of `box` is in the region.
    public func intersects(_ box: PixelBox) -> Bool {
        rects.contains { $0.intersects(box) }
    }

    /// The region cut to `box`.
    public func clipped(to box: PixelBox) -> DamageRegion {
        var result = DamageRegion(rectLimit: rectLimit, exactAdditions: exactAdditions)
        for rect in rects { result.add(rect.intersection(box)) }
        return result
    }

    public var description: String {
        rects.isEmpty ? "no damage" : rects.map { "\($0)" }.joined(separator: " + ")
    }

    public static func == (a: DamageRegion, b: DamageRegion) -> Bool { a.rects == b.rects }

    public func hash(into hasher: inout Hasher) { hasher.combine(rects) }
}

extension PixelBox: CustomStringConvertible {
    public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    public var width: Int { max(0, x1 - x0) }
    public var height: Int { max(0, y1 - y0) }
    /// Pixels in the box (0 when empty).
    public var area: Int { width * height }

    public func union(_ other: PixelBox) -> PixelBox {
        PixelBox(x0: min(x0, other.x0), y0: min(y0, other.y0), x1: max(x1, other.x1), y1: max(y1, other.y1))
    }

    /// The common pixels (an empty box when none).
    public func intersection(_ other: PixelBox) -> PixelBox {
        PixelBox(x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1), y1: min(y1, other.y1))
    }

    public func intersects(_ other: PixelBox) -> Bool {
        max(x0, other.x0) < min(x1, other.x1) && max(y0, other.y0) < min(y1, other.y1)
    }

    public func contains(_ other: PixelBox) -> Bool {
        x0 <= other.x0 && y0 <= other.y0 && other.x1 <= x1 && other.y1 <= y1
    }

    public var description: String { "(\(x0), \(y0)) - (\(x1), \(y1))" }
}
