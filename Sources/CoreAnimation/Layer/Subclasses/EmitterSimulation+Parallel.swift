import Dispatch
import Foundation

/// The births of one large cell without sub-cells computed on all cores. Each particle is a pure
/// function of (seed, cell, number, t) (`EmitterSimulation.born`), so the numbers kLo…k are cut
/// into contiguous runs, each run's particles are computed on its own thread into its own array,
/// and the arrays are appended in the serial loop's order (youngest number first): the result
/// is the serial loop's, particle for particle, whatever the number of cores. On a real GPU the
/// simulation of 100,000 particles on one core was most of the frame (docs/PERFORMANCE.md).
extension EmitterSimulation {
    /// Births below this many are simulated on the calling thread (thread start-up would cost
    /// more than it saves).
    static let parallelBirths = 16_384

    /// Emits particles kLo…k of `node` (no sub-cells) in parallel when there are enough of them,
    /// the candidate cap cannot be reached, and there is more than one core; false when it did
    /// nothing (the caller runs the serial loop).
    mutating func emitInParallel(node: Int, tree: EmitterCellTree, src: EmitterSnapshot, start: Double, rate: Double,
                                 from k: Double, to kLo: Double, cellKey: UInt64, window: (Double, Double),
                                 origin: Origin?, at t: Double) -> Bool {
        let count = k - kLo + 1
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard cores > 1, count >= Double(Self.parallelBirths), Double(candidates) + count <= Double(Self.maxCandidates),
              particles.count < Self.maxParticles else { return false }
        let total = Int(count)
        let runs = min(cores * 2, max(total / 4096, 1))
        let per = (total + runs - 1) / runs
        var results = [[EmitterParticle]](repeating: [], count: runs)
        let values = src.values[node]
        nonisolated(unsafe) let state = src.state
        let current = currentIndex[tree.nodes[node].pathKey]
        let windowStart = window.0
        results.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let out = buffer.baseAddress!
            DispatchQueue.concurrentPerform(iterations: runs) { r in
                var mine: [EmitterParticle] = []
                mine.reserveCapacity(per)
                let first = r * per, last = min(total, first + per)
                var i = first
                while i < last {
                    // The serial loop's i-th number: k, k − 1, …
                    let n = k - Double(i)
                    let birth = start + n / rate
                    let key = EmitterHash.mix(cellKey &+ UInt64(n))
                    if let p = Self.born(values, state, current: current, birth: birth, key: key, windowStart: windowStart,
                                         origin: origin, at: t)?.particle {
                        mine.append(p)
                    }
                    i += 1
                }
                out[r] = mine
            }
        }
        candidates += total
        let space = Self.maxParticles - particles.count
        let made = results.reduce(0) { $0 + $1.count }
        particles.reserveCapacity(particles.count + min(made, space))
        for run in results {
            let room = Self.maxParticles - particles.count
            if run.count > room {
                particles.append(contentsOf: run.prefix(room))
                capped = true
                break
            }
            particles.append(contentsOf: run)
        }
        return true
    }
}
