import CPixman
import LaminaCore

/// pixman views of images for one frame: a view shows only the texels of a clamp rectangle and repeats
/// its edge texels outward (PAD), which is the no-bleed clamp of docs/semantics.md, "Contents". Views share the image's
/// memory.
final class CPUTextureViews {
    private struct Key: Hashable {
        var image: ObjectIdentifier
        var clamp: TexelRect
    }

    private var views: [Key: OpaquePointer] = [:]
    /// Views of whole-pixel copies by slot (`CPUBlit`): never given a transform or filter.
    private var slotViews: [OpaquePointer?] = []
    /// Views of scaled copies by slot (`CPUScaledCopy`): bilinear, given each quad's transform as it is drawn.
    private var scaledViews: [OpaquePointer?] = []
    /// Solid masks of each opacity byte, made on first use.
    private var opacityMasks = [OpaquePointer?](repeating: nil, count: 256)

    /// The view of `clamp` in `image`, made on first use this frame.
    func view(of image: Image, clamp: TexelRect) -> OpaquePointer? {
        let key = Key(image: ObjectIdentifier(image), clamp: clamp)
        if let view = views[key] { return view }
        guard let view = Self.padView(of: image, clamp: clamp) else { return nil }
        views[key] = view
        return view
    }

    /// A pixman view of `clamp` in `image`'s memory, its edge texels repeated outward (the no-bleed clamp).
    private static func padView(of image: Image, clamp: TexelRect) -> OpaquePointer? {
        let first = image.baseAddress.advanced(by: clamp.y0 * image.bytesPerRow + clamp.x0 * 4)
        guard let view = pixman_image_create_bits_no_clear(
            PIXMAN_a8r8g8b8, Int32(clamp.width), Int32(clamp.height),
            first.assumingMemoryBound(to: UInt32.self), Int32(image.bytesPerRow))
        else { return nil }
        pixman_image_set_repeat(view, PIXMAN_REPEAT_PAD)
        return view
    }

    /// The view of blit slot `slot` (`CPUTextureSlots`), whose image and clamp rectangle `quads` holds, made on first
    /// use this frame.
    func view(slot: Int, of quads: CPUPreparedQuads) -> OpaquePointer? {
        if slot < slotViews.count, let view = slotViews[slot] { return view }
        if slot >= slotViews.count { slotViews += Array(repeating: nil, count: slot + 1 - slotViews.count) }
        slotViews[slot] = makeView(slot: slot, of: quads)
        return slotViews[slot]
    }

    /// The bilinear view of slot `slot` for scaled copies, made on first use this frame.
    func scaledView(slot: Int, of quads: CPUPreparedQuads) -> OpaquePointer? {
        if slot < scaledViews.count, let view = scaledViews[slot] { return view }
        if slot >= scaledViews.count { scaledViews += Array(repeating: nil, count: slot + 1 - scaledViews.count) }
        guard let view = makeView(slot: slot, of: quads) else { return nil }
        pixman_image_set_filter(view, PIXMAN_FILTER_BILINEAR, nil, 0)
        scaledViews[slot] = view
        return view
    }

    private func makeView(slot: Int, of quads: CPUPreparedQuads) -> OpaquePointer? {
        let (image, clamp, _) = quads.slotSources[slot]
        return Self.padView(of: image, clamp: clamp)
    }

    /// A solid mask of alpha `byte` (owned by these views: not to be released).
    func opacityMask(_ byte: UInt8) -> OpaquePointer? {
        if let mask = opacityMasks[Int(byte)] { return mask }
        var alpha = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(byte) * 257)
        let mask = pixman_image_create_solid_fill(&alpha)
        opacityMasks[Int(byte)] = mask
        return mask
    }

    /// Releases every view (the images themselves stay).
    func removeAll() {
        for view in views.values { pixman_image_unref(view) }
        views.removeAll(keepingCapacity: true)
        for case let view? in slotViews + scaledViews { pixman_image_unref(view) }
        slotViews.removeAll(keepingCapacity: true)
        scaledViews.removeAll(keepingCapacity: true)
    }

    deinit {
        removeAll()
        for case let mask? in opacityMasks { pixman_image_unref(mask) }
    }

}
