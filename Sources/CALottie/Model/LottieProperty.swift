import Foundation
import CoreGraphics

/// One keyframe of an animated property (bodymovin: `t`, `s`, `e`, `h`, `i`, `o`, `ti`, `to`).
/// `o` is the easing's first control point (leaving this keyframe), `i` the second (arriving at
/// the next one), both in the unit square; only their first dimension is used, as lottie-ios does.
struct LottieKeyframe<Value: Sendable>: Sendable {
    var time: Double
    var value: Value
    /// The 4.x form's explicit end value of the segment that starts here (`e`).
    var end: Value?
    var hold: Bool
    var outTangent: CGPoint?
    var inTangent: CGPoint?
    /// Spatial tangents (`to` leaving, `ti` arriving), relative to the values; position only.
    var spatialOut: [Double]?
    var spatialIn: [Double]?
}

/// What can be a property's value: decoded from JSON, interpolated.
protocol LottieValue: Sendable {
    init?(json: LottieJSON)
    static func interpolate(_ a: Self, _ b: Self, _ t: Double) -> Self
}

/// A vector of numbers: scalars (one component), points, sizes, colours, gradient stops.
struct LottieVector: LottieValue, Equatable {
    var v: [Double]
    init(_ v: [Double]) { self.v = v }
    init?(json: LottieJSON) { guard let v = json.vector, !v.isEmpty else { return nil }; self.v = v }
    subscript(i: Int) -> Double { i < v.count ? v[i] : (v.last ?? 0) }
    var x: Double { self[0] }
    /// A missing second component is 0 (lottie-ios decodes `[x]` as (x, 0, 0)).
    var y: Double { v.count > 1 ? v[1] : 0 }
    static func interpolate(_ a: Self, _ b: Self, _ t: Double) -> Self {
        guard a.v.count == b.v.count else { return t < 1 ? a : b }
        return LottieVector(zip(a.v, b.v).map { $0 + ($1 - $0) * t })
    }
}

/// A Bézier shape (`{i, o, v, c}`): vertices with in/out tangents relative to each vertex.
struct LottieBezier: LottieValue, Equatable {
    var vertices: [CGPoint]
    var inTangents: [CGPoint]
    var outTangents: [CGPoint]
    var closed: Bool

    init(vertices: [CGPoint], inTangents: [CGPoint], outTangents: [CGPoint], closed: Bool) {
        self.vertices = vertices; self.inTangents = inTangents; self.outTangents = outTangents; self.closed = closed
    }

    init?(json: LottieJSON) {
        var j = json
        // Keyframes wrap the shape in a one-element array.
        if case .array(let a) = j, let first = a.first, case .object = first { j = first }
        guard case .object = j else { return nil }
        func points(_ key: String) -> [CGPoint] {
            (j[key]?.array ?? []).compactMap { $0.vector }.map { CGPoint(x: $0.first ?? 0, y: $0.count > 1 ? $0[1] : 0) }
        }
        vertices = points("v")
        inTangents = points("i")
        outTangents = points("o")
        closed = j["c"]?.bool ?? false
        while inTangents.count < vertices.count { inTangents.append(.zero) }
        while outTangents.count < vertices.count { outTangents.append(.zero) }
    }

    static func interpolate(_ a: Self, _ b: Self, _ t: Double) -> Self {
        guard a.vertices.count == b.vertices.count else { return t < 1 ? a : b }
        func lerp(_ p: [CGPoint], _ q: [CGPoint]) -> [CGPoint] {
            zip(p, q).map { CGPoint(x: $0.x + ($1.x - $0.x) * t, y: $0.y + ($1.y - $0.y) * t) }
        }
        return LottieBezier(vertices: lerp(a.vertices, b.vertices), inTangents: lerp(a.inTangents, b.inTangents),
                            outTangents: lerp(a.outTangents, b.outTangents), closed: a.closed || b.closed)
    }
}

/// An animatable property (`{"a": 0|1, "k": …, "x": expression}`): a static value or keyframes.
struct LottieProperty<Value: LottieValue>: Sendable {
    var keyframes: [LottieKeyframe<Value>]
    /// An After Effects expression (`x`); not run (a `LottieIssue` names it).
    var expression: String?

    init(constant: Value) { keyframes = [LottieKeyframe(time: 0, value: constant, hold: false)] }

    init?(json: LottieJSON?, maxKeyframes: Int = 100_000) {
        guard let json else { return nil }
        var k: LottieJSON = json
        if case .object = json {
            guard let inner = json["k"] else { return nil }
            k = inner
            expression = json["x"]?.string
        }
        if case .array(let arr) = k, let first = arr.first, case .object(let o) = first, o["t"] != nil {
            var out: [LottieKeyframe<Value>] = []
            out.reserveCapacity(min(arr.count, maxKeyframes))
            for item in arr.prefix(maxKeyframes) {
                guard let t = item["t"]?.number else { continue }
                let s = item["s"].flatMap(Value.init(json:))
                let e = item["e"].flatMap(Value.init(json:))
                // The 4.x form's last keyframe has only `t`: its value is the previous `e`.
                guard let value = s ?? out.last?.end ?? e else { continue }
                func handle(_ key: String) -> CGPoint? {
                    guard let h = item[key], let x = h["x"]?.number, let y = h["y"]?.number else { return nil }
                    return CGPoint(x: x, y: y)
                }
                out.append(LottieKeyframe(time: t, value: value, end: e, hold: item["h"]?.bool ?? false,
                                          outTangent: handle("o"), inTangent: handle("i"),
                                          spatialOut: item["to"]?.vector, spatialIn: item["ti"]?.vector))
            }
            out.sort { $0.time < $1.time }
            guard !out.isEmpty else { return nil }
            keyframes = out
        } else {
            guard let v = Value(json: k) else { return nil }
            keyframes = [LottieKeyframe(time: 0, value: v, hold: false)]
        }
    }

    var isAnimated: Bool { keyframes.count > 1 }
    var initial: Value { keyframes[0].value }

    /// The value at `frame` (in the property's layer frames): easing from the handles, holds,
    /// spatial Béziers for positions; before the first and after the last keyframe, their values.
    func value(at frame: Double) -> Value {
        guard keyframes.count > 1 else { return keyframes[0].value }
        if frame <= keyframes[0].time { return keyframes[0].value }
        guard let last = keyframes.last, frame < last.time else { return keyframes[keyframes.count - 1].value }
        var lo = 0, hi = keyframes.count - 1
        while hi - lo > 1 { let m = (lo + hi) / 2; if keyframes[m].time <= frame { lo = m } else { hi = m } }
        let a = keyframes[lo], b = keyframes[hi]
        if a.hold { return a.value }
        let span = b.time - a.time
        let u = span > 0 ? (frame - a.time) / span : 1
        let p = LottieEasing.progress(u, out: a.outTangent, in: a.inTangent)
        return Self.segment(a, to: a.end ?? b.value, p)
    }

    static func segment(_ a: LottieKeyframe<Value>, to end: Value, _ p: Double) -> Value {
        if let va = a.value as? LottieVector, let vb = end as? LottieVector,
           let to = a.spatialOut, let ti = a.spatialIn, to.contains(where: { $0 != 0 }) || ti.contains(where: { $0 != 0 }) {
            return LottieSpatial.point(from: va, to: vb, out: to, in: ti, progress: p) as! Value
        }
        return Value.interpolate(a.value, end, p)
    }
}

/// The timing of one keyframe segment: a cubic Bézier through (0,0), o, i, (1,1) — the same
/// curve `CAMediaTimingFunction(controlPoints:)` evaluates.
enum LottieEasing {
    static func progress(_ u: Double, out: CGPoint?, in inn: CGPoint?) -> Double {
        guard let o = out, let i = inn else { return u }
        let x1 = min(max(Double(o.x), 0), 1), x2 = min(max(Double(i.x), 0), 1)
        let y1 = Double(o.y), y2 = Double(i.y)
        if x1 == y1 && x2 == y2 { return u }
        // Solve x(s) = u by bisection (monotone in s since x1, x2 ∈ [0, 1]), then y(s).
        func bez(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let m = 1 - s
            return 3 * m * m * s * p1 + 3 * m * s * s * p2 + s * s * s
        }
        var lo = 0.0, hi = 1.0, s = u
        for _ in 0..<40 {
            s = (lo + hi) / 2
            if bez(s, x1, x2) < u { lo = s } else { hi = s }
        }
        return bez(s, y1, y2)
    }
}

/// Spatial interpolation of a position along the cubic Bézier from `a` to `b` with the
/// keyframe's tangents, by arc length (as lottie-web and lottie-ios do).
enum LottieSpatial {
    static func point(from a: LottieVector, to b: LottieVector, out to: [Double], in ti: [Double], progress p: Double) -> LottieVector {
        let p0 = CGPoint(x: a.x, y: a.y), p3 = CGPoint(x: b.x, y: b.y)
        let p1 = CGPoint(x: p0.x + (to.first ?? 0), y: p0.y + (to.count > 1 ? to[1] : 0))
        let p2 = CGPoint(x: p3.x + (ti.first ?? 0), y: p3.y + (ti.count > 1 ? ti[1] : 0))
        func at(_ s: Double) -> CGPoint {
            let m = 1 - s
            let a = m * m * m, b = 3 * m * m * s, c = 3 * m * s * s, d = s * s * s
            return CGPoint(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
        }
        let n = 48
        var lengths = [0.0]
        var prev = p0
        for k in 1...n {
            let q = at(Double(k) / Double(n))
            lengths.append(lengths[k - 1] + hypot(q.x - prev.x, q.y - prev.y))
            prev = q
        }
        let total = lengths[n]
        var pt: CGPoint
        if total <= 0 { pt = p0 } else {
            let target = min(max(p, -1), 2) * total
            if target <= 0 { pt = at(max(p, 0)) }
            else if target >= total { pt = p3 }
            else {
                var k = 1
                while k < n, lengths[k] < target { k += 1 }
                let seg = lengths[k] - lengths[k - 1]
                let f = seg > 0 ? (target - lengths[k - 1]) / seg : 0
                pt = at((Double(k - 1) + f) / Double(n))
            }
        }
        var v = a.v
        if v.count >= 1 { v[0] = pt.x }
        if v.count >= 2 { v[1] = pt.y }
        if v.count >= 3, b.v.count >= 3 { v[2] = a.v[2] + (b.v[2] - a.v[2]) * p }
        return LottieVector(v)
    }
}
