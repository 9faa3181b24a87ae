import Foundation

/// Frames made on several threads and handed over strictly in order (`lamina export --jobs`).
///
/// Each of `jobs` threads builds its own worker (`makeWorker`, run on that thread: a job's scene and renderer
/// belong to it) and takes the lowest frame nobody has taken yet; the calling thread receives the finished
/// frames in frame order (`consume`). A thread may run ahead of the frame being written by fewer than
/// `window` frames (2 x jobs), that one included, so at most that many frames (rendering, waiting, or being
/// written) are in memory however slow the output.
///
/// A worker may keep frames in flight (`ExportFrameSource`: a GLES job reading frames back through its
/// renderer's readback ring): they count in the window from when they are taken, and a thread that may take no
/// more frames (the window is full, or none are left) first finishes those it holds, so the frame being waited
/// for is never stuck in a waiting thread.
///
/// Failures: the first frame (in frame order) that fails, or a failed `consume`, stops the threads from taking
/// new frames; the frames before a failed one are still handed over, so an output stops at a clean prefix.
/// `run` returns or throws only after every thread has finished.
final class ExportPipeline: @unchecked Sendable {
    typealias Worker = (Int) throws -> Data

    let frames: Range<Int>
    let jobs: Int
    let window: Int

    private let condition = NSCondition()
    private var nextToTake: Int
    private var nextToWrite: Int
    private var finished: [Int: Result<Data, Error>] = [:]
    private var stopped = false
    private var running = 0
    /// Why a thread could not build its worker, if one could not.
    private var setupError: Error?

    init(frames: Range<Int>, jobs: Int) {
        self.frames = frames
        self.jobs = max(1, min(jobs, frames.count))
        self.window = 2 * self.jobs
        nextToTake = frames.lowerBound
        nextToWrite = frames.lowerBound
    }

    /// Runs the export: `consume(n, bytes)` is called on this thread for every frame n in order. Each worker
    /// makes one frame a call.
    func run(makeWorker: @escaping @Sendable (Int) throws -> Worker, consume: (Int, Data) throws -> Void) throws {
        try run(makeSource: { job in SynchronousFrames(try makeWorker(job)) }, consume: consume)
    }

    /// Runs the export with workers that may keep frames in flight (`ExportFrameSource`).
    func run(makeSource: @escaping @Sendable (Int) throws -> ExportFrameSource, consume: (Int, Data) throws -> Void)
        throws
    {
        guard !frames.isEmpty else { return }
        running = jobs
        var threads: [pthread_t] = []
        defer { stopAndJoin(threads) }
        for job in 0..<jobs {
            threads.append(try JoinableThread.start { [self] in work(job: job, makeSource: makeSource) })
        }
        for number in frames {
            condition.lock()
            while finished[number] == nil && running > 0 { condition.wait() }
            let result = finished.removeValue(forKey: number)
            let setup = setupError
            condition.unlock()
            guard let result else { throw setup ?? CLIFailure.failed("frame \(number) was never rendered") }
            try consume(number, try result.get())
            // Only now is the frame out of memory: the window counts it until it is written.
            condition.lock()
            nextToWrite = number + 1
            condition.broadcast()
            condition.unlock()
        }
    }

    /// One thread: build the worker, render frames until there are none left or the export stopped, then
    /// count itself out. The worker (a job's scene and renderer, a GL context) is released inside
    /// `renderFrames`, and `run` joins the threads, so that nothing of a job is still being torn down when `run`
    /// returns: the process may exit right after, and a GL driver torn down by exit on one thread and by a
    /// context's release on another corrupts its heap.
    private func work(job: Int, makeSource: (Int) throws -> ExportFrameSource) {
        renderFrames(job: job, makeSource: makeSource)
        condition.lock()
        running -= 1
        condition.broadcast()
        condition.unlock()
    }

    private func renderFrames(job: Int, makeSource: (Int) throws -> ExportFrameSource) {
        let worker: ExportFrameSource
        do {
            worker = try makeSource(job)
        } catch {
            condition.lock()
            if setupError == nil { setupError = error }
            stopped = true
            condition.broadcast()
            condition.unlock()
            return
        }
        while true {
            condition.lock()
            var mustFinish = false
            while !stopped && nextToTake < frames.upperBound && nextToTake >= nextToWrite + window {
                // The frame being waited for may be one this worker holds.
                if worker.framesInFlight > 0 {
                    mustFinish = true
                    break
                }
                condition.wait()
            }
            guard !mustFinish, !stopped, nextToTake < frames.upperBound else {
                condition.unlock()
                // The frames in flight are handed over even after a stop: those before a failed frame are written.
                hand(worker.finish())
                if mustFinish { continue }
                return
            }
            let number = nextToTake
            nextToTake += 1
            condition.unlock()

            hand(worker.begin(number))
        }
    }

    /// Hands finished frames to the writing thread; a failed one stops the export.
    private func hand(_ results: [(Int, Result<Data, Error>)]) {
        guard !results.isEmpty else { return }
        condition.lock()
        for (number, result) in results {
            finished[number] = result
            if case .failure = result { stopped = true }
        }
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the threads taking frames and waits until every one has ended.
    private func stopAndJoin(_ threads: [pthread_t]) {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
        for thread in threads { pthread_join(thread, nil) }
        condition.lock()
        finished.removeAll()
        condition.unlock()
    }
}

/// A worker of `ExportPipeline` that may keep frames in flight: `begin(n)` starts frame n and returns the frames
/// that finished meanwhile (frame n itself when nothing is kept in flight), `finish()` those still in flight. Each
/// frame taken comes back exactly once, with its bytes or its error; one thread uses a source.
protocol ExportFrameSource: AnyObject {
    func begin(_ number: Int) -> [(Int, Result<Data, Error>)]
    func finish() -> [(Int, Result<Data, Error>)]
    /// Frames begun and not yet returned.
    var framesInFlight: Int { get }
}

/// A worker that makes each frame in one call.
final class SynchronousFrames: ExportFrameSource {
    private let worker: ExportPipeline.Worker
    init(_ worker: @escaping ExportPipeline.Worker) { self.worker = worker }
    func begin(_ number: Int) -> [(Int, Result<Data, Error>)] { [(number, Result { try worker(number) })] }
    func finish() -> [(Int, Result<Data, Error>)] { [] }
    var framesInFlight: Int { 0 }
}

/// A POSIX thread that is joined, unlike Foundation's `Thread`, which is detached: a detached thread may still be
/// ending (releasing what its closure held) when the process exits.
enum JoinableThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts `body` on a new thread with an 8 MiB stack (a job renders on it). Throws when no thread can be made.
    static func start(_ body: @escaping () -> Void) throws -> pthread_t {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, 8 << 20)
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw CLIFailure.failed("cannot start an export thread: \(String(cString: strerror(result)))")
        }
        return thread
    }
}
