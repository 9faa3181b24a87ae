import Foundation
import LaminaCore
import LaminaDrawing

/// Every property of a layer that a frame can see, as one value: a layer keeps one for its model (what its
/// getters return) and one for what has been committed (what frames draw); a snapshot (`LayerSnapshot`) holds
/// the committed one. The names and defaults are CALayer's (docs/semantics.md).
public struct LayerState: @unchecked Sendable {
    /// Used in error messages and debugging; nil by default.
    public var name: String? = nil
    /// The layer's own coordinate space: its origin scrolls the sublayers; its size is what it paints.
    public var bounds: CGRect = .zero
    /// Where the anchor point sits in the superlayer's space.
    public var position: CGPoint = .zero
    /// The point of the bounds, in unit coordinates, that `position` names and transforms turn about.
    public var anchorPoint: CGPoint = CGPoint(x: 0.5, y: 0.5)
    /// The anchor point's z: transforms turn about (anchorPoint, anchorPointZ), and that point of the layer sits at
    /// `position` (z: zPosition). 0 by default.
    public var anchorPointZ: CGFloat = 0
    /// Paint order among siblings: higher is later (on top); ties keep array order.
    public var zPosition: CGFloat = 0
    /// Applied about the anchor point.
    public var transform: Transform3D = .identity
    /// Applied to every sublayer, about this layer's anchor point.
    public var sublayerTransform: Transform3D = .identity
    /// true: the sublayers' geometry is flipped vertically within the bounds (their y runs up from the bottom edge),
    /// as in Core Animation's geometryFlipped. The layer's own contents are not flipped. false by default.
    public var isGeometryFlipped: Bool = false
    /// Hides the layer and its subtree.
    public var isHidden: Bool = false
    /// Multiplies everything the layer and its subtree paint; 0...1.
    public var opacity: Float = 1
    /// true: with opacity below 1 and visible sublayers, the layer and its subtree are composited as one picture
    /// (offscreen) and then faded; false: each layer is faded on its own.
    public var allowsGroupOpacity: Bool = true
    /// nil: none (normal). Otherwise the blend mode or compositing operation the layer and its subtree are combined
    /// with what lies beneath them by, as one group (docs/semantics.md, "Blend modes").
    public var compositingFilter: LayerBlendMode? = nil
    /// nil: no background.
    public var backgroundColor: Color? = nil
    /// The width of the border drawn inside the bounds, above the sublayers; 0: no border.
    public var borderWidth: CGFloat = 0
    /// The border's colour; opaque black by default, as CALayer's; nil draws no border.
    public var borderColor: Color? = .black
    /// The radius of the bounds' corners, in points: rounds the background and the border always, and the contents and
    /// sublayers when masksToBounds is true. Limited to half the shorter side. 0: square corners.
    public var cornerRadius: CGFloat = 0
    /// Which corners cornerRadius rounds; all four by default.
    public var maskedCorners: CornerMask = .all
    /// The curve of the rounded corners: `.circular` (quarter circles, the default) or `.continuous` (Apple's
    /// continuous-curvature corners; docs/semantics.md, "Rounded corners").
    public var cornerCurve: CornerCurve = .circular
    /// The shadow's colour (straight alpha, multiplied by shadowOpacity); opaque black by default.
    public var shadowColor: Color? = .black
    /// 0...1; 0 (the default) draws no shadow.
    public var shadowOpacity: Float = 0
    /// Where the shadow sits relative to the layer, in the layer's space (points, y down): the default (0, -3) puts it
    /// 3 points above, as on iOS.
    public var shadowOffset: CGSize = CGSize(width: 0, height: -3)
    /// The blur radius in points: the Gaussian's standard deviation (docs/semantics.md); 0: a hard shadow.
    public var shadowRadius: CGFloat = 3
    /// The shadow's shape in the layer's space (filled, non-zero winding); nil: the alpha of everything the layer
    /// paints (background, contents, sublayers, border).
    public var shadowPath: Path? = nil
    /// Clips contents and sublayers to the bounds.
    public var masksToBounds: Bool = false
    /// false: the layer and its subtree are not drawn while their back faces the viewer (after all transforms).
    public var isDoubleSided: Bool = true
    /// true: the layer's edges get analytic coverage (antialiasing) instead of the pixel-centre rule.
    public var allowsEdgeAntialiasing: Bool = false
    /// Which edges allowsEdgeAntialiasing antialiases; all four by default. Stored: Lamina antialiases every edge.
    public var edgeAntialiasingMask: EdgeAntialiasingMask = .all
    /// A hint that the layer paints every pixel of its bounds opaquely; false by default. Changes no pixel.
    public var isOpaque: Bool = false
    /// A hint that drawing may be deferred to a background thread; false by default. Changes no pixel.
    public var drawsAsynchronously: Bool = false
    /// Draws the layer and its subtree once into a bitmap in the layer's space, composited with the layer's transform
    /// and reused while the subtree does not change; false by default (docs/semantics.md, "Rasterized layers").
    public var shouldRasterize: Bool = false
    /// The scale, in pixels per point of the layer's space, of the bitmap shouldRasterize draws; 1 by default.
    public var rasterizationScale: CGFloat = 1
    /// The backing image; nil paints nothing.
    public var contents: Image? = nil
    /// The part of the image to show, in unit coordinates of the image; may reach outside 0...1.
    public var contentsRect: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    /// The stretchable centre of the sub-image, in unit coordinates of the sub-image.
    public var contentsCenter: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    /// How the sub-image is placed in the bounds.
    public var contentsGravity: ContentsGravity = .resize
    /// Image pixels per point.
    public var contentsScale: CGFloat = 1
    /// The pixel format asked of the backing store; `.rgba8Uint` by default. A hint: backing images are 8-bit RGBA.
    public var contentsFormat: ContentsFormat = .rgba8Uint
    /// Lamina extension: the sub-image of contentsRect is stored turned 90 degrees clockwise in the image, as
    /// TexturePacker stores rotated sprite-sheet frames; it is turned back when drawn. false by default.
    public var contentsAreRotated: Bool = false
    /// The filter used when the contents are drawn smaller than their pixel size.
    public var minificationFilter: Filter = .linear
    /// The filter used when the contents are drawn larger than their pixel size.
    public var magnificationFilter: Filter = .linear
    /// Added to the level of detail of trilinear minification (log2 texels per pixel): positive picks smaller
    /// (blurrier) mip levels, negative larger (sharper) ones. 0 by default.
    public var minificationFilterBias: Float = 0
    /// Marks the layer for drawing whenever its bounds change size. false by default.
    public var needsDisplayOnBoundsChange: Bool = false
    /// Where the layer was described, for error messages: a scene file sets the layer's JSON path, file, line and
    /// column ("layers[0].sublayers[2] at scene.json:4:9"). nil: made in code. Not drawn.
    public var sourceDescription: String? = nil
    /// The layer's own timing (CAMediaTiming): beginTime, speed and timeOffset map its superlayer's time to its own,
    /// which its sublayers and animations run on; the defaults change nothing.
    public var timing = MediaTiming()
    /// The animations attached to the layer, in the order they were added (each a copy the layer owns).
    public var animations: [AttachedAnimation] = []
    /// What a specialised layer (GradientLayer, ShapeLayer, TextLayer, ReplicatorLayer) paints or repeats, fixed by
    /// the layer's class when it is made; `.none` for a plain layer. Boxed, so a plain layer pays 8 bytes for it.
    public var special: SpecialContent = .none
    /// The values stored under keys that are not layer properties (`setValue(_:forKey:)`, Core Animation's
    /// key-value container): custom properties, animatable when their values are numbers, points, sizes, rects,
    /// colours or transforms (docs/porting-layers.md). Empty by default.
    public var customValues = CustomLayerValues()

    public init() {}
}

/// The values a layer stores under keys of its own (`Layer.setValue(_:forKey:)` of a key that is not a layer
/// property), as given.
public struct CustomLayerValues: @unchecked Sendable, CustomStringConvertible {
    public var values: [String: Any] = [:]

    public init() {}

    public subscript(key: String) -> Any? {
        get { values[key] }
        set { values[key] = newValue }
    }

    public var isEmpty: Bool { values.isEmpty }

    public var description: String {
        "[" + values.keys.sorted().map { "\($0): \(values[$0]!)" }.joined(separator: ", ") + "]"
    }
}
