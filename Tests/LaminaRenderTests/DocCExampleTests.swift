import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// The code of the DocC articles (Sources/Lamina/Lamina.docc: GettingStarted.md, Transactions.md, SceneFiles.md),
/// run as written and checked by its pixels and values, so an article cannot drift from the API. Each test names
/// the article and section its code is copied from; DocCAnimationExampleTests covers AnimatingLayers.md.
@Suite struct DocCExampleTests {
    /// Lamina.md, the landing page's example.
    @Test func theLandingPageExampleDrawsACard() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 120)
        root.backgroundColor = .white
        let card = Layer(frame: CGRect(x: 20, y: 20, width: 160, height: 80))
        card.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.8)
        card.cornerRadius = 12
        root.addSublayer(card)

        let image = try CPURenderer().render(root, scale: 2)   // 400 x 240 pixels
        let png = try image.pngData()

        #expect(image.width == 400 && image.height == 240)
        #expect(near(image.rgba(x: 200, y: 120), 51, 102, 204) && near(image.rgba(x: 42, y: 42), 255, 255, 255))
        #expect(try Image(data: png).rgba(x: 200, y: 120) == image.rgba(x: 200, y: 120))
    }

    /// GettingStarted.md, "Build a tree of layers".
    func makeCard() -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 120)
        root.backgroundColor = .white

        let card = Layer(frame: CGRect(x: 20, y: 20, width: 160, height: 80))
        card.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.8)
        card.cornerRadius = 12
        card.borderWidth = 2
        card.borderColor = .black
        root.addSublayer(card)

        let badge = Layer(frame: CGRect(x: 10, y: 10, width: 30, height: 30))
        badge.backgroundColor = .orange
        badge.opacity = 0.5
        card.addSublayer(badge)
        return root
    }

    /// Checks the card at `scale`: the white margin, the card's blue, the half-transparent badge over it.
    func checkCard(_ image: Image, scale: Int, renderer: String) {
        #expect(image.width == 200 * scale && image.height == 120 * scale, "\(renderer)")
        #expect(near(image.rgba(x: 5 * scale, y: 5 * scale), 255, 255, 255), "\(renderer) margin")
        #expect(near(image.rgba(x: 120 * scale, y: 70 * scale), 51, 102, 204), "\(renderer) card")
        // Orange (255, 128, 0) at opacity 0.5 over the card's blue.
        #expect(near(image.rgba(x: 45 * scale, y: 45 * scale), 153, 115, 102), "\(renderer) badge")
        #expect(near(image.rgba(x: 21 * scale, y: 60 * scale), 0, 0, 0), "\(renderer) border")
    }

    /// GettingStarted.md, "Render a PNG on the CPU" and "Render with OpenGL ES".
    @Test func gettingStartedRendersTheSameCardOnBothRenderers() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("lamina-docc-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("card.png")

        // "Render a PNG on the CPU"
        let root = makeCard()
        let renderer = CPURenderer()
        let image = try renderer.render(root, scale: 2)   // 400 x 240 pixels
        try image.writePNG(to: url)

        checkCard(image, scale: 2, renderer: "cpu")
        let read = try Image(contentsOfFile: url.path)
        #expect(read.width == 400 && read.rgba(x: 240, y: 140) == image.rgba(x: 240, y: 140))

        // "Render with OpenGL ES"
        guard let gles = GLESAvailability.renderer() else { return }
        let picture = try gles.render(root, scale: 2)
        checkCard(picture, scale: 2, renderer: "gles")
        #expect(ImageDifference.meetsParity(image, picture))
    }

    /// Transactions.md, "Transactions": the frame shows all of a transaction or none of it.
    @Test func aTransactionIsCommittedWhole() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
        let left = Layer(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        let right = Layer(frame: CGRect(x: 20, y: 0, width: 20, height: 20))
        root.sublayers = [left, right]

        Transaction.begin()
        Transaction.setDisableActions(true)   // no implicit animations: the change shows at once
        left.backgroundColor = .red
        right.backgroundColor = .red
        Transaction.commit()                  // both change in one step, for every frame and thread

        let frame = try CPURenderer().render(root)
        #expect(near(frame.rgba(x: 5, y: 10), 255, 0, 0) && near(frame.rgba(x: 35, y: 10), 255, 0, 0))
        #expect(left.backgroundColor == .red)
    }

    /// Transactions.md, "Threads": a thread builds and changes layers, another draws.
    @Test func anotherThreadsChangesShowOnceCommitted() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        root.backgroundColor = .white

        let done = DispatchSemaphore(value: 0)
        let worker = Thread {
            let dot = Layer(frame: CGRect(x: 5, y: 5, width: 10, height: 10))
            dot.backgroundColor = .blue
            root.addSublayer(dot)        // recorded in this thread's implicit transaction
            Transaction.flush()          // committed now (else by the next frame, or when the thread ends)
            done.signal()
        }
        worker.start()
        done.wait()
        let frame = try CPURenderer().render(root)
        #expect(near(frame.rgba(x: 10, y: 10), 0, 0, 255) && near(frame.rgba(x: 2, y: 2), 255, 255, 255))
    }

    /// Transactions.md, "Snapshots": a snapshot is a value; later changes make new ones.
    @Test func aSnapshotIsAValue() throws {
        let layer = Layer()
        Transaction.begin()
        Transaction.setDisableActions(true)
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.opacity = 0.25
        Transaction.commit()

        let before = try #require(layer.presentationSnapshot(at: 0))   // the committed subtree, as a frame draws it
        Transaction.begin()
        Transaction.setDisableActions(true)
        layer.opacity = 1
        Transaction.commit()
        let after = try #require(layer.presentationSnapshot(at: 0))

        #expect(before.opacity == 0.25 && after.opacity == 1)   // the old snapshot did not change
        #expect(before.bounds.size == CGSize(width: 10, height: 10))
    }

    /// SceneFiles.md, "Load and draw a scene".
    @Test func aSceneLoadsAndRenders() throws {
        let json = """
            {
              "size": [100, 60],
              "backgroundColor": "#FFFFFF",
              "layers": [
                { "frame": [10, 10, 40, 40], "backgroundColor": [1, 0, 0, 1], "cornerRadius": 8 }
              ]
            }
            """
        let scene = try Scene.load(data: Data(json.utf8), baseDirectory: URL(fileURLWithPath: "."),
                                   fileName: "card.json")
        let image = try CPURenderer().render(scene.root, scale: scene.scale)

        #expect(image.width == 100 && image.height == 60)
        #expect(near(image.rgba(x: 30, y: 30), 255, 0, 0) && near(image.rgba(x: 80, y: 30), 255, 255, 255))
        #expect(near(image.rgba(x: 11, y: 11), 255, 255, 255))   // outside the rounded corner
    }

    /// SceneFiles.md, "Animated scenes".
    @Test func anAnimatedSceneIsDrawnAtItsTimes() throws {
        let json = """
            {
              "size": [100, 40],
              "backgroundColor": "#FFFFFF",
              "layers": [
                { "name": "dot", "frame": [0, 10, 20, 20], "backgroundColor": "#FF0000",
                  "animations": [
                    { "type": "basic", "keyPath": "position.x", "fromValue": 10, "toValue": 90, "duration": 2 }
                  ] }
              ],
              "timeline": [
                { "at": 1, "layer": "dot", "set": { "backgroundColor": "#0000FF" }, "disableActions": true }
              ]
            }
            """
        let scene = try Scene.load(data: Data(json.utf8), baseDirectory: URL(fileURLWithPath: "."),
                                   fileName: "dot.json")
        let renderer = CPURenderer()
        var frames: [Image] = []
        for time in [0.5, 1.5] {              // forwards: advance(to:) applies the timeline up to each time
            scene.advance(to: time)
            frames.append(try renderer.render(scene.root, scale: scene.scale, at: time))
        }

        #expect(scene.duration == 2 && scene.fps == 60)
        #expect(near(frames[0].rgba(x: 30, y: 20), 255, 0, 0) && near(frames[0].rgba(x: 70, y: 20), 255, 255, 255))
        #expect(near(frames[1].rgba(x: 70, y: 20), 0, 0, 255) && near(frames[1].rgba(x: 30, y: 20), 255, 255, 255))
    }

    /// SceneFiles.md, "Errors": every problem at once, with its line, column and JSON path.
    @Test func aBadSceneReportsEveryProblem() throws {
        let json = """
            {
              "size": [100, 60],
              "layers": [ { "frame": [0, 0, 10], "opacity": "half" } ]
            }
            """
        do {
            _ = try Scene.load(data: Data(json.utf8), baseDirectory: URL(fileURLWithPath: "."),
                               fileName: "bad.json")
            Issue.record("a bad scene loaded")
        } catch let error as SceneError {
            #expect(error.problems.count == 2, "\(error)")
            #expect(error.problems.allSatisfy { $0.file == "bad.json" && $0.line == 3 }, "\(error)")
            #expect("\(error)".contains("layers[0].frame"), "\(error)")
            #expect("\(error)".contains("layers[0].opacity"), "\(error)")
        }
    }
}

/// LiveFrames.md, the overview's example.
@Suite struct DocCLiveFramesExampleTests {
    @Test func aMovingDotRedrawsTwoSmallBoxes() throws {
        Transaction.setDisableActions(true)   // the article's frames follow the model at once
        defer { Transaction.flush() }
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 320, height: 200)
        root.backgroundColor = .white
        let dot = Layer(frame: CGRect(x: 10, y: 10, width: 16, height: 16))
        dot.backgroundColor = .red
        root.addSublayer(dot)

        let renderer = CPURenderer()
        _ = try renderer.render(root)                        // the first frame is drawn whole
        var shares: [Double] = []
        for _ in 0..<10 {
            dot.position.x += 20
            let frame = try renderer.render(root)            // redraws where the dot was and where it is
            shares.append(renderer.statistics.damagedShare)
            _ = frame                                        // let it go: the next frame is drawn into it
        }

        #expect(shares.allSatisfy { $0 == 648.0 / 64_000 }, "\(shares)")
        let last = try renderer.render(root)
        #expect(renderer.statistics.pixelsRedrawn == 0)
        let fresh = try CPURenderer().render(Planner().plan(root))
        #expect(memcmp(last.baseAddress, fresh.baseAddress, fresh.byteCount) == 0)
    }
}
