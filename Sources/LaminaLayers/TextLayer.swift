import Foundation
import LaminaCore
import LaminaDrawing

/// A layer that shows text (CATextLayer; docs/semantics.md, "Text layers"), shaped and laid out by Pango from the
/// top-left of the bounds and cut off at the bounds. Drawn at the density it is shown at, in grey-scale antialiasing.
open class TextLayer: Layer, @unchecked Sendable {
    override class var styleKeys: [String: StyleKey] { TextLayer.ownStyleKeys }

    public override init() {
        super.init()
        becomeSpecial(.text(TextStyle()))
    }

    /// A copy of `layer` (a presentation copy, as Core Animation makes them): its properties and, when it is of the
    /// same kind, its style; another kind of layer gives this kind's default style.
    public override init(layer: Any) {
        super.init(layer: layer)
        if model.text == nil { becomeSpecial(.text(TextStyle())) } else { committed.special = model.special }
    }

    /// NSCoding's initialiser (Lamina does not archive layers): a layer with the defaults.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        becomeSpecial(.text(TextStyle()))
    }

    /// All of the layer's text properties at once.
    public var textStyle: TextStyle {
        get { read { $0.text ?? TextStyle() } }
        set { writeStyle(key: nil) { $0.text = newValue } }
    }
    /// The text, as Core Animation's `Any?`: a String (or an NSAttributedString, whose characters are drawn in the
    /// layer's font and colour; its attributes are not read). nil (the default) draws nothing.
    public var string: Any? {
        get {
            let text: String = read { $0.text?.string ?? "" }
            return text.isEmpty ? nil : text
        }
        set {
            let text = (newValue as? String) ?? (newValue as? NSAttributedString)?.string ?? ""
            writeStyle(key: nil) { $0.text?.string = text }
        }
    }
    /// The font: a font family name (a String, NSString or `"name" as CFString`) resolved with fontconfig; nil or
    /// anything else is "sans-serif", the default (Core Animation's is Helvetica). Core Animation types it
    /// `CFTypeRef?`; here it is `Any?`, because on Linux `CFString` is Swift's `String`, which is not an object.
    public var font: Any? {
        get {
            let name: String = read { $0.text?.font ?? "sans-serif" }
            return name
        }
        set {
            let name = (newValue as? String) ?? (newValue as? NSString).map { String($0) } ?? "sans-serif"
            writeStyle(key: nil) { $0.text?.font = name }
        }
    }
    /// Points; 36 by default, as Core Animation's.
    public var fontSize: CGFloat {
        get { read { $0.text?.fontSize ?? 36 } }
        set { writeStyle(key: "fontSize") { $0.text?.fontSize = newValue } }
    }
    /// Opaque white by default, as Core Animation's.
    public var foregroundColor: Color? {
        get { read { $0.text?.foregroundColor ?? .white } }
        set { writeStyle(key: "foregroundColor") { $0.text?.foregroundColor = newValue ?? .clear } }
    }
    public var alignmentMode: TextLayerAlignmentMode {
        get { read { $0.text?.alignmentMode ?? .natural } }
        set { writeStyle(key: nil) { $0.text?.alignmentMode = newValue } }
    }
    /// Breaks lines at word boundaries to fit the width; false by default.
    public var isWrapped: Bool {
        get { read { $0.text?.isWrapped ?? false } }
        set { writeStyle(key: nil) { $0.text?.isWrapped = newValue } }
    }
    /// The size the text needs, CATextLayer's `preferredFrameSize()`: the laid-out text's size in points, wrapped at
    /// the bounds' width when `isWrapped` (as Core Animation wraps at the current width), else one line per newline.
    open override func preferredFrameSize() -> CGSize {
        let (style, width) = read { ($0.text ?? TextStyle(), $0.bounds.width) }
        return style.preferredSize(wrappingWidth: style.isWrapped ? width : nil)
    }

    public var truncationMode: TextLayerTruncationMode {
        get { read { $0.text?.truncationMode ?? TextLayerTruncationMode.none } }
        set { writeStyle(key: nil) { $0.text?.truncationMode = newValue } }
    }
}

extension TextLayer {
    /// The keys of this class that the animatable key paths do not cover (or give another type), for key-value
    /// coding (Layer+KeyValueCoding.swift).
    nonisolated(unsafe) static let ownStyleKeys: [String: StyleKey] = [
        "string": StyleKey(\TextLayer.string), "font": StyleKey(\TextLayer.font),
        "alignmentMode": StyleKey(\TextLayer.alignmentMode), "wrapped": StyleKey(\TextLayer.isWrapped),
        "isWrapped": StyleKey(\TextLayer.isWrapped), "truncationMode": StyleKey(\TextLayer.truncationMode),
    ]
}
