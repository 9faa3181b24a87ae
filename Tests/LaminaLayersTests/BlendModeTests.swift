import Foundation
import LaminaCore
import Testing

@testable import LaminaLayers

/// `compositingFilter` (docs/semantics.md, "Blend modes") in the model and the planner: the names it takes, how it
/// reads back, key-value coding, and the groups a blended layer makes.
@Suite struct BlendModeTests {
    static let coreAnimationNames = [
        "normalBlendMode", "multiplyBlendMode", "screenBlendMode", "overlayBlendMode", "darkenBlendMode",
        "lightenBlendMode", "colorDodgeBlendMode", "colorBurnBlendMode", "softLightBlendMode", "hardLightBlendMode",
        "differenceBlendMode", "exclusionBlendMode", "hueBlendMode", "saturationBlendMode", "colorBlendMode",
        "luminosityBlendMode", "sourceAtop", "sourceIn", "sourceOut", "destinationOver", "destinationIn",
        "destinationOut", "destinationAtop", "xor", "plusLighter", "plusDarker",
    ]

    @Test func everyCoreAnimationNameIsAModeAndReadsBack() {
        #expect(LayerBlendMode.allCases.map(\.rawValue) == Self.coreAnimationNames)
        for name in Self.coreAnimationNames {
            let layer = Layer()
            layer.compositingFilter = name
            #expect(layer.compositingFilter as? String == name)
            #expect(layer.blendMode?.rawValue == name)
        }
    }

    @Test func coreImageSpellingsNameTheSameModes() {
        let pairs: [(String, LayerBlendMode)] = [
            ("CIMultiplyBlendMode", .multiply), ("CIScreenBlendMode", .screen), ("CIOverlayBlendMode", .overlay),
            ("CIDarkenBlendMode", .darken), ("CILightenBlendMode", .lighten), ("CIColorDodgeBlendMode", .colorDodge),
            ("CIColorBurnBlendMode", .colorBurn), ("CISoftLightBlendMode", .softLight),
            ("CIHardLightBlendMode", .hardLight), ("CIDifferenceBlendMode", .difference),
            ("CIExclusionBlendMode", .exclusion), ("CIHueBlendMode", .hue), ("CISaturationBlendMode", .saturation),
            ("CIColorBlendMode", .color), ("CILuminosityBlendMode", .luminosity),
            ("CISourceAtopCompositing", .sourceAtop), ("CISourceInCompositing", .sourceIn),
            ("CISourceOutCompositing", .sourceOut), ("CISourceOverCompositing", .normal),
            ("CIAdditionCompositing", .plusLighter),
        ]
        for (name, mode) in pairs {
            #expect(LayerBlendMode(rawValue: name) == mode, "\(name)")
            let layer = Layer()
            layer.compositingFilter = name
            // Read back as Core Animation's name of the mode.
            #expect(layer.compositingFilter as? String == mode.rawValue, "\(name)")
        }
        #expect(LayerBlendMode.names.count == 26 + 20)
    }

    @Test func anythingElseIsNoFilter() {
        let layer = Layer()
        #expect(layer.compositingFilter == nil && layer.blendMode == nil)
        layer.compositingFilter = "multiplyBlendMode"
        for value: Any? in ["multiplyBlendMod", "", "CIGaussianBlur", 5, ["multiplyBlendMode"], nil] {
            layer.compositingFilter = value
            #expect(layer.compositingFilter == nil, "\(String(describing: value))")
        }
        layer.blendMode = .xor
        #expect(layer.compositingFilter as? String == "xor")
    }

    @Test func keyValueCodingTakesNamesAndReadsCoreAnimationsName() {
        let layer = Layer()
        #expect(layer.value(forKey: "compositingFilter") == nil)
        layer.setValue("CIScreenBlendMode", forKey: "compositingFilter")
        #expect(layer.value(forKey: "compositingFilter") as? String == "screenBlendMode")
        #expect(layer.blendMode == .screen)
        layer.setValue("nonsense", forKey: "compositingFilter")
        #expect(layer.value(forKey: "compositingFilter") == nil)
        #expect(Layer.defaultValue(forKey: "compositingFilter") == nil)
    }

    @Test func notAnimatableAndInTheTable() {
        #expect(AnimatableProperty.named("compositingFilter") == nil)
        let property = LayerProperty.byKey["compositingFilter"]
        #expect(property?.effects == .paint)
        #expect(LayerState.Field.compositingFilter.actionKey == nil)
    }

    /// A 40 x 40 root with a red square under a blended 20 x 20 leaf.
    func tree(_ filter: String?) -> (root: Layer, top: Layer) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        let under = Layer(frame: CGRect(x: 0, y: 0, width: 30, height: 30))
        under.backgroundColor = .red
        let top = Layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        top.backgroundColor = .blue
        top.compositingFilter = filter
        root.sublayers = [under, top]
        return (root, top)
    }

    @Test func aBlendedLeafIsAGroupOfItsOwn() throws {
        let blended = try Planner().plan(tree("multiplyBlendMode").root)
        #expect(blended.groups.count == 1)
        let group = try #require(blended.groups.first)
        #expect(group.composite == .multiply && group.opacity == 1 && group.range == 1..<2)
        #expect(group.bounds == PixelBox(x0: 10, y0: 10, x1: 30, y1: 30))
        #expect(try Planner().plan(tree("normalBlendMode").root).groups.isEmpty)
        #expect(try Planner().plan(tree(nil).root).groups.isEmpty)
        #expect(try Planner().plan(tree("plusLighter").root).groups.map(\.composite) == [.plusLighter])
    }

    @Test func theOpacityOfABlendedLayerFadesItsGroup() throws {
        let (root, top) = tree("screenBlendMode")
        top.opacity = 0.5
        top.allowsGroupOpacity = false
        let plan = try Planner().plan(root)
        #expect(plan.groups.map(\.opacity) == [0.5] && plan.groups.map(\.composite) == [.screen])
        #expect(plan.quads[1].opacity == 1, "drawn at full strength inside its group")
    }

    @Test func aRoundedClipAroundABlendedLayerIsDrawnOffscreen() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 60, height: 60)
        let card = Layer(frame: CGRect(x: 0, y: 0, width: 60, height: 60))
        card.cornerRadius = 10
        card.masksToBounds = true
        let under = Layer(frame: CGRect(x: 20, y: 20, width: 20, height: 20))
        under.backgroundColor = .red
        let top = Layer(frame: CGRect(x: 25, y: 25, width: 10, height: 10))
        top.backgroundColor = .blue
        top.compositingFilter = "differenceBlendMode"
        card.sublayers = [under, top]
        root.sublayers = [card]
        let plan = try Planner().plan(root)
        // The sublayers lie inside the rounded corners, yet the clip becomes a masked group: what is beneath the
        // blended layer is what the clip's group holds.
        #expect(plan.groups.contains { $0.maskStart != nil })
        #expect(plan.groups.contains { $0.composite == .difference })
        top.compositingFilter = nil
        #expect(try Planner().plan(root).groups.isEmpty, "without the blend mode the clip is applied in place")
    }

    @Test func theCachedPlanFollowsAChangeOfFilter() throws {
        let (root, top) = tree("multiplyBlendMode")
        let cache = PlanCache()
        let planner = Planner()
        let first = try planner.plan(root.presentationForFrame(at: 0), cache: cache)
        #expect(first.groups.map(\.composite) == [.multiply])
        top.compositingFilter = "xor"
        Transaction.flush()
        let second = try planner.plan(root.presentationForFrame(at: 0), cache: cache)
        #expect(second.groups.map(\.composite) == [.xor])
        top.compositingFilter = nil
        Transaction.flush()
        let third = try planner.plan(root.presentationForFrame(at: 0), cache: cache)
        #expect(third.groups.isEmpty && third.quads.count == 2)
        // Moving the blended layer plans its group where it now is.
        top.compositingFilter = "darkenBlendMode"
        Transaction.flush()
        _ = try planner.plan(root.presentationForFrame(at: 0), cache: cache)
        Transaction.begin()
        Transaction.setDisableActions(true)
        top.position.x += 5
        Transaction.commit()
        let moved = try planner.plan(root.presentationForFrame(at: 0), cache: cache)
        #expect(moved.groups.map(\.bounds) == [PixelBox(x0: 15, y0: 10, x1: 35, y1: 30)])
    }
}
