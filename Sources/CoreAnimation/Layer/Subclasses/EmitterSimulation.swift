import CoreGraphics

/// One live particle of a `CAEmitterLayer` at one time, in the layer's coordinate space.
package struct EmitterParticle: Equatable, Sendable {
    /// Index of its cell in `EmitterSimulation.tree.nodes`.
    package var node: Int
    /// Centre, in the emitter layer's space (z: the emitter's depth axis).
    package var position: SIMD3<Double>
    /// Multiplies the cell image's size (never negative).
    package var scale: Double
    /// Rotation in radians (spin × age).
    package var angle: Double
    /// Straight RGBA, each channel clamped to 0…1; multiplies the cell's image.
    package var color: SIMD4<Double>
    /// The layer-local time it was born.
    package var birthTime: Double
    /// Its identity: a hash of the seed, its cell's path, its parent's key and its number.
    package var key: UInt64
}

/// The particles of a `CAEmitterLayer` at layer-local time `t`: a pure function of the layer's
/// `seed`, `t`, and its and its cells' property values. Nothing is carried from one frame to
/// the next, so frame t rendered directly equals frame t reached by rendering every frame
/// before it, and shards of a video render agree.
///
/// The model:
/// - **Births.** Emission starts at the layer's local time 0 (a layer whose `beginTime` is
///   `CACurrentMediaTime()` starts empty, as Apple's recipes rely on; a layer with beginTime 0
///   appears to have emitted for ever). A cell emits `cell.birthRate × layer.birthRate`
///   particles a second over its window: from its `beginTime` to `beginTime + duration`
///   (`duration` 0: no end). Particle n of a cell is born at `window start + n / rate`, the time
///   the cumulative birth count reaches n.
/// - **Random attributes** (lifetime, velocity, direction, scale, spin, colour, the place on the
///   emitter shape) are `EmitterHash` values of (seed, cell path, parent key, n), each range
///   giving `value ± range` uniformly.
/// - **Motion** is closed-form in the age a: position `p0 + v·a + ½·acc·a²`, scale
///   `(s + scaleSpeed·a) × layer.scale`, angle `spin·a`, each colour channel
///   `c + speed·a` clamped to 0…1.
/// - **Sub-cells**: each particle of a cell is an emitter of that cell's `emitterCells`,
///   from its own position at each sub-birth, with the window measured from its birth and
///   ending at its death. The sub-particles' numbers restart per parent and hash its key.
/// - **Properties over time** (`EmitterTimeline`, on the model layer): births follow the
///   animated birth rates (cell × layer), integrated on a 1/240 s grid, and each particle takes
///   the cell and layer values of the start of the grid step it is born in (a sub-particle
///   those its parent was born with); a committed change starts a new era, so a rate set to 0
///   stops births while the live particles finish their lives, as on Apple. What is read at
///   the frame: the cell tree's shape, each cell's contents and filters, `renderMode`.
///
/// Bounded: at most `maxParticles` live particles per layer, and at most `maxCandidates`
/// births examined (youngest first), with one warning naming the cap.
package struct EmitterSimulation {
    /// Live particles per layer beyond which the oldest are not simulated (docs/BEHAVIOUR.md).
    package static let maxParticles = 200_000
    /// Births examined per layer (dead parents of live sub-particles count).
    package static let maxCandidates = 800_000

    package let tree: EmitterCellTree
    package internal(set) var particles: [EmitterParticle] = []
    /// True when a cap cut the simulation short.
    package internal(set) var capped = false

    let state: EmitterLayerState
    /// The layer's `renderMode` (the compositing order, and additive blending).
    package var renderMode: CAEmitterLayerRenderMode { state.renderMode }
    let seed: UInt64
    var candidates = 0
    /// The current tree's node index of each cell path (particles of older eras map here).
    let currentIndex: [UInt64: Int]
    /// True when the animated births were cut at `EmitterTimeline.maxAnimatedSteps`.
    var stepsCapped = false
    /// Run mode (`EmitterSimulation+Runs.swift`): top-level constant-rate cells without
    /// sub-cells become `runs` instead of particles; anything else sets `runsRefused`.
    let collectsRuns: Bool
    package internal(set) var runs: [EmitterRun] = []
    var runsRefused = false

    /// Simulates `state` (usually a presentation or render copy's) at layer-local time `t`,
    /// taking its values as constant since local time 0 (no timeline: what a layer that was
    /// never committed, or a test of the model alone, gets).
    package init(_ state: EmitterLayerState, at t: Double, collectingRuns: Bool = false) {
        self.init(state: state, at: t, collectingRuns: collectingRuns) { sim, reach in
            let src = EmitterSnapshot(state: state, tree: sim.tree)
            for r in sim.tree.roots {
                sim.emitConstant(root: r, tree: sim.tree, src: src, start: 0, end: .infinity, salt: 0, at: t)
            }
        }
    }

    /// Simulates the model layer `model` at layer-local time `t` from its value timeline
    /// (`EmitterTimeline`): births follow the animated birth rates, and each particle takes the
    /// values of its birth time. `current` (the render copy's state) gives the tree the
    /// renderer draws and the render mode.
    package init(model: CAEmitterLayer, current: EmitterLayerState, at t: Double, collectingRuns: Bool = false) {
        guard let base = model.committedCopy as? CAEmitterLayer else {
            self.init(current, at: t, collectingRuns: collectingRuns)
            return
        }
        self.init(state: current, at: t, collectingRuns: collectingRuns) { sim, reach in
            let timeline = model.emitterTimeline()
            timeline.update(model: model, base: base, at: t, reach: reach)
            for era in timeline.eras where era.start <= t {
                let eraReach = max(reach, era.tree.roots.map { era.tree.nodes[$0].reach }.max() ?? 0)
                if let c = era.constant {
                    for r in era.tree.roots {
                        sim.emitConstant(root: r, tree: era.tree, src: c, start: era.start, end: era.end, salt: era.salt, at: t)
                    }
                } else {
                    sim.emitAnimated(era: era, reach: eraReach, at: t)
                }
            }
        }
    }

    private init(state: EmitterLayerState, at t: Double, collectingRuns: Bool, run: (inout EmitterSimulation, Double) -> Void) {
        self.state = state
        collectsRuns = collectingRuns
        seed = EmitterHash.mix(UInt64(state.seed) | 0xE000_0000_0000_0000)
        tree = EmitterCellTree(cells: state.emitterCells, lifetimeScale: max(Double(state.lifetime), 0))
        var index: [UInt64: Int] = [:]
        for (i, n) in tree.nodes.enumerated() where index[n.pathKey] == nil { index[n.pathKey] = i }
        currentIndex = index
        guard t.isFinite else {
            Diagnostics.warnOnce("CAEmitterLayer: a non-finite time is not simulated (no particles)")
            return
        }
        let reach = tree.roots.map { tree.nodes[$0].reach }.max() ?? 0
        run(&self, reach)
        if capped {
            Diagnostics.warnOnce("CAEmitterLayer: more than \(Self.maxParticles) live particles (or \(Self.maxCandidates) births to examine) in one layer: the oldest are not drawn")
        }
        if stepsCapped {
            Diagnostics.warnOnce("CAEmitterLayer: births older than \(EmitterTimeline.maxAnimatedSteps / 240) s under an animation are not simulated")
        }
    }

    /// Where a parent particle is, as a function of its age, for its sub-cells.
    struct Origin {
        var p0: SIMD3<Double>, v: SIMD3<Double>, acc: SIMD3<Double>
        func at(_ a: Double) -> SIMD3<Double> { p0 + v * a + acc * (0.5 * a * a) }
    }

    /// The root cell `root` of `tree` emitting at a constant rate with the values `src` from
    /// `start` to `end` (one era without animations): particle n is born at start + n / rate.
    mutating func emitConstant(root: Int, tree: EmitterCellTree, src: EmitterSnapshot, start: Double, end: Double,
                               salt: UInt64, at t: Double) {
        emit(node: root, tree: tree, src: src, window: (start, end), timeOrigin: 0, parentKey: seed ^ salt, origin: nil, at: t)
    }

    /// The root cells of an era with animations: births from the grid counts
    /// (`EmitterTimeline.Era.counts`), youngest first, each with its step's values.
    mutating func emitAnimated(era: EmitterTimeline.Era, reach: Double, at t: Double) {
        if collectsRuns { runsRefused = true; return }
        let h = EmitterTimeline.step
        let lo = max(era.start, t - reach), hi = min(era.end, t)
        guard hi >= lo, !era.tree.roots.isEmpty else { return }
        func stepIndex(_ x: Double) -> Int {
            let s = ((x - era.start) / h).rounded(.down)
            return Int(max(0, min(s, 1e15)))
        }
        var loStep = stepIndex(lo)
        let hiStep = stepIndex(hi)
        if hiStep - loStep > EmitterTimeline.maxAnimatedSteps {
            loStep = hiStep - EmitterTimeline.maxAnimatedSteps
            stepsCapped = true
        }
        let (begin, end, epochs, snaps) = era.counts(from: loStep, to: hiStep)
        for (ri, root) in era.tree.roots.enumerated() {
            let cellKey = seed ^ era.salt ^ era.tree.nodes[root].pathKey
            var i = hiStep
            while i >= loStep {
                let j = i - loStep
                let src = snaps[j]
                let rate = src.rate(root)
                let c0 = begin[j][ri], c1 = end[j][ri]
                let b0 = era.start + Double(i) * h
                let epochKey = epochs[j] == 0 ? cellKey : cellKey ^ EmitterHash.mix(0xE90C_0000 &+ UInt64(epochs[j]))
                i -= 1
                guard rate > 0, c1 > c0 else { continue }
                guard c1 < 0x1p53 else {
                    Diagnostics.warnOnce("CAEmitterCell: more than 2^53 births in one minute: the cell is not simulated")
                    continue
                }
                // The youngest birth of the step not after hi.
                var n = min(c1.rounded(.up) - 1, (c0 + (hi - b0) * rate).rounded(.down))
                while n >= c0 {
                    let birth = b0 + (n - c0) / rate
                    defer { n -= 1 }
                    guard birth <= hi, birth < era.end else { continue }
                    // The root cell's own window (Q7), in layer time: births outside it are counted
                    // (so the numbering stays a function of the timeline) but not made.
                    let v = src.values[root]
                    guard birth >= v.emissionStart, birth < v.emissionEnd else { continue }
                    if birth < lo { break }
                    if candidates >= Self.maxCandidates || particles.count >= Self.maxParticles { capped = true; return }
                    candidates += 1
                    spawn(node: root, tree: era.tree, src: src, birth: birth, key: EmitterHash.mix(epochKey &+ UInt64(n)),
                          window: (era.start, era.end), origin: nil, at: t)
                }
            }
        }
    }

    /// Emits the particles of `node` born in `window` (layer time; the parent's lifetime or
    /// the era's span) at its constant rate in `src`, and recursively their sub-particles.
    /// The cell's timing is measured from `timeOrigin` (layer time 0 for a top-level cell; nil:
    /// the window's start, the parent particle's birth).
    mutating func emit(node: Int, tree: EmitterCellTree, src: EmitterSnapshot, window: (Double, Double), timeOrigin: Double? = nil,
                       parentKey: UInt64, origin: Origin?, at t: Double) {
        let n = tree.nodes[node]
        let v = src.values[node]
        let rate = v.birthRate * Double(src.state.birthRate) * v.rateScale
        guard rate > 0, rate.isFinite else { return }
        // The cell's own window (Q7) inside its parent's (or its era's).
        let zero = timeOrigin ?? window.0
        let start = max(window.0, zero + v.emissionStart)
        let end = min(window.1, zero + v.emissionEnd)
        // Births that may still show at t: after t − reach, before t and the window's end.
        let lo = max(start, t - n.reach)
        let hi = min(end, t)
        guard hi >= lo else { return }
        // Particle numbers, as Doubles: exact below 2^53 (a rate of 1e9 for 100 days).
        var k = ((hi - start) * rate).rounded(.down)
        if start + k / rate >= end { k -= 1 }
        let kLo = max(((lo - start) * rate).rounded(.up), 0)
        guard k < 0x1p53 else {
            return Diagnostics.warnOnce("CAEmitterCell: more than 2^53 births since emission began: the cell is not simulated")
        }
        guard k >= kLo else { return }
        let cellKey = parentKey ^ n.pathKey
        if collectsRuns {
            if n.children.isEmpty, origin == nil {
                appendRun(node: node, tree: tree, src: src, start: start, rate: rate, from: k, to: kLo, cellKey: cellKey, at: t)
            } else {
                runsRefused = true
            }
            return
        }
        if n.children.isEmpty, emitInParallel(node: node, tree: tree, src: src, start: start, rate: rate, from: k, to: kLo,
                                              cellKey: cellKey, window: window, origin: origin, at: t) {
            return
        }
        while k >= kLo {
            if candidates >= Self.maxCandidates || particles.count >= Self.maxParticles { capped = true; return }
            candidates += 1
            let birth = start + k / rate
            let key = EmitterHash.mix(cellKey &+ UInt64(k))
            k -= 1
            spawn(node: node, tree: tree, src: src, birth: birth, key: key, window: window, origin: origin, at: t)
        }
    }

    /// One particle of `node` born at `birth` with the values `src` (those of its birth time):
    /// appended when alive at t, then its sub-cells' particles.
    mutating func spawn(node: Int, tree: EmitterCellTree, src: EmitterSnapshot, birth: Double, key: UInt64,
                        window: (Double, Double), origin: Origin?, at t: Double) {
        let n = tree.nodes[node]
        guard let born = Self.born(src.values[node], src.state, current: currentIndex[n.pathKey], birth: birth, key: key,
                                   windowStart: window.0, origin: origin, at: t) else { return }
        if let p = born.particle { particles.append(p) }
        for c in n.children where birth + tree.nodes[c].reach + born.life >= t {
            emit(node: c, tree: tree, src: src, window: (birth, birth + born.life), parentKey: key, origin: born.motion, at: t)
        }
    }

    /// The particle `key` of a cell with values `v`, born at `birth`: its lifetime and motion
    /// (for its sub-cells), and the particle at t when it is alive then and drawn (`current`: its
    /// cell's node in the tree drawn now). Nil when its lifetime is not positive. A pure
    /// function, so the births of one cell can be computed on several threads.
    @inline(__always)
    static func born(_ v: EmitterCellValues, _ st: EmitterLayerState, current: Int?, birth: Double, key: UInt64,
                     windowStart: Double, origin: Origin?, at t: Double) -> (life: Double, motion: Origin, particle: EmitterParticle?)? {
        let life = (v.lifetime + v.lifetimeRange * EmitterHash.signed(key, 0)) * Double(st.lifetime)
        guard life > 0 else { return nil }
        let age = t - birth
        // Position and velocity at birth.
        let p0: SIMD3<Double>
        if let origin { p0 = origin.at(birth - windowStart) } else { p0 = Self.emitterPoint(key, st) }
        let speed = (v.velocity + v.velocityRange * EmitterHash.signed(key, 1)) * Double(st.velocity)
        let longitude = v.emissionLongitude + v.emissionRange * (EmitterHash.unit(key, 2) - 0.5)
        let latitude = v.emissionLatitude
        let dir = SIMD3(cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude))
        let motion = Origin(p0: p0, v: dir * speed, acc: v.acceleration)
        guard age < life, let current else { return (life, motion, nil) }
        let s = max((v.scale + v.scaleRange * EmitterHash.signed(key, 3) + v.scaleSpeed * age) * Double(st.scale), 0)
        let spin = (v.spin + v.spinRange * EmitterHash.signed(key, 4)) * Double(st.spin)
        var c = v.color
        c.x += v.colorRange.x * EmitterHash.signed(key, 5)
        c.y += v.colorRange.y * EmitterHash.signed(key, 6)
        c.z += v.colorRange.z * EmitterHash.signed(key, 7)
        c.w += v.colorRange.w * EmitterHash.signed(key, 8)
        c += v.colorSpeed * age
        c = simd_clamp01(c)
        let p = motion.at(age)
        guard p.x.isFinite, p.y.isFinite, p.z.isFinite, s.isFinite else { return (life, motion, nil) }
        return (life, motion, EmitterParticle(node: current, position: p, scale: s, angle: spin * age, color: c,
                                              birthTime: birth, key: key))
    }

    /// A point of the emitter shape for the particle `key` (CAEmitterLayer `emitterShape`,
    /// `emitterMode`; Apple's documented shapes, centred on `emitterPosition`,
    /// `emitterZPosition`). Modes, as this renderer reads Apple's one-line descriptions:
    /// `points` — the shape's corners (a point, a line's two ends, a rectangle's 4 or a
    /// cuboid's 8 corners; a circle's or sphere's centre); `outline` — its edges (a circle's
    /// circumference, a sphere's surface); `surface` — its area (a cuboid's six faces, a
    /// circle's disc, a sphere's surface); `volume` — its inside (a cuboid's box, a sphere's ball;
    /// a flat shape's area).
    static func emitterPoint(_ key: UInt64, _ state: EmitterLayerState) -> SIMD3<Double> {
        let c = SIMD3(Double(state.emitterPosition.x), Double(state.emitterPosition.y), Double(state.emitterZPosition))
        let w = Double(state.emitterSize.width), h = Double(state.emitterSize.height), d = Double(state.emitterDepth)
        let u = EmitterHash.unit(key, 10), v = EmitterHash.unit(key, 11), q = EmitterHash.unit(key, 12)
        let mode = state.emitterMode
        switch state.emitterShape {
        case .line:
            if mode == .points { return c + SIMD3(u < 0.5 ? -w / 2 : w / 2, 0, 0) }
            return c + SIMD3((u - 0.5) * w, 0, 0)
        case .rectangle:
            if mode == .points { return c + SIMD3(u < 0.5 ? -w / 2 : w / 2, v < 0.5 ? -h / 2 : h / 2, 0) }
            if mode == .outline { return c + Self.perimeterPoint(u, w, h) }
            return c + SIMD3((u - 0.5) * w, (v - 0.5) * h, 0)
        case .cuboid:
            switch mode {
            case .points:
                return c + SIMD3(u < 0.5 ? -w / 2 : w / 2, v < 0.5 ? -h / 2 : h / 2, q < 0.5 ? -d / 2 : d / 2)
            case .outline:
                // One of the 12 edges: 4 along each axis, chosen by q.
                let e = min(Int(q * 12), 11), s1 = (e & 1) == 0 ? -0.5 : 0.5, s2 = (e & 2) == 0 ? -0.5 : 0.5
                switch e / 4 {
                case 0: return c + SIMD3((u - 0.5) * w, s1 * h, s2 * d)
                case 1: return c + SIMD3(s1 * w, (u - 0.5) * h, s2 * d)
                default: return c + SIMD3(s1 * w, s2 * h, (u - 0.5) * d)
                }
            case .surface:
                let f = min(Int(q * 6), 5), side = (f & 1) == 0 ? -0.5 : 0.5
                switch f / 2 {
                case 0: return c + SIMD3(side * w, (u - 0.5) * h, (v - 0.5) * d)
                case 1: return c + SIMD3((u - 0.5) * w, side * h, (v - 0.5) * d)
                default: return c + SIMD3((u - 0.5) * w, (v - 0.5) * h, side * d)
                }
            default:
                return c + SIMD3((u - 0.5) * w, (v - 0.5) * h, (q - 0.5) * d)
            }
        case .circle:
            // Radius emitterSize.width (Apple's `circle` doc).
            let a = u * 2 * Double.pi
            switch mode {
            case .points: return c
            case .outline: return c + SIMD3(cos(a) * w, sin(a) * w, 0)
            default: let r = w * v.squareRoot(); return c + SIMD3(cos(a) * r, sin(a) * r, 0)
            }
        case .sphere:
            // Radius emitterSize.width, as the circle.
            let a = u * 2 * Double.pi, z = 2 * v - 1, ring = (1 - z * z).squareRoot()
            let onSurface = SIMD3(cos(a) * ring, sin(a) * ring, z)
            switch mode {
            case .points: return c
            case .outline, .surface: return c + onSurface * w
            default: return c + onSurface * (w * cbrt(q))
            }
        default:
            return c
        }
    }

    /// A point on a w × h rectangle's perimeter (centred on the origin), uniform by length.
    static func perimeterPoint(_ u: Double, _ w: Double, _ h: Double) -> SIMD3<Double> {
        let total = 2 * (abs(w) + abs(h))
        guard total > 0 else { return .zero }
        var s = u * total
        if s < abs(w) { return SIMD3(s - w / 2, -h / 2, 0) }
        s -= abs(w)
        if s < abs(w) { return SIMD3(s - w / 2, h / 2, 0) }
        s -= abs(w)
        if s < abs(h) { return SIMD3(-w / 2, s - h / 2, 0) }
        s -= abs(h)
        return SIMD3(w / 2, s - h / 2, 0)
    }

    /// The particles in the order `renderMode` composites them (first drawn first):
    /// `oldestFirst` — oldest first, so the youngest end on top; `oldestLast` — the reverse;
    /// `backToFront` — by z, farthest (lowest z) first; `unordered` and `additive` — cell by
    /// cell, youngest first (Apple leaves the order unspecified; this one is deterministic).
    package func ordered() -> [EmitterParticle] {
        func older(_ a: EmitterParticle, _ b: EmitterParticle) -> Bool {
            a.birthTime != b.birthTime ? a.birthTime < b.birthTime : a.key < b.key
        }
        switch state.renderMode {
        case .oldestFirst: return particles.sorted(by: older)
        case .oldestLast: return particles.sorted { older($1, $0) }
        case .backToFront:
            return particles.sorted { a, b in a.position.z != b.position.z ? a.position.z < b.position.z : older(a, b) }
        default: return particles
        }
    }
}

@inline(__always)
func simd_clamp01(_ v: SIMD4<Double>) -> SIMD4<Double> {
    SIMD4(min(max(v.x, 0), 1), min(max(v.y, 0), 1), min(max(v.z, 0), 1), min(max(v.w, 0), 1))
}
