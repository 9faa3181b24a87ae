import CPixman
import Foundation
import LaminaCore

// Trilinear minification: a quad that mixes two mip levels.

extension CPUBandJob {
    /// Composites a quad that mixes two mip levels: level L bilinear into a buffer with SRC through a solid mask
    /// of 255 - fraction, level L + 1 with ADD through `fraction` (pixman rounds each product, as the GLES
    /// shader does), then the buffer over the target through the coverage mask or the opacity, as `composite`
    /// draws any texture.
    func compositeTrilinear(
        _ item: CPUPreparedQuad, _ mip: MipSelection, x0: Int, y0: Int, x1: Int, y1: Int, origin: (x: Int32, y: Int32),
        mask: OpaquePointer?, maskOffset: (x: Int32, y: Int32), _ destination: OpaquePointer, _ views: CPUTextureViews
    ) throws {
        guard case .texture(let texture) = item.quad.paint else { return }
        let (width, height) = (Int32(x1 - x0), Int32(y1 - y0))
        guard let mixed = pixman_image_create_bits(PIXMAN_a8r8g8b8, width, height, nil, 0) else {
            throw RenderError.failed("pixman could not make a \(width)x\(height) trilinear buffer")
        }
        defer { pixman_image_unref(mixed) }
        let steps = [(mip.level, 255 - mip.fraction, PIXMAN_OP_SRC), (mip.level + 1, mip.fraction, PIXMAN_OP_ADD)]
        for (level, weight, op) in steps {
            guard let source = try textureSource(item, texture, level: level, views: views, region: (x0, y0, x1, y1))
            else { return }
            defer { if source.owned { pixman_image_unref(source.image) } }
            var alpha = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(weight) * 257)
            guard let weightMask = pixman_image_create_solid_fill(&alpha) else {
                throw RenderError.failed("pixman could not make a solid fill")
            }
            defer { pixman_image_unref(weightMask) }
            pixman_image_composite32(
                op, source.image, weightMask, mixed, Int32(x0) + source.offset.x, Int32(y0) + source.offset.y, 0, 0,
                0, 0, width, height)
        }
        var opacity: OpaquePointer?
        if mask == nil, item.opacityMask < 255 {
            var alpha = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(item.opacityMask) * 257)
            opacity = pixman_image_create_solid_fill(&alpha)
        }
        defer { if let opacity { pixman_image_unref(opacity) } }
        pixman_image_composite32(
            PIXMAN_OP_OVER, mixed, mask ?? opacity, destination, 0, 0, maskOffset.x, maskOffset.y, Int32(x0) - origin.x,
            Int32(y0) - origin.y, width, height)
    }
}
