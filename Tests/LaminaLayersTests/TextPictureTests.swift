import Foundation
import LaminaCore
import LaminaDrawing
import Testing

/// Text layers' pictures against Pango's own measures of the same text.
@Suite struct TextPictureTests {
    private func picture(_ style: TextStyle, _ bounds: CGRect, density: CGFloat = 1) throws -> Image {
        let picture = try #require(try style.picture(bounds: bounds, density: density))
        return picture.image
    }

    private func box(_ image: Image) throws
        -> (minX: Int, minY: Int, maxX: Int, maxY: Int)
    {
        try #require(TextProbe.inkBox(image), "no ink")
    }

    @Test func inkMatchesPangoReference() throws {
        let text = "Hello, Lamina! fi"
        for family in ["DejaVu Sans", "DejaVu Serif"] {
            let image = try picture(TextProbe.style(text, font: family), CGRect(x: 0, y: 0, width: 400, height: 60))
            #expect(image.width == 400)
            #expect(image.height == 60)
            let ink = try box(image)
            let reference = TextProbe.reference(text, family: family, size: 24).ink
            #expect(TextProbe.near(ink.minX, Int(reference.x), 1), "\(family)")
            #expect(TextProbe.near(ink.minY, Int(reference.y), 1), "\(family)")
            #expect(TextProbe.near(ink.maxX, Int(reference.x + reference.width), 1), "\(family)")
            #expect(TextProbe.near(ink.maxY, Int(reference.y + reference.height), 1), "\(family)")
            // The glyphs are filled, not outlined: a fair share of the ink box is covered.
            let area = Double(reference.width * reference.height)
            #expect(TextProbe.ink(image) > 0.12 * area, "\(family)")
            #expect(TextProbe.ink(image) < 0.6 * area, "\(family)")
        }
    }

    @Test func originOfBoundsIsTheTopLeftOfTheText() throws {
        let style = TextProbe.style("Offset")
        let atZero = try box(try picture(style, CGRect(x: 0, y: 0, width: 200, height: 50)))
        let shifted = try style.picture(bounds: CGRect(x: 30, y: 20, width: 200, height: 50), density: 1)!
        #expect(shifted.rect == CGRect(x: 30, y: 20, width: 200, height: 50))
        #expect(TextProbe.bytes(shifted.image) == TextProbe.bytes(try picture(style, CGRect(x: 0, y: 0, width: 200, height: 50))))
        #expect(TextProbe.near(atZero.minY, Int(TextProbe.reference("Offset", family: "DejaVu Sans", size: 24).ink.y), 1))
    }

    @Test func alignmentPlacesTheLine() throws {
        let text = "Align me"
        let bounds = CGRect(x: 0, y: 0, width: 300, height: 40)
        let reference = TextProbe.reference(text, family: "DejaVu Sans", size: 24)
        let free = Int(bounds.width) - Int(reference.logical.width)
        let left = try box(try picture(TextProbe.style(text, alignment: .left), bounds))
        let natural = try box(try picture(TextProbe.style(text, alignment: .natural), bounds))
        let center = try box(try picture(TextProbe.style(text, alignment: .center), bounds))
        let right = try box(try picture(TextProbe.style(text, alignment: .right), bounds))
        let justified = try box(try picture(TextProbe.style(text, alignment: .justified), bounds))
        #expect(TextProbe.near(left.minX, Int(reference.ink.x), 1))
        #expect(natural.minX == left.minX)
        #expect(justified.minX == left.minX, "a single line is not justified")
        #expect(TextProbe.near(center.minX - left.minX, free / 2, 2))
        #expect(TextProbe.near(right.minX - left.minX, free, 2))
        #expect(TextProbe.near(right.maxX - left.maxX, free, 2))
    }

    @Test func wrappingBreaksLinesWithinTheWidth() throws {
        let text = "The quick brown fox jumps over the lazy dog again and again"
        let bounds = CGRect(x: 0, y: 0, width: 160, height: 300)
        let oneLine = try box(try picture(TextProbe.style(text), bounds))
        let wrapped = try box(try picture(TextProbe.style(text, wrapped: true), bounds))
        #expect(oneLine.maxX == 160, "an unwrapped line runs to the bounds' edge and is cut off there")
        #expect(oneLine.maxY < 35)
        #expect(wrapped.maxY - wrapped.minY > 3 * 24, "several lines")
        #expect(wrapped.maxX <= 160)
        // A word longer than the width breaks inside the word.
        let long = try box(try picture(TextProbe.style("Abcdefghijklmnopqrstuvwxyz", wrapped: true),
                                       CGRect(x: 0, y: 0, width: 100, height: 200)))
        #expect(long.maxY > 50)
        #expect(long.maxX <= 100)
    }

    @Test func justifiedWrappedLinesReachBothEdges() throws {
        let text = "Justified text spreads its words over the whole width of each line but the last"
        let bounds = CGRect(x: 0, y: 0, width: 220, height: 300)
        let left = try picture(TextProbe.style(text, alignment: .left, wrapped: true), bounds)
        let justified = try picture(TextProbe.style(text, alignment: .justified, wrapped: true), bounds)
        // The first line's row band: rows 0..<28.
        func firstLineRight(_ image: Image) -> Int {
            var right = 0
            for y in 0..<28 { for x in 0..<image.width where TextProbe.alpha(image, x, y) > 0 { right = max(right, x + 1) } }
            return right
        }
        #expect(firstLineRight(justified) >= 216)
        #expect(firstLineRight(left) < firstLineRight(justified) - 4)
        #expect(TextProbe.inkBox(justified)?.minY == TextProbe.inkBox(left)?.minY)
    }

    @Test func truncationEllipsizes() throws {
        let text = "Truncate this rather long line of text please"
        let bounds = CGRect(x: 0, y: 0, width: 200, height: 40)
        let none = try picture(TextProbe.style(text), bounds)
        #expect(try box(none).maxX == 200, "none runs past the bounds")
        var images: [TextLayerTruncationMode: [UInt8]] = [:]
        for mode in [TextLayerTruncationMode.start, .middle, .end] {
            let image = try picture(TextProbe.style(text, truncation: mode), bounds)
            let ink = try box(image)
            #expect(ink.maxX <= 200, "\(mode) fits the bounds")
            #expect(ink.maxX > 150, "\(mode) fills most of the width")
            #expect(TextProbe.bytes(image) != TextProbe.bytes(none))
            images[mode] = TextProbe.bytes(image)
        }
        #expect(images[.start] != images[.middle])
        #expect(images[.middle] != images[.end])
        #expect(images[.start] != images[.end])
        // End truncation keeps the start of the line: its ink starts as the untruncated line's does.
        let end = try box(try picture(TextProbe.style(text, truncation: .end), bounds))
        #expect(try end.minX == box(none).minX)
        #expect(end.maxX < 199, "the line ends with an ellipsis inside the bounds")
        let start = try box(try picture(TextProbe.style(text, truncation: .start), bounds))
        #expect(start.minX != end.minX, "start truncation begins with the ellipsis")
        let short = try picture(TextProbe.style("Short", truncation: .end), bounds)
        #expect(TextProbe.bytes(short) == TextProbe.bytes(try picture(TextProbe.style("Short"), bounds)), "a line that fits is not truncated")
    }

    @Test func wrappedTextTruncatesItsLastLineThatFits() throws {
        let text = "Wrapped text that needs more lines than the bounds can hold at this size"
        let bounds = CGRect(x: 0, y: 0, width: 160, height: 60)
        let cut = try picture(TextProbe.style(text, wrapped: true), bounds)
        let truncated = try picture(TextProbe.style(text, wrapped: true, truncation: .end), bounds)
        // Without truncation the third line is cut off at the bottom; truncated, only two whole lines are drawn.
        #expect(try box(cut).maxY == 60)
        #expect(try box(truncated).maxY < 60)
        #expect(try box(truncated).maxX <= 160)
        #expect(TextProbe.bytes(truncated) != TextProbe.bytes(cut))
    }

    @Test func rightToLeftNaturalAlignsRight() throws {
        let bounds = CGRect(x: 0, y: 0, width: 300, height: 40)
        for text in ["שלום עולם", "مرحبا بالعالم"] {
            let natural = try box(try picture(TextProbe.style(text), bounds))
            #expect(natural.maxX >= 294, "\(text)")
            #expect(natural.minX > 100, "\(text)")
            let left = try box(try picture(TextProbe.style(text, alignment: .left), bounds))
            #expect(left.minX < 6, "left is left whatever the direction: \(text)")
        }
    }

    @Test func fallbackFontDrawsCJK() throws {
        let text = "漢字のテスト"
        let bounds = CGRect(x: 0, y: 0, width: 300, height: 40)
        let fallback = try picture(TextProbe.style(text, font: "DejaVu Sans"), bounds)
        let cjk = try picture(TextProbe.style(text, font: "WenQuanYi Micro Hei"), bounds)
        let a = try box(fallback), b = try box(cjk)
        #expect(TextProbe.near(a.maxX - a.minX, b.maxX - b.minX, 2))
        #expect(TextProbe.near(TextProbe.ink(fallback), TextProbe.ink(cjk), 0.05 * TextProbe.ink(cjk)), "the glyphs of the CJK font, not boxes")
        // Devanagari through its fallback font, shaped (conjuncts): some ink, narrower than its code points' boxes.
        let deva = try box(try picture(TextProbe.style("नमस्ते", font: "DejaVu Sans"), bounds))
        #expect(deva.maxX - deva.minX > 30)
    }

    @Test func textIsCutOffAtTheBounds() throws {
        let bounds = CGRect(x: 0.5, y: 0.5, width: 40, height: 40)
        let style = TextProbe.style("WM", size: 80)
        let picture = try #require(try style.picture(bounds: bounds, density: 1))
        #expect(picture.rect == CGRect(x: 0, y: 0, width: 41, height: 41))
        let image = picture.image
        // The first column and row are half outside the bounds: at most half covered.
        for i in 0..<41 {
            #expect(TextProbe.alpha(image, 0, i) <= 129)
            #expect(TextProbe.alpha(image, i, 0) <= 129)
            #expect(TextProbe.alpha(image, 40, i) <= 129)
            #expect(TextProbe.alpha(image, i, 40) <= 129)
        }
        #expect(TextProbe.ink(image) > 100)
    }

    @Test func greyScaleAntialiasing() throws {
        let image = try picture(TextProbe.style("Grey scale ABC xyz", size: 17), CGRect(x: 0, y: 0, width: 300, height: 30))
        let bytes = TextProbe.bytes(image)
        var partial = 0
        for p in stride(from: 0, to: bytes.count, by: 4) {
            #expect(bytes[p] == bytes[p + 3] && bytes[p + 1] == bytes[p + 3] && bytes[p + 2] == bytes[p + 3], "white text has no colour fringes")
            if bytes[p + 3] > 0 && bytes[p + 3] < 255 { partial += 1 }
        }
        #expect(partial > 100, "antialiased edges")
        let red = try picture(TextProbe.style("Red", color: Color(red: 1, green: 0, blue: 0, alpha: 0.5)),
                              CGRect(x: 0, y: 0, width: 100, height: 30))
        let redBytes = TextProbe.bytes(red)
        for p in stride(from: 0, to: redBytes.count, by: 4) {
            #expect(redBytes[p] == 0)
            #expect(redBytes[p + 1] == 0)
            #expect(redBytes[p + 2] == redBytes[p + 3])
            #expect(redBytes[p + 3] <= 128)
        }
    }

    @Test func densityTwoIsTheSameShapeSharper() throws {
        let style = TextProbe.style("Density two, same layout")
        let bounds = CGRect(x: 0, y: 0, width: 320, height: 40)
        let one = try picture(style, bounds, density: 1)
        let two = try picture(style, bounds, density: 2)
        #expect(two.width == 640)
        #expect(two.height == 80)
        let a = try box(one), b = try box(two)
        #expect(TextProbe.near(Double(b.minX), 2 * Double(a.minX), 2))
        #expect(TextProbe.near(Double(b.maxX), 2 * Double(a.maxX), 2))
        #expect(TextProbe.near(Double(b.minY), 2 * Double(a.minY), 2))
        #expect(TextProbe.near(Double(b.maxY), 2 * Double(a.maxY), 2))
        #expect(TextProbe.near(TextProbe.ink(two), 4 * TextProbe.ink(one), 0.05 * TextProbe.ink(two)))
    }

    @Test func nothingToPaintGivesNoPicture() throws {
        let bounds = CGRect(x: 0, y: 0, width: 100, height: 30)
        #expect(try TextProbe.style("").picture(bounds: bounds, density: 1) == nil)
        #expect(try TextProbe.style("a").picture(bounds: .zero, density: 1) == nil)
        #expect(try TextProbe.style("a", color: .clear).picture(bounds: bounds, density: 1) == nil)
    }
}
