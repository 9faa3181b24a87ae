import Foundation
import LaminaExpressions
import Testing

/// No evaluation leaves anything a later one can read (docs/expressions.md, "The sandbox"), so a Lottie file's frames
/// come out the same in any order (docs/animation.md, "Random access in time"): expressions that try to keep a value
/// (a read-only global, `time` made read-only, a builtin's binding or a builtin object changed) give a later
/// evaluation the answer a fresh engine gives.
@Suite struct ExpressionOrderTests {
    let host = FakeHost()

    func context(_ time: Double) -> ExpressionContext {
        ExpressionContext(time: time, frameRate: 25, compWidth: 640, compHeight: 360, compDuration: 4,
                          layerIndex: 2, layerName: "Mover", inPoint: 0, outPoint: 4, propertyName: "Position",
                          numLayers: 2)
    }

    /// What `reader` gives at `time` on an engine that first ran `writer` at time 1 (its failure ignored).
    func after(_ writer: String, _ reader: String, at time: Double = 2) throws -> [Double] {
        let engine = ExpressionEngine()
        _ = try? engine.evaluate(writer, value: [0], context: context(1), host: host)
        return try engine.evaluate(reader, value: [0], context: context(time), host: host)
    }

    /// What `reader` gives at `time` on a fresh engine.
    func fresh(_ reader: String, at time: Double = 2) throws -> [Double] {
        try ExpressionEngine().evaluate(reader, value: [0], context: context(time), host: host)
    }

    @Test(arguments: [
        // A global that cannot be deleted.
        ("Object.defineProperty(this, 'kept', {value: time, configurable: false}); 0",
         "typeof kept === 'undefined' ? -1 : kept"),
        // time and value made read-only: the engine could no longer set them.
        ("Object.defineProperty(this, 'time', {writable: false}); 0", "time"),
        ("Object.defineProperty(this, 'value', {writable: false}); 0", "value + time"),
        // A builtin's binding replaced, and builtin objects the older list did not freeze changed.
        ("parseFloat = function () { return time; }; Math = null; 0", "parseFloat('3') + Math.floor(2.5)"),
        ("Math.random.kept = time; Array.prototype.indexOf.kept = time; 0",
         "(Math.random.kept || 0) + (Array.prototype.indexOf.kept || 0)"),
        ("Object.getPrototypeOf(/x/).exec.kept = time; Object.getPrototypeOf(function () {}).kept = time; 0",
         "(Object.getPrototypeOf(/x/).exec.kept || 0) + ((function () {}).kept || 0)"),
        ("if (typeof Reflect === 'object') Reflect.kept = time; if (typeof Uint8Array === 'function') "
            + "Uint8Array.prototype.kept = time; 0",
         "(typeof Reflect === 'object' && Reflect.kept || 0) + (typeof Uint8Array === 'function' && "
            + "Uint8Array.prototype.kept || 0)"),
        ("thisComp.kept = time; thisLayer.transform.kept = time; 0",
         "(thisComp.kept || 0) + (thisLayer.transform.kept || 0)"),
    ])
    func aLaterEvaluationSeesNothingAnEarlierOneLeft(_ writer: String, _ reader: String) throws {
        #expect(try after(writer, reader) == (try fresh(reader)), "\(writer) then \(reader)")
    }

    /// The same frames in any order: a property's values at shuffled times equal those of an engine that saw only
    /// that time, with every expression of the file sharing one engine.
    @Test func shuffledTimesGiveFreshAnswers() throws {
        let sources = ["wiggle(2, 30)", "loopOut('pingpong')", "time * 10 + value", "random(0, 100)",
                       "var a = (typeof a === 'number' ? a : 0) + 1; a",
                       "Object.defineProperty(this, 'once', {value: time, configurable: false}); once"]
        let engine = ExpressionEngine()
        for time in [1.5, 0.2, 3.1, 0.2] {
            for source in sources {
                let value = host.propertyValue(atTime: time)
                let shared = try engine.evaluate(source, value: value, context: context(time), host: host)
                let alone = try ExpressionEngine().evaluate(source, value: value, context: context(time), host: host)
                #expect(shared == alone, "\(source) at \(time)")
            }
        }
    }
}
