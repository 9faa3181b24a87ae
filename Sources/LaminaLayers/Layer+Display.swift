import Foundation
import LaminaCore
import LaminaDrawing

// Custom drawing (docs/semantics.md, "Custom drawing"): a layer marked with setNeedsDisplay() is drawn once, by
// display(), when a frame of its tree is prepared, on that frame's thread, and its drawing is kept as `contents`
// until it is marked again. Each drawing goes into a new image (copy on write): an image that a plan still being
// drawn, or a snapshot another thread holds, may read is never written again.

extension Layer {
    /// Marks the layer to be drawn again before it is next rendered.
    public func setNeedsDisplay() {
        markForDisplay(nil)
    }

    /// Marks part of the layer (`rect`, in its space) for drawing: a tiled layer draws again only the tiles `rect`
    /// meets (TiledLayer.swift); any other layer is drawn again whole.
    public func setNeedsDisplay(_ rect: CGRect) {
        markForDisplay(rect)
    }

    private func markForDisplay(_ rect: CGRect?) {
        ModelLock.shared.withLock {
            (self as? TiledLayer)?.noteNeedsDisplayLocked(rect)
            needsDisplayFlag = true
            Layer.markedForDisplay[ObjectIdentifier(self)] = WeakLayer(layer: self)
        }
    }

    /// Draws the layer now if it is marked (frames call this on each visible marked layer before their snapshot).
    public func displayIfNeeded() {
        let marked = ModelLock.shared.withLock {
            defer { needsDisplayFlag = false }
            Layer.markedForDisplay[ObjectIdentifier(self)] = nil
            return needsDisplayFlag
        }
        if marked { display() }
    }

    /// The standard drawing path: a new transparent backing image of ceil(bounds.size x contentsScale) pixels, a
    /// context on it whose user space is the bounds (bounds.origin at the top-left pixel corner, points scaled
    /// by contentsScale, clipped to the bounds), `draw(in:)`, and the image as `contents`.
    /// A zero-area bounds draws nothing and leaves no contents. The image is always a new one, never the previous
    /// drawing's, which a frame in flight on another thread may still be reading.
    public func displayIntoBackingImage() {
        delegate?.layerWillDraw(self)
        let (bounds, contentsScale) = read { ($0.bounds, $0.contentsScale) }
        ModelLock.shared.withLock { lastDisplayError = nil }
        let scale = contentsScale.isFinite && contentsScale > 0 ? contentsScale : 1
        let width = (bounds.width * scale).rounded(.up), height = (bounds.height * scale).rounded(.up)
        guard width.isFinite, height.isFinite, width >= 1, height >= 1 else {
            let previous = ModelLock.shared.withLock { () -> Image? in
                defer { backingImage = nil }
                return backingImage
            }
            if let previous, (contents as? Image) === previous { contents = nil }
            return
        }
        do {
            guard width <= CGFloat(PixelLimits.default.maxDimension), height <= CGFloat(PixelLimits.default.maxDimension)
            else {
                throw ImageError.tooLarge(
                    width: Int(min(width, 1e9)), height: Int(min(height, 1e9)),
                    reason: String(format: "%.0fx%.0f pixels exceeds the limit of %d pixels per side",
                                   Double(width), Double(height), PixelLimits.default.maxDimension))
            }
            let image = try Image(width: Int(width), height: Int(height))
            let context = try DrawingContext(image: image, scale: scale)
            context.translateBy(x: -bounds.minX, y: -bounds.minY)
            context.clip(to: bounds)
            draw(in: context)
            context.flush()
            if let failure = context.failure {
                let message = "\(debugName): cannot draw its contents: \(failure)"
                ModelLock.shared.withLock { lastDisplayError = message }
            }
            ModelLock.shared.withLock { backingImage = image }
            contents = image
        } catch {
            let message = "\(debugName): cannot draw its contents: \(error)"
            ModelLock.shared.withLock { lastDisplayError = message }
        }
    }

    /// The tree as `render(in:)` draws it: the model values (every thread's implicit transaction committed, the
    /// marked layers drawn), with no animation applied, as Core Animation's `render(in:)` draws the model tree.
    public func modelSnapshotForRender() throws -> LayerSnapshot {
        try snapshotForFrame()
    }

    /// What a frame of this tree starts with: the marked layers of the tree laid out, every thread's implicit
    /// transaction committed, the marked layers of the committed tree that can be seen drawn (on this thread, in a
    /// transaction of their own, committed), and the snapshot of the committed tree. `presentingAt`: the media
    /// time of the frame, at which layers with a running animation of a key that needs display
    /// (`needsDisplay(forKey:)`) are drawn again with the values they present; nil: no such drawing.
    func snapshotForFrame(presentingAt time: Double? = nil) throws -> LayerSnapshot {
        Layer.layoutMarkedLayers(under: self)
        Transaction.commitImplicitTransactions()
        let (marked, presenting) = ModelLock.shared.withLock { () -> ([Layer], [ObjectIdentifier: LayerState]) in
            let presenting = time.map { animatedDisplaysLocked(at: $0) } ?? [:]
            return (markedForDisplayLocked(), presenting)
        }
        if !marked.isEmpty {
            let thread = ThreadTransactions.current
            let outer = thread.presenting
            thread.presenting = presenting
            defer { thread.presenting = outer }
            try Transaction.detached {
                // A layer's own drawing replaces its backing store: it does not cross-dissolve (as in Core
                // Animation, where drawing is not a change of the contents property).
                Transaction.setDisableActions(true)
                for layer in marked {
                    let before = layer.displayCount
                    layer.displayIfNeeded()
                    if layer.displayCount != before,
                        let error = ModelLock.shared.withLock({ layer.lastDisplayError })
                    {
                        throw PlanError.drawingFailed(error)
                    }
                }
            }
        }
        return ModelLock.shared.withLock { snapshotLocked() }
    }

    /// Registers the layer as one whose animations of `keys` (keys that need display) make frames draw it again.
    func registerAnimatedDisplay(keys: Set<String>) {
        ModelLock.shared.withLock {
            let id = ObjectIdentifier(self)
            var entry = Layer.animatedDisplays[id] ?? AnimatedDisplay(layer: self)
            if entry.layer !== self { entry = AnimatedDisplay(layer: self) }
            entry.keys.formUnion(keys)
            Layer.animatedDisplays[id] = entry
        }
    }

    /// The registered layers of this tree with a committed animation of a key that needs display: each is marked
    /// for drawing, and its state as presented at media time `time` is given, for `value(forKey:)` while it draws.
    /// A layer whose animations of those keys are gone is drawn once more with its own values and forgotten.
    /// Model lock held.
    private func animatedDisplaysLocked(at time: Double) -> [ObjectIdentifier: LayerState] {
        guard !Layer.animatedDisplays.isEmpty else { return [:] }
        var presenting: [ObjectIdentifier: LayerState] = [:]
        for (id, entry) in Layer.animatedDisplays {
            guard let layer = entry.layer else {
                Layer.animatedDisplays[id] = nil
                continue
            }
            // In this tree (committed), with the time of its superlayer on the way.
            var chain: [MediaTiming] = []
            var node: Layer? = layer.committedParent
            while let current = node, current !== self {
                chain.append(current.committed.timing)
                node = current.committedParent
            }
            guard layer === self || node === self else { continue }
            if layer !== self { chain.append(committed.timing) }
            func animates(_ animations: [AttachedAnimation]) -> Bool {
                animations.contains { $0.animation.animatesKey(in: entry.keys) }
            }
            if animates(layer.committed.animations) {
                let local = layer.committed.timing.localTime(parent: chain.reversed().reduce(time) {
                    $1.localTime(parent: $0)
                })
                presenting[id] = layer.presentedStateLocked(at: local)
                layer.needsDisplayFlag = true
                Layer.markedForDisplay[id] = WeakLayer(layer: layer)
                Layer.animatedDisplays[id]?.drawnPresented = true
            } else if !animates(layer.model.animations) {
                if entry.drawnPresented {
                    layer.needsDisplayFlag = true
                    Layer.markedForDisplay[id] = WeakLayer(layer: layer)
                }
                Layer.animatedDisplays[id] = nil
            }
        }
        return presenting
    }

    /// Layers with animations of keys that need display (`needsDisplay(forKey:)`), held weakly. Model lock held to
    /// touch it.
    nonisolated(unsafe) static var animatedDisplays: [ObjectIdentifier: AnimatedDisplay] = [:]

    /// The marked layers in this layer's committed tree that a frame can see (neither they nor an ancestor hidden
    /// or at opacity 0), in an order that is the same from run to run. Model lock held.
    private func markedForDisplayLocked() -> [Layer] {
        guard !Layer.markedForDisplay.isEmpty else { return [] }
        var found: [Layer] = []
        for (key, entry) in Layer.markedForDisplay {
            guard let layer = entry.layer else {
                Layer.markedForDisplay[key] = nil
                continue
            }
            var node: Layer? = layer
            var seen = true
            while let current = node {
                if current.committed.isHidden || !(current.committed.opacity > 0) {
                    seen = false
                    break
                }
                if current === self { break }
                node = current.committedParent
            }
            if seen, node === self { found.append(layer) }
        }
        return found.sorted { $0.id < $1.id }
    }

    /// Layers marked with setNeedsDisplay() and not drawn yet, held weakly (a marked layer that is let go is not
    /// kept for a drawing that will never be needed). Model lock held to touch it.
    nonisolated(unsafe) static var markedForDisplay: [ObjectIdentifier: WeakLayer] = [:]
}

struct AnimatedDisplay {
    weak var layer: Layer?
    /// The animated keys that need display.
    var keys: Set<String> = []
    /// A frame has drawn the layer with presented values (so it must be drawn once more when they are gone).
    var drawnPresented = false
}

struct WeakLayer {
    weak var layer: Layer?
}
