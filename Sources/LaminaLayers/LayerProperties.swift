import Foundation
import LaminaCore
import LaminaDrawing

// The table of layer properties (docs/architecture.md, "The property table"): each property of `LayerState` is
// declared once here, by its `Field` case (its name and its bit in a transaction's sets) and one entry of
// `Field.declaration`, which says how it animates, whether a change asks for an implicit action, its scene-file key
// and what a change of it affects. Copying between states, the animatable key paths, the action keys, the scene
// loader's plain keys and the planner's placement set are all derived from it; LayerPropertiesTests checks the
// rest (every stored field has an entry, the defaults are Core Animation's).

extension LayerState {
    /// One property of a layer (or its sublayers or mask), as a bit of the sets a transaction records. The case's name
    /// is the property's Swift name; its position in this list is its bit. Each has one entry in `declaration`.
    enum Field: Int, CaseIterable {
        case name
        case bounds
        case position
        case anchorPoint
        case anchorPointZ
        case zPosition
        case transform
        case sublayerTransform
        case isGeometryFlipped
        case isHidden
        case opacity
        case allowsGroupOpacity
        case compositingFilter
        case backgroundColor
        case borderWidth
        case borderColor
        case cornerRadius
        case maskedCorners
        case cornerCurve
        case shadowColor
        case shadowOpacity
        case shadowOffset
        case shadowRadius
        case shadowPath
        case masksToBounds
        case isDoubleSided
        case allowsEdgeAntialiasing
        case edgeAntialiasingMask
        case isOpaque
        case drawsAsynchronously
        case shouldRasterize
        case rasterizationScale
        case contents
        case contentsRect
        case contentsCenter
        case contentsGravity
        case contentsScale
        case contentsFormat
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
        case tiled
        case emitter
        case drawing
        case scroll
        /// The values of custom keys (`Layer.setValue(_:forKey:)`); animations of them are resolved by key
        /// (AnimatableProperty.custom).
        case customValues

        var bit: UInt64 { 1 << UInt64(rawValue) }

        /// The property's entry in the table: everything about it but its name, its type and its default (the
        /// stored field of `LayerState`).
        var declaration: LayerProperty.Declaration {
            switch self {
            case .name: .stored(\.name, scene: .standard, affects: [])
            case .bounds: .animatable(\.bounds, scene: .custom, affects: [.paint, .layout])
            case .position: .animatable(\.position, scene: .custom, affects: .placement)
            case .anchorPoint: .animatable(\.anchorPoint, scene: .custom, affects: .placement)
            case .anchorPointZ: .animatable(\.anchorPointZ, scene: .standard, affects: .placement)
            case .zPosition: .animatable(\.zPosition, scene: .standard, affects: .placement)
            case .transform: .animatable(\.transform, scene: .standard, affects: .placement)
            case .sublayerTransform: .animatable(\.sublayerTransform, scene: .standard, affects: .paint)
            case .isGeometryFlipped: .stored(\.isGeometryFlipped, scene: .standard, affects: .paint)
            case .isHidden: .animatable(\.isHidden, scene: .standard, affects: .paint)
            case .opacity: .animatable(\.opacity, scene: .unitNumber, affects: .paint)
            case .allowsGroupOpacity: .stored(\.allowsGroupOpacity, scene: .standard, affects: .paint)
            case .compositingFilter: .compositingFilter
            case .backgroundColor: .animatable(\.backgroundColor, scene: .standard, affects: .paint)
            case .borderWidth: .animatable(\.borderWidth, scene: .nonNegativeNumber, affects: .paint)
            case .borderColor: .animatable(\.borderColor, scene: .standard, affects: .paint)
            case .cornerRadius: .animatable(\.cornerRadius, scene: .nonNegativeNumber, affects: .paint)
            case .maskedCorners: .stored(\.maskedCorners, scene: .custom, affects: .paint)
            case .cornerCurve: .stored(\.cornerCurve, scene: .standard, affects: .paint)
            case .shadowColor: .animatable(\.shadowColor, scene: .standard, affects: .paint)
            case .shadowOpacity: .animatable(\.shadowOpacity, scene: .unitNumber, affects: .paint)
            case .shadowOffset: .animatable(\.shadowOffset, scene: .standard, affects: .paint)
            case .shadowRadius: .animatable(\.shadowRadius, scene: .nonNegativeNumber, affects: .paint)
            case .shadowPath: .stored(\.shadowPath, scene: .custom, affects: .paint)
            case .masksToBounds: .animatable(\.masksToBounds, implicitAction: false, scene: .standard, affects: .paint)
            case .isDoubleSided: .animatable(\.isDoubleSided, implicitAction: false, scene: .standard, affects: .paint)
            case .allowsEdgeAntialiasing: .stored(\.allowsEdgeAntialiasing, scene: .standard, affects: .paint)
            case .edgeAntialiasingMask: .stored(\.edgeAntialiasingMask, scene: .standard, affects: [])
            case .isOpaque: .stored(\.isOpaque, scene: .standard, affects: [])
            case .drawsAsynchronously: .stored(\.drawsAsynchronously, scene: .standard, affects: [])
            case .shouldRasterize: .stored(\.shouldRasterize, scene: .standard, affects: .paint)
            case .rasterizationScale: .animatable(\.rasterizationScale, scene: .positiveNumber, affects: .paint)
            case .contents: .animatable(\.contents, scene: .custom, affects: .paint)
            case .contentsRect: .animatable(\.contentsRect, scene: .custom, affects: .paint)
            case .contentsCenter: .animatable(\.contentsCenter, scene: .standard, affects: .paint)
            case .contentsGravity: .stored(\.contentsGravity, scene: .custom, affects: .paint)
            case .contentsScale: .stored(\.contentsScale, scene: .positiveNumber, affects: .paint)
            case .contentsFormat: .stored(\.contentsFormat, scene: .standard, affects: [])
            case .contentsAreRotated: .stored(\.contentsAreRotated, affects: .paint)
            case .minificationFilter: .stored(\.minificationFilter, scene: .custom, affects: .paint)
            case .magnificationFilter: .stored(\.magnificationFilter, scene: .custom, affects: .paint)
            case .minificationFilterBias: .stored(\.minificationFilterBias, scene: .floatNumber, affects: .paint)
            case .needsDisplayOnBoundsChange: .stored(\.needsDisplayOnBoundsChange, scene: .custom, affects: [])
            case .sourceDescription: .stored(\.sourceDescription, affects: [])
            // beginTime, speed and timeOffset: the scene loader's own keys (SceneLoader+Layer.swift).
            case .timing: .stored(\.timing, affects: .paint)
            case .animations: .stored(\.animations, affects: .paint)
            case .sublayers, .mask: .list
            case .gradient, .shape, .text, .replicator, .tiled, .emitter, .drawing: .stored(\.special, affects: .paint)
            // A scroll layer's mode changes no pixel: only what its scroll calls do.
            case .scroll: .stored(\.special, affects: [])
            case .customValues: .stored(\.customValues, affects: .paint)
            }
        }
    }

    /// The fields that place a layer in its superlayer (and order it among its siblings): a change of one is a
    /// change of the superlayer's picture, not of the layer's own subtree, so a plan of the subtree stays valid.
    static let placementFields: UInt64 = LayerProperty.mask { $0.effects == .placement }

    /// The fields of the layer's lists of sublayers and mask.
    static let structureFields: UInt64 = LayerProperty.mask { $0.effects.contains(.structure) }

    /// Copies the fields in `fields` (a set of `Field` bits) from `source`, through the table's copiers.
    mutating func copy(_ fields: UInt64, from source: LayerState) {
        withUnsafePointer(to: source) { copy(fields, from: $0) }
    }

    /// Copies the fields in `fields` from the state at `source`, which is read in place: a transaction records a
    /// setter's field from the layer's model (`&layer.model`), and a commit from the recorded values, and each such
    /// read of a whole state as a value copied it first (some 600 bytes, a retain and a release of every reference in
    /// it), for one field of one layer (docs/benchmarks.md, "Planning when everything moved").
    mutating func copy(_ fields: UInt64, from source: UnsafePointer<LayerState>) {
        let copiers = LayerProperty.copiers
        var rest = fields
        while rest != 0 {
            let index = rest.trailingZeroBitCount
            rest &= rest - 1
            guard index < copiers.count, let copier = copiers[index] else { continue }
            copier(&self, source)
        }
    }
}

/// What a change of a layer property affects; the planner and the commit decide from it what a change invalidates.
package struct PropertyEffects: OptionSet, Hashable, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Moves the layer in its superlayer or orders it among its siblings; alone, it leaves the plan of the layer's
    /// own subtree valid.
    package static let placement = PropertyEffects(rawValue: 1)
    /// Changes the space the sublayers are laid out in (the bounds).
    package static let layout = PropertyEffects(rawValue: 2)
    /// Changes what the layer or its subtree paints in its own space.
    package static let paint = PropertyEffects(rawValue: 4)
    /// Changes the tree: the lists of sublayers and mask.
    package static let structure = PropertyEffects(rawValue: 8)
}

/// One layer property as the table describes it (LayerProperties.swift), with what is derived from it.
package struct LayerProperty: @unchecked Sendable {
    typealias Copier = (inout LayerState, UnsafePointer<LayerState>) -> Void

    /// An entry of the table, as `Field.declaration` writes it.
    struct Declaration: @unchecked Sendable {
        var keyPath: AnyKeyPath?
        var copy: Copier?
        var animation: Animation?
        var implicitAction = false
        var scene: SceneForm?
        var sceneWrite: ((inout LayerState, SceneValue) -> Bool)?
        var effects: PropertyEffects
        var value: ((LayerState) -> Any)?
        /// Sets the property from a value of any type (key-value coding: `Layer.setValue(_:forKey:)`), converted as
        /// `coerceLayerValue` does; false when the value is not of the property's type.
        var assign: ((inout LayerState, Any?) -> Bool)?

        /// Copies one field from the state at the pointer: a stored field at its offset, the value alone (through
        /// the key path, the whole source state was copied out first).
        static func copier<Value>(_ keyPath: WritableKeyPath<LayerState, Value>) -> Copier {
            guard let offset = MemoryLayout<LayerState>.offset(of: keyPath) else {
                return { $0[keyPath: keyPath] = $1.pointee[keyPath: keyPath] }
            }
            return { destination, source in
                let from = UnsafeRawPointer(source).advanced(by: offset).assumingMemoryBound(to: Value.self)
                withUnsafeMutablePointer(to: &destination) { state in
                    UnsafeMutableRawPointer(state).advanced(by: offset).assumingMemoryBound(to: Value.self).pointee =
                        from.pointee
                }
            }
        }

        /// A property that does not animate; `scene`: its scene-file key's form (nil: no key).
        @inline(__always)
        static func stored<Value>(_ keyPath: WritableKeyPath<LayerState, Value>, scene: SceneForm? = nil,
                                  affects: PropertyEffects) -> Declaration {
            Declaration(keyPath: keyPath, copy: copier(keyPath), animation: nil,
                        scene: scene.map { $0.resolved(for: Value.self) }, sceneWrite: sceneWriter(keyPath),
                        effects: affects, value: { $0[keyPath: keyPath] },
                        assign: { state, value in
                            guard let typed = coerceLayerValue(value, to: Value.self) else { return false }
                            state[keyPath: keyPath] = typed
                            return true
                        })
        }

        /// A property animations may animate (its key path and sub-paths by its value kind); `implicitAction`: a
        /// change of a drawn layer's value runs the action for its key.
        @inline(__always)
        static func animatable<Value: AnimatableLayerValue>(
            _ keyPath: WritableKeyPath<LayerState, Value>, implicitAction: Bool = true, scene: SceneForm? = nil,
            affects: PropertyEffects
        ) -> Declaration {
            var declaration = stored(keyPath, scene: scene, affects: affects)
            declaration.animation = Animation(
                kind: Value.animatedKind, read: { $0[keyPath: keyPath].animated },
                write: { state, value in
                    if let value = Value(animated: value) { state[keyPath: keyPath] = value }
                })
            declaration.implicitAction = implicitAction
            return declaration
        }

        /// The lists of sublayers and mask: kept outside `LayerState`, committed by the layer itself.
        static let list = Declaration(effects: .structure)

        private static func sceneWriter<Value>(_ keyPath: WritableKeyPath<LayerState, Value>)
            -> ((inout LayerState, SceneValue) -> Bool)?
        {
            guard let type = Value.self as? any SceneLayerValue.Type else { return nil }
            return { state, value in
                guard let typed = type.init(scene: value) as? Value else { return false }
                state[keyPath: keyPath] = typed
                return true
            }
        }
    }

    /// How an animatable property's values become `AnimatedValue`s and back.
    struct Animation {
        let kind: AnimatedValueKind
        let read: (LayerState) -> AnimatedValue
        let write: (inout LayerState, AnimatedValue) -> Void
    }

    let field: LayerState.Field
    let declaration: Declaration
    /// The property's Swift name on `Layer`, `LayerState` and `LayerSnapshot` (isHidden).
    package let name: String
    /// Its key (Core Animation's key-value coding name): the action key, the animation key path and the scene key
    /// (hidden for isHidden).
    package let key: String

    init(_ field: LayerState.Field) {
        self.field = field
        declaration = field.declaration
        name = String(describing: field)
        key = Self.key(forName: name)
    }

    /// What a change affects.
    package var effects: PropertyEffects { declaration.effects }
    /// Whether animations may animate it.
    package var isAnimatable: Bool { declaration.animation != nil }
    /// Whether a change of a drawn layer's value asks for an action (`Layer.action(forKey:)`) for `key`.
    package var hasImplicitAction: Bool { declaration.implicitAction }
    /// The key a scene file sets it with (`key`); nil when a scene file cannot set it.
    package var sceneKey: String? { declaration.scene == nil ? nil : key }
    /// How the scene loader reads its key; `.custom`: by code of its own.
    package var sceneForm: SceneForm? { declaration.scene }
    /// The key path of the stored field of `LayerState`; nil for the lists of sublayers and mask.
    package var keyPath: AnyKeyPath? { declaration.keyPath }

    /// The property's value in `state`, for tests and messages; nil for the lists.
    package func value(in state: LayerState) -> Any? { declaration.value?(state) }

    /// Core Animation's key for a Swift name: `isHidden` is `hidden`, as its getter is.
    static func key(forName name: String) -> String {
        guard name.hasPrefix("is"), let first = name.dropFirst(2).first, first.isUppercase else { return name }
        return first.lowercased() + name.dropFirst(3)
    }

    /// Every property, in bit order.
    package static let all: [LayerProperty] = LayerState.Field.allCases.map(LayerProperty.init)

    /// The properties a scene file may set, by key.
    package static let byKey: [String: LayerProperty] = Dictionary(
        all.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })

    /// The copiers by bit (`LayerState.copy`).
    nonisolated(unsafe) static let copiers: [Copier?] = all.map(\.declaration.copy)

    /// The bits of the properties `include` picks.
    static func mask(_ include: (LayerProperty) -> Bool) -> UInt64 {
        all.reduce(0) { include($1) ? $0 | $1.field.bit : $0 }
    }
}

/// How a scene file writes a property's value (docs/scene-format.md, "A layer").
package enum SceneForm: Equatable, Sendable {
    /// The form of the property's type (`SceneLayerValue.sceneForm`).
    case standard
    /// Read by the scene loader's own code (it depends on other keys, or has a form of its own).
    case custom
    case flag, number, nonNegativeNumber, positiveNumber, floatNumber, point, size, rect, color, transform, string
    /// A number in 0...1.
    case unitNumber
    /// One of the names.
    case choice([String])
    /// A list of names: names[i] is bit i.
    case options([String])

    func resolved<Value>(for type: Value.Type) -> SceneForm {
        guard self == .standard else { return self }
        return (type as? any SceneLayerValue.Type)?.sceneForm ?? .custom
    }
}

/// A value the scene loader has read, to be written to a property by the table (`Layer.setProperty`).
package enum SceneValue {
    case flag(Bool)
    case number(Double)
    case point(CGPoint)
    case size(CGSize)
    case rect(CGRect)
    case color(Color)
    case transform(Transform3D)
    case string(String)
    case options(UInt)
}

extension Layer {
    /// Sets `property` from a value a scene file gave; false when the value is not of the property's type.
    package func setProperty(_ property: LayerProperty, sceneValue: SceneValue) -> Bool {
        guard let writer = property.declaration.sceneWrite else { return false }
        return write(property.field) { writer(&$0, sceneValue) }
    }

    /// Sets `property` to `source`'s value, as its setter would (in the current transaction, with its action).
    package func copyProperty(_ property: LayerProperty, from source: Layer) {
        guard let copy = property.declaration.copy else { return }
        let value = source.read { $0 }
        write(property.field) { state in withUnsafePointer(to: value) { copy(&state, $0) } }
    }
}
