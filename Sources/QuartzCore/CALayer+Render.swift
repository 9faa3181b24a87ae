import CoreGraphics
import Foundation
import LaminaCore
import LaminaCPU
import LaminaDrawing
import LaminaLayers

extension Layer {
    /// Core Animation's `render(in:)`: draws the layer and its whole tree (every feature: contents, borders, rounded
    /// corners, masks, shadows, sublayers) into `ctx`, from the model values (not the presentation: animations in
    /// flight are not applied, as on Apple platforms).
    ///
    /// Layer point (x, y) of the bounds space, with `bounds.origin` at the context's user-space origin, lands on
    /// user-space point (x - bounds.minX, y - bounds.minY) through the context's current transformation matrix and
    /// clip. On a bitmap context (user space y up, origin at the bottom-left) the picture is therefore upside down in
    /// memory, exactly as `render(in:)` into a raw `CGBitmapContext` on iOS; flip the CTM
    /// (`translateBy(x: 0, y: height)`, `scaleBy(x: 1, y: -1)`) for an upright picture.
    ///
    /// The tree is planned (as a frame is) and drawn by the CPU renderer into an image at the CTM's scale (so it is
    /// sharp on a scaled context), which is then drawn into the context. The layer's own position, transform and
    /// opacity are left out, as for the root of any render; its sublayers' apply.
    public func render(in ctx: CGContext) {
        let m = ctx.ctm
        // Device pixels per user-space unit: the larger of the CTM's two axis scales.
        let measured = max((m.a * m.a + m.b * m.b).squareRoot(), (m.c * m.c + m.d * m.d).squareRoot())
        var scale = measured.isFinite && measured > 0 ? measured : 1
        let size = bounds.size
        guard size.width > 0, size.height > 0, size.width.isFinite, size.height.isFinite else { return }
        // Keep the picture within the pixel limits: a huge CTM scale draws at the largest scale that fits.
        let largest = CGFloat(PixelLimits.default.maxDimension)
        scale = min(scale, largest / size.width, largest / size.height)
        guard scale > 0 else { return }
        let renderer = CPURenderer()
        do {
            let planner = renderer.rasterizingPlanner(scale: scale)
            let snapshot = try modelSnapshotForRender()
            let plan = try planner.plan(snapshot, cache: nil)
            let image = try renderer.render(plan)
            let rect = CGRect(x: 0, y: 0, width: CGFloat(image.width) / scale, height: CGFloat(image.height) / scale)
            ctx.drawTopDown(image, in: rect)
        } catch {
            // Nothing is drawn for a tree that cannot be planned (an empty or too large layer).
        }
    }
}
