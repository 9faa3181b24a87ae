import Foundation
import LaminaCore
import LaminaDrawing

/// A node of the layer tree, with CALayer's names and defaults.
///
/// A layer is a model object: it holds geometry, contents and appearance and knows nothing of pixels.
/// The planner turns a tree of layers into a RenderPlan, which a Renderer draws.
///
/// Adding a layer as a sublayer of itself or of one of its descendants would make a cycle; Lamina stops
/// the program with a precondition failure that says so, as Core Animation raises an exception.
///
/// Stored properties skip Swift's run-time exclusivity checks (`@exclusivity(unchecked)`): the planner reads
/// a dozen of them per layer per frame, the checks were a third of its time, and a layer tree is used from one
/// thread with no overlapping mutations.
open class Layer {
    /// Used in error messages and debugging; nil by default.
    @exclusivity(unchecked) public var name: String? {
        didSet { invalidatePlan() }
    }

    // MARK: Geometry (docs/semantics.md, "Geometry")

    /// The layer's own coordinate space: its origin scrolls the sublayers; its size is what it paints.
    /// A change of size marks the layer for drawing when `needsDisplayOnBoundsChange` is true.
    @exclusivity(unchecked) public var bounds: CGRect = .zero {
        didSet {
            if needsDisplayOnBoundsChange, bounds.size != oldValue.size { needsDisplay = true }
            invalidatePlan()
        }
    }
    /// Where the anchor point sits in the superlayer's space.
    @exclusivity(unchecked) public var position: CGPoint = .zero {
        didSet { invalidatePlan() }
    }
    /// The point of the bounds, in unit coordinates, that `position` names and transforms turn about.
    @exclusivity(unchecked) public var anchorPoint = CGPoint(x: 0.5, y: 0.5) {
        didSet { invalidatePlan() }
    }
    /// Paint order among siblings: higher is later (on top); ties keep array order.
    @exclusivity(unchecked) public var zPosition: CGFloat = 0 {
        didSet { invalidatePlan() }
    }
    /// Applied about the anchor point.
    @exclusivity(unchecked) public var transform: Transform3D = .identity {
        didSet { invalidatePlan() }
    }
    /// Applied to every sublayer, about this layer's anchor point.
    @exclusivity(unchecked) public var sublayerTransform: Transform3D = .identity {
        didSet { invalidatePlan() }
    }

    // MARK: Appearance

    /// Hides the layer and its subtree.
    @exclusivity(unchecked) public var isHidden = false {
        didSet { invalidatePlan() }
    }
    /// Multiplies everything the layer and its subtree paint; 0...1.
    @exclusivity(unchecked) public var opacity: Float = 1 {
        didSet { invalidatePlan() }
    }
    /// true: with opacity below 1 and visible sublayers, the layer and its subtree are composited as one picture
    /// (offscreen) and then faded; false: each layer is faded on its own.
    @exclusivity(unchecked) public var allowsGroupOpacity = true {
        didSet { invalidatePlan() }
    }
    /// nil: no background.
    @exclusivity(unchecked) public var backgroundColor: Color? {
        didSet { invalidatePlan() }
    }
    /// The width of the border drawn inside the bounds, above the sublayers; 0: no border.
    @exclusivity(unchecked) public var borderWidth: CGFloat = 0 {
        didSet { invalidatePlan() }
    }
    /// The border's colour; opaque black by default, as CALayer's.
    @exclusivity(unchecked) public var borderColor: Color = .black {
        didSet { invalidatePlan() }
    }
    /// The radius of the bounds' corners, in points: rounds the background and the border always, and the contents
    /// and sublayers when masksToBounds is true. Limited to half the shorter side. 0: square corners.
    @exclusivity(unchecked) public var cornerRadius: CGFloat = 0 {
        didSet { invalidatePlan() }
    }
    /// Which corners cornerRadius rounds; all four by default.
    @exclusivity(unchecked) public var maskedCorners: CornerMask = .all {
        didSet { invalidatePlan() }
    }
    /// The shadow's colour (straight alpha, multiplied by shadowOpacity); opaque black by default.
    @exclusivity(unchecked) public var shadowColor: Color? = .black {
        didSet { invalidatePlan() }
    }
    /// 0...1; 0 (the default) draws no shadow.
    @exclusivity(unchecked) public var shadowOpacity: Float = 0 {
        didSet { invalidatePlan() }
    }
    /// Where the shadow sits relative to the layer, in the layer's space (points, y down): the default (0, -3) puts
    /// it 3 points above, as on iOS.
    @exclusivity(unchecked) public var shadowOffset = CGSize(width: 0, height: -3) {
        didSet { invalidatePlan() }
    }
    /// The blur radius in points: the Gaussian's standard deviation (docs/semantics.md); 0: a hard shadow.
    @exclusivity(unchecked) public var shadowRadius: CGFloat = 3 {
        didSet { invalidatePlan() }
    }
    /// The shadow's shape in the layer's space (filled, non-zero winding); nil: the alpha of everything the layer
    /// paints (background, contents, sublayers, border).
    @exclusivity(unchecked) public var shadowPath: Path? {
        didSet { invalidatePlan() }
    }
    /// A layer whose painted alpha masks this layer and its subtree; it lives in this layer's coordinate space (as
    /// a sublayer would, without sublayerTransform) and is not part of the tree. nil: no mask.
    public var mask: Layer? {
        didSet {
            if oldValue?.maskOwner === self { oldValue?.maskOwner = nil }
            mask?.maskOwner = self
            invalidatePlan()
        }
    }
    /// The layer this one masks, so changes to a mask reach its owner's plan.
    weak var maskOwner: Layer?
    /// Clips contents and sublayers to the bounds.
    @exclusivity(unchecked) public var masksToBounds = false {
        didSet { invalidatePlan() }
    }
    /// false: the layer and its subtree are not drawn while their back faces the viewer (after all transforms).
    @exclusivity(unchecked) public var isDoubleSided = true {
        didSet { invalidatePlan() }
    }
    /// true: the layer's edges get analytic coverage (antialiasing) instead of the pixel-centre rule.
    @exclusivity(unchecked) public var allowsEdgeAntialiasing = false {
        didSet { invalidatePlan() }
    }

    // MARK: Contents (docs/semantics.md, "Contents")

    /// The backing image; nil paints nothing.
    @exclusivity(unchecked) public var contents: Image? {
        didSet { invalidatePlan() }
    }
    /// The part of the image to show, in unit coordinates of the image; may reach outside 0...1.
    @exclusivity(unchecked) public var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1) {
        didSet { invalidatePlan() }
    }
    /// The stretchable centre of the sub-image, in unit coordinates of the sub-image.
    @exclusivity(unchecked) public var contentsCenter = CGRect(x: 0, y: 0, width: 1, height: 1) {
        didSet { invalidatePlan() }
    }
    /// How the sub-image is placed in the bounds.
    @exclusivity(unchecked) public var contentsGravity: ContentsGravity = .resize {
        didSet { invalidatePlan() }
    }
    /// Image pixels per point.
    @exclusivity(unchecked) public var contentsScale: CGFloat = 1 {
        didSet { invalidatePlan() }
    }
    /// Lamina extension: the sub-image of contentsRect is stored turned 90 degrees clockwise in the image,
    /// as TexturePacker stores rotated sprite-sheet frames; it is turned back when drawn. false by default.
    @exclusivity(unchecked) public var contentsAreRotated = false {
        didSet { invalidatePlan() }
    }
    /// The filter used when the contents are drawn smaller than their pixel size.
    @exclusivity(unchecked) public var minificationFilter: Filter = .linear {
        didSet { invalidatePlan() }
    }
    /// The filter used when the contents are drawn larger than their pixel size.
    @exclusivity(unchecked) public var magnificationFilter: Filter = .linear {
        didSet { invalidatePlan() }
    }
    /// Added to the level of detail of trilinear minification (log2 texels per pixel): positive picks smaller
    /// (blurrier) mip levels, negative larger (sharper) ones. 0 by default.
    @exclusivity(unchecked) public var minificationFilterBias: Float = 0 {
        didSet { invalidatePlan() }
    }

    // MARK: Custom drawing (Layer+Display.swift)

    /// Draws the layer's contents: weakly held, as CALayer holds its delegate.
    public weak var delegate: LayerDelegate?
    /// Lamina extension: a delegate the layer itself keeps alive, for delegates nothing else owns (a scene file's
    /// drawing steps). Setting it sets `delegate` too. nil by default.
    public var ownedDelegate: LayerDelegate? {
        didSet { delegate = ownedDelegate }
    }
    /// True when the layer is marked to be drawn (setNeedsDisplay()) and has not been drawn since.
    public internal(set) var needsDisplay = false {
        didSet { if needsDisplay { invalidatePlan() } }
    }
    /// Marks the layer for drawing whenever its bounds change size. false by default.
    @exclusivity(unchecked) public var needsDisplayOnBoundsChange = false
    /// How many times `display()` has run: drawing happens only when marked, and this counts it.
    public private(set) var displayCount = 0
    /// Bumped whenever this layer or anything under it changes; the planner reuses what it planned for a subtree
    /// while this (and the subtree's place on screen) stays the same.
    var subtreeVersion: UInt64 = 0
    /// What the planner emitted for this subtree last time, and under which conditions (Planner+Cache.swift).
    var planFragment: PlanFragment?
    /// The layer's shadow as last planned (Planner+Shadow.swift).
    var plannedShadow: PlannedShadow?
    /// shadowPath drawn into an image, for the last path and scale.
    var shadowPathImage: ShadowPathImage?

    /// Marks this layer's subtree, and so every ancestor's, as changed.
    func invalidatePlan() {
        var node: Layer? = self
        while let layer = node {
            layer.subtreeVersion &+= 1
            node = layer.superlayer ?? layer.maskOwner
        }
    }

    /// The image the standard drawing path made last, reused for the next drawing when the size is unchanged.
    var backingImage: Image?
    /// Why the last drawing made no image (an absurd size), for the planner to report; nil when it worked.
    var lastDisplayError: String?

    /// Fills `contents`: the delegate's `display(_:)` if there is a delegate (whose default makes a backing
    /// image and calls `draw(in:)`), else the standard backing-image path. Subclasses may override it to set
    /// `contents` themselves.
    open func display() {
        displayCount += 1
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

    // MARK: Tree

    /// The layer this one is a sublayer of; nil for a root.
    public private(set) weak var superlayer: Layer?
    @exclusivity(unchecked) private var storedSublayers: [Layer] = []

    public init() {}

    /// A layer with the given frame.
    public convenience init(frame: CGRect) {
        self.init()
        self.frame = frame
    }

    /// The sublayers, painted in ascending zPosition, ties in this order. Setting it removes the old ones and
    /// adds the new ones, as CALayer does.
    public var sublayers: [Layer] {
        get { storedSublayers }
        set {
            for layer in storedSublayers { layer.superlayer = nil }
            storedSublayers = []
            invalidatePlan()
            for layer in newValue { addSublayer(layer) }
        }
    }

    /// Appends `layer`, removing it from its current superlayer first.
    public func addSublayer(_ layer: Layer) {
        insertSublayer(layer, at: storedSublayers.count)
    }

    /// Inserts `layer` at `index` (clamped to the valid range), removing it from its current superlayer first.
    public func insertSublayer(_ layer: Layer, at index: Int) {
        precondition(
            !layer.isAncestor(ofOrSameAs: self),
            "Layer: cannot add \(layer.debugName) as a sublayer of \(debugName): it is that layer or one of its ancestors, which would make a cycle"
        )
        layer.removeFromSuperlayer()
        storedSublayers.insert(layer, at: min(max(index, 0), storedSublayers.count))
        layer.superlayer = self
        invalidatePlan()
    }

    /// Inserts `layer` just below `sibling` (or at the bottom when `sibling` is nil or not a sublayer).
    public func insertSublayer(_ layer: Layer, below sibling: Layer?) {
        let index = sibling.flatMap { s in storedSublayers.firstIndex { $0 === s } } ?? 0
        insertSublayer(layer, at: index)
    }

    /// Inserts `layer` just above `sibling` (or at the top when `sibling` is nil or not a sublayer).
    public func insertSublayer(_ layer: Layer, above sibling: Layer?) {
        let index = sibling.flatMap { s in storedSublayers.firstIndex { $0 === s } }.map { $0 + 1 }
        insertSublayer(layer, at: index ?? storedSublayers.count)
    }

    /// Puts `newLayer` where `oldLayer` is; does nothing when `oldLayer` is not a sublayer.
    public func replaceSublayer(_ oldLayer: Layer, with newLayer: Layer) {
        guard let index = storedSublayers.firstIndex(where: { $0 === oldLayer }) else { return }
        oldLayer.removeFromSuperlayer()
        insertSublayer(newLayer, at: index)
    }

    /// Detaches the layer from its superlayer.
    public func removeFromSuperlayer() {
        guard let parent = superlayer else { return }
        parent.storedSublayers.removeAll { $0 === self }
        superlayer = nil
        parent.invalidatePlan()
    }

    /// True when `self` is `layer` or one of its ancestors.
    func isAncestor(ofOrSameAs layer: Layer) -> Bool {
        if self === layer { return true }
        // Only a layer with sublayers can be an ancestor; this keeps building a deep chain linear.
        if storedSublayers.isEmpty { return false }
        var node: Layer? = layer
        while let current = node {
            if current === self { return true }
            node = current.superlayer
        }
        return false
    }

    /// Where the layer was described, for error messages: a scene file sets the layer's JSON path, file, line and
    /// column ("layers[0].sublayers[2] at scene.json:4:9"). nil: made in code. Not drawn, and changes no plan.
    public var sourceDescription: String?

    var debugName: String {
        let named = name.map { "layer \"\($0)\"" }
        guard let sourceDescription else { return named ?? "a layer" }
        return "\(named ?? "the layer") at \(sourceDescription)"
    }

    deinit {
        // Release a deep tree iteratively: the default recursive release of a 10,000-level chain would
        // overflow the stack.
        var pending = storedSublayers
        storedSublayers = []
        while var layer = pending.popLast() {
            if isKnownUniquelyReferenced(&layer) {
                pending.append(contentsOf: layer.storedSublayers)
                layer.storedSublayers = []
            }
        }
    }
}
