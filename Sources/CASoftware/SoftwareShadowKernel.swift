/// What every shadow of one blur and one corner size shares, worked out once and kept between
/// frames (issue 22: the 100-shadow scene spent most of its time on the corners' slices).
///
/// box.frag's blurred rounded rect is the straight box's mass times the row's mass along y,
/// plus, for each of the corner zones' 16 horizontal slices, the slice's mass along y times its
/// mass along x between the sides pulled in by the corner (`SoftwareBlurredShape.coverage`).
/// Since a mass along x over [lo + inset, hi − inset] is the box's mass over [lo, hi] less the
/// masses over [lo, lo + inset] and [hi − inset, hi] (the kernel's CDF telescopes), the same sum is
///
///     coverage = full(x) · fy(y) − N(x − lo.x, vTop) − N(hi.x − x, vTop) − N(x − lo.x, vBottom) − N(hi.x − x, vBottom)
///
/// where fy is the row's whole mass along y (the middle's and every slice's), and N(u, v) — the
/// "notch" one corner cuts out of the box, with u the distance inside the box's side and v inside
/// its top (bottom) — depends on the blur σ and the corner radii alone: the slices of a zone are
/// the zone cut by the kernel's window [v − reach, v + reach], and the CDF is odd, so all four
/// corners are one function seen in a mirror. N is zero beyond `reach` outside the corner and
/// `reach` inside it (every slice's two ends saturate there).
///
/// N is sampled here on a grid of σ/8 and read bilinearly: N's second derivatives are at most
/// ~0.5/σ² (the kernel's slope), so the interpolation moves a coverage by ≤ (1/8)²/8·1 ≈ 0.002,
/// half an 8-bit level. The grid is built once per (σ, corner radii) — a frame's shadows mostly
/// share one style — at ~9 table reads an entry, where the sum it replaces took 32 per texel of
/// every shadow's corners. Past `maxEntries` (a large corner under a small blur) no grid is
/// made, and the rows compute N exactly per corner column (`hasNotchTable` false).
final class SoftwareShadowKernel {
    let sigma: Float, reach: Float
    let corner: SIMD2<Float>
    /// cdf2 (box.frag's `kernelCDF2`) at t = −reach + k·step, k = 0…`cdfSteps`: the kernel's CDF
    /// read with linear interpolation instead of `erf` (an error ≤ h²/8·max|f″| ≈ 6e-5 at
    /// h = σ/32, under 0.02 of an 8-bit level).
    let cdf: [Float]
    let step: Float
    static let cdfSteps = 160   // 2.5σ each side at σ/32
    /// N(u, v) at u = −reach + i·h, v = −reach + j·h: row j holds `nu` entries (empty without a
    /// grid). The last entry of each row and the last row are 0 (beyond the corner's reach).
    let notch: [Float]
    let nu: Int, nv: Int, h: Float
    var hasNotchTable: Bool { !notch.isEmpty }
    /// The renderer's frame number when a shadow last used it (`SoftwareShadowKernels`).
    var lastUse = 0

    static let maxEntries = 65_536
    static let samplesPerSigma: Float = 8

    init(sigma: Float, corner: SIMD2<Float>) {
        self.sigma = sigma
        self.corner = corner
        let r = SoftwareBlurredShape.cut * sigma
        reach = r
        let n = Self.cdfSteps
        step = 2 * r / Float(n)
        cdf = (0...n).map { k in SoftwareBlurredShape.cdf2(-r + Float(k) * (2 * r / Float(n)), sigma) }
        let h = sigma / Self.samplesPerSigma
        self.h = h
        let rounded = corner.x > 0 && corner.y > 0
        let cu = ((corner.x + 2 * r) / h).rounded(.up), cv = ((corner.y + 2 * r) / h).rounded(.up)
        guard rounded, cu.isFinite, cv.isFinite, cu < 4096, cv < 4096, (cu + 2) * (cv + 2) <= Float(Self.maxEntries) else {
            notch = []; nu = 0; nv = 0
            return
        }
        let nu = Int(cu) + 2, nv = Int(cv) + 2
        self.nu = nu; self.nv = nv
        let inv = 1 / step
        let cdf = self.cdf
        notch = [Float](unsafeUninitializedCapacity: nu * nv) { out, count in
            cdf.withUnsafeBufferPointer { t in
                for j in 0..<nv {
                    let slices = Self.zoneSlices(v: -r + Float(j) * h, corner: corner, t, r, inv)
                    for i in 0..<nu { out[j * nu + i] = Self.notch(u: -r + Float(i) * h, slices, t, r, inv) }
                    out[j * nu + nu - 1] = 0
                }
            }
            for i in 0..<nu { out[(nv - 1) * nu + i] = 0 }
            count = nu * nv
        }
    }

    /// The top corner zone's slices (inset, mass along y) seen from a row `v` below the box's
    /// top: the zone [0, corner.y] cut by the kernel's window [v − reach, v + reach]
    /// (`SoftwareBlurredShape.cornerSlices`; the bottom zone is out of reach, `hi` is far).
    static func zoneSlices(v: Float, corner: SIMD2<Float>, _ t: UnsafeBufferPointer<Float>, _ r: Float,
                           _ inv: Float) -> [(inset: Float, weight: Float)] {
        var slices: [(inset: Float, weight: Float)] = []
        SoftwareBlurredShape.cornerSlices(y0: max(0, v - r), y1: v + r, lo: .zero, hi: SIMD2(repeating: 1e30), c: corner) { inset, s0, s1 in
            slices.append((inset, mass(s0 - v, s1 - v, t, r, inv)))
        }
        return slices
    }

    /// N(u, v) from the slices of row v: each slice's mass along y times the mass along x of
    /// the strip [0, inset] the corner cuts from it, seen from u.
    static func notch(u: Float, _ slices: [(inset: Float, weight: Float)], _ t: UnsafeBufferPointer<Float>, _ r: Float,
                      _ inv: Float) -> Float {
        var sum: Float = 0
        for s in slices { sum += mass(-u, s.inset - u, t, r, inv) * s.weight }
        return sum
    }

    /// N(u, v) summed exactly (what the grid samples).
    func exactNotch(u: Float, v: Float) -> Float {
        cdf.withUnsafeBufferPointer { t in
            let inv = 1 / step
            return Self.notch(u: u, Self.zoneSlices(v: v, corner: corner, t, reach, inv), t, reach, inv)
        }
    }

    /// N(u, v) read from the grid as the shadow rows read it (`notchRow`, then `read`); 0
    /// outside it.
    func gridNotch(u: Float, v: Float) -> Float {
        let pu = (u + reach) / h
        guard hasNotchTable, pu >= 0, pu < Float(nu - 1) else { return 0 }
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: nu) { row in
            guard notchRow(v, into: row.baseAddress!) else { return 0 }
            let i = Int(pu)
            return Self.read(row.baseAddress!, i, pu - Float(i))
        }
    }

    /// A row profile's value between entries i and i + 1, at fraction f.
    @inline(__always) static func read(_ profile: UnsafeMutablePointer<Float>, _ i: Int, _ f: Float) -> Float {
        profile[i] + (profile[i + 1] - profile[i]) * f
    }

    /// The mass of [a, b] through the CDF table.
    @inline(__always) static func mass(_ a: Float, _ b: Float, _ t: UnsafeBufferPointer<Float>, _ r: Float, _ inv: Float) -> Float {
        0.5 * (cdf(b, t, r, inv) - cdf(a, t, r, inv))
    }

    @inline(__always) static func cdf(_ x: Float, _ t: UnsafeBufferPointer<Float>, _ r: Float, _ inv: Float) -> Float {
        let u = (min(max(x, -r), r) + r) * inv
        let k = min(Int(u), t.count - 2)
        let f = u - Float(k)
        return t[k] + (t[k + 1] - t[k]) * f
    }

    /// Row v of the notch grid, interpolated between its two nearest rows into `out` (`nu`
    /// entries); false (nothing written) where v is out of the corner's reach.
    @inline(__always) func notchRow(_ v: Float, into out: UnsafeMutablePointer<Float>) -> Bool {
        let pos = (v + reach) / h
        guard pos >= 0, pos < Float(nv - 1) else { return false }
        let j = Int(pos)
        let f = pos - Float(j)
        notch.withUnsafeBufferPointer { t in
            let a = t.baseAddress! + j * nu, b = a + nu
            for i in 0..<nu { out[i] = a[i] + (b[i] - a[i]) * f }
        }
        return true
    }
}

/// The renderer's shadow kernels by (σ, corner radii), kept while shadows use them: a static
/// scene builds its grids once, an animated blur one per frame for all its shadows. Kernels
/// unused for `idleFrames` frames are dropped once more than `kept` are held, and no more are
/// kept than `maxEntries` grid entries in all (4 MB); a kernel past that serves its frame only.
final class SoftwareShadowKernels {
    private struct Key: Hashable { let sigma: UInt32, cx: UInt32, cy: UInt32 }
    private var kernels: [Key: SoftwareShadowKernel] = [:]
    private var entries = 0
    static let kept = 32, idleFrames = 2
    static let maxEntries = 1 << 20

    /// The kernel of blur `sigma` and corner radii `corner` (plane units), made on first use.
    /// Called while a pass is prepared (one thread).
    func kernel(sigma: Float, corner: SIMD2<Float>, frame: Int) -> SoftwareShadowKernel {
        let c = SIMD2(max(corner.x, 0), max(corner.y, 0))
        let key = Key(sigma: sigma.bitPattern, cx: c.x.bitPattern, cy: c.y.bitPattern)
        if let k = kernels[key] { k.lastUse = frame; return k }
        if kernels.count >= Self.kept {
            kernels = kernels.filter { frame - $0.value.lastUse < Self.idleFrames }
            entries = kernels.values.reduce(0) { $0 + $1.notch.count }
        }
        let k = SoftwareShadowKernel(sigma: sigma, corner: c)
        k.lastUse = frame
        if entries + k.notch.count <= Self.maxEntries {
            kernels[key] = k
            entries += k.notch.count
        }
        return k
    }

    var count: Int { kernels.count }
}
