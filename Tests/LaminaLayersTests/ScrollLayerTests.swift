import Foundation
import LaminaCore
@testable import LaminaLayers
import Testing

/// Scroll layers (docs/semantics.md, "Scroll layers"): CAScrollLayer's scroll calls move the bounds' origin within
/// scrollMode; CALayer's scroll(_:), scrollRectToVisible(_:) and visibleRect go through the nearest scroll layer.
@Suite struct ScrollLayerTests {
    /// A 100 x 80 scroll layer at (10, 10) of a root, its bounds at `origin`, over a 400 x 300 content layer whose
    /// item is a 20 x 20 square at (200, 150) of the content.
    func scene(mode: ScrollLayerScrollMode = .both, origin: CGPoint = .zero) -> (Layer, ScrollLayer, Layer, Layer) {
        Transaction.begin()
        Transaction.setDisableActions(true)
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        let scroller = ScrollLayer()
        scroller.scrollMode = mode
        scroller.anchorPoint = .zero
        scroller.position = CGPoint(x: 10, y: 10)
        scroller.bounds = CGRect(origin: origin, size: CGSize(width: 100, height: 80))
        let content = Layer(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
        let item = Layer(frame: CGRect(x: 200, y: 150, width: 20, height: 20))
        content.addSublayer(item)
        scroller.addSublayer(content)
        root.addSublayer(scroller)
        Transaction.commit()
        return (root, scroller, content, item)
    }

    @Test func defaultsAreCoreAnimations() {
        let scroller = ScrollLayer()
        #expect(scroller.scrollMode == .both)
        #expect(scroller.masksToBounds, "a scroll layer clips to its bounds unless told otherwise")
        #expect(ScrollLayer.defaultValue(forKey: "masksToBounds") as? Bool == true)
        #expect(Layer.defaultValue(forKey: "masksToBounds") as? Bool == false)
        #expect(ScrollLayerScrollMode.allModes.map(\.rawValue) == ["none", "horizontally", "vertically", "both"])
        #expect(scroller.value(forKey: "scrollMode") as? ScrollLayerScrollMode == .both)
        scroller.setValue("vertically", forKey: "scrollMode")
        #expect(scroller.scrollMode == .vertically)
        #expect(TransformLayer().masksToBounds == false)
    }

    @Test func scrollToAPointMovesTheAxesTheModeAllows() {
        let cases: [(ScrollLayerScrollMode, CGPoint)] = [
            (.both, CGPoint(x: 30, y: 40)), (.horizontally, CGPoint(x: 30, y: 5)), (.vertically, CGPoint(x: 7, y: 40)),
            (.none, CGPoint(x: 7, y: 5)), (ScrollLayerScrollMode(rawValue: "diagonally"), CGPoint(x: 7, y: 5)),
        ]
        for (mode, expected) in cases {
            let (_, scroller, _, _) = scene(mode: mode, origin: CGPoint(x: 7, y: 5))
            scroller.scroll(to: CGPoint(x: 30, y: 40))
            #expect(scroller.bounds.origin == expected, "\(mode.rawValue)")
            #expect(scroller.bounds.size == CGSize(width: 100, height: 80), "the size stays")
        }
        // A coordinate that is not finite leaves its axis alone.
        let (_, scroller, _, _) = scene(origin: CGPoint(x: 7, y: 5))
        scroller.scroll(to: CGPoint(x: CGFloat.nan, y: 12))
        #expect(scroller.bounds.origin == CGPoint(x: 7, y: 12))
        scroller.scroll(to: CGPoint(x: 1, y: CGFloat.infinity))
        #expect(scroller.bounds.origin == CGPoint(x: 1, y: 12))
    }

    @Test func scrollToARectScrollsAsLittleAsPossible() {
        let (_, scroller, _, _) = scene(origin: CGPoint(x: 100, y: 100))
        // Inside: nothing moves.
        scroller.scroll(to: CGRect(x: 120, y: 110, width: 20, height: 20))
        #expect(scroller.bounds.origin == CGPoint(x: 100, y: 100))
        // Beyond the max edges: those edges come to the rect.
        scroller.scroll(to: CGRect(x: 250, y: 200, width: 30, height: 10))
        #expect(scroller.bounds.origin == CGPoint(x: 180, y: 130))
        // Before the min edges: the min edges come to it.
        scroller.scroll(to: CGRect(x: 20, y: 40, width: 10, height: 10))
        #expect(scroller.bounds.origin == CGPoint(x: 20, y: 40))
        // Longer than the bounds: its start is shown.
        scroller.scroll(to: CGRect(x: 50, y: 60, width: 300, height: 200))
        #expect(scroller.bounds.origin == CGPoint(x: 50, y: 60))
        // The mode limits it too; a null rect moves nothing.
        scroller.scrollMode = .vertically
        scroller.scroll(to: CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(scroller.bounds.origin == CGPoint(x: 50, y: 0))
        scroller.scroll(to: CGRect.null)
        #expect(scroller.bounds.origin == CGPoint(x: 50, y: 0))
        // scroll(_:) of a rectangle is the same call.
        scroller.scrollMode = .both
        scroller.scroll(CGRect(x: 400, y: 300, width: 20, height: 20))
        #expect(scroller.bounds.origin == CGPoint(x: 320, y: 240))
    }

    @Test func aSublayerScrollsTheNearestScrollLayer() {
        let (_, scroller, content, item) = scene()
        #expect(item.enclosingScrollLayer === scroller && content.enclosingScrollLayer === scroller)
        #expect(scroller.enclosingScrollLayer == nil, "only ancestors count")
        // The item's own (0, 0) becomes the scroll layer's bounds origin: (200, 150) in its space.
        item.scroll(CGPoint(x: 0, y: 0))
        #expect(scroller.bounds.origin == CGPoint(x: 200, y: 150))
        content.scroll(CGPoint(x: 15, y: 25))
        #expect(scroller.bounds.origin == CGPoint(x: 15, y: 25))
        // The item (200...220, 150...170) comes in at the max edges: origin (120, 90).
        item.scrollRectToVisible(item.bounds)
        #expect(scroller.bounds.origin == CGPoint(x: 120, y: 90))
        // Without a scroll layer above nothing happens.
        let lone = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        lone.scroll(CGPoint(x: 5, y: 5))
        lone.scrollRectToVisible(CGRect(x: 0, y: 0, width: 50, height: 50))
        #expect(lone.bounds.origin == .zero)
    }

    @Test func visibleRectIsWhatTheScrollLayerShows() {
        let (root, scroller, content, item) = scene(origin: CGPoint(x: 150, y: 100))
        // The scroll layer shows content (150...250, 100...180): the item's part (200...220, 150...170) whole.
        #expect(item.visibleRect == CGRect(x: 0, y: 0, width: 20, height: 20))
        #expect(content.visibleRect == CGRect(x: 150, y: 100, width: 100, height: 80))
        scroller.scroll(to: CGPoint(x: 210, y: 160))
        #expect(item.visibleRect == CGRect(x: 10, y: 10, width: 10, height: 10))
        scroller.scroll(to: CGPoint(x: 0, y: 0))
        #expect(item.visibleRect.isNull || item.visibleRect.isEmpty, "scrolled out of sight")
        // Without a scroll layer above: the bounds.
        #expect(root.visibleRect == root.bounds && scroller.visibleRect == scroller.bounds)
    }

    @Test func scrollingAnimatesImplicitlyAsABoundsChange() {
        let (_, scroller, _, _) = scene()
        _ = scroller.presentationSnapshot(at: 0)
        scroller.scroll(to: CGPoint(x: 40, y: 20))
        let animation = scroller.animation(forKey: "bounds") as? BasicAnimation
        #expect(animation != nil, "a drawn scroll layer's scroll is an implicit bounds animation")
        #expect(scroller.bounds.origin == CGPoint(x: 40, y: 20), "the model has the new origin at once")
        Transaction.flush()
    }

    @Test func aPresentationCopyIsAScrollLayerWithItsMode() throws {
        let (_, scroller, _, _) = scene(mode: .horizontally)
        _ = scroller.presentationSnapshot(at: 0)
        let copy = try #require(scroller.presentation())
        #expect((copy as? ScrollLayer)?.scrollMode == .horizontally)
        let transform = TransformLayer()
        transform.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        Transaction.flush()
        _ = transform.presentationSnapshot(at: 0)
        #expect(transform.presentation() is TransformLayer)
    }
}
