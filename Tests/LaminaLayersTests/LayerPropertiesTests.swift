import Foundation
import LaminaCore
import LaminaDrawing
import Testing

@testable import LaminaLayers

/// The property table (LayerProperties.swift) against what it stands for: every stored field of LayerState has an
/// entry, the defaults are Core Animation's, and what is derived from it (copying, key paths, actions, the placement
/// set) agrees with the entries.
@Suite struct LayerPropertiesTests {
    /// Core Animation's documented defaults (CALayer's reference), as `String(describing:)` writes them, by the
    /// Swift name of the property; Lamina's own properties are marked.
    static let unit = CGRect(x: 0, y: 0, width: 1, height: 1)
    static let documentedDefaults: [String: String] = [
        "name": "nil", "bounds": "\(CGRect.zero)", "position": "\(CGPoint.zero)", "anchorPoint": "\(CGPoint(x: 0.5, y: 0.5))",
        "anchorPointZ": "0.0", "zPosition": "0.0", "isGeometryFlipped": "false", "isHidden": "false",
        "opacity": "1.0", "allowsGroupOpacity": "true", "backgroundColor": "nil", "borderWidth": "0.0",
        "cornerRadius": "0.0", "shadowOpacity": "0.0", "shadowOffset": "\(CGSize(width: 0, height: -3))", "shadowRadius": "3.0",
        "shadowPath": "nil", "masksToBounds": "false", "isDoubleSided": "true", "allowsEdgeAntialiasing": "false",
        "isOpaque": "false", "drawsAsynchronously": "false", "shouldRasterize": "false",
        "rasterizationScale": "1.0", "contents": "nil", "contentsRect": "\(unit)",
        "contentsCenter": "\(unit)", "contentsGravity": "resize", "contentsScale": "1.0",
        "contentsFormat": "rgba8Uint", "cornerCurve": "circular", "minificationFilter": "linear",
        "magnificationFilter": "linear", "minificationFilterBias": "0.0", "needsDisplayOnBoundsChange": "false",
        // Lamina's own: not drawn, not rotated.
        "sourceDescription": "nil", "contentsAreRotated": "false",
    ]

    @Test func everyStoredFieldHasAnEntry() {
        let stored = Set(Mirror(reflecting: LayerState()).children.compactMap(\.label))
        let entries = Set(LayerProperty.all.filter { $0.keyPath != nil }.map { property in
            // The specialised layers' fields share one stored field.
            ["gradient", "shape", "text", "replicator", "tiled", "emitter", "drawing", "scroll"].contains(property.name) ? "special" : property.name
        })
        #expect(stored == entries)
        // And every entry's key path is the stored field of its name.
        for property in LayerProperty.all where property.keyPath != nil && property.keyPath != \LayerState.special {
            let state = LayerState()
            let byMirror = Mirror(reflecting: state).children.first { $0.label == property.name }
            let byTable = property.value(in: state)
            #expect(byMirror.map { String(describing: $0.value) } == byTable.map { String(describing: $0) },
                    "\(property.name)")
        }
    }

    @Test func defaultsAreCoreAnimations() {
        let state = LayerState()
        #expect(state.borderColor == .black)
        #expect(state.shadowColor == .black)
        #expect(state.maskedCorners == .all)
        #expect(state.edgeAntialiasingMask == [.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge])
        #expect(state.transform == .identity && state.sublayerTransform == .identity)
        for (name, expected) in Self.documentedDefaults {
            guard let property = LayerProperty.all.first(where: { $0.name == name }) else {
                Issue.record("no entry for \(name)")
                continue
            }
            #expect(property.value(in: state).map { String(describing: $0) } == expected, "\(name)")
        }
    }

    @Test func fieldsAreBitsInTableOrder() {
        #expect(LayerProperty.all.count == LayerState.Field.allCases.count)
        #expect(LayerProperty.all.count <= 64)
        for (index, property) in LayerProperty.all.enumerated() { #expect(property.field.rawValue == index) }
    }

    @Test func keysFollowCoreAnimationsNames() {
        let keys = Dictionary(uniqueKeysWithValues: LayerProperty.all.map { ($0.name, $0.key) })
        #expect(keys["isHidden"] == "hidden")
        #expect(keys["isDoubleSided"] == "doubleSided")
        #expect(keys["isGeometryFlipped"] == "geometryFlipped")
        #expect(keys["isOpaque"] == "opaque")
        #expect(keys["cornerRadius"] == "cornerRadius")
    }

    @Test func copyCopiesExactlyTheGivenFields() {
        var source = LayerState()
        source.cornerRadius = 7
        source.anchorPointZ = 3
        source.opacity = 0.5
        source.cornerCurve = .continuous
        var target = LayerState()
        target.copy(LayerState.Field.cornerRadius.bit | LayerState.Field.cornerCurve.bit
                    | LayerState.Field.anchorPointZ.bit, from: source)
        #expect(target.cornerRadius == 7)
        #expect(target.anchorPointZ == 3)
        #expect(target.cornerCurve == .continuous)
        #expect(target.opacity == 1)
    }

    @Test func everyFieldCopiesThroughItsOffsetWithItsReferences() throws {
        // Copiers copy a stored field at its offset from a state read in place (docs/benchmarks.md, "Planning when
        // everything moved"): plain values and references alike, each reference retained by the copy.
        let image = try Image(width: 2, height: 2, color: .red)
        var target = LayerState()
        do {
            var source = LayerState()
            source.name = String(repeating: "sprite ", count: 4)
            source.bounds = CGRect(x: 1, y: 2, width: 30, height: 40)
            source.position = CGPoint(x: 5.25, y: -7.5)
            source.transform = Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1)
            source.opacity = 0.25
            source.backgroundColor = .blue
            source.contents = image
            source.contentsRect = CGRect(x: 0.5, y: 0, width: 0.5, height: 1)
            source.cornerCurve = .continuous
            source.shadowOffset = CGSize(width: 2, height: 3)
            source.minificationFilter = .trilinear
            var all: UInt64 = 0
            for field in LayerState.Field.allCases { all |= field.bit }
            target.copy(all, from: source)
        }
        // The source is gone: the copy holds its own references.
        #expect(target.name == String(repeating: "sprite ", count: 4))
        #expect(target.bounds == CGRect(x: 1, y: 2, width: 30, height: 40))
        #expect(target.position == CGPoint(x: 5.25, y: -7.5))
        #expect(target.transform == Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1))
        #expect(target.opacity == 0.25 && target.backgroundColor == .blue && target.contents === image)
        #expect(target.contentsRect == CGRect(x: 0.5, y: 0, width: 0.5, height: 1))
        #expect(target.cornerCurve == .continuous && target.shadowOffset == CGSize(width: 2, height: 3))
        #expect(target.minificationFilter == .trilinear && target.anchorPoint == CGPoint(x: 0.5, y: 0.5))
    }

    @Test func derivedSetsFollowTheEntries() {
        let placement = LayerProperty.all.filter { LayerState.placementFields & $0.field.bit != 0 }.map(\.name)
        #expect(placement == ["position", "anchorPoint", "anchorPointZ", "zPosition", "transform"])
        let structure = LayerProperty.all.filter { LayerState.structureFields & $0.field.bit != 0 }.map(\.name)
        #expect(structure == ["sublayers", "mask"])
        #expect(LayerState.Field.cornerRadius.actionKey == "cornerRadius")
        #expect(LayerState.Field.isHidden.actionKey == "hidden")
        #expect(LayerState.Field.anchorPointZ.actionKey == "anchorPointZ")
        #expect(LayerState.Field.rasterizationScale.actionKey == "rasterizationScale")
        #expect(LayerState.Field.masksToBounds.actionKey == nil)
        #expect(LayerState.Field.isGeometryFlipped.actionKey == nil)
        #expect(LayerState.Field.cornerCurve.actionKey == nil)
    }

    @Test func animatableKeyPathsComeFromTheTable() {
        for key in ["anchorPointZ", "rasterizationScale", "position.x", "bounds.size.width", "transform.rotation.z",
                    "hidden", "isHidden", "doubleSided", "isDoubleSided", "shadowOffset.height", "contentsRect.origin"]
        {
            #expect(AnimatableProperty.named(key) != nil, "\(key)")
        }
        for key in ["isOpaque", "opaque", "geometryFlipped", "cornerCurve", "shouldRasterize", "contentsFormat",
                    "edgeAntialiasingMask", "drawsAsynchronously"]
        {
            #expect(AnimatableProperty.named(key) == nil, "\(key)")
        }
        var state = LayerState()
        AnimatableProperty.named("anchorPointZ")?.set(&state, .number(4))
        #expect(state.anchorPointZ == 4)
        AnimatableProperty.named("bounds.size.width")?.set(&state, .number(9))
        #expect(state.bounds.width == 9)
        #expect(AnimatableProperty.named("anchorPointZ")?.isPlacement == true)
    }

    @Test func newPropertiesGoThroughTheModelAndTheSnapshot() throws {
        let layer = Layer()
        layer.anchorPointZ = 2
        layer.isGeometryFlipped = true
        layer.isOpaque = true
        layer.edgeAntialiasingMask = [.layerTopEdge]
        layer.drawsAsynchronously = true
        layer.contentsFormat = .gray8Uint
        layer.shouldRasterize = true
        layer.rasterizationScale = 2
        layer.cornerCurve = .continuous
        Transaction.flush()
        let snapshot = try #require(layer.presentation())
        #expect(snapshot.anchorPointZ == 2)
        #expect(snapshot.isGeometryFlipped)
        #expect(snapshot.isOpaque)
        #expect(snapshot.edgeAntialiasingMask == [.layerTopEdge])
        #expect(snapshot.drawsAsynchronously)
        #expect(snapshot.contentsFormat == .gray8Uint)
        #expect(snapshot.shouldRasterize)
        #expect(snapshot.rasterizationScale == 2)
        #expect(snapshot.cornerCurve == .continuous)
        #expect(layer.cornerCurve == .continuous && layer.contentsFormat == .gray8Uint)
    }

    @Test func implicitActionsComeFromTheTable() {
        #expect(Layer.implicitAnimation(forKey: "anchorPointZ") != nil)
        #expect(Layer.implicitAnimation(forKey: "rasterizationScale") != nil)
        #expect(Layer.implicitAnimation(forKey: "geometryFlipped") == nil)
        #expect(Layer.implicitAnimation(forKey: "cornerCurve") == nil)
        #expect(LayerState.Field.animatable & LayerState.Field.anchorPointZ.bit != 0)
        #expect(LayerState.Field.animatable & LayerState.Field.isOpaque.bit == 0)
    }
}
