import Foundation
import LaminaCore

/// Animation events and completion blocks on the main run loop, as Core Animation delivers them: a program that runs
/// `RunLoop.main` (or `dispatchMain()`) hears `animationDidStart`, `animationDidStop(_:finished:)` and transaction
/// completion blocks as time passes, with no display and no frame (docs/animation.md, "Frames, delegates and
/// removal").
///
/// - Completion blocks that are due when their transaction commits (it added no animation, or they have all
///   stopped) are queued here, never run inside `commit()`. Those of a commit on the main thread run on the main
///   queue or in the next frame (on the frame's thread), whichever comes first; those of a commit on another
///   thread run in the next frame, as that thread's animations' events do.
/// - Animations added on the main thread with a delegate or a completion block are watched: while any is, the main
///   queue evaluates them at `currentMediaTime()` about 60 times a second and delivers what has happened. Frames
///   deliver the events of what they draw too; each event is delivered once, by whichever comes first (the
///   book-keeping of `AnimationEvents`). Animations added on other threads hear their events from frames only, so
///   frames drawn at explicit times (exports, tests) decide them there.
final class MainRunLoopEvents: @unchecked Sendable {
    static let shared = MainRunLoopEvents()

    private let lock = NSLock()
    /// Completion blocks due to run, and whether the main queue may run them (a commit on the main thread).
    private var ready: [(block: @Sendable () -> Void, main: Bool)] = []
    /// Attached animations watched for their events, with their layers.
    private var watched: [(layer: Weak, attached: AttachedAnimation)] = []
    /// A turn of the main queue is scheduled.
    private var armed = false

    struct Weak: @unchecked Sendable {
        weak var layer: Layer?
    }

    /// Queues `blocks` to run after the current call returns: on the main queue, or in the next frame.
    func enqueue(_ blocks: [@Sendable () -> Void]) {
        guard !blocks.isEmpty else { return }
        let main = Thread.isMainThread
        lock.withLock { ready += blocks.map { ($0, main) } }
        if main { arm(after: 0) }
    }

    /// Watches an animation just attached to `layer` (on the main thread only; see the type's comment).
    func watch(_ attached: AttachedAnimation, on layer: Layer) {
        guard Thread.isMainThread,
            attached.animation.delegate != nil || attached.events.completion != nil
        else { return }
        lock.withLock { watched.append((Weak(layer: layer), attached)) }
        arm(after: 0)
    }

    /// Runs the completion blocks that are due, on the calling thread: a frame's (all of them), or the main queue's
    /// (`onlyMain`: those of commits on the main thread).
    /// True when any block ran.
    @discardableResult
    func runReadyBlocks(onlyMain: Bool = false) -> Bool {
        let blocks: [@Sendable () -> Void] = lock.withLock {
            let taken = ready.filter { !onlyMain || $0.main }
            ready.removeAll { !onlyMain || $0.main }
            return taken.map(\.block)
        }
        for block in blocks { block() }
        return !blocks.isEmpty
    }

    private func arm(after delay: Double) {
        let schedule: Bool = lock.withLock {
            defer { armed = true }
            return !armed
        }
        guard schedule else { return }
        let fire: @Sendable () -> Void = { MainRunLoopEvents.shared.fire() }
        if delay <= 0 {
            DispatchQueue.main.async(execute: fire)
        } else {
            DispatchQueue.main.asyncAfter(deadline: .now() + delay, execute: fire)
        }
    }

    /// One turn on the main queue: due blocks, then the watched animations' events at the media time now.
    private func fire() {
        lock.withLock { armed = false }
        runReadyBlocks(onlyMain: true)
        let now = currentMediaTime()
        let current: [(layer: Weak, attached: AttachedAnimation)] = lock.withLock { watched }
        var events: [AnimationEvent] = []
        var done = Set<ObjectIdentifier>()
        for (holder, attached) in current {
            guard let layer = holder.layer, !attached.events.isStopped else {
                done.insert(ObjectIdentifier(attached.events))
                continue
            }
            // Events are for what has been committed (shown): the layer's local time through its committed
            // ancestors' timing.
            let local: Double? = ModelLock.shared.withLock {
                guard layer.committed.animations.contains(where: { $0.events === attached.events }) else {
                    return nil
                }
                var chain: [MediaTiming] = [layer.committed.timing]
                var node = layer.committedParent
                while let parent = node {
                    chain.append(parent.committed.timing)
                    node = parent.committedParent
                }
                return chain.reversed().reduce(now) { $1.localTime(parent: $0) }
            }
            guard let local else { continue }
            let timing = attached.animation.timing
            if timing.activeDuration.isFinite, timing.isFinished(parent: local) {
                events.append(AnimationEvent(kind: .finished, attached: attached))
                done.insert(ObjectIdentifier(attached.events))
            } else if timing.hasStarted(parent: local) {
                events.append(AnimationEvent(kind: .started, attached: attached))
            }
        }
        AnimationEvents.deliver(events, removingFinished: true)
        let more: Bool = lock.withLock {
            watched.removeAll { done.contains(ObjectIdentifier($0.attached.events)) || $0.layer.layer == nil }
            return !watched.isEmpty || ready.contains { $0.main }
        }
        if more { arm(after: 1.0 / 60) }
    }
}
