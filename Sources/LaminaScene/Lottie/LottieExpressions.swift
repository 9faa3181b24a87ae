import Foundation
import LaminaCore
import LaminaExpressions

/// After Effects expressions on Lottie properties, evaluated by the sandboxed engine of LaminaExpressions
/// (docs/expressions.md): one engine per animation, used by one thread at a time (frames on several threads
/// take turns). An expression that fails at a frame shows the keyframed value there; the first failure of each
/// property is kept for the caller to report.
final class LottieExpressions: LottieExpressionRunner, @unchecked Sendable {
    private let lock = NSLock()
    private let engine: ExpressionEngine
    private var failures: [String: String] = [:]
    private let fileName: String

    init(fileName: String, limits: ExpressionLimits = .default) {
        self.fileName = fileName
        engine = ExpressionEngine(limits: limits)
    }

    static func make(diagnostics: LottieDiagnostics) -> LottieExpressionRunner? {
        LottieExpressions(fileName: diagnostics.fileName)
    }

    /// The first failure of each property so far, "path: message".
    var failureMessages: [String] { lock.withLock { failures.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" } } }

    func failure(_ source: String, property: LottieNumbers, frame: Double, evaluator: LottieEvaluator) -> String? {
        let value = property.value(at: frame) ?? []
        do {
            _ = try run(source, property: property, value: value, frame: frame, evaluator: evaluator)
            return nil
        } catch {
            return "\(error)"
        }
    }

    func evaluate(_ source: String, property: LottieNumbers, value: [Double], frame: Double,
                  evaluator: LottieEvaluator) -> [Double]? {
        do {
            let result = try run(source, property: property, value: value, frame: frame, evaluator: evaluator)
            return result.isEmpty ? nil : result
        } catch {
            lock.withLock {
                if failures[property.path] == nil {
                    failures[property.path] = "expression failed at frame \(frame): \(error)"
                    FileHandle.standardError.write(Data(
                        "lamina: warning: \(fileName): \(property.path): expression failed at frame \(frame): \(error); the keyframed value is drawn\n".utf8))
                }
            }
            return nil
        }
    }

    private func run(_ source: String, property: LottieNumbers, value: [Double], frame: Double,
                     evaluator: LottieEvaluator) throws -> [Double] {
        let doc = evaluator.document
        let (layer, comp) = Self.layer(for: property.path, in: evaluator)
        let context = ExpressionContext(
            time: frame / doc.frameRate, frameRate: doc.frameRate, compWidth: comp?.width ?? doc.width,
            compHeight: comp?.height ?? doc.height, compDuration: (doc.outPoint - doc.inPoint) / doc.frameRate,
            layerIndex: layer?.index ?? 0, layerName: layer?.name ?? "",
            inPoint: (layer?.inPoint ?? doc.inPoint) / doc.frameRate,
            outPoint: (layer?.outPoint ?? doc.outPoint) / doc.frameRate, propertyName: property.path,
            numLayers: comp?.layers.count ?? doc.layers.count)
        let host = Host(property: property, evaluator: evaluator, comp: comp)
        return try lock.withLock { try engine.evaluate(source, value: value, context: context, host: host) }
    }

    /// The layer and composition a property path ("layers[3].ks.p", "assets[1].layers[0].shapes[2]...") is in.
    static func layer(for path: String, in evaluator: LottieEvaluator) -> (LottieLayer?, LottieComp?) {
        let doc = evaluator.document
        func index(after prefix: String, in text: Substring) -> (Int, Substring)? {
            guard text.hasPrefix(prefix) else { return nil }
            let rest = text.dropFirst(prefix.count)
            guard let close = rest.firstIndex(of: "]"), let n = Int(rest[..<close]) else { return nil }
            return (n, rest[rest.index(after: close)...])
        }
        var text = Substring(path)
        var layers = doc.layers
        var comp = LottieComp(id: "", layers: doc.layers, width: doc.width, height: doc.height)
        if let (a, rest) = index(after: "assets[", in: text) {
            let precomps = Array(evaluator.comps.values).filter { _ in true }
            // Assets are keyed by id; find the one whose layers' paths start with this prefix.
            let prefix = "assets[\(a)]"
            guard let found = precomps.first(where: { $0.layers.first?.path.hasPrefix(prefix) ?? false }) else {
                return (nil, nil)
            }
            layers = found.layers
            comp = found
            text = rest.hasPrefix(".") ? rest.dropFirst() : rest
        }
        guard let (l, _) = index(after: "layers[", in: text), l < layers.count else { return (nil, comp) }
        return (layers[l], comp)
    }

    /// Answers what an expression asks of the file.
    final class Host: ExpressionHost {
        let property: LottieNumbers
        let evaluator: LottieEvaluator
        let comp: LottieComp?

        init(property: LottieNumbers, evaluator: LottieEvaluator, comp: LottieComp?) {
            self.property = property
            self.evaluator = evaluator
            self.comp = comp
        }

        func propertyValue(atTime time: Double) -> [Double] {
            property.value(at: time * evaluator.document.frameRate) ?? []
        }

        var keyframeTimes: [Double] { property.keyframeTimes.map { $0 / evaluator.document.frameRate } }

        private func find(_ layer: ExpressionLayerReference) -> LottieLayer? {
            guard let comp else { return nil }
            switch layer {
            case .name(let n): return comp.layers.first { $0.name == n }
            case .index(let i): return comp.byIndex[i] ?? (i >= 1 && i <= comp.layers.count ? comp.layers[i - 1] : nil)
            }
        }

        func layerName(_ layer: ExpressionLayerReference) -> String? { find(layer)?.name }

        func layerProperty(_ layer: ExpressionLayerReference, _ name: String, atTime time: Double) -> [Double]? {
            guard let comp else { return nil }
            guard let found = find(layer) else { return nil }
            let fr = evaluator.document.frameRate
            let f = time * evaluator.document.frameRate
            let t = found.transform
            // The keyframed values (another layer's expressions are not run, so two cannot call each other).
            func v(_ p: LottieNumbers) -> [Double]? { p.value(at: f) }
            switch name {
            case "position":
                if let x = t.positionX, let y = t.positionY { return [x.value(at: f)?.first ?? 0, y.value(at: f)?.first ?? 0] }
                return v(t.position)
            case "anchorPoint": return v(t.anchor)
            case "scale": return v(t.scale)
            case "rotation": return v(t.rotation)
            case "opacity": return v(t.opacity)
            case "index": return [Double(found.index ?? ((comp.layers.firstIndex { $0.path == found.path } ?? 0) + 1))]
            case "inPoint": return [found.inPoint / fr]
            case "outPoint": return [found.outPoint / fr]
            default: return nil
            }
        }
    }
}
