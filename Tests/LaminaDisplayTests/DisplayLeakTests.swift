import Foundation
import LaminaTestSupport
import Testing

/// Making and dropping `Display`s leaves the process's file descriptors and memory flat (docs/reliability.md,
/// "Displays"): `lamina display-cycle` (a process of its own, so that no other test moves its figures) makes and
/// drops them, each showing one frame, and reports /proc/self/fd's count, mallinfo2's bytes in use and RSS before,
/// halfway and after. X11 on Xvfb and Wayland on weston here, 1,000 each with the CPU renderer; the GLES renderer,
/// whose every display compiles its programs on llvmpipe, `glesCount` each. DRM and fbdev: KioskVMTests.
@Suite(.serialized) struct DisplayLeakTests {
    /// Displays per CPU loop (the issue's figure).
    static let cpuCount = 1000
    /// Displays per GLES loop: each costs an EGL display, a context and the renderer's programs on llvmpipe.
    static let glesCount = 20

    /// What `lamina display-cycle` printed.
    struct Cycle: CustomStringConvertible {
        var fds: [Int]
        var heap: [Int]
        var rss: [Int]
        var seconds: Double
        var count: Int
        var summary: String

        var description: String {
            "\(count) displays (\(summary)) in \(String(format: "%.1f", seconds)) s: fds \(fds), heap \(heap), rss \(rss)"
        }

        /// The bounds every loop must keep: not one descriptor more (a connection, a DRM or GBM device, a
        /// wl_display kept would be one each); malloc's bytes in use grown by less than `bytesPerDisplay` a display
        /// over the loop's second half (a Display, renderer, X connection or EGL display kept is kilobytes; the
        /// runtime's and libraries' caches grow by a few dozen bytes a display at first and then stop, see
        /// docs/reliability.md, "Displays"); RSS by less than 8 MiB (pages the allocator keeps).
        func checkFlat(bytesPerDisplay: Int) {
            #expect(fds[0] == fds[1] && fds[1] == fds[2], "descriptors grew: \(self)")
            #expect(heap[2] - heap[1] < bytesPerDisplay * (count - count / 2), "malloc'd bytes grew: \(self)")
            #expect(rss[2] - rss[0] < 8 << 20, "RSS grew: \(self)")
        }
    }

    static func cycle(_ arguments: [String], environment: [String: String], seconds: Double = 240) throws -> Cycle {
        let process = try PlayProcess(["display-cycle"] + arguments, environment: environment)
        let status = process.waitForExit(seconds: seconds)
        let ending = status.map { "status \($0)" } ?? "a timeout"
        try #require(status == 0, "display-cycle \(arguments) ended with \(ending): \(process.stderr)")
        let line = process.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                                  "display-cycle printed \(process.stdout) \(process.stderr)")
        let result = Cycle(fds: object["fds"] as? [Int] ?? [], heap: object["heap"] as? [Int] ?? [],
                           rss: object["rss"] as? [Int] ?? [], seconds: object["seconds"] as? Double ?? 0,
                           count: object["count"] as? Int ?? 0, summary: object["summary"] as? String ?? "")
        try #require(result.fds.count == 3 && result.heap.count == 3 && result.rss.count == 3, "\(line)")
        print("DisplayLeakTests: \(result)")
        return result
    }

    @Test func x11DisplaysLeaveDescriptorsAndMemoryFlat() throws {
        guard let x = try XvfbDisplay.start() else { return }
        let environment = ["DISPLAY": x.name]
        let cpu = try Self.cycle(["--output", "x11", "--backend", "cpu", "--mode", "64x64",
                                  "--count", "\(Self.cpuCount)"], environment: environment)
        #expect(cpu.count == Self.cpuCount && cpu.summary.hasPrefix("x11 "))
        cpu.checkFlat(bytesPerDisplay: 256)
        let gles = try Self.cycle(["--output", "x11", "--backend", "gles", "--mode", "64x64",
                                   "--count", "\(Self.glesCount)"], environment: environment)
        gles.checkFlat(bytesPerDisplay: 16384)
    }

    @Test(.enabled(if: WestonServer.canRun)) func waylandDisplaysLeaveDescriptorsAndMemoryFlat() throws {
        let weston = try WestonServer.start(width: 320, height: 240)
        defer { weston.stop() }
        let cpu = try Self.cycle(["--output", "wayland", "--backend", "cpu", "--count", "\(Self.cpuCount)"],
                                 environment: weston.environment)
        #expect(cpu.count == Self.cpuCount && cpu.summary.hasPrefix("wayland "))
        cpu.checkFlat(bytesPerDisplay: 256)
        let gles = try Self.cycle(["--output", "wayland", "--backend", "gles", "--count", "\(Self.glesCount)"],
                                  environment: weston.environment)
        gles.checkFlat(bytesPerDisplay: 16384)
    }
}
