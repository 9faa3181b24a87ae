import Foundation
import LaminaCore

// Putting a layer's animations back as they were (a scene's timeline going back in time, LaminaScene's
// SceneTimeline.swift): the very attachments taken earlier, not copies, so that a frame presents them exactly as it
// did then.

extension Layer {
    /// The animations attached to the model now, in the order they were added.
    package var attachedAnimations: [AttachedAnimation] {
        read { $0.animations }
    }

    /// Whether every one of `attachments` is still attached to the model (none was removed or replaced since).
    package func stillHasAttachedAnimations(_ attachments: [AttachedAnimation]) -> Bool {
        guard !attachments.isEmpty else { return true }
        return read { state in
            let attached = Set(state.animations.map { ObjectIdentifier($0.events) })
            return attachments.allSatisfy { attached.contains(ObjectIdentifier($0.events)) }
        }
    }

    /// Makes `attachments` (taken earlier from `attachedAnimations`) the model's animations again, as a change of the
    /// current transaction. Those attached now and not among them are stopped unfinished, as `removeAnimation(forKey:)`
    /// stops them; those among them keep what their delegates were told.
    package func restoreAttachedAnimations(_ attachments: [AttachedAnimation]) {
        let kept = Set(attachments.map { ObjectIdentifier($0.events) })
        let dropped: [AttachedAnimation] = write(.animations) { state in
            defer { state.animations = attachments }
            return state.animations.filter { !kept.contains(ObjectIdentifier($0.events)) }
        }
        for attached in dropped { attached.events.stop(attached.animation, finished: false) }
    }
}

extension AttachedAnimation {
    /// Whether a live frame may take it off its layer: it is removed on completion and its active duration ends
    /// (before `FunctionAnimation.forever`, which stands for never).
    package var canFinish: Bool {
        animation.isRemovedOnCompletion && animation.timing.activeDuration < FunctionAnimation.forever
    }
}
