import Foundation
import Synchronization
import Testing
@testable import CoreAnimation

/// Layers changed on one thread while another thread steps their animations (issue 17 item 3).
///
/// Apple: Core Animation "uses a data model that promises not to corrupt the internal data
/// structures when called from multiple threads concurrently" (discussion of
/// `CATransaction.lock()`). Before `CrossThreadMutation`, a property set, a sublayer change or an
/// added animation on thread B wrote what thread A's frame step was reading (model timing, the
/// sublayer lists, animation records, committed copies): a data race under TSan, and crashes in
/// the sublayer arrays.
@Suite struct CrossThreadMutationTests {
    static func endless(_ key: String, to value: Any = 1) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: key)
        a.fromValue = 0
        a.toValue = value
        a.duration = 0.5
        a.repeatCount = .infinity
        return a
    }

    /// A tree built and animated on thread A, then stepped by A without pause.
    final class Stepper: @unchecked Sendable {
        let root = CALayer()
        var leaves: [CALayer] = []
        let steps = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        let ready = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)

        func start() {
            let t = Thread { [self] in
                for i in 0..<24 {
                    let l = CALayer()
                    l.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
                    l.add(CrossThreadMutationTests.endless(i % 2 == 0 ? "opacity" : "position.x", to: 100), forKey: "k")
                    root.addSublayer(l)
                    leaves.append(l)
                }
                root.add(CrossThreadMutationTests.endless("opacity"), forKey: "r")
                CATransaction.flush()
                ready.signal()
                var time = 1000.0
                while !stop.load(ordering: .acquiring) {
                    time += 0.004
                    TimingEngine.step(to: time)
                    // What a renderer on this thread reads of each layer after the step, held
                    // as `CARenderer` holds its build.
                    let stack = TransactionStack.current
                    stack.noteRendersLayers()
                    stack.beginSetUse()
                    for l in root.sublayers ?? [] { _ = l.renderCopy.state.opacity }
                    stack.endSetUse()
                    steps.add(1, ordering: .relaxed)
                }
                CATransaction.flush()
                done.signal()
            }
            t.start()
            ready.wait()
        }

        func finish() { stop.store(true, ordering: .releasing); done.wait() }
    }

    @Test("issue 17 item 3: properties, timing, sublayers and animations of layers another thread steps, changed here (CATransaction.lock discussion)")
    func changesWhileAnotherThreadSteps() {
        let a = Stepper()
        a.start()
        let leaves = a.leaves
        let rounds = 300
        for r in 0..<rounds {
            let l = leaves[r % leaves.count]
            l.position = CGPoint(x: Double(r), y: 1)
            l.opacity = Float(r % 10) / 10
            // Timing the step reads for the layer's local time (C1).
            l.timeOffset = Double(r % 7) * 0.01
            l.speed = r % 5 == 0 ? 2 : 1
            _ = l.presentation()
            if r % 3 == 0 {
                // A sublayer added to and removed from a tree A walks.
                let extra = CALayer()
                l.addSublayer(extra)
                if r % 2 == 0 { extra.removeFromSuperlayer() }
            }
            if r % 11 == 0 {
                // An animation moved to this thread and removed again.
                l.add(Self.endless("bounds.size.width", to: 20), forKey: "w")
                l.removeAnimation(forKey: "w")
            }
            if r % 13 == 0 { a.root.sublayerTransform = CATransform3DMakeScale(1, 1, 1) }
            CATransaction.flush()
        }
        // The step kept running meanwhile, and every change is in the model.
        #expect(a.steps.load(ordering: .relaxed) > 0)
        a.finish()
        for (i, l) in leaves.enumerated() {
            let last = (0..<rounds).last { $0 % leaves.count == i }!
            #expect(l.position == CGPoint(x: Double(last), y: 1))
            #expect(l.opacity == Float(last % 10) / 10)
            #expect(l.superlayer === a.root)
        }
    }

    @Test("CATransaction.lock(): no other thread steps until unlock(), and unlock() without lock() is ignored (K3)")
    func transactionLockExcludesSteps() {
        let a = Stepper()
        a.start()
        while a.steps.load(ordering: .relaxed) < 3 { sched_yield() }
        CATransaction.lock()
        CATransaction.lock()                 // recursive on one thread
        let before = a.steps.load(ordering: .relaxed)
        for _ in 0..<20 { usleep(1000); sched_yield() }
        let during = a.steps.load(ordering: .relaxed)
        CATransaction.unlock()
        let stillLocked = a.steps.load(ordering: .relaxed)
        CATransaction.unlock()
        CATransaction.unlock()               // unmatched: ignored
        while a.steps.load(ordering: .relaxed) < during + 3 { sched_yield() }
        a.finish()
        // A step that had begun before the lock was granted may still count itself once.
        #expect(during - before <= 1)
        #expect(stillLocked - before <= 1)
    }

    @Test("a commit on another thread reaches the commit log of the thread that renders the tree, and only that tree's layers do")
    func commitsElsewhereReachTheRenderingThread() {
        let root = CALayer(), leaf = CALayer(), stranger = CALayer()
        root.addSublayer(leaf)
        CATransaction.flush()
        // What `CARenderer` does on the thread that renders `root`.
        let me = TransactionStack.current
        me.noteRendersLayers()
        root.renderingStack = me
        me.absorbForeignCommits()
        let g0 = me.commitGeneration
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let (l, s) = (leaf, stranger)
        let other = Thread {
            l.opacity = 0.5
            s.opacity = 0.5
            CATransaction.flush()
            done.signal()
        }
        other.start()
        done.wait()
        #expect(me.commitGeneration == g0)      // not yet: the renderer absorbs at its next frame
        me.absorbForeignCommits()
        #expect(me.commitGeneration > g0)
        let changed = TimingEngine.layersCommitted(since: g0) ?? []
        #expect(changed.contains(ObjectIdentifier(leaf)))
        #expect(!changed.contains(ObjectIdentifier(stranger)))
    }
}
