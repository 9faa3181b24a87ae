import Foundation
import LaminaCore

/// A vector drawing a layer paints in place of contents (`SpecialContent.drawing`): an ordered list of fills,
/// strokes, images and text, in groups that carry a transform, an opacity, a compositing operator and a mask. It is
/// what a Lottie layer's shapes, masks and mattes become at one frame (docs/lottie.md): several paints, gradients
/// with a highlight, and masks combined by Porter-Duff operators, drawn as one picture at the density the layer is
/// shown at, so both renderers show the same pixels (docs/semantics.md, "Vector drawings").
///
/// Coordinates are the layer's space (points, y down). Nothing is clipped to the layer's bounds unless
/// `masksToBounds` is set on the layer, as for shape layers.
public struct VectorDrawing: Equatable, Sendable {
    /// What is drawn, first item at the bottom.
    public var items: [Item]
    /// What the picture's alpha becomes once drawn (for a drawing used as a layer's mask).
    public var alpha: AlphaMode
    /// The area the picture covers; nil: what the items paint (measured). Needed for an inverted alpha, which is
    /// opaque wherever nothing is drawn: it is opaque over `extent` and transparent beyond it.
    public var extent: CGRect?

    public init(items: [Item] = [], alpha: AlphaMode = .normal, extent: CGRect? = nil) {
        self.items = items
        self.alpha = alpha
        self.extent = extent
    }

    public var isEmpty: Bool { items.isEmpty && !(alpha.inverts && extent != nil) }

    /// One thing drawn.
    public indirect enum Item: Equatable, Sendable {
        /// The inside of `path` by `rule`.
        case fill(Path, Paint, FillRule)
        /// The outline of `path`.
        case stroke(Path, Paint, StrokeStyle)
        /// An image stretched over `rect`, at `opacity`.
        case image(DrawingImage, rect: CGRect, opacity: Double)
        /// A run of text laid out by Pango.
        case text(TextRun)
        /// Items drawn together: into a group of their own when the opacity is below 1, the operator is not
        /// `.over`, or there is a mask; then composited at `opacity` with `operator`, through `mask`.
        case group(Group)
    }

    /// Items drawn together under one transform.
    public struct Group: Equatable, Sendable {
        public var items: [Item]
        /// Maps the group's items to its container's space.
        public var transform: CGAffineTransform
        public var opacity: Double
        public var `operator`: Operator
        /// Multiplies the group by this drawing's alpha (after its `alpha` mode), in the same space as the
        /// group's container (not under `transform`).
        public var mask: VectorDrawing?
        /// Replaces the colour of what the group paints, keeping its alpha (effects).
        public var colorFilter: ColorFilter?
        /// A Gaussian blur of what the group paints (after the colour filter), standard deviation in points of the
        /// container's space; 0: none.
        public var blur: CGFloat
        /// A shadow drawn under what the group paints (after the colour filter and blur).
        public var shadow: DropShadow?

        public init(items: [Item], transform: CGAffineTransform = .identity, opacity: Double = 1,
                    operator: Operator = .over, mask: VectorDrawing? = nil, colorFilter: ColorFilter? = nil,
                    blur: CGFloat = 0, shadow: DropShadow? = nil) {
            self.items = items
            self.transform = transform
            self.opacity = opacity
            self.operator = `operator`
            self.mask = mask
            self.colorFilter = colorFilter
            self.blur = blur
            self.shadow = shadow
        }
    }

    /// A shadow under a group (Lottie's drop shadow effect): the group's alpha, in `color` (whose alpha is the
    /// shadow's opacity), moved by `offset` and blurred with standard deviation `blur` (points of the container's
    /// space).
    public struct DropShadow: Equatable, Sendable {
        public var color: Color
        public var offset: CGSize
        public var blur: CGFloat
        public init(color: Color, offset: CGSize, blur: CGFloat) {
            self.color = color
            self.offset = offset
            self.blur = blur
        }
    }

    /// How a fill or a stroke is coloured.
    public enum Paint: Equatable, Sendable {
        /// One colour; `Color.alpha` is the paint's opacity.
        case color(Color)
        /// Colours along the line from `start` to `end`, padded beyond them, at `opacity`.
        case linear(stops: [GradientStop], start: CGPoint, end: CGPoint, opacity: Double)
        /// Colours from `center` (0) out to the circle through `end` (1), padded beyond; `highlight` (-1...1, the
        /// Lottie `h`) moves the focal point towards `end` by that share of the radius, at the angle `angle`
        /// (degrees, from the line centre to end) added to that line's own direction, as lottie-web draws it.
        case radial(stops: [GradientStop], center: CGPoint, end: CGPoint, highlight: Double, angle: Double,
                    opacity: Double)
    }

    /// One colour of a gradient at `offset` (0...1); colour alpha is the stop's opacity.
    public struct GradientStop: Equatable, Sendable {
        public var offset: Double
        public var color: Color
        public init(offset: Double, color: Color) {
            self.offset = offset
            self.color = color
        }
    }

    /// How a path is stroked.
    public struct StrokeStyle: Equatable, Sendable {
        public var width: CGFloat
        public var cap: LineCap
        public var join: LineJoin
        public var miterLimit: CGFloat
        /// Alternating dash and gap lengths; nil or empty: solid.
        public var dashes: [Double]?
        public var dashPhase: Double

        public init(width: CGFloat, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: CGFloat = 4,
                    dashes: [Double]? = nil, dashPhase: Double = 0) {
            self.width = width
            self.cap = cap
            self.join = join
            self.miterLimit = miterLimit
            self.dashes = dashes
            self.dashPhase = dashPhase
        }
    }

    /// How a group's pixels combine with what is below it in the same drawing (cairo's operators).
    public enum Operator: String, Equatable, Sendable, CaseIterable {
        case over, destinationOut, destinationIn, xor, lighten, darken, difference, add
        case multiply, screen, overlay, colorDodge, colorBurn, hardLight, softLight, exclusion, hue, saturation,
            color, luminosity
    }

    /// What the picture's alpha becomes (Lottie's track matte kinds, for a drawing used as a mask).
    public enum AlphaMode: String, Equatable, Sendable, CaseIterable {
        /// As drawn.
        case normal
        /// 1 - alpha, over `extent`.
        case inverted
        /// The luminance of the premultiplied colour (Rec. 709 weights); colour becomes white.
        case luminance
        /// 1 - that luminance, over `extent`.
        case invertedLuminance

        public var inverts: Bool { self == .inverted || self == .invertedLuminance }
    }

    /// Replaces colours, keeping alpha (Lottie's fill, tint and tritone effects).
    public enum ColorFilter: Equatable, Sendable {
        /// Every pixel becomes `color` (its alpha multiplies the pixel's), mixed with the original by `amount`.
        case fill(Color, amount: Double)
        /// Luminance mapped from `black` (0) to `white` (1), mixed with the original by `amount`.
        case tint(black: Color, white: Color, amount: Double)
        /// Luminance mapped through `dark` (0), `mid` (0.5) and `bright` (1), mixed by `amount`.
        case tritone(bright: Color, mid: Color, dark: Color, amount: Double)
    }

    /// A run of text: lines split at "\n" (and "\r"), laid out with Pango.
    public struct TextRun: Equatable, Sendable {
        public var text: String
        /// A family name (fontconfig matches it), with an optional style ("Helvetica Neue Bold").
        public var font: String
        /// Points.
        public var size: CGFloat
        public var fill: Color?
        public var stroke: Color?
        public var strokeWidth: CGFloat
        /// Stroke drawn over the fill (Lottie's `of`), else under it.
        public var strokeOverFill: Bool
        public var justification: TextJustification
        /// Extra space between characters, in thousandths of an em (Lottie `tr`).
        public var tracking: Double
        /// Distance between baselines, points.
        public var lineHeight: CGFloat
        /// The first line's baseline starts here (point text), or the box's top-left (box text).
        public var origin: CGPoint
        /// Box text: lines wrap at the box's width.
        public var boxSize: CGSize?

        public init(text: String, font: String, size: CGFloat, fill: Color?, stroke: Color? = nil,
                    strokeWidth: CGFloat = 0, strokeOverFill: Bool = false, justification: TextJustification = .left,
                    tracking: Double = 0, lineHeight: CGFloat, origin: CGPoint = .zero, boxSize: CGSize? = nil) {
            self.text = text
            self.font = font
            self.size = size
            self.fill = fill
            self.stroke = stroke
            self.strokeWidth = strokeWidth
            self.strokeOverFill = strokeOverFill
            self.justification = justification
            self.tracking = tracking
            self.lineHeight = lineHeight
            self.origin = origin
            self.boxSize = boxSize
        }
    }

    public enum TextJustification: String, Equatable, Sendable {
        case left, right, center
    }
}

/// An image in a drawing, compared by identity (the same decoded image object).
public struct DrawingImage: Equatable, @unchecked Sendable {
    public let image: Image
    public init(_ image: Image) { self.image = image }
    public static func == (a: DrawingImage, b: DrawingImage) -> Bool { a.image === b.image }
}
