import Foundation
import LaminaCore
import Testing

/// The CAMediaTiming arithmetic of docs/animation.md, "Timing": from a parent's time to progress.
@Suite struct MediaTimingProgressTests {
    func close(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a?, let b?): return abs(a - b) < 1e-12
        default: return false
        }
    }

    @Test func aPlainAnimationRunsOnceAndIsRemoved() {
        var timing = MediaTiming(duration: 2)
        #expect(close(timing.progress(parent: 0), 0) && close(timing.progress(parent: 1), 0.5))
        #expect(timing.progress(parent: 2) == nil && timing.progress(parent: -0.1) == nil)
        #expect(!timing.isFinished(parent: 1.99) && timing.isFinished(parent: 2))
        timing.fillMode = .forwards
        #expect(close(timing.progress(parent: 7), 1) && timing.progress(parent: -1) == nil)
        timing.fillMode = .both
        #expect(close(timing.progress(parent: -1), 0))
    }

    @Test func beginTimeDelaysAndBackwardsFillShowsTheStart() {
        var timing = MediaTiming(beginTime: 1, duration: 1)
        #expect(timing.progress(parent: 0.5) == nil && close(timing.progress(parent: 1.25), 0.25))
        timing.fillMode = .backwards
        #expect(close(timing.progress(parent: 0.5), 0) && timing.progress(parent: 2.5) == nil)
    }

    @Test func autoreversesPlaysBackAndEndsWhereItStarted() {
        let timing = MediaTiming(duration: 1, autoreverses: true, fillMode: .forwards)
        #expect(timing.activeDuration == 2 && timing.cycleDuration == 2)
        #expect(close(timing.progress(parent: 0.5), 0.5) && close(timing.progress(parent: 1.25), 0.75))
        #expect(close(timing.progress(parent: 1.5), 0.5))
        #expect(close(timing.progress(parent: 3), 0))  // after a reversed half: 0
    }

    @Test func fractionalRepeatsEndMidCycle() {
        let timing = MediaTiming(duration: 1, repeatCount: 2.5, fillMode: .forwards)
        #expect(timing.activeDuration == 2.5)
        #expect(close(timing.progress(parent: 2.25), 0.25) && close(timing.progress(parent: 9), 0.5))
        let whole = MediaTiming(duration: 1, repeatCount: 2, fillMode: .forwards)
        #expect(close(whole.progress(parent: 1.5), 0.5) && close(whole.progress(parent: 5), 1))
        let byDuration = MediaTiming(duration: 1, repeatCount: 9, repeatDuration: 1.75)
        #expect(byDuration.activeDuration == 1.75 && byDuration.progress(parent: 1.8) == nil)
    }

    @Test func timeOffsetStartsPartWayAndStillLastsOneActivePeriod() {
        let timing = MediaTiming(duration: 1, timeOffset: 0.5, fillMode: .both)
        #expect(close(timing.progress(parent: 0), 0.5) && close(timing.progress(parent: 0.6), 0.1))
        #expect(close(timing.progress(parent: 5), 0.5))  // the end of the active period: approaching t = 0.5
        #expect(close(timing.progress(parent: -3), 0.5))  // before: the value at a = 0
    }

    @Test func speedScalesAndZeroSpeedPauses() {
        #expect(close(MediaTiming(duration: 1, speed: 2).progress(parent: 0.25), 0.5))
        let paused = MediaTiming(duration: 1, speed: 0, timeOffset: 0.3)
        for t in [0.0, 10, 1e6] { #expect(close(paused.progress(parent: t), 0.3)) }
        #expect(MediaTiming(beginTime: 2, speed: 0.5, timeOffset: 1).localTime(parent: 6) == 3)
    }

    @Test func foreverNeverEnds() {
        let timing = MediaTiming(duration: 1, repeatCount: .infinity)
        #expect(timing.activeDuration == .infinity && !timing.isFinished(parent: 1e12))
        #expect(close(timing.progress(parent: 1000.25), 0.25))
    }

    @Test func anyNumbersGiveAnAnswer() {
        #expect(MediaTiming().cycleDuration == 0.25 && MediaTiming(duration: -3).cycleDuration == 0.25)
        #expect(MediaTiming(duration: .nan).cycleDuration == 0.25)
        let wild = MediaTiming(beginTime: .nan, duration: 1, speed: .nan, timeOffset: .infinity, repeatCount: .nan)
        #expect(close(wild.progress(parent: 0.5), 0.5) && wild.activeDuration == 1)
        #expect(MediaTiming(duration: 1).progress(parent: .nan) == nil)
        #expect(MediaTiming(duration: 1, fillMode: .both).progress(parent: .infinity) != nil)
    }
}
