import Foundation
import LaminaCore
import LaminaDrawing

/// The pictures of gradient, shape and text layers (docs/semantics.md, "Specialised layers"), kept between frames by
/// layer and density while what they depend on stays the same: an unchanged label is not laid out or rasterised
/// again, whether its subtree is reused, moved, patched or planned anew. One per plan cache (a renderer and a tree);
/// the least recently used pictures go first once the cache holds more than its budget of pixels.
public final class VectorPictureCache: @unchecked Sendable {
    /// What a picture was made from: the layer's style and bounds, and the density.
    struct Key: Equatable {
        var special: SpecialContent
        var bounds: CGRect
        var density: CGFloat
        /// The part made, where only part of a large layer can be seen; nil: all of it.
        var visible: CGRect?
    }

    private struct Slot: Hashable {
        var id: LayerID
        /// The density in 1/16ths: each density a layer is shown at has its own picture (a replicator's instances).
        var density: Int
    }

    private struct Entry {
        var key: Key
        var picture: VectorPicture
        var lastUse: UInt64
    }

    private let lock = NSLock()
    private var entries: [Slot: Entry] = [:]
    /// Each shape layer's style made ready to draw (nil: it paints nothing), so that a frame that only places an
    /// unchanged shape does not work out its outline and bounds again. At most `mostShapes`; emptied beyond.
    private var shapes: [LayerID: (style: ShapeStyle, prepared: PreparedShape?)] = [:]
    private static let mostShapes = 65_536
    /// Each drawing layer's drawing and its painted bounds (nil: it paints nothing), as `shapes`.
    private var drawings: [LayerID: (drawing: VectorDrawing, bounds: CGRect?)] = [:]
    private var pixels = 0
    private var clock: UInt64 = 0
    /// The most pixels kept (4 bytes each): 64 Mpx, 256 MiB.
    let budget: Int

    /// Pictures made and pictures reused since the counters were last reset (`PlanStatistics`).
    private(set) var made = 0
    private(set) var reused = 0

    init(budget: Int = 64 << 20) {
        self.budget = budget
    }

    /// The picture for `key` on layer `id`: the kept one when it was made from the same key, else `make()`'s, kept.
    func picture(for id: LayerID, key: Key, make: () throws -> VectorPicture?) rethrows -> VectorPicture? {
        let slot = Slot(id: id, density: Int((key.density * 16).rounded()))
        lock.lock()
        clock += 1
        if var entry = entries[slot], entry.key == key {
            entry.lastUse = clock
            entries[slot] = entry
            reused += 1
            lock.unlock()
            return entry.picture
        }
        lock.unlock()
        // Made outside the lock: text layout and rasterising take time, and nothing here is shared while they run.
        guard let picture = try make() else {
            lock.lock()
            if let old = entries.removeValue(forKey: slot) { pixels -= old.picture.image.width * old.picture.image.height }
            lock.unlock()
            return nil
        }
        lock.lock()
        defer { lock.unlock() }
        made += 1
        if let old = entries[slot] { pixels -= old.picture.image.width * old.picture.image.height }
        entries[slot] = Entry(key: key, picture: picture, lastUse: clock)
        pixels += picture.image.width * picture.image.height
        if pixels > budget { evict() }
        return picture
    }

    /// Shape layer `id`'s `style` made ready to draw: the kept one while the style is the same.
    func preparedShape(_ style: ShapeStyle, for id: LayerID) -> PreparedShape? {
        lock.lock()
        if let kept = shapes[id], kept.style == style {
            lock.unlock()
            return kept.prepared
        }
        lock.unlock()
        let prepared = style.prepared()
        lock.lock()
        defer { lock.unlock() }
        if shapes.count >= Self.mostShapes { shapes.removeAll(keepingCapacity: true) }
        shapes[id] = (style, prepared)
        return prepared
    }

    /// Drawing layer `id`'s `drawing`'s painted bounds: the kept ones while the drawing is the same.
    func drawingBounds(_ drawing: VectorDrawing, for id: LayerID) -> CGRect? {
        lock.lock()
        if let kept = drawings[id], kept.drawing == drawing {
            lock.unlock()
            return kept.bounds
        }
        lock.unlock()
        let bounds = drawing.paintedBounds
        lock.lock()
        defer { lock.unlock() }
        if drawings.count >= Self.mostShapes { drawings.removeAll(keepingCapacity: true) }
        drawings[id] = (drawing, bounds)
        return bounds
    }

    /// Resets the made and reused counters (the start of a frame's plan).
    func resetCounters() {
        lock.lock()
        (made, reused) = (0, 0)
        lock.unlock()
    }

    /// The counters as they stand.
    var counters: (made: Int, reused: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (made, reused)
    }

    /// Lets the least recently used pictures go until the cache holds at most three quarters of its budget. Lock held.
    private func evict() {
        let oldestFirst = entries.sorted { $0.value.lastUse < $1.value.lastUse }
        for (slot, entry) in oldestFirst where pixels > budget * 3 / 4 {
            entries[slot] = nil
            pixels -= entry.picture.image.width * entry.picture.image.height
        }
    }
}
