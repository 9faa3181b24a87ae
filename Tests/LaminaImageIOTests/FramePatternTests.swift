import LaminaImageIO
import Testing

/// `lamina export -o` patterns: printf's %d with padding, %% and nothing else.
@Suite struct FramePatternTests {
    @Test func namesFramesAsPrintfWould() throws {
        let padded = try FramePattern("frames/f-%05d.png")
        #expect(padded.path(for: 0) == "frames/f-00000.png")
        #expect(padded.path(for: 42) == "frames/f-00042.png")
        #expect(padded.path(for: 1_234_567) == "frames/f-1234567.png")
        #expect(padded.folder == "frames")
        let plain = try FramePattern("%d.png")
        #expect(plain.path(for: 7) == "7.png" && plain.folder == ".")
        #expect(try FramePattern("100%%-%3d.png").path(for: 5) == "100%-  5.png")
        #expect(try FramePattern("a/b/%i%%").path(for: 12) == "a/b/12%")
        #expect(try FramePattern("/f%d").folder == "/")
    }

    @Test func refusesPatternsThatCannotNameEveryFrame() {
        let cases: [(String, FramePatternError.Problem)] = [
            ("frame.png", .noNumber),
            ("100%%.png", .noNumber),
            ("%d-%d.png", .moreThanOneNumber),
            ("%s.png", .unsupportedConversion),
            ("%-5d.png", .unsupportedConversion),
            ("%5.png", .unsupportedConversion),
            ("%x.png", .unsupportedConversion),
            ("f%", .danglingPercent),
            ("%099d.png", .widthTooLarge),
        ]
        for (text, problem) in cases {
            #expect(throws: FramePatternError(pattern: text, problem: problem), "\(text)") { try FramePattern(text) }
        }
        #expect(FramePatternError(pattern: "x.png", problem: .noNumber).description
            == "bad frame pattern \"x.png\": it needs one %d (or %05d) for the frame number, so that every frame gets its own file")
    }
}
