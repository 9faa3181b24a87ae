import Foundation
import LaminaCore
@testable import LaminaDisplay
import LaminaLayers
import LaminaTestSupport
import Testing

/// A deadline (`Display.nextDeadline`: a scene timeline's next entry) that the clock passes while no frame could be
/// drawn (a first frame slower than the time to the entry: the QEMU guest's DRM run under load) is due at once, not
/// never: the frame loop drew nothing more and the entry never showed (KioskVMTests' drm-cpu, 2026-11-27).
@Suite(.serialized) struct DeadlineTests {
    final class Record: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [Double] = []
        private var requested = false
        private var slow: Double?
        func append(_ time: Double) { lock.withLock { list.append(time) } }
        var times: [Double] { lock.withLock { list } }
        func request() { lock.withLock { requested = true } }
        /// The first frame after `request()` is the slow one: its time.
        func takeSlowFrame(at time: Double) -> Bool {
            lock.withLock {
                guard requested, slow == nil else { return false }
                slow = time
                return true
            }
        }
        var slowFrame: Double? { lock.withLock { slow } }
        var deadline: Double? { slowFrame.map { $0 + 0.3 } }
        var reachedDeadline: Bool { lock.withLock { slow.map { s in list.contains { $0 >= s + 0.3 } } ?? false } }
    }

    @Test func aDeadlinePassedDuringASlowFrameIsDrawnAtOnce() throws {
        guard let x = try XvfbDisplay.start() else { return }
        let display = try Display(output: .x11, backend: .cpu,
                                  options: .init(output: DisplayOutputOptions(device: x.name)))
        let root = Layer()
        Transaction.begin()
        root.bounds = CGRect(origin: .zero, size: display.size)
        root.backgroundColor = Color(red: 0, green: 0, blue: 1)
        Transaction.commit()
        display.clock = SceneClock(origin: currentMediaTime())
        let record = Record()
        // The deadline: 0.3 s after the slow frame's time.
        display.nextDeadline = { record.reachedDeadline ? nil : record.deadline }
        let worker = Thread {
            // Once the window's first frames are up and the loop idles, a change asks for a frame, which is slow.
            usleep(500_000)
            record.request()
            Transaction.begin()
            Transaction.setDisableActions(true)
            root.backgroundColor = Color(red: 1, green: 0, blue: 0)
            Transaction.commit()
            // A hang guard: without a frame past the deadline within 10 s, the loop is stopped and the test fails.
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, !record.reachedDeadline { usleep(20_000) }
            display.stop()
        }
        worker.start()
        try display.run(root) { time in
            record.append(time)
            // The slow frame takes 0.6 s: the clock passes the deadline before the loop looks at it again.
            if record.takeSlowFrame(at: time) { usleep(600_000) }
            if record.reachedDeadline { display.stop() }
        }
        let slow = try #require(record.slowFrame, "no frame after the change: \(record.times)")
        let after = record.times.filter { $0 > slow }
        // One frame after the slow one, and it draws the deadline. Not "0.6 s after the slow frame's time": a frame's
        // time is the vsync the loop aims at, which can lie a little ahead of the clock when the frame starts, so
        // the next frame's time may come a fraction of a millisecond short of slow + 0.6 (CI, 2026-11-27).
        #expect(after.count == 1 && after.allSatisfy { $0 >= slow + 0.3 }, "frames at \(record.times), slow at \(slow)")
    }

    /// The rule itself (`FrameLoop.deadlineMedia(now:)`), clock by clock: a deadline ahead is due when the clock
    /// reaches it; one the clock passed with no frame drawn at or past it is due now; one a frame covered is not due
    /// again; a clock that stands still never reaches one ahead.
    @Test func aPassedDeadlineIsDueNowUnlessAFrameCoveredIt() throws {
        guard let x = try XvfbDisplay.start() else { return }
        let display = try Display(output: .x11, backend: .cpu,
                                  options: .init(output: DisplayOutputOptions(device: x.name)))
        var loop = FrameLoop(display: display, root: Layer(), onFrame: nil)
        var deadline: Double? = 0.3
        display.nextDeadline = { deadline }
        display.clock = SceneClock(origin: 100)
        // Ahead: when the clock reaches it.
        #expect(loop.deadlineMedia(now: 100.1) == 100.3)
        // Passed (the clock reads 0.9), no frame yet, or the last frame before it: now.
        #expect(loop.deadlineMedia(now: 100.9) == 100.9)
        loop.lastFrameTime = 0.2
        #expect(loop.deadlineMedia(now: 100.9) == 100.9)
        // A frame at or past it drew it: not due again.
        loop.lastFrameTime = 0.3
        #expect(loop.deadlineMedia(now: 100.9) == nil)
        // Paused past it, its frame not drawn: now; paused before it: never.
        loop.lastFrameTime = 0.1
        display.clock.pause(atMedia: 100.5)
        #expect(loop.deadlineMedia(now: 101) == 101)
        display.clock.seek(to: 0.1, atMedia: 101)
        #expect(loop.deadlineMedia(now: 102) == nil)
        // Backwards (rate -1 from 2.0): the entry at 1.5 is due when the clock comes down to it, and now once the
        // clock is below it with the last frame above.
        display.clock = SceneClock(origin: 0)
        display.clock.seek(to: 2, atMedia: 10)
        display.clock.setRate(-1, atMedia: 10)
        deadline = 1.5
        loop.lastFrameTime = 2
        #expect(loop.deadlineMedia(now: 10.2) == 10.5)
        #expect(loop.deadlineMedia(now: 10.8) == 10.8)
        loop.lastFrameTime = 1.2
        #expect(loop.deadlineMedia(now: 10.8) == nil)
        // No deadline: nothing due.
        deadline = nil
        #expect(loop.deadlineMedia(now: 10.8) == nil)
    }
}
