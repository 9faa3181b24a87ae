import Foundation
import LaminaCore

/// The axes a scroll layer may be scrolled along (CAScrollLayerScrollMode): Core Animation's strings, `both` by
/// default. A value of any other string scrolls along neither axis.
public struct ScrollLayerScrollMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The scroll calls change nothing.
    public static let none = ScrollLayerScrollMode(rawValue: "none")
    /// Only the x of the bounds' origin moves.
    public static let horizontally = ScrollLayerScrollMode(rawValue: "horizontally")
    /// Only the y of the bounds' origin moves.
    public static let vertically = ScrollLayerScrollMode(rawValue: "vertically")
    /// Both move (the default).
    public static let both = ScrollLayerScrollMode(rawValue: "both")

    /// Core Animation's four modes, in the order of its documentation.
    public static let allModes: [ScrollLayerScrollMode] = [.none, .horizontally, .vertically, .both]

    /// Whether the scroll calls may move x (`horizontal`) or y.
    func allows(horizontal: Bool) -> Bool {
        self == .both || self == (horizontal ? .horizontally : .vertically)
    }
}

/// A layer that shows part of its sublayers through its bounds (CAScrollLayer; docs/semantics.md, "Scroll layers"):
/// scrolling moves `bounds.origin`, which moves every sublayer at once. `masksToBounds` is true by default, so the
/// bounds are a window onto the sublayers, as in Core Animation. `scrollMode` limits which axes the scroll calls
/// move; a bounds origin set directly (or in a scene file) is taken as given. Scrolling is a change of `bounds`, so
/// it animates implicitly like any bounds change.
open class ScrollLayer: Layer, @unchecked Sendable {
    override class var styleKeys: [String: StyleKey] { ScrollLayer.ownStyleKeys }

    public override init() {
        super.init()
        becomeScrollLayer(mode: .both, clipping: true)
    }

    /// A copy of `layer` (a presentation copy, as Core Animation makes them): its properties and, when it is a
    /// scroll layer, its scroll mode; `masksToBounds` is copied as it is.
    public override init(layer: Any) {
        super.init(layer: layer)
        if model.scrollMode == nil { becomeSpecial(.scroll(.both)) } else { committed.special = model.special }
    }

    /// NSCoding's initialiser (Lamina does not archive layers): a layer with the defaults.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        becomeScrollLayer(mode: .both, clipping: true)
    }

    /// `masksToBounds` is true for a scroll layer unless set, as CAScrollLayer's.
    open override class func defaultValue(forKey key: String) -> Any? {
        key == "masksToBounds" ? true : super.defaultValue(forKey: key)
    }

    /// Which axes `scroll(to:)` may move: `.both` by default.
    public var scrollMode: ScrollLayerScrollMode {
        get { read { $0.scrollMode ?? .both } }
        set { writeStyle(key: nil) { $0.scrollMode = newValue } }
    }

    /// Scrolls so that `p` (in the layer's own space) is the bounds' origin, along the axes `scrollMode` allows
    /// (CAScrollLayer's `scroll(to:)`). A coordinate that is not finite leaves its axis as it is.
    open func scroll(to p: CGPoint) {
        let mode = scrollMode
        var origin = bounds.origin
        if mode.allows(horizontal: true), p.x.isFinite { origin.x = p.x }
        if mode.allows(horizontal: false), p.y.isFinite { origin.y = p.y }
        moveOrigin(to: origin)
    }

    /// Scrolls as little as possible to show `r` (in the layer's own space), along the axes `scrollMode` allows
    /// (CAScrollLayer's `scroll(to:)` of a rectangle): on each axis, a rectangle wholly inside the bounds moves
    /// nothing; one beyond an edge brings that edge to it; one longer than the bounds shows its start (its min edge
    /// at the bounds' min edge). A null or non-finite rectangle scrolls nothing.
    open func scroll(to r: CGRect) {
        guard !r.isNull, r.minX.isFinite, r.minY.isFinite, r.width.isFinite, r.height.isFinite else { return }
        let mode = scrollMode
        let b = bounds
        var origin = b.origin
        if mode.allows(horizontal: true) {
            origin.x = Self.nearestStart(showing: r.minX...r.maxX, from: b.minX, length: b.width)
        }
        if mode.allows(horizontal: false) {
            origin.y = Self.nearestStart(showing: r.minY...r.maxY, from: b.minY, length: b.height)
        }
        moveOrigin(to: origin)
    }

    /// `scroll(to:)` of a rectangle under the spelling issue 25 and CALayer's `scroll(_:)` use: scrolls as little as
    /// possible to show `rect`, along the axes `scrollMode` allows.
    public func scroll(_ rect: CGRect) {
        scroll(to: rect)
    }

    /// The start of a window of `length` nearest to `start` that shows `span` (its start, when it is longer).
    static func nearestStart(showing span: ClosedRange<CGFloat>, from start: CGFloat, length: CGFloat) -> CGFloat {
        if span.upperBound - span.lowerBound >= length || span.lowerBound < start { return span.lowerBound }
        if span.upperBound > start + length { return span.upperBound - length }
        return start
    }

    /// Sets the bounds' origin (keeping the size): one change of `bounds`, with its implicit animation.
    private func moveOrigin(to origin: CGPoint) {
        let b = bounds
        guard origin != b.origin else { return }
        bounds = CGRect(origin: origin, size: b.size)
    }

    private func becomeScrollLayer(mode: ScrollLayerScrollMode, clipping: Bool) {
        becomeSpecial(.scroll(mode))
        model.masksToBounds = clipping
        committed.masksToBounds = clipping
    }
}

extension ScrollLayer {
    /// The keys of this class that the animatable key paths do not cover, for key-value coding.
    nonisolated(unsafe) static let ownStyleKeys: [String: StyleKey] = [
        "scrollMode": StyleKey(\ScrollLayer.scrollMode),
    ]
}

extension LayerState {
    /// The scroll layer's mode; nil on other layers (setting it on them does nothing).
    public var scrollMode: ScrollLayerScrollMode? {
        get { if case .scroll(let mode) = special { mode } else { nil } }
        set { if case .scroll = special, let newValue { special = .scroll(newValue) } }
    }
}

// CALayer's scrolling methods (Core Animation's CALayerScrolling category): a layer at any depth inside a scroll
// layer asks the nearest one to scroll.
extension Layer {
    /// The nearest ancestor (not the layer itself) that is a scroll layer; nil when there is none.
    public var enclosingScrollLayer: ScrollLayer? {
        var node = superlayer
        while let layer = node {
            if let scroll = layer as? ScrollLayer { return scroll }
            node = layer.superlayer
        }
        return nil
    }

    /// Scrolls the nearest ancestor scroll layer so that `p`, a point in this layer's space, is its bounds' origin
    /// (CALayer's `scroll(_:)`): `p` is converted to the scroll layer's space and passed to its `scroll(to:)`.
    /// Nothing happens without a scroll layer above, or when the point has no image there.
    public func scroll(_ p: CGPoint) {
        guard let scroller = enclosingScrollLayer else { return }
        let q = convert(p, to: scroller)
        guard q.x.isFinite, q.y.isFinite else { return }
        scroller.scroll(to: q)
    }

    /// Scrolls the nearest ancestor scroll layer as little as possible to show `r`, a rectangle in this layer's
    /// space (CALayer's `scrollRectToVisible(_:)`): its box in the scroll layer's space goes to `scroll(to:)`.
    public func scrollRectToVisible(_ r: CGRect) {
        guard let scroller = enclosingScrollLayer else { return }
        scroller.scroll(to: convert(r, to: scroller))
    }

    /// The part of this layer's bounds that the nearest ancestor scroll layer shows, in this layer's space
    /// (CALayer's `visibleRect`): the bounds intersected with the scroll layer's bounds brought into this space
    /// (their bounding box under a turn or perspective). The bounds themselves without a scroll layer above; an
    /// empty rectangle (`CGRect.null`) when none of them is shown.
    public var visibleRect: CGRect {
        let own = bounds
        guard let scroller = enclosingScrollLayer else { return own }
        let shown = convert(scroller.bounds, from: scroller)
        guard !shown.isNull else { return .null }
        return own.intersection(shown)
    }
}
