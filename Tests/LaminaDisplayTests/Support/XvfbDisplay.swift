import Foundation
import LaminaCore
import Testing

/// A real X server for tests (docs/kiosk.md, "Tests"): Xvfb on a free display number
/// (`-displayfd`), its screen in an XWD file (`-fbdir`) read back for pixels. Stopped and its folder removed when
/// released.
final class XvfbDisplay: @unchecked Sendable {
    let name: String
    let folder: URL
    private let server: XvfbServer

    /// Nil (the reason printed) when Xvfb is missing and LAMINA_REQUIRE_DISPLAYS is not set; with it (CI, which
    /// installs Xvfb) the start fails instead.
    static func start(width: Int = 640, height: Int = 480) throws -> XvfbDisplay? {
        guard DisplayTestRequirement.shouldRun("X11 tests", needing: [XvfbServer.executable]) else { return nil }
        return try XvfbDisplay(width: width, height: height)
    }

    private init(width: Int, height: Int) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-xvfb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        server = try XvfbServer(width: width, height: height, logFolder: folder, screenFolder: folder)
        name = server.display
    }

    /// The screen now, as Lamina image words (premultiplied BGRA, opaque).
    func screen() throws -> Image {
        let data = try Data(contentsOf: folder.appendingPathComponent("Xvfb_screen0"))
        func word(_ offset: Int) -> Int {
            data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        let headerSize = word(0), width = word(16), height = word(20), bytesPerLine = word(48), colours = word(76)
        let start = headerSize + colours * 12
        let image = try Image(width: width, height: height)
        data.withUnsafeBytes { raw in
            for y in 0..<height {
                for x in 0..<width {
                    let value = raw.load(fromByteOffset: start + y * bytesPerLine + x * 4, as: UInt32.self)
                    image.setWord(value | 0xFF00_0000, x: x, y: y)
                }
            }
        }
        return image
    }

    /// The colour at (x, y) as "#rrggbb".
    func colour(x: Int, y: Int) throws -> String {
        let pixel = try screen().rgba(x: x, y: y)
        return String(format: "#%02x%02x%02x", pixel.r, pixel.g, pixel.b)
    }

    /// Waits up to `seconds` for every probe ("#rrggbb" at x, y) to show; the colours seen last.
    @discardableResult
    func waitFor(_ probes: [(x: Int, y: Int, colour: String)], seconds: Double = 20) throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        var seen: [String] = []
        repeat {
            if let image = try? screen() {
                seen = probes.map { p in
                    let pixel = image.rgba(x: p.x, y: p.y)
                    return String(format: "#%02x%02x%02x", pixel.r, pixel.g, pixel.b)
                }
                if seen == probes.map(\.colour) { return seen }
            }
            usleep(50_000)
        } while Date() < deadline
        return seen
    }

    /// Ends the X server now (a kiosk's server exiting under it).
    func stopServer() { server.stop() }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
