import Foundation
import LaminaCore
import LaminaLayers
import Testing

/// `ModelChanges`: what wakes a sleeping frame loop. Part of the ThreadSanitizer run (tools/tsan.sh): commits on
/// several threads notify an observer that counts.
@Suite(.serialized) struct TransactionModelChangesTests {
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func add() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }
    }

    // Other suites commit on their own threads meanwhile, and observers see every commit: the counts are lower
    // bounds, except after `cancel()`, when nothing may arrive at all.
    @Test func commitsAndFirstImplicitChangesNotifyUntilCancelled() {
        let layer = Layer()
        Transaction.flush()
        let counter = Counter()
        let observation = ModelChanges.observe { counter.add() }
        // An explicit transaction that changes something: one notification at its commit.
        Transaction.begin()
        layer.opacity = 0.5
        Transaction.commit()
        #expect(counter.count >= 1)
        // An implicit change: one when the thread first has one pending (so a sleeping loop wakes to commit it).
        let before = counter.count
        layer.opacity = 0.25
        #expect(counter.count >= before + 1)
        Transaction.flush()
        observation.cancel()
        let cancelled = counter.count
        Transaction.begin()
        layer.opacity = 1
        Transaction.commit()
        #expect(counter.count == cancelled)
    }

    @Test func commitsOnManyThreadsEachNotify() async {
        let layers = (0..<4).map { _ in Layer() }
        Transaction.flush()
        let counter = Counter()
        let observation = ModelChanges.observe { counter.add() }
        await withTaskGroup(of: Void.self) { group in
            for (index, layer) in layers.enumerated() {
                group.addTask {
                    for step in 0..<50 {
                        Transaction.begin()
                        layer.position = CGPoint(x: Double(step), y: Double(index))
                        Transaction.commit()
                    }
                }
            }
        }
        #expect(counter.count >= 200)
        observation.cancel()
    }
}
