import Foundation

/// What a renderer (or an output) keeps between frames for the modules that feed it: the planner's caches of a
/// layer tree live here, so that two renderers drawing one tree (at different scales, say) never evict each
/// other's, and a layer holds no planner state (docs/architecture.md, "Model, commit, snapshot, plan").
///
/// A slot is made on first use and kept while the renderer lives. Slots are taken under a lock, so a renderer
/// may be handed to another thread between frames; what is in a slot is used by one frame at a time.
public final class RendererCaches: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [String: AnyObject] = [:]

    public init() {}

    /// The object kept under `key`, made by `make` the first time.
    public func slot<T: AnyObject>(_ key: String, make: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        if let existing = slots[key] as? T { return existing }
        let made = make()
        slots[key] = made
        return made
    }

    /// Forgets every slot (the next frame plans from scratch).
    public func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        slots.removeAll()
    }
}
