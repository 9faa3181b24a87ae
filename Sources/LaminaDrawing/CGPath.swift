import Foundation
import LaminaCore

/// CoreGraphics' immutable path object: a reference to a `Path` value. Core Animation's API takes paths as
/// `CGPath` (`CAShapeLayer.path`, `CALayer.shadowPath`, `CAKeyframeAnimation.path`), so Lamina's layers do too;
/// the layer keeps the `Path` value it holds when the property is set, so changing a `CGMutablePath` afterwards
/// does not change the layer (Core Animation copies paths at commit in the same way). The construction API with
/// Apple's signatures (`CGPath(rect:transform:)`, `CGMutablePath.addArc(...)`, `boundingBox`, stroking copies)
/// is in the `CoreGraphics` module (docs/porting.md).
public class CGPath: Hashable, CustomStringConvertible, @unchecked Sendable {
    /// The elements; CGMutablePath appends to them.
    var storage: Path

    /// A path object holding `path`.
    public init(_ path: Path) { storage = path }

    /// The path's value: what layers store and draw.
    public var path: Path { storage }

    public static func == (lhs: CGPath, rhs: CGPath) -> Bool { lhs.storage == rhs.storage }

    public func hash(into hasher: inout Hasher) { hasher.combine(storage.elements.count) }

    public var description: String { "CGPath(\(storage.elements.count) elements)" }
}

/// CoreGraphics' mutable path: a `CGPath` that can be added to (its Apple API is in the `CoreGraphics` module).
public final class CGMutablePath: CGPath, @unchecked Sendable {
    /// An empty path.
    public init() { super.init(Path()) }

    /// A mutable path holding `path`.
    public override init(_ path: Path) { super.init(path) }

    /// Changes the path's value in place.
    public func update(_ body: (inout Path) -> Void) { body(&storage) }
}

extension Path {
    /// The path as a CGPath object, for the properties with Core Animation's signatures.
    public var cgPath: CGPath { CGPath(self) }
}
