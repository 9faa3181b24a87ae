import Foundation
import LaminaCore

/// A textured quad that copies texels 1:1 at a whole-pixel offset from its image's level 0: no transform and no
/// filter, so pixman takes its plain translated composite (the path `CPUBandJob.textureSource` takes for such a
/// quad, worked out once per frame instead of once per band).
///
/// Most quads of sprite and nine-slice scenes are such copies. Each band keeps one pixman view per `slot` (a
/// pair of image and clamp rectangle, numbered by `CPUTextureSlots`), found by index.
struct CPUBlit {
    /// The band's view of `clamp` in `image` (`CPUTextureViews.view(of:)`); -1 until numbered, for a quad prepared
    /// on a worker thread (`CPUPreparedQuad.finish`).
    var slot: Int
    /// Unowned: the quad holds the image for the frame, and retaining the one sprite sheet 10,000 times a frame
    /// cost more than the rest of the copy's preparation.
    unowned(unsafe) let image: Image
    /// The image's identity, which the slot table numbers by.
    let imageID: ObjectIdentifier
    let clamp: TexelRect
    /// Added to target pixels to get view pixels (the view's (0, 0) is the clamp's corner).
    let offset: (x: Int32, y: Int32)

    /// The copy a quad of `texture` makes, or nil when it transforms, filters, samples a mip level or is no texture. Without
    /// `slots` the slot is left at -1, for the preparing thread to number.
    /// `targetToView`: `targetToView(levelZero, clamp: texture.clamp)` of the quad's map from target pixels to level
    /// 0's texels (`Quad.targetToTexel`), worked out once for this and `CPUScaledCopy`.
    init?(_ texture: TextureCopyFacts, targetToView: Matrix3?, slots: CPUTextureSlots?) {
        guard texture.levelZeroOnly, texture.isPlain, let targetToView else { return nil }
        let clamp = texture.clamp
        guard let offset = targetToView.integerTranslation else { return nil }
        guard let x = Int32(exactly: offset.x), let y = Int32(exactly: offset.y) else { return nil }
        self.image = texture.image.takeUnretainedValue()
        imageID = ObjectIdentifier(image)
        self.clamp = clamp
        self.offset = (x, y)
        slot = slots?.slot(image: imageID, clamp: clamp) ?? -1
    }

    /// Target pixels to the pixels of a view of `clamp` (its corner at (0, 0)), from target pixels to level 0's
    /// texels: what `CPUBandJob.textureSource` works out for level 0, exactly.
    static func targetToView(_ levelZero: Matrix3, clamp: TexelRect) -> Matrix3 {
        levelZero.concatenating(.translation(-CGFloat(clamp.x0), -CGFloat(clamp.y0)))
    }
}
