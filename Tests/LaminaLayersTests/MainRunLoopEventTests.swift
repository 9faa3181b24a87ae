import Foundation
import LaminaCore
import XCTest

@testable import LaminaLayers

/// Animation events and completion blocks arrive on the main run loop as time passes, with no frame drawn
/// (docs/animation.md, "Frames, delegates and removal"). XCTest runs these on the main thread, which a program that
/// runs `RunLoop.main` has too. Only the order and the counts are asserted, never how long anything took.
final class MainRunLoopEventTests: XCTestCase {
    final class Log: AnimationDelegate, @unchecked Sendable {
        let lock = NSLock()
        var entries: [String] = []
        func add(_ entry: String) { lock.withLock { entries.append(entry) } }
        var all: [String] { lock.withLock { entries } }
        func animationDidStart(_ animation: Animation) { add("start") }
        func animationDidStop(_ animation: Animation, finished: Bool) { add(finished ? "stop" : "cut") }
    }

    override func setUp() {
        MediaClock.current = MediaClock.monotonic
    }

    /// Runs the main run loop until `done` or 10 s have passed.
    func runMainLoop(until done: () -> Bool) {
        let deadline = Date() + 10
        while !done(), Date() < deadline { RunLoop.main.run(until: Date() + 0.01) }
    }

    func testCompletionBlockRunsAfterTheCommitOnTheMainRunLoop() {
        XCTAssertTrue(Thread.isMainThread)
        let log = Log()
        let layer = Layer()
        Transaction.begin()
        Transaction.setCompletionBlock { log.add("done") }
        layer.opacity = 0.5
        Transaction.commit()
        XCTAssertEqual(log.all, [])  // never inside commit()
        runMainLoop { !log.all.isEmpty }
        XCTAssertEqual(log.all, ["done"])
        RunLoop.main.run(until: Date() + 0.05)
        XCTAssertEqual(log.all, ["done"])  // once
    }

    func testDelegatesAndCompletionHearOfAnAnimationWithNoFrame() {
        let log = Log()
        let layer = Layer()
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 0.0
        fade.toValue = 1.0
        fade.duration = 0.05
        fade.delegate = log
        Transaction.begin()
        Transaction.setCompletionBlock { log.add("done") }
        layer.add(fade, forKey: "fade")
        Transaction.commit()
        XCTAssertEqual(log.all, [])
        runMainLoop { log.all.count >= 3 }
        // The completion block runs before the delegate hears the stop, as on Apple platforms.
        XCTAssertEqual(log.all, ["start", "done", "stop"])
        XCTAssertNil(layer.animationKeys())  // removed on completion
        // A frame drawn afterwards tells nothing again.
        _ = try? Planner().plan(layer)
        RunLoop.main.run(until: Date() + 0.05)
        XCTAssertEqual(log.all, ["start", "done", "stop"])
    }

    func testAFrameAndTheRunLoopTellEachEventOnce() throws {
        let log = Log()
        let layer = Layer()
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 0.0
        fade.toValue = 1.0
        fade.duration = 0.05
        fade.delegate = log
        fade.isRemovedOnCompletion = false
        fade.fillMode = .forwards
        layer.add(fade, forKey: "fade")
        Transaction.flush()
        // A frame on another thread, late enough to reach the end, races the main run loop for the events.
        let frames = DispatchGroup()
        DispatchQueue.global().async(group: frames) {
            Thread.sleep(forTimeInterval: 0.1)
            for _ in 0..<20 { _ = try? Planner().plan(layer) }
        }
        runMainLoop { frames.wait(timeout: .now()) == .success && log.all.count >= 2 }
        RunLoop.main.run(until: Date() + 0.05)
        XCTAssertEqual(log.all, ["start", "stop"])
        XCTAssertEqual(layer.animationKeys(), ["fade"])  // kept: not removed on completion
    }

    func testPresentationReflectsTheMediaTimeNow() throws {
        let layer = Layer()
        Transaction.begin()
        Transaction.setDisableActions(true)
        layer.opacity = 0.5
        Transaction.commit()
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 0.0
        fade.toValue = 1.0
        fade.duration = 1000
        layer.add(fade, forKey: "fade")
        Transaction.flush()
        let first = try XCTUnwrap(layer.presentation()).opacity
        RunLoop.main.run(until: Date() + 0.05)
        let second = try XCTUnwrap(layer.presentation()).opacity
        XCTAssertLessThan(first, second)  // moves with currentMediaTime()
        XCTAssertLessThan(second, 0.5)
        XCTAssertEqual(layer.opacity, 0.5)  // the model does not
    }
}
