import Foundation
import LaminaCore
import LaminaImageIO
import Testing

/// YUV 4:2:0 conversion, y4m streams and raw frames (`lamina export --format y4m|raw`).
@Suite struct VideoFrameTests {
    /// A 3x3 image: columns red, green, blue in the top two rows; the bottom row white, black, and red at
    /// half opacity.
    func sample() throws -> Image {
        let image = try Image(width: 3, height: 3)
        let colors: [[RGBA8]] = [
            [RGBA8(r: 255, g: 0, b: 0, a: 255), RGBA8(r: 0, g: 255, b: 0, a: 255), RGBA8(r: 0, g: 0, b: 255, a: 255)],
            [RGBA8(r: 255, g: 0, b: 0, a: 255), RGBA8(r: 0, g: 255, b: 0, a: 255), RGBA8(r: 0, g: 0, b: 255, a: 255)],
            [RGBA8(r: 255, g: 255, b: 255, a: 255), RGBA8(r: 0, g: 0, b: 0, a: 255), RGBA8(r: 255, g: 0, b: 0, a: 128)],
        ]
        for y in 0..<3 { for x in 0..<3 { image.setRGBA(colors[y][x], x: x, y: y) } }
        return image
    }

    @Test func bt601FullRangeOverBlackWithOddSizes() throws {
        let data = YUV420Conversion.planes(of: try sample())
        #expect(data.count == 9 + 2 * 4)  // Chroma planes are ceil(3/2) x ceil(3/2).
        let bytes = [UInt8](data)
        // Y: red 0.299 x 255 = 76.2, green 149.7, blue 29.1, white 255, black 0, half red over black 0.299 x 128.
        #expect(Array(bytes[0..<9]) == [76, 150, 29, 76, 150, 29, 255, 0, 38])
        // Cb, Cr of the 2x2 blocks: red and green averaged; blue alone (odd width); white and black averaged
        // (odd height: one row); half red alone.
        let red = (cb: 128 - 0.168736 * 255, cr: 128 + 0.5 * 255)
        let green = (cb: 128 - 0.331264 * 255, cr: 128 - 0.418688 * 255)
        func byte(_ v: Double) -> UInt8 { UInt8(min(255, max(0, v.rounded()))) }
        #expect(Array(bytes[9..<13]) == [byte((red.cb + green.cb) / 2), 255, 128, byte(128 - 0.168736 * 128)])
        #expect(Array(bytes[13..<17]) == [byte((red.cr + green.cr) / 2), byte(128 - 0.081312 * 255), 128, byte(128 + 0.5 * 128)])
    }

    @Test func integerConversionMatchesTheFormulaWithinOne() throws {
        var generator = SystemRandomNumberGenerator()
        let image = try Image(width: 17, height: 9)
        for y in 0..<9 { for x in 0..<17 {
            image.setRGBA(RGBA8(r: .random(in: 0...255, using: &generator), g: .random(in: 0...255, using: &generator),
                                b: .random(in: 0...255, using: &generator), a: 255), x: x, y: y)
        } }
        let bytes = [UInt8](YUV420Conversion.planes(of: image))
        func rgb(_ x: Int, _ y: Int) -> (Double, Double, Double) {
            let p = image.rgba(x: x, y: y)
            return (Double(p.r), Double(p.g), Double(p.b))
        }
        for y in 0..<9 { for x in 0..<17 {
            let (r, g, b) = rgb(x, y)
            #expect(abs(Double(bytes[y * 17 + x]) - (0.299 * r + 0.587 * g + 0.114 * b)) <= 0.51)
        } }
        for by in 0..<5 { for bx in 0..<9 {
            var sum = (0.0, 0.0, 0.0), n = 0.0
            for y in (2 * by)..<min(9, 2 * by + 2) { for x in (2 * bx)..<min(17, 2 * bx + 2) {
                let (r, g, b) = rgb(x, y)
                sum = (sum.0 + r, sum.1 + g, sum.2 + b)
                n += 1
            } }
            let (r, g, b) = (sum.0 / n, sum.1 / n, sum.2 / n)
            let cb = min(255, 128 - 0.168736 * r - 0.331264 * g + 0.5 * b)
            let cr = min(255, 128 + 0.5 * r - 0.418688 * g - 0.081312 * b)
            #expect(abs(Double(bytes[153 + by * 9 + bx]) - cb) <= 0.51)
            #expect(abs(Double(bytes[153 + 45 + by * 9 + bx]) - cr) <= 0.51)
        } }
    }

    @Test func y4mHeaderAndFrames() throws {
        let writer = Y4MWriter(width: 3, height: 3, rate: FrameRate(parsing: "29.97")!)
        #expect(String(decoding: writer.header, as: UTF8.self)
            == "YUV4MPEG2 W3 H3 F30000:1001 Ip A1:1 C420jpeg XCOLORRANGE=FULL\n")
        let image = try sample()
        let frame = writer.frame(image)
        #expect(frame.prefix(6) == Data("FRAME\n".utf8))
        #expect(frame.dropFirst(6) == YUV420Conversion.planes(of: image))
        #expect(RawPixelFormat.yuv420p.frameSize(width: 3, height: 3) == frame.count - 6)
    }

    @Test func rawFramesAreStraightAlphaInTheOrderNamed() throws {
        let image = try sample()
        let rgba = [UInt8](RawFrameWriter.frame(image, format: .rgba))
        let bgra = [UInt8](RawFrameWriter.frame(image, format: .bgra))
        #expect(rgba.count == 36 && bgra.count == 36)
        #expect(Array(rgba[0..<8]) == [255, 0, 0, 255, 0, 255, 0, 255])
        #expect(Array(bgra[0..<8]) == [0, 0, 255, 255, 0, 255, 0, 255])
        // Half-transparent red: straight, as the PNG frames hold it.
        #expect(Array(rgba[32..<36]) == [255, 0, 0, 128])
        #expect(Array(bgra[32..<36]) == [0, 0, 255, 128])
        #expect(RawFrameWriter.frame(image, format: .yuv420p) == YUV420Conversion.planes(of: image))
        #expect(RawPixelFormat.rgba.frameSize(width: 3, height: 3) == 36)
        // The same pixels as the PNG encoder writes.
        let decoded = try Image(data: try image.pngData())
        for y in 0..<3 { for x in 0..<3 {
            let p = decoded.rgba(x: x, y: y)
            #expect(Array(rgba[(y * 3 + x) * 4..<(y * 3 + x + 1) * 4]) == [p.r, p.g, p.b, p.a])
        } }
    }
}
