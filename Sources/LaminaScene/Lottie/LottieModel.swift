import Foundation
import LaminaCore
import LaminaDrawing

typealias LottieNumbers = LottieProperty<[Double]>

/// A layer's or shape group's transform (`ks` / `tr`).
struct LottieTransform: Sendable {
    var anchor = LottieNumbers([0, 0, 0])
    var position = LottieNumbers([0, 0, 0])
    /// Split position (`p.s`): x and y animated separately.
    var positionX: LottieNumbers?
    var positionY: LottieNumbers?
    var scale = LottieNumbers([100, 100, 100])
    var rotation = LottieNumbers([0])
    var opacity = LottieNumbers([100])
    var skew = LottieNumbers([0])
    var skewAxis = LottieNumbers([0])
    /// Repeater transforms: opacity of the first and last copy, %.
    var startOpacity = LottieNumbers([100])
    var endOpacity = LottieNumbers([100])
}

enum LottieShape: Sendable {
    case group(LottieShapeGroup)
    case rectangle(position: LottieNumbers, size: LottieNumbers, roundness: LottieNumbers, reversed: Bool)
    case ellipse(position: LottieNumbers, size: LottieNumbers, reversed: Bool)
    case star(LottieStar)
    case path(LottieProperty<LottieBezier>, reversed: Bool)
    case fill(color: LottieNumbers, opacity: LottieNumbers, rule: FillRule)
    case stroke(LottieStroke)
    case gradientFill(LottieGradient, opacity: LottieNumbers, rule: FillRule)
    case gradientStroke(LottieGradient, LottieStroke)
    case trim(start: LottieNumbers, end: LottieNumbers, offset: LottieNumbers, sequential: Bool)
    case repeater(copies: LottieNumbers, offset: LottieNumbers, above: Bool, transform: LottieTransform)
    case roundCorners(LottieNumbers)
    case merge(mode: Int)
    case transform(LottieTransform)
}

struct LottieShapeGroup: Sendable {
    var items: [LottieShape]
    var transform: LottieTransform?
    var blend: VectorDrawing.Operator = .over
}

struct LottieStar: Sendable {
    var position: LottieNumbers
    var outerRadius: LottieNumbers
    var innerRadius: LottieNumbers?
    var outerRoundness: LottieNumbers
    var innerRoundness: LottieNumbers?
    var rotation: LottieNumbers
    var points: LottieNumbers
    var isPolygon: Bool
    var reversed: Bool
}

struct LottieStroke: Sendable {
    var color = LottieNumbers([0, 0, 0])
    var opacity = LottieNumbers([100])
    var width = LottieNumbers([1])
    var cap: LineCap = .round
    var join: LineJoin = .round
    var miterLimit: Double = 4
    /// Dash lengths and gaps in order, then the offset (`d` entries n "d"/"g" and "o").
    var dashes: [LottieNumbers] = []
    var dashOffset: LottieNumbers?
}

struct LottieGradient: Sendable {
    var radial: Bool
    var start: LottieNumbers
    var end: LottieNumbers
    var highlight: LottieNumbers
    var highlightAngle: LottieNumbers
    var colorCount: Int
    var stops: LottieNumbers
}

struct LottieMask: Sendable {
    /// a add, s subtract, i intersect, l lighten, da darken, f difference, n none.
    var mode: String
    var inverted: Bool
    var path: LottieProperty<LottieBezier>
    var opacity: LottieNumbers
    var expansion: LottieNumbers
}

enum LottieEffect: Sendable {
    case dropShadow(color: LottieNumbers, opacity: LottieNumbers, direction: LottieNumbers, distance: LottieNumbers,
                    softness: LottieNumbers)
    case blur(LottieNumbers)
    case fill(color: LottieNumbers, opacity: LottieNumbers)
    case tint(black: LottieNumbers, white: LottieNumbers, amount: LottieNumbers)
    case tritone(bright: LottieNumbers, mid: LottieNumbers, dark: LottieNumbers, amount: LottieNumbers)
    /// Strokes the layer's mask paths (one by 1-based index, or all): 1 on the original, 2 on transparent,
    /// 3 revealing the original.
    case stroke(mask: Int, allMasks: Bool, color: LottieNumbers, size: LottieNumbers, opacity: LottieNumbers,
                start: LottieNumbers, end: LottieNumbers, style: Int)
}

struct LottieTextDocument: Sendable {
    var time: Double
    var text: String
    var font: String
    var size: Double
    var fill: [Double]?
    var stroke: [Double]?
    var strokeWidth: Double
    var strokeOverFill: Bool
    var justification: VectorDrawing.TextJustification
    var tracking: Double
    var lineHeight: Double
    var baselineShift: Double
    var boxPosition: CGPoint?
    var boxSize: CGSize?
}

struct LottieLayer: Sendable {
    var path: String
    var index: Int?
    var name: String
    var type: Int
    var parent: Int?
    var inPoint: Double
    var outPoint: Double
    var startTime: Double
    var stretch: Double
    var hidden: Bool
    var autoOrient: Bool
    var blendMode: Int
    var transform: LottieTransform
    var masks: [LottieMask]
    var matteMode: Int
    var isMatteSource: Bool
    var matteParent: Int?
    var refID: String?
    var width: Double
    var height: Double
    var solidColor: Color?
    var shapes: [LottieShape]
    var text: [LottieTextDocument]
    var timeRemap: LottieNumbers?
    var effects: [LottieEffect]
}

struct LottieImageAsset: Sendable {
    var id: String
    var width: Double
    var height: Double
    /// `u` + `p`, or the data URL in `p`.
    var folder: String
    var file: String
    var embedded: Bool
    var path: String
}

struct LottiePrecompAsset: Sendable {
    var id: String
    var layers: [LottieLayer]
    var frameRate: Double?
}

struct LottieFont: Sendable {
    var name: String
    var family: String
    var style: String
}

struct LottieMarker: Sendable, Equatable {
    var name: String
    var frame: Double
    var duration: Double
}

/// A whole Lottie file as read.
struct LottieDocument: Sendable {
    var version: String
    var name: String
    var width: Double
    var height: Double
    var frameRate: Double
    var inPoint: Double
    var outPoint: Double
    var layers: [LottieLayer]
    var precomps: [String: LottiePrecompAsset]
    var images: [String: LottieImageAsset]
    var fonts: [String: LottieFont]
    var markers: [LottieMarker]
}
