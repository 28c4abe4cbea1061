import CAFrame

/// One instance's quad made ready for the bands: the map from target texels back to the
/// instance's plane (the inverse of its homography, so varyings are perspective-correct by
/// construction: GL interpolates exactly this), the quad on the plane (`lo`…`hi`, as the
/// vertex shader grows it) and the texels it can touch.
struct SoftwareQuad {
    var i0: SIMD3<Float>, i1: SIMD3<Float>, i2: SIMD3<Float>
    var lo: SIMD2<Float>, hi: SIMD2<Float>
    var x0 = 0, y0 = 0, x1 = 0, y1 = 0

    /// An empty quad (nothing drawn: a degenerate or non-finite map).
    static let empty = SoftwareQuad(i0: .zero, i1: .zero, i2: .zero, lo: .zero, hi: .zero)

    init(i0: SIMD3<Float>, i1: SIMD3<Float>, i2: SIMD3<Float>, lo: SIMD2<Float>, hi: SIMD2<Float>) {
        self.i0 = i0; self.i1 = i1; self.i2 = i2; self.lo = lo; self.hi = hi
    }

    /// The quad `lo`…`hi` of a plane mapped to target texels by `map`, in a target of
    /// `width`×`height` texels.
    init(map: Homography, lo: SIMD2<Float>, hi: SIMD2<Float>, width: Int, height: Int) {
        guard map.isFinite, lo.x < hi.x, lo.y < hi.y, let inv = map.inverted(), inv.isFiniteInFloat else { self = .empty; return }
        i0 = SIMD3<Float>(inv.r0); i1 = SIMD3<Float>(inv.r1); i2 = SIMD3<Float>(inv.r2)
        self.lo = lo; self.hi = hi
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var behind = false
        for (x, y) in [(lo.x, lo.y), (hi.x, lo.y), (hi.x, hi.y), (lo.x, hi.y)] {
            guard let p = map.map(Double(x), Double(y)) else { behind = true; break }
            minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y)
        }
        if behind {
            // Part of the quad is behind the eye: its image is unbounded; every texel is tested.
            x0 = 0; y0 = 0; x1 = width; y1 = height
        } else {
            func clampI(_ v: Double, _ limit: Int) -> Int { v.isNaN ? 0 : Int(max(0, min(Double(limit), v))) }
            x0 = clampI(minX.rounded(.down), width); x1 = clampI(maxX.rounded(.up), width)
            y0 = clampI(minY.rounded(.down), height); y1 = clampI(maxY.rounded(.up), height)
        }
    }

    /// Calls `body(x, y, p, dp/dx, dp/dy)` for each texel of `rows` whose centre lies inside the
    /// quad (in front of the eye), with `p` the plane point under the texel centre and its
    /// derivatives per texel (what `dFdx`/`dFdy` of a varying give).
    @inline(__always)
    func forEachTexel(rows: Range<Int>, skipping hole: SoftwareSpan = .none,
                      _ body: (Int, Int, SIMD2<Float>, SIMD2<Float>, SIMD2<Float>) -> Void) {
        let ya = max(y0, rows.lowerBound), yb = min(y1, rows.upperBound)
        guard ya < yb, x0 < x1 else { return }
        let a0 = SIMD2(i0.x, i0.y), a1 = SIMD2(i1.x, i1.y)
        for y in ya..<yb {
            let base = (Float(y) + 0.5) * i1 + i2
            // Texels of the hole (an interior the caller fills as a span) are skipped.
            let inHole = y >= hole.y0 && y < hole.y1
            for x in x0..<x1 {
                if inHole && x >= hole.x0 && x < hole.x1 { continue }
                let h = (Float(x) + 0.5) * i0 + base
                guard h.z > 0 else { continue }
                let inv = 1 / h.z
                let p = SIMD2(h.x, h.y) * inv
                guard p.x >= lo.x, p.y >= lo.y, p.x < hi.x, p.y < hi.y else { continue }
                body(x, y, p, (a0 - p * i0.z) * inv, (a1 - p * i1.z) * inv)
            }
        }
    }
}

/// A rectangle of texels, [x0, x1) × [y0, y1): an instance's flat interior, filled as spans.
struct SoftwareSpan {
    var x0 = 0, y0 = 0, x1 = 0, y1 = 0
    static let none = SoftwareSpan()
    var isEmpty: Bool { x0 >= x1 || y0 >= y1 }
    var area: Int { isEmpty ? 0 : (x1 - x0) &* (y1 - y0) }

    /// The rectangle around both (an empty one adds nothing).
    func union(_ o: SoftwareSpan) -> SoftwareSpan {
        if o.isEmpty { return self }
        if isEmpty { return o }
        return SoftwareSpan(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
    }
}

/// `planeScale` of common.glsl: pixels per plane unit of a homography (for AA margins).
@inline(__always) func softwarePlaneScale(_ h0: SIMD4<Float>, _ h1: SIMD4<Float>, _ h2: SIMD4<Float>) -> Float {
    abs(h0.x * h1.y - h0.y * h1.x).squareRoot() / max(abs(h2.z), 1e-9)
}

/// One entry of the frame's clip table: frame pixel → the clipping layer's plane, and the
/// rounded rectangle there (`clipCoverage` of common.glsl).
struct SoftwareClip {
    var i0: SIMD3<Float>, i1: SIMD3<Float>, i2: SIMD3<Float>
    var rect: SIMD4<Float>, radii: SIMD4<Float>
    var continuous: Bool

    init(_ c: ClipShape) {
        i0 = SIMD3<Float>(c.inverse.r0); i1 = SIMD3<Float>(c.inverse.r1); i2 = SIMD3<Float>(c.inverse.r2)
        rect = c.rect; radii = c.radii; continuous = c.continuous
    }

    /// Coverage at frame pixel `q`; the edge width from the derivatives of the clip plane's
    /// point per target texel.
    @inline(__always) func coverage(_ q: SIMD2<Float>, _ v: SoftwareVariant) -> Float {
        let h = q.x * i0 + q.y * i1 + i2
        let inv = 1 / h.z
        let p = SIMD2(h.x, h.y) * inv
        let px = (SIMD2(i0.x, i0.y) - p * i0.z) * inv, py = (SIMD2(i1.x, i1.y) - p * i1.z) * inv
        let half = SIMD2(rect.z, rect.w) * 0.5
        let f = SoftwareField.roundRect(p, SIMD2(rect.x, rect.y) + half, half, radii, continuous: continuous,
                                        continuousEnabled: v.continuous)
        return SoftwareField.coverageJ(f, px, py)
    }
}

extension SoftwarePassContext {
    /// `clipCoverage(framePixel(), index)`: 1 without CA_CLIP or for index 0. `framePixel` is
    /// the texel centre plus the viewport's origin, as the shader computes it.
    @inline(__always) func clip(_ index: Float, _ x: Int, _ y: Int, _ v: SoftwareVariant) -> Float {
        guard v.clip else { return 1 }
        let i = Int(SoftwareClamp.int(index + 0.5))
        guard i > 0, i < clips.count else { return 1 }
        return clips[i].coverage(SIMD2(Float(x) + 0.5 + viewport.x, Float(y) + 0.5 + viewport.y), v)
    }
}
