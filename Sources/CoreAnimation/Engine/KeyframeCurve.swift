/// The values of a keyframe animation as a function of the eased fraction (docs/BEHAVIOUR.md F).
/// A class: an evaluator reads it every frame, and a reference costs one retain where copying
/// the struct's arrays out of the enum that holds it cost several.
package final class KeyframeCurve {
    package enum Segment {
        case line(CGPoint, CGPoint)
        case quad(CGPoint, CGPoint, CGPoint)
        case cubic(CGPoint, CGPoint, CGPoint, CGPoint)

        func point(_ s: Double) -> CGPoint {
            let u = 1 - s
            switch self {
            case let .line(a, b): return CGPoint(x: a.x + (b.x - a.x) * s, y: a.y + (b.y - a.y) * s)
            case let .quad(a, c, b):
                return CGPoint(x: u * u * a.x + 2 * u * s * c.x + s * s * b.x, y: u * u * a.y + 2 * u * s * c.y + s * s * b.y)
            case let .cubic(a, c1, c2, b):
                let w0 = u * u * u, w1 = 3 * u * u * s, w2 = 3 * u * s * s, w3 = s * s * s
                return CGPoint(x: w0 * a.x + w1 * c1.x + w2 * c2.x + w3 * b.x, y: w0 * a.y + w1 * c1.y + w2 * c2.y + w3 * b.y)
            }
        }

        func tangent(_ s: Double) -> CGPoint {
            let u = 1 - s
            switch self {
            case let .line(a, b): return CGPoint(x: b.x - a.x, y: b.y - a.y)
            case let .quad(a, c, b):
                return CGPoint(x: 2 * u * (c.x - a.x) + 2 * s * (b.x - c.x), y: 2 * u * (c.y - a.y) + 2 * s * (b.y - c.y))
            case let .cubic(a, c1, c2, b):
                return CGPoint(x: 3 * u * u * (c1.x - a.x) + 6 * u * s * (c2.x - c1.x) + 3 * s * s * (b.x - c2.x),
                               y: 3 * u * u * (c1.y - a.y) + 6 * u * s * (c2.y - c1.y) + 3 * s * s * (b.y - c2.y))
            }
        }

        var length: Double {
            var total = 0.0, prev = point(0)
            for i in 1...16 {
                let p = point(Double(i) / 16)
                total += hypot(p.x - prev.x, p.y - prev.y); prev = p
            }
            return total
        }
    }

    let values: [AnimValue]
    let keyTimes: [Double]
    let timingFunctions: [CAMediaTimingFunction?]
    let mode: CAAnimationCalculationMode
    /// Along a path: one segment per keyframe step (F7).
    let segments: [Segment]?
    let rotationOffset: Double
    /// Cubic mode: outgoing and incoming tangents per value, per component (F6).
    let outTangents: [[Double]]
    let inTangents: [[Double]]
    /// The values unboxed, for the frame step's typed tracks (`FastTrack`): set when every
    /// value is a number (or every value a point) and the mode is not cubic, whose tangents
    /// work on boxed components.
    package let numbers: [Double]?
    package let points: [CGPoint]?

    /// Builds the curve; nil when there is nothing to animate (no values, no usable path).
    package init?(values given: [AnimValue], path: CGPath?, keyTimes kt: [Double]?, timingFunctions tf: [CAMediaTimingFunction]?,
                  mode: CAAnimationCalculationMode, tension: [Double], continuity: [Double], bias: [Double],
                  rotationMode: CAAnimationRotationMode?) {
        var vals = given
        var segs: [Segment]? = nil
        if let path {
            var s: [Segment] = []
            var start = CGPoint.zero, cur = CGPoint.zero
            var points: [CGPoint] = []
            for e in path.elements {
                switch e {
                case .move(let p): cur = p; start = p; if points.isEmpty { points.append(p) }
                case .line(let p): s.append(.line(cur, p)); cur = p; points.append(p)
                case .quad(let c, let p): s.append(.quad(cur, c, p)); cur = p; points.append(p)
                case .cubic(let c1, let c2, let p): s.append(.cubic(cur, c1, c2, p)); cur = p; points.append(p)
                case .close:
                    // The close segment is a line back to the subpath's start (F7, inferred).
                    if cur != start { s.append(.line(cur, start)); points.append(start) }
                    cur = start
                }
            }
            if !s.isEmpty { segs = s; vals = points.map { .point($0) } }
        }
        guard !vals.isEmpty else { return nil }
        values = vals
        segments = segs
        self.mode = mode
        rotationOffset = rotationMode == .rotateAutoReverse ? Double.pi : 0
        let n = vals.count
        let paced = mode == .paced || mode == .cubicPaced
        if paced {
            // Key times proportional to the distance covered (F5); timing functions ignored.
            var d = [0.0]
            for i in 1..<max(n, 1) where n > 1 {
                d.append(d[i - 1] + (segs.map { $0[i - 1].length } ?? vals[i - 1].distance(to: vals[i])))
            }
            let total = d.last ?? 0
            keyTimes = total > 0 ? d.map { $0 / total } : KeyframeCurve.even(n)
            timingFunctions = []
        } else {
            keyTimes = KeyframeCurve.validated(kt, count: n, discrete: mode == .discrete) ?? KeyframeCurve.even(n)
            let segments = max(n - 1, 1)
            timingFunctions = (tf?.count ?? 0) >= segments ? tf!.map { Optional($0) } : []
        }
        // Kochanek–Bartels tangents; the ends reflect the neighbour (P₋₁ = 2P₀ − P₁), which
        // OpenCoreAnimation reports matches QuartzCore (docs/BEHAVIOUR.md F6, O5).
        var outT: [[Double]] = [], inT: [[Double]] = []
        if mode == .cubic || mode == .cubicPaced, let comps = vals.map(\.components) as? [[Double]],
           let dim = comps.first?.count, comps.allSatisfy({ $0.count == dim }) {
            for i in 0..<n {
                let prev = i > 0 ? comps[i - 1] : zip(comps[0], comps[min(1, n - 1)]).map { 2 * $0 - $1 }
                let next = i < n - 1 ? comps[i + 1] : zip(comps[n - 1], comps[max(n - 2, 0)]).map { 2 * $0 - $1 }
                let t = i < tension.count ? tension[i] : 0
                let c = i < continuity.count ? continuity[i] : 0
                let b = i < bias.count ? bias[i] : 0
                let d0 = zip(comps[i], prev).map { $0 - $1 }, d1 = zip(next, comps[i]).map { $0 - $1 }
                outT.append(zip(d0, d1).map { (1 - t) * (1 + c) * (1 + b) / 2 * $0 + (1 - t) * (1 - c) * (1 - b) / 2 * $1 })
                inT.append(zip(d0, d1).map { (1 - t) * (1 - c) * (1 + b) / 2 * $0 + (1 - t) * (1 + c) * (1 - b) / 2 * $1 })
            }
        }
        outTangents = outT
        inTangents = inT
        let typed = outT.isEmpty
        numbers = typed ? KeyframeCurve.unboxed(vals) { if case .number(let x) = $0 { x } else { nil } } : nil
        points = typed ? KeyframeCurve.unboxed(vals) { if case .point(let p) = $0 { p } else { nil } } : nil
    }

    private static func unboxed<T>(_ vals: [AnimValue], _ cast: (AnimValue) -> T?) -> [T]? {
        var out: [T] = []
        out.reserveCapacity(vals.count)
        for v in vals { guard let x = cast(v) else { return nil }; out.append(x) }
        return out
    }

    static func even(_ n: Int) -> [Double] {
        n <= 1 ? [0] : (0..<n).map { Double($0) / Double(n - 1) }
    }

    /// keyTimes as F2 reads them: one per value (or one more, for discrete), each in [0, 1],
    /// non-decreasing; anything else is ignored (nil) with a warning, as Apple's documentation
    /// says invalid key times are. Apple's documentation also asks for a first time of 0 and a
    /// last of 1, but iOS renders key times that start late or end early rather than dropping
    /// them: the first value holds until the first key time, and the last value is reached at
    /// the last key time and held to the end of the duration (an iOS recording of `[0, 0.7]`
    /// with two values reaches the second at 70 % and holds it). So those are honoured, as
    /// `locate` and `discreteIndex` do outside the key times' span.
    static func validated(_ kt: [Double]?, count n: Int, discrete: Bool) -> [Double]? {
        guard let kt else { return nil }
        let countOK = kt.count == n || (discrete && kt.count == n + 1)
        let ok = countOK && zip(kt, kt.dropFirst()).allSatisfy { $0 <= $1 } && kt.allSatisfy { $0 >= 0 && $0 <= 1 }
        if !ok {
            Diagnostics.warnOnce("CAKeyframeAnimation.keyTimes: \(kt.count) key times do not fit \(n) values in \(discrete ? "discrete" : "this") mode; ignored")
            return nil
        }
        return kt
    }

    /// The segment holding `f` and the fraction within it (after its timing function).
    private func locate(_ f: Double) -> (Int, Double) {
        keyTimes.withUnsafeBufferPointer { Self.locate(f, keyTimes: $0, ease: segmentEase) }
    }

    /// A segment's own timing function (F3), when the animation gives them.
    @inline(__always)
    private func segmentEase(_ i: Int, _ s: Double) -> Double {
        guard i < timingFunctions.count, let tf = timingFunctions[i] else { return s }
        return tf.evaluate(at: s)
    }

    /// The segment holding `f` and the fraction within it, eased by `ease` strictly inside the
    /// key times (the ends return 0 and 1). Static over buffers so the frame step's table
    /// (`StepTable`), which keeps key times and values inline, computes exactly what the curve
    /// does.
    @inline(__always)
    static func locate(_ f: Double, keyTimes: UnsafeBufferPointer<Double>,
                       ease: (Int, Double) -> Double = { $1 }) -> (Int, Double) {
        let n = keyTimes.count
        guard n > 1 else { return (0, 0) }
        if f <= keyTimes[0] { return (0, 0) }
        if f >= keyTimes[n - 1] { return (n - 2, 1) }
        var lo = 0, hi = n - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if keyTimes[mid] <= f { lo = mid } else { hi = mid }
        }
        let span = keyTimes[lo + 1] - keyTimes[lo]
        return (lo, ease(lo, span > 0 ? (f - keyTimes[lo]) / span : 1))
    }

    package func value(at f: Double, underlying: AnimValue) -> AnimValue {
        let n = values.count
        if n == 1 { return values[0] }
        if mode == .discrete { return values[discreteIndex(f, n)] }
        let (i, s) = locate(f)
        if let segments, i < segments.count { return .point(segments[i].point(s)) }
        let a = values[i], b = values[min(i + 1, n - 1)]
        if !outTangents.isEmpty, let pa = a.components, let pb = b.components {
            let h00 = 2 * s * s * s - 3 * s * s + 1, h10 = s * s * s - 2 * s * s + s
            let h01 = -2 * s * s * s + 3 * s * s, h11 = s * s * s - s * s
            let ts = outTangents[i], td = inTangents[min(i + 1, n - 1)]
            return a.withComponents((0..<pa.count).map { h00 * pa[$0] + h10 * ts[$0] + h01 * pb[$0] + h11 * td[$0] })
        }
        return a.interpolated(to: b, s)
    }

    /// `value(at:underlying:)` for a curve whose values are all numbers (`numbers` is set),
    /// without boxing: the same discrete hold, segment search and linear interpolation.
    @inline(__always)
    package func numberValue(at f: Double, _ vals: UnsafeBufferPointer<Double>) -> Double {
        keyTimes.withUnsafeBufferPointer {
            Self.numberValue(at: f, keyTimes: $0, values: vals, discrete: mode == .discrete, ease: segmentEase)
        }
    }

    /// `numberValue` for key times and values held elsewhere (what `StepTable` keeps inline,
    /// for curves without per-segment timing functions).
    @inline(__always)
    static func numberValue(at f: Double, keyTimes kt: UnsafeBufferPointer<Double>, values vals: UnsafeBufferPointer<Double>,
                            discrete: Bool, ease: (Int, Double) -> Double = { $1 }) -> Double {
        let n = vals.count
        if n == 1 { return vals[0] }
        if discrete { return vals[discreteIndex(f, n, keyTimes: kt)] }
        let (i, s) = locate(f, keyTimes: kt, ease: ease)
        let a = vals[i], b = vals[min(i + 1, n - 1)]
        return a + (b - a) * s
    }

    /// `numberValue(at:keyTimes:values:discrete:)` for points (no path segments).
    @inline(__always)
    static func pointValue(at f: Double, keyTimes kt: UnsafeBufferPointer<Double>, values vals: UnsafeBufferPointer<CGPoint>,
                           discrete: Bool) -> CGPoint {
        let n = vals.count
        if n == 1 { return vals[0] }
        if discrete { return vals[discreteIndex(f, n, keyTimes: kt)] }
        let (i, s) = locate(f, keyTimes: kt)
        let a = vals[i], b = vals[min(i + 1, n - 1)]
        return CGPoint(x: a.x + (b.x - a.x) * s, y: a.y + (b.y - a.y) * s)
    }

    /// `value(at:underlying:)` for a curve whose values are all points (`points` is set), along
    /// its path segments when it has them.
    @inline(__always)
    package func pointValue(at f: Double, _ vals: UnsafeBufferPointer<CGPoint>) -> CGPoint {
        let n = vals.count
        if n == 1 { return vals[0] }
        if mode == .discrete { return vals[discreteIndex(f, n)] }
        let (i, s) = locate(f)
        if let segments, i < segments.count { return segments[i].point(s) }
        let a = vals[i], b = vals[min(i + 1, n - 1)]
        return CGPoint(x: a.x + (b.x - a.x) * s, y: a.y + (b.y - a.y) * s)
    }

    /// Discrete mode: each value holds from its key time until the next (F2).
    @inline(__always)
    private func discreteIndex(_ f: Double, _ n: Int) -> Int {
        keyTimes.withUnsafeBufferPointer { Self.discreteIndex(f, n, keyTimes: $0) }
    }

    @inline(__always)
    static func discreteIndex(_ f: Double, _ n: Int, keyTimes: UnsafeBufferPointer<Double>) -> Int {
        var i = 0
        while i + 1 < n, i + 1 < keyTimes.count, keyTimes[i + 1] <= f { i += 1 }
        return i
    }

    /// The direction of travel along the path, in radians (F8).
    package func tangentAngle(at f: Double) -> Double {
        guard let segments, !segments.isEmpty else { return 0 }
        let (i, s) = locate(f)
        let t = segments[min(i, segments.count - 1)].tangent(s)
        return atan2(t.y, t.x) + rotationOffset
    }
}
