import CEGL
import LaminaCore

/// The GPU memory of one renderer against its `MemoryBudget`: every texture it allocates (image textures and
/// tiles, atlas pages, mip chains, group and shadow buffers, the output-sized render target) reserves its bytes
/// between glGenTextures and the call that allocates storage.
///
/// Reservations are kept by texture name and dropped once glIsTexture says the name was deleted, so the code
/// that deletes textures (pools, caches, eviction) needs no hook of its own: the next allocation settles up.
final class GLESMemory {
    /// Where reservations come from; the renderer's `memoryBudget`.
    var budget = MemoryBudget()
    private var held: [GLuint: MemoryReservation] = [:]

    /// Bytes held by live textures (as of the last allocation).
    var bytesHeld: Int { held.values.reduce(0) { $0 + $1.bytes } }

    /// Reserves `bytes` for `texture`, a name just made with glGenTextures and bound, before its storage is
    /// allocated. Over budget: deletes the name and throws `MemoryLimitError`.
    func reserve(_ texture: GLuint, bytes: Int, for what: @autoclosure () -> String) throws {
        forgetDeleted()
        do {
            held[texture] = try budget.reserve(bytes, for: what())
        } catch {
            var name = texture
            glDeleteTextures(1, &name)
            throw error
        }
    }

    /// Forgets the reservations of textures deleted since (a reused name was replaced when it was reserved).
    private func forgetDeleted() {
        for name in held.keys where glIsTexture(name) == GLboolean(GL_FALSE) { held[name] = nil }
    }

    /// Gives every reservation back (the renderer's textures are all gone).
    func removeAll() { held.removeAll() }
}

extension GLESRenderer {
    /// The budget that this renderer's textures, render targets and output images reserve from (`MemoryBudget`);
    /// 2 GiB of its own unless set. Share one with `SceneOptions.memoryBudget` to count the decoded images too.
    /// Over budget, rendering throws `MemoryLimitError` before the allocation; textures already made keep
    /// their reservations in the budget they came from.
    public var memoryBudget: MemoryBudget {
        get { textures.memory.budget }
        set { textures.memory.budget = newValue }
    }

    /// Reserves the output image `render(_:)` returns, which holds the reservation until it is freed.
    func reserveOutput(_ plan: RenderPlan) throws -> MemoryReservation {
        try memoryBudget.reserve(
            plan.width * plan.height * 4, for: "the \(plan.width)x\(plan.height) output image")
    }

    /// Reserves a render target's texture (`what`: "group buffer", "shadow", "render target").
    func reserveTarget(_ texture: GLuint, width: Int, height: Int, what: String) throws {
        try textures.memory.reserve(texture, bytes: width * height * 4, for: "a \(width)x\(height) \(what)")
    }
}
