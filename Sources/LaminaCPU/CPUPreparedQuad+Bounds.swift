import LaminaCore

extension CPUPreparedQuad {
    /// The box of the pixels the quad draws; nil when none. The bands skip quads whose box misses their area.
    var pixelBounds: PixelBox? {
        switch coverage {
        case .none:
            return nil
        case .box(let box):
            return box
        case .boxes(_, let bounds):
            return bounds
        case .analytic(let edges):
            var box = edges.fullBounds
            if !edges.pieces.isEmpty { box = box.map { $0.union(edges.bounds) } ?? edges.bounds }
            return box
        }
    }
}
