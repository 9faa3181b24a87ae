import Foundation
import LaminaCore
import Testing

/// A real X server for tests (DISPLAY.md, "Testing on this machine"): Xvfb on a free display number
/// (`-displayfd`), its screen in an XWD file (`-fbdir`) read back for pixels. Stopped and its folder removed when
/// released.
final class XvfbDisplay {
    let name: String
    let folder: URL
    private let process: Process

    /// Nil (with the reason recorded) when Xvfb is missing and LAMINA_REQUIRE_DISPLAYS is not set; a failure when
    /// it is (CI installs Xvfb).
    static func start(width: Int = 640, height: Int = 480) throws -> XvfbDisplay? {
        guard let path = executable("Xvfb") else {
            if ProcessInfo.processInfo.environment["LAMINA_REQUIRE_DISPLAYS"] == "1" {
                Issue.record("Xvfb is not installed (tools/setup.sh installs it)")
            } else {
                print("skipped: Xvfb is not installed")
            }
            return nil
        }
        return try XvfbDisplay(executable: path, width: width, height: height)
    }

    static func executable(_ name: String) -> String? {
        for folder in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
            return "\(folder)/\(name)"
        }
        return nil
    }

    private init(executable: String, width: Int, height: Int) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-xvfb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let ready = Pipe()
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-displayfd", "3", "-screen", "0", "\(width)x\(height)x24", "-fbdir", folder.path,
                             "-nolisten", "tcp"]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        // Xvfb writes the display number it took to descriptor 3 once it is ready.
        let child = ready.fileHandleForWriting
        process.standardInput = FileHandle.nullDevice
        try XvfbDisplay.runWithDescriptor3(process, child)
        try? child.close()
        var number = Data()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let chunk = ready.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            number.append(chunk)
            if number.contains(0x0A) { break }
        }
        let text = String(decoding: number, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let display = Int(text) else {
            process.terminate()
            throw XvfbFailure(message: "Xvfb did not say its display number (got \"\(text)\")")
        }
        name = ":\(display)"
    }

    /// Process has no way to pass descriptor 3: a shell with `3>&1` stands in, Xvfb's stdout being the pipe.
    private static func runWithDescriptor3(_ process: Process, _ pipe: FileHandle) throws {
        let executable = process.executableURL!.path
        let arguments = (process.arguments ?? []).map { "'\($0)'" }.joined(separator: " ")
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec '\(executable)' \(arguments) 3>&1 1>/dev/null"]
        process.standardOutput = pipe
        try process.run()
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

    deinit {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }
}

struct XvfbFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
