import Foundation
import Lamina

/// The scene of `lamina bench --tiled-pan` (docs/benchmarks.md, "Tiled layers"): a tiled layer of 1,000,000 x
/// 1,000,000 points, drawn in 256-pixel tiles by a drawing of a grid of squares, circles and lines (about what a map
/// tile costs), panned diagonally by a fixed step before each frame.
public final class TiledPan {
    public let root: Layer
    public let tiled: TiledLayer
    public let size: CGSize
    /// Points moved per frame, right and down.
    public static let step = CGPoint(x: 37, y: 23)
    private let drawing = Drawing()

    /// The drawing: every 64-point cell a tinted square with a circle, and a line along each cell's top and left.
    final class Drawing: LayerDelegate, @unchecked Sendable {
        func draw(_ layer: Layer, in context: DrawingContext) {
            let box = context.boundingBoxOfClipPath
            let cell: CGFloat = 64
            guard box.width / cell < 256, box.height / cell < 256 else {
                context.setFillColor(Color(red: 0.8, green: 0.85, blue: 0.9))
                context.fill(box)
                return
            }
            var y = (box.minY / cell).rounded(.down) * cell
            while y < box.maxY {
                var x = (box.minX / cell).rounded(.down) * cell
                while x < box.maxX {
                    let hue = (x * 7 + y * 13).truncatingRemainder(dividingBy: 255) / 255
                    context.setFillColor(Color(red: 0.3 + 0.5 * hue, green: 0.6, blue: 0.9 - 0.5 * hue))
                    context.fill(CGRect(x: x, y: y, width: cell, height: cell))
                    context.setFillColor(Color(red: 1, green: 1, blue: 1, alpha: 0.6))
                    context.fillEllipse(in: CGRect(x: x + 12, y: y + 12, width: cell - 24, height: cell - 24))
                    context.setStrokeColor(Color(red: 0.1, green: 0.1, blue: 0.2))
                    context.setLineWidth(1)
                    context.stroke(CGRect(x: x, y: y, width: cell, height: cell))
                    x += cell
                }
                y += cell
            }
        }
    }

    /// A pan over a `size` output; the tiles are kept under `tileBudget` bytes by the renderer's cache.
    public init(size: CGSize) {
        self.size = size
        root = Layer()
        root.bounds = CGRect(origin: .zero, size: size)
        root.backgroundColor = .white
        tiled = TiledLayer()
        tiled.anchorPoint = .zero
        tiled.bounds = CGRect(x: 0, y: 0, width: 1_000_000, height: 1_000_000)
        tiled.delegate = drawing
        tiled.fadeDuration = 0.25
        root.addSublayer(tiled)
        move(toFrame: 0)
    }

    /// Places the layer for frame `frame` (the pan starts in the middle of the layer).
    public func move(toFrame frame: Int) {
        Transaction.begin()
        Transaction.setDisableActions(true)
        tiled.position = CGPoint(x: -400_000 - Self.step.x * CGFloat(frame), y: -400_000 - Self.step.y * CGFloat(frame))
        Transaction.commit()
    }
}
