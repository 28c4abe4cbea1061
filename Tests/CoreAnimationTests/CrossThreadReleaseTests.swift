import Foundation
import Synchronization
import Testing
@testable import CoreAnimation

/// Layers released on another thread than the one stepping their animations (issue 17 item 3).
///
/// Transactions and the frame step are per thread (docs/BEHAVIOUR.md K5): the thread that adds an
/// animation steps it. Apple lets a layer be created, changed and released on any thread, so a
/// layer (or the tree holding it) whose animations thread A steps may lose its last reference on
/// thread B at any moment of A's step. Before the fix B's `deinit` edited A's animated-layer set
/// while A walked it, and A read layers B had freed: the process crashed within a few hundred
/// releases (SIGSEGV in `AnimatedLayerSet.remove`/`compactIfSparse`).
@Suite struct CrossThreadReleaseTests {
    /// Counts the deinits of the layers these tests make, so a test can tell when all are gone.
    final class CountedLayer: CALayer {
        let counter: Counter
        init(counter: Counter) { self.counter = counter; super.init() }
        required init(layer: Any) { counter = (layer as! CountedLayer).counter; super.init(layer: layer) }
        required init?(coder: NSCoder) { nil }
        deinit { if !isPresentationCopy { counter.value.add(1, ordering: .relaxed) } }
    }

    final class Counter: Sendable { let value = Atomic<Int>(0) }

    /// Layers passed from the stepping thread to the releasing one (the only references).
    final class Handoff: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [CALayer] = []
        let producerDone = Atomic<Bool>(false)
        func push(_ l: CALayer) { lock.withLock { items.append(l) } }
        /// Drops every layer handed over so far, here, on the calling thread.
        func dropAll() {
            var taken: [CALayer] = lock.withLock { defer { items = [] }; return items }
            taken.removeAll()
        }
    }

    static func endless(_ key: String) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: key)
        a.fromValue = 0
        a.toValue = 1
        a.duration = 0.5
        a.repeatCount = .infinity
        return a
    }

    /// Runs `produce` on a thread A that steps its animations between productions and keeps
    /// stepping while thread B drops what A handed over; returns what A saw at the end.
    static func run(rounds: Int, produce: @escaping @Sendable (Int, Handoff) -> Void) -> (stillAnimated: Int, steps: Int) {
        let handoff = Handoff()
        let result = Mutex<(Int, Int)>((-1, 0))
        let aDone = DispatchSemaphore(value: 0), bDone = DispatchSemaphore(value: 0)
        let a = Thread {
            // Layers A keeps for itself, animated too: the set is large enough to compact, and
            // the step has blocks (the table path) as well as per-layer work.
            var own: [CALayer] = []
            for i in 0..<40 {
                let l = CALayer()
                l.add(endless(i % 2 == 0 ? "opacity" : "position.x"), forKey: "k")
                own.append(l)
            }
            CATransaction.flush()
            var t = 1000.0, steps = 0
            for r in 0..<rounds {
                produce(r, handoff)
                CATransaction.flush()
                for _ in 0..<3 { t += 0.004; TimingEngine.step(to: t); steps += 1 }
            }
            handoff.producerDone.store(true, ordering: .releasing)
            // Keep stepping while B releases the rest.
            while bDone.wait(timeout: .now()) == .timedOut { t += 0.004; TimingEngine.step(to: t); steps += 1 }
            t += 0.004; TimingEngine.step(to: t); steps += 1
            let still = TimingEngine.animatedLayers().count - own.count
            result.withLock { $0 = (still, steps) }
            own.removeAll()
            CATransaction.flush()
            aDone.signal()
        }
        let b = Thread {
            while !handoff.producerDone.load(ordering: .acquiring) {
                handoff.dropAll()
                sched_yield()
            }
            handoff.dropAll()
            bDone.signal()
        }
        a.start(); b.start()
        aDone.wait()
        return result.withLock { $0 }
    }

    @Test("issue 17 item 3: an animated layer's last reference dropped on another thread while its thread steps (K5)")
    func animatedLayerReleasedElsewhere() {
        let counter = Counter()
        let rounds = 400
        let seen = Self.run(rounds: rounds) { r, handoff in
            let l = CountedLayer(counter: counter)
            l.add(Self.endless(r % 2 == 0 ? "opacity" : "bounds.size.width"), forKey: "a")
            handoff.push(l)
        }
        // Every handed-over layer was freed (on B), and A's step no longer holds any of them.
        #expect(counter.value.load(ordering: .relaxed) == rounds)
        #expect(seen.stillAnimated == 0)
        #expect(seen.steps >= 3 * rounds)
    }

    @Test("issue 17 item 3: a tree whose sublayers are animated, released on another thread while its thread steps")
    func animatedTreeReleasedElsewhere() {
        let counter = Counter()
        let rounds = 200
        let seen = Self.run(rounds: rounds) { r, handoff in
            // A plain root over an animated parent over animated leaves, and an animated mask:
            // the step reads each animated layer's superlayer chain (its local time, C1).
            let root = CountedLayer(counter: counter)
            let mid = CountedLayer(counter: counter)
            mid.add(Self.endless("opacity"), forKey: "m")
            root.addSublayer(mid)
            for k in 0..<3 {
                let leaf = CountedLayer(counter: counter)
                leaf.timeOffset = Double(k) * 0.1
                leaf.add(Self.endless(k % 2 == 0 ? "position.y" : "opacity"), forKey: "l")
                mid.addSublayer(leaf)
            }
            let mask = CountedLayer(counter: counter)
            mask.add(Self.endless("opacity"), forKey: "k")
            root.mask = mask
            if r % 3 == 0 { root.speed = 2 }
            handoff.push(root)
        }
        #expect(counter.value.load(ordering: .relaxed) == rounds * 6)
        #expect(seen.stillAnimated == 0)
    }
}
