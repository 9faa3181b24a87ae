import Foundation

/// The one lock over every layer's model and committed state, every transaction's record of changes and the
/// snapshots of committed trees. It is held for a property's read or write, a commit, or the making of a
/// snapshot, never while user code (display(), a delegate) runs, so it cannot deadlock against it.
///
/// One lock rather than one per layer: a transaction commits many layers at once and a snapshot reads a whole
/// tree, which per-layer locks would make a lock-ordering problem; the sections it guards are short.
final class ModelLock: @unchecked Sendable {
    static let shared = ModelLock()

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    private init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A counter several threads may bump.
final class AtomicCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value: UInt64 = 0

    /// Adds `n` and returns the new value.
    func add(_ n: UInt64) -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        value &+= n
        return value
    }
}
