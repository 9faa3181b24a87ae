import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Frames drawn while another thread commits transactions: no frame shows part of a transaction, on any renderer.
/// tools/tsan.sh runs this suite under ThreadSanitizer.
@Suite struct TransactionFrameTests {
    /// The writer's shared flags.
    final class Flags: @unchecked Sendable {
        private let lock = NSLock()
        private var stopped = false
        private var committed = 0
        private var structuralCommitted = 0

        var transactions: Int { lock.withLock { committed } }
        var structural: Int { lock.withLock { structuralCommitted } }

        var stop: Bool {
            get { lock.withLock { stopped } }
            set { lock.withLock { stopped = newValue } }
        }

        func count(structural isStructural: Bool) {
            lock.withLock {
                committed += 1
                if isStructural { structuralCommitted += 1 }
            }
        }
    }

    static let palette: [Color] = [.red, .green, .blue, .cyan, .black, Color(red: 1, green: 1, blue: 0),
                                   Color(red: 1, green: 0, blue: 1)]

    /// Two layers A and B, always the same colour in a transaction; every 50 transactions a pair of layers (C at
    /// the bottom left, D at the bottom right) is added, in the transaction's colour, or removed, together.
    func scene() -> (root: Layer, a: Layer, b: Layer) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 32)
        root.backgroundColor = .white
        let a = Layer(frame: CGRect(x: 0, y: 0, width: 16, height: 16))
        let b = Layer(frame: CGRect(x: 48, y: 0, width: 16, height: 16))
        a.backgroundColor = Self.palette[0]
        b.backgroundColor = Self.palette[0]
        root.sublayers = [a, b]
        return (root, a, b)
    }

    func startWriter(root: Layer, a: Layer, b: Layer, flags: Flags) -> Thread {
        let thread = Thread {
            var index = 0
            var pair: [Layer] = []
            while !flags.stop {
                index += 1
                let colour = Self.palette[index % Self.palette.count]
                let structural = index % 50 == 0
                Transaction.begin()
                Transaction.setDisableActions(true)  // the frames check each transaction's values, not animations
                a.backgroundColor = colour
                // A structural change between the two halves: it too must land with them.
                if structural {
                    if pair.isEmpty {
                        let c = Layer(frame: CGRect(x: 0, y: 16, width: 16, height: 16))
                        let d = Layer(frame: CGRect(x: 48, y: 16, width: 16, height: 16))
                        c.backgroundColor = colour
                        d.backgroundColor = colour
                        root.addSublayer(c)
                        root.insertSublayer(d, at: 0)
                        pair = [c, d]
                    } else {
                        for layer in pair { layer.removeFromSuperlayer() }
                        pair = []
                    }
                }
                for layer in pair { layer.backgroundColor = colour }
                b.backgroundColor = colour
                Transaction.commit()
                flags.count(structural: structural)
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
        return thread
    }

    /// Checks one frame: A and B agree, and so do C and D (both there, in one colour, or both gone).
    func check(_ image: Image, frame: Int, renderer: String) -> Bool {
        let (a, b) = (image.rgba(x: 8, y: 8), image.rgba(x: 56, y: 8))
        let (c, d) = (image.rgba(x: 8, y: 24), image.rgba(x: 56, y: 24))
        let white = RGBA8(r: 255, g: 255, b: 255, a: 255)
        let pairAgrees = c == d && (c == white || c == a)
        #expect(a == b && pairAgrees, "\(renderer) frame \(frame): A \(a) B \(b) C \(c) D \(d)")
        return a == b && pairAgrees
    }

    func drawFrames(_ renderer: Renderer, count: Int) throws {
        let (root, a, b) = scene()
        let flags = Flags()
        let writer = startWriter(root: root, a: a, b: b, flags: flags)
        defer {
            flags.stop = true
            while !writer.isFinished { usleep(1000) }
        }
        var colours = Set<String>()
        for frame in 0..<count {
            let seen = flags.transactions
            let image = try renderer.render(root)
            guard check(image, frame: frame, renderer: renderer.name) else { return }
            colours.insert("\(image.rgba(x: 8, y: 8))")
            // Live frames of an unchanged tree take microseconds: give the writer a moment to commit between some
            // of them, so that frames and commits interleave.
            if frame % 4 == 0 {
                for _ in 0..<50 where flags.transactions == seen { usleep(100) }
            }
        }
        flags.stop = true
        while !writer.isFinished { usleep(1000) }
        // The writer ran alongside: the frames saw several of its transactions.
        #expect(flags.transactions > 0)
        #expect(colours.count > 1 || flags.transactions < 2, "\(renderer.name): every frame showed one colour")
    }

    @Test func noCPUFrameShowsHalfATransaction() throws {
        guard ReferenceScenes.renderers().contains(where: { $0.name == "cpu" }) else { return }
        try drawFrames(CPURenderer(), count: 300)
    }

    @Test func noGLESFrameShowsHalfATransaction() throws {
        guard ReferenceScenes.renderers().contains(where: { $0.name == "gles" }),
            let gles = GLESAvailability.renderer()
        else { return }
        try drawFrames(gles, count: 100)
    }

    /// Two renderers drawing one tree at different scales keep their own plans: neither evicts the other's.
    @Test func twoRenderersAtTwoScalesKeepTheirOwnPlans() throws {
        // Changes after a frame would animate implicitly; this test checks the frame right after them.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        let (root, a, _) = scene()
        let one = CPURenderer(), two = CPURenderer()
        for _ in 0..<3 {
            _ = try one.render(root, scale: 1)
            _ = try two.render(root, scale: 2)
        }
        #expect(one.planCache(for: root).statistics.subtreesReused == 1)
        #expect(two.planCache(for: root).statistics.subtreesReused == 1)
        #expect(one.planCache(for: root).statistics.layersPlanned == 0)
        a.backgroundColor = .blue
        let small = try one.render(root, scale: 1), large = try two.render(root, scale: 2)
        #expect(small.width == 64 && large.width == 128)
        #expect(small.rgba(x: 8, y: 8) == RGBA8(r: 0, g: 0, b: 255, a: 255))
        #expect(large.rgba(x: 16, y: 16) == RGBA8(r: 0, g: 0, b: 255, a: 255))
        // Each planned the changed layer again into its own last plan (patched in place: the root's own state and
        // its list of sublayers did not change), keeping the other leaf.
        #expect(one.planCache(for: root).statistics.layersPlanned == 1)
        #expect(two.planCache(for: root).statistics.layersPlanned == 1)
        #expect(one.planCache(for: root).statistics.subtreesReused == 1)
    }
}
