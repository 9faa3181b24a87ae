import Foundation
import LaminaCore

/// How colours are mapped between colour spaces (kept for signatures; every conversion here is exact math).
public enum CGColorRenderingIntent: Int32, Sendable {
    case defaultIntent, absoluteColorimetric, relativeColorimetric, perceptual, saturation
}

/// The kind of a colour space, with Core Graphics' raw values.
public enum CGColorSpaceModel: Int32, Sendable {
    case unknown = -1, monochrome, rgb, cmyk, lab, deviceN, indexed, pattern, XYZ
}

/// A colour space: a name, a model (grey or RGB) and whether its components are linear. Lamina's colours are
/// sRGB: colours given in another space are converted to sRGB when made (`CGColor(colorSpace:components:)`), and
/// Display P3 is taken as sRGB (no gamut mapping).
public final class CGColorSpace: Hashable, @unchecked Sendable, CustomStringConvertible {
    /// The space's name (one of the constants below).
    public let name: CFString?
    /// Grey or RGB.
    public let model: CGColorSpaceModel
    /// True for the linear spaces (`linearSRGB`, `genericRGBLinear`, `linearGray`): components are light
    /// intensities, converted with the sRGB transfer function.
    public let isLinear: Bool

    /// sRGB (IEC 61966-2.1), Lamina's own space.
    public static let sRGB: CFString = "kCGColorSpaceSRGB"
    /// sRGB primaries, linear components.
    public static let linearSRGB: CFString = "kCGColorSpaceLinearSRGB"
    /// Linear RGB (taken with sRGB primaries).
    public static let genericRGBLinear: CFString = "kCGColorSpaceGenericRGBLinear"
    /// Display P3: taken as sRGB (components are used unchanged).
    public static let displayP3: CFString = "kCGColorSpaceDisplayP3"
    /// Extended sRGB (components outside 0...1 are kept by colours, clamped when drawn).
    public static let extendedSRGB: CFString = "kCGColorSpaceExtendedSRGB"
    /// Grey with the sRGB transfer function (Apple: gamma 2.2).
    public static let genericGrayGamma2_2: CFString = "kCGColorSpaceGenericGrayGamma2_2"
    /// Linear grey.
    public static let linearGray: CFString = "kCGColorSpaceLinearGray"
    /// Extended grey.
    public static let extendedGray: CFString = "kCGColorSpaceExtendedGray"
    /// What `CGColorSpaceCreateDeviceRGB()` makes (sRGB here).
    static let deviceRGB: CFString = "kCGColorSpaceDeviceRGB"
    /// What `CGColorSpaceCreateDeviceGray()` makes.
    static let deviceGray: CFString = "kCGColorSpaceDeviceGray"

    private static let known: [String: (CGColorSpaceModel, Bool)] = [
        sRGB: (.rgb, false), linearSRGB: (.rgb, true), genericRGBLinear: (.rgb, true), displayP3: (.rgb, false),
        extendedSRGB: (.rgb, false), genericGrayGamma2_2: (.monochrome, false), linearGray: (.monochrome, true),
        extendedGray: (.monochrome, false), deviceRGB: (.rgb, false), deviceGray: (.monochrome, false),
    ]

    /// The space of that name; nil for a name not listed above.
    public init?(name: CFString) {
        guard let (model, linear) = Self.known[name] else { return nil }
        self.name = name
        self.model = model
        self.isLinear = linear
    }

    /// Components of a colour in this space, alpha not counted: 1 for grey, 3 for RGB.
    public var numberOfComponents: Int { model == .monochrome ? 1 : 3 }

    public static func == (lhs: CGColorSpace, rhs: CGColorSpace) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    public var description: String { "CGColorSpace(\(name ?? "unnamed"))" }

    /// sRGB-encoded value of a linear one.
    static func encode(_ v: Double) -> Double {
        let a = abs(v), s = a <= 0.0031308 ? 12.92 * a : 1.055 * pow(a, 1 / 2.4) - 0.055
        return v < 0 ? -s : s
    }

    /// Linear value of an sRGB-encoded one.
    static func decode(_ v: Double) -> Double {
        let a = abs(v), l = a <= 0.04045 ? a / 12.92 : pow((a + 0.055) / 1.055, 2.4)
        return v < 0 ? -l : l
    }
}

/// The device RGB space (sRGB here, named "kCGColorSpaceDeviceRGB").
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { CGColorSpace(name: CGColorSpace.deviceRGB)! }
/// The device grey space (named "kCGColorSpaceDeviceGray").
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace { CGColorSpace(name: CGColorSpace.deviceGray)! }

extension CGColor {
    /// An sRGB colour (the same as `init(red:green:blue:alpha:)`).
    public init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: Double(red), green: Double(green), blue: Double(blue), alpha: Double(alpha))
    }

    /// A grey (stored as sRGB with equal components).
    public init(gray: CGFloat, alpha: CGFloat) { self.init(white: Double(gray), alpha: Double(alpha)) }

    /// A colour from `space.numberOfComponents` components and alpha, converted to sRGB. Nil when a component
    /// is not finite.
    public init?(colorSpace space: CGColorSpace, components: UnsafePointer<CGFloat>) {
        let count = space.numberOfComponents + 1
        let values = (0..<count).map { Double(components[$0]) }
        guard values.allSatisfy(\.isFinite) else { return nil }
        var rgb = space.model == .monochrome ? [values[0], values[0], values[0]] : Array(values[0..<3])
        if space.isLinear { rgb = rgb.map(CGColorSpace.encode) }
        self.init(red: rgb[0], green: rgb[1], blue: rgb[2], alpha: values[count - 1])
    }

    /// The components in `colorSpace`: red, green, blue and alpha (always sRGB here, even for colours made as grey).
    public var components: [CGFloat]? { [CGFloat(red), CGFloat(green), CGFloat(blue), CGFloat(alpha)] }

    /// 4: red, green, blue and alpha.
    public var numberOfComponents: Int { 4 }

    /// sRGB: every Lamina colour is in it.
    public var colorSpace: CGColorSpace? { CGColorSpace(name: CGColorSpace.sRGB) }

    /// The same colour.
    public func copy() -> CGColor? { self }

    /// The colour with another alpha.
    public func copy(alpha: CGFloat) -> CGColor? { withAlphaComponent(Double(alpha)) }

    /// The colour as it is in `space`: for an RGB space the same colour; for a grey space the Rec. 709 luminance
    /// (of the components in that space's encoding) as a grey. Nil for other models.
    public func converted(to space: CGColorSpace, intent: CGColorRenderingIntent, options: CFDictionary?) -> CGColor? {
        switch space.model {
        case .rgb: return self
        case .monochrome:
            let lin = [red, green, blue].map(CGColorSpace.decode)
            let y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
            return CGColor(white: CGColorSpace.encode(y), alpha: alpha)
        default: return nil
        }
    }
}
