import Foundation

/// The transactions of one thread: its open explicit levels and their changes, and its implicit transaction.
/// Only the owning thread touches `levels`, `explicitChanges` and the settings; `implicitChanges` is also
/// committed by frames on other threads, so it is touched only under the model lock.
final class ThreadTransactions: @unchecked Sendable {
    var levels: [TransactionLevel] = []
    var explicitChanges = ChangeSet()
    var completions: [@Sendable () -> Void] = []
    var implicitChanges = ChangeSet()
    var implicitSettings: [String: Any] = [:]
    var implicitCompletions: [@Sendable () -> Void] = []
    /// The block given to `setCompletionBlock` outside explicit transactions, as given.
    var implicitGivenCompletion: (() -> Void)?
    /// The animations added in the open explicit transaction, and in the implicit one: their transaction's
    /// completion blocks wait for them (only the owning thread touches these).
    var explicitAnimations: CompletionGroup?
    var implicitAnimations: CompletionGroup?
    /// While a frame draws layers whose custom-drawn keys are animated (Layer+KeyValueCoding.swift): the state each
    /// such layer shows in that frame, which `value(forKey:)` reads on this thread during its drawing.
    var presenting: [ObjectIdentifier: LayerState] = [:]
    /// Set while this thread lays out marked layers (Layer+Layout.swift), so a commit inside `layoutSublayers()`
    /// does not start the layout again.
    var layingOut = false

    /// The completion group of the current transaction, made on first use.
    func currentAnimationGroup() -> CompletionGroup {
        if levels.isEmpty {
            if let group = implicitAnimations { return group }
            let group = CompletionGroup()
            implicitAnimations = group
            return group
        }
        if let group = explicitAnimations { return group }
        let group = CompletionGroup()
        explicitAnimations = group
        return group
    }

    /// Remembers the block `setCompletionBlock` was given at the current level.
    func completionBlockSet(_ block: (() -> Void)?) {
        if levels.isEmpty { implicitGivenCompletion = block } else { levels[levels.count - 1].givenCompletion = block }
    }

    /// The completion block set at the current level (CATransaction's `completionBlock()`).
    func currentCompletionBlock() -> (() -> Void)? {
        levels.isEmpty ? implicitGivenCompletion : levels[levels.count - 1].givenCompletion
    }

    /// The calling thread's transactions, made on first use.
    static var current: ThreadTransactions {
        if let raw = pthread_getspecific(key) { return Unmanaged<ThreadTransactions>.fromOpaque(raw).takeUnretainedValue() }
        let made = ThreadTransactions()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }

    /// Commits the implicit transaction. Model lock held. Its settings are the owning thread's to clear
    /// (`flush()`), since only that thread reads them.
    func commitImplicitLocked() {
        Transaction.commitLocked(implicitChanges)
        implicitChanges = ChangeSet()
        Self.pending[ObjectIdentifier(self)] = nil
    }

    /// Threads with an implicit transaction not yet committed. Model lock held to touch it.
    nonisolated(unsafe) private static var pending: [ObjectIdentifier: ThreadTransactions] = [:]

    static func registerPendingLocked(_ thread: ThreadTransactions) {
        if pending[ObjectIdentifier(thread)] == nil {
            pending[ObjectIdentifier(thread)] = thread
            ModelChanges.notifyLocked()
        }
    }

    static func commitAllImplicitLocked() {
        for thread in pending.values { thread.commitImplicitLocked() }
    }

    /// A thread ends: what it changed and did not commit is committed now, rather than lost.
    private func threadExited() {
        ModelLock.shared.withLock {
            commitImplicitLocked()
            Transaction.commitLocked(explicitChanges)
            explicitChanges = ChangeSet()
        }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in
            guard let raw else { return }
            Unmanaged<ThreadTransactions>.fromOpaque(raw).takeRetainedValue().threadExited()
        }
        return key
    }()
}
