import Foundation
import LaminaExpressions
import Testing

/// A property keyed linearly through (0 s, 0), (1 s, 10), (2 s, 30), held before and after; a comp with layers
/// "Target" (1) and "Mover" (2).
final class FakeHost: ExpressionHost {
    var times: [Double] = [0, 1, 2]
    var values: [[Double]] = [[0], [10], [30]]
    var asked: [(ExpressionLayerReference, String, Double)] = []

    func propertyValue(atTime time: Double) -> [Double] {
        if time <= times[0] { return values[0] }
        for index in 1..<times.count where time <= times[index] {
            let f = (time - times[index - 1]) / (times[index] - times[index - 1])
            return zip(values[index - 1], values[index]).map { $0 + ($1 - $0) * f }
        }
        return values[values.count - 1]
    }

    var keyframeTimes: [Double] { times }

    func layerProperty(_ layer: ExpressionLayerReference, _ property: String, atTime time: Double) -> [Double]? {
        asked.append((layer, property, time))
        let index: Int
        switch layer {
        case .name("Target"), .index(1): index = 1
        case .name("Mover"), .index(2): index = 2
        default: return nil
        }
        switch property {
        case "position": return index == 1 ? [100 + 10 * time, 200] : [5 * time, 7]
        case "anchorPoint": return [1, 2]
        case "scale": return [50, 60]
        case "rotation": return [Double(index) * 45]
        case "opacity": return [80]
        case "index": return [Double(index)]
        case "inPoint": return [0.5]
        case "outPoint": return [3]
        default: return nil
        }
    }

    func layerName(_ layer: ExpressionLayerReference) -> String? {
        switch layer {
        case .index(1): "Target"
        case .index(2): "Mover"
        case .name(let name): name
        default: nil
        }
    }
}

@Suite struct ExpressionEngineTests {
    /// Patient engines: the debug build of Duktape is slow (ASan more so) and the suites run in parallel; the
    /// time limit's own tests set theirs.
    static let slow = ExpressionLimits(time: .seconds(20))
    let engine = ExpressionEngine(limits: Self.slow)
    let patient = ExpressionEngine(limits: Self.slow)
    let host = FakeHost()

    func context(_ time: Double) -> ExpressionContext {
        ExpressionContext(time: time, frameRate: 25, compWidth: 640, compHeight: 360, compDuration: 4,
                          layerIndex: 2, layerName: "Mover", inPoint: 0, outPoint: 4, propertyName: "Position",
                          numLayers: 2)
    }

    func eval(_ source: String, at time: Double = 0, value: [Double]? = nil) throws -> [Double] {
        try engine.evaluate(source, value: value ?? host.propertyValue(atTime: time), context: context(time), host: host)
    }

    func one(_ source: String, at time: Double = 0, value: [Double]? = nil) throws -> Double {
        let result = try eval(source, at: time, value: value)
        #expect(result.count == 1, "\(source) gave \(result)")
        return result.first ?? .nan
    }

    func error(_ source: String, at time: Double = 0) -> ExpressionError? {
        do {
            let result = try eval(source, at: time)
            Issue.record("\(source) gave \(result), no error")
            return nil
        } catch {
            return error as? ExpressionError
        }
    }

    func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

    @Test func valuesTimeAndResults() throws {
        #expect(try eval("value", at: 0.5) == [5])
        #expect(try eval("time * 2", at: 0.75) == [1.5])
        #expect(try eval("[1, 2, 3]") == [1, 2, 3])
        #expect(try eval("true") == [1])
        #expect(try eval("[false, true]") == [0, 1])
        #expect(try eval("var $bm_rt; $bm_rt = [4, 5]; 7") == [4, 5])
        #expect(try eval("var a = 3;\nvar b = a * 2;\nb + 1") == [7])
        #expect(try eval("value", value: [3, 4]) == [3, 4])
        #expect(try eval("thisProperty.value[1]", value: [3, 4]) == [4])
        #expect(try eval("thisProperty.name == 'Position'") == [1])
    }

    @Test func loopOutCycles() throws {
        // Past the last key (2 s) the keys 0...2 s repeat.
        #expect(try one("loopOut('cycle')", at: 2.5) == 5)
        #expect(try one("loopOut()", at: 3.25) == 15)
        #expect(try one("loopOut('cycle')", at: 1.5, value: [20]) == 20)
        #expect(try one("loopOut('cycle', 1)", at: 2.5) == 20)
        #expect(try one("thisProperty.loopOut('cycle')", at: 4.5) == 5)
        // Pingpong: odd cycles run backwards.
        #expect(try one("loopOut('pingpong')", at: 2.5) == 20)
        #expect(try one("loopOut('pingpong')", at: 4.5) == 5)
        // Offset: each cycle starts where the last ended (30 per cycle).
        #expect(try one("loopOut('offset')", at: 2.5) == 35)
        #expect(try one("loopOut('offset')", at: 4.5) == 65)
        // Continue: the last velocity (20/s) goes on.
        #expect(close(try one("loopOut('continue')", at: 3), 50, 1e-6))
        // Durations in seconds.
        #expect(try one("loopOutDuration('cycle', 1)", at: 2.5) == 20)
        #expect(try one("loopOutDuration('cycle')", at: 2.5) == 5)
    }

    @Test func loopInCycles() throws {
        #expect(try one("loopIn('cycle')", at: -0.5) == 20)
        #expect(try one("loopIn('pingpong')", at: -0.5) == 5)
        #expect(try one("loopIn('offset')", at: -0.5) == -10)
        #expect(close(try one("loopIn('continue')", at: -1), -10, 1e-6))
        #expect(try one("loopIn('cycle', 1)", at: -0.25) == 7.5)
        #expect(try one("loopInDuration('cycle', 1)", at: -0.25) == 7.5)
        #expect(try one("loopIn('cycle')", at: 0.5) == 5)
    }

    @Test func keysAndValueAtTime() throws {
        #expect(try one("valueAtTime(0.5)") == 5)
        #expect(try one("thisProperty.valueAtTime(1.5)") == 20)
        #expect(close(try one("velocityAtTime(0.5)"), 10, 1e-6))
        #expect(close(try one("thisProperty.velocityAtTime(1.5)"), 20, 1e-6))
        #expect(try one("numKeys") == 3)
        #expect(try one("thisProperty.numKeys") == 3)
        #expect(try eval("[key(2).time, key(2).value, key(3).index]") == [1, 10, 3])
        #expect(try eval("[nearestKey(1.4).index, nearestKey(1.6).time, thisProperty.nearestKey(-3).value]") == [2, 2, 0])
        guard case .runtime(let message) = error("key(5)") else { Issue.record("key(5) gave no runtime error"); return }
        #expect(message.contains("key(5): the property has 3 keyframes"), "\(message)")
    }

    @Test func interpolation() throws {
        #expect(try one("linear(0.25, 0, 1, 10, 20)") == 12.5)
        #expect(try one("linear(-1, 0, 1, 10, 20)") == 10)
        #expect(try one("linear(2, 0, 1, 10, 20)") == 20)
        #expect(try one("linear(0.5, 1, 0, 10, 20)") == 15)
        #expect(try eval("linear(0.5, [0, 0], [10, 20])") == [5, 10])
        #expect(try eval("linear(time, 0, 2, [0, 100], [100, 0])", at: 1.5) == [75, 25])
        // After Effects' ease curves as lottie-web draws them, against a bisection of the same beziers here.
        for (name, curve) in [("ease", (0.33, 0.0, 0.667, 1.0)), ("easeIn", (0.333, 0.0, 0.833, 0.833)),
                              ("easeOut", (0.167, 0.167, 0.667, 1.0))] {
            for t in [0.1, 0.25, 0.5, 0.8] {
                let expected = 100 * bezier(t, curve)
                #expect(close(try one("\(name)(\(t), 0, 1, 0, 100)"), expected, 1e-6), "\(name) at \(t)")
                #expect(close(try one("\(name)(\(t * 2 + 1), 1, 3, 0, 100)"), expected, 1e-6))
                #expect(close(try one("\(name)(\(t), 0, 100)"), expected, 1e-6))
            }
            #expect(try one("\(name)(-1, 0, 1, 3, 9)") == 3)
            #expect(try one("\(name)(5, 0, 1, 3, 9)") == 9)
        }
        #expect(try one("ease(0.5, 0, 1, 0, 100)") > 49 && one("ease(0.5, 0, 1, 0, 100)") < 51)
        #expect(try one("easeIn(0.5, 0, 1, 0, 100)") < 40)
        #expect(try one("easeOut(0.5, 0, 1, 0, 100)") > 60)
    }

    /// y at x on the bezier (0,0) (x1,y1) (x2,y2) (1,1), by bisection on x.
    func bezier(_ x: Double, _ c: (Double, Double, Double, Double)) -> Double {
        func at(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 { let mid = (lo + hi) / 2; if at(mid, c.0, c.2) < x { lo = mid } else { hi = mid } }
        return at((lo + hi) / 2, c.1, c.3)
    }

    @Test func vectorMathAndConversions() throws {
        #expect(try eval("clamp(15, 0, 10)") == [10])
        #expect(try eval("clamp([-5, 5, 15], 0, 10)") == [0, 5, 10])
        #expect(try eval("add([1, 2], [10, 20])") == [11, 22])
        #expect(try eval("$bm_sum([1, 2], 5)") == [6, 2])
        #expect(try eval("sub([1, 2], [10, 20])") == [-9, -18])
        #expect(try eval("mul([1, 2], 3)") == [3, 6])
        #expect(try eval("div([3, 6], 3)") == [1, 2])
        #expect(try eval("length([3, 4])") == [5])
        #expect(try eval("length([1, 1], [4, 5])") == [5])
        #expect(try eval("normalize([3, 4])") == [0.6, 0.8])
        #expect(try eval("dot([1, 2, 3], [4, 5, 6])") == [32])
        #expect(try eval("cross([1, 0, 0], [0, 1, 0])") == [0, 0, 1])
        #expect(try eval("degreesToRadians(180)") == [Double.pi])
        #expect(try eval("radiansToDegrees(Math.PI / 2)") == [90])
        #expect(try eval("framesToTime(50)") == [2])
        #expect(try eval("framesToTime(50, 10)") == [5])
        #expect(try eval("timeToFrames()", at: 2) == [50])
        #expect(try eval("timeToFrames(1, 60)") == [60])
        #expect(try eval("[Math.max(1, 7), Math.floor(2.5), Math.sqrt(16), Math.abs(-3)]") == [7, 2, 4, 3])
        #expect(try eval("posterizeTime(2); time", at: 1.3) == [1])
    }

    @Test func compAndLayers() throws {
        #expect(try eval("[thisComp.width, thisComp.height, thisComp.duration, thisComp.numLayers]") == [640, 360, 4, 2])
        #expect(try eval("thisComp.frameDuration") == [0.04])
        #expect(try eval("thisComp.layer('Target').transform.position", at: 1) == [110, 200])
        #expect(try eval("thisComp.layer('Target').position", at: 2) == [120, 200])
        #expect(try eval("thisComp.layer(2).transform.rotation") == [90])
        #expect(try eval("thisComp.layer(1).transform.position.valueAtTime(3)") == [130, 200])
        #expect(try eval("[thisComp.layer('Target').scale[1], thisComp.layer('Target').opacity]") == [60, 80])
        #expect(try eval("thisComp.layer(1).transform.anchorPoint") == [1, 2])
        #expect(try eval("[thisComp.layer('Target').index, thisComp.layer(1).inPoint, thisComp.layer(1).outPoint]")
                == [1, 0.5, 3])
        #expect(try eval("thisComp.layer(1).name == 'Target' && thisComp.layer('Mover').name == 'Mover'") == [1])
        #expect(try eval("thisLayer.transform.position", at: 2) == [10, 7])
        #expect(try eval("[thisLayer.index, thisLayer.inPoint, thisLayer.outPoint, index]") == [2, 0, 4, 2])
        #expect(try eval("thisLayer.name == 'Mover'") == [1])
        // The layer objects are shared by evaluations, and nobody can change them.
        #expect(try eval("thisComp.layer(1).transform.position = 5; thisComp.layer(1).foo = 1; thisComp.layer(1).transform.position", at: 1)
                == [110, 200])
        #expect(try eval("thisLayer.transform.extra = 1; thisLayer.transform.extra === undefined") == [1])
        #expect(try eval("transform.rotation") == [90])
        // The host was asked by name and by index at the expression's time.
        _ = try eval("thisComp.layer('Target').position", at: 1.25)
        let last = host.asked.last
        #expect(last?.0 == .name("Target") && last?.1 == "position" && last?.2 == 1.25)
        guard case .runtime(let message) = error("thisComp.layer('Nobody').position") else {
            Issue.record("a missing layer gave no runtime error"); return
        }
        #expect(message.contains("thisComp.layer(\"Nobody\"): the comp has no such layer"), "\(message)")
        guard case .runtime(let zero) = error("thisComp.layer(0)") else { Issue.record("layer(0)"); return }
        #expect(zero.contains("layer indices count from 1"), "\(zero)")
    }

    @Test func wiggleIsDeterministicAndBounded() throws {
        let other = ExpressionEngine(limits: Self.slow)
        var seen = Set<Double>()
        for step in 0..<100 {
            let t = Double(step) * 0.1
            let a = try eval("wiggle(3, 20)", at: t, value: [50, 60])
            let b = try other.evaluate("wiggle(3, 20)", value: [50, 60], context: context(t), host: host)
            #expect(a == b)
            #expect(a.count == 2 && abs(a[0] - 50) <= 20 && abs(a[1] - 60) <= 20, "\(a) at \(t)")
            #expect(a[0] - 50 != a[1] - 60, "dimensions wiggle apart")
            seen.insert(a[0])
        }
        #expect(seen.count > 90)
        // Two octaves: within amp * (1 + 0.5).
        for step in 0..<50 {
            let w = try one("wiggle(5, 10, 2)", at: Double(step) * 0.07, value: [0])
            #expect(abs(w) <= 15)
        }
        // Smooth: close times give close values.
        let near = try one("wiggle(1, 100)", at: 1.0, value: [0]) - one("wiggle(1, 100)", at: 1.001, value: [0])
        #expect(abs(near) < 1)
        // Another property wiggles differently.
        var renamed = context(0.55)
        renamed.propertyName = "Scale"
        let moved = try engine.evaluate("wiggle(3, 20)", value: [0], context: renamed, host: host)
        #expect(moved != (try eval("wiggle(3, 20)", at: 0.55, value: [0])))
        // An explicit time reads the property's value there.
        #expect(try one("wiggle(2, 0, 1, 0.5, 1.5)") == 20)
    }

    @Test func randomNumbers() throws {
        let other = ExpressionEngine(limits: Self.slow)
        for frame in 0..<20 {
            let t = Double(frame) / 25
            let a = try eval("[random(), random(10), random(5, 6), gaussRandom(), Math.random()]", at: t)
            let b = try other.evaluate("[random(), random(10), random(5, 6), gaussRandom(), Math.random()]",
                                       value: [0], context: context(t), host: host)
            #expect(a == b)
            #expect(a[0] >= 0 && a[0] < 1 && a[1] >= 0 && a[1] < 10 && a[2] >= 5 && a[2] < 6 && a[4] >= 0 && a[4] < 1)
        }
        // Frames differ; seedRandom(n, true) is the same at every time; the seed changes the sequence.
        #expect(try eval("random()", at: 0) != eval("random()", at: 0.04))
        #expect(try eval("seedRandom(3, true); random()", at: 0) == eval("seedRandom(3, true); random()", at: 1))
        #expect(try eval("seedRandom(3, true); random()") != eval("seedRandom(4, true); random()"))
        #expect(try eval("random([10, 100])").count == 2)
        // gaussRandom: about 90 % within 0...1.
        let draws = try patient.evaluate("var a = []; for (var i = 0; i < 1000; i++) a.push(gaussRandom()); a",
                                         value: [0], context: context(0), host: host)
        let inside = draws.filter { $0 >= 0 && $0 <= 1 }.count
        #expect(inside > 850 && inside < 950, "\(inside) of 1000")
    }

    @Test func syntaxAndRuntimeErrors() {
        guard case .syntax(let syntax) = error("var a = 1;\nvar b = (;") else { Issue.record("no syntax error"); return }
        #expect(syntax.contains("SyntaxError") && syntax.contains("line 2"), "\(syntax)")
        guard case .runtime(let reference) = error("1 + nope") else { Issue.record("no ReferenceError"); return }
        #expect(reference.contains("ReferenceError") && reference.contains("nope"), "\(reference)")
        guard case .runtime(let thrown) = error("throw new Error('mine')") else { Issue.record("no error"); return }
        #expect(thrown.contains("Error: mine"), "\(thrown)")
        guard case .runtime(let call) = error("var x = 1; x()") else { Issue.record("no TypeError"); return }
        #expect(call.contains("TypeError"), "\(call)")
        // The messages name what happened.
        #expect(ExpressionError.timeLimit(.milliseconds(50)).description.contains("time limit"))
        #expect(ExpressionError.memoryLimit(16).description.contains("memory limit of 16 bytes"))
    }

    @Test func badResults() {
        let cases: [(String, String)] = [
            ("'text'", "the result is a string, not a number or an array of numbers"),
            ("({a: 1})", "the result is an object"),
            ("undefined", "the result is undefined"),
            ("[1, 'a']", "element 1 of the result is a string, not a number"),
            ("[]", "the result is an array of 0 elements"),
            ("0 / 0", "the result is NaN, not a finite number"),
            ("[1, 1 / 0]", "element 1 of the result is infinite"),
            ("[[1, 2]]", "element 0 of the result is an array"),
            ("(function () {})", "the result is a function"),
        ]
        for (source, expected) in cases {
            guard case .badResult(let message) = error(source) else { Issue.record("\(source): no badResult"); continue }
            #expect(message.contains(expected), "\(source): \(message)")
        }
    }

    @Test func timeLimitLeavesTheHeapUsable() throws {
        let fast = ExpressionEngine(limits: ExpressionLimits(time: .milliseconds(20)))
        for source in ["while (true) {}", "while (1) { try { while (1) {} } catch (e) {} }",
                       "for (;;) { try { for (;;) {} } finally { continue; } }",
                       "function f(n) { return f(n + 1); } f(0)",  // a tail call: no stack growth, only time
                       "throw { toString: function () { while (1) {} } }"] {
            do {
                let result = try fast.evaluate(source, value: [0], context: context(0), host: host)
                Issue.record("\(source) gave \(result)")
            } catch {
                if source.hasPrefix("throw") {
                    // The thrown value's toString ran out of time: the evaluation still fails by name.
                    #expect(error == .timeLimit(.milliseconds(20)), "\(error)")
                } else {
                    #expect(error == .timeLimit(.milliseconds(20)), "\(source): \(error)")
                }
            }
            #expect(try fast.evaluate("linear(0.5, 0, 1, 0, 8)", value: [0], context: context(0), host: host) == [4])
        }
    }

    @Test func memoryLimitLeavesTheEngineUsable() throws {
        let small = ExpressionEngine(limits: ExpressionLimits(time: .seconds(20), memory: 4 << 20))
        for source in ["var a = []; while (1) a.push(new Array(1e6))", "var s = 'x'; while (1) s = s + s",
                       "new Uint8Array(1e8)[5]", "'x'.repeat(1e8).length"] {
            #expect(throws: ExpressionError.memoryLimit(4 << 20), "\(source)") {
                try small.evaluate(source, value: [0], context: context(0), host: host)
            }
            #expect(small.heapBytes <= 4 << 20)
            #expect(try small.evaluate("value * 2", value: [21], context: context(0), host: host) == [42])
        }
    }

    @Test func defaultLimits() {
        #expect(ExpressionLimits.default == ExpressionLimits(time: .milliseconds(50), memory: 16 << 20, sourceLength: 65_536))
        #expect(ExpressionEngine().limits == .default)
    }

    @Test func sourceLengthLimit() throws {
        let limited = ExpressionEngine(limits: ExpressionLimits(time: .seconds(20), sourceLength: 100))
        let long = "1 + " + String(repeating: " ", count: 200) + "1"
        #expect(throws: ExpressionError.syntax("the expression is 205 bytes long; the limit is 100")) {
            try limited.evaluate(long, value: [0], context: context(0), host: host)
        }
        #expect(try limited.evaluate("1 + 1", value: [0], context: context(0), host: host) == [2])
        let huge = "[" + Array(repeating: "1", count: 30_000).joined(separator: ",") + "].length"
        #expect(huge.utf8.count < 65_536)
        #expect(try patient.evaluate(huge, value: [0], context: context(0), host: host) == [30_000])
    }

    @Test func sandbox() throws {
        #expect(try eval("[typeof print, typeof alert, typeof Duktape, typeof require, typeof Date, typeof performance, typeof CBOR]"
                         + ".every(function (t) { return t === 'undefined'; })") == [1])
        #expect(try eval("typeof eval == 'function' && typeof Function == 'function'") == [1])
        // A global one expression makes is gone for the next; builtins stay as they are.
        #expect(try eval("leak = 5; 1") == [1])
        #expect(try eval("typeof leak == 'undefined'") == [1])
        #expect(try eval("this[3] = 1; Object.defineProperty(this, 'hidden', {value: 2, configurable: true}); 1") == [1])
        #expect(try eval("typeof hidden == 'undefined' && this[3] === undefined") == [1])
        #expect(try eval("var $bm_rt = 9; 1") == [9])
        #expect(try eval("2") == [2])
        #expect(try eval("linear = 5; Math.sin = null; linear(0.5, 0, 1, 0, 10) + Math.sin(0)") == [5])
        #expect(try eval("Array.prototype.sum = 1; [].sum === undefined") == [1])
        // time, value and $bm_rt stay the engine's: no expression makes them accessors or read-only for the next.
        #expect(error("Object.defineProperty(this, 'time', {get: function () { return 99; }})") != nil)
        #expect(try eval("time", at: 1.5) == [1.5])
        #expect(try eval("Object.defineProperty(this, '$bm_rt', {value: 7, writable: false}); 3") == [7])
        // That cannot be undone: the heap is made afresh, and the next evaluation's $bm_rt counts as usual.
        #expect(try eval("var $bm_rt; $bm_rt = 8; 4") == [8])
        #expect(try eval("5") == [5])
        // Sources that are names of Object.prototype's members are compiled like any other.
        guard case .badResult(let proto) = error("toString") else { Issue.record("toString"); return }
        #expect(proto.contains("a function"), "\(proto)")
        #expect(try eval("typeof __proto__ == 'object'") == [1])
        #expect(try eval("typeof __proto__ == 'object'") == [1])
        #expect(error("var a = []; a.length = 4e9; [].concat(a)") != nil)
        // Native loops over huge array-likes are refused rather than run past the deadline.
        guard case .runtime(let message) = error("Array.prototype.indexOf.call({length: 4e9}, 1)") else {
            Issue.record("no refusal"); return
        }
        #expect(message.contains("expressions allow 4194304"), "\(message)")
        // No regular expressions (their backtracking runs without the deadline).
        #expect(error("/a+/.test('aaa')") != nil)
        // Deep nesting is an error, not a stack overflow.
        let deep = String(repeating: "(", count: 5000) + "1" + String(repeating: ")", count: 5000)
        guard case .syntax = error(deep) else { Issue.record("deep nesting"); return }
        let recursion = error("function f(n) { return 1 + f(n + 1); } f(0)")
        guard case .runtime(let depth) = recursion else { Issue.record("recursion: \(String(describing: recursion))"); return }
        #expect(depth.contains("RangeError"), "\(depth)")
        guard case .runtime = error("JSON.parse(Array(2000).join('[') + Array(2000).join(']'))") else {
            Issue.record("deep JSON"); return
        }
    }

    @Test func cachedExpressionsDoNotGrowTheHeap() throws {
        let cached = ExpressionEngine(limits: Self.slow)
        let source = "var $bm_rt; $bm_rt = add(loopOut('cycle'), linear(time, 0, 2, 0, 5));"
        var first: [Double] = []
        for frame in 0..<10 { first = try cached.evaluate(source, value: [0], context: context(2 + Double(frame) / 25), host: host) }
        let bytes = cached.heapBytes
        #expect(bytes > 0 && bytes < 512 << 10, "the builtins take \(bytes) bytes")
        for frame in 0..<1000 {
            let result = try cached.evaluate(source, value: [0], context: context(2 + Double(frame % 10) / 25), host: host)
            if frame == 9 { #expect(result == first) }
        }
        #expect(cached.heapBytes == bytes)
        #expect(cached.cachedExpressions == 1)
    }

    @Test func twoEnginesOnTwoThreads() async throws {
        let results = Mutexed()
        let threads = (0..<2).map { worker in
            Thread {
                let engine = ExpressionEngine(limits: ExpressionEngineTests.slow)
                let host = FakeHost()
                var values: [Double] = []
                for frame in 0..<300 {
                    let t = Double(frame) / 25
                    let context = ExpressionContext(time: t, frameRate: 25, layerName: "L\(worker)", propertyName: "P")
                    let result = try? engine.evaluate(worker == 0 ? "loopOut('pingpong')" : "wiggle(2, 10) - value",
                                                      value: host.propertyValue(atTime: t), context: context, host: host)
                    values.append(result?.first ?? .nan)
                }
                results.set(worker, values)
            }
        }
        for thread in threads {
            thread.stackSize = 1 << 20
            thread.start()
        }
        while results.count < 2 { try await Task.sleep(for: .milliseconds(20)) }
        // Each thread's answers are those of one engine on this thread.
        let reference = ExpressionEngine(limits: Self.slow)
        for frame in stride(from: 0, to: 300, by: 37) {
            let t = Double(frame) / 25
            let zero = try reference.evaluate("loopOut('pingpong')", value: host.propertyValue(atTime: t),
                                              context: ExpressionContext(time: t, frameRate: 25, layerName: "L0", propertyName: "P"), host: host)
            let one = try reference.evaluate("wiggle(2, 10) - value", value: host.propertyValue(atTime: t),
                                             context: ExpressionContext(time: t, frameRate: 25, layerName: "L1", propertyName: "P"), host: host)
            #expect(results.get(0)[frame] == zero[0])
            #expect(results.get(1)[frame] == one[0])
        }
    }

    @Test func oneEngineSharedByThreadsTakesTurns() async throws {
        let shared = ExpressionEngine(limits: Self.slow)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    let host = FakeHost()
                    for frame in 0..<50 {
                        let t = Double(frame) / 25 + Double(worker)
                        let result = try shared.evaluate("time * 2 + \(worker)", value: [0],
                                                         context: ExpressionContext(time: t), host: host)
                        #expect(result == [t * 2 + Double(worker)])
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}

final class Mutexed: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int: [Double]] = [:]
    var count: Int { lock.withLock { values.count } }
    func set(_ key: Int, _ value: [Double]) { lock.withLock { values[key] = value } }
    func get(_ key: Int) -> [Double] { lock.withLock { values[key] ?? [] } }
}
