import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// The Swift API on a real X server: `Display(output:backend:options:)`, `size`, `run(root) { time in }`, `stop()`,
/// and a change made on another thread in a transaction shown at the next frame.
@Suite(.serialized) struct DisplayAPITests {
    @Test(arguments: [Display.Backend.cpu, .gles])
    func changesFromAnotherThreadShowAtTheNextFrame(backend: Display.Backend) throws {
        guard let x = try XvfbDisplay.start() else { return }
        let display = try Display(output: .x11, backend: backend,
                                  options: .init(output: DisplayOutputOptions(device: x.name)))
        #expect(display.size == CGSize(width: 640, height: 480) && display.scale == 1)
        #expect(display.backendName == backend.rawValue)
        let root = Layer()
        let box = Layer()
        Transaction.begin()
        root.bounds = CGRect(origin: .zero, size: display.size)
        root.backgroundColor = Color(red: 0, green: 0, blue: 1)
        box.frame = CGRect(x: 100, y: 100, width: 200, height: 100)
        box.backgroundColor = Color(red: 1, green: 0, blue: 0)
        root.addSublayer(box)
        Transaction.commit()
        let times = LockedTimes()
        let worker = Thread {
            // The first frame, then a change in a transaction of this thread.
            guard (try? x.waitFor([(x: 150, y: 150, colour: "#ff0000")])) == ["#ff0000"] else { return }
            Transaction.begin()
            Transaction.setDisableActions(true)
            box.backgroundColor = Color(red: 0, green: 1, blue: 0)
            Transaction.commit()
            _ = try? x.waitFor([(x: 150, y: 150, colour: "#00ff00")])
            display.stop()
        }
        worker.start()
        try display.run(root) { time in times.append(time) }
        #expect(try x.colour(x: 150, y: 150) == "#00ff00" || times.count > 0)
        #expect(times.count >= 2, "frames: \(times.count)")
        // Frame times are the times frames are shown: increasing, about a refresh apart or more.
        let values = times.values
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
        #expect(root.superlayer == nil)
    }

    @Test(arguments: [Display.Backend.cpu, .gles])
    func aDisplayMadeOnOneThreadRunsOnAnother(backend: Display.Backend) throws {
        guard let x = try XvfbDisplay.start() else { return }
        let display = try Display(output: .x11, backend: backend,
                                  options: .init(fit: .stretch, output: DisplayOutputOptions(device: x.name)))
        let root = Layer()
        Transaction.begin()
        root.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        root.backgroundColor = Color(red: 1, green: 1, blue: 0)
        Transaction.commit()
        let failure = LockedTimes()
        let runner = Thread {
            do { try display.run(root) } catch { failure.append(-1) }
        }
        runner.start()
        // Stretched to the whole screen.
        #expect(try x.waitFor([(x: 1, y: 1, colour: "#ffff00"), (x: 638, y: 478, colour: "#ffff00")])
                    == ["#ffff00", "#ffff00"])
        display.stop()
        while runner.isExecuting { usleep(10_000) }
        #expect(failure.count == 0)
    }

    final class LockedTimes: @unchecked Sendable {
        private let lock = NSLock()
        private var times: [Double] = []
        func append(_ t: Double) { lock.withLock { times.append(t) } }
        var values: [Double] { lock.withLock { times } }
        var count: Int { values.count }
    }
}

/// Where a root goes on an output: fit and rotation, as pure figures.
struct DisplayLayoutTests {
    @Test func containKeepsTheAspectAndCentres() {
        let layout = DisplayLayout(root: CGSize(width: 320, height: 200), output: PixelSize(width: 640, height: 480),
                                   fit: .contain, rotation: .none)
        #expect(layout.scale == 2)
        #expect(layout.stageSize == CGSize(width: 320, height: 240))
        #expect(layout.rootPosition == CGPoint(x: 160, y: 120))
        #expect(layout.rootTransform == .identity)
    }

    @Test func coverFillsAndStretchScalesEachAxis() {
        let cover = DisplayLayout(root: CGSize(width: 320, height: 200), output: PixelSize(width: 640, height: 480),
                                  fit: .cover, rotation: .none)
        #expect(cover.scale == 2.4)
        let stretch = DisplayLayout(root: CGSize(width: 320, height: 200), output: PixelSize(width: 640, height: 480),
                                    fit: .stretch, rotation: .none)
        // Drawn at the larger density (2.4), x scaled down to 2 by the transform.
        #expect(stretch.scale == 2.4)
        #expect(abs(stretch.rootTransform.m11 - 2 / 2.4) < 1e-12 && stretch.rootTransform.m22 == 1)
    }

    @Test func noneUsesTheGivenScaleAtTheTopLeft() {
        let layout = DisplayLayout(root: CGSize(width: 100, height: 50), output: PixelSize(width: 640, height: 480),
                                   fit: .none, rotation: .none, noneScale: 2)
        #expect(layout.scale == 2)
        #expect(layout.rootPosition == CGPoint(x: 50, y: 25))
    }

    @Test func aQuarterTurnSwapsTheAxes() {
        let layout = DisplayLayout(root: CGSize(width: 200, height: 100), output: PixelSize(width: 640, height: 480),
                                   fit: .contain, rotation: .quarter)
        #expect(layout.scale == 2.4)
        let t = layout.rootTransform
        // Clockwise on a y-down screen: x goes to y.
        #expect(t.m11 == 0 && t.m12 == 1 && t.m21 == -1 && t.m22 == 0)
    }
}
