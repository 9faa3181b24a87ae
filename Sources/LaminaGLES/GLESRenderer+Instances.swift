import CEGL
import Foundation
import LaminaCore

// The per-instance data of each draw goes into one of a few buffers used in turn, each written with
// glBufferSubData into storage allocated once (and again only when a frame needs more room). Orphaning a single
// buffer with glBufferData(NULL) before every write, as this code once did, makes drivers such as llvmpipe free
// and allocate the buffer's whole storage on each write, about seven times a frame with shadows; those
// allocations, around 200 KB each, fragmented the heap, so that resident memory crept up by megabytes over a
// 30,000-frame soak (docs/benchmarks.md, "Soak"). Taking the buffer least recently written lets a GPU still
// drawing from the others go on without waiting.

extension GLESRenderer {
    /// Buffers in the ring.
    static let instanceBufferCount = 4

    /// The buffer the last upload wrote (bound before the next upload takes its turn).
    var instanceBuffer: GLuint { instancing.buffers.isEmpty ? 0 : instancing.buffers[instancing.turn] }

    func makeInstanceBuffers() {
        instancing.buffers = [GLuint](repeating: 0, count: Self.instanceBufferCount)
        glGenBuffers(GLsizei(instancing.buffers.count), &instancing.buffers)
        instancing.capacities = [Int](repeating: 0, count: instancing.buffers.count)
        instancing.turn = 0
    }

    func releaseInstanceBuffers() {
        if !instancing.buffers.isEmpty { glDeleteBuffers(GLsizei(instancing.buffers.count), &instancing.buffers) }
        instancing.buffers = []
        instancing.capacities = []
        instancing.turn = 0
    }

    /// Puts `instances` into the next buffer of the ring, leaves it bound as GL_ARRAY_BUFFER, and enables the
    /// per-instance attributes.
    func uploadInstances(_ instances: [Float]) {
        instancing.turn = (instancing.turn + 1) % max(instancing.buffers.count, 1)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
        let bytes = instances.count * MemoryLayout<Float>.stride
        instances.withUnsafeBytes { raw in
            if bytes > instancing.capacities[instancing.turn] {
                // Doubling keeps growth to a few steps; the storage is then kept.
                let capacity = max(bytes, instancing.capacities[instancing.turn] * 2)
                instancing.capacities[instancing.turn] = capacity
                glBufferData(GLenum(GL_ARRAY_BUFFER), capacity, nil, GLenum(GL_STREAM_DRAW))
            }
            if bytes > 0 { glBufferSubData(GLenum(GL_ARRAY_BUFFER), 0, bytes, raw.baseAddress) }
        }
        enableInstanceAttributes()
    }

    /// Enables the per-instance attributes (of the bound vertex array).
    func enableInstanceAttributes() {
        for location in GLESProgram.attributes.indices {
            glEnableVertexAttribArray(GLuint(location))
            glVertexAttribDivisor(GLuint(location), 1)
        }
    }
}
