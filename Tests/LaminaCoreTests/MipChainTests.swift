import Foundation
import Testing

@testable import LaminaCore

/// The mip chain of trilinear minification (MipChain.swift) and the level selection both renderers share.
@Suite struct MipChainTests {
    /// A premultiplied word with the same value v in B, G and R and alpha a.
    func word(_ v: UInt32, alpha: UInt32 = 255) -> UInt32 { alpha << 24 | v << 16 | v << 8 | v }

    @Test func levelsAreRoundedBoxAveragesOfTwoByTwoTexels() throws {
        // A 4 x 4 image of greys, row by row.
        let values: [[UInt32]] = [
            [0, 10, 100, 101],
            [20, 31, 102, 103],
            [255, 255, 0, 0],
            [255, 254, 1, 0],
        ]
        let image = try Image(width: 4, height: 4)
        for y in 0..<4 { for x in 0..<4 { image.setWord(word(values[y][x]), x: x, y: y) } }
        let chain = try image.mipChain()
        #expect(chain.count == 3)
        #expect(chain[0] === image)
        #expect((chain[1].width, chain[1].height) == (2, 2))
        #expect((chain[2].width, chain[2].height) == (1, 1))
        // (0 + 10 + 20 + 31 + 2) / 4 = 15.75 -> 15; (100 + 101 + 102 + 103 + 2) / 4 = 102;
        // (255 + 255 + 255 + 254 + 2) / 4 = 255.25 -> 255; (0 + 0 + 1 + 0 + 2) / 4 = 0.75 -> 0.
        #expect(chain[1].word(x: 0, y: 0) == word(15))
        #expect(chain[1].word(x: 1, y: 0) == word(102))
        #expect(chain[1].word(x: 0, y: 1) == word(255))
        #expect(chain[1].word(x: 1, y: 1) == word(0))
        // (15 + 102 + 255 + 0 + 2) / 4 = 93.5 -> 93.
        #expect(chain[2].word(x: 0, y: 0) == word(93))
    }

    @Test func halvesRoundUpAndChannelsStayPremultiplied() throws {
        // Two transparent and two half-transparent red texels: alpha (0 + 0 + 128 + 128 + 2) / 4 = 64,
        // red the same, 64 <= 64 so the texel stays premultiplied.
        let image = try Image(width: 2, height: 2)
        image.setWord(0x8080_0000, x: 0, y: 1)
        image.setWord(0x8080_0000, x: 1, y: 1)
        let level = try image.mipChain()[1]
        #expect(level.word(x: 0, y: 0) == 0x4040_0000)
        // 1 + 2 + 0 + 0 + 2 = 5 -> 1 (1.25); 1 + 1 + 0 + 0 + 2 = 4 -> 1 (a half rounds up).
        let small = try Image(width: 2, height: 2)
        small.setWord(word(1, alpha: 1), x: 0, y: 0)
        small.setWord(word(2, alpha: 1), x: 1, y: 0)
        #expect(try small.mipChain()[1].word(x: 0, y: 0) == word(1, alpha: 1))
    }

    @Test func oddSizesFloorAndAverageTheBlockAtTwiceTheIndex() throws {
        // 5 x 3: level 1 is 2 x 1, level 2 is 1 x 1. Column x holds grey 40 x.
        let image = try Image(width: 5, height: 3)
        for y in 0..<3 { for x in 0..<5 { image.setWord(word(UInt32(40 * x)), x: x, y: y) } }
        let chain = try image.mipChain()
        #expect(chain.map { [$0.width, $0.height] } == [[5, 3], [2, 1], [1, 1]])
        #expect(MipChain.levelCount(width: 5, height: 3) == 3)
        // Texel (1, 0) averages columns 2 and 3 of rows 0 and 1: (80 + 120) / 2 = 100; the last column is left out.
        #expect(chain[1].word(x: 0, y: 0) == word(20))
        #expect(chain[1].word(x: 1, y: 0) == word(100))
        #expect(chain[2].word(x: 0, y: 0) == word(60))
        // A one-texel-wide level halves by reading its one column twice: 1 x 4 -> 1 x 2 -> 1 x 1.
        let column = try Image(width: 1, height: 4)
        for y in 0..<4 { column.setWord(word(UInt32(y * 10)), x: 0, y: y) }
        let levels = try column.mipChain()
        #expect(levels.map { [$0.width, $0.height] } == [[1, 4], [1, 2], [1, 1]])
        #expect(levels[1].word(x: 0, y: 1) == word(25))
        #expect(levels[2].word(x: 0, y: 0) == word(15))
    }

    @Test func theChainIsBuiltOncePerGeneration() throws {
        let image = try Image(width: 8, height: 8, color: .white)
        let first = try image.mipChain()
        #expect(try image.mipChain()[3] === first[3])
        #expect(first[3].word(x: 0, y: 0) == 0xFFFF_FFFF)
        image.fill(.black)
        let second = try image.mipChain()
        #expect(second[3] !== first[3])
        #expect(second[3].word(x: 0, y: 0) == 0xFF00_0000)
    }

    @Test func selectionClampsAndSplitsTheLevelOfDetail() {
        // A 64 x 16 image has levels 0 ... 6.
        func select(_ lod: Float) -> [Int] {
            let s = MipSelection(lod: lod, width: 64, height: 16)
            return [s.level, Int(s.fraction)]
        }
        #expect(select(-2) == [0, 0])
        #expect(select(0) == [0, 0])
        #expect(select(2.25) == [2, 64])
        #expect(select(2.5) == [2, 128])
        // A fraction that rounds to 255 is the next level whole; past the last level there is nothing coarser.
        #expect(select(2.999) == [3, 0])
        #expect(select(5.75) == [5, 191])
        #expect(select(6) == [6, 0])
        #expect(select(40) == [6, 0])
        #expect(select(.nan) == [0, 0])
    }

    @Test func clampRectanglesScaleOutwardAndStayInsideTheLevel() {
        let clamp = TexelRect(x0: 3, y0: 5, x1: 13, y1: 6)
        #expect(clamp.atMipLevel(0, width: 16, height: 16) == clamp)
        #expect(clamp.atMipLevel(1, width: 16, height: 16) == TexelRect(x0: 1, y0: 2, x1: 7, y1: 3))
        #expect(clamp.atMipLevel(2, width: 16, height: 16) == TexelRect(x0: 0, y0: 1, x1: 4, y1: 2))
        #expect(clamp.atMipLevel(4, width: 16, height: 16) == TexelRect(x0: 0, y0: 0, x1: 1, y1: 1))
        // The last column of an odd image has no texel of its own at level 1: the clamp keeps the level's last.
        let edge = TexelRect(x0: 4, y0: 0, x1: 5, y1: 3)
        #expect(edge.atMipLevel(1, width: 5, height: 3) == TexelRect(x0: 1, y0: 0, x1: 2, y1: 1))
    }

    @Test func trilinearTexturesSelectLevelsAndOthersDoNot() throws {
        let image = try Image(width: 64, height: 64)
        func source(_ filter: Filter, _ lod: Float) -> TextureSource {
            TextureSource(image: image, unitToTexel: .identity, clamp: TexelRect(x0: 0, y0: 0, x1: 64, y1: 64),
                          filter: filter, mipLevel: lod)
        }
        #expect(source(.linear, 3).mipSelection == nil)
        #expect(source(.trilinear, 0).mipSelection == nil)
        #expect(source(.trilinear, 0.001).mipSelection == nil)
        #expect(source(.trilinear, 1.5).mipSelection == MipSelection(level: 1, fraction: 128))
        #expect(source(.trilinear, 3) != source(.trilinear, 3.5))
        // Level k's texel coordinates are level 0's divided by 2^k.
        let map = MipSelection.map(.translation(8, 4), level: 2)
        #expect(map.apply(CGPoint(x: 0, y: 0)).projected == CGPoint(x: 2, y: 1))
    }
}
