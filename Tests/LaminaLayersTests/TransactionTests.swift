import Foundation
import LaminaCore
import Testing

@testable import LaminaLayers

/// Transactions (Core Animation's CATransaction): what becomes visible to frames, and when.
@Suite struct TransactionTests {
    func layer(_ colour: Color = .red) -> Layer {
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        layer.backgroundColor = colour
        Transaction.flush()
        return layer
    }

    @Test func aLayerNeverCommittedHasNoPresentation() {
        let fresh = Layer()
        #expect(fresh.presentationSnapshot() == nil)
        fresh.opacity = 0.5
        #expect(fresh.presentationSnapshot() == nil)
        Transaction.flush()
        #expect(fresh.presentationSnapshot()?.opacity == 0.5)
    }

    @Test func anExplicitTransactionShowsAtItsCommitOnly() {
        let a = layer(), b = layer()
        Transaction.begin()
        a.backgroundColor = .blue
        b.backgroundColor = .blue
        // The model changed at once; frames still see the committed colours.
        #expect(a.backgroundColor == .blue)
        #expect(a.presentationSnapshot()?.backgroundColor == .red && b.presentationSnapshot()?.backgroundColor == .red)
        Transaction.commit()
        #expect(a.presentationSnapshot()?.backgroundColor == .blue && b.presentationSnapshot()?.backgroundColor == .blue)
    }

    @Test func nestedTransactionsCommitWithTheOutermost() {
        let a = layer()
        Transaction.begin()
        Transaction.begin()
        #expect(Transaction.nestingLevel == 2)
        a.position = CGPoint(x: 30, y: 40)
        Transaction.commit()
        #expect(a.presentationSnapshot()?.position == CGPoint(x: 5, y: 5))
        Transaction.commit()
        #expect(Transaction.nestingLevel == 0)
        #expect(a.presentationSnapshot()?.position == CGPoint(x: 30, y: 40))
    }

    @Test func implicitChangesShowAtTheNextFrame() throws {
        let root = layer(.white)
        let child = layer(.green)
        root.addSublayer(child)
        #expect(root.presentationSnapshot()?.sublayers.count == 0)
        let plan = try Planner().plan(root)
        #expect(plan.quads.count == 2)
        #expect(root.presentationSnapshot()?.sublayers.map(\.id) == [child.id])
    }

    @Test func structuralChangesLandTogether() {
        let first = layer(), second = layer(), moving = layer(.blue)
        first.addSublayer(moving)
        Transaction.flush()
        Transaction.begin()
        second.addSublayer(moving)
        let extra = Layer(frame: CGRect(x: 1, y: 1, width: 2, height: 2))
        extra.backgroundColor = .black
        second.addSublayer(extra)
        #expect(first.presentationSnapshot()?.sublayers.map(\.id) == [moving.id])
        #expect(second.presentationSnapshot()?.sublayers.isEmpty == true)
        Transaction.commit()
        #expect(first.presentationSnapshot()?.sublayers.isEmpty == true)
        #expect(second.presentationSnapshot()?.sublayers.map(\.id) == [moving.id, extra.id])
        // A layer new to the committed tree came with its whole model.
        #expect(second.presentationSnapshot()?.sublayers[1].backgroundColor == .black)
        #expect(second.presentationSnapshot()?.sublayers[1].bounds.size == CGSize(width: 2, height: 2))
    }

    @Test func aMaskChangeIsPartOfTheTransaction() {
        let owner = layer(), mask = layer(.black)
        Transaction.begin()
        owner.mask = mask
        #expect(owner.presentationSnapshot()?.mask == nil)
        Transaction.commit()
        #expect(owner.presentationSnapshot()?.mask?.id == mask.id)
    }

    @Test func settingsNestAndCompletionRunsAfterTheCommit() throws {
        #expect(Transaction.disableActions() == false && Transaction.animationDuration() == 0.25)
        #expect(Transaction.animationTimingFunction() == nil)
        Transaction.begin()
        Transaction.setAnimationTimingFunction(MediaTimingFunction(name: .easeIn))
        #expect(Transaction.animationTimingFunction() == MediaTimingFunction(name: .easeIn))
        Transaction.commit()
        #expect(Transaction.animationTimingFunction() == nil)
        final class Box: @unchecked Sendable {
            let lock = NSLock()
            var list: [String] = []
            var calls: [String] {
                get { lock.withLock { list } }
                set { lock.withLock { list = newValue } }
            }
        }
        let box = Box()
        let a = layer()
        Transaction.begin()
        Transaction.setAnimationDuration(2)
        Transaction.setCompletionBlock { box.calls.append("outer") }
        Transaction.begin()
        Transaction.setDisableActions(true)
        #expect(Transaction.disableActions() && Transaction.animationDuration() == 2)
        Transaction.setCompletionBlock { box.calls.append("inner") }
        a.opacity = 0.25
        Transaction.commit()
        #expect(Transaction.disableActions() == false && Transaction.animationDuration() == 2)
        #expect(box.calls.isEmpty)
        Transaction.commit()
        // The blocks run after the commit, never inside it: on the main queue or in the next frame, whichever comes
        // first (this test's thread is not the main thread, which may run them any time now).
        _ = try Planner().plan(a)
        let deadline = Date() + 10
        while box.calls.count < 2, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        #expect(box.calls == ["outer", "inner"] || box.calls == ["inner", "outer"])
        #expect(a.presentationSnapshot()?.opacity == 0.25)
        Transaction.setValue("x", forKey: "custom")
        #expect(Transaction.value(forKey: "custom") as? String == "x")
        Transaction.flush()
        #expect(Transaction.value(forKey: "custom") == nil)
    }

    @Test func aThreadThatEndsCommitsWhatItChanged() {
        let a = layer()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            a.backgroundColor = .blue
            Transaction.begin()
            a.opacity = 0.5
            done.signal()
        }
        thread.start()
        done.wait()
        while !thread.isFinished { usleep(1000) }
        // The thread-local state is torn down just after the thread finishes: wait for it briefly.
        var tries = 0
        while a.presentationSnapshot()?.opacity != 0.5, tries < 1000 {
            usleep(1000)
            tries += 1
        }
        #expect(a.presentationSnapshot()?.backgroundColor == .blue && a.presentationSnapshot()?.opacity == 0.5)
    }

    @Test func aChangeOfAnotherThreadIsCommittedByTheNextFrame() throws {
        let root = layer(.white)
        Thread.detachNewThread { root.backgroundColor = .blue }
        var tries = 0
        while root.backgroundColor != .blue, tries < 1000 {
            usleep(1000)
            tries += 1
        }
        // The other thread may still be alive, its implicit transaction open: a frame commits it.
        let plan = try Planner().plan(root)
        guard case .solid(let colour) = plan.quads.first?.paint else {
            Issue.record("no background quad")
            return
        }
        #expect(colour == Color.blue.premultiplied)
    }

    /// A frame that commits this thread's implicit transaction (the tree as set up) while another thread's explicit
    /// transaction is open on the same layers commits the values this thread set, not that thread's: no half of the
    /// other transaction shows.
    @Test func committingOneThreadNeverCommitsAnotherThreadsOpenTransaction() throws {
        // Changes after a frame would animate implicitly; this test checks the frame right after them.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 20, height: 10))
        let a = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        let b = Layer(frame: CGRect(x: 10, y: 0, width: 10, height: 10))
        a.backgroundColor = .red
        b.backgroundColor = .red
        root.sublayers = [a, b]
        let opened = DispatchSemaphore(value: 0), resume = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            Transaction.begin()
            Transaction.setDisableActions(true)
            a.backgroundColor = .blue
            opened.signal()
            resume.wait()
            b.backgroundColor = .blue
            Transaction.commit()
            done.signal()
        }
        opened.wait()
        _ = try Planner().plan(root)  // commits this thread's implicit transaction: the whole tree
        let during = try #require(root.presentationSnapshot())
        #expect(during.sublayers.map(\.backgroundColor) == [.red, .red])
        resume.signal()
        done.wait()
        let after = try #require(root.presentationSnapshot())
        #expect(after.sublayers.map(\.backgroundColor) == [.blue, .blue])
    }

    /// A value set first but committed last does not overwrite a later one already committed: here this thread's
    /// implicit change, committed by a frame after another thread committed a newer value of the same property.
    @Test func aStaleImplicitChangeCommittedLastKeepsTheNewerValue() throws {
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 20, height: 10))
        let a = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        root.sublayers = [a]
        a.backgroundColor = .red
        a.opacity = 0.5
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            Transaction.begin()
            a.backgroundColor = .blue
            Transaction.commit()
            done.signal()
        }
        done.wait()
        #expect(a.backgroundColor == .blue)
        _ = try Planner().plan(root)  // commits this thread's implicit transaction, made before the other's
        let shown = try #require(a.presentationSnapshot())
        #expect(shown.backgroundColor == .blue)
        #expect(shown.opacity == 0.5)  // the implicit transaction's other change is committed
    }

    @Test func aLayerLetGoBeforeTheCommitIsNotKeptAlive() {
        weak var weakLayer: Layer?
        do {
            let temporary = Layer()
            temporary.opacity = 0.5
            weakLayer = temporary
        }
        #expect(weakLayer == nil)
        Transaction.flush()
    }

    @Test func snapshotsShareUnchangedSubtrees() {
        // Changes after a frame would animate implicitly; this test checks the frame right after them.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        let root = layer(.white)
        let left = layer(), right = layer()
        root.sublayers = [left, right]
        Transaction.flush()
        let before = root.presentationSnapshot()!
        #expect(root.presentationSnapshot()! === before)
        Transaction.begin()
        Transaction.setDisableActions(true)
        right.opacity = 0.5
        Transaction.commit()
        let after = root.presentationSnapshot()!
        #expect(after !== before)
        #expect(after.sublayers[0] === before.sublayers[0])
        #expect(after.sublayers[1] !== before.sublayers[1] && after.sublayers[1].opacity == 0.5)
        // The old snapshot is a value: it still shows what it showed.
        #expect(before.sublayers[1].opacity == 1)
    }

    @Test func aWideLayersSublayersAreSnapshotInChunks() {
        // 5,000 sublayers (past `snapshotChunkMinimum` twice): their leaves are made on every core, the branches
        // (every seventh has a sublayer, every eleventh a mask) walked on this thread. The snapshot must be the one a
        // walk on one thread makes: every value, every unchanged subtree shared.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        let root = layer()
        var inner: [Int: Layer] = [:]
        for index in 0..<5_000 {
            let child = layer()
            child.opacity = Float(index % 100) / 100
            if index.isMultiple(of: 7) {
                let grandchild = layer(.red)
                child.addSublayer(grandchild)
                inner[index] = grandchild
            }
            if index.isMultiple(of: 11) { child.mask = layer(.blue) }
            root.addSublayer(child)
        }
        Transaction.flush()
        let first = root.presentationSnapshot()!
        #expect(first.sublayers.count == 5_000)
        #expect(first.sublayers.indices.allSatisfy { first.sublayers[$0].opacity == Float($0 % 100) / 100 })
        #expect(first.sublayers.indices.allSatisfy { first.sublayers[$0].id == root.sublayers![$0].id })
        #expect(first.sublayers.indices.allSatisfy {
            first.sublayers[$0].sublayers.map(\.id) == (inner[$0].map { [$0.id] } ?? [])
                && (first.sublayers[$0].mask != nil) == $0.isMultiple(of: 11)
        })
        // Every third sublayer faded, every fifth branch's sublayer recoloured, one sublayer added at the end.
        Transaction.begin()
        Transaction.setDisableActions(true)
        for (index, child) in root.sublayers!.enumerated() where index.isMultiple(of: 3) { child.opacity = 0.25 }
        for (index, grandchild) in inner where index.isMultiple(of: 5) { grandchild.backgroundColor = .green }
        root.addSublayer(layer(.white))
        Transaction.commit()
        let second = root.presentationSnapshot()!
        #expect(second.sublayers.count == 5_001)
        for index in 0..<5_000 {
            let (old, new) = (first.sublayers[index], second.sublayers[index])
            let faded = index.isMultiple(of: 3), recoloured = index.isMultiple(of: 35)
            #expect((old === new) == (!faded && !recoloured), "sublayer \(index)")
            #expect(new.opacity == (faded ? 0.25 : Float(index % 100) / 100), "sublayer \(index)")
            if let kid = new.sublayers.first {
                #expect(kid.backgroundColor == (recoloured ? .green : .red), "sublayer \(index)")
                #expect((kid === old.sublayers.first) == !recoloured, "sublayer \(index)")
            }
            if index.isMultiple(of: 11) { #expect(new.mask === old.mask, "sublayer \(index)") }
        }
        #expect(second.sublayers[5_000].backgroundColor == .white)
        // The old snapshot still shows what it showed.
        #expect(first.sublayers[3].opacity == 0.03)
    }

    @Test func aDeepChainSnapshotsAndReleasesWithoutRecursion() {
        let root = layer()
        var node = root
        for _ in 0..<20_000 {
            let child = Layer()
            node.addSublayer(child)
            node = child
        }
        Transaction.flush()
        var snapshot: LayerSnapshot? = root.presentationSnapshot()
        var depth = 0
        var walker = snapshot
        while let current = walker {
            depth += 1
            walker = current.sublayers.first
        }
        #expect(depth == 20_001)
        snapshot = nil
        #expect(snapshot == nil)
    }
}
