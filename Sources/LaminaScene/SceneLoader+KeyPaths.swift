import Foundation
import LaminaCore
import LaminaLayers

/// How a scene file writes the values of an animatable key path (docs/scene-format.md, "Animations").
enum AnimatedValueForm: Equatable {
    /// A number, given to the animation as a Double.
    case number
    /// Degrees clockwise on screen, as the `rotate` step; given to the animation in radians.
    case angle
    /// [x, y]: a CGPoint.
    case point
    /// [width, height]: a CGSize.
    case size
    /// [x, y, width, height]: a CGRect.
    case rect
    /// A colour as written elsewhere: a `Color`.
    case color
    /// A matrix or a list of steps, as `transform`: a `Transform3D`.
    case transform
    /// An image name or path, or "SHEET/FRAME", as `contents`.
    case contents
    /// true or false: a Bool.
    case flag
    /// A list of colours (a gradient's `colors`): a `[Color]`.
    case colors
    /// A list of numbers (`locations`, `lineDashPattern`), or null: a `[Double]` (or nil).
    case numbers
    /// Path steps, as `path` and `shadowPath`: a `Path`.
    case path
}

extension SceneLoader {
    /// Every key path a scene's animation may name, with how its values are written: the layer model's animatable
    /// key paths (AnimatableProperty.valueKinds), each with the form the scene format writes its kind in.
    static let animatableKeyPaths: [String: AnimatedValueForm] = AnimatableProperty.valueKinds.mapValues { kind in
        switch kind {
        case .number: .number
        case .angle: .angle
        case .point: .point
        case .size: .size
        case .rect: .rect
        case .color: .color
        case .transform: .transform
        case .image: .contents
        case .flag: .flag
        case .colors: .colors
        case .numbers: .numbers
        case .path: .path
        }
    }

    /// The form of `keyPath`'s values; nil (reported, with the closest key path) for one that is not animatable.
    func keyPathForm(_ value: JSONValue, _ path: String) -> (keyPath: String, form: AnimatedValueForm)? {
        guard let keyPath = string(value, path) else { return nil }
        if let form = SceneLoader.animatableKeyPaths[keyPath] { return (keyPath, form) }
        let known = SceneLoader.animatableKeyPaths.keys.sorted()
        if let suggestion = Suggestion.closest(to: keyPath, in: known) {
            report(path, at: value.position,
                   "\(ScenePath.quoted(keyPath)) is not an animatable key path (did you mean \"\(suggestion)\"?)")
        } else {
            report(path, at: value.position,
                   "\(ScenePath.quoted(keyPath)) is not an animatable key path (docs/scene-format.md lists them)")
        }
        return nil
    }

    /// One value of an animation of a key path of `form`, as the animation API takes it (numbers as Double,
    /// angles in radians). `contents` values come back as `ContentsSource`, for the caller to place.
    func animatedValue(_ value: JSONValue, _ path: String, form: AnimatedValueForm) -> Any? {
        switch form {
        case .number:
            return number(value, path)
        case .angle:
            // Not reduced to one turn (as the rotate step is): 0 to 720 must turn twice. The parser gives only
            // finite numbers, and degrees to radians cannot overflow.
            return number(value, path).map { $0 * .pi / 180 }
        case .point:
            return point(value, path)
        case .size:
            return numbers(value, path, counts: [2], shape: "[width, height]").map {
                CGSize(width: $0[0], height: $0[1])
            }
        case .rect:
            return numbers(value, path, counts: [4], shape: "[x, y, width, height]").map {
                CGRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3])
            }
        case .color:
            return color(value, path)
        case .transform:
            return transform(value, path)
        case .contents:
            return contents(value, path)
        case .flag:
            return bool(value, path)
        case .colors:
            return colors(value, path)
        case .numbers:
            if case .null = value.kind { return nil as [Double]? as Any }
            guard case .array(let items) = value.kind else {
                report(path, at: value.position, "expected a list of numbers or null")
                return nil
            }
            let list = items.enumerated().compactMap { number($1, ScenePath.index(path, $0)) }
            return list.count == items.count ? list : nil
        case .path:
            guard let steps = drawingSteps(value, path) else { return nil }
            return self.path(steps, value: value, path: path, bounds: animatedPathBounds)
        }
    }
}
