import Foundation
import LaminaCore

/// Core Animation's CATransaction: groups changes to layers so that frames see them together.
///
/// - Every change to a layer (a property, sublayers, a mask) belongs to a transaction of the calling thread. Between
///   `begin()` and the matching `commit()` it is the explicit one; transactions nest, and only the outermost
///   `commit()` makes the changes of all levels visible, at once.
/// - A change made outside any explicit transaction belongs to the thread's implicit transaction, which the next
///   frame commits (a renderer's `render(_:)` of a layer commits every thread's implicit transaction first), or
///   `flush()` commits now. So single-threaded code draws what it set, as before. Across threads an implicit
///   transaction is not atomic: a frame may commit it between two of its changes; use an explicit one.
/// - Getters return what was last set (the model) at once, on every thread; frames draw only what was committed.
/// - A thread that ends with changes not committed has them committed as it ends.
/// - The settings (`setDisableActions`, `setAnimationDuration`, values by key) belong to the innermost open
///   transaction and are inherited by the levels inside it; they are kept for the animation model, which reads
///   them as changes are made.
///
/// Locking (docs/architecture.md, "Locking"): one lock guards every layer's model and committed state. A setter
/// holds it for the write and the record of the value; a commit holds it while it applies each changed layer's
/// recorded values to the committed state; a frame holds it while it takes a snapshot of the committed tree. It is
/// never held while user code runs.
public enum Transaction {
    /// Opens a transaction (nested in any open one) on the calling thread.
    public static func begin() {
        ThreadTransactions.current.levels.append(TransactionLevel())
    }

    /// Closes the innermost open transaction of the calling thread; the outermost one makes its changes (and its
    /// nested ones') visible to frames, all together. Its completion blocks run after it returns (never inside it):
    /// once its animations are done, on the main queue or in the next frame, whichever comes first. With no transaction open
    /// it commits the thread's implicit transaction, as `flush()` does.
    public static func commit() {
        let thread = ThreadTransactions.current
        // The outermost commit lays out the marked layers first, in this transaction (Layer+Layout.swift).
        if thread.levels.count == 1 { Layer.layoutMarkedLayers() }
        guard let level = thread.levels.popLast() else {
            flush()
            return
        }
        thread.completions += level.completions
        guard thread.levels.isEmpty else { return }
        ModelLock.shared.withLock {
            commitLocked(thread.explicitChanges)
            thread.explicitChanges = ChangeSet()
        }
        var completions = thread.completions
        thread.completions = []
        if let group = thread.explicitAnimations {
            // The blocks wait for the animations this transaction added.
            thread.explicitAnimations = nil
            completions = group.commit(completions)
        }
        // Never inside the commit: on the main queue, or in the next frame (MainRunLoopEvents).
        MainRunLoopEvents.shared.enqueue(completions)
    }

    /// Commits the calling thread's implicit transaction now (changes made outside `begin()` and `commit()`).
    public static func flush() {
        Layer.layoutMarkedLayers()
        let thread = ThreadTransactions.current
        ModelLock.shared.withLock { thread.commitImplicitLocked() }
        thread.implicitSettings = [:]
        var completions = thread.implicitCompletions
        thread.implicitCompletions = []
        thread.implicitGivenCompletion = nil
        if let group = thread.implicitAnimations {
            thread.implicitAnimations = nil
            completions = group.commit(completions)
        }
        // Never inside the commit: on the main queue, or in the next frame (MainRunLoopEvents).
        MainRunLoopEvents.shared.enqueue(completions)
    }

    /// How many explicit transactions are open on the calling thread.
    public static var nestingLevel: Int { ThreadTransactions.current.levels.count }

    /// Whether the changes of the current transaction run their actions (implicit animations); false by default.
    public static func disableActions() -> Bool {
        value(forKey: Key.disableActions) as? Bool ?? false
    }

    public static func setDisableActions(_ flag: Bool) {
        setValue(flag, forKey: Key.disableActions)
    }

    /// The duration, in seconds, of the animations the current transaction's changes start; 0.25 by default.
    public static func animationDuration() -> TimeInterval {
        value(forKey: Key.animationDuration) as? TimeInterval ?? 0.25
    }

    public static func setAnimationDuration(_ duration: TimeInterval) {
        setValue(duration.isFinite ? max(duration, 0) : 0.25, forKey: Key.animationDuration)
    }

    /// The timing function of the animations the current transaction's changes start; nil (the default) means
    /// `MediaTimingFunction(name: .default)` for implicit animations.
    public static func animationTimingFunction() -> MediaTimingFunction? {
        value(forKey: Key.animationTimingFunction) as? MediaTimingFunction
    }

    public static func setAnimationTimingFunction(_ function: MediaTimingFunction?) {
        setValue(function, forKey: Key.animationTimingFunction)
    }

    /// Called once the current transaction's changes are committed and its animations are done: after `commit()`
    /// returns, on the main queue (a program running `RunLoop.main`) or in the next frame's thread, whichever comes
    /// first; before the animations' delegates hear `animationDidStop`. Setting it again replaces the block of this level. The block of an
    /// implicit transaction runs at the thread's next `flush()`. Core Animation's signature: the block need not be
    /// `@Sendable` (it runs where Lamina documents, docs/animation.md).
    public static func setCompletionBlock(_ block: (() -> Void)?) {
        let thread = ThreadTransactions.current
        let wrapped = block.map { block in UncheckedBlock(block).call }
        if thread.levels.isEmpty {
            thread.implicitCompletions = wrapped.map { [$0] } ?? []
        } else {
            thread.levels[thread.levels.count - 1].completions = wrapped.map { [$0] } ?? []
        }
        thread.completionBlockSet(block)
    }

    /// The completion block of the current transaction (CATransaction's `completionBlock()`): the one set at the
    /// innermost open level, or of the implicit transaction; nil when none is set.
    public static func completionBlock() -> (() -> Void)? {
        ThreadTransactions.current.currentCompletionBlock()
    }

    /// CATransaction's `lock()`: a recursive lock, for code that must change several layers from several threads
    /// as one step outside transactions. Lamina's layers need no lock of the caller's; it is kept for ported code.
    public static func lock() { callerLock.lock() }

    /// Releases `lock()`.
    public static func unlock() { callerLock.unlock() }

    private static let callerLock = NSRecursiveLock()

    /// A setting of the current transaction by key (CATransaction's `value(forKey:)`): the innermost open level
    /// that set it, else the implicit transaction's, else nil.
    public static func value(forKey key: String) -> Any? {
        let thread = ThreadTransactions.current
        for level in thread.levels.reversed() {
            if let value = level.settings[key] { return value }
        }
        return thread.implicitSettings[key]
    }

    /// Sets a setting of the current transaction (the innermost open one, or the implicit one).
    public static func setValue(_ value: Any?, forKey key: String) {
        let thread = ThreadTransactions.current
        if thread.levels.isEmpty {
            thread.implicitSettings[key] = value
        } else {
            thread.levels[thread.levels.count - 1].settings[key] = value
        }
    }

    /// The keys of the settings Lamina reads (CATransaction's kCATransaction… keys).
    public enum Key {
        public static let disableActions = "disableActions"
        public static let animationDuration = "animationDuration"
        public static let animationTimingFunction = "animationTimingFunction"
        /// Lamina extension: the media time at which the transaction's changes happen (a Double), for the
        /// implicit animations they start and the animations added with beginTime 0; without it, the time is
        /// `currentMediaTime()`. Scene timelines set it, so that a change at 2 s animates from 2 s whenever a
        /// frame is drawn.
        public static let mediaTime = "laminaMediaTime"
    }

    /// The media time of the current transaction's changes: its `Key.mediaTime` setting, else `currentMediaTime()`.
    public static func mediaTime() -> Double {
        value(forKey: Key.mediaTime) as? Double ?? currentMediaTime()
    }

    // MARK: Internal

    /// Records that `layer`'s `fields` changed, in the calling thread's current transaction. Model lock held.
    static func recordLocked(_ layer: Layer, fields: UInt64) {
        let thread = ThreadTransactions.current
        if thread.levels.isEmpty {
            thread.implicitChanges.add(layer, fields: fields)
            ThreadTransactions.registerPendingLocked(thread)
        } else {
            thread.explicitChanges.add(layer, fields: fields)
        }
    }

    /// Commits the implicit transaction of every thread (what a frame does first). Model lock not held.
    static func commitImplicitTransactions() {
        ModelLock.shared.withLock { ThreadTransactions.commitAllImplicitLocked() }
    }

    /// Runs `body` in a transaction of its own, outside any the calling thread has open, and commits it: a frame
    /// draws layers this way, so that their new contents are in the frame even inside an open transaction.
    static func detached<T>(_ body: () throws -> T) rethrows -> T {
        let thread = ThreadTransactions.current
        let (levels, changes, completions) = (thread.levels, thread.explicitChanges, thread.completions)
        thread.levels = [TransactionLevel()]
        thread.explicitChanges = ChangeSet()
        thread.completions = []
        defer {
            ModelLock.shared.withLock { commitLocked(thread.explicitChanges) }
            (thread.levels, thread.explicitChanges, thread.completions) = (levels, changes, completions)
        }
        return try body()
    }

    /// Copies every change of `changes` from the model to the committed state. Model lock held.
    static func commitLocked(_ changes: ChangeSet) {
        guard !changes.isEmpty else { return }
        commits &+= 1
        // A transition added in this transaction starts from the picture before it: taken before any change lands.
        for change in changes.changes.values where change.fields & LayerState.Field.animations.bit != 0 {
            change.layer?.captureTransitionsLocked(change.values.animations)
        }
        for change in changes.changes.values { change.layer?.commitLocked(change, stamp: commits) }
        ModelChanges.notifyLocked()
    }

    /// Writes to layers' models so far (`FieldWrites`). Model lock held.
    nonisolated(unsafe) static var writes: UInt64 = 0

    /// Commits made so far; each commit's number stamps the layers it changed (`Layer.contentVersion`).
    nonisolated(unsafe) static var commits: UInt64 = 0
}

/// One open level of explicit transactions on a thread.
struct TransactionLevel {
    var settings: [String: Any] = [:]
    /// The block given to `setCompletionBlock` at this level, as given (for `completionBlock()`).
    var givenCompletion: (() -> Void)?
    var completions: [@Sendable () -> Void] = []
}

/// The layers a transaction changed: for each, the set of fields (`LayerState.Field` bits) and the values this
/// transaction gave them, taken as they were set. A commit applies these values, not the model's, so a transaction
/// never commits a property another thread has set meanwhile in a transaction still open (a frame committing one
/// thread's implicit transaction cannot show half of another thread's explicit one). The lists of sublayers and
/// masks are the model's at the commit: taking a copy of a list at every change would make building a wide tree
/// quadratic. Layers are held weakly: one let go before the commit has nothing to commit, and an implicit
/// transaction that no frame commits keeps nothing alive.
struct ChangeSet {
    /// One layer's record. A class, so that the dictionary moves a pointer when it grows: a record kept inline is a
    /// whole `LayerState` and a weak reference, which is not moved bit for bit (each move is a call into the
    /// runtime), and a transaction that moved 100,000 sprites spent more time growing its dictionary than setting
    /// their positions (docs/benchmarks.md, "Moved quads without copies (2026-11-27)").
    final class Change {
        weak var layer: Layer?
        var fields: UInt64 = 0
        var values = LayerState()
        /// The write that gave each recorded field its value here.
        var writes = FieldWrites()

        init(layer: Layer) { self.layer = layer }
    }

    /// A transaction's records are its own: a `ChangeSet` is only copied to be put aside while another transaction
    /// records into a new one (`Transaction.detached`), so two sets never share a record that either changes.
    var changes: [ObjectIdentifier: Change] = [:]

    var isEmpty: Bool { changes.isEmpty }

    /// Records `layer`'s `fields` with their values now in its model. Model lock held.
    mutating func add(_ layer: Layer, fields: UInt64) {
        // A layer freed since its change was recorded may have left its address to this one: its record starts
        // afresh then.
        let key = ObjectIdentifier(layer)
        let change: Change
        if let recorded = changes[key], recorded.layer === layer {
            change = recorded
        } else {
            change = Change(layer: layer)
            changes[key] = change
        }
        change.fields |= fields
        // Read in place: `layer.model` as a value would be a copy of the whole state.
        withUnsafePointer(to: &layer.model) { change.values.copy(fields, from: $0) }
        Transaction.writes &+= 1
        change.writes.set(fields, to: Transaction.writes)
    }
}

/// For each field of one layer, the number of the write that gave it its value: numbers come from one counter for all
/// layers (`Transaction.writes`), in the order the model lock let the writes through. A commit applies a recorded value
/// only where it is newer than the committed one: when two transactions set one property and the one that set it
/// first commits last (an implicit transaction committed by a frame after another thread's explicit one), the later
/// value stays, as it does in the model. Empty (every field 0) until a field is set.
struct FieldWrites {
    private var numbers: [UInt64] = []

    subscript(_ field: Int) -> UInt64 { field < numbers.count ? numbers[field] : 0 }

    /// Gives every field of `fields` (a set of `LayerState.Field` bits) the write `number`.
    mutating func set(_ fields: UInt64, to number: UInt64) {
        if numbers.isEmpty { numbers = Array(repeating: 0, count: LayerState.Field.allCases.count) }
        var rest = fields
        while rest != 0 {
            numbers[rest.trailingZeroBitCount] = number
            rest &= rest - 1
        }
    }

    /// The fields of `fields` whose write here is later than in `other`.
    func newer(_ fields: UInt64, than other: FieldWrites) -> UInt64 {
        var newer: UInt64 = 0
        var rest = fields
        while rest != 0 {
            let field = rest.trailingZeroBitCount
            if self[field] > other[field] { newer |= 1 << UInt64(field) }
            rest &= rest - 1
        }
        return newer
    }

    /// Takes the writes of `fields` from `other`.
    mutating func take(_ fields: UInt64, from other: FieldWrites) {
        var rest = fields
        if numbers.isEmpty, rest != 0 { numbers = Array(repeating: 0, count: LayerState.Field.allCases.count) }
        while rest != 0 {
            let field = rest.trailingZeroBitCount
            numbers[field] = other[field]
            rest &= rest - 1
        }
    }
}

/// A block that need not be `@Sendable` (Core Animation's completion blocks), called where Lamina documents it.
struct UncheckedBlock: @unchecked Sendable {
    let block: () -> Void
    init(_ block: @escaping () -> Void) { self.block = block }
    @Sendable func call() { block() }
}
