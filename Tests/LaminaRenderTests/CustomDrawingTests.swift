import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Custom drawing through a delegate or a subclass, on every renderer: drawn once, cached, redrawn when marked.
@Suite struct CustomDrawingTests {
    /// Strokes an ellipse in the layer's bounds, as in the book's example, and counts its calls.
    final class RingDelegate: LayerDelegate {
        var draws = 0
        var colour = Color.red
        func draw(_ layer: Layer, in context: DrawingContext) {
            draws += 1
            context.setStrokeColor(colour)
            context.setLineWidth(10)
            context.strokeEllipse(in: layer.bounds)
        }
    }

    /// Sets contents itself; its draw(_:in:) must never run.
    final class DisplayingDelegate: LayerDelegate {
        var drawCalls = 0
        func display(_ layer: Layer) { layer.contents = try! Image(width: 2, height: 2, color: .green) }
        func draw(_ layer: Layer, in context: DrawingContext) { drawCalls += 1 }
    }

    /// A subclass that draws itself: a filled square in the middle quarter of its bounds.
    final class SquareLayer: Layer {
        override func draw(in context: DrawingContext) {
            context.setFillColor(.blue)
            context.fill(CGRect(x: bounds.minX + bounds.width / 4, y: bounds.minY + bounds.height / 4,
                                width: bounds.width / 2, height: bounds.height / 2))
        }
    }

    func bookScene(contentsScale: CGFloat = 1) -> (Layer, Layer, RingDelegate) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        root.backgroundColor = .white
        let layer = Layer(frame: CGRect(x: 50, y: 50, width: 100, height: 100))
        layer.backgroundColor = .blue
        layer.contentsScale = contentsScale
        let delegate = RingDelegate()
        layer.delegate = delegate
        layer.setNeedsDisplay()
        root.addSublayer(layer)
        return (root, layer, delegate)
    }

    let red = RGBA8(r: 255, g: 0, b: 0, a: 255), blue = RGBA8(r: 0, g: 0, b: 255, a: 255)
    let white = RGBA8(r: 255, g: 255, b: 255, a: 255)

    @Test(arguments: [1.0, 2.0])
    func theBooksExampleOnEveryRenderer(scale: Double) throws {
        for renderer in ReferenceScenes.renderers() {
            for contentsScale in [1.0, 2.0] {
                let (root, _, delegate) = bookScene(contentsScale: contentsScale)
                // The delegate is weak, as in Core Animation: keep it alive while rendering.
                let image = try withExtendedLifetime(delegate) { try renderer.render(root, scale: scale) }
                let probe = { (x: Double, y: Double) in image.probe(CGPoint(x: x, y: y), scale: scale)! }
                let context = "\(renderer.name) at scale \(scale), contentsScale \(contentsScale)"
                #expect(probe(100, 100) == blue, "\(context): inside the ring")
                #expect(probe(100, 52) == red && probe(148, 100) == red && probe(100, 148) == red, "\(context): ring")
                #expect(probe(53, 53) == blue, "\(context): corner outside the ring")
                // The outer half of the 10-point stroke lies outside the bounds: clipped without masksToBounds.
                #expect(probe(100, 47) == white && probe(153, 100) == white, "\(context): clipped half")
            }
        }
    }

    @Test func drawingIsCachedUntilMarked() throws {
        let (root, layer, delegate) = bookScene()
        let renderers = ReferenceScenes.renderers()
        for _ in 0..<5 {
            for renderer in renderers { _ = try renderer.render(root) }
        }
        #expect(delegate.draws == 1 && layer.displayCount == 1 && !layer.needsDisplay())
        delegate.colour = .green
        layer.setNeedsDisplay()
        #expect(layer.needsDisplay())
        for renderer in renderers {
            let image = try renderer.render(root)
            #expect(image.rgba(x: 100, y: 52) == RGBA8(r: 0, g: 255, b: 0, a: 255), "\(renderer.name) sees the redraw")
        }
        #expect(delegate.draws == 2)
        // A hidden layer is not drawn even when marked.
        layer.setNeedsDisplay()
        layer.isHidden = true
        _ = try CPURenderer().render(root)
        #expect(delegate.draws == 2 && layer.needsDisplay())
    }

    @Test func boundsChangesRedrawOnlyWhenAsked() throws {
        // Changes after a frame would animate implicitly; this test checks the frame right after them.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        let (root, layer, delegate) = bookScene()
        _ = try CPURenderer().render(root)
        layer.bounds.size = CGSize(width: 80, height: 80)
        _ = try CPURenderer().render(root)
        #expect(delegate.draws == 1)
        layer.needsDisplayOnBoundsChange = true
        layer.bounds.size = CGSize(width: 60, height: 60)
        layer.bounds.origin = CGPoint(x: 5, y: 5)  // the origin alone is no change of size
        let image = try CPURenderer().render(root)
        #expect(delegate.draws == 2)
        // Now a 60 x 60 ring about the centre (100, 100): its top at y = 70 + 2.
        #expect(image.rgba(x: 100, y: 72) == red && image.rgba(x: 100, y: 100) == blue)
        #expect(layer.contentsImage?.width == 60)
    }

    @Test func aDelegateThatDisplaysTakesOver() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        let layer = Layer(frame: root.bounds)
        let delegate = DisplayingDelegate()
        layer.delegate = delegate
        layer.setNeedsDisplay()
        root.addSublayer(layer)
        let image = try CPURenderer().render(root)
        #expect(image.rgba(x: 5, y: 5) == RGBA8(r: 0, g: 255, b: 0, a: 255))
        #expect(delegate.drawCalls == 0)
    }

    @Test func subclassesDrawThemselvesWithBoundsOriginAtTheTopLeft() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        let layer = SquareLayer()
        layer.bounds = CGRect(x: 100, y: 100, width: 40, height: 40)
        layer.position = CGPoint(x: 20, y: 20)
        layer.contentsScale = 2  // drawn at the output's density, so its edges land on whole pixels
        layer.setNeedsDisplay()
        root.addSublayer(layer)
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root, scale: 2)
            #expect(image.rgba(x: 40, y: 40) == blue && image.rgba(x: 21, y: 21) == blue, "\(renderer.name)")
            #expect(image.rgba(x: 19, y: 40).a == 0 && image.rgba(x: 60, y: 40).a == 0, "\(renderer.name)")
        }
    }

    @Test func aBackingImageTooLargeIsAnErrorNamingTheLayer() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 1e9, height: 10))
        layer.name = "huge"
        let delegate = RingDelegate()
        layer.delegate = delegate
        layer.setNeedsDisplay()
        root.addSublayer(layer)
        #expect(throws: PlanError.drawingFailed(
            "layer \"huge\": cannot draw its contents: image too large: 1000000000x10 pixels exceeds the limit of 16384 pixels per side"
        )) { try CPURenderer().render(root) }
        #expect(delegate.draws == 0)
    }

    /// Copy on write: a redraw goes into a new image, so a plan or snapshot still holding the old one (another
    /// thread's frame) never sees it change; the GPU uploads the new one.
    @Test func aRedrawMakesANewBackingImageAndLeavesTheOldOneAsItWas() throws {
        let (root, layer, _) = bookScene()
        let gles = GLESAvailability.renderer()
        _ = try gles?.render(root) ?? CPURenderer().render(root)
        let first = try #require(layer.contentsImage)
        let held = try #require(layer.presentationSnapshot()?.contents)
        #expect(held === first)
        let before = Data(bytes: first.baseAddress, count: first.byteCount)
        layer.setNeedsDisplay()
        _ = try gles?.render(root) ?? CPURenderer().render(root)
        let second = try #require(layer.contentsImage)
        #expect(second !== first && second.width == first.width && second.height == first.height)
        #expect(Data(bytes: first.baseAddress, count: first.byteCount) == before)
        #expect(layer.presentationSnapshot()?.contents === second)
        if let gles { #expect(gles.textureUploads == 2) }
    }

    @Test func concatenateAppliesACGAffineTransformToUserSpace() throws {
        final class Shifted: LayerDelegate {
            var ctm = CGAffineTransform.identity
            func draw(_ layer: Layer, in context: DrawingContext) {
                context.concatenate(CGAffineTransform(translationX: 10, y: 0).scaledBy(x: 2, y: 1))
                ctm = context.ctm
                context.setFillColor(.green)
                context.fill(CGRect(x: 0, y: 0, width: 5, height: 10))
            }
        }
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 40, height: 10)
        let layer = Layer(frame: root.bounds)
        let delegate = Shifted()
        layer.delegate = delegate
        layer.contentsScale = 2
        layer.setNeedsDisplay()
        root.addSublayer(layer)
        let image = try CPURenderer().render(root, scale: 2)
        // (0...5) scaled by 2 then moved by 10 covers 10 ..< 20 points: pixels 20 ..< 40 at scale 2.
        #expect(image.rgba(x: 19, y: 5).a == 0 && image.rgba(x: 20, y: 5).g == 255 && image.rgba(x: 39, y: 5).g == 255)
        #expect(image.rgba(x: 40, y: 5).a == 0)
        #expect(delegate.ctm == CGAffineTransform(a: 4, b: 0, c: 0, d: 2, tx: 20, ty: 0))
    }
}
