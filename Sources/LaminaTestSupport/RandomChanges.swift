import Foundation
import Lamina

/// Random changes of the kinds live frames see, for the tests that compare incremental plans and live frames with
/// fresh ones (IncrementalRandomTests, LiveFrameRandomTests).
public enum RandomChanges {
    /// Every layer of the tree, masks included, in a stable order.
    public static func layers(_ root: Layer) -> [Layer] {
        var all: [Layer] = []
        var pending = [root]
        while let layer = pending.popLast() {
            all.append(layer)
            pending.append(contentsOf: (layer.sublayers ?? []).reversed())
            if let mask = layer.mask { pending.append(mask) }
        }
        return all
    }

    /// Kinds of change, in the order `change` numbers them: the first nine are the planner's (moves, colours,
    /// opacity, visibility, turns, clips, removals, additions); the rest add re-orders, zPosition, masks, shadows,
    /// corner radii, textures changed in place and borders.
    public static let kinds = 16

    /// Applies one random change of the first `kinds` kinds to a random layer of `root`; returns what it did.
    @discardableResult
    public static func change(_ root: Layer, random: inout TreeRandom, kinds: Int = RandomChanges.kinds) -> String {
        let all = layers(root)
        let layer = all[random.below(all.count)]
        switch random.below(min(max(kinds, 1), Self.kinds)) {
        case 0:
            layer.position.x += CGFloat(random.below(21) - 10)
            return "move \(layer.id) by whole points"
        case 1:
            layer.position.y += CGFloat(random.between(-5, 5))
            return "move \(layer.id) by a fraction"
        case 2:
            layer.backgroundColor = Color(red: random.unit(), green: random.unit(), blue: random.unit(),
                                          alpha: kinds > 9 && random.chance(0.3) ? random.unit() : 1)
            return "colour \(layer.id)"
        case 3:
            layer.opacity = Float(random.between(0.2, 1))
            return "opacity \(layer.id)"
        case 4:
            layer.isHidden.toggle()
            return "hide \(layer.id)"
        case 5:
            layer.transform = Transform3D(rotationAngle: CGFloat(random.between(-0.5, 0.5)))
            return "turn \(layer.id)"
        case 6:
            layer.masksToBounds.toggle()
            return "clip \(layer.id)"
        case 7:
            guard layer !== root else { return "none" }
            layer.removeFromSuperlayer()
            return "remove \(layer.id)"
        case 8:
            let added = Layer(frame: CGRect(x: random.between(0, 40), y: random.between(0, 40), width: 12, height: 9))
            added.backgroundColor = .blue
            layer.addSublayer(added)
            return "add under \(layer.id)"
        case 9:
            // Re-order: a sublayer goes to another place among its siblings.
            guard let parent = layer.superlayer, parent.mask !== layer, (parent.sublayers ?? []).count > 1 else { return "none" }
            let index = random.below((parent.sublayers ?? []).count)
            parent.insertSublayer(layer, at: index)
            return "re-order \(layer.id) to \(index)"
        case 10:
            layer.zPosition = CGFloat(random.below(3) - 1)
            return "zPosition \(layer.id)"
        case 11:
            if layer.mask != nil {
                layer.mask = nil
                return "unmask \(layer.id)"
            }
            let mask = Layer(frame: CGRect(x: random.between(0, 20), y: random.between(0, 20), width: 30, height: 24))
            mask.backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: random.chance(0.5) ? 1 : 0.5)
            mask.cornerRadius = random.chance(0.5) ? 6 : 0
            layer.mask = mask
            return "mask \(layer.id)"
        case 12:
            layer.shadowOpacity = random.chance(0.3) ? 0 : Float(random.between(0.3, 1))
            layer.shadowRadius = CGFloat(random.below(6))
            layer.shadowOffset = CGSize(width: random.below(7) - 3, height: random.below(7) - 3)
            return "shadow \(layer.id)"
        case 13:
            layer.cornerRadius = CGFloat(random.below(3) * 4)
            return "corners \(layer.id)"
        case 14:
            // A texture changed in place: every layer showing it must be redrawn.
            guard let image = layer.contents as? Image else { return "none" }
            let x = random.below(image.width), y = random.below(image.height)
            image.baseAddress.storeBytes(of: UInt32(truncatingIfNeeded: random.next()) | 0xFF00_0000,
                                         toByteOffset: y * image.bytesPerRow + x * 4, as: UInt32.self)
            image.markModified()
            return "texel (\(x), \(y)) of \(layer.id)"
        default:
            layer.borderWidth = CGFloat(random.below(3))
            layer.borderColor = .red
            return "border \(layer.id)"
        }
    }
}
