import FuzzSupport
import LaminaExpressions

/// A property keyed at 0, 1 and 2 s in a comp of two layers, for the expressions to read.
final class FuzzHost: ExpressionHost {
    func propertyValue(atTime time: Double) -> [Double] { [time * 10, 50 - time] }
    var keyframeTimes: [Double] { [0, 1, 2] }
    func layerProperty(_ layer: ExpressionLayerReference, _ property: String, atTime time: Double) -> [Double]? {
        switch layer {
        case .index(1), .index(2), .name("a"), .name("b"): property == "rotation" ? [time] : [time, 2 * time]
        default: nil
        }
    }
}

/// One engine for every input, as a Lottie file's frames share one: its heap, cache and limits are what the
/// inputs attack. 10 ms and 4 MiB an evaluation.
let engine = ExpressionEngine(limits: ExpressionLimits(time: .milliseconds(10), memory: 4 << 20))
let limit = 4 << 20

/// The bytes as an expression's source: it must return finite numbers or throw a named `ExpressionError`, within
/// the limits, and leave the engine usable.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExpression(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let source = String(decoding: FuzzDriver.data(bytes, count), as: UTF8.self)
    let host = FuzzHost()
    let context = ExpressionContext(time: 2.5, frameRate: 30, compWidth: 100, compHeight: 100, compDuration: 3,
                                    layerIndex: 2, layerName: "b", inPoint: 0, outPoint: 3, propertyName: "p",
                                    numLayers: 2)
    do {
        let result = try engine.evaluate(source, value: [25, 47.5], context: context, host: host)
        if result.isEmpty || result.contains(where: { !$0.isFinite }) { FuzzDriver.fail("result \(result)") }
    } catch {
        switch error {
        case .syntax(let message), .runtime(let message), .badResult(let message):
            if message.isEmpty { FuzzDriver.fail("an error with no message: \(error)") }
        case .timeLimit, .memoryLimit: break
        }
    }
    if engine.heapBytes > limit { FuzzDriver.fail("the heap holds \(engine.heapBytes) bytes") }
    // The engine still works.
    // The engine still works. A time limit of 10 ms can pass on a busy machine without any fault of the input,
    // so only three in a row count.
    for attempt in 1...3 {
        do {
            let after = try engine.evaluate("value[0] + 1", value: [41, 0], context: context, host: host)
            if after != [42] { FuzzDriver.fail("the engine gave \(after) after the input") }
            break
        } catch .timeLimit where attempt < 3 {
            continue
        } catch {
            FuzzDriver.fail("the engine stopped working after the input: \(error)")
        }
    }
    return 0
}

@main enum FuzzExpressionMain {
    static func main() { FuzzDriver.run(fuzzExpression) }
}
