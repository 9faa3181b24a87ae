import Testing

@testable import lamina

/// The progress line `lamina export` draws on a terminal.
@Suite struct ExportProgressTests {
    @Test func theBarShowsFramesRateAndTimeLeft() {
        #expect(ExportProgress.line(done: 120, total: 600, seconds: 4)
            == "[====>                   ] 120/600 frames  30.0 frames/s  0:16 left")
        #expect(ExportProgress.line(done: 7, total: 600, seconds: 0)
            == "[>                       ]   7/600 frames  0.0 frames/s  --:-- left")
        #expect(ExportProgress.line(done: 600, total: 600, seconds: 3725)
            == "[========================] 600/600 frames  0.2 frames/s  done in 1:02:05")
    }
}
