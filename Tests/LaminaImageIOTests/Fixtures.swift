import Foundation
import LaminaCore
import Testing

/// Paths and bytes of the files in Fixtures/: the images made by tools/make-image-fixtures.py, the zip and
/// dotLottie archives (`*.lottie`, `zip64.zip`) by tools/make-archive-fixtures.py with Python's zipfile.
enum Fixture {
    struct Missing: Error, CustomStringConvertible {
        let name: String
        var description: String { "fixture \(name) is not in the test bundle" }
    }

    /// The absolute path of a fixture, as error messages will quote it.
    static func path(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: name)
        guard let found = Bundle.module.url(
            forResource: url.deletingPathExtension().lastPathComponent, withExtension: url.pathExtension,
            subdirectory: "Fixtures")
        else { throw Missing(name: name) }
        return found.path
    }

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path(name)))
    }
}

/// A fresh folder for files a test writes; removed by `remove()`.
struct ScratchFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("LaminaImageIOTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func write(_ data: Data, _ name: String) throws -> String {
        let path = path(name)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Every pixel's premultiplied word (0xAARRGGBB), row by row: compared whole so that failures show the image.
func words(_ image: Image) -> [[UInt32]] {
    (0..<image.height).map { y in (0..<image.width).map { x in image.word(x: x, y: y) } }
}

/// Every pixel as straight RGBA, row by row.
func pixels(_ image: Image) -> [[RGBA8]] {
    (0..<image.height).map { y in (0..<image.width).map { x in image.rgba(x: x, y: y) } }
}

func rgba(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) -> RGBA8 { RGBA8(r: r, g: g, b: b, a: a) }

/// Nil when both images have the same size and words, else the first difference and how many pixels differ:
/// for images too big to print whole in a failure.
func difference(_ actual: Image, _ expected: Image) -> String? {
    guard actual.width == expected.width, actual.height == expected.height else {
        return "size \(actual.width)x\(actual.height), expected \(expected.width)x\(expected.height)"
    }
    var first: String?
    var count = 0
    for y in 0..<actual.height {
        for x in 0..<actual.width where actual.word(x: x, y: y) != expected.word(x: x, y: y) {
            count += 1
            if first == nil {
                let (a, e) = (actual.word(x: x, y: y), expected.word(x: x, y: y))
                first = "(\(x), \(y)) is 0x\(String(a, radix: 16)), expected 0x\(String(e, radix: 16))"
            }
        }
    }
    return first.map { "\(count) pixels differ; first \($0)" }
}
