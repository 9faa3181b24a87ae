import Foundation
import LaminaCore

// shouldRasterize (docs/semantics.md, "Rasterized layers"): the layer and its subtree are planned on their own in the
// layer's space at rasterizationScale pixels per point, drawn once into an image by the renderer that draws the frame
// (`Planner.rasterizer`), and that image is composited with the layer's map to the target as one texture quad. The
// image is kept in the plan cache while the subtree's content is the same, so an unchanged rasterized subtree is not
// drawn again.

/// A rasterized layer's picture as last drawn, and what it was drawn from.
struct RasterizedPicture {
    var version: UInt64
    var scale: CGFloat
    /// The picture's rectangle in whole pixels of the rasterization grid (pixel = point x scale).
    var pixels: PixelBox
    var image: Image
}

extension Planner {
    /// Plans `visit`'s layer as its rasterized picture: one texture quad over the picture's rectangle in the layer's
    /// space. Returns false when there is no rasterizer (a plan made without a renderer draws the layer as usual).
    func planRasterized(_ visit: Visit, opacity: Float, into plan: inout RenderPlan, run: PlanRun) throws -> Bool {
        guard let rasterizer else { return false }
        let layer = visit.layer
        let scale = layer.rasterizationScale.isFinite && layer.rasterizationScale > 0 ? layer.rasterizationScale : 1
        guard let extent = Self.rasterExtent(of: layer) else { return true }
        let box = PixelBox(x0: Int(saturating: (extent.minX * scale).rounded(.down)),
                           y0: Int(saturating: (extent.minY * scale).rounded(.down)),
                           x1: Int(saturating: (extent.maxX * scale).rounded(.up)),
                           y1: Int(saturating: (extent.maxY * scale).rounded(.up)))
        let (width, height) = (box.x1 - box.x0, box.y1 - box.y0)
        guard width > 0, height > 0 else { return true }
        if width > limits.maxDimension || height > limits.maxDimension
            || limits.violation(width: width, height: height) != nil
        {
            throw PlanError.effectTooLarge(
                "the rasterized picture of layer \(layer.name ?? "\(layer.id)") (\(width)x\(height) pixels at "
                    + "rasterizationScale \(scale)) exceeds the pixel limits")
        }
        let image: Image
        if let kept = run.lastRasterized(layer.id), kept.version == layer.contentVersion, kept.scale == scale,
            kept.pixels == box
        {
            image = kept.image
            run.statistics.rasterizationsReused += 1
            run.keepRasterized(kept, for: layer.id)
        } else {
            var inner = self
            inner.rasterizingRoot = layer.id
            let toPicture = Matrix3.translation(-CGFloat(box.x0) / scale, -CGFloat(box.y0) / scale)
                .concatenating(.scale(scale, scale))
            var picture = try inner.plan(layer, rootToTarget: toPicture, width: width, height: height,
                                         silhouette: false, run: PlanRun(cache: nil), caching: false)
            picture.groups = RenderPlan.ordered(picture.groups)
            image = try rasterizer(picture)
            run.statistics.rasterizationsDrawn += 1
            run.keepRasterized(RasterizedPicture(version: layer.contentVersion, scale: scale, pixels: box,
                                                 image: image), for: layer.id)
        }
        let rect = CGRect(x: CGFloat(box.x0) / scale, y: CGFloat(box.y0) / scale, width: CGFloat(width) / scale,
                          height: CGFloat(height) / scale)
        let unitToTarget = Matrix3.unitSquare(to: rect).concatenating(visit.layerToTarget)
        let unitToTexel = Matrix3.scale(CGFloat(width), CGFloat(height))
        let (filter, lod) = chooseFilter(layer, unitToTarget: unitToTarget, unitToTexel: unitToTexel)
        plan.quads.appendDrawable(Quad(
            unitToTarget: unitToTarget,
            paint: .texture(TextureSource(image: image, unitToTexel: unitToTexel,
                                          clamp: TexelRect(x0: 0, y0: 0, x1: width, y1: height), filter: filter,
                                          mipLevel: lod)),
            opacity: opacity, clip: visit.clip, antialiasedEdges: layer.allowsEdgeAntialiasing ? .all : [],
            layerName: layer.name, layerID: layer.id))
        return true
    }

    /// What a rasterized layer's picture covers, in its own space: its bounds, with its descendants' bounds where
    /// no masksToBounds cuts them (mapped through their 2D or projective maps, those behind the eye left out) and
    /// every shadow's reach (offset, and three times shadowRadius). Nil when nothing can be seen.
    static func rasterExtent(of root: LayerSnapshot) -> CGRect? {
        var extent = CGRect.null
        var stack: [(LayerSnapshot, Matrix3)] = [(root, .identity)]
        while let (layer, toRoot) = stack.popLast() {
            guard !layer.isHidden else { continue }
            var rects = [layer.bounds]
            if layer.shadowOpacity > 0, layer.shadowColor != nil {
                let reach = 3 * (layer.shadowRadius.isFinite ? max(layer.shadowRadius, 0) : 0) + 1
                let dx = layer.shadowOffset.width.isFinite ? layer.shadowOffset.width : 0
                let dy = layer.shadowOffset.height.isFinite ? layer.shadowOffset.height : 0
                // The shadow follows the subtree: widen by it around the layer's own and, below, each descendant's.
                rects.append(layer.bounds.offsetBy(dx: dx, dy: dy).insetBy(dx: -reach, dy: -reach))
            }
            for rect in rects where rect.width > 0 && rect.height > 0 {
                let corners = [CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
                               CGPoint(x: rect.maxX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.maxY)]
                let mapped = corners.map { toRoot.apply($0) }
                guard mapped.allSatisfy({ $0.w > 1e-9 }) else { continue }
                for point in mapped {
                    let p = point.projected
                    guard p.x.isFinite, p.y.isFinite else { continue }
                    extent = extent.union(CGRect(x: p.x, y: p.y, width: 0, height: 0))
                }
            }
            guard !layer.masksToBounds, layer.state.replicator == nil else { continue }
            let space = layer.sublayerTransformAboutAnchor
            for child in layer.sublayers where !child.isHidden {
                stack.append((child, child.mapToSuperlayer(sublayerSpace: space).concatenating(toRoot)))
            }
        }
        guard !extent.isNull, extent.width > 0, extent.height > 0 else { return nil }
        return extent
    }
}

extension PlanRun {
    /// The picture drawn for the rasterized layer `id` in the last plan, and records the one used in this plan.
    func lastRasterized(_ id: LayerID) -> RasterizedPicture? { cache?.rasterized[id] }
}
