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
    var instanceBuffer: GLuint { instanceBuffers.isEmpty ? 0 : instanceBuffers[instanceBufferTurn] }

    func makeInstanceBuffers() {
        instanceBuffers = [GLuint](repeating: 0, count: Self.instanceBufferCount)
        glGenBuffers(GLsizei(instanceBuffers.count), &instanceBuffers)
        instanceBufferCapacities = [Int](repeating: 0, count: instanceBuffers.count)
        instanceBufferTurn = 0
    }

    func releaseInstanceBuffers() {
        if !instanceBuffers.isEmpty { glDeleteBuffers(GLsizei(instanceBuffers.count), &instanceBuffers) }
        instanceBuffers = []
        instanceBufferCapacities = []
        instanceBufferTurn = 0
    }

    /// Puts `instances` into the next buffer of the ring, leaves it bound as GL_ARRAY_BUFFER, and enables the
    /// per-instance attributes.
    func uploadInstances(_ instances: [Float]) {
        instanceBufferTurn = (instanceBufferTurn + 1) % max(instanceBuffers.count, 1)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
        let bytes = instances.count * MemoryLayout<Float>.stride
        instances.withUnsafeBytes { raw in
            if bytes > instanceBufferCapacities[instanceBufferTurn] {
                // Doubling keeps growth to a few steps; the storage is then kept.
                let capacity = max(bytes, instanceBufferCapacities[instanceBufferTurn] * 2)
                instanceBufferCapacities[instanceBufferTurn] = capacity
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
