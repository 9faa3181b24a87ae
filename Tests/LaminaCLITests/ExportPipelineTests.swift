import Foundation
import Lamina
import Testing

@testable import lamina

/// The ordered parallel pipeline of `lamina export --jobs`: frames come out in order whatever order the
/// threads finish them in, no thread runs more than the window ahead, and failures stop it cleanly.
@Suite struct ExportPipelineTests {
    /// A worker whose frames take uneven times (later frames often finish first), returning its frame number.
    static func uneven(_ number: Int) throws -> Data {
        usleep(useconds_t((number * 7919) % 5) * 300)
        return withUnsafeBytes(of: Int64(number).littleEndian) { Data($0) }
    }

    @Test func framesComeOutInOrderFromAnyNumberOfJobs() throws {
        for jobs in [1, 2, 3, 8] {
            let pipeline = ExportPipeline(frames: 10..<60, jobs: jobs)
            var seen: [Int] = []
            try pipeline.run(makeWorker: { _ in { try ExportPipelineTests.uneven($0) } }, consume: { number, data in
                #expect(data == withUnsafeBytes(of: Int64(number).littleEndian) { Data($0) })
                seen.append(number)
            })
            #expect(seen == Array(10..<60), "jobs \(jobs)")
        }
    }

    @Test func noThreadRunsMoreThanTheWindowAhead() throws {
        let pipeline = ExportPipeline(frames: 0..<40, jobs: 3)
        #expect(pipeline.window == 6)
        let highest = Highest()
        var written = -1
        try pipeline.run(makeWorker: { _ in { number in highest.note(number); return Data() } }, consume: { number, _ in
            // Frames taken so far are below the one being written plus the window.
            #expect(highest.value < number + pipeline.window)
            usleep(200)
            written = number
        })
        #expect(written == 39)
    }

    @Test func aFailedFrameStopsTheExportAfterTheFramesBeforeIt() {
        struct Broken: Error, Equatable {}
        let pipeline = ExportPipeline(frames: 0..<100, jobs: 4)
        var seen: [Int] = []
        #expect(throws: Broken()) {
            try pipeline.run(makeWorker: { _ in { number in
                if number == 17 { throw Broken() }
                return try ExportPipelineTests.uneven(number)
            } }, consume: { number, _ in seen.append(number) })
        }
        #expect(seen == Array(0..<17))
    }

    @Test func aFailedWriteOrSetupStopsIt() {
        struct Full: Error, Equatable {}
        let pipeline = ExportPipeline(frames: 0..<100, jobs: 2)
        var seen = 0
        #expect(throws: Full()) {
            try pipeline.run(makeWorker: { _ in { _ in Data() } }, consume: { number, _ in
                seen += 1
                if number == 5 { throw Full() }
            })
        }
        #expect(seen == 6)
        struct NoContext: Error, Equatable {}
        #expect(throws: NoContext()) {
            try ExportPipeline(frames: 0..<10, jobs: 3).run(
                makeWorker: { job in if job == 2 { throw NoContext() }; return { _ in usleep(1000); return Data() } },
                consume: { _, _ in })
        }
    }

    @Test func framesAreAtStartPlusNOverFPS() throws {
        let timeline = try ExportTimeline(scene: Scene(root: Layer(), size: CGSize(width: 1, height: 1)), duration: 2,
                                          rate: FrameRate(parsing: "30000/1001"))
        #expect(timeline.time(ofFrame: 0, start: 0.5) == 0.5)
        #expect(timeline.time(ofFrame: 1001, start: 0) == 1001 / (30000.0 / 1001))
        #expect(timeline.time(ofFrame: 7, start: 1) == 1 + 7 / timeline.fps)
    }
}

/// The highest number noted, from any thread.
final class Highest: @unchecked Sendable {
    private let lock = NSLock()
    private var highest = -1
    func note(_ number: Int) {
        lock.lock()
        highest = max(highest, number)
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return highest
    }
}
