/// The frame step's compiled form of every layer whose animations are all typed tracks
/// (`FastTrack`): plain structs in a few contiguous arrays, evaluated into an output buffer.
///
/// Issue 3 asks for 100k animated layers evaluated in a few milliseconds. Walking each layer's
/// plan, tracks, keyframe curve, committed copy and presentation copy touched a dozen scattered
/// cache lines per layer, and the step was bound by those misses. Here a layer's tracks sit
/// next to each other with their end values already resolved (docs/BEHAVIOUR.md E1: the underlying
/// value P is read from the committed state when the block is built, and the committed state
/// only changes by a commit, which replaces the copy and so the block), their keyframe times
/// and values inline, and their timing shared: tracks with equal timing, fill and easing (every
/// layer animated by one transaction) form one `TimingGroup`, evaluated once per distinct local
/// time and frame. A track's result goes to `outputs`; the presentation copy receives the
/// values when something reads it (`CALayer.renderCopy`, through `materialize`), so a frame
/// whose tree is not drawn costs no stores into 100k objects. `presentation()` still evaluates
/// afresh (docs/BEHAVIOUR.md L1–L3) and is unaffected.
///
/// A layer keeps the per-layer path when a block would not be exact: a track reading P after
/// an earlier track of the same property wrote it, keyframes along a path or with per-segment
/// timing functions, or animations whose keys drive `display()`.
///
/// Why animations have more than one evaluation path (issue 16, item 4). What a renderer reads
/// (`renderCopy`) comes from this table for such layers; `presentation()` evaluates afresh
/// through the typed tracks (`FastTrack.apply`); every other layer goes through the general
/// evaluators (`PropertyEvaluator`, `GroupEvaluator`), in the step and in `presentation()`
/// alike. The renderer's incremental patches read `renderCopy` like a whole build and add no
/// path. One path would be the general evaluators alone; the others exist for speed, measured
/// by `swift run -c release --package-path tools/benchmarks timing-benchmark` (N layers, each
/// with a basic `opacity`, a keyframe `position` and a spring `transform.scale` animation, 60
/// frames, release build; README, "The timing engine"): at 100k layers the step took 260–331 ms
/// per frame on the general evaluators (2026-11-21), 92 ms with per-layer typed tracks and
/// 3.64 ms with this table (2026-11-22; 1k layers 0.02 ms, 10k 0.26 ms, no allocation per
/// frame), issue 3's target being under 8 ms; and making colours and `CAShapeLayer`'s numbers
/// tracks took the engine step of `render-benchmark 10 shapes-animated` (1,000 animated stars)
/// from 7.9 to 0.09 ms.
/// The paths must agree bit for bit, and `EvaluationPathAgreementTests` checks that they do:
/// random layer trees (parents with their own timing) and thousands of random animations of
/// keys the tracks take and keys they do not, compared as `renderCopy` after each step,
/// `presentation()` and the general evaluators run by hand on a fresh copy, at every begin and
/// end and many repeat boundaries, through commits, removals, pauses and re-parenting
/// (`EVAL_AGREEMENT_SCENES` soaks more seeds). Change any path only with that test passing.
package struct StepTable {
    /// Marks a track that contributed nothing this frame (its timing sample was nil, C5): a NaN
    /// with a payload arithmetic does not produce, so a NaN an animation computes still reaches
    /// the setter and is refused with its warning, as on the other paths.
    static let inactive = Double(bitPattern: 0x7FF8_0000_CA5E_0001)

    var tracks: [TableTrack] = []
    /// One per track: the value a number track computed (in `x`) or a point track's point.
    var outputs: [CGPoint] = []
    /// Keyframe tracks' key times then values (a point as x, y), inline.
    var keyData: [Double] = []
    var groups: [TimingGroup] = []
    /// Parallel to `groups`: keeps each group's timing function alive (groups hold it unretained).
    private var groupFunctions: [CAMediaTimingFunction?] = []
    private var groupKeys: [TimingGroup.Key] = []
    private var groupIndex: [TimingGroup.Key: Int32] = [:]
    /// Tracks that belong to a live block; the rest of `tracks` is garbage until compaction.
    private(set) var liveTracks = 0
    /// Incremented by every frame step; a block's outputs are current when its `outputsStep`
    /// equals it.
    package var stepCount: UInt64 = 0

    /// The block for `layer`'s current plan, or nil when the layer must keep the per-layer path.
    /// `base` and `out` are the layer's committed and presentation copies.
    mutating func makeBlock(plan: EvaluationPlan, base: CALayer, out: CALayer) -> StepBlock? {
        guard let fast = plan.tracks, !plan.drivesDisplay, !fast.isEmpty else { return nil }
        var built: [(track: TableTrack, key: TimingGroup.Key, function: CAMediaTimingFunction?)] = []
        built.reserveCapacity(fast.count)
        var keys: [Double] = []
        var written: [LayerSlot] = []
        let complete = SlotTarget.with(base, shape: plan.tracksTouchShape) { bt in
            for t in fast {
                guard let track = makeTrack(t, base: bt, written: written, keys: &keys) else { return false }
                built.append((track, TimingGroup.Key(t), t.spring == nil ? t.timingFunction?.takeUnretainedValue() : nil))
                if !written.contains(t.slot.root) { written.append(t.slot.root) }
            }
            return true
        }
        guard complete else { return nil }
        // Nothing can fail from here on: commit the tracks and their key data.
        let start = tracks.count
        let keyBase = Int32(keyData.count)
        for (var track, key, function) in built {
            if track.kind != .lerp { track.keyStart += keyBase }
            track.group = intern(key, function: function)
            tracks.append(track)
            outputs.append(CGPoint(x: Self.inactive, y: 0))
        }
        keyData += keys
        liveTracks += built.count
        return StepBlock(plan: .passRetained(plan), base: .passRetained(base), out: .passRetained(out),
                         trackStart: Int32(start), trackCount: Int32(built.count),
                         nextEventTime: plan.nextEventTime, outputsStep: 0, touchesShape: plan.tracksTouchShape)
    }

    /// One track, with its ends resolved against the committed state; nil when resolving them
    /// now would not match the per-layer path (P read after an earlier track wrote the slot).
    private func makeTrack(_ t: FastTrack, base: SlotTarget, written: [LayerSlot], keys: inout [Double]) -> TableTrack? {
        let earlier = written.contains(t.slot.root)
        var track = TableTrack(slot: t.slot)
        track.resetsRoot = !earlier
        func needsP(_ e: FastTrack.Ends) -> Bool { if case .fromTo = e { return false }; return true }
        switch t.curve {
        case let .number(a0, b0, ends), let .springNumber(a0, b0, ends, _):
            if needsP(ends), earlier { return nil }
            let (a, b) = ends.resolve(a0, b0) { t.slot.number(in: base) }
            track.a = CGPoint(x: a, y: 0); track.b = CGPoint(x: b, y: 0)
        case let .point(a0, b0, ends), let .springPoint(a0, b0, ends, _):
            if needsP(ends), earlier { return nil }
            (track.a, track.b) = ends.resolve(a0, b0) { t.slot.point(in: base) }
        case let .color(a0, b0, ends, _):
            if needsP(ends), earlier { return nil }
            let (a, b) = ends.resolve(a0, b0) { t.slot.color(in: base) }
            track.kind = .color
            track.keyStart = Int32(keys.count)
            // Nil colours are flagged in `a`; their components (transparent black) are stored.
            track.a = CGPoint(x: a == nil ? 1 : 0, y: b == nil ? 1 : 0)
            for c in [a, b] {
                let v = (c ?? CGColor(red: 0, green: 0, blue: 0, alpha: 0)).rgba
                keys += [v.red, v.green, v.blue, v.alpha]
            }
        case let .keyNumbers(k), let .keyPoints(k):
            let curve = k.takeUnretainedValue()
            guard curve.timingFunctions.isEmpty, curve.segments == nil else { return nil }
            track.keyStart = Int32(keys.count)
            track.keyTimeCount = Int32(curve.keyTimes.count)
            keys += curve.keyTimes
            track.discrete = curve.mode == .discrete
            if case .keyNumbers = t.curve, let v = curve.numbers {
                track.kind = .keyNumbers
                track.valueCount = Int32(v.count)
                keys += v
            } else if case .keyPoints = t.curve, let v = curve.points {
                track.kind = .keyPoints
                track.valueCount = Int32(v.count)
                for p in v { keys.append(p.x); keys.append(p.y) }
            } else {
                return nil
            }
        }
        return track
    }

    private mutating func intern(_ key: TimingGroup.Key, function: CAMediaTimingFunction?) -> Int32 {
        if let i = groupIndex[key] { return i }
        let i = Int32(groups.count)
        groups.append(TimingGroup(key: key, function: function.map { .passUnretained($0) }))
        groupFunctions.append(function)
        groupKeys.append(key)
        groupIndex[key] = i
        return i
    }

    /// A block's tracks stop being live (the layer left the table or got a new block).
    mutating func retire(_ block: StepBlock) {
        liveTracks -= Int(block.trackCount)
        block.release()
    }

    /// Whether dead tracks outnumber the live ones enough to rewrite the arrays.
    var wantsCompaction: Bool { tracks.count - liveTracks > max(4096, liveTracks) }

    /// Rewrites the arrays with only the live blocks' tracks, in step order, and the groups
    /// they use; updates each block's range.
    mutating func compact(_ entries: inout [AnimatedLayerSet.Entry]) {
        var newTracks: [TableTrack] = [], newOutputs: [CGPoint] = [], newKeys: [Double] = []
        newTracks.reserveCapacity(liveTracks); newOutputs.reserveCapacity(liveTracks)
        let oldGroups = groups, oldFunctions = groupFunctions, oldKeys = groupKeys
        groups = []; groupFunctions = []; groupKeys = []; groupIndex = [:]
        var remap = [Int32](repeating: -1, count: oldGroups.count)
        for e in entries.indices {
            guard let block = entries[e].block else { continue }
            let start = Int(block.trackStart)
            entries[e].block!.trackStart = Int32(newTracks.count)
            for i in start..<start + Int(block.trackCount) {
                var t = tracks[i]
                let g = Int(t.group)
                if remap[g] < 0 { remap[g] = intern(oldKeys[g], function: oldFunctions[g]) }
                t.group = remap[g]
                if t.kind != .lerp {
                    let n = t.kind == .color ? 8 : Int(t.keyTimeCount) + Int(t.valueCount) * (t.kind == .keyPoints ? 2 : 1)
                    let k = Int(t.keyStart)
                    t.keyStart = Int32(newKeys.count)
                    newKeys += keyData[k..<k + n]
                }
                newTracks.append(t)
                newOutputs.append(outputs[i])
            }
        }
        tracks = newTracks; outputs = newOutputs; keyData = newKeys
        liveTracks = newTracks.count
    }

    /// Evaluates a block's tracks at the layer's local time `tl` into `outputs` (what
    /// `FastTrack.apply` computes, without the stores into the presentation copy).
    @inline(__always)
    static func evaluate(_ block: StepBlock, localTime tl: Double, tracks: UnsafeBufferPointer<TableTrack>,
                         outputs: UnsafeMutableBufferPointer<CGPoint>, groups: UnsafeMutableBufferPointer<TimingGroup>,
                         keys: UnsafeBufferPointer<Double>) {
        let start = Int(block.trackStart)
        for i in start..<start + Int(block.trackCount) {
            let t = tracks.baseAddress! + i
            guard let v = groups[Int(t.pointee.group)].value(at: tl) else {
                outputs[i].x = inactive
                continue
            }
            switch t.pointee.kind {
            case .lerp:
                let a = t.pointee.a, b = t.pointee.b
                outputs[i] = CGPoint(x: a.x + (b.x - a.x) * v, y: a.y + (b.y - a.y) * v)
            case .keyNumbers:
                let kt = UnsafeBufferPointer(start: keys.baseAddress! + Int(t.pointee.keyStart), count: Int(t.pointee.keyTimeCount))
                let vals = UnsafeBufferPointer(start: kt.baseAddress! + kt.count, count: Int(t.pointee.valueCount))
                outputs[i].x = KeyframeCurve.numberValue(at: v, keyTimes: kt, values: vals, discrete: t.pointee.discrete)
            case .keyPoints:
                let kt = UnsafeBufferPointer(start: keys.baseAddress! + Int(t.pointee.keyStart), count: Int(t.pointee.keyTimeCount))
                let raw = UnsafeRawPointer(kt.baseAddress! + kt.count)
                let vals = UnsafeBufferPointer(start: raw.assumingMemoryBound(to: CGPoint.self), count: Int(t.pointee.valueCount))
                outputs[i] = KeyframeCurve.pointValue(at: v, keyTimes: kt, values: vals, discrete: t.pointee.discrete)
            case .color:
                // The colour is interpolated when stored (`store`): one fraction here, not four.
                outputs[i].x = v
            }
        }
    }

    /// Stores a block's outputs into its presentation copy: the tracks' properties reset from
    /// the committed state, then each active track's value written in the order the animations
    /// were added (E3) through the setters' checks (`LayerSlot.write`).
    func store(_ block: StepBlock) {
        let start = Int(block.trackStart), count = Int(block.trackCount)
        tracks.withUnsafeBufferPointer { tracks in
            outputs.withUnsafeBufferPointer { outputs in
                block.base._withUnsafeGuaranteedRef { base in
                    block.out._withUnsafeGuaranteedRef { out in
                        SlotTarget.with(base, shape: block.touchesShape) { bs in
                            SlotTarget.with(out, shape: block.touchesShape) { os in
                                // Each written property once, from the committed state (the
                                // plan's `trackResets`, marked on the tracks when the block was built).
                                for i in start..<start + count where tracks[i].resetsRoot {
                                    tracks[i].slot.root.reset(os, from: bs)
                                }
                                for i in start..<start + count {
                                    let o = outputs[i]
                                    if o.x.bitPattern == Self.inactive.bitPattern { continue }
                                    let t = tracks[i]
                                    if t.kind == .color {
                                        t.slot.write(color: colorValue(t, fraction: o.x), into: os)
                                    } else if t.slot.isPoint {
                                        t.slot.write(o, into: os)
                                    } else {
                                        t.slot.write(o.x, into: os)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The position `store(block)` leaves in a presentation copy whose committed position is
    /// `base`: nil unless every track of the block writes the position (`position`,
    /// `position.x`, `position.y`) and one of them resets it from the committed state first (so
    /// the result does not depend on what the copy held), or when `store` would refuse a value
    /// (non-finite: `store` then warns). The same order and tests as `store`.
    func position(_ block: StepBlock, committed base: CGPoint) -> CGPoint? {
        let start = Int(block.trackStart), count = Int(block.trackCount)
        guard count > 0 else { return nil }
        return tracks.withUnsafeBufferPointer { tracks in
            outputs.withUnsafeBufferPointer { outputs in
                var reset = false
                for i in start..<start + count {
                    switch tracks[i].slot {
                    case .position, .positionX, .positionY: break
                    default: return nil
                    }
                    if tracks[i].resetsRoot { reset = true }
                }
                guard reset else { return nil }
                var p = base
                for i in start..<start + count {
                    let o = outputs[i]
                    if o.x.bitPattern == Self.inactive.bitPattern { continue }
                    switch tracks[i].slot {
                    case .position:
                        guard o.x.isFinite, o.y.isFinite else { return nil }
                        p = o
                    case .positionX:
                        guard o.x.isFinite else { return nil }
                        p.x = o.x
                    case .positionY:
                        guard o.x.isFinite else { return nil }
                        p.y = o.x
                    default: return nil
                    }
                }
                return p
            }
        }
    }

    /// A colour track's value at `fraction`: the general path's interpolation
    /// (`AnimValue.lerpOptionalColor`) of the ends kept in `keyData`.
    private func colorValue(_ t: TableTrack, fraction: Double) -> CGColor? {
        let k = Int(t.keyStart)
        func end(_ i: Int, isNil: Bool) -> CGColor? {
            isNil ? nil : CGColor(red: keyData[i], green: keyData[i + 1], blue: keyData[i + 2], alpha: keyData[i + 3])
        }
        return AnimValue.lerpOptionalColor(end(k, isNil: t.a.x != 0), end(k + 4, isNil: t.a.y != 0), fraction)
    }
}

/// A layer's place in the `StepTable`: its tracks' range, and the objects the block was built
/// from, retained so that comparing them with the layer's current ones by address is sound.
// Retained by hand (`Unmanaged`, released in `release()`): with strong references the frame
// step takes 16.9% more instructions (builder-benchmark 5 rects, callgrind, `TimingEngine.step`
// 154.9 → 181.0 M), from the retains and releases of copying blocks.
package struct StepBlock {
    let plan: Unmanaged<EvaluationPlan>
    let base: Unmanaged<CALayer>
    let out: Unmanaged<CALayer>
    var trackStart: Int32
    var trackCount: Int32
    /// The plan's `nextEventTime` when last looked at: until then the step skips event checks.
    var nextEventTime: Double
    /// The step whose values `outputs` holds for this block.
    var outputsStep: UInt64
    /// Whether a track reads or writes `CAShapeLayer`'s own state (`EvaluationPlan.tracksTouchShape`).
    let touchesShape: Bool
    /// The layer's own timing (C1) and its parent's address, as of the last per-layer step:
    /// the walk computes the local time without reading the layer.
    var beginTime = 0.0, timeOffset = 0.0, speed: Float = 1
    var parent: UnsafeMutableRawPointer? = nil

    /// `CALayer.localTime(parentTime:)` with the cached timing.
    @inline(__always)
    func localTime(parentTime p: Double) -> Double { (p - beginTime) * Double(speed) + timeOffset }

    /// Takes the layer's current timing and parent.
    mutating func refresh(from layer: CALayer, nextEventTime: Double) {
        let t = layer.state.timing
        beginTime = t.beginTime; timeOffset = t.timeOffset; speed = t.speed
        parent = layer.parentAddress
        self.nextEventTime = nextEventTime
    }

    /// Whether the block still describes `layer`: the same plan (no animation added, removed
    /// or re-stamped), committed copy (no commit since) and presentation copy.
    @inline(__always)
    func isCurrent(for layer: CALayer) -> Bool {
        // Addresses only: binding the references would retain each object, a store into three
        // more cache lines per layer on the step's hot path.
        unsafeBitCast(layer.evaluationPlan, to: UnsafeMutableRawPointer?.self) == plan.toOpaque()
            && unsafeBitCast(layer.committedCopy, to: UnsafeMutableRawPointer?.self) == base.toOpaque()
            && unsafeBitCast(layer.animatedCopy, to: UnsafeMutableRawPointer?.self) == out.toOpaque()
    }

    func release() { plan.release(); base.release(); out.release() }
}

/// One typed track in the table: ends resolved, keyframes inline, timing shared by group.
package struct TableTrack {
    enum Kind: UInt8 { case lerp, keyNumbers, keyPoints, color }

    var group: Int32 = 0
    var kind = Kind.lerp
    var discrete = false
    /// The first of the block's tracks to write its property: storing resets the property from
    /// the committed state once, here.
    var resetsRoot = false
    var slot: LayerSlot
    /// The resolved from and to values (a number in `x`). A colour track keeps its two colours'
    /// components in `keyData` (from `keyStart`, eight values) and here whether each is nil.
    var a = CGPoint.zero
    var b = CGPoint.zero
    /// Keyframes: where the key times start in `keyData`; the values follow them.
    var keyStart: Int32 = 0
    var keyTimeCount: Int32 = 0
    var valueCount: Int32 = 0

    init(slot: LayerSlot) { self.slot = slot }
}

extension FastTrack {
    /// The spring a spring track follows (its progress replaces the eased fraction, G1).
    var spring: SpringSolver? {
        switch curve {
        case let .springNumber(_, _, _, s), let .springPoint(_, _, _, s): return s
        case let .color(_, _, _, s): return s
        default: return nil
        }
    }
}

/// Timing, fill and easing shared by tracks: what an animation's progress is at a local time.
/// The result is remembered for the last time asked, so siblings animated alike (equal local
/// times) pay for the timing maths, the Bézier solve or the spring's exponentials once a frame.
package struct TimingGroup {
    struct Key: Hashable {
        let timing: MediaTimingValues
        let removedOnCompletion: Bool
        let isSpring: Bool
        /// The timing function's control points, or the spring's parameters.
        let parameters: [Double]
        let spring: SpringSolver?

        static func == (l: Key, r: Key) -> Bool {
            l.timing == r.timing && l.removedOnCompletion == r.removedOnCompletion && l.isSpring == r.isSpring
                && l.parameters == r.parameters
        }

        func hash(into h: inout Hasher) {
            h.combine(timing); h.combine(removedOnCompletion); h.combine(isSpring); h.combine(parameters)
        }

        init(_ t: FastTrack) {
            timing = t.timing
            removedOnCompletion = t.removedOnCompletion
            spring = t.spring
            isSpring = spring != nil
            parameters = spring?.parameterKey
                ?? t.timingFunction.map { $0.takeUnretainedValue().controlPointKey.map(Double.init) } ?? []
        }
    }

    let timing: MediaTimingValues
    let removedOnCompletion: Bool
    /// Unretained: `StepTable.groupFunctions` owns it. Kept with `FastTrack.timingFunction`:
    /// both strong, timing-benchmark 1000 under callgrind steps in 4.2% more instructions
    /// (`TimingEngine.step` 49.56 → 51.63 M).
    let function: Unmanaged<CAMediaTimingFunction>?
    let spring: SpringSolver?
    private var memoTime = Double.nan
    private var memoActive = false
    private var memoValue = 0.0

    init(key: Key, function: Unmanaged<CAMediaTimingFunction>?) {
        timing = key.timing
        removedOnCompletion = key.removedOnCompletion
        self.function = key.isSpring ? nil : function
        spring = key.spring
    }

    /// The eased fraction (basic and keyframe animations) or the spring's progress at local time
    /// `tl`; nil when the animation contributes nothing then (C5). What `FastTrack.apply`
    /// computes before interpolating.
    @inline(__always)
    mutating func value(at tl: Double) -> Double? {
        if tl != memoTime {  // a NaN time never matches, and is recomputed
            memoTime = tl
            if let s = timing.sample(tl, removedOnCompletion: removedOnCompletion) {
                memoActive = true
                if let spring {
                    memoValue = spring.value(at: s.basicTime)
                } else if let f = function {
                    memoValue = f._withUnsafeGuaranteedRef { $0.evaluate(at: s.fraction) }
                } else {
                    memoValue = s.fraction
                }
            } else {
                memoActive = false
            }
        }
        return memoActive ? memoValue : nil
    }
}
