import FuzzSupport
import Foundation
@testable import LaminaScene

/// The sprite-sheet property list reader on arbitrary bytes (XML and binary plists alike, as
/// PropertyListSerialization takes both): a description or a `FileProblem`, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpriteSheet(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = FuzzDriver.data(bytes, count)
    do throws(FileProblem) {
        let (sheet, _) = try SpriteSheetDescription.parse(data, plistName: "fuzz/sheet.plist")
        if sheet.textureFileNames.isEmpty { FuzzDriver.fail("no texture name to try") }
        for (name, frame) in sheet.frames {
            let rect = frame.rectInTexture
            // parse promises finite, non-negative sizes; the loader's bounds check relies on it.
            guard [rect.minX, rect.minY, rect.width, rect.height].allSatisfy(\.isFinite), rect.width >= 0,
                rect.height >= 0
            else { FuzzDriver.fail("frame \(name) has the rectangle \(rect)") }
        }
    } catch {
        if error.message.isEmpty { FuzzDriver.fail("a problem with no message") }
    }
    return 0
}

@main enum FuzzSpriteSheetMain {
    static func main() { FuzzDriver.run(fuzzSpriteSheet) }
}
