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

    /// The view of `clamp` in `image`, made on first use this frame.
    func view(of image: Image, clamp: TexelRect) -> OpaquePointer? {
        let key = Key(image: ObjectIdentifier(image), clamp: clamp)
        if let view = views[key] { return view }
        let first = image.baseAddress.advanced(by: clamp.y0 * image.bytesPerRow + clamp.x0 * 4)
        guard let view = pixman_image_create_bits_no_clear(
            PIXMAN_a8r8g8b8, Int32(clamp.width), Int32(clamp.height),
            first.assumingMemoryBound(to: UInt32.self), Int32(image.bytesPerRow))
        else { return nil }
        pixman_image_set_repeat(view, PIXMAN_REPEAT_PAD)
        views[key] = view
        return view
    }

    /// Releases every view (the images themselves stay).
    func removeAll() {
        for view in views.values { pixman_image_unref(view) }
        views.removeAll(keepingCapacity: true)
    }

    deinit { removeAll() }
}
