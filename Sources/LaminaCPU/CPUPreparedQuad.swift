import CPixman
import Foundation
import LaminaCore

/// One quad with its covered pixels worked out (once, for every band).
struct CPUPreparedQuad: @unchecked Sendable {
    enum Coverage {
        /// Nothing to draw.
        case none
        /// Every pixel of one box.
        case box(PixelBox)
        /// Every pixel of several boxes (a non-rectangular shape under the pixel-centre rule).
        case boxes([PixelBox], bounds: PixelBox)
        /// Analytic coverage (antialiased edges, shapes): see CPUEdgeCoverage (a class, so the prepared quads that
        /// 10,000 sprites make stay small).
        case analytic(CPUEdgeCoverage)
    }

    /// The plan's quad, read in place in the frame's quad array (which `CPUPreparedQuads` holds): copying 10,000
    /// quads into their prepared forms, and destroying them again, was most of a sprite frame's preparation.
    let quadPointer: UnsafePointer<Quad>
    var quad: Quad { unsafeAddress { quadPointer } }
    private(set) var coverage: Coverage
    /// The solid colour to composite (opacity applied, unless the mask carries it), or nil for a texture.
    let solid: PremultipliedColor?
    /// The opacity as a solid mask where no coverage mask carries it (textures, and solids of analytic quads, whose
    /// `solid` is unscaled); 255: no mask.
    let opacityMask: UInt8
    /// Trilinear minification: the levels to sample (nil: level 0 alone), and the image's mip chain.
    private(set) var mip: MipSelection?
    private(set) var mipLevels: [Image] = []
    /// A texture copied 1:1 at a whole-pixel offset (nil: anything else), worked out once for every band.
    private(set) var blit: CPUBlit?
    /// A texture sampled through an affine transform over a box of whole pixels (nil: anything else).
    private(set) var scaled: CPUScaledCopy?

    var isEmpty: Bool {
        if case .none = coverage { return true }
        return false
    }

    /// What a quad prepared on a worker thread (`deferred`) leaves for the preparing thread about its analytic
    /// coverage: the renderer's cache is only read while the workers run, and `finish` takes the value from it, or
    /// puts this one in, in plan order.
    struct PendingCoverage {
        let key: CoverageKey
        let opacity: Float
        /// Worked out by the worker; nil when the cache held the key as the worker looked (it still does: nothing
        /// leaves the cache during a frame).
        let made: Coverage?
    }

    /// `quad` must stay where it is while this prepared quad is used (in the frame's quad array). `slots` numbers the
    /// frame's texture copies (`blit`, `scaled`); without it, every texture takes the general path.
    init(_ quad: UnsafePointer<Quad>, width: Int, height: Int, coverages: FrameCache<CoverageKey, Coverage>? = nil,
         slots: CPUTextureSlots? = nil) {
        var pending: PendingCoverage?
        self.init(quad, width: width, height: height, coverages: coverages, slots: slots, deferred: false,
                  pending: &pending)
    }

    /// `deferred`: prepared on a worker thread (`CPUPreparedQuads`' parallel pass), where `coverages` and `slots`
    /// are not changed: a texture copy keeps slot -1 and an analytic quad's coverage is left in `pending`, both for
    /// `finish` on the preparing thread. Otherwise the quad is complete but for its mip levels (`withMipLevels`).
    init(_ quad: UnsafePointer<Quad>, width: Int, height: Int, coverages: FrameCache<CoverageKey, Coverage>?,
         slots: CPUTextureSlots?, deferred: Bool, pending: inout PendingCoverage?) {
        quadPointer = quad
        // The quad is read where it lies, not copied (a copy retains and releases each of its references), and so
        // is its texture (`Quad.textureCopyFacts(at:)`): a `TextureSource` kept for the preparation retained and
        // released the image that every core's sprites share, contending for its reference count.
        let numbering = deferred ? nil : slots
        let opacity = min(max(quad.pointee.opacity, 0), 1)
        opacityMask = PremultipliedColor.byte(opacity)
        let analytic = Quad.hasAnalyticCoverage(at: quad)
        var solidColor: PremultipliedColor?
        var pixels: PixelCoverage?
        if case .solid(let color) = quad.pointee.paint { solidColor = color }
        if let source = Quad.textureCopyFacts(at: quad) {
            // The pixels first: a texture quad that covers no pixel centre (beyond the target, or a sprite smaller
            // than a pixel between centres) or is faded out needs no copy worked out for it.
            if !analytic, opacityMask > 0 { pixels = Quad.pixelCoverage(at: quad, width: width, height: height) }
            var drawn = true
            if !analytic, opacityMask == 0 { drawn = false }
            if case .none? = pixels { drawn = false }
            if !drawn {
                blit = nil
                coverage = .none
                solid = nil
                return
            }
            // `Quad.targetToTexel`, needed only where copies are numbered (`slots`), worked out once for both kinds
            // of copy.
            let levelZero = slots == nil ? nil
                : quad.pointee.unitToTarget.inverted?.concatenating(source.unitToTexel).snappedToAffine
            let targetToView = levelZero.map { CPUBlit.targetToView($0, clamp: source.clamp) }
            blit = slots == nil ? nil : CPUBlit(source, targetToView: targetToView, slots: numbering)
            if let covered = pixels {
                if blit == nil, slots != nil, case .rect(let x0, let y0, let x1, let y1) = covered {
                    scaled = CPUScaledCopy(source, targetToView: targetToView,
                                           box: PixelBox(x0: x0, y0: y0, x1: x1, y1: y1), slots: numbering)
                }
            }
        } else {
            blit = nil
        }
        if analytic {
            let value = quad.pointee
            // The full boxes go through the opacity as a mask, the edge pixels through a mask of coverage x
            // opacity; both apply to the source at full strength, as the GLES renderer does.
            solid = solidColor
            let make = {
                Self.analytic(quad.pointee.analyticCoverage(width: width, height: height), opacity: opacity)
            }
            guard let coverages else {
                coverage = make()
                return
            }
            let key = CoverageKey(value, width: width, height: height, opacity: opacity)
            guard deferred else {
                coverage = coverages.value(for: key, make: make)
                return
            }
            // Reading the cache from several threads is safe while none writes it (`finish` writes it, after).
            let made = coverages.contains(key) ? nil : make()
            pending = PendingCoverage(key: key, opacity: opacity, made: made)
            coverage = made ?? .none
            return
        }
        solid = solidColor?.scaled(by: opacity)
        let visible = solid.map { $0.quantized.alpha > 0 } ?? (opacityMask > 0)
        guard visible else {
            coverage = .none
            return
        }
        let covered = pixels ?? Quad.pixelCoverage(at: quad, width: width, height: height)
        switch covered {
        case .none:
            coverage = .none
        case .rect(let x0, let y0, let x1, let y1):
            coverage = .box(PixelBox(x0: x0, y0: y0, x1: x1, y1: y1))
        case .spans:
            let boxes = covered.boxes
            var bounds = boxes[0]
            for box in boxes {
                bounds.x0 = min(bounds.x0, box.x0); bounds.x1 = max(bounds.x1, box.x1)
                bounds.y1 = max(bounds.y1, box.y1)
            }
            coverage = .boxes(boxes, bounds: bounds)
        }
    }

    /// Completes a quad prepared with `deferred` on the preparing thread, quad after quad in plan order, as the
    /// serial preparation does it: its texture copy's slot numbered (`slots`, in order of first use) and its
    /// analytic coverage taken from `coverages`, or put there when the frame has not made it yet (the first quad
    /// with a key puts its own, and later quads with the key share it).
    mutating func finish(pending: PendingCoverage?, width: Int, height: Int,
                         coverages: FrameCache<CoverageKey, Coverage>?, slots: CPUTextureSlots?) {
        if let slots, let copy = blit { blit?.slot = slots.slot(image: copy.imageID, clamp: copy.clamp) }
        if let pending, let coverages {
            let quad = quadPointer
            coverage = coverages.value(for: pending.key) {
                pending.made ?? Self.analytic(quad.pointee.analyticCoverage(width: width, height: height),
                                              opacity: pending.opacity)
            }
        }
        if let slots, let copy = scaled { scaled?.slot = slots.slot(image: copy.imageID, clamp: copy.clamp) }
    }

    /// Whether a quad prepared with `deferred` and no pending coverage is left for `finish` and `addMipLevels`: a
    /// texture copy to number, or a mip chain to add.
    var needsFinishing: Bool {
        blit != nil || scaled != nil || !isEmpty && Quad.textureCopyFacts(at: quadPointer)?.mipSelection != nil
    }

    private static func analytic(_ coverage: AntialiasedCoverage, opacity: Float) -> Coverage {
        let opacityByte = PremultipliedColor.byte(opacity)
        let full = opacityByte > 0 ? coverage.full : []
        let partial = coverage.partial.filter { PartialPixel.alpha($0.coverage, opacity: opacity) > 0 }
        guard !full.isEmpty || !partial.isEmpty else { return .none }
        var fullBounds: PixelBox?
        for box in full {
            fullBounds = fullBounds.map {
                PixelBox(x0: min($0.x0, box.x0), y0: min($0.y0, box.y0), x1: max($0.x1, box.x1), y1: max($0.y1, box.y1))
            } ?? box
        }
        guard !partial.isEmpty else {
            return .analytic(CPUEdgeCoverage(full: full, fullBounds: fullBounds, mask: [],
                                             bounds: PixelBox(x0: 0, y0: 0, x1: 0, y1: 0), stride: 0, pieces: []))
        }
        var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
        for pixel in partial {
            x0 = min(x0, Int(pixel.x)); y0 = min(y0, Int(pixel.y))
            x1 = max(x1, Int(pixel.x) + 1); y1 = max(y1, Int(pixel.y) + 1)
        }
        let stride = (x1 - x0 + 3) & ~3
        var bytes = [UInt8](repeating: 0, count: stride * (y1 - y0))
        for pixel in partial {
            bytes[(Int(pixel.y) - y0) * stride + Int(pixel.x) - x0] = PartialPixel.alpha(pixel.coverage, opacity: opacity)
        }
        // Composited a piece at a time, near the pixels the mask holds (pieces relative to the mask).
        let pieces = AntialiasedCoverage(partial: partial).pieces().map {
            PixelBox(x0: $0.x0 - x0, y0: $0.y0 - y0, x1: $0.x1 - x0, y1: $0.y1 - y0)
        }
        return .analytic(CPUEdgeCoverage(full: full, fullBounds: fullBounds, mask: bytes,
                         bounds: PixelBox(x0: x0, y0: y0, x1: x1, y1: y1), stride: stride, pieces: pieces))
    }
}

extension CPUPreparedQuad {
    /// This quad with its texture's mip chain, when it samples levels other than level 0 alone (a chain not built
    /// yet reserves its bytes from `budget` first).
    func withMipLevels(budget: MemoryBudget) throws -> CPUPreparedQuad {
        var copy = self
        try copy.addMipLevels(budget: budget)
        return copy
    }

    /// Adds the mip chain in place (`withMipLevels`); unchanged when it throws.
    mutating func addMipLevels(budget: MemoryBudget) throws {
        guard !isEmpty, let texture = Quad.textureCopyFacts(at: quadPointer), let selection = texture.mipSelection
        else { return }
        let levels = try texture.image.takeUnretainedValue().mipChain(budget: budget)
        mip = selection
        mipLevels = levels
    }
}
