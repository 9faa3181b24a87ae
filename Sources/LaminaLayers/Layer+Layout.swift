import Foundation
import LaminaCore

// Layout, as Core Animation's (docs/porting-layers.md): a layer is marked when its bounds' size changes, when a
// sublayer is added or removed, or by setNeedsLayout(); the marked layers are laid out (`layoutSublayers()`,
// superlayers before their sublayers) before a transaction commits, before a frame of their tree takes its
// snapshot, and by layoutIfNeeded().

extension Layer {
    /// Marks the layer for layout: its `layoutSublayers()` runs before the transaction commits (or the next frame,
    /// or `layoutIfNeeded()`).
    public func setNeedsLayout() {
        ModelLock.shared.withLock { markNeedsLayoutLocked() }
    }

    /// Whether the layer is marked for layout and has not been laid out since.
    public func needsLayout() -> Bool {
        ModelLock.shared.withLock { needsLayoutFlag }
    }

    /// Lays out now, as CALayer's `layoutIfNeeded()`: from the highest of the layer's superlayers that are marked
    /// one after another above it (else the layer itself), every marked layer of that subtree, superlayers first.
    public func layoutIfNeeded() {
        let top = ModelLock.shared.withLock { () -> Layer in
            var top: Layer = self
            var node = modelSuperlayer
            while let current = node, current.needsLayoutFlag {
                top = current
                node = current.modelSuperlayer
            }
            return top
        }
        var pending: [Layer] = [top]
        while let layer = pending.popLast() {
            layer.layoutIfMarked()
            pending.append(contentsOf: ModelLock.shared.withLock { layer.modelSublayers.reversed() })
        }
    }

    /// Marks the layer for layout. Model lock held.
    func markNeedsLayoutLocked() {
        needsLayoutFlag = true
        Layer.markedForLayout[ObjectIdentifier(self)] = LayoutMark(
            layer: self, thread: ObjectIdentifier(ThreadTransactions.current))
    }

    /// Runs `layoutSublayers()` if the layer is marked, and clears the mark.
    private func layoutIfMarked() {
        let marked = ModelLock.shared.withLock { () -> Bool in
            guard needsLayoutFlag else { return false }
            needsLayoutFlag = false
            Layer.markedForLayout[ObjectIdentifier(self)] = nil
            return true
        }
        if marked { layoutSublayers() }
    }

    /// Lays out the marked layers, superlayers before sublayers, until none is marked (a layout may mark others: a
    /// sublayer it resizes): those of the model tree of `root` (a frame's), or with no root those the calling
    /// thread marked (a commit's: its transaction changed them). Not from inside a layout on this thread (a
    /// `layoutSublayers()` that commits).
    static func layoutMarkedLayers(under root: Layer? = nil) {
        let thread = ThreadTransactions.current
        guard !thread.layingOut else { return }
        thread.layingOut = true
        defer { thread.layingOut = false }
        let threadID = ObjectIdentifier(thread)
        // Bounded: a layout that marks its own layer again every time would otherwise never end.
        for _ in 0..<64 {
            let marked = ModelLock.shared.withLock { markedForLayoutLocked(under: root, thread: threadID) }
            if marked.isEmpty { return }
            for layer in marked { layer.layoutIfMarked() }
        }
    }

    /// The marked layers (under `root`), ordered by depth in the model tree, then by id. Linear in the layers
    /// visited: each depth is found once. Model lock held.
    private static func markedForLayoutLocked(under root: Layer?, thread: ObjectIdentifier) -> [Layer] {
        guard !markedForLayout.isEmpty else { return [] }
        // For each layer visited: its depth, and whether root is it or above it.
        var known: [ObjectIdentifier: (depth: Int, underRoot: Bool)] = [:]
        var found: [(layer: Layer, depth: Int)] = []
        for (key, entry) in markedForLayout {
            guard let layer = entry.layer, layer.needsLayoutFlag else {
                markedForLayout[key] = nil
                continue
            }
            if root == nil, entry.thread != thread { continue }
            var path: [Layer] = []
            var node: Layer? = layer
            var base: (depth: Int, underRoot: Bool) = (-1, false)
            while let current = node {
                if let seen = known[ObjectIdentifier(current)] {
                    base = seen
                    break
                }
                path.append(current)
                node = current.modelSuperlayer ?? current.maskOwner
            }
            var (depth, underRoot) = base
            for current in path.reversed() {
                depth += 1
                underRoot = underRoot || current === root
                known[ObjectIdentifier(current)] = (depth, underRoot)
            }
            if root == nil || underRoot { found.append((layer, depth)) }
        }
        return found.sorted { $0.depth != $1.depth ? $0.depth < $1.depth : $0.layer.id < $1.layer.id }.map(\.layer)
    }

    /// Layers marked for layout and not laid out yet, held weakly. Model lock held to touch it.
    nonisolated(unsafe) static var markedForLayout: [ObjectIdentifier: LayoutMark] = [:]
}

/// A layer marked for layout, and the thread (its `ThreadTransactions`) that marked it last.
struct LayoutMark {
    weak var layer: Layer?
    var thread: ObjectIdentifier
}
