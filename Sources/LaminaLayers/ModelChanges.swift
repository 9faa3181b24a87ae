import Foundation
import LaminaCore

/// Tells frame loops that sleep (a kiosk's `Display`) that the layer model changed, so that an idle loop wakes for
/// the next frame instead of polling: a transaction committed, or a thread made its first change of an implicit
/// transaction (which the next frame commits).
///
/// Observers run on the thread that changed the model, with the model lock held: they must be short and must not
/// touch layers (a write to a pipe or an eventfd).
public enum ModelChanges {
    /// Calls `block` after each such change until the returned observation is released or cancelled.
    public static func observe(_ block: @escaping @Sendable () -> Void) -> ModelChangeObservation {
        let observation = ModelChangeObservation(block)
        registry.withLock { $0[ObjectIdentifier(observation)] = observation.block }
        return observation
    }

    static func remove(_ observation: ModelChangeObservation) {
        _ = registry.withLock { $0.removeValue(forKey: ObjectIdentifier(observation)) }
    }

    /// Model lock held.
    static func notifyLocked() {
        let blocks = registry.withLock { Array($0.values) }
        for block in blocks { block() }
    }

    private static let registry = LockedValue<[ObjectIdentifier: @Sendable () -> Void]>([:])
}

/// An observer of `ModelChanges`; it stops observing when released or cancelled.
public final class ModelChangeObservation: @unchecked Sendable {
    let block: @Sendable () -> Void

    init(_ block: @escaping @Sendable () -> Void) { self.block = block }

    public func cancel() { ModelChanges.remove(self) }

    deinit { ModelChanges.remove(self) }
}

/// A value behind a lock.
final class LockedValue<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
