import Foundation
import Lamina
import Testing

/// `lamina play`'s clock (docs/kiosk.md, "The control channel"): scene time from media time, paused, sought and
/// scaled by playback lines, never below 0, with the media time at which it reaches a scene time.
@Suite struct SceneClockTests {
    @Test func runsFromItsOriginAtRateOne() {
        let clock = SceneClock(origin: 100)
        #expect(clock.time(atMedia: 100) == 0 && clock.time(atMedia: 102.5) == 2.5)
        #expect(clock.isRunning && clock.rate == 1 && !clock.isPaused)
        #expect(clock.mediaTime(reaching: 4, from: 101) == 104)
        // Behind it: never.
        #expect(clock.mediaTime(reaching: 0.5, from: 101) == nil)
    }

    @Test func pauseHoldsTheTimeAndPlayGoesOnFromIt() {
        var clock = SceneClock(origin: 0)
        clock.pause(atMedia: 3)
        #expect(clock.time(atMedia: 3) == 3 && clock.time(atMedia: 50) == 3 && !clock.isRunning)
        #expect(clock.mediaTime(reaching: 4, from: 10) == nil)
        clock.play(atMedia: 10)
        #expect(clock.time(atMedia: 11) == 4)
    }

    @Test func seekJumpsBothWaysKeepingPauseAndRate() {
        var clock = SceneClock(origin: 0)
        clock.seek(to: 30, atMedia: 5)
        #expect(clock.time(atMedia: 6) == 31)
        clock.seek(to: 2, atMedia: 6)
        #expect(clock.time(atMedia: 6) == 2 && clock.time(atMedia: 7) == 3)
        clock.pause(atMedia: 7)
        clock.seek(to: 10, atMedia: 8)
        #expect(clock.time(atMedia: 20) == 10 && clock.isPaused)
        clock.seek(to: -5, atMedia: 8)
        #expect(clock.time(atMedia: 8) == 0)
    }

    @Test func rateScalesAndNegativeRunsBackToZero() {
        var clock = SceneClock(origin: 0)
        clock.setRate(2, atMedia: 1)
        #expect(clock.time(atMedia: 2) == 3)
        #expect(clock.mediaTime(reaching: 5, from: 2) == 3)
        clock.setRate(-1, atMedia: 2)
        #expect(clock.time(atMedia: 3) == 2 && clock.time(atMedia: 10) == 0)
        #expect(clock.mediaTime(reaching: 1, from: 3) == 4 && clock.mediaTime(reaching: 2.5, from: 3) == nil)
        #expect(clock.isMoving(atMedia: 4) && !clock.isMoving(atMedia: 6))
        clock.setRate(0, atMedia: 4)
        #expect(clock.time(atMedia: 100) == 1 && !clock.isRunning && !clock.isPaused)
        // A paused clock keeps its rate for when it plays.
        clock.setRate(0.5, atMedia: 100)
        clock.pause(atMedia: 102)
        #expect(clock.time(atMedia: 200) == 2 && clock.rate == 0.5)
        clock.play(atMedia: 200)
        #expect(clock.time(atMedia: 202) == 3)
    }
}
