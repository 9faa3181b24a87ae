import CEGL
import Foundation
import LaminaCore

// The parts of a GLESRenderer's state, each kept by the files that use it, so that the renderer holds a few parts
// rather than some forty fields across its files (docs/gpu.md, "The renderer's parts (`GLESRenderer+Parts.swift`)").

/// The compiled programs (GLESProgram.swift; GLESRenderer+Shapes.swift compiles the shape programs on first use,
/// GLESRenderer+Blend.swift the blend programs).
struct GLESPrograms {
    /// The quad, blur and shape programs, by kind.
    var quads: [GLESProgram.Kind: GLESProgram] = [:]
    /// The programs of Shaders/blend.frag, one per blend mode, compiled on first use.
    var blend: [GroupComposite: GLESProgram] = [:]
    /// Whether blend.frag reads the framebuffer (GL_EXT_shader_framebuffer_fetch); nil until asked.
    var framebufferFetch: Bool?
}

/// The vertex array and the buffers instances are drawn from (GLESRenderer+Instances.swift, GLESRenderer+Shadows.swift).
struct GLESInstanceBuffers {
    var vertexArray: GLuint = 0
    /// Instance buffers written in turn, and how many bytes each holds.
    var buffers: [GLuint] = []
    var capacities: [Int] = []
    var turn = 0
    /// The instance buffer of the shadow passes and the box it holds.
    var pass: GLuint = 0
    var passSize = (width: 0, height: 0)
}

/// The tables of coverage worked out in the shader: the span table of quads drawn by coverage
/// (GLESRenderer+Spans.swift) and the shape table (GLESRenderer+Shapes.swift).
struct GLESCoverageTables {
    var spanTexture: GLuint = 0
    /// The span table's texture lines.
    var spanLines = 0
    let shapes = GLESShapeTable()
}

/// The pixel-pack buffer ring of pipelined readback and the frames in flight (GLESRenderer+Readback.swift).
struct GLESReadbackRing {
    var slots: [ReadbackSlot] = []
    var depth = 3
    var sequence = 0
    /// Frames copied out of the ring before their collection (counted as in flight).
    var evacuated = 0
    /// The frames `renderPipelined(_:)` has begun and not yet returned, oldest first.
    var pipeline: [GLESPendingFrame] = []
}

/// What a frame's parts are measured with (GLESRenderer+Timing.swift): the GPU's timer query, and the CPU time of
/// the encoder and of the buffer uploads.
struct GLESFrameClock {
    var queries: GLESRenderer.TimerQueryFunctions?
    var query: GLuint = 0
    var queryOpen = false
    /// Time spent in the encoder this frame (shadow silhouettes included), for `frameTimings`.
    var encodeNanoseconds: UInt64 = 0
    /// Time spent uploading instance data and span tables this frame, for `RenderStatistics.prepareSeconds`.
    var bufferUploadNanoseconds: UInt64 = 0
}

/// The offscreen buffers of groups, masks and shadows, reused between groups and frames
/// (GLESRenderer+TargetPool.swift).
struct GLESTargetPool {
    var targets: [GLESRenderer.GroupTarget] = []
    /// Frames drawn: the clock that ages idle targets.
    var framesDrawn = 0
}
