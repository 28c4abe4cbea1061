import CoreGraphics

/// A `CAEmitterLayer`'s cells flattened for one simulation: each usable cell once per place it
/// appears, with its parent, its depth and a path key (what the particles' random numbers are
/// hashed from, so they stay the same when an unrelated cell is added elsewhere in the tree).
///
/// Bad trees are cut, each with one warning naming the problem (the rest still emits):
/// - a cell reachable from itself (a cycle through `emitterCells`) is rejected where it
///   repeats: its particles would emit particles of their own kind for ever;
/// - nesting deeper than `maxDepth` levels is not simulated;
/// - more than `maxCells` cells in all (a shared cell listed many times at several levels
///   multiplies) are not simulated.
package struct EmitterCellTree {
    /// Sub-cells nested deeper than this (the layer's cells are depth 0) are not simulated.
    package static let maxDepth = 8
    /// Cells of one layer, counting every place a shared cell appears.
    package static let maxCells = 1024

    package struct Node {
        package var cell: CAEmitterCell
        /// Index of the parent node; nil for the layer's own cells.
        package var parent: Int?
        package var depth: Int
        /// Hash of the path of indices from the layer to this cell.
        package var pathKey: UInt64
        /// Indices of the child nodes.
        package var children: [Int] = []
        /// The cell's values, read once and made finite (`EmitterCellValues`).
        package var values: EmitterCellValues
        /// Seconds after a particle's birth during which it or a particle descended from it may
        /// still be alive: how far back the simulation looks for its births.
        package var reach: Double = 0
    }

    package private(set) var nodes: [Node] = []
    /// Indices of the layer's own (depth 0) cells.
    package private(set) var roots: [Int] = []

    package init(cells: [CAEmitterCell]?, lifetimeScale: Double) {
        var onPath = Set<ObjectIdentifier>()
        for (i, c) in (cells ?? []).enumerated() {
            if let r = add(c, parent: nil, depth: 0, key: EmitterHash.mix(0xC311_0000 &+ UInt64(i)), onPath: &onPath) {
                roots.append(r)
            }
        }
        // Reach, children before parents (children always have higher indices).
        for i in nodes.indices.reversed() {
            let v = nodes[i].values
            let own = v.maxLifetime * lifetimeScale
            let sub = nodes[i].children.map { nodes[$0].reach }.max() ?? 0
            // A sub-particle is born while its parent lives, then lives its own reach.
            nodes[i].reach = own + sub
        }
    }

    private mutating func add(_ cell: CAEmitterCell, parent: Int?, depth: Int, key: UInt64, onPath: inout Set<ObjectIdentifier>) -> Int? {
        let id = ObjectIdentifier(cell)
        guard !onPath.contains(id) else {
            Diagnostics.warnOnce("CAEmitterCell\(cell.name.map { " '\($0)'" } ?? ""): a cell reachable from itself through emitterCells is rejected where it repeats (a cycle)")
            return nil
        }
        guard depth < Self.maxDepth else {
            Diagnostics.warnOnce("CAEmitterCell: sub-cells nested deeper than \(Self.maxDepth) levels are not simulated")
            return nil
        }
        guard nodes.count < Self.maxCells else {
            Diagnostics.warnOnce("CAEmitterLayer: more than \(Self.maxCells) emitter cells (counting each place a shared cell appears): the rest are not simulated")
            return nil
        }
        guard cell.isEnabled else { return nil }
        let index = nodes.count
        nodes.append(Node(cell: cell, parent: parent, depth: depth, pathKey: key, values: EmitterCellValues(cell)))
        onPath.insert(id)
        for (i, sub) in (cell.emitterCells ?? []).enumerated() {
            if let c = add(sub, parent: index, depth: depth + 1, key: EmitterHash.mix(key ^ (0x5B00_0000 &+ UInt64(i))), onPath: &onPath) {
                nodes[index].children.append(c)
            }
        }
        onPath.remove(id)
        return index
    }
}

/// One cell's values as the simulation uses them, read once per frame. Values that are not
/// finite (cells are plain objects: nothing stops `cell.velocity = .nan`) count as the
/// property's default with one warning naming the property; negative lifetimes and birth rates
/// emit nothing.
package struct EmitterCellValues {
    package var birthRate: Double
    package var lifetime: Double, lifetimeRange: Double
    package var emissionLatitude: Double, emissionLongitude: Double, emissionRange: Double
    package var velocity: Double, velocityRange: Double
    package var acceleration: SIMD3<Double>
    package var scale: Double, scaleRange: Double, scaleSpeed: Double
    package var spin: Double, spinRange: Double
    /// Straight RGBA of `color` (nil colour: transparent, nothing shows).
    package var color: SIMD4<Double>
    package var colorRange: SIMD4<Double>
    package var colorSpeed: SIMD4<Double>
    package var beginTime: Double
    package var duration: Double
    /// When the cell emits, in its parent's time (the layer's local time for a top-level cell,
    /// the parent particle's age for a sub-cell): from `emissionStart` to `emissionEnd`
    /// (`.infinity`: no end). See `init` for how the cell's CAMediaTiming gives them.
    package var emissionStart: Double
    package var emissionEnd: Double
    /// The cell's `speed` as a factor on its birth rate (0: the cell's time stands still and
    /// it emits nothing).
    package var rateScale: Double

    /// The longest a particle of this cell lives, before the layer's multiplier.
    package var maxLifetime: Double { max(lifetime + abs(lifetimeRange), 0) }

    init(_ c: CAEmitterCell) {
        func f(_ v: Double, _ name: String, _ fallback: Double = 0) -> Double {
            if v.isFinite { return v }
            Diagnostics.warnOnce("CAEmitterCell.\(name) is not finite: the default (\(fallback)) is used")
            return fallback
        }
        birthRate = f(Double(c.birthRate), "birthRate")
        lifetime = f(Double(c.lifetime), "lifetime")
        lifetimeRange = f(Double(c.lifetimeRange), "lifetimeRange")
        emissionLatitude = f(Double(c.emissionLatitude), "emissionLatitude")
        emissionLongitude = f(Double(c.emissionLongitude), "emissionLongitude")
        emissionRange = f(Double(c.emissionRange), "emissionRange")
        velocity = f(Double(c.velocity), "velocity")
        velocityRange = f(Double(c.velocityRange), "velocityRange")
        acceleration = SIMD3(f(Double(c.xAcceleration), "xAcceleration"), f(Double(c.yAcceleration), "yAcceleration"),
                             f(Double(c.zAcceleration), "zAcceleration"))
        scale = f(Double(c.scale), "scale", 1)
        scaleRange = f(Double(c.scaleRange), "scaleRange")
        scaleSpeed = f(Double(c.scaleSpeed), "scaleSpeed")
        spin = f(Double(c.spin), "spin")
        spinRange = f(Double(c.spinRange), "spinRange")
        if let col = c.color {
            let v = col.rgba
            color = SIMD4(f(Double(v.red), "color"), f(Double(v.green), "color"), f(Double(v.blue), "color"), f(Double(v.alpha), "color"))
        } else {
            color = .zero
        }
        colorRange = SIMD4(f(Double(c.redRange), "redRange"), f(Double(c.greenRange), "greenRange"),
                           f(Double(c.blueRange), "blueRange"), f(Double(c.alphaRange), "alphaRange"))
        colorSpeed = SIMD4(f(Double(c.redSpeed), "redSpeed"), f(Double(c.greenSpeed), "greenSpeed"),
                           f(Double(c.blueSpeed), "blueSpeed"), f(Double(c.alphaSpeed), "alphaSpeed"))
        beginTime = f(c.beginTime, "beginTime")
        duration = f(c.duration, "duration")
        // CAMediaTiming on a cell (docs/BEHAVIOUR.md Q7): the cell's local time is
        // (parent time − beginTime) × speed + timeOffset, and it emits while that local time is
        // inside its active duration — `repeatDuration` when set, else `duration` × repeatCount
        // (0: once; fractions play part of it), doubled by `autoreverses`; `duration` 0 and an infinite repeat count
        // never end. An emitter's births are uniform in time, so repeating and reversing only
        // lengthen the window; `timeOffset` starts the cell that far into it; `speed` scales
        // both the births per second of parent time and the window's length in parent time.
        let speed = f(Double(c.speed), "speed", 1)
        let offset = max(f(c.timeOffset, "timeOffset"), 0)
        let repeats = Double(c.repeatCount).isNaN ? 0 : Double(c.repeatCount)
        var active = Double.infinity
        let repeatDuration = f(c.repeatDuration, "repeatDuration")
        if repeatDuration > 0 {
            active = repeatDuration
        } else if duration > 0 {
            active = duration * (repeats > 0 ? repeats : 1) * (c.autoreverses ? 2 : 1)
        }
        rateScale = abs(speed)
        emissionStart = max(beginTime, 0)
        if rateScale == 0 {
            emissionEnd = emissionStart
        } else if active.isFinite {
            emissionEnd = beginTime + max(active - offset, 0) / rateScale
        } else {
            emissionEnd = .infinity
        }
    }
}

/// Counter-based random numbers: every value is a hash of (seed, cell path, particle number,
/// slot), never the next output of a generator advanced per frame, so any frame can be
/// computed alone. The finaliser is SplitMix64's (Steele, Lea, Flood, OOPSLA 2014).
package enum EmitterHash {
    @inline(__always)
    package static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in [0, 1) for `slot` of the particle `key`.
    @inline(__always)
    package static func unit(_ key: UInt64, _ slot: UInt64) -> Double {
        Double(mix(key ^ (slot &* 0xD6E8_FEB8_6659_FD93)) >> 11) * 0x1p-53
    }

    /// A uniform value in [-1, 1).
    @inline(__always)
    package static func signed(_ key: UInt64, _ slot: UInt64) -> Double { unit(key, slot) * 2 - 1 }
}
