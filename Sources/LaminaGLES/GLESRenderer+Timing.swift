import CEGL
import Foundation
import LaminaCore

// Where a GLES frame's time goes, for `lamina bench`: encoding (the CPU turning a plan into instances and batches),
// submission (the GL calls that upload the instances and draw; a driver that rasterises in software, like llvmpipe,
// also bins triangles here), the GPU's own drawing, and readback. The GPU's time comes from a GL_TIME_ELAPSED_EXT
// query around the frame's draws where GL_EXT_disjoint_timer_query exists (what GPU drivers offer); otherwise
// from the CPU's clock around the glFinish that follows submission, which is the time the GPU still needed after
// the CPU was done with the frame (it misses what the GPU did while the CPU was still submitting).

/// The parts of the last frame's time that `GLESRenderer` measures when `measuresFrameTimes` is on.
public struct GLESFrameTimings: Sendable, Equatable {
    /// How the GPU's time was taken.
    public enum GPUClock: String, Sendable {
        /// A GL_TIME_ELAPSED_EXT query (GL_EXT_disjoint_timer_query): the GPU's own clock.
        case timerQuery = "GL_EXT_disjoint_timer_query"
        /// The CPU's clock around the glFinish after submission: what the GPU still had to do once the CPU was done.
        case finish = "glFinish"
    }

    /// Encoding the plan into instance data and draw batches (CPU), in seconds.
    public var encodeSeconds = 0.0
    /// Issuing the GL calls (instance upload, state, draws) up to the return of the render call (CPU).
    public var submitSeconds = 0.0
    /// The GPU's drawing: see `gpuClock`. 0 until `finish()` ends a frame.
    public var gpuSeconds = 0.0
    /// The CPU's wait in the glFinish after submission, always measured: what the GPU still had to do once the CPU
    /// was done. On llvmpipe this is where the frame is rasterised (its timer queries end before it starts: a few
    /// microseconds), so it is the figure to read there.
    public var finishWaitSeconds = 0.0
    /// Copying the frame back into memory (`render(_:)`, `measureReadback()`), in seconds; 0 for frames not read.
    public var readbackSeconds = 0.0
    public var gpuClock = GPUClock.finish

    public init() {}
}

extension GLESRenderer {
    /// Whether the driver has GPU timer queries.
    public var hasTimerQueries: Bool { clock.queries != nil }

    /// The entry points of GL_EXT_disjoint_timer_query, looked up through EGL (extension functions are not
    /// exported by libGLESv2 everywhere).
    struct TimerQueryFunctions {
        typealias Begin = @convention(c) (GLenum, GLuint) -> Void
        typealias End = @convention(c) (GLenum) -> Void
        typealias Gen = @convention(c) (GLsizei, UnsafeMutablePointer<GLuint>?) -> Void
        typealias Result64 = @convention(c) (GLuint, GLenum, UnsafeMutablePointer<GLuint64>?) -> Void
        typealias ResultInt = @convention(c) (GLuint, GLenum, UnsafeMutablePointer<GLuint>?) -> Void
        let begin: Begin, end: End, gen: Gen, delete: Gen, result64: Result64, result: ResultInt

        init?(extensions: Set<String>) {
            guard extensions.contains("GL_EXT_disjoint_timer_query"),
                let begin = Self.load("glBeginQueryEXT", as: Begin.self), let end = Self.load("glEndQueryEXT", as: End.self),
                let gen = Self.load("glGenQueriesEXT", as: Gen.self), let delete = Self.load("glDeleteQueriesEXT", as: Gen.self),
                let result64 = Self.load("glGetQueryObjectui64vEXT", as: Result64.self),
                let result = Self.load("glGetQueryObjectuivEXT", as: ResultInt.self)
            else { return nil }
            (self.begin, self.end, self.gen, self.delete, self.result64, self.result) =
                (begin, end, gen, delete, result64, result)
        }

        private static func load<T>(_ name: String, as type: T.Type) -> T? {
            guard let pointer = eglGetProcAddress(name) else { return nil }
            return unsafeBitCast(pointer, to: type)
        }
    }

    /// Looks up the timer query functions and makes the query object (with the other GL objects).
    func makeTimerQuery() {
        clock.queries = TimerQueryFunctions(extensions: context.extensions)
        if let timer = clock.queries { timer.gen(1, &clock.query) }
    }

    func releaseTimerQuery() {
        if let timer = clock.queries, clock.query != 0 { timer.delete(1, &clock.query) }
        clock.query = 0
        clock.queryOpen = false
    }

    /// Starts timing a frame's GL work (when measuring).
    func beginGPUTiming() {
        guard measuresFrameTimes, let timer = clock.queries, clock.query != 0, !clock.queryOpen else { return }
        timer.begin(GLenum(GL_TIME_ELAPSED_EXT), clock.query)
        clock.queryOpen = true
    }

    func endGPUTiming() {
        guard clock.queryOpen, let timer = clock.queries else { return }
        timer.end(GLenum(GL_TIME_ELAPSED_EXT))
    }

    /// Waits for the GPU (glFinish) and, when measuring, records the GPU's time of the frame just submitted.
    func finishTimed() {
        let start = DispatchTime.now().uptimeNanoseconds
        glFinish()
        let waited = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard measuresFrameTimes else { return }
        frameTimings.finishWaitSeconds = waited
        if clock.queryOpen, let timer = clock.queries {
            clock.queryOpen = false
            var disjoint: GLint = 0
            glGetIntegerv(GLenum(GL_GPU_DISJOINT_EXT), &disjoint)
            var elapsed: GLuint64 = 0
            timer.result64(clock.query, GLenum(GL_QUERY_RESULT_EXT), &elapsed)
            if disjoint == 0 {
                frameTimings.gpuSeconds = Double(elapsed) / 1e9
                frameTimings.gpuClock = .timerQuery
                return
            }
        }
        frameTimings.gpuSeconds = waited
        frameTimings.gpuClock = .finish
    }

    /// Reads the frame last drawn by `renderOffscreen(_:)` back into `image` (the plan's size) with glReadPixels,
    /// and records the time in `frameTimings.readbackSeconds`: the cost a frame's readback adds, for benchmarks.
    public func measureReadback(into image: Image) throws {
        try recovering {
            try startFrame()
            let start = DispatchTime.now().uptimeNanoseconds
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
            glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 4)
            glReadPixels(0, 0, GLsizei(image.width), GLsizei(image.height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE),
                         image.baseAddress)
            try checkErrors("reading pixels back")
            image.markModified()
            frameTimings.readbackSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
    }
}
