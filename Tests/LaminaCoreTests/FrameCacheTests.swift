import Foundation
import Testing

@testable import LaminaCore

/// The one ageing policy of the renderers' caches (coverage masks, blurred shadows on both renderers).
@Suite struct FrameCacheTests {
    /// Evicted values, in order.
    final class Evictions {
        var values: [String] = []
    }

    @Test func anEntryUnusedForKeepFramesIsEvictedAtTheEndOfTheLast() {
        let evicted = Evictions()
        let cache = FrameCache<Int, String>(keep: 4, onEvict: { evicted.values.append($0) })
        cache.insert("a", for: 1)
        cache.endFrame()  // The frame that made it.
        for frame in 1...3 {
            cache.endFrame()
            #expect(cache.count == 1 && evicted.values.isEmpty, "kept after \(frame) frames unused")
        }
        cache.endFrame()
        #expect(cache.count == 0 && evicted.values == ["a"], "gone after 4 frames unused")
        #expect(cache.use(1) == nil)
    }

    @Test func usingAnEntryKeepsIt() {
        let evicted = Evictions()
        let cache = FrameCache<Int, String>(keep: 4, onEvict: { evicted.values.append($0) })
        cache.insert("a", for: 1)
        cache.insert("b", for: 2)
        for frame in 0..<10 {
            #expect(cache.use(1) == "a", "frame \(frame)")
            cache.endFrame()
        }
        #expect(cache.count == 1 && evicted.values == ["b"])
        // `contains` looks without using: it does not keep the entry.
        for _ in 0..<4 {
            #expect(cache.contains(1))
            cache.endFrame()
        }
        #expect(!cache.contains(1) && evicted.values == ["b", "a"])
    }

    @Test func valueForKeyMakesOnceWhileUsed() throws {
        let cache = FrameCache<String, Int>()  // keep 2, as the coverage caches
        var made = 0
        for _ in 0..<5 {
            #expect(cache.value(for: "k", make: { made += 1; return 7 }) == 7)
            cache.endFrame()
        }
        #expect(made == 1)
        cache.endFrame()
        cache.endFrame()
        #expect(cache.count == 0)
        #expect(cache.value(for: "k", make: { made += 1; return 8 }) == 8 && made == 2)
        #expect(throws: RenderError.self) {
            try cache.value(for: "x", make: { throw RenderError.failed("not made") })
        }
        #expect(!cache.contains("x"), "a failed make keeps nothing")
    }

    @Test func replacingAndRemovingAllEvict() {
        let evicted = Evictions()
        let cache = FrameCache<Int, String>(keep: 4, onEvict: { evicted.values.append($0) })
        cache.insert("a", for: 1)
        cache.insert("b", for: 1)
        #expect(evicted.values == ["a"] && cache.use(1) == "b")
        cache.insert("c", for: 2)
        cache.removeAll()
        #expect(cache.count == 0 && evicted.values.sorted() == ["a", "b", "c"])
    }

    @Test func keepIsAtLeastOneFrame() {
        let cache = FrameCache<Int, Int>(keep: 0)
        #expect(cache.keep == 1)
        cache.insert(1, for: 1)
        cache.endFrame()
        #expect(cache.count == 1, "used in the frame that just ended")
        cache.endFrame()
        #expect(cache.count == 0)
    }
}
