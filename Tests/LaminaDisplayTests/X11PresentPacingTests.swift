import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// The X11 output's frames paced by the Present extension (docs/kiosk.md, "Pacing"): Xvfb has Present with a fake
/// clock of about 60 Hz. Each renderer: `DisplayStatistics.pacing` is `.present`, the refresh rate is the one the
/// completions' MSC and UST show, and frames go on being drawn. Without Present (LAMINA_X11_PRESENT=0, as on a
/// server that lacks it) the 60 Hz timer paces them, which `lamina play --stats` says.
@Suite(.serialized) struct X11PresentPacingTests {
    final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [DisplayStatistics] = []
        func append(_ figures: DisplayStatistics) { lock.withLock { list.append(figures) } }
        var values: [DisplayStatistics] { lock.withLock { list } }
    }

    @Test(arguments: [Display.Backend.cpu, .gles])
    func framesArePacedByPresentCompletions(backend: Display.Backend) throws {
        guard let x = try XvfbDisplay.start() else { return }
        let reports = Reports()
        let display = try Display(
            output: .x11, backend: backend,
            options: .init(fit: .stretch, output: DisplayOutputOptions(device: x.name, mode: DisplayMode(width: 96, height: 64)),
                           statistics: { reports.append($0) }))
        let root = Layer()
        Transaction.begin()
        root.bounds = CGRect(x: 0, y: 0, width: 96, height: 64)
        Transaction.commit()
        var frames = 0
        // A change each frame, so that a frame is due at every refresh; two reports (two seconds), then stop.
        try display.run(root) { _ in
            frames += 1
            Transaction.begin()
            Transaction.setDisableActions(true)
            root.backgroundColor = Color(red: Double(frames % 2), green: 0.5, blue: 0)
            Transaction.commit()
            if reports.values.count >= 2 || frames > 1000 { display.stop() }
        }
        let values = reports.values
        try #require(values.count >= 2)
        let figures = values[1]
        #expect(figures.pacing == .present, "\(figures)")
        #expect(figures.description.hasSuffix(", paced by present"))
        #expect(figures.frames > 0, "\(figures)")
        #expect(display.output.pacing == .present)
        // Xvfb's fake clock: about 60 Hz, as the completions' MSC and UST show.
        #expect(display.output.refreshRate > 50 && display.output.refreshRate < 70, "\(display.output.refreshRate)")
    }

    /// 100 x 100, a square moving for ever: a frame is due at every refresh.
    static let scene = """
        {"size": [100, 100], "backgroundColor": "#204080",
         "layers": [{"name": "mover", "frame": [0, 40, 20, 20], "backgroundColor": "#00ff00",
                     "animations": [{"keyPath": "position.x", "fromValue": 10, "toValue": 90, "duration": 1,
                                     "autoreverses": true, "repeatCount": "infinity"}]}]}
        """

    @Test(arguments: [("1", "present"), ("0", "timer")])
    func playStatsSayWhatPacesTheFrames(setting: String, pacing: String) throws {
        guard let x = try XvfbDisplay.start() else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-pacing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = folder.appendingPathComponent("scene.json")
        try Self.scene.write(to: scene, atomically: true, encoding: .utf8)
        let play = try PlayProcess(["play", scene.path, "--output", "x11", "--backend", "cpu", "--mode", "100x100",
                                    "--stats", "--verbose"],
                                   environment: ["DISPLAY": x.name, "LAMINA_X11_PRESENT": setting])
        // The second report covers a whole second of frames.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, play.stderr.components(separatedBy: ", paced by ").count < 3 { usleep(100_000) }
        #expect(play.stop() == 0)
        let lines = play.stderr.split(separator: "\n").filter { $0.contains(", paced by ") }
        try #require(lines.count >= 2, "\(play.stderr)")
        #expect(lines[1].hasSuffix(", paced by \(pacing)"), "\(lines)")
        #expect(!lines[1].hasPrefix("lamina: 0 frames"), "\(lines)")
        let expected = setting == "0" ? "x11: LAMINA_X11_PRESENT=0: frames are paced by a 60 Hz timer"
            : "frames are paced by PresentNotifyMSC"
        #expect(play.stderr.contains(expected), "\(play.stderr)")
    }
}
