import Foundation
import CoreGraphics

/// feTurbulence's lattice (Filter Effects Module Level 1 § feTurbulence, the reference
/// algorithm's `init(lSeed)`): a permutation of 0…255 and, per colour channel, 256 unit gradient
/// vectors, all drawn from the seed by the specification's own random generator (Park–Miller
/// minimal standard, a = 16807, m = 2³¹ − 1). Built once per primitive on the CPU; the shader
/// (`Shaders/filter.frag`, `CA_PRIM_TURBULENCE`) reads it as a 256 × 3 float texture and sums
/// the octaves per pixel. `noise(_:_:_:)` and `turbulence(…)` are the same arithmetic on the CPU
/// (tests, and a future CPU backend).
///
/// The specification's tables have 2 × 256 + 2 entries whose second half repeats the first;
/// every index it reads is below 2 × 256 + 2, so reading entry `i & 255` is the same.
package struct TurbulenceLattice: Sendable, Equatable {
    package static let size = 256
    /// The seed it was built from: backends key their uploaded copy of the table by it.
    package let seed: Int
    /// `lattice[i]`: the permutation (uLatticeSelector).
    package var lattice: [Int]
    /// `gradients[k][i]`: channel k's (r, g, b, a) unit gradient at lattice entry i.
    package var gradients: [[SIMD2<Double>]]

    /// The generator's modulus, multiplier and Schrage factors (RAND_m, RAND_a, RAND_q, RAND_r).
    private static let m = 2_147_483_647, a = 16807, q = 127_773, r = 2836

    /// `setup_seed`: a seed ≤ 0 becomes −(seed mod (m − 1)) + 1; one above m − 1 becomes m − 1.
    package static func setupSeed(_ seed: Int) -> Int {
        var s = seed
        if s <= 0 { s = -(s % (m - 1)) + 1 }
        if s > m - 1 { s = m - 1 }
        return s
    }

    /// `random`: the next value of the generator (Schrage's method, no overflow in 64 bits).
    package static func next(_ seed: Int) -> Int {
        var v = a * (seed % q) - r * (seed / q)
        if v <= 0 { v += m }
        return v
    }

    /// The lattice for `seed`, which the caller has already truncated towards zero (the
    /// specification's rule) and clamped into 32 bits.
    package init(seed: Int) {
        self.seed = seed
        let n = Self.size
        var s = Self.setupSeed(seed)
        var lattice = Array(0..<n)
        var gradients = [[SIMD2<Double>]](repeating: [], count: 4)
        for k in 0..<4 {
            var g: [SIMD2<Double>] = []
            g.reserveCapacity(n)
            for _ in 0..<n {
                var v = SIMD2<Double>(0, 0)
                s = Self.next(s); v.x = Double(s % (2 * n) - n) / Double(n)
                s = Self.next(s); v.y = Double(s % (2 * n) - n) / Double(n)
                let len = (v.x * v.x + v.y * v.y).squareRoot()
                // A zero vector divides to NaN in the reference too; keep it zero (no NaN).
                g.append(len > 0 ? v / len : .zero)
            }
            gradients[k] = g
        }
        var i = n
        while true {
            i -= 1
            if i == 0 { break }
            let t = lattice[i]
            s = Self.next(s)
            let j = s % n
            lattice[i] = lattice[j]
            lattice[j] = t
        }
        self.lattice = lattice
        self.gradients = gradients
    }

    /// Lattices built so far, by seed. A feTurbulence primitive asks for its lattice every frame
    /// it is drawn, and the lattice depends only on the seed (about 2,300 generator steps), so
    /// frames after the first reuse it. Bounded: past `cacheLimit` seeds the cache starts over.
    private static let cache = Locked<[Int: TurbulenceLattice]>([:])
    package static let cacheLimit = 32

    /// How many seeds the cache holds now (tests: it stays within `cacheLimit`).
    package static var cachedSeeds: Int { cache.withLock { $0.count } }

    /// The lattice for `seed`, built once and then reused (`cache`).
    package static func cached(seed: Int) -> TurbulenceLattice {
        if let l = cache.withLock({ $0[seed] }) { return l }
        let l = TurbulenceLattice(seed: seed)
        cache.withLock { c in
            if c.count >= cacheLimit { c.removeAll(keepingCapacity: true) }
            c[seed] = l
        }
        return l
    }

    /// The table as the shader's 256 × 3 RGBA float texture, row-major: row 0 the gradients of
    /// r and g (x, y, x, y), row 1 those of b and a, row 2 the permutation in red.
    package var texels: [Float] {
        let n = Self.size
        var t = [Float](repeating: 0, count: n * 3 * 4)
        for i in 0..<n {
            let r = gradients[0][i], g = gradients[1][i], b = gradients[2][i], a = gradients[3][i]
            t[i * 4 + 0] = Float(r.x); t[i * 4 + 1] = Float(r.y); t[i * 4 + 2] = Float(g.x); t[i * 4 + 3] = Float(g.y)
            let o = n * 4
            t[o + i * 4 + 0] = Float(b.x); t[o + i * 4 + 1] = Float(b.y); t[o + i * 4 + 2] = Float(a.x); t[o + i * 4 + 3] = Float(a.y)
            t[2 * o + i * 4] = Float(lattice[i])
        }
        return t
    }

    /// Stitching state (`StitchInfo`): lattice columns at or past `wrapX` wrap back by `width`.
    package struct Stitch: Sendable, Equatable {
        package var width: Double, height: Double, wrapX: Double, wrapY: Double
        package init(width: Double, height: Double, wrapX: Double, wrapY: Double) {
            self.width = width; self.height = height; self.wrapX = wrapX; self.wrapY = wrapY
        }
    }

    /// The reference's `PerlinN`: added to coordinates so they are positive near the origin.
    package static let perlinN = 4096.0

    /// `noise2` for channel k at `v` (already multiplied by the frequency). Coordinates are
    /// truncated towards zero as the reference's `(int)` casts do, in floating point so that
    /// no input traps.
    package func noise(_ k: Int, _ v: SIMD2<Double>, stitch: Stitch? = nil) -> Double {
        func cell(_ c: Double) -> (b0: Double, b1: Double, r0: Double) {
            let t = c + Self.perlinN
            let ti = t.rounded(.towardZero)
            return (ti, ti + 1, t - ti)
        }
        var (bx0, bx1, rx0) = cell(v.x)
        var (by0, by1, ry0) = cell(v.y)
        if let s = stitch {
            if bx0 >= s.wrapX { bx0 -= s.width }
            if bx1 >= s.wrapX { bx1 -= s.width }
            if by0 >= s.wrapY { by0 -= s.height }
            if by1 >= s.wrapY { by1 -= s.height }
        }
        let rx1 = rx0 - 1, ry1 = ry0 - 1
        let i = lattice[Int(Self.wrap(bx0))], j = lattice[Int(Self.wrap(bx1))]
        let n = Self.size
        let b00 = lattice[(i + Int(Self.wrap(by0))) % n], b10 = lattice[(j + Int(Self.wrap(by0))) % n]
        let b01 = lattice[(i + Int(Self.wrap(by1))) % n], b11 = lattice[(j + Int(Self.wrap(by1))) % n]
        func curve(_ t: Double) -> Double { t * t * (3 - 2 * t) }
        func lerp(_ t: Double, _ a: Double, _ b: Double) -> Double { a + t * (b - a) }
        let sx = curve(rx0), sy = curve(ry0)
        let g = gradients[k]
        let a = lerp(sx, rx0 * g[b00].x + ry0 * g[b00].y, rx1 * g[b10].x + ry0 * g[b10].y)
        let b = lerp(sx, rx0 * g[b01].x + ry1 * g[b01].y, rx1 * g[b11].x + ry1 * g[b11].y)
        return lerp(sy, a, b)
    }

    /// `x & 255` of an integer-valued double (two's complement, as the reference's mask).
    package static func wrap(_ x: Double) -> Double {
        let m = x.truncatingRemainder(dividingBy: 256)
        return m < 0 ? m + 256 : m
    }

    /// The adjusted base frequencies and the initial stitch state for a tile (the reference's
    /// `bDoStitching` set-up): each frequency moves to the nearer of floor/ceil(tile × f) / tile.
    /// `tile`: x, y, width, height (user space).
    package static func stitch(frequency f: SIMD2<Double>, tile: SIMD4<Double>) -> (SIMD2<Double>, Stitch) {
        func adjust(_ f: Double, _ size: Double) -> Double {
            guard f != 0, size > 0 else { return f }
            let lo = (size * f).rounded(.down) / size, hi = (size * f).rounded(.up) / size
            return lo > 0 && f / lo < hi / f ? lo : hi
        }
        let fx = adjust(f.x, tile.z), fy = adjust(f.y, tile.w)
        let w = (tile.z * fx + 0.5).rounded(.towardZero), h = (tile.w * fy + 0.5).rounded(.towardZero)
        let s = Stitch(width: w, height: h,
                       wrapX: (tile.x * fx + perlinN + w).rounded(.towardZero),
                       wrapY: (tile.y * fy + perlinN + h).rounded(.towardZero))
        return (SIMD2(fx, fy), s)
    }

    /// `turbulence(…)` for channel k at user-space `point`: the sum over `octaves` of noise (or
    /// its absolute value when `fractal` is false) at doubling frequencies and halving weights.
    package func turbulence(_ k: Int, at point: SIMD2<Double>, frequency: SIMD2<Double>, octaves: Int, fractal: Bool,
                            stitchTile: SIMD4<Double>? = nil) -> Double {
        var f = frequency
        var stitch: Stitch?
        if let tile = stitchTile { (f, stitch) = Self.stitch(frequency: f, tile: tile) }
        var v = point * f
        var sum = 0.0, ratio = 1.0
        for _ in 0..<max(octaves, 0) {
            let n = noise(k, v, stitch: stitch)
            sum += (fractal ? n : abs(n)) / ratio
            v *= 2; ratio *= 2
            if var s = stitch {
                s.width *= 2; s.wrapX = 2 * s.wrapX - Self.perlinN
                s.height *= 2; s.wrapY = 2 * s.wrapY - Self.perlinN
                stitch = s
            }
        }
        return sum
    }

    /// The colour value (0…1) of a channel from the sum: (sum + 1) / 2 for fractalNoise, the sum
    /// for turbulence, clamped (the reference's `(sum × 255 + 255) / 2` and `sum × 255`).
    package static func channel(_ sum: Double, fractal: Bool) -> Double {
        min(max(fractal ? (sum + 1) / 2 : sum, 0), 1)
    }
}
