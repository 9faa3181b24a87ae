import CPixman
import Foundation
import LaminaCore

/// A textured quad over a box of whole pixels whose texels pixman samples through an affine transform (a scaled
/// nine-slice cell, a stretched image): the transform and filter `CPUBandJob.textureSource` sets on the view for
/// it, worked out once per frame instead of once per band, with the view found by slot (`CPUTextureSlots`).
struct CPUScaledCopy {
    /// The band's view (`CPUTextureSlots`); -1 until numbered, for a quad prepared on a worker thread
    /// (`CPUPreparedQuad.finish`).
    var slot: Int
    /// Target pixels to view texels, as pixman's 16.16 matrix (sampled bilinear: `CPUTextureViews.scaledView`).
    let transform: pixman_transform
    /// Unowned, as `CPUBlit.image`: the quad holds the image for the frame.
    unowned(unsafe) let image: Image
    /// The image's identity, which the slot table numbers by.
    let imageID: ObjectIdentifier
    let clamp: TexelRect

    /// The scaled copy a quad of `texture` makes over `box`, or nil when it is a whole-pixel copy (`CPUBlit`), projective,
    /// nearest (sampled in doubles), minified through mip levels, beyond pixman's fixed point, or no texture.
    /// Without `slots` the slot is left at -1, for the preparing thread to number.
    /// `targetToView`: `CPUBlit.targetToView(levelZero, clamp: texture.clamp)` of the quad's map from target pixels
    /// to level 0's texels (`Quad.targetToTexel`), worked out once for this and `CPUBlit`.
    init?(_ texture: TextureCopyFacts, targetToView: Matrix3?, box: PixelBox, slots: CPUTextureSlots?) {
        guard texture.levelZeroOnly, texture.filter != .nearest, texture.isPlain, let targetToView else {
            return nil
        }
        let clamp = texture.clamp
        // Fitting over the whole box, it fits over every band's part of it (the map is affine).
        guard targetToView.integerTranslation == nil, targetToView.isAffine,
              CPUBandJob.fitsFixedPoint(targetToView, region: (box.x0, box.y0, box.x1, box.y1))
        else { return nil }
        guard let transform = CPUBandJob.fixedPoint(targetToView) else { return nil }
        self.transform = transform
        self.image = texture.image.takeUnretainedValue()
        imageID = ObjectIdentifier(image)
        self.clamp = clamp
        slot = slots?.slot(image: imageID, clamp: clamp) ?? -1
    }
}
