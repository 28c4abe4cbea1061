import CoreGraphics

/// The field a width-free raster draws its stroke from (`ShapeRasterizer`, `Request.widthFree`):
/// per texel, the *gauge* of the nearest stroke piece — a distance `g` such that the texel lies
/// in the stroke of half width `hw` exactly when `g ≤ hw`, for every `hw` — with the arc lengths
/// the trims and dashes read, and how far the texel lies beyond an open end.
///
/// Each piece of `PieceStroker`'s stroke scales about the centreline with the half width, so
/// its gauge is a fixed function of position: a segment's body is the distance across it
/// (within its length), a round join the distance to the vertex, a miter join the larger of the
/// distances past the two segments' lines, a bevel join the distance along the bisector over
/// cos(θ/2) (θ the turn). Whether a corner is mitered (1 / sin(φ/2) ≤ miterLimit) does not depend
/// on the width, so one field serves every width. Past an open end the body continues along the
/// end tangent and the fourth channel says how far (texels): the shader draws the cap there,
/// as it does at a trim. Only for placements that are similarities (a stroke as wide in every
/// direction in texels as in layer units, scaled).
///
/// Channels: arc length from the path start and from the subpath start (layer units), gauge
/// (texels; past an open end the distance across the extended line, the cap being the shader's),
/// distance beyond an open end (texels, −1e30 elsewhere); texels no piece reaches keep a gauge
/// of 1e30. `gauge` (one per texel) is the full gauge, caps included, which picks the piece a
/// texel shows and which texels the widest stroke reaches.
enum GaugeField {
    static func compute(_ subpaths: [FlattenedSubpath], style: ShapeStrokeStyle, map: TexelMap, width w: Int, height h: Int,
                        reach: Double) -> (field: [Float], gauge: [Float]) {
        var field = [Float](repeating: 0, count: w * h * 4)
        for k in 0..<(w * h) { field[4 * k + 2] = 1e30; field[4 * k + 3] = -1e30 }
        var best = [Float](repeating: .infinity, count: w * h)
        field.withUnsafeMutableBufferPointer { f in best.withUnsafeMutableBufferPointer { bst in
            /// Offers a piece to the texel: `g` its gauge there (what decides), `across` what the
            /// shader reads (the same except past an open end, where the cap is drawn from
            /// `beyond`).
            @inline(__always) func offer(_ k: Int, _ g: Double, across: Double, s: Double, ssub: Double, beyond: Double) {
                guard Float(g) < bst[k] else { return }
                bst[k] = Float(g)
                f[4 * k] = Float(s); f[4 * k + 1] = Float(ssub); f[4 * k + 2] = Float(across); f[4 * k + 3] = Float(beyond)
            }
            /// Texels within `reach` of the box of `pts` (texel coordinates).
            func box(_ pts: [SIMD2<Double>]) -> (ClosedRange<Int>, ClosedRange<Int>)? {
                var lo = pts[0], hi = pts[0]
                for p in pts { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
                guard lo.x.isFinite, lo.y.isFinite, hi.x.isFinite, hi.y.isFinite else { return nil }
                // Saturating: `reach` follows the line width, any finite number (issue 17).
                let x0 = max(Int.clamped((lo.x - reach).rounded(.down)), 0), x1 = min(Int.clamped((hi.x + reach).rounded(.up)), w - 1)
                let y0 = max(Int.clamped((lo.y - reach).rounded(.down)), 0), y1 = min(Int.clamped((hi.y + reach).rounded(.up)), h - 1)
                guard x0 <= x1, y0 <= y1 else { return nil }
                return (x0...x1, y0...y1)
            }
            var total = 0.0
            for sp in subpaths where sp.hasSegments {
                let seg = PieceStroker.segments(sp)
                let subStart = total
                // Arc length (layer units) at each segment's start.
                var starts: [Double] = []
                var along = total
                for g in seg {
                    starts.append(along)
                    let d = g.b - g.a
                    along += (d.x * d.x + d.y * d.y).squareRoot()
                }
                defer { total = along }
                for (i, g) in seg.enumerated() {
                    let a = map.apply(CGPoint(x: g.a.x, y: g.a.y)), b = map.apply(CGPoint(x: g.b.x, y: g.b.y))
                    let ab = b - a
                    let l2 = ab.x * ab.x + ab.y * ab.y
                    let l = l2.squareRoot()
                    guard l > 0, let (xs, ys) = box([a, b]) else { continue }
                    let u = ab / l
                    let openStart = !sp.isClosed && i == 0, openEnd = !sp.isClosed && i == seg.count - 1
                    let s0 = starts[i], s1 = i + 1 < starts.count ? starts[i + 1] : along
                    for y in ys {
                        for x in xs {
                            let v = SIMD2(Double(x) + 0.5, Double(y) + 0.5) - a
                            let t = (v.x * u.x + v.y * u.y)   // texels along
                            var beyond = -1e30
                            if t < 0 {
                                guard openStart else { continue }
                                beyond = -t
                            } else if t > l {
                                guard openEnd else { continue }
                                beyond = t - l
                            }
                            let across = abs(v.x * u.y - v.y * u.x)
                            // The cap's gauge past the end: a half disc, a square, or (butt)
                            // nothing beyond the texel the cut antialiases.
                            var g = across
                            if beyond > 0 {
                                switch style.cap {
                                case .round: g = (across * across + beyond * beyond).squareRoot()
                                case .square: g = max(across, beyond)
                                case .butt:
                                    guard beyond <= 1 else { continue }
                                    g = max(across, beyond)
                                }
                            }
                            let s = s0 + (s1 - s0) * (t / l)
                            offer(y * w + x, g, across: across, s: s, ssub: s - subStart, beyond: beyond)
                        }
                    }
                }
                // Joins, decided as `PieceStroker.joinPiece` decides them.
                let joins = sp.isClosed ? seg.count : seg.count - 1
                guard joins > 0 else { continue }
                for j in 0..<joins {
                    let s1 = seg[j], s2 = seg[(j + 1) % seg.count]
                    guard let ratio = PieceStroker.miterRatio(s1.u, s2.u) else { continue }
                    var kind = style.join
                    if !s2.corner { kind = ratio <= 4 ? .miter : .round }
                    if kind == .miter, ratio > (s2.corner ? style.miterLimit : 4) { kind = .bevel }
                    let vtx = map.apply(CGPoint(x: s2.a.x, y: s2.a.y))
                    let sv = starts[(j + 1) % seg.count]
                    // Directions and outward normals in texels (a similarity keeps the angles).
                    let t1 = map.apply(CGPoint(x: s2.a.x + s1.u.x, y: s2.a.y + s1.u.y)) - vtx
                    let t2 = map.apply(CGPoint(x: s2.a.x + s2.u.x, y: s2.a.y + s2.u.y)) - vtx
                    let u1 = t1 / (t1.x * t1.x + t1.y * t1.y).squareRoot(), u2 = t2 / (t2.x * t2.x + t2.y * t2.y).squareRoot()
                    let cross = u1.x * u2.y - u1.y * u2.x
                    let side: Double = cross > 0 ? -1 : 1
                    let n1 = SIMD2(-u1.y, u1.x) * side, n2 = SIMD2(-u2.y, u2.x) * side
                    let bis = n1 + n2
                    let bl = (bis.x * bis.x + bis.y * bis.y).squareRoot()
                    let cosHalf = bl / 2   // cos(θ/2): |n1 + n2| = 2 cos(θ/2)
                    let extent = kind == .miter ? reach * min(ratio, 1e6) : reach
                    guard let (xs, ys) = box([vtx, vtx + bis / max(bl, 1e-12) * extent]) else { continue }
                    for y in ys {
                        for x in xs {
                            let p = SIMD2(Double(x) + 0.5, Double(y) + 0.5) - vtx
                            let g: Double
                            switch kind {
                            case .round:
                                g = (p.x * p.x + p.y * p.y).squareRoot()
                            default:
                                // The wedge between the two segments' end normals, outside.
                                guard p.x * u1.x + p.y * u1.y >= 0, p.x * u2.x + p.y * u2.y <= 0 else { continue }
                                let d1 = p.x * n1.x + p.y * n1.y, d2 = p.x * n2.x + p.y * n2.y
                                guard d1 >= 0 || d2 >= 0 else { continue }
                                if kind == .miter || bl < 1e-12 {
                                    g = max(d1, d2)
                                } else {
                                    g = (p.x * bis.x + p.y * bis.y) / bl / max(cosHalf, 1e-12)
                                }
                            }
                            offer(y * w + x, max(g, 0), across: max(g, 0), s: sv, ssub: sv - subStart, beyond: -1e30)
                        }
                    }
                }
            }
        } }
        return (field, best)
    }
}
