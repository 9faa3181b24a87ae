import Foundation
import LaminaTestSupport
import Testing

/// `lamina play` on DRM/KMS and fbdev, in a QEMU guest with bochs-drm (tools/vm; docs/kiosk.md, "DRM/KMS and fbdev in
/// a virtual machine"): one boot plays a scene of known colours through each output and renderer, and the screen's pixels (QEMU's screendump) are
/// checked where `--fit contain` puts the scene. Needs qemu-system-x86_64; skipped without it unless
/// LAMINA_REQUIRE_VM=1 (CI), where its absence fails.
struct KioskVMTests {
    /// 400 x 400 points: red and blue bars, a white square that moves from (60, 340) to (340, 340) after 0.3 s.
    static let scene = """
        {
          "size": [400, 400],
          "backgroundColor": "#208040",
          "layers": [
            {"name": "red", "frame": [40, 40, 120, 240], "backgroundColor": "#FF0000"},
            {"name": "blue", "frame": [240, 40, 120, 240], "backgroundColor": "#0000FF"},
            {"name": "mover", "frame": [40, 320, 40, 40], "backgroundColor": "#FFFFFF"}
          ],
          "timeline": [
            {"at": 0.3, "layer": "mover", "set": {"position": [340, 340]}, "animationDuration": 1.0}
          ]
        }
        """
    static let red = [255, 0, 0], blue = [0, 0, 255], white = [255, 255, 255], green = [32, 128, 64], black = [0, 0, 0]

    /// Points of the scene and the colour each must show, once the square has arrived.
    static let scenePoints: [(x: Double, y: Double, rgb: [Int])] = [
        (100, 160, red), (300, 160, blue), (200, 20, green),
        // Just inside and just outside the red bar's corners: the scale and the centring to a pixel or so.
        (41, 41, red), (39, 39, green), (159, 279, red), (161, 281, green),
        (340, 340, white),
        // Where the square started: no trail left in either of the buffers that take turns.
        (60, 340, green),
    ]

    /// The pixels to check on a `width` x `height` screen: the scene points where `--fit contain` puts them (scaled
    /// to the smaller ratio, centred), and the middle of each side band, which shows the scene's backgroundColor.
    static func probes(width: Int, height: Int) -> [[String: Any]] {
        let scale = min(Double(width) / 400, Double(height) / 400)
        let dx = (Double(width) - 400 * scale) / 2, dy = (Double(height) - 400 * scale) / 2
        var probes = scenePoints.map { point in
            ["x": Int(dx + point.x * scale), "y": Int(dy + point.y * scale), "rgb": point.rgb] as [String: Any]
        }
        if dx >= 2 {
            probes.append(["x": Int(dx / 2), "y": height / 2, "rgb": green])
            probes.append(["x": width - 1 - Int(dx / 2), "y": height / 2, "rgb": green])
        }
        return probes
    }

    static func run(_ name: String, _ command: String, width: Int, height: Int, timeout: Int = 60) -> [String: Any] {
        ["name": name, "command": command, "timeout": timeout, "size": [width, height],
         "probes": probes(width: width, height: height)]
    }

    /// Displays per `display-cycle` run in the guest. Software emulation makes each one dear: a DRM display at
    /// 640 x 480 with the CPU renderer costs 100 ms, an fbdev one (1280 x 800) 124 ms, a GLES one (the renderer's
    /// programs compiled on llvmpipe) 1.7 s on DRM and 0.35 s on fbdev; 1,000 of each CPU one took 100 s and 124 s
    /// (flat: no descriptor, +784 and +288 bytes in all), too long for CI.
    static let cycleCounts = (cpu: 50, gles: 4)

    static func cycle(_ name: String, _ output: String, _ backend: String, count: Int) -> [String: Any] {
        ["name": name, "command": "lamina display-cycle --output \(output) --backend \(backend) --count \(count) "
            + "--warmup \(backend == "gles" ? 2 : 10)" + (output == "drm" ? " --mode 640x480" : ""), "timeout": 300]
    }

    static var spec: [String: Any] {
        let play = "lamina play scene.json --verbose"
        return [
            "files": ["scene.json": "scene.json", "pattern.raw": "pattern.raw"],
            // A framebuffer twice the screen's height, so fbdev pans between two halves (bochs-drm's default has
            // no room; LAMINA_FBDEV_PAN=0 checks that path).
            "append": ["drm_kms_helper.drm_fbdev_overalloc=200"],
            "runs": [
                // The harness itself, without lamina: bytes written straight to the framebuffer (XRGB8888 words, red
                // rows above blue ones) come back from the screendump where they were put.
                ["name": "harness", "command": "cat pattern.raw > /dev/fb0; sleep 1000", "exit": 143, "timeout": 30,
                 "size": [1280, 800],
                 "probes": [["x": 0, "y": 0, "rgb": red], ["x": 1279, "y": 399, "rgb": red],
                            ["x": 0, "y": 400, "rgb": blue], ["x": 1279, "y": 799, "rgb": blue]]] as [String: Any],
                ["name": "info", "command": "lamina info", "timeout": 60],
                // No WAYLAND_DISPLAY or DISPLAY: auto takes the DRM card, and the CPU renderer (llvmpipe is software).
                run("auto", play, width: 1280, height: 800),
                run("drm-cpu", "\(play) --output drm --backend cpu", width: 1280, height: 800),
                run("drm-cpu-legacy", "LAMINA_DRM_LEGACY=1 \(play) --output drm --backend cpu", width: 1280, height: 800),
                run("drm-gles", "\(play) --output drm --backend gles --connector Virtual-1 --mode 1024x768",
                    width: 1024, height: 768),
                run("drm-gles-legacy", "LAMINA_DRM_LEGACY=1 \(play) --output drm --backend gles", width: 1280, height: 800),
                // After a clean stop the console's mode and framebuffer are back (cleared to black by the guest).
                ["name": "drm-restored", "command": "sleep 1000", "exit": 143, "timeout": 30, "size": [1280, 800],
                 "probes": [["x": 440, "y": 320, "rgb": black], ["x": 640, "y": 700, "rgb": black]]],
                run("fbdev-cpu", "\(play) --output fbdev --backend cpu", width: 1280, height: 800),
                // The pan offset is back at the top after a clean stop.
                ["name": "fbdev-pan-restored", "command": "cat /sys/class/graphics/fb0/pan", "timeout": 30],
                run("fbdev-cpu-one-buffer", "LAMINA_FBDEV_PAN=0 \(play) --output fbdev --backend cpu",
                    width: 1280, height: 800),
                run("fbdev-gles", "\(play) --output fbdev --backend gles", width: 1280, height: 800),
                // Displays made and dropped (`lamina display-cycle`, docs/reliability.md, "Displays"): descriptors
                // and memory flat.
                cycle("drm-cycle-cpu", "drm", "cpu", count: cycleCounts.cpu),
                cycle("drm-cycle-gles", "drm", "gles", count: cycleCounts.gles),
                cycle("fbdev-cycle-cpu", "fbdev", "cpu", count: cycleCounts.cpu),
                cycle("fbdev-cycle-gles", "fbdev", "gles", count: cycleCounts.gles),
                ["name": "bad-connector", "command": "\(play) --output drm --connector HDMI-A-1", "exit": 1, "timeout": 60],
                ["name": "bad-mode", "command": "\(play) --output drm --mode 1000x1000", "exit": 1, "timeout": 60],
                // A user outside the video group (the devices are root's, mode 0600, in the guest).
                ["name": "no-permission", "command": "su kiosk -c 'lamina play /test/scene.json --output drm'",
                 "exit": 1, "timeout": 60],
            ] as [[String: Any]],
        ]
    }

    @Test func playsOnDRMAndFBDevWithBothRenderers() throws {
        let environment = ProcessInfo.processInfo.environment
        let required = environment["LAMINA_REQUIRE_VM"] == "1"
        let qemu = ["/usr/bin/qemu-system-x86_64", "/usr/local/bin/qemu-system-x86_64"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        guard qemu != nil else {
            #expect(!required, "LAMINA_REQUIRE_VM=1 but qemu-system-x86_64 is missing (tools/setup.sh installs it)")
            print("KioskVMTests: skipped: qemu-system-x86_64 is not installed")
            return
        }
        let root = FailureArtifacts.packageRoot
        let binary = try #require(Self.laminaBinary(), "the lamina binary is not built (swift build --build-tests)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-vm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.scene.write(to: folder.appendingPathComponent("scene.json"), atomically: true, encoding: .utf8)
        try JSONSerialization.data(withJSONObject: Self.spec).write(to: folder.appendingPathComponent("spec.json"))
        try Self.pattern().write(to: folder.appendingPathComponent("pattern.raw"))

        let guest = root.appendingPathComponent(".build/vm/guest").path
        let build = try Self.shell([root.appendingPathComponent("tools/vm/build-guest.sh").path, binary, guest],
                                   timeout: 300)
        try #require(build.status == 0, "build-guest.sh failed: \(build.output)")
        let out = folder.appendingPathComponent("out")
        let started = Date()
        let harness = try Self.shell(["python3", root.appendingPathComponent("tools/vm/run-kiosk-test.py").path,
                                      "--guest", guest, "--spec", folder.appendingPathComponent("spec.json").path,
                                      "--out", out.path], timeout: 540)
        let elapsed = Date().timeIntervalSince(started)
        let resultData = try Data(contentsOf: out.appendingPathComponent("result.json"))
        let result = try #require(try JSONSerialization.jsonObject(with: resultData) as? [String: Any])
        let runs = (result["runs"] as? [[String: Any]]) ?? []
        print("KioskVMTests: VM boot \(result["boot_s"] ?? "?") s, whole run \(String(format: "%.1f", elapsed)) s; "
              + runs.map { "\($0["name"] ?? "?") \($0["match_s"] ?? "-") s" }.joined(separator: ", "))
        if harness.status != 0 {
            let kept = FailureArtifacts.root.appendingPathComponent("KioskVMTests")
            try? FileManager.default.removeItem(at: kept)
            try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? [] {
                try? FileManager.default.copyItem(at: out.appendingPathComponent(name),
                                                  to: kept.appendingPathComponent(name))
            }
            Issue.record("the VM harness failed (screendumps and console log in \(kept.path)): \(harness.output)")
        }

        var byName: [String: [String: Any]] = [:]
        for run in runs { if let name = run["name"] as? String { byName[name] = run } }
        for expected in Self.spec["runs"] as! [[String: Any]] {
            let name = expected["name"] as! String
            guard let run = byName[name] else {
                Issue.record("\(name): no result")
                continue
            }
            #expect(run["exit_status"] as? Int == (expected["exit"] as? Int ?? 0), "\(name): \(run["log"] ?? [])")
            if let size = expected["size"] as? [Int] { #expect(run["size"] as? [Int] == size, "\(name)") }
            let seen = (run["probes"] as? [[String: Any]]) ?? []
            for probe in (expected["probes"] as? [[String: Any]]) ?? [] {
                let x = probe["x"] as! Int, y = probe["y"] as! Int, rgb = probe["rgb"] as! [Int]
                let actual = seen.first { $0["x"] as? Int == x && $0["y"] as? Int == y }?["actual"] as? [Int]
                #expect(actual.map { zip($0, rgb).allSatisfy { abs($0 - $1) <= 2 } } == true,
                        "\(name): (\(x), \(y)) is \(actual ?? []), expected \(rgb)")
            }
        }
        let log = { (name: String) in ((byName[name]?["log"] as? [String]) ?? []).joined(separator: "\n") }
        for name in ["drm-cycle-cpu", "drm-cycle-gles", "fbdev-cycle-cpu", "fbdev-cycle-gles"] {
            let line = log(name).split(separator: "\n").last { $0.hasPrefix("{") }.map(String.init) ?? ""
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let fds = object["fds"] as? [Int], let heap = object["heap"] as? [Int], fds.count == 3, heap.count == 3
            else {
                Issue.record("\(name): no figures: \(log(name))")
                continue
            }
            print("KioskVMTests: \(name): \(line)")
            // As DisplayLeakTests: not one descriptor more, malloc's bytes in use flat over the second half.
            let count = name.hasSuffix("gles") ? Self.cycleCounts.gles : Self.cycleCounts.cpu
            let perDisplay = name.hasSuffix("gles") ? 16384 : 256
            #expect(fds[0] == fds[1] && fds[1] == fds[2], "\(name): descriptors grew: \(line)")
            #expect(heap[2] - heap[1] < perDisplay * (count - count / 2), "\(name): memory grew: \(line)")
        }
        #expect(log("info").contains("output drm: /dev/dri/card0: connector Virtual-1 connected, 1280x800@75"), "\(log("info"))")
        #expect(log("info").contains("output fbdev: /dev/fb0: bochs-drmdrmfb, 1280x800, XRGB8888, two buffers (panning)"),
                "\(log("info"))")
        #expect(log("fbdev-cpu").contains("fbdev /dev/fb0 bochs-drmdrmfb 1280x800 XRGB8888, panning"), "\(log("fbdev-cpu"))")
        #expect(log("fbdev-cpu").contains("fbdev: console in graphics mode"))
        #expect(log("fbdev-pan-restored") == "0,0")
        #expect(log("fbdev-cpu-one-buffer").contains("fbdev /dev/fb0 bochs-drmdrmfb 1280x800 XRGB8888, cpu renderer"))
        #expect(log("drm-cpu").contains("drm /dev/dri/card0 Virtual-1 1280x800@75 (atomic)"), "\(log("drm-cpu"))")
        #expect(log("auto").contains("display: drm /dev/dri/card0 Virtual-1 1280x800@75 (atomic), cpu renderer"),
                "\(log("auto"))")
        #expect(log("drm-cpu-legacy").contains("drm /dev/dri/card0 Virtual-1 1280x800@75 (legacy)"))
        #expect(log("drm-gles-legacy").contains("drm /dev/dri/card0 Virtual-1 1280x800@75 (legacy), gles renderer"),
                "\(log("drm-gles-legacy"))")
        #expect(log("bad-connector").contains("no DRM device with a connected display on connector HDMI-A-1 "
                                              + "(/dev/dri/card0: no connector HDMI-A-1, connectors: Virtual-1)"),
                "\(log("bad-connector"))")
        #expect(log("no-permission").contains("cannot open /dev/dri/card0: permission denied (run as a member of the "
                                              + "video group, or from a console session)"), "\(log("no-permission"))")
        #expect(log("bad-mode").contains("/dev/dri/card0: connector Virtual-1 has no mode 1000x1000 (modes: 1280x800@75, "),
                "\(log("bad-mode"))")
    }

    /// 1280 x 800 XRGB8888 words, little-endian: 400 red rows, then 400 blue ones.
    static func pattern() -> Data {
        var data = Data(capacity: 1280 * 800 * 4)
        for y in 0..<800 {
            let word: [UInt8] = y < 400 ? [0x00, 0x00, 0xFF, 0x00] : [0xFF, 0x00, 0x00, 0x00]
            for _ in 0..<1280 { data.append(contentsOf: word) }
        }
        return data
    }

    /// The built CLI, found as LaminaCLITests finds it: next to the test bundle, else .build/debug.
    static func laminaBinary() -> String? {
        FileManager.default.isExecutableFile(atPath: LaminaExecutable.path) ? LaminaExecutable.path : nil
    }

    /// Runs a command with stdout and stderr together; killed after `timeout` seconds so nothing hangs the suite.
    static func shell(_ arguments: [String], timeout: Double) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = PipeReader(pipe)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            return (-1, "timed out after \(Int(timeout)) s: \(output.text)")
        }
        process.waitUntilExit()
        output.waitForEnd(seconds: 5)
        return (process.terminationStatus, output.text)
    }
}

