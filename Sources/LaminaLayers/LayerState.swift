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
    /// Paint order among siblings: higher is later (on top); ties keep array order.
    public var zPosition: CGFloat = 0
    /// Applied about the anchor point.
    public var transform: Transform3D = .identity
    /// Applied to every sublayer, about this layer's anchor point.
    public var sublayerTransform: Transform3D = .identity
    /// Hides the layer and its subtree.
    public var isHidden: Bool = false
    /// Multiplies everything the layer and its subtree paint; 0...1.
    public var opacity: Float = 1
    /// true: with opacity below 1 and visible sublayers, the layer and its subtree are composited as one picture
    /// (offscreen) and then faded; false: each layer is faded on its own.
    public var allowsGroupOpacity: Bool = true
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

    public init() {}

    /// One property of a layer (or its sublayers or mask), as a bit of the sets a transaction records.
    enum Field: Int, CaseIterable {
        case name
        case bounds
        case position
        case anchorPoint
        case zPosition
        case transform
        case sublayerTransform
        case isHidden
        case opacity
        case allowsGroupOpacity
        case backgroundColor
        case borderWidth
        case borderColor
        case cornerRadius
        case maskedCorners
        case shadowColor
        case shadowOpacity
        case shadowOffset
        case shadowRadius
        case shadowPath
        case masksToBounds
        case isDoubleSided
        case allowsEdgeAntialiasing
        case contents
        case contentsRect
        case contentsCenter
        case contentsGravity
        case contentsScale
        case contentsAreRotated
        case minificationFilter
        case magnificationFilter
        case minificationFilterBias
        case needsDisplayOnBoundsChange
        case sourceDescription
        case timing
        case animations
        case sublayers
        case mask
        /// The whole style of a specialised layer, one field per kind (a transaction commits the style whole).
        case gradient
        case shape
        case text
        case replicator

        var bit: UInt64 { 1 << UInt64(rawValue) }
    }

    /// The fields that place a layer in its superlayer (and order it among its siblings): a change of one is a
    /// change of the superlayer's picture, not of the layer's own subtree, so a plan of the subtree stays valid.
    static let placementFields: UInt64 = Field.position.bit | Field.anchorPoint.bit | Field.transform.bit | Field.zPosition.bit

    /// Copies the fields in `fields` (a set of `Field` bits) from `source`.
    mutating func copy(_ fields: UInt64, from source: LayerState) {
        var rest = fields
        while rest != 0 {
            let index = rest.trailingZeroBitCount
            rest &= rest - 1
            guard let field = Field(rawValue: index) else { continue }
            switch field {
            case .name: name = source.name
            case .bounds: bounds = source.bounds
            case .position: position = source.position
            case .anchorPoint: anchorPoint = source.anchorPoint
            case .zPosition: zPosition = source.zPosition
            case .transform: transform = source.transform
            case .sublayerTransform: sublayerTransform = source.sublayerTransform
            case .isHidden: isHidden = source.isHidden
            case .opacity: opacity = source.opacity
            case .allowsGroupOpacity: allowsGroupOpacity = source.allowsGroupOpacity
            case .backgroundColor: backgroundColor = source.backgroundColor
            case .borderWidth: borderWidth = source.borderWidth
            case .borderColor: borderColor = source.borderColor
            case .cornerRadius: cornerRadius = source.cornerRadius
            case .maskedCorners: maskedCorners = source.maskedCorners
            case .shadowColor: shadowColor = source.shadowColor
            case .shadowOpacity: shadowOpacity = source.shadowOpacity
            case .shadowOffset: shadowOffset = source.shadowOffset
            case .shadowRadius: shadowRadius = source.shadowRadius
            case .shadowPath: shadowPath = source.shadowPath
            case .masksToBounds: masksToBounds = source.masksToBounds
            case .isDoubleSided: isDoubleSided = source.isDoubleSided
            case .allowsEdgeAntialiasing: allowsEdgeAntialiasing = source.allowsEdgeAntialiasing
            case .contents: contents = source.contents
            case .contentsRect: contentsRect = source.contentsRect
            case .contentsCenter: contentsCenter = source.contentsCenter
            case .contentsGravity: contentsGravity = source.contentsGravity
            case .contentsScale: contentsScale = source.contentsScale
            case .contentsAreRotated: contentsAreRotated = source.contentsAreRotated
            case .minificationFilter: minificationFilter = source.minificationFilter
            case .magnificationFilter: magnificationFilter = source.magnificationFilter
            case .minificationFilterBias: minificationFilterBias = source.minificationFilterBias
            case .needsDisplayOnBoundsChange: needsDisplayOnBoundsChange = source.needsDisplayOnBoundsChange
            case .sourceDescription: sourceDescription = source.sourceDescription
            case .timing: timing = source.timing
            case .animations: animations = source.animations
            case .gradient, .shape, .text, .replicator: special = source.special
            case .sublayers, .mask: break
            }
        }
    }
}
