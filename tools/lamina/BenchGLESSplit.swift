import Foundation
import LaminaGLES

/// Where a GLES frame's time went (medians over the counted frames, ms): planning, encoding the plan into instances,
/// submitting the GL calls, the GPU's drawing, and a readback of the frame (`GLESRenderer.frameTimings`). The
/// readback is timed after the frame and is not part of its frame time, which, like the instanced baseline's, ends
/// when the GPU is done.
struct GLESFrameSplit {
    var plan = 0.0, encode = 0.0, submit = 0.0, gpu = 0.0, finishWait = 0.0, readback = 0.0
    /// How the GPU's time was taken: "GL_EXT_disjoint_timer_query" or "glFinish".
    var gpuClock = GLESFrameTimings.GPUClock.finish.rawValue

    /// Per-frame figures gathered during a run.
    struct Samples {
        var encode: [Double] = [], submit: [Double] = [], gpu: [Double] = [], finishWait: [Double] = []
        var readback: [Double] = []
        var clock = GLESFrameTimings.GPUClock.finish

        mutating func add(_ timings: GLESFrameTimings) {
            encode.append(timings.encodeSeconds * 1000)
            submit.append(timings.submitSeconds * 1000)
            gpu.append(timings.gpuSeconds * 1000)
            finishWait.append(timings.finishWaitSeconds * 1000)
            readback.append(timings.readbackSeconds * 1000)
            clock = timings.gpuClock
        }

        func split(plan: Double) -> GLESFrameSplit? {
            guard !encode.isEmpty else { return nil }
            let median = { FrameStats.percentile($0, 0.5) }
            return GLESFrameSplit(plan: plan, encode: median(encode), submit: median(submit), gpu: median(gpu),
                                  finishWait: median(finishWait), readback: median(readback), gpuClock: clock.rawValue)
        }
    }

    /// "plan 0.01 ms, encode 1.20 ms, submit 0.40 ms, GPU 10.30 ms (glFinish), glFinish wait 10.30 ms, readback
    /// 2.10 ms (after the frame, not in its time)".
    var text: String {
        "plan \(f(plan)) ms, encode \(f(encode)) ms, submit \(f(submit)) ms, GPU \(f(gpu)) ms (\(gpuClock)), "
            + "glFinish wait \(f(finishWait)) ms, readback \(f(readback)) ms (after the frame, not in its time)"
    }

    var json: BenchJSON {
        .object([
            ("planMs", .number(plan)), ("encodeMs", .number(encode)), ("submitMs", .number(submit)),
            ("gpuMs", .number(gpu)), ("finishWaitMs", .number(finishWait)), ("readbackMs", .number(readback)), ("gpuClock", .string(gpuClock)),
        ])
    }
}
