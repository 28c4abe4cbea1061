import Testing
import Foundation
import Synchronization
@testable import CASoftware

/// The threads that run a draw pass's bands (`SoftwareBandPool`, issue 23): every band of every
/// pass exactly once, however the passes follow one another, workers that wait for the next
/// pass, and threads that end with their pool.
@Suite struct SoftwareBandPoolTests {
    /// Counts per band, written from any thread.
    final class Hits: @unchecked Sendable {
        let lock = NSLock()
        var counts: [Int]
        init(_ n: Int) { counts = Array(repeating: 0, count: n) }
        func hit(_ b: Int) { lock.lock(); counts[b] += 1; lock.unlock() }
    }

    @Test("every band of every pass runs once, passes back to back", arguments: [1, 3])
    func everyBandOnce(workers: Int) {
        let pool = SoftwareBandPool(workers: workers)
        var rng = SystemRandomNumberGenerator()
        for pass in 0..<3_000 {
            let bands = Int.random(in: 0...17, using: &rng)
            let hits = Hits(bands)
            pool.run(bands: bands) { b in
                // Uneven work, so bands finish out of order.
                var x = 0
                if b % 3 == 0 { for i in 0..<(b * 50) { x &+= i &* i } }
                if x == -1 { Issue.record("unreachable") }
                hits.hit(b)
            }
            // `run` returned: every band has run, once.
            if hits.counts.contains(where: { $0 != 1 }) {
                Issue.record("pass \(pass), \(bands) bands: \(hits.counts)")
                return
            }
        }
    }

    @Test("a pass started from one of a pass's bands runs its bands on that thread, once each")
    func nestedPassRunsInline() {
        let pool = SoftwareBandPool(workers: 2)
        let outer = Hits(8)
        let inner = Hits(8 * 5)
        pool.run(bands: 8) { b in
            let me = Thread.current
            pool.run(bands: 5) { k in
                #expect(Thread.current == me)
                inner.hit(b * 5 + k)
            }
            outer.hit(b)
        }
        #expect(outer.counts.allSatisfy { $0 == 1 } && inner.counts.allSatisfy { $0 == 1 }, "\(outer.counts) \(inner.counts)")
    }

    @Test("renderers share the process's pool; passes from two threads at once each run every band once")
    func sharedPoolFromTwoThreads() {
        #expect(SoftwareBandPool.shared(workers: 3) === SoftwareBandPool.shared(workers: 3))
        #expect(SoftwareBandPool.shared(workers: 3) !== SoftwareBandPool.shared(workers: 2))
        #expect(SoftwareRenderer(threads: 4).bandPool === SoftwareRenderer(threads: 4).bandPool)
        let pool = SoftwareBandPool.shared(workers: 3)
        let failures = Hits(1)
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<500 {
                let hits = Hits(13)
                pool.run(bands: 13) { hits.hit($0) }
                if hits.counts.contains(where: { $0 != 1 }) { failures.hit(0) }
            }
        }
        #expect(failures.counts == [0], "\(failures.counts[0]) passes ran a band other than once")
    }

    @Test("at most two workers wait for the next pass; the others sleep")
    func fewWorkersWait() {
        let pool = SoftwareBandPool(workers: 5)
        var most = 0
        for _ in 0..<200 {
            pool.run(bands: 24) { _ in usleep(20) }
            for _ in 0..<20 { most = max(most, pool.shared.lingering.load(ordering: .relaxed)); usleep(10) }
        }
        #expect(most >= 1 && most <= SoftwareBandPool.lingeringWorkers, "\(most) workers waited at once")
    }

    @Test("a worker that has run out of bands waits for the next pass, and the threads end with the pool")
    func workersWaitThenEnd() {
        var pool: SoftwareBandPool? = SoftwareBandPool(workers: 2)
        let hits = Hits(6)
        pool!.run(bands: 6) { hits.hit($0) }
        #expect(hits.counts == [1, 1, 1, 1, 1, 1])
        // (Polled: the workers reach their wait as the scheduler runs them.)
        var waiting = false
        for _ in 0..<200 where !waiting {
            pool!.run(bands: 2) { _ in }
            waiting = pool!.shared.lingering.load(ordering: .relaxed) > 0
            if !waiting { usleep(100) }
        }
        #expect(waiting, "no worker waits for the next pass")
        let shared = pool!.shared
        pool = nil
        for _ in 0..<5_000 where shared.ended.load(ordering: .acquiring) < 2 { usleep(1_000) }
        #expect(shared.ended.load(ordering: .acquiring) == 2, "\(shared.ended.load(ordering: .acquiring)) of 2 worker threads ended")
    }
}
