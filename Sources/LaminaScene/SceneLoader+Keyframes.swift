import Foundation
import LaminaCore
import LaminaDrawing
import LaminaLayers

/// Keyframe animations (docs/scene-format.md, "Animations") and `contents` values, which may be sprite frames.
extension SceneLoader {
    func keyframeAnimation(_ keys: [String: JSONMember], _ path: String, at value: JSONValue, layer: Layer) -> Animation? {
        guard let (keyPath, form) = requiredKeyPath(keys, path, at: value, layer: layer) else { return nil }
        let animation = KeyframeAnimation(keyPath: keyPath)
        readPropertyFlags(animation, keys, path)
        let problemCount = problems.count
        let function = valueFunction(keys, path, keyPath: keyPath, form: form)
        if case .some(nil) = function { return nil }
        animation.valueFunction = function ?? nil
        if let member = keys["calculationMode"],
            let mode = choice(member.value, ScenePath.key(path, "calculationMode"), what: "calculation mode",
                              options: KeyframeAnimation.CalculationMode.allCases.map { ($0.rawValue, $0) })
        {
            animation.calculationMode = mode
        }
        if let member = keys["path"] {
            let stepsPath = ScenePath.key(path, "path")
            if form != .point {
                report(stepsPath, at: member.keyPosition, "a path moves a point: the keyPath must be a point "
                       + "such as \"position\", not \(ScenePath.quoted(keyPath))")
            } else if let steps = drawingSteps(member.value, stepsPath) {
                animation.path = self.path(steps, value: member.value, path: stepsPath, bounds: layer.bounds)?.cgPath
            }
        }
        if let member = keys["rotationMode"] {
            let modePath = ScenePath.key(path, "rotationMode")
            // Core Animation's constant names are taken too.
            let modes: [(String, KeyframeAnimation.RotationMode)] = [
                ("auto", .rotateAuto), ("autoReverse", .rotateAutoReverse),
                ("rotateAuto", .rotateAuto), ("rotateAutoReverse", .rotateAutoReverse),
            ]
            if let mode = choice(member.value, modePath, what: "rotation mode", options: modes) {
                if keys["path"] == nil {
                    report(modePath, at: member.keyPosition, "only allowed with \"path\"")
                } else {
                    animation.rotationMode = mode
                }
            }
        }
        var count: Int?
        // A path's keyframes: its first point and the end of each line and curve (PathMeasure.vertices).
        var pathKeyframes: Int?
        if let cgPath = animation.path {
            pathKeyframes = PathMeasure(cgPath.path).vertices.count
        }
        if let member = keys["values"] {
            let valuesPath = ScenePath.key(path, "values")
            if case .array(let items) = member.value.kind, !items.isEmpty {
                var read: [(Any, JSONValue, String)] = []
                for (index, item) in items.enumerated() {
                    let itemPath = ScenePath.index(valuesPath, index)
                    if let v = animationValue(item, itemPath, form: form, function: animation.valueFunction) {
                        read.append((v, item, itemPath))
                    }
                }
                if read.count == items.count {
                    if form == .contents, let placed = placeContents(read, layer: layer) {
                        animation.keyPath = placed.keyPath
                        animation.values = placed.values
                    } else if form != .contents {
                        animation.values = read.map(\.0)
                    }
                }
                count = items.count
            } else if case .array = member.value.kind {
                report(valuesPath, at: member.value.position, "is empty (give at least one value)")
            } else {
                typeMismatch(member.value, valuesPath, expected: "an array of values")
            }
        } else if keys["path"] == nil {
            report(path, at: value.position, "needs \"values\" or \"path\"")
        }
        readSplineParameters(animation, keys, path, count: count)
        // With a path, key times and timing functions go by its keyframes.
        let keyframes = pathKeyframes ?? count
        let per = pathKeyframes != nil ? "keyframe of the path: its first point and each line's and curve's end"
            : "value"
        if let member = keys["keyTimes"] {
            let timesPath = ScenePath.key(path, "keyTimes")
            // Discrete keyframes may give one more key time: where the last value stops.
            let counts = keyframes.map { animation.calculationMode == .discrete ? [$0, $0 + 1] : [$0] }
            animation.keyTimes = keyTimes(member.value, timesPath, counts: counts, per: per)?.map { NSNumber(value: $0) }
        }
        if let member = keys["timingFunctions"] {
            let listPath = ScenePath.key(path, "timingFunctions")
            if case .array(let items) = member.value.kind {
                if let keyframes, items.count != max(keyframes - 1, 0) {
                    let expected = max(keyframes - 1, 0)
                    let between = pathKeyframes != nil ? "keyframes of the path" : "values"
                    report(listPath, at: member.value.position,
                           "expected \(expected) timing function\(expected == 1 ? "" : "s") (one per segment "
                           + "between \(between)), got \(items.count)")
                }
                let functions = items.enumerated().compactMap { index, item in
                    timingFunction(item, ScenePath.index(listPath, index))
                }
                if functions.count == items.count { animation.timingFunctions = functions }
            } else {
                typeMismatch(member.value, listPath, expected: "an array of timing functions")
            }
        }
        return problems.count == problemCount ? animation : nil
    }

    /// Numbers in 0...1, non-decreasing, as many as one of `counts` (nil: not checked, the values were bad).
    private func keyTimes(_ value: JSONValue, _ path: String, counts: [Int]?, per: String) -> [Double]? {
        guard case .array(let items) = value.kind else {
            typeMismatch(value, path, expected: "an array of key times in 0...1")
            return nil
        }
        if let counts, !counts.contains(items.count) {
            let expected = counts.map(String.init).joined(separator: " or ")
            report(path, at: value.position, "expected \(expected) key times (one per \(per)), got \(items.count)")
            return nil
        }
        var times: [Double] = []
        for (index, item) in items.enumerated() {
            guard let time = number(item, ScenePath.index(path, index)) else { return nil }
            guard (0...1).contains(time) else {
                report(ScenePath.index(path, index), at: item.position, "must be between 0 and 1")
                return nil
            }
            if let last = times.last, time < last {
                report(ScenePath.index(path, index), at: item.position,
                       "key times must not decrease (\(format(time)) after \(format(last)))")
                return nil
            }
            times.append(time)
        }
        return times
    }

    /// The key path and values an animation of `contents` gets. Images stay images (a cross-dissolve); frames of
    /// one sprite sheet become a `contentsRect` animation over the sheet, which is how a flip-book is made with
    /// Core Animation, and the layer shows that sheet: its `contents` must be a frame of it, or unset (then it is
    /// set to the sheet).
    func placeContents(_ read: [(Any, JSONValue, String)], layer: Layer) -> (keyPath: String, values: [Any])? {
        let sources = read.compactMap { $0.0 as? ContentsSource }
        guard sources.count == read.count, let first = sources.first else { return nil }
        let framed = sources.filter { $0.frame != nil }
        if framed.isEmpty { return ("contents", sources.map(\.image)) }
        var isValid = true
        for ((source, item, itemPath), _) in zip(read, sources) {
            guard let source = source as? ContentsSource else { continue }
            if source.frame == nil || source.image !== first.image {
                report(itemPath, at: item.position, "an animation of sprite frames takes frames of one sprite sheet "
                       + "(it animates contentsRect over the sheet): no plain images or other sheets")
                isValid = false
            } else if source.frame?.rotated == true {
                report(itemPath, at: item.position,
                       "a rotated sprite frame cannot be animated (contentsAreRotated is not animatable)")
                isValid = false
            }
        }
        guard isValid else { return nil }
        if let shown = layer.contents as? Image, shown !== first.image {
            report(read[0].2, at: read[0].1.position, "the layer's contents must be a frame of the same sprite "
                   + "sheet, or unset (the frames animate contentsRect over the sheet)")
            return nil
        }
        if layer.contents == nil {
            layer.contents = first.image
            layer.contentsScale = CGFloat(first.scale)
        }
        return ("contentsRect", sources.map { $0.frame!.unitRect })
    }
}
