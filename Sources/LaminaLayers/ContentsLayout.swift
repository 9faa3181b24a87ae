import Foundation
import LaminaCore

/// Where a layer's contents go: the destination rectangle from contentsGravity, cut into the cells of
/// contentsCenter, each with its texture mapping and no-bleed clamp. docs/semantics.md, "Contents".
struct ContentsLayout {
    struct Cell: Equatable {
        /// The cell's destination rectangle in layer space.
        var rectInLayer: CGRect
        /// Maps the cell's unit square to texel coordinates.
        var unitToTexel: Matrix3
        /// The texels this cell may sample: those touching its source cell.
        var clamp: TexelRect
        /// The cell's edges that are edges of the whole contents (the ones antialiasing applies to).
        var outerEdges: QuadEdges = .all
    }

    /// The cells in paint order; empty when nothing is painted.
    static func cells(layer: LayerSnapshot, image: Image) -> [Cell] {
        var cells: [Cell] = []
        forEachCell(layer: layer, image: image) { cells.append($0) }
        return cells
    }

    /// Calls `body` with each cell in paint order (without collecting them: the planner's hot path).
    static func forEachCell(layer: LayerSnapshot, image: Image, _ body: (Cell) -> Void) {
        let width = CGFloat(image.width), height = CGFloat(image.height)
        guard image.width > 0, image.height > 0 else { return }
        let r = layer.contentsRect
        // The sub-image of contentsRect, in texels (may reach outside the image).
        let region = CGRect(x: r.minX * width, y: r.minY * height, width: r.width * width, height: r.height * height)
        guard region.width > 0, region.height > 0, region.minX.isFinite, region.minY.isFinite,
            region.width.isFinite, region.height.isFinite
        else { return }
        let rotated = layer.contentsAreRotated
        // Sub-image unit space (u right, v down, in the orientation shown) to texels.
        let subUnitToTexel = rotated
            ? Matrix3.affine(a: 0, b: region.height, c: -region.width, d: 0, tx: region.maxX, ty: region.minY)
            : Matrix3.unitSquare(to: region)
        let pixelSize = rotated
            ? CGSize(width: region.height, height: region.width) : CGSize(width: region.width, height: region.height)
        let contentsScale = layer.contentsScale.isFinite && layer.contentsScale > 0 ? layer.contentsScale : 1
        let sizeInPoints = CGSize(width: pixelSize.width / contentsScale, height: pixelSize.height / contentsScale)
        let gravity = layer.contentsGravity
        let destination = gravity.destination(for: sizeInPoints, in: layer.bounds)
        guard destination.width > 0, destination.height > 0 else { return }
        let regionClamp = TexelRect.touching(region, width: image.width, height: image.height)

        func cell(_ rectInLayer: CGRect, source: CGRect) -> Cell {
            let unitToTexel = Matrix3.unitSquare(to: source).concatenating(subUnitToTexel)
            let a = unitToTexel.apply(CGPoint(x: 0, y: 0)).projected, b = unitToTexel.apply(CGPoint(x: 1, y: 1)).projected
            let texels = CGRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
            var clamp = TexelRect.touching(texels, width: image.width, height: image.height)
            clamp = TexelRect(
                x0: max(clamp.x0, regionClamp.x0), y0: max(clamp.y0, regionClamp.y0),
                x1: min(clamp.x1, regionClamp.x1), y1: min(clamp.y1, regionClamp.y1))
            if clamp.isEmpty { clamp = regionClamp }
            return Cell(rectInLayer: rectInLayer, unitToTexel: unitToTexel, clamp: clamp)
        }

        let unit = CGRect(x: 0, y: 0, width: 1, height: 1)
        guard gravity.scales, layer.contentsCenter != unit else {
            body(cell(destination, source: unit))
            return
        }
        let columns = Self.slices(
            centre: layer.contentsCenter.minX, extent: layer.contentsCenter.width, sizeInPoints: sizeInPoints.width,
            sizeInPixels: pixelSize.width, destinationStart: destination.minX, destinationLength: destination.width)
        let rows = Self.slices(
            centre: layer.contentsCenter.minY, extent: layer.contentsCenter.height, sizeInPoints: sizeInPoints.height,
            sizeInPixels: pixelSize.height, destinationStart: destination.minY, destinationLength: destination.height)
        for (rowIndex, row) in rows.enumerated() {
            for (columnIndex, column) in columns.enumerated() {
                var outer: QuadEdges = []
                if rowIndex == 0 { outer.insert(.top) }
                if rowIndex == rows.count - 1 { outer.insert(.bottom) }
                if columnIndex == 0 { outer.insert(.left) }
                if columnIndex == columns.count - 1 { outer.insert(.right) }
                var next = cell(
                    CGRect(x: column.destination.lowerBound, y: row.destination.lowerBound,
                        width: column.destination.upperBound - column.destination.lowerBound,
                        height: row.destination.upperBound - row.destination.lowerBound),
                    source: CGRect(x: column.source.lowerBound, y: row.source.lowerBound,
                        width: column.source.upperBound - column.source.lowerBound,
                        height: row.source.upperBound - row.source.lowerBound))
                next.outerEdges = outer
                body(next)
            }
        }
    }

    /// One column (or row) of a nine-slice: where it goes in layer space, what it shows in sub-image units.
    struct Slice: Equatable {
        var destination: ClosedRange<CGFloat>
        var source: ClosedRange<CGFloat>
    }

    /// The three columns (or rows) of a nine-slice along one axis, without the empty ones.
    /// Fixed ends keep their point size (start = c x S, end = (1 - c - e) x S); if they do not fit they
    /// shrink by one factor to fill the destination exactly and the middle vanishes. A zero extent means one
    /// source pixel centred at c.
    static func slices(
        centre c: CGFloat, extent e: CGFloat, sizeInPoints: CGFloat, sizeInPixels: CGFloat,
        destinationStart: CGFloat, destinationLength: CGFloat
    ) -> [Slice] {
        let c0 = min(max(c.isFinite ? c : 0, 0), 1)
        let e0 = min(max(e.isFinite ? e : 0, 0), 1 - c0)
        var start = c0 * sizeInPoints
        var end = (1 - c0 - e0) * sizeInPoints
        if start + end > destinationLength, start + end > 0 {
            let k = destinationLength / (start + end)
            start *= k
            end *= k
        }
        let d0 = destinationStart, d3 = destinationStart + destinationLength
        // In order d0 <= d1 <= d2 <= d3 whatever the rounding: the fixed ends, shrunk to fit, can come out an ulp
        // longer than the destination, and a NaN or infinite size gives no fixed ends at all.
        var d1 = d0 + start
        if !(d1 <= d3) { d1 = d3 }
        if !(d1 >= d0) { d1 = d0 }
        var d2 = d3 - end
        if !(d2 >= d1) { d2 = d1 }
        if !(d2 <= d3) { d2 = d3 }
        let middleSource: ClosedRange<CGFloat>
        if e0 > 0 {
            middleSource = c0...(c0 + e0)
        } else {
            let half = 0.5 / sizeInPixels
            middleSource = (c0 - half)...(c0 + half)
        }
        let all = [
            Slice(destination: d0...d1, source: 0...c0),
            Slice(destination: d1...d2, source: middleSource),
            Slice(destination: d2...d3, source: (c0 + e0)...1),
        ]
        return all.filter { $0.destination.upperBound > $0.destination.lowerBound }
    }
}
