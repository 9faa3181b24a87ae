/// Values kept from one frame to the next while they are used, with one ageing policy for every renderer cache: an
/// entry that no frame has used for `keep` frames is dropped at `endFrame()`, and `onEvict` is told, so that a
/// value holding something outside Swift's memory (a GL texture) can free it. A static scene's rounded and
/// antialiased quads get their coverage worked out once, not every frame (keep 2); both renderers keep their
/// blurred shadows the same way (keep 4).
///
/// Each frame stamps the entries it uses; `endFrame()` closes the frame. Not thread-safe: fill it from one thread.
public final class FrameCache<Key: Hashable, Value> {
    @usableFromInline var entries: [Key: (value: Value, frame: Int)] = [:]
    @usableFromInline var frame = 0
    /// Frames an entry survives unused.
    public let keep: Int
    @usableFromInline let onEvict: ((Value) -> Void)?

    /// A cache that drops what `keep` frames in a row (at least 1) did not use, calling `onEvict` with each value it
    /// drops or that `removeAll()` removes.
    public init(keep: Int = 2, onEvict: ((Value) -> Void)? = nil) {
        self.keep = max(1, keep)
        self.onEvict = onEvict
    }

    /// The value for `key`, made by `make` when it is not kept; either way used in this frame.
    @inlinable
    public func value(for key: Key, make: () throws -> Value) rethrows -> Value {
        if let value = use(key) { return value }
        let value = try make()
        entries[key] = (value, frame)
        return value
    }

    /// The kept value for `key`, now used in this frame; nil when none is kept.
    @inlinable
    public func use(_ key: Key) -> Value? {
        guard let entry = entries[key] else { return nil }
        entries[key] = (entry.value, frame)
        return entry.value
    }

    /// Whether a value is kept for `key` (without using it).
    @inlinable
    public func contains(_ key: Key) -> Bool { entries[key] != nil }

    /// Keeps `value` for `key`, used in this frame; a value it replaces is evicted.
    @inlinable
    public func insert(_ value: Value, for key: Key) {
        if let old = entries.updateValue((value, frame), forKey: key) { onEvict?(old.value) }
    }

    /// Ends a frame: drops, and evicts, what the last `keep` frames did not use.
    @inlinable
    public func endFrame() {
        let isKept = { (entry: (value: Value, frame: Int)) in entry.frame + self.keep > self.frame }
        let dropped = onEvict == nil ? [] : entries.values.filter { !isKept($0) }.map(\.value)
        entries = entries.filter { isKept($0.value) }
        frame += 1
        if let onEvict { dropped.forEach(onEvict) }
    }

    /// Evicts every value (at the end of the renderer, or when its GL context is replaced).
    @inlinable
    public func removeAll() {
        let values = entries.values.map(\.value)
        entries.removeAll()
        if let onEvict { values.forEach(onEvict) }
    }

    /// Entries kept.
    @inlinable
    public var count: Int { entries.count }
}
