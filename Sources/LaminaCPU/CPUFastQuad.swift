import CPixman
import LaminaCore

/// What a band needs to draw a whole-pixel texture copy (`CPUBlit`) without touching the prepared quad: plain
/// numbers, so that reading it costs no retain. Every band reads every quad's entry, and retaining the quad's
/// shared image from both threads at once had the cores fight over one reference count.
struct CPUFastQuad {
    enum Kind: UInt8 {
        /// Nothing to draw.
        case empty
        /// Drawn by the general path (`CPUBandJob.draw(_:rows:into:origin:views:)`).
        case general
        /// A copy over every pixel of `box`.
        case blitBox
        /// A texture sampled through `transform` over every pixel of `box` (`CPUScaledCopy`).
        case scaledBox
        /// A copy through analytic coverage (`edges`: a rounded sprite): its full boxes (at most
        /// `maxFullBoxes`), then its edge pixels through the coverage mask.
        case blitEdges
    }

    /// The most full boxes a `blitEdges` quad has (a rounded rectangle has three); more go the general path.
    static let maxFullBoxes = 8

    var kind: Kind
    /// The quad's opacity as a mask byte (255: none).
    var opacity: UInt8 = 255
    /// The band's view (`CPUTextureViews.view(slot:)`).
    var slot: Int32 = 0
    /// Added to target pixels to get view pixels.
    var offset: (x: Int32, y: Int32) = (0, 0)
    var box = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)
    /// `blitEdges`: the coverage, kept alive by the prepared quad for the frame.
    var edges: Unmanaged<CPUEdgeCoverage>?
    /// Where the source's texels are not transparent (nil: not known), kept alive by `CPUPreparedQuads`.
    var texels: Unmanaged<CPUTexelCoverage>?
    /// `scaledBox`: target pixels to view texels.
    var transform = pixman_transform()

    init(kind: Kind) {
        self.kind = kind
    }

    /// Takes the slot of the copy of the prepared quad at `quad`, numbered since this fast form was made from it
    /// (`CPUPreparedQuad.finish`): what `init` gives it then, where its kind draws from a slot.
    mutating func takeSlot(of quad: UnsafePointer<CPUPreparedQuad>) {
        switch kind {
        case .scaledBox: slot = Int32(quad.pointee.scaled?.slot ?? Int(slot))
        case .blitBox, .blitEdges: slot = Int32(quad.pointee.blit?.slot ?? Int(slot))
        case .empty, .general: break
        }
    }

    /// The fast form of the prepared quad at `quad`, read in place: a copy of the prepared quad retained and
    /// released its coverage, image and mip chain, for every quad of a frame.
    init(_ quad: UnsafePointer<CPUPreparedQuad>) {
        if let scaled = quad.pointee.scaled, case .box(let box) = quad.pointee.coverage {
            self.init(kind: .scaledBox)
            self.box = box
            opacity = quad.pointee.opacityMask
            slot = Int32(scaled.slot)
            transform = scaled.transform
            return
        }
        guard let blit = quad.pointee.blit else {
            self.init(kind: quad.pointee.isEmpty ? .empty : .general)
            return
        }
        switch quad.pointee.coverage {
        case .none:
            self.init(kind: .empty)
            return
        case .box(let box):
            self.init(kind: .blitBox)
            self.box = box
        case .analytic(let edges) where edges.full.count <= Self.maxFullBoxes:
            self.init(kind: .blitEdges)
            self.edges = Unmanaged.passUnretained(edges)
        default:
            self.init(kind: .general)
            return
        }
        opacity = quad.pointee.opacityMask
        slot = Int32(blit.slot)
        offset = blit.offset
    }
}
