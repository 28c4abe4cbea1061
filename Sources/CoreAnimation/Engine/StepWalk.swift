import CoreGraphics

/// The pieces of the frame step's walk over the animated layers (`TimingEngine.step`).

/// Local times of parents during one step: siblings share their parent's local time, so it is
/// computed once per run of siblings rather than once per layer (C1 applied from the root).
struct ParentTimeCache {
    let mediaTime: Double
    fileprivate var parent: UnsafeMutableRawPointer? = nil
    fileprivate var parentTime = 0.0

    init(mediaTime: Double) { self.mediaTime = mediaTime }

    /// `layer`'s local time at this step's media time.
    @inline(__always)
    mutating func localTime(of layer: CALayer) -> Double {
        // The parent's address, not a reference: siblings would otherwise each retain and
        // release the same parent.
        guard let id = layer.parentAddress else {
            return layer.localTime(parentTime: mediaTime)
        }
        if id != parent {
            parent = id
            parentTime = Self.localTime(ofLayerAt: id, fromMedia: mediaTime)
        }
        return layer.localTime(parentTime: parentTime)
    }

    /// `CALayer.localTime(fromMedia:)` for the layer at `p`, following `parentAddress` up the
    /// tree: no ancestor is retained, so none can be released last here (and run its `deinit`
    /// in the middle of the step) when another thread drops it meanwhile (`CrossThreadRelease`).
    static func localTime(ofLayerAt p: UnsafeMutableRawPointer, fromMedia t: Double) -> Double {
        Unmanaged<CALayer>.fromOpaque(p)._withUnsafeGuaranteedRef { l in
            l.localTime(parentTime: l.parentAddress.map { localTime(ofLayerAt: $0, fromMedia: t) } ?? t)
        }
    }
}

extension ParentTimeCache {
    /// A block's layer's local time, from the timing and parent the block cached.
    @inline(__always)
    mutating func localTime(of block: StepBlock) -> Double {
        guard let id = block.parent else { return block.localTime(parentTime: mediaTime) }
        if id != parent {
            parent = id
            parentTime = Self.localTime(ofLayerAt: id, fromMedia: mediaTime)
        }
        return block.localTime(parentTime: parentTime)
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
    /// Evaluates members `start..<end` into the `StepTable` for as long as each has a block and
    /// no event due; returns the position of the first member that needs the per-layer path
    /// (`end` when none does). Holes are skipped. The layers themselves are not read: a block
    /// carries the layer's timing and parent, and whatever could make it stale (a new plan,
    /// commit, presentation copy, parent, or any property change) resets its `nextEventTime`
    /// (`CALayer.invalidateStepBlock`), which sends the layer to the per-layer path once.
    mutating func runBlocks(from start: Int, to end: Int, step: UInt64, parents: inout ParentTimeCache) -> Int {
        entries.withUnsafeMutableBufferPointer { es in
            table.tracks.withUnsafeBufferPointer { tracks in
                table.outputs.withUnsafeMutableBufferPointer { outputs in
                    table.groups.withUnsafeMutableBufferPointer { groups in
                        table.keyData.withUnsafeBufferPointer { keys in
                            var i = start
                            while i < end {
                                guard es[i].layer != nil else { i += 1; continue }
                                // An invalidated block is not read further: its cached parent may
                                // be a layer that has since been freed (its deinit cleared the
                                // child's `_superlayer`, which invalidated the block).
                                guard let block = es[i].block, block.nextEventTime > -.infinity else { return i }
                                let tl = parents.localTime(of: block)
                                guard tl < block.nextEventTime else { return i }
                                StepTable.evaluate(block, localTime: tl, tracks: tracks, outputs: outputs, groups: groups, keys: keys)
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
    /// Returns whether the layer's values are this step's table outputs (stored now or by an
    /// earlier call in the same step).
    @inline(__always)
    mutating func storeOutputs(of layer: CALayer) -> Bool {
        let step = table.stepCount
        let i = layer.stepIndex
        guard i >= 0, i < entries.count, let block = entries[i].block, block.outputsStep == step,
              block.isCurrent(for: layer) else { return false }
        if layer.appliedStep != step {
            table.store(block)
            layer.appliedStep = step
        }
        return true
    }

    /// `TimingEngine.stepPosition`: in place, as `storeOutputs`.
    @inline(__always)
    mutating func stepPosition(of layer: CALayer, committed base: CGPoint) -> CGPoint? {
        let i = layer.stepIndex
        guard i >= 0, i < entries.count, let block = entries[i].block, block.outputsStep == table.stepCount,
              block.isCurrent(for: layer) else { return nil }
        return table.position(block, committed: base)
    }

    /// Sends the member at `i` through the per-layer path at the next step (see `runBlocks`).
    @inline(__always)
    mutating func invalidate(at i: Int) {
        guard i < entries.count, entries[i].block != nil else { return }
        entries[i].block!.nextEventTime = -.infinity
    }
}

extension TimingEngine {
    /// The position `layer`'s presentation copy holds once this step's table outputs are stored
    /// in it (what `renderCopy` would show), computed from the layer's committed position `base`
    /// without touching either copy; nil unless the layer's block is current (this step's
    /// values, the layer's plan and copies) and its animations write nothing but the position
    /// (`position`, `position.x`, `position.y`, `StepTable.position`). The copy itself is left
    /// as it is: `renderCopy` still stores the outputs when anything reads it. For the render
    /// tree's patch of moving leaves (`RenderTreeBuilder.cachedLeafBox`), which would otherwise
    /// load the two copies' states (a dozen cache lines) to redraw a box of which only the
    /// position changed.
    @inline(__always)
    package static func stepPosition(of layer: CALayer, committed base: CGPoint) -> CGPoint? {
        guard let raw = unsafeBitCast(layer.animationStack, to: UnsafeMutableRawPointer?.self) else { return nil }
        return Unmanaged<TransactionStack>.fromOpaque(raw)._withUnsafeGuaranteedRef {
            $0.animatedLayers.stepPosition(of: layer, committed: base)
        }
    }
}

extension CALayer {
    /// Something the step's table cached about this layer may have changed: its next step
    /// takes the per-layer path, which checks the block and refreshes or rebuilds it.
    @inline(__always)
    package func invalidateStepBlock() {
        guard let stack = animationStack else { return }
        if stack.isCurrentThread {
            if stepIndex >= 0 { stack.animatedLayers.invalidate(at: stepIndex) }
        } else {
            // Another thread steps this layer (its parent was freed here, say): that thread
            // applies the change before its next step (`CrossThreadRelease`).
            stack.queueForeignChange(ObjectIdentifier(self), removes: false)
        }
    }
}
