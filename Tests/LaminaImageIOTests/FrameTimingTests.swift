import LaminaImageIO
import Testing

/// Frame rates as ratios, frame counts, and shards of a frame range (`lamina export --fps`, `--duration`,
/// `--shard`).
@Suite struct FrameTimingTests {
    func rate(_ text: String) -> String? { FrameRate(parsing: text).map { "\($0.numerator):\($0.denominator)" } }

    @Test func frameRatesBecomeRatios() {
        #expect(rate("60") == "60:1")
        #expect(rate("60.0") == "60:1")
        #expect(rate("12.5") == "25:2")
        #expect(rate("29.97") == "30000:1001")
        #expect(rate("23.976") == "24000:1001")
        #expect(rate("59.94") == "60000:1001")
        #expect(rate("2997/100") == "2997:100")
        #expect(rate("30000/1001") == "30000:1001")
        #expect(rate("50/2") == "25:1")
        for bad in ["0", "-5", "", "abc", "1/0", "0/1", "5/", "/5", "1e3", "29.", ".5", "1/2/3", "0.0000000001", "2000000"] {
            #expect(rate(bad) == nil, "\(bad)")
        }
        #expect(FrameRate(29.97)?.description == "30000/1001")
        #expect(FrameRate(24)?.description == "24")
        #expect(FrameRate(0) == nil && FrameRate(.infinity) == nil && FrameRate(-1) == nil)
        #expect(FrameRate(numerator: 30000, denominator: 1001)!.value == 30000.0 / 1001.0)
    }

    @Test func frameCountsRoundUpButNotForRoundingNoise() {
        #expect(FrameShard.frameCount(duration: 10, fps: 60) == 600)
        #expect(FrameShard.frameCount(duration: 0.1, fps: 30) == 3)  // 0.1 * 30 is 3.0000000000000004
        #expect(FrameShard.frameCount(duration: 0.05, fps: 60) == 3)
        #expect(FrameShard.frameCount(duration: 0.51, fps: 10) == 6)
        #expect(FrameShard.frameCount(duration: 1, fps: 30000.0 / 1001) == 30)
        #expect(FrameShard.frameCount(duration: 0, fps: 60) == 0)
        #expect(FrameShard.frameCount(duration: 1e300, fps: 60) == nil)
        #expect(FrameShard.frameCount(duration: .nan, fps: 60) == nil)
    }

    @Test func shardsAreContiguousBlocksThatCoverEveryFrame() throws {
        for frames in [0, 1, 2, 7, 600, 601] {
            for count in 1...9 {
                var next = 0
                for index in 0..<count {
                    let range = try FrameShard(index: index, count: count).range(ofFrames: frames)
                    #expect(range.lowerBound == next, "\(index)/\(count) of \(frames)")
                    #expect(range.count == frames / count || range.count == frames / count + 1)
                    next = range.upperBound
                }
                #expect(next == frames)
            }
        }
        #expect(try FrameShard(parsing: "2/4").range(ofFrames: 600) == 300..<450)
        #expect(FrameShard.whole.range(ofFrames: 5) == 0..<5)
        #expect(try FrameShard(index: 3, count: 4).range(ofFrames: Int(Int32.max)).upperBound == Int(Int32.max))
    }

    @Test func shardSyntax() {
        #expect(throws: FrameShardError(text: "4/4", problem: .indexOutOfRange)) { try FrameShard(parsing: "4/4") }
        #expect(throws: FrameShardError(text: "0/0", problem: .noShards)) { try FrameShard(parsing: "0/0") }
        for bad in ["", "1", "1/", "/2", "-1/2", "+1/2", "1/2/3", "a/b", " 1/2", "1.0/2"] {
            #expect(throws: FrameShardError(text: bad, problem: .syntax), "\(bad)") { try FrameShard(parsing: bad) }
        }
        #expect(FrameShardError(text: "4/4", problem: .indexOutOfRange).description
            == "bad shard \"4/4\": the index is 0-based and must be less than the count")
    }
}
