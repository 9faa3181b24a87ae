import Foundation
import LaminaCore
import LaminaDrawing

// The layer's properties (docs/semantics.md). Each reads the model under the model lock and each change is
// recorded in the calling thread's transaction (Transaction.swift), which makes it visible to frames at commit.

extension Layer {
    /// Used in error messages and debugging; nil by default.
    public var name: String? {
        get { read { $0.name } }
        set { write(.name) { $0.name = newValue } }
    }
    /// The layer's own coordinate space: its origin scrolls the sublayers; its size is what it paints.
    /// A change of size marks the layer for drawing when `needsDisplayOnBoundsChange` is true.
    public var bounds: CGRect {
        get { read { $0.bounds } }
        set {
            let (redraw, resized) = write(.bounds) { state in
                defer { state.bounds = newValue }
                let resized = state.bounds.size != newValue.size
                return (state.needsDisplayOnBoundsChange && resized, resized)
            }
            // A new size asks for layout, as in Core Animation (Layer+Layout.swift).
            if resized { setNeedsLayout() }
            if redraw { setNeedsDisplay() }
        }
    }
    /// Where the anchor point sits in the superlayer's space.
    public var position: CGPoint {
        get { read { $0.position } }
        set { write(.position) { $0.position = newValue } }
    }
    /// The point of the bounds, in unit coordinates, that `position` names and transforms turn about.
    public var anchorPoint: CGPoint {
        get { read { $0.anchorPoint } }
        set { write(.anchorPoint) { $0.anchorPoint = newValue } }
    }
    /// The anchor point's z: transforms turn about (anchorPoint, anchorPointZ), and that point of the layer sits at
    /// `position`. 0 by default.
    public var anchorPointZ: CGFloat {
        get { read { $0.anchorPointZ } }
        set { write(.anchorPointZ) { $0.anchorPointZ = newValue } }
    }
    /// Paint order among siblings: higher is later (on top); ties keep array order.
    public var zPosition: CGFloat {
        get { read { $0.zPosition } }
        set { write(.zPosition) { $0.zPosition = newValue } }
    }
    /// Applied about the anchor point.
    public var transform: Transform3D {
        get { read { $0.transform } }
        set { write(.transform) { $0.transform = newValue } }
    }
    /// Applied to every sublayer, about this layer's anchor point.
    public var sublayerTransform: Transform3D {
        get { read { $0.sublayerTransform } }
        set { write(.sublayerTransform) { $0.sublayerTransform = newValue } }
    }
    /// true: the sublayers' geometry is flipped vertically within the bounds (their y runs up from the bottom edge).
    /// The layer's own contents are not flipped. false by default.
    public var isGeometryFlipped: Bool {
        get { read { $0.isGeometryFlipped } }
        set { write(.isGeometryFlipped) { $0.isGeometryFlipped = newValue } }
    }
    /// Hides the layer and its subtree.
    public var isHidden: Bool {
        get { read { $0.isHidden } }
        set { write(.isHidden) { $0.isHidden = newValue } }
    }
    /// Multiplies everything the layer and its subtree paint; 0...1.
    public var opacity: Float {
        get { read { $0.opacity } }
        set { write(.opacity) { $0.opacity = newValue } }
    }
    /// true: with opacity below 1 and visible sublayers, the layer and its subtree are composited as one picture
    /// (offscreen) and then faded; false: each layer is faded on its own.
    public var allowsGroupOpacity: Bool {
        get { read { $0.allowsGroupOpacity } }
        set { write(.allowsGroupOpacity) { $0.allowsGroupOpacity = newValue } }
    }
    /// Core Animation's compositing filter: the name of a blend mode or compositing operation (`"multiplyBlendMode"`,
    /// `"CIMultiplyBlendMode"`, `"sourceAtop"`, ..., see `LayerBlendMode`) by which the layer and its subtree, drawn
    /// as one group, are combined with what lies beneath them (docs/semantics.md, "Blend modes"); nil by default.
    /// Anything else (another string, a filter object) is ignored as Core Animation ignores a filter it cannot apply:
    /// the layer composites normally and the property reads nil. Reads Core Animation's name of the mode. Not
    /// animatable.
    public var compositingFilter: Any? {
        get { read { $0.compositingFilter?.rawValue } }
        set { write(.compositingFilter) { $0.compositingFilter = LayerBlendMode(compositingFilter: newValue) } }
    }
    /// `compositingFilter` as Lamina's type; nil: none (normal).
    public var blendMode: LayerBlendMode? {
        get { read { $0.compositingFilter } }
        set { write(.compositingFilter) { $0.compositingFilter = newValue } }
    }
    /// nil: no background.
    public var backgroundColor: Color? {
        get { read { $0.backgroundColor } }
        set { write(.backgroundColor) { $0.backgroundColor = newValue } }
    }
    /// The width of the border drawn inside the bounds, above the sublayers; 0: no border.
    public var borderWidth: CGFloat {
        get { read { $0.borderWidth } }
        set { write(.borderWidth) { $0.borderWidth = newValue } }
    }
    /// The border's colour; opaque black by default, as CALayer's.
    public var borderColor: Color? {
        get { read { $0.borderColor } }
        set { write(.borderColor) { $0.borderColor = newValue } }
    }
    /// The radius of the bounds' corners, in points: rounds the background and the border always, and the contents and
    /// sublayers when masksToBounds is true. Limited to half the shorter side. 0: square corners.
    public var cornerRadius: CGFloat {
        get { read { $0.cornerRadius } }
        set { write(.cornerRadius) { $0.cornerRadius = newValue } }
    }
    /// Which corners cornerRadius rounds; all four by default.
    public var maskedCorners: CornerMask {
        get { read { $0.maskedCorners } }
        set { write(.maskedCorners) { $0.maskedCorners = newValue } }
    }
    /// The curve of the rounded corners: `.circular` (quarter circles, the default) or `.continuous` (Apple's
    /// continuous-curvature corners; docs/semantics.md, "Rounded corners").
    public var cornerCurve: CornerCurve {
        get { read { $0.cornerCurve } }
        set { write(.cornerCurve) { $0.cornerCurve = newValue } }
    }
    /// The shadow's colour (straight alpha, multiplied by shadowOpacity); opaque black by default.
    public var shadowColor: Color? {
        get { read { $0.shadowColor } }
        set { write(.shadowColor) { $0.shadowColor = newValue } }
    }
    /// 0...1; 0 (the default) draws no shadow.
    public var shadowOpacity: Float {
        get { read { $0.shadowOpacity } }
        set { write(.shadowOpacity) { $0.shadowOpacity = newValue } }
    }
    /// Where the shadow sits relative to the layer, in the layer's space (points, y down): the default (0, -3) puts it
    /// 3 points above, as on iOS.
    public var shadowOffset: CGSize {
        get { read { $0.shadowOffset } }
        set { write(.shadowOffset) { $0.shadowOffset = newValue } }
    }
    /// The blur radius in points: the Gaussian's standard deviation (docs/semantics.md); 0: a hard shadow.
    public var shadowRadius: CGFloat {
        get { read { $0.shadowRadius } }
        set { write(.shadowRadius) { $0.shadowRadius = newValue } }
    }
    /// The shadow's shape in the layer's space (filled, non-zero winding); nil: the alpha of everything the layer
    /// paints (background, contents, sublayers, border).
    public var shadowPath: CGPath? {
        get { read { $0.shadowPath.map(CGPath.init) } }
        set { write(.shadowPath) { $0.shadowPath = newValue?.path } }
    }
    /// Clips contents and sublayers to the bounds.
    public var masksToBounds: Bool {
        get { read { $0.masksToBounds } }
        set { write(.masksToBounds) { $0.masksToBounds = newValue } }
    }
    /// false: the layer and its subtree are not drawn while their back faces the viewer (after all transforms).
    public var isDoubleSided: Bool {
        get { read { $0.isDoubleSided } }
        set { write(.isDoubleSided) { $0.isDoubleSided = newValue } }
    }
    /// true: the layer's edges get analytic coverage (antialiasing) instead of the pixel-centre rule.
    public var allowsEdgeAntialiasing: Bool {
        get { read { $0.allowsEdgeAntialiasing } }
        set { write(.allowsEdgeAntialiasing) { $0.allowsEdgeAntialiasing = newValue } }
    }
    /// Which edges allowsEdgeAntialiasing antialiases; all four by default. Stored: Lamina antialiases every edge.
    public var edgeAntialiasingMask: EdgeAntialiasingMask {
        get { read { $0.edgeAntialiasingMask } }
        set { write(.edgeAntialiasingMask) { $0.edgeAntialiasingMask = newValue } }
    }
    /// A hint that the layer paints every pixel of its bounds opaquely; false by default. Changes no pixel.
    public var isOpaque: Bool {
        get { read { $0.isOpaque } }
        set { write(.isOpaque) { $0.isOpaque = newValue } }
    }
    /// A hint that drawing may be deferred to a background thread; false by default. Changes no pixel.
    public var drawsAsynchronously: Bool {
        get { read { $0.drawsAsynchronously } }
        set { write(.drawsAsynchronously) { $0.drawsAsynchronously = newValue } }
    }
    /// Draws the layer and its subtree once into a bitmap in the layer's space, composited with the layer's transform
    /// and reused while the subtree does not change; false by default (docs/semantics.md, "Rasterized layers").
    public var shouldRasterize: Bool {
        get { read { $0.shouldRasterize } }
        set { write(.shouldRasterize) { $0.shouldRasterize = newValue } }
    }
    /// The scale, in pixels per point of the layer's space, of the bitmap shouldRasterize draws; 1 by default.
    public var rasterizationScale: CGFloat {
        get { read { $0.rasterizationScale } }
        set { write(.rasterizationScale) { $0.rasterizationScale = newValue } }
    }
    /// The backing image; nil paints nothing.
    public var contents: Any? {
        get {
            let image: Image? = read { $0.contents }
            return image
        }
        set { write(.contents) { $0.contents = newValue as? Image } }
    }
    /// The part of the image to show, in unit coordinates of the image; may reach outside 0...1.
    public var contentsRect: CGRect {
        get { read { $0.contentsRect } }
        set { write(.contentsRect) { $0.contentsRect = newValue } }
    }
    /// The stretchable centre of the sub-image, in unit coordinates of the sub-image.
    public var contentsCenter: CGRect {
        get { read { $0.contentsCenter } }
        set { write(.contentsCenter) { $0.contentsCenter = newValue } }
    }
    /// How the sub-image is placed in the bounds.
    public var contentsGravity: ContentsGravity {
        get { read { $0.contentsGravity } }
        set { write(.contentsGravity) { $0.contentsGravity = newValue } }
    }
    /// Image pixels per point.
    public var contentsScale: CGFloat {
        get { read { $0.contentsScale } }
        set { write(.contentsScale) { $0.contentsScale = newValue } }
    }
    /// The pixel format asked of the backing store; `.rgba8Uint` by default. A hint: backing images are 8-bit RGBA.
    public var contentsFormat: ContentsFormat {
        get { read { $0.contentsFormat } }
        set { write(.contentsFormat) { $0.contentsFormat = newValue } }
    }
    /// Lamina extension: the sub-image of contentsRect is stored turned 90 degrees clockwise in the image, as
    /// TexturePacker stores rotated sprite-sheet frames; it is turned back when drawn. false by default.
    public var contentsAreRotated: Bool {
        get { read { $0.contentsAreRotated } }
        set { write(.contentsAreRotated) { $0.contentsAreRotated = newValue } }
    }
    /// The filter used when the contents are drawn smaller than their pixel size.
    public var minificationFilter: Filter {
        get { read { $0.minificationFilter } }
        set { write(.minificationFilter) { $0.minificationFilter = newValue } }
    }
    /// The filter used when the contents are drawn larger than their pixel size.
    public var magnificationFilter: Filter {
        get { read { $0.magnificationFilter } }
        set { write(.magnificationFilter) { $0.magnificationFilter = newValue } }
    }
    /// Added to the level of detail of trilinear minification (log2 texels per pixel): positive picks smaller
    /// (blurrier) mip levels, negative larger (sharper) ones. 0 by default.
    public var minificationFilterBias: Float {
        get { read { $0.minificationFilterBias } }
        set { write(.minificationFilterBias) { $0.minificationFilterBias = newValue } }
    }
    /// Marks the layer for drawing whenever its bounds change size. false by default.
    public var needsDisplayOnBoundsChange: Bool {
        get { read { $0.needsDisplayOnBoundsChange } }
        set { write(.needsDisplayOnBoundsChange) { $0.needsDisplayOnBoundsChange = newValue } }
    }
    /// Where the layer was described, for error messages: a scene file sets the layer's JSON path, file, line and
    /// column ("layers[0].sublayers[2] at scene.json:4:9"). nil: made in code. Not drawn.
    public var sourceDescription: String? {
        get { read { $0.sourceDescription } }
        set { write(.sourceDescription) { $0.sourceDescription = newValue } }
    }
}

extension Layer {
    /// Lamina extension: `contents` as the `Image` (CGImage) it holds; nil when there is none. `contents` has Core
    /// Animation's type, `Any?`.
    public var contentsImage: Image? { contents as? Image }
}

extension Layer {
    /// Whether the layer's contents are drawn flipped vertically (CALayer's `contentsAreFlipped()`): true when an odd
    /// number of the layer's superlayers have `isGeometryFlipped` set (their sublayers' y runs up), so drawing code
    /// can keep its pictures upright. Lamina draws contents upright in their layer's space and flips only geometry
    /// (docs/semantics.md), so this reports the flip for code that reads it.
    public func contentsAreFlipped() -> Bool {
        var flipped = false
        var node = superlayer
        while let layer = node {
            if layer.isGeometryFlipped { flipped.toggle() }
            node = layer.superlayer
        }
        return flipped
    }
}
