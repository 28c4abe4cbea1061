import CAFrame

/// Analytic shadows (box.frag's blur branch, `SoftwareBlurredShape`) drawn row by row, for an
/// axis-aligned, affine instance (a layer's implied shadow or a `shadowPath` rounded rect that is
/// not rotated or in perspective).
///
/// The per-texel path evaluates box.frag's sum as written: per texel, the kernel's mass over the
/// row's straight part and over 16 corner slices, each mass two `erf`s (an `exp` each): 34 `exp`
/// a texel, which made the 100-shadow stress scene the CPU backend's slowest (3.9 s a frame on the
/// loaded VM, 25× the GL backend on llvmpipe). Here the same sum is computed in its telescoped
/// form (`SoftwareShadowKernel`): the straight box's mass along x once per column, the row's
/// mass along y once per row, and the four corners' notches read from the kernel's grid (shared
/// by every shadow of the same blur and corners, kept between frames) only in the columns and
/// rows within reach of a corner. The texels are then blended a row at a time with the 8-bit
/// span kernel (`SoftwareSpanBlend`, ≤ 1 level from GL's float blend), as the box rows are.
struct SoftwareShadowRowPlan {
    /// Plane x of texel column x's centre = ax·x + bx; plane y of row y's centre = ay·y + by.
    let ax: Float, bx: Float, ay: Float, by: Float
    let lo: SIMD2<Float>, hi: SIMD2<Float>, corner: SIMD2<Float>
    /// The blur's kernel (its σ and reach) and the corners' notch grid.
    let kernel: SoftwareShadowKernel
    /// Whether the corners' notches come from the kernel's grid (else they are summed exactly
    /// per corner column from the row's slices, as the grid itself is).
    let usesNotchTable: Bool
    /// The columns drawn, [xa, xb): centre inside the quad and within reach of the shape.
    let xa: Int, xb: Int
    /// Per column from xa, the straight box's mass along x.
    let full: [Float]
    /// The columns within reach of the left corners' notches (u = x − lo.x) and of the right
    /// ones (u = hi.x − x).
    let left: SoftwareCornerColumns, right: SoftwareCornerColumns

    /// The plan of shadow instance `i` drawn through `q`, or nil where the rows do not hold
    /// (not a shadow, rotation, perspective): those take the per-texel path. `kernels` supplies
    /// the shared kernel of the instance's blur and corners. What depends on the columns alone
    /// is worked out here, once a frame, not once per band of rows.
    init?(_ i: BoxInstance, _ q: SoftwareQuad, _ v: SoftwareVariant, kernels: SoftwareShadowKernels, frame: Int) {
        guard v.blur, i.params.y > 0, i.params.y.isFinite, q.x0 < q.x1, q.y0 < q.y1 else { return nil }
        guard q.i0.y == 0, q.i1.x == 0, q.i0.z == 0, q.i1.z == 0, q.i2.z != 0 else { return nil }
        let ax = q.i0.x / q.i2.z, bx = (0.5 * q.i0.x + q.i2.x) / q.i2.z
        self.ax = ax; self.bx = bx
        ay = q.i1.y / q.i2.z; by = (0.5 * q.i1.y + q.i2.y) / q.i2.z
        guard ax.isFinite, bx.isFinite, ay.isFinite, by.isFinite else { return nil }
        let sigma = i.params.y
        let r = SoftwareBlurredShape.cut * sigma
        guard r.isFinite, r > 0 else { return nil }
        let lo = SIMD2(i.rect.x, i.rect.y), hi = lo + SIMD2(i.rect.z, i.rect.w)
        self.lo = lo; self.hi = hi
        guard lo.x.isFinite, lo.y.isFinite, hi.x.isFinite, hi.y.isFinite else { return nil }
        let c = SIMD2(i.radii.x, i.radii.y)
        corner = c
        let k = kernels.kernel(sigma: sigma, corner: c, frame: frame)
        kernel = k
        // The grid holds one corner zone; where the top and bottom zones overlap (radii past
        // half the box) box.frag counts the overlap twice, which the exact slices reproduce.
        let usesTable = k.hasNotchTable && 2 * c.y <= hi.y - lo.y
        usesNotchTable = usesTable
        var xa = q.x1, xb = q.x0
        for x in q.x0..<q.x1 {
            let px = ax * Float(x) + bx
            if px >= q.lo.x, px < q.hi.x, px >= lo.x - r, px <= hi.x + r { xa = min(xa, x); xb = max(xb, x + 1) }
        }
        self.xa = xa; self.xb = xb
        var full: [Float] = [], left = SoftwareCornerColumns(), right = SoftwareCornerColumns()
        if xa < xb {
            full.reserveCapacity(xb - xa)
            let rounded = c.x > 0 && c.y > 0, notchEnd = max(c.x, 0) + r
            k.cdf.withUnsafeBufferPointer { t in
                let inv = 1 / k.step
                for x in xa..<xb {
                    let px = ax * Float(x) + bx
                    full.append(SoftwareShadowKernel.mass(lo.x - px, hi.x - px, t, r, inv))
                    guard rounded else { continue }
                    func add(_ u: Float, to side: inout SoftwareCornerColumns) {
                        guard usesTable else { side.append(column: x - xa, entry: 0, fraction: 0); return }
                        let pos = (u + r) / k.h
                        let i = min(Int(pos), k.nu - 2)
                        side.append(column: x - xa, entry: i, fraction: pos - Float(i))
                    }
                    let ul = px - lo.x, ur = hi.x - px
                    if ul > -r && ul < notchEnd { add(ul, to: &left) }
                    if ur > -r && ur < notchEnd { add(ur, to: &right) }
                }
            }
        }
        self.full = full; self.left = left; self.right = right
    }

    /// Draws the instance's texels in `rows` (those whose centre lies in the quad `q`), colour
    /// `fill` times coverage times the clip, as the per-texel path does, except those in
    /// `hidden`: texels the batch's next instance overwrites without reading them.
    func draw(_ fill: SIMD4<Float>, clipIndex: Float, _ q: SoftwareQuad, _ v: SoftwareVariant, _ ctx: SoftwarePassContext,
              _ rows: Range<Int>, additive: Bool, hidden: SoftwareSpan = .none) {
        let ya = max(q.y0, rows.lowerBound), yb = min(q.y1, rows.upperBound)
        guard ya < yb, xa < xb else { return }
        let n = xb - xa
        let target = ctx.target
        let k = kernel
        let r = k.reach, c = corner
        let rounded = c.x > 0 && c.y > 0
        // The 8-bit span blend needs a premultiplied colour (no carry between channels); the
        // rest blend each texel in floats.
        let spans = !additive && fill.x <= fill.w && fill.y <= fill.w && fill.z <= fill.w && fill.w >= 0
        let clipped = v.clip && SoftwareClamp.int(clipIndex + 0.5) > 0
        // The row's coverage, the notch grid's row profile and the exact slices: one temporary
        // buffer a call (a band's share of one shadow), not four heap blocks.
        let nu = max(k.nu, 1)
        withUnsafeTemporaryAllocation(of: Float.self, capacity: n + nu + 32) { scratch in
            let cov = scratch.baseAddress!, profile = cov + n, insets = profile + nu, weights = insets + 16
            /// cov −= N(u, v) at the corner columns drawn (outside [a1, b0)), left and right, for a
            /// zone at distance `v`.
            func subtractNotches(_ v: Float, _ a1: Int, _ b0: Int) {
                guard k.notchRow(v, into: profile) else { return }
                left.subtractNotches(profile, from: cov, skipping: a1, b0)
                right.subtractNotches(profile, from: cov, skipping: a1, b0)
            }
            full.withUnsafeBufferPointer { full in
                k.cdf.withUnsafeBufferPointer { t in
                    let inv = 1 / k.step
                    for y in ya..<yb {
                        let py = ay * Float(y) + by
                        guard py >= q.lo.y, py < q.hi.y else { continue }
                        let y0 = max(lo.y, py - r), y1 = min(hi.y, py + r)
                        if y0 >= y1 { continue }
                        // The row's mass along y (the middle's and every corner slice's, which
                        // telescope to the window's), and the corner slices where the notches are
                        // summed exactly.
                        var fy: Float = 0
                        var slices = 0
                        if !rounded || usesNotchTable {
                            fy = SoftwareShadowKernel.mass(y0 - py, y1 - py, t, r, inv)
                        } else {
                            let m0 = max(y0, lo.y + c.y), m1 = min(y1, hi.y - c.y)
                            if m1 > m0 { fy = SoftwareShadowKernel.mass(m0 - py, m1 - py, t, r, inv) }
                            SoftwareBlurredShape.cornerSlices(y0: y0, y1: y1, lo: lo, hi: hi, c: c) { inset, s0, s1 in
                                insets[slices] = inset
                                weights[slices] = SoftwareShadowKernel.mass(s0 - py, s1 - py, t, r, inv)
                                fy += weights[slices]
                                slices += 1
                            }
                        }
                        // The columns drawn: all, or the two sides of the hidden texels.
                        var (a0, a1, b0, b1) = (0, n, n, n)
                        if !hidden.isEmpty, y >= hidden.y0, y < hidden.y1 {
                            a1 = min(max(hidden.x0 - xa, 0), n)
                            b0 = min(max(hidden.x1 - xa, a1), n)
                        }
                        for x in a0..<a1 { cov[x] = full[x] * fy }
                        for x in b0..<b1 { cov[x] = full[x] * fy }
                        // Less each corner's notch, in the corner columns of the zones in reach.
                        if rounded {
                            if usesNotchTable {
                                let vt = py - lo.y, vb = hi.y - py
                                if vt < c.y + r { subtractNotches(vt, a1, b0) }
                                if vb < c.y + r { subtractNotches(vb, a1, b0) }
                            } else if slices > 0 {
                                for col in left.columns {
                                    let px = ax * Float(xa + col) + bx
                                    var s: Float = 0
                                    for j in 0..<slices { s += SoftwareShadowKernel.mass(lo.x - px, lo.x + insets[j] - px, t, r, inv) * weights[j] }
                                    cov[col] -= s
                                }
                                for col in right.columns {
                                    let px = ax * Float(xa + col) + bx
                                    var s: Float = 0
                                    for j in 0..<slices { s += SoftwareShadowKernel.mass(hi.x - insets[j] - px, hi.x - px, t, r, inv) * weights[j] }
                                    cov[col] -= s
                                }
                            }
                        }
                        let row = target.pixels + y * target.width + xa
                        func drawColumns(_ s0: Int, _ s1: Int) {
                            guard s0 < s1 else { return }
                            if clipped { for x in s0..<s1 { cov[x] *= ctx.clip(clipIndex, xa + x, y, v) } }
                            if spans {
                                Self.blendCoverage(fill, cov + s0, s1 - s0, over: row + s0)
                            } else {
                                for x in s0..<s1 where cov[x] > 0 { target.blend(xa + x, y, fill * cov[x], additive: additive) }
                            }
                        }
                        drawColumns(a0, a1)
                        drawColumns(b0, b1)
                    }
                }
            }
        }
    }

    /// Blends `fill · coverage` over `n` texels from `row`, four at a time: each source
    /// rounded to 8 bits (`SoftwareSpanBlend.sources`, a black shadow's alpha byte alone) and
    /// composited with `SoftwareSpanBlend`'s integer source-over, whose bytes it gives. The
    /// coverage is not held to 0…1 first: the colour is, channel by channel, as the float
    /// blend clamps box.frag's output (where corner zones overlap, radii past half the box, the
    /// sum passes 1 there too). Not inlined: inside the row loop the compiler left its vector
    /// stores as calls.
    @inline(never)
    static func blendCoverage(_ fill: SIMD4<Float>, _ cov: UnsafeMutablePointer<Float>, _ n: Int, over row: UnsafeMutablePointer<UInt32>) {
        var x = 0
        let raw = UnsafeRawPointer(cov), out = UnsafeMutableRawPointer(row)
        let full = SIMD4<UInt32>(repeating: 255)
        @inline(__always) func over(_ s: SIMD4<UInt32>, _ p: UnsafeMutableRawPointer) {
            let ia = full &- (s &>> 24)
            let a16 = unsafeBitCast(ia | (ia &<< 16), to: SIMD8<UInt16>.self)
            p.storeBytes(of: s &+ SoftwareSpanBlend.scale4(p.loadUnaligned(as: SIMD4<UInt32>.self), a16), as: SIMD4<UInt32>.self)
        }
        if fill.x == 0, fill.y == 0, fill.z == 0 {
            // A black shadow (the default shadowColor): only the alpha byte.
            while x &+ 4 <= n {
                let a = SoftwareSpanBlend.bytes((raw + x &* 4).loadUnaligned(as: SIMD4<Float>.self) * fill.w)
                over(a &<< 24, out + x &* 4)
                x &+= 4
            }
        } else {
            while x &+ 4 <= n {
                let cv = (raw + x &* 4).loadUnaligned(as: SIMD4<Float>.self)
                over(SoftwareSpanBlend.sources(cv * fill.x, cv * fill.y, cv * fill.z, cv * fill.w), out + x &* 4)
                x &+= 4
            }
        }
        while x < n {
            row[x] = SoftwareSpanBlend.over(SoftwareSpanBlend.source(fill * cov[x]), row[x])
            x &+= 1
        }
    }
}

/// One side's corner columns of a shadow row plan: consecutive columns (u is affine in x, so
/// the columns within a corner's reach are one run), each with its place along the notch grid's
/// u axis (entry i, fraction f towards i + 1; 0 where the notches are summed exactly), kept as
/// two arrays so that four columns are read as two vectors.
struct SoftwareCornerColumns {
    /// The first column, from the plan's xa.
    private(set) var start = 0
    private(set) var entries: [Int32] = []
    private(set) var fractions: [Float] = []

    var columns: Range<Int> { start..<(start + entries.count) }

    /// Adds the next column (`column` must follow the last one).
    mutating func append(column: Int, entry: Int, fraction: Float) {
        if entries.isEmpty { start = column }
        precondition(column == start + entries.count, "corner columns must be consecutive")
        entries.append(Int32(entry)); fractions.append(fraction)
    }

    /// cov[col] −= the profile read at each column's place (`SoftwareShadowKernel.read`'s
    /// interpolation, the same float operations), for the columns outside [a1, b0): four
    /// columns at a time. Not inlined: inside the row loop its vector code was left scalar.
    @inline(never)
    func subtractNotches(_ profile: UnsafeMutablePointer<Float>, from cov: UnsafeMutablePointer<Float>, skipping a1: Int, _ b0: Int) {
        let c0 = start, c1 = start + entries.count
        guard c0 < c1 else { return }
        entries.withUnsafeBufferPointer { ib in
            fractions.withUnsafeBufferPointer { fb in
                let ip = UnsafeRawPointer(ib.baseAddress!), fp = UnsafeRawPointer(fb.baseAddress!)
                @inline(__always) func run(_ p: Int, _ q: Int) {
                    var c = p
                    while c &+ 4 <= q {
                        let j = c &- c0
                        let i = ip.loadUnaligned(fromByteOffset: j &* 4, as: SIMD4<Int32>.self)
                        let f = fp.loadUnaligned(fromByteOffset: j &* 4, as: SIMD4<Float>.self)
                        let i0 = Int(i[0]), i1 = Int(i[1]), i2 = Int(i[2]), i3 = Int(i[3])
                        let a = SIMD4(profile[i0], profile[i1], profile[i2], profile[i3])
                        let b = SIMD4(profile[i0 &+ 1], profile[i1 &+ 1], profile[i2 &+ 1], profile[i3 &+ 1])
                        let o = UnsafeMutableRawPointer(cov + c)
                        o.storeBytes(of: o.loadUnaligned(as: SIMD4<Float>.self) - (a + (b - a) * f), as: SIMD4<Float>.self)
                        c &+= 4
                    }
                    while c < q {
                        let j = c &- c0
                        cov[c] -= SoftwareShadowKernel.read(profile, Int(ib[j]), fb[j])
                        c &+= 1
                    }
                }
                // The columns before the skipped ones and after them.
                run(c0, min(c1, max(a1, c0)))
                run(max(c0, min(b0, c1)), c1)
            }
        }
    }
}
