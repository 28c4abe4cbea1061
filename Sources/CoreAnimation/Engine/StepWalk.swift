/// The pieces of the frame step's walk over the animated layers (`TimingEngine.step`).

/// Local times of parents during one step: siblings share their parent's local time, so it is
/// computed once per run of siblings rather than once per layer (C1 applied from the root).
struct ParentTimeCache {
    let mediaTime: Double
    private var parent: UnsafeMutableRawPointer? = nil
    private var parentTime = 0.0

    init(mediaTime: Double) { self.mediaTime = mediaTime }

    /// `layer`'s local time at this step's media time.
    @inline(__always)
    mutating func localTime(of layer: CALayer) -> Double {
        // The parent's address, not a reference: siblings would otherwise each retain and
        // release the same parent.
        guard let id = unsafeBitCast(layer._superlayer, to: UnsafeMutableRawPointer?.self) else {
            return layer.localTime(parentTime: mediaTime)
        }
        if id != parent {
            parent = id
            parentTime = Unmanaged<CALayer>.fromOpaque(id)._withUnsafeGuaranteedRef { $0.localTime(fromMedia: mediaTime) }
        }
        return layer.localTime(parentTime: parentTime)
    }
}

/// Callbacks found during a step, run after it in the order of the media time at which each
/// happened, ties in the order found.
struct EventQueue {
    private var items: [(time: Double, seq: Int, run: () -> Void)] = []

    mutating func add(_ time: Double, _ run: @escaping () -> Void) { items.append((time, items.count, run)) }

    func sorted() -> [() -> Void] {
        items.sorted { $0.time != $1.time ? $0.time < $1.time : $0.seq < $1.seq }.map(\.run)
    }
}

extension AnimatedLayerSet {
    /// How many members ahead `runBlocks` touches (enough misses in flight at once to cover
    /// the memory latency; 4–16 measured alike).
    static let lookahead = 8

    /// Evaluates members `start..<end` into the `StepTable` for as long as each has a current
    /// block and no event due; returns the position of the first member that needs the
    /// per-layer path (`end` when none does). Holes are skipped. No callback can run in here,
    /// so the layers are used unretained and the arrays through pointers.
    mutating func runBlocks(from start: Int, to end: Int, step: UInt64, parents: inout ParentTimeCache) -> Int {
        entries.withUnsafeMutableBufferPointer { es in
            table.tracks.withUnsafeBufferPointer { tracks in
                table.outputs.withUnsafeMutableBufferPointer { outputs in
                    table.groups.withUnsafeMutableBufferPointer { groups in
                        table.keyData.withUnsafeBufferPointer { keys in
                            var i = start
                            var sink = 0
                            defer { lookaheadSink = sink }
                            while i < end {
                                // Touch the layer a few places ahead, so its lines are on their
                                // way while this one is evaluated (Swift has no prefetch; the
                                // loaded value only feeds `lookaheadSink`).
                                if i + Self.lookahead < end, let ahead = es[i + Self.lookahead].layer {
                                    sink &+= ahead._withUnsafeGuaranteedRef {
                                        Int(bitPattern: unsafeBitCast($0._superlayer, to: UnsafeMutableRawPointer?.self))
                                            &+ Int($0.state.timing.speed.bitPattern)
                                    }
                                }
                                guard let u = es[i].layer else { i += 1; continue }
                                guard let block = es[i].block else { return i }
                                let done = u._withUnsafeGuaranteedRef { layer -> Bool in
                                    guard block.isCurrent(for: layer) else { return false }
                                    let tl = parents.localTime(of: layer)
                                    guard tl < block.nextEventTime else { return false }
                                    StepTable.evaluate(block, localTime: tl, tracks: tracks, outputs: outputs,
                                                       groups: groups, keys: keys)
                                    return true
                                }
                                guard done else { return i }
                                es[i].block!.outputsStep = step
                                i += 1
                            }
                            return end
                        }
                    }
                }
            }
        }
    }

    /// `TimingEngine.storeStepOutputs`: in place, so neither the table nor the entries are
    /// copied (a copy of the table retains each of its arrays).
    @inline(__always)
    mutating func storeOutputs(of layer: CALayer) {
        let step = table.stepCount
        let i = layer.stepIndex
        guard layer.appliedStep != step, i >= 0, i < entries.count, let block = entries[i].block,
              block.outputsStep == step, block.isCurrent(for: layer) else { return }
        table.store(block)
        layer.appliedStep = step
    }
}
