import Foundation
import LaminaCore

/// How a text layer places its lines (CATextLayerAlignmentMode).
public enum TextLayerAlignmentMode: String, Sendable, CaseIterable {
    /// Left for left-to-right text, right for right-to-left text.
    case natural, left, right, center, justified
}

/// Where a text layer cuts a line too wide for its bounds (CATextLayerTruncationMode).
public enum TextLayerTruncationMode: String, Sendable, CaseIterable {
    case none, start, middle, end
}

/// Everything a text layer paints with (docs/semantics.md, "Text layers"): CATextLayer's properties.
public struct TextStyle: Equatable, Sendable {
    public var string: String = ""
    /// A font family name, resolved with fontconfig ("sans-serif", "DejaVu Serif").
    public var font: String = "sans-serif"
    /// Points.
    public var fontSize: CGFloat = 36
    public var foregroundColor: Color = .white
    public var alignmentMode: TextLayerAlignmentMode = .natural
    /// Breaks lines at word boundaries to fit the bounds' width.
    public var isWrapped: Bool = false
    public var truncationMode: TextLayerTruncationMode = .none

    public init() {}
}
