import Foundation
import Lamina

/// Small images made by code for tests, so that expected pixels are known exactly.
public enum TestImages {
    /// Four flat quadrants: red top-left, green top-right, blue bottom-left, yellow bottom-right.
    public static func quadrants(width: Int, height: Int) -> Image {
        let image = try! Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let colour: Color
                switch (x < width / 2, y < height / 2) {
                case (true, true): colour = .red
                case (false, true): colour = .green
                case (true, false): colour = .blue
                case (false, false): colour = .yellow
                }
                image.setWord(Image.premultipliedWord(colour), x: x, y: y)
            }
        }
        return image
    }

    /// Vertical stripes of the given colours, `stripe` pixels wide each, `height` rows.
    public static func stripes(_ colours: [Color], stripe: Int, height: Int) -> Image {
        let image = try! Image(width: colours.count * stripe, height: height)
        for y in 0..<height {
            for x in 0..<image.width {
                image.setWord(Image.premultipliedWord(colours[x / stripe]), x: x, y: y)
            }
        }
        return image
    }

    /// A 3x3 grid of cells of `cell` pixels: corners blue, edges green, centre red (a nine-slice button).
    public static func nineSlice(cell: Int) -> Image {
        let image = try! Image(width: cell * 3, height: cell * 3)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let edgeX = x / cell != 1, edgeY = y / cell != 1
                let colour: Color = edgeX && edgeY ? .blue : (edgeX || edgeY ? .green : .red)
                image.setWord(Image.premultipliedWord(colour), x: x, y: y)
            }
        }
        return image
    }
}
