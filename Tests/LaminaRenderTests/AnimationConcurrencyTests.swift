import Foundation
import Lamina
@testable import LaminaLayers
import LaminaTestSupport
import Testing

/// Animations added and properties animated from another thread while frames are drawn: every frame shows whole
/// transactions, animated alike. tools/tsan.sh runs this suite under ThreadSanitizer.
@Suite struct AnimationConcurrencyTests {
    final class Stop: @unchecked Sendable {
        private let lock = NSLock()
        private var flag = false
        private var count = 0
        var stopped: Bool {
            get { lock.withLock { flag } }
            set { lock.withLock { flag = newValue } }
        }
        func committed() { lock.withLock { count += 1 } }
        var transactions: Int { lock.withLock { count } }
    }

    @Test(arguments: ReferenceScenes.renderers().map(\.name))
    func framesShowWholeAnimatedTransactions(_ name: String) throws {
        let renderer = try #require(ReferenceScenes.renderers().first { $0.name == name })
        let root = Layer(), a = Layer(), b = Layer()
        Transaction.begin()
        Transaction.setDisableActions(true)
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 16)
        root.backgroundColor = .white
        a.frame = CGRect(x: 0, y: 0, width: 16, height: 16)
        b.frame = CGRect(x: 48, y: 0, width: 16, height: 16)
        a.backgroundColor = .red
        b.backgroundColor = .red
        root.sublayers = [a, b]
        Transaction.commit()
        _ = try renderer.render(root, at: 0)  // drawn: changes animate from now on
        let stop = Stop()
        let palette: [Color] = [.red, .green, .blue, .cyan, .magenta]
        let writer = Thread {
            var step = 0
            while !stop.stopped {
                step += 1
                Transaction.begin()
                Transaction.setValue(Double(step) / 100, forKey: Transaction.Key.mediaTime)
                Transaction.setAnimationDuration(0.5)
                // Implicit animations of both colours, and an explicit one of both opacities: all in one transaction.
                a.backgroundColor = palette[step % palette.count]
                b.backgroundColor = palette[step % palette.count]
                let fade = BasicAnimation(keyPath: "opacity")
                fade.fromValue = 0.5
                fade.toValue = 1.0
                fade.duration = 0.3
                a.add(fade, forKey: "fade")
                b.add(fade, forKey: "fade")
                Transaction.commit()
                stop.committed()
            }
        }
        writer.stackSize = 1 << 20
        writer.start()
        defer {
            stop.stopped = true
            while !writer.isFinished { usleep(1000) }
        }
        while stop.transactions == 0 { usleep(100) }  // frames race the writer from its first transaction on
        for frame in 0..<(name == "cpu" ? 150 : 60) {
            let image = try renderer.render(root, at: Double(frame) / 60)
            let (left, right) = (image.rgba(x: 8, y: 8), image.rgba(x: 56, y: 8))
            #expect(left == right, "\(name) frame \(frame): \(left) \(right)")
            if left != right { break }
        }
        stop.stopped = true
        while !writer.isFinished { usleep(1000) }
        #expect(stop.transactions > 0)
    }
}
