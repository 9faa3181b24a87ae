import Foundation
import LaminaCore
import LaminaDrawing

/// A node of the layer tree, with CALayer's names and defaults.
///
/// A layer is a model object: it holds geometry, contents and appearance and knows nothing of pixels or plans.
/// Its properties may be set from any thread. Each change belongs to a transaction (`Transaction`): an explicit
/// one between `Transaction.begin()` and `commit()`, or else the calling thread's implicit one, which the next
/// frame commits. Getters return the latest value set (the model), on every thread at once; frames draw what has
/// been committed, through an immutable snapshot (`LayerSnapshot`, `presentationSnapshot()`), so no frame shows part of a
/// transaction (docs/architecture.md, "Model, commit, snapshot, plan").
///
/// Adding a layer as a sublayer of itself or of one of its descendants would make a cycle; Lamina stops
/// the program with a precondition failure that says so, as Core Animation raises an exception.
open class Layer: @unchecked Sendable {
    /// The layer's identity, never reused: what plans and renderer caches key on.
    public let id: LayerID

    // Everything below is guarded by the model lock (`ModelLock.shared`).

    /// The model: what the getters return, changed at once by the setters.
    @exclusivity(unchecked) var model = LayerState()
    @exclusivity(unchecked) var modelSublayers: [Layer] = []
    /// Whether `sublayers` is an array (possibly empty) rather than nil, as CALayer tells the two apart.
    var hasSublayerArray = false
    @exclusivity(unchecked) var modelMask: Layer?
    weak var modelSuperlayer: Layer?
    /// The layer this one masks (model).
    weak var maskOwner: Layer?

    /// What has been committed: what the next frame draws (Layer+Commit.swift).
    @exclusivity(unchecked) var committed = LayerState()
    @exclusivity(unchecked) var committedSublayers: [Layer] = []
    @exclusivity(unchecked) var committedMask: Layer?
    /// The committed superlayer, or the committed owner of a mask: where a commit's news travels up.
    weak var committedParent: Layer?
    /// The writes that gave the committed fields their values.
    var committedWrites = FieldWrites()
    /// false until a commit first touches the layer (`presentationSnapshot()` is nil until then).
    var everCommitted = false
    /// The commit that last changed what this layer's subtree paints in its own space (everything but its own
    /// placement in the superlayer): plan caches of the subtree key on it.
    var contentVersion: UInt64 = 0
    /// The commit that last changed what this layer paints itself (any field but its placement and its lists of
    /// sublayers and mask): `LayerSnapshot.ownVersion`.
    var ownVersion: UInt64 = 0
    /// The commit that last changed the picture this layer paints itself, before it is faded: `ownVersion` without
    /// `opacity` (`LayerSnapshot.pictureVersion`).
    var pictureVersion: UInt64 = 0
    /// The snapshot of the committed subtree, while it stays valid.
    var snapshotNode: LayerSnapshot?
    /// The layer's committed state changed since `snapshotNode` was made.
    var snapshotStale = true
    /// A sublayer or the mask changed (or the list of them) since `snapshotNode` was made.
    var childrenStale = true
    /// Set while a snapshot is being built below this layer, to refuse a cycle.
    var snapshotInProgress = false

    /// Marked with setNeedsDisplay() and not drawn since (Layer+Display.swift).
    var needsDisplayFlag = false
    /// Marked with setNeedsLayout() (or by a change of the bounds' size or of the sublayers) and not laid out since
    /// (Layer+Layout.swift).
    var needsLayoutFlag = false
    var displays = 0
    /// The image the standard drawing path made last.
    var backingImage: Image?
    /// Why the last drawing made no image (an absurd size), for the frame to report; nil when it worked.
    var lastDisplayError: String?

    /// The layer's `actions` and `style` (not part of any transaction, as the delegate).
    var storedActions: [String: Action]?
    var storedStyle: [AnyHashable: Any]?
    /// Animations added for a nil key are given keys from this counter.
    var anonymousAnimations = 0

    /// For a presentation copy (`presentationSnapshot()`, `init(layer:)`), the model layer it was copied from.
    weak var presentationModel: Layer?

    weak var storedDelegate: LayerDelegate?
    var storedOwnedDelegate: LayerDelegate?

    /// Draws the layer's contents: weakly held, as CALayer holds its delegate. Not part of any transaction: the next
    /// drawing uses the delegate of that moment.
    public var delegate: LayerDelegate? {
        get { ModelLock.shared.withLock { storedDelegate } }
        set { ModelLock.shared.withLock { storedDelegate = newValue } }
    }

    /// Lamina extension: a delegate the layer itself keeps alive, for delegates nothing else owns (a scene file's
    /// drawing steps). Setting it sets `delegate` too. nil by default.
    public var ownedDelegate: LayerDelegate? {
        get { ModelLock.shared.withLock { storedOwnedDelegate } }
        set {
            // The old one is released after the lock: its deinit may touch layers.
            let old = ModelLock.shared.withLock { () -> LayerDelegate? in
                defer {
                    storedOwnedDelegate = newValue
                    storedDelegate = newValue
                }
                return storedOwnedDelegate
            }
            _ = old
        }
    }

    public init() {
        id = LayerID(rawValue: Layer.nextID.add(1))
    }

    /// A copy of `layer` (another `Layer`), as Core Animation makes presentation copies: the new layer gets the
    /// other's properties (as its model shows them), style and actions, but no superlayer, sublayers, mask or
    /// animations. Subclasses override it to copy their own stored properties, calling `super.init(layer:)` first,
    /// as on Apple platforms. Anything that is not a layer gives a layer with the defaults.
    public init(layer: Any) {
        id = LayerID(rawValue: Layer.nextID.add(1))
        guard let other = layer as? Layer else { return }
        let (state, actions, style) = ModelLock.shared.withLock { (other.model, other.storedActions, other.storedStyle) }
        var copied = state
        copied.animations = []
        model = copied
        committed.special = copied.special
        storedActions = actions
        storedStyle = style
        presentationModel = other.presentationModel ?? other
    }

    /// NSCoding's initialiser, for subclasses written for Apple platforms (which must provide it): Lamina does not
    /// archive layers, so this makes a layer with the defaults.
    public required init?(coder: NSCoder) {
        id = LayerID(rawValue: Layer.nextID.add(1))
    }

    /// A layer with the given frame.
    public convenience init(frame: CGRect) {
        self.init()
        self.frame = frame
    }

    /// Reads the model under the lock.
    @inline(__always)
    func read<T>(_ body: (LayerState) -> T) -> T {
        ModelLock.shared.withLock { body(model) }
    }

    /// Changes the model under the lock and records `fields` in the calling thread's transaction.
    @discardableResult @inline(__always)
    func write<T>(_ fields: LayerState.Field..., body: (inout LayerState) -> T) -> T {
        var bits: UInt64 = 0
        for field in fields { bits |= field.bit }
        let (result, drawn) = ModelLock.shared.withLock {
            let result = body(&model)
            Transaction.recordLocked(self, fields: bits)
            return (result, snapshotNode != nil)
        }
        // A layer that has been drawn (a frame or `presentationSnapshot()` has taken its snapshot) animates the change
        // (Layer+Actions.swift), outside the lock: actions run user code. A layer another thread's frame merely
        // committed, as it commits every thread's implicit transaction, has not been drawn.
        if drawn, bits & LayerState.Field.animatable != 0 { runActions(for: bits & LayerState.Field.animatable) }
        return result
    }

    /// Changes the style of a specialised layer under the lock, records the change under its kind's field
    /// (`SpecialContent.field`) in the calling thread's transaction, and runs the action for `key` (nil: the
    /// property does not animate) when the layer has been drawn.
    @inline(__always)
    func writeStyle(key: String?, body: (inout LayerState) -> Void) {
        let drawn = ModelLock.shared.withLock { () -> Bool in
            body(&model)
            if let field = model.special.field { Transaction.recordLocked(self, fields: field.bit) }
            return snapshotNode != nil
        }
        if drawn, let key { runAction(forKey: key) }
    }

    /// Gives a specialised layer its kind (a subclass's initialiser, before anything else can see the layer).
    func becomeSpecial(_ special: SpecialContent) {
        model.special = special
        committed.special = special
    }

    /// The size the layer would like to be: the bounds' size (CALayer's `preferredFrameSize()` without a layout
    /// manager). TextLayer gives the size its text needs.
    open func preferredFrameSize() -> CGSize {
        bounds.size
    }

    // MARK: Layout (Layer+Layout.swift)

    /// Lays out the sublayers (CALayer's `layoutSublayers()`): the default calls the delegate's
    /// `layoutSublayers(of:)`. Called for a layer marked with `setNeedsLayout()` (or by a change of its bounds' size
    /// or of its sublayers) before the transaction commits, before a frame of its tree is drawn, and by
    /// `layoutIfNeeded()`; superlayers are laid out before their sublayers. Subclasses override it.
    open func layoutSublayers() {
        delegate?.layoutSublayers(of: self)
    }

    // MARK: Key-value coding (Layer+KeyValueCoding.swift)

    /// The value of a layer property by its Core Animation key (`"position"`, `"hidden"`, `"backgroundColor"`,
    /// a specialised layer's keys), or the value stored under any other key with `setValue(_:forKey:)` (else
    /// `defaultValue(forKey:)` of the layer's class). Structs come as themselves (`CGPoint`, `CGRect`,
    /// `Transform3D`), numbers as the property's Swift type (`CGFloat`, `Float` for opacity), flags as `Bool`.
    /// While a frame draws a layer whose animated key needs display (`needsDisplay(forKey:)`), it answers with
    /// the values the frame presents, so `draw(in:)` draws the animation (docs/porting-layers.md).
    open func value(forKey key: String) -> Any? {
        keyValue(forKeyPath: key)
    }

    /// Sets a layer property by its key, as its setter does (in the current transaction, with its action); any
    /// other key stores `value` on the layer (custom properties: docs/porting-layers.md). nil removes a custom
    /// value; a value of the wrong type for a property is ignored.
    open func setValue(_ value: Any?, forKey key: String) {
        setKeyValue(value, forKeyPath: key)
    }

    /// `value(forKey:)` by key path: `"position.x"`, `"bounds.size.width"`, `"transform.rotation.z"`,
    /// `"sublayerTransform.translation.x"`, the parts of a custom point, size or rect.
    open func value(forKeyPath keyPath: String) -> Any? {
        keyValue(forKeyPath: keyPath)
    }

    /// `setValue(_:forKey:)` by key path (`"transform.scale"` sets the scale of the matrix's decomposition).
    open func setValue(_ value: Any?, forKeyPath keyPath: String) {
        setKeyValue(value, forKeyPath: keyPath)
    }

    /// The value `value(forKey:)` gives for `key` when the layer has none (CALayer's `defaultValue(forKey:)`): the
    /// documented default of a layer property (from the property table), nil for any other key. Subclasses override
    /// it to give their custom keys defaults.
    open class func defaultValue(forKey key: String) -> Any? {
        standardDefaultValue(forKey: key)
    }

    /// Whether a change of `key` makes the layer draw again (CALayer's `needsDisplay(forKey:)`): false by default.
    /// A subclass returns true for its custom keys: `setValue(_:forKey:)` then marks the layer with
    /// `setNeedsDisplay()`, and while an animation of the key runs, every frame draws the layer again with the
    /// presented value (docs/porting-layers.md).
    open class func needsDisplay(forKey key: String) -> Bool {
        false
    }

    /// A specialised layer's keys that the animatable key paths do not cover (instanceCount, string, lineCap,
    /// ...), each over the subclass's own property, for key-value coding; empty for `Layer`.
    class var styleKeys: [String: StyleKey] { [:] }

    /// Whether the value for `key` is archived (CALayer's `shouldArchiveValue(forKey:)`): true. Lamina does not
    /// archive layers; kept for ported code.
    open func shouldArchiveValue(forKey key: String) -> Bool {
        true
    }

    /// The action a change of `key` runs when nothing else gives one (Layer+Actions.swift): the implicit
    /// animation of an animatable key (`implicitAnimation(forKey:)`), nil for others. Subclasses may override it.
    open class func defaultAction(forKey key: String) -> Action? {
        implicitAnimation(forKey: key)
    }

    // MARK: Custom drawing (Layer+Display.swift)

    /// True when the layer is marked to be drawn (setNeedsDisplay()) and has not been drawn since.
    public func needsDisplay() -> Bool { ModelLock.shared.withLock { needsDisplayFlag } }
    /// How many times `display()` has run: drawing happens only when marked, and this counts it.
    public var displayCount: Int { ModelLock.shared.withLock { displays } }

    /// Fills `contents`: the delegate's `display(_:)` if there is a delegate (whose default makes a backing
    /// image and calls `draw(in:)`), else the standard backing-image path. Subclasses may override it to set
    /// `contents` themselves. A frame calls it on its own thread, before it takes its snapshot.
    open func display() {
        ModelLock.shared.withLock { displays += 1 }
        if let delegate {
            delegate.display(self)
        } else {
            displayIntoBackingImage()
        }
    }

    /// Whether the layer contains `point`, given in the layer's own space: CALayer's `contains(_:)`, which is
    /// `bounds.contains(point)` (a point on the min edges is in, one on the max edges is out, as with
    /// CGRectContainsPoint). `hitTest(_:)` decides with it; subclasses may override it for other shapes.
    open func contains(_ point: CGPoint) -> Bool {
        bounds.contains(point)
    }

    /// Draws the layer's contents into `context` (user space: the bounds, in points). The default calls the
    /// delegate's `draw(_:in:)`; subclasses override it to draw themselves.
    open func draw(in context: DrawingContext) {
        delegate?.draw(self, in: context)
    }

    var debugName: String { read { $0.debugName } }

    deinit {
        // Release a deep tree iteratively: the default recursive release of a 10,000-level chain would
        // overflow the stack. No other thread can reach this layer now, so its fields need no lock.
        var pending = modelSublayers + committedSublayers
        modelSublayers = []
        committedSublayers = []
        var node = snapshotNode
        snapshotNode = nil
        LayerSnapshot.release(&node)
        while var layer = pending.popLast() {
            if isKnownUniquelyReferenced(&layer) {
                pending.append(contentsOf: layer.modelSublayers)
                pending.append(contentsOf: layer.committedSublayers)
                layer.modelSublayers = []
                layer.committedSublayers = []
                var node = layer.snapshotNode
                layer.snapshotNode = nil
                LayerSnapshot.release(&node)
            }
        }
    }

    private static let nextID = AtomicCounter()
}

/// Layers are equal when they are the same object, as NSObject's `isEqual(_:)` makes CALayers.
extension Layer: Hashable {
    public static func == (lhs: Layer, rhs: Layer) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension LayerState {
    var debugName: String {
        let named = name.map { "layer \"\($0)\"" }
        guard let sourceDescription else { return named ?? "a layer" }
        return "\(named ?? "the layer") at \(sourceDescription)"
    }
}
