import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Specialised layers changed on other threads while frames are drawn (tools/tsan.sh runs this under
/// ThreadSanitizer): a frame shows a transaction's changes to a layer's style all or none, and pictures (Pango text
/// layout included) are made on several threads at once.
@Suite(.serialized) struct SpecialLayerConcurrencyTests {
    @Test func framesSeeWholeTransactionsOfStyleChanges() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 120, height: 120)
        let shapes = (0..<4).map { index -> ShapeLayer in
            let shape = ShapeLayer()
            shape.frame = CGRect(x: CGFloat(index) * 30, y: 0, width: 30, height: 120)
            var path = Path()
            path.move(to: CGPoint(x: 15, y: 0))
            path.addLine(to: CGPoint(x: 15, y: 120))
            shape.path = path.cgPath
            shape.strokeColor = .black
            shape.fillColor = nil
            // The invariant the writers keep: lineWidth = 100 x strokeEnd.
            shape.lineWidth = 100
            root.addSublayer(shape)
            return shape
        }
        let text = TextLayer()
        text.frame = CGRect(x: 0, y: 60, width: 120, height: 40)
        text.font = "DejaVu Sans"
        text.fontSize = 12
        root.addSublayer(text)
        Transaction.flush()
        let renderer = CPURenderer()
        _ = try renderer.render(root)
        let done = StopFlag()
        let writers = (0..<2).map { worker in
            Thread {
                var step = 0
                while !done.isSet {
                    step += 1
                    Transaction.begin()
                    Transaction.setDisableActions(true)
                    // Each shape's width is always 100 x its strokeEnd, within one transaction.
                    for shape in shapes[(worker * 2)..<(worker * 2 + 2)] {
                        let end = CGFloat(step % 100) / 100
                        shape.strokeEnd = end
                        shape.lineWidth = end * 100
                    }
                    if worker == 0 { text.string = "step \(step)" }
                    Transaction.commit()
                }
            }
        }
        for writer in writers { writer.start() }
        defer { done.set() }
        for _ in 0..<40 {
            _ = try renderer.render(root)
            let snapshot = try #require(root.presentationSnapshot(at: 0))
            for layer in snapshot.sublayers {
                guard let style = layer.state.shape else { continue }
                #expect(abs(style.lineWidth - style.strokeEnd * 100) < 1e-9,
                        "lineWidth \(style.lineWidth), strokeEnd \(style.strokeEnd)")
            }
        }
    }

    @Test func textIsLaidOutOnSeveralThreadsAtOnce() throws {
        let trees = (0..<3).map { index -> Layer in
            let root = Layer()
            root.bounds = CGRect(x: 0, y: 0, width: 200, height: 60)
            root.backgroundColor = .black
            for line in 0..<3 {
                let text = TextLayer()
                text.frame = CGRect(x: 0, y: CGFloat(line) * 20, width: 200, height: 20)
                text.font = "DejaVu Sans"
                text.fontSize = 14
                text.string = "Thread \(index) line \(line) שלום 日本"
                root.addSublayer(text)
            }
            return root
        }
        Transaction.flush()
        let results = ResultBox(count: trees.count)
        DispatchQueue.concurrentPerform(iterations: trees.count) { index in
            let renderer = CPURenderer()
            var ink = 0
            for round in 0..<5 {
                guard let image = try? renderer.render(trees[index], scale: 1 + CGFloat(round % 2)) else { return }
                ink = 0
                for y in 0..<image.height { for x in 0..<image.width where image.rgba(x: x, y: y).r > 128 { ink += 1 } }
            }
            results.set(index, ink)
        }
        for index in trees.indices { #expect(results.value(index) > 100, "tree \(index): \(results.value(index))") }
    }
}

/// A flag set once, read from any thread.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    func set() { lock.withLock { flag = true } }
    var isSet: Bool { lock.withLock { flag } }
}

/// One integer per index, written from any thread.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int]
    init(count: Int) { values = Array(repeating: 0, count: count) }
    func set(_ index: Int, _ value: Int) { lock.withLock { values[index] = value } }
    func value(_ index: Int) -> Int { lock.withLock { values[index] } }
}
