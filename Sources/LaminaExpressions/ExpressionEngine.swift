import CDuktape
import Foundation

/// What one evaluation may use (docs/expressions.md, "Limits").
public struct ExpressionLimits: Sendable, Equatable {
    /// The longest one evaluation may run; past it the evaluation fails with ``ExpressionError/timeLimit(_:)``.
    public var time: Duration = .milliseconds(50)
    /// The most bytes the engine's JavaScript heap may hold, its builtins and cached expressions included; past
    /// it the evaluation fails with ``ExpressionError/memoryLimit(_:)``.
    public var memory: Int = 16 << 20
    /// The longest expression source, in UTF-8 bytes.
    public var sourceLength: Int = 65_536

    public init(time: Duration = .milliseconds(50), memory: Int = 16 << 20, sourceLength: Int = 65_536) {
        self.time = time
        self.memory = memory
        self.sourceLength = sourceLength
    }

    public static let `default` = ExpressionLimits()
}

/// Why an expression gave no value. Each case's message names what happened.
public enum ExpressionError: Error, Equatable, CustomStringConvertible {
    /// The source does not compile (the message has the line), or is longer than the limit.
    case syntax(String)
    /// The expression threw: an unknown name (`ReferenceError`), a call of something that is no function, its own
    /// `throw`.
    case runtime(String)
    /// The evaluation ran past ``ExpressionLimits/time``.
    case timeLimit(Duration)
    /// The heap would have grown past ``ExpressionLimits/memory`` bytes.
    case memoryLimit(Int)
    /// The expression's value is no number, boolean or array of them (or has a NaN or an infinity).
    case badResult(String)

    public var description: String {
        switch self {
        case .syntax(let message): "expression syntax error: \(message)"
        case .runtime(let message): "expression error: \(message)"
        case .timeLimit(let limit): "expression ran past its time limit of \(limit)"
        case .memoryLimit(let limit): "expression ran past its memory limit of \(limit) bytes"
        case .badResult(let message): "expression result unusable: \(message)"
        }
    }
}

/// A layer of the comp, as `thisComp.layer(...)` names it.
public enum ExpressionLayerReference: Equatable, Sendable {
    case name(String)
    /// 1-based, as Lottie's `ind` and After Effects count.
    case index(Int)
}

/// What the expression reads besides its own source: the property's keyframes and the comp's other layers.
/// Called on the evaluating thread, during ``ExpressionEngine/evaluate(_:value:context:host:)``; it must not
/// evaluate on the same engine.
public protocol ExpressionHost: AnyObject {
    /// The property's own value (keyframes, without its expression) at comp time `time` (seconds).
    func propertyValue(atTime time: Double) -> [Double]
    /// The property's keyframe times in seconds (for loopIn/loopOut/key(n)/numKeys/nearestKey).
    var keyframeTimes: [Double] { get }
    /// Another layer's transform property ("position", "anchorPoint", "scale", "rotation", "opacity") at `time`,
    /// by layer name or 1-based index; nil when there is none. Also asked for "index", "inPoint" and "outPoint"
    /// (seconds), for `thisComp.layer(...).index` and the like.
    func layerProperty(_ layer: ExpressionLayerReference, _ property: String, atTime time: Double) -> [Double]?
    /// A layer's name, for `thisComp.layer(3).name`; nil when unknown (the default).
    func layerName(_ layer: ExpressionLayerReference) -> String?
}

extension ExpressionHost {
    public func layerName(_ layer: ExpressionLayerReference) -> String? {
        if case .name(let name) = layer { return name }
        return nil
    }
}

/// Where and when the expression runs.
public struct ExpressionContext: Sendable, Equatable {
    /// Comp time in seconds: `time`.
    public var time: Double
    /// Frames per second: `thisComp.frameDuration` is its inverse; the frame number seeds `random()`.
    public var frameRate: Double
    public var compWidth: Double
    public var compHeight: Double
    /// Seconds.
    public var compDuration: Double
    /// 1-based: `thisLayer.index`, `index`.
    public var layerIndex: Int
    public var layerName: String
    /// Seconds.
    public var inPoint: Double
    /// Seconds.
    public var outPoint: Double
    /// The property's name (`thisProperty.name`); with the layer it seeds `wiggle` and `random`.
    public var propertyName: String
    /// `thisComp.numLayers`.
    public var numLayers: Int

    public init(time: Double = 0, frameRate: Double = 30, compWidth: Double = 0, compHeight: Double = 0,
                compDuration: Double = 0, layerIndex: Int = 1, layerName: String = "", inPoint: Double = 0,
                outPoint: Double = 0, propertyName: String = "", numLayers: Int = 1) {
        self.time = time
        self.frameRate = frameRate
        self.compWidth = compWidth
        self.compHeight = compHeight
        self.compDuration = compDuration
        self.layerIndex = layerIndex
        self.layerName = layerName
        self.inPoint = inPoint
        self.outPoint = outPoint
        self.propertyName = propertyName
        self.numLayers = numLayers
    }
}

/// Evaluates After Effects expressions (docs/expressions.md) in one sandboxed Duktape heap: no I/O, a time and a
/// memory limit per evaluation, and each distinct source compiled once and kept.
///
/// One heap runs one evaluation at a time: calls from several threads take turns on a lock. For parallel
/// evaluation make one engine per thread.
public final class ExpressionEngine: @unchecked Sendable {
    public let limits: ExpressionLimits
    private let lock = NSLock()
    private var heap: OpaquePointer?
    private var output = [Double](repeating: 0, count: 4096)
    private var message = [CChar](repeating: 0, count: 1024)

    public init(limits: ExpressionLimits = .default) {
        self.limits = limits
    }

    deinit {
        lamina_duk_destroy(heap)
    }

    /// The bytes the heap holds now (0 before the first evaluation).
    public var heapBytes: Int {
        lock.withLock { Int(lamina_duk_allocated(heap)) }
    }

    /// How many compiled expressions the heap keeps now.
    public var cachedExpressions: Int {
        lock.withLock { Int(lamina_duk_cached(heap)) }
    }

    /// The value of `source` for a property whose own value (without the expression) is `value`: the last
    /// expression statement's value, or `$bm_rt`'s when the source sets it; a number gives one element.
    public func evaluate(_ source: String, value: [Double], context: ExpressionContext, host: ExpressionHost)
        throws(ExpressionError) -> [Double]
    {
        let sourceLength = source.utf8.count
        if sourceLength > limits.sourceLength {
            throw .syntax("the expression is \(sourceLength) bytes long; the limit is \(limits.sourceLength)")
        }
        lock.lock()
        defer { lock.unlock() }
        try makeHeap()
        let box = HostBox(host)
        let result: Result<[Double], ExpressionError> = withExtendedLifetime(box) {
            var bridge = lamina_duk_host(
                user: Unmanaged.passUnretained(box).toOpaque(),
                value_at: { user, time, out, capacity in
                    HostBox.of(user).fill(HostBox.of(user).host.propertyValue(atTime: time), out, capacity)
                },
                key_times: { user, out, capacity in
                    HostBox.of(user).fill(HostBox.of(user).host.keyframeTimes, out, capacity)
                },
                layer_property: { user, byIndex, index, name, nameLength, property, time, out, capacity in
                    let box = HostBox.of(user)
                    let reference = HostBox.reference(byIndex, index, name, nameLength)
                    let property = property.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self) } ?? ""
                    guard let values = box.host.layerProperty(reference, property, atTime: time) else { return -1 }
                    return box.fill(values, out, capacity)
                },
                layer_name: { user, byIndex, index, name, nameLength, out, capacity in
                    let box = HostBox.of(user)
                    guard let text = box.host.layerName(HostBox.reference(byIndex, index, name, nameLength)),
                          let out else { return -1 }
                    let bytes = Array(text.utf8.prefix(Int(capacity)))
                    bytes.withUnsafeBufferPointer { buffer in
                        buffer.baseAddress.map { UnsafeMutableRawPointer(out).copyMemory(from: $0, byteCount: buffer.count) }
                    }
                    return CInt(bytes.count)
                })
            return run(source, value: value, context: context, bridge: &bridge)
        }
        return try result.get()
    }

    private var messageText: String {
        let bytes = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func makeHeap() throws(ExpressionError) {
        if heap != nil { return }
        let made: OpaquePointer? = expressionPrelude.utf8CString.withUnsafeBufferPointer { prelude in
            message.withUnsafeMutableBufferPointer { message in
                lamina_duk_create(limits.memory, prelude.baseAddress, prelude.count - 1, message.baseAddress,
                                  message.count)
            }
        }
        guard let made else {
            let text = messageText
            if text.contains("alloc") || text.contains("memory limit") { throw .memoryLimit(limits.memory) }
            throw .runtime("the expression environment could not be made: \(text)")
        }
        heap = made
    }

    private func run(_ source: String, value: [Double], context: ExpressionContext,
                     bridge: inout lamina_duk_host) -> Result<[Double], ExpressionError> {
        let numbers: [Double] = [
            context.time, context.frameRate, context.compWidth, context.compHeight, context.compDuration,
            Double(context.layerIndex), context.inPoint, context.outPoint, Double(context.numLayers),
        ]
        precondition(numbers.count == LAMINA_DUK_CTX_COUNT)
        let seconds = Double(limits.time.components.seconds) + Double(limits.time.components.attoseconds) * 1e-18
        var count: CInt = 0
        var source = source, layerName = context.layerName, propertyName = context.propertyName
        let code = source.withUTF8 { source in
            layerName.withUTF8 { layerName in
                propertyName.withUTF8 { propertyName in
                    numbers.withUnsafeBufferPointer { numbers in
                        value.withUnsafeBufferPointer { value in
                            output.withUnsafeMutableBufferPointer { output in
                                message.withUnsafeMutableBufferPointer { message in
                                    lamina_duk_evaluate(
                                        heap, source.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                                        source.count, seconds, &bridge, numbers.baseAddress,
                                        layerName.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                                        layerName.count,
                                        propertyName.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                                        propertyName.count, value.baseAddress, CInt(min(value.count, 4096)),
                                        output.baseAddress, CInt(output.count), &count, message.baseAddress,
                                        message.count)
                                }
                            }
                        }
                    }
                }
            }
        }
        let text = messageText
        if heap != nil, lamina_duk_tainted(heap) != 0 {
            // What the expression left cannot be undone: the next evaluation starts from a fresh heap, so its result
            // does not depend on this one (frames come out the same in any order).
            lamina_duk_destroy(heap)
            heap = nil
        }
        switch Int(code) {
        case LAMINA_DUK_OK:
            return .success(Array(output.prefix(Int(count))))
        case LAMINA_DUK_SYNTAX:
            return .failure(.syntax(text))
        case LAMINA_DUK_RUNTIME:
            return .failure(.runtime(text))
        case LAMINA_DUK_TIMEOUT:
            return .failure(.timeLimit(limits.time))
        case LAMINA_DUK_MEMORY:
            // Start again from a fresh heap: the cache and whatever the expression kept are gone.
            if heap != nil { lamina_duk_destroy(heap) }
            heap = nil
            return .failure(.memoryLimit(limits.memory))
        case LAMINA_DUK_BAD_RESULT:
            return .failure(.badResult(text))
        default:
            // Duktape's fatal handler ran: the heap is abandoned and the next evaluation makes a new one.
            if heap != nil { lamina_duk_destroy(heap) }
            heap = nil
            return .failure(.runtime(text))
        }
    }
}

/// The host, reachable from the C callbacks through their `user` pointer.
private final class HostBox {
    let host: ExpressionHost
    init(_ host: ExpressionHost) { self.host = host }

    static func of(_ user: UnsafeMutableRawPointer?) -> HostBox {
        Unmanaged<HostBox>.fromOpaque(user!).takeUnretainedValue()
    }

    static func reference(_ byIndex: CInt, _ index: CInt, _ name: UnsafePointer<CChar>?, _ length: Int)
        -> ExpressionLayerReference
    {
        if byIndex != 0 { return .index(Int(index)) }
        guard let name else { return .name("") }
        let bytes = UnsafeRawBufferPointer(start: name, count: length)
        return .name(String(decoding: bytes, as: UTF8.self))
    }

    func fill(_ values: [Double], _ out: UnsafeMutablePointer<Double>?, _ capacity: CInt) -> CInt {
        guard let out else { return CInt(clamping: values.count) }
        let count = min(values.count, Int(capacity))
        for index in 0..<count { out[index] = values[index] }
        return CInt(clamping: values.count)
    }
}
