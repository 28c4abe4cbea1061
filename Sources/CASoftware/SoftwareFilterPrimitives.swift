import Foundation
import CAFrame

/// Filter-graph primitives (`FilterOp.primitive`, SVG / CSS Filter Effects) as filter.frag's
/// CA_FILTER_PRIMITIVE families compute them: one texel at a time from the source (`in`) and
/// `io.other` (`in2`) at the same frame pixels, transparent black outside the primitive's crop
/// and wherever a read falls outside the pass. The neighbourhood families (convolution,
/// lighting) are in SoftwareFilterNeighbourhood.swift, feTurbulence in
/// SoftwareFilterTurbulence.swift.
enum SoftwareFilterPrimitives {
    typealias M = SoftwareFilterMath

    /// What a step needs made once per pass, before the bands run (the uniforms GL uploads).
    struct Prepared {
        /// feConvolveMatrix's kernel, cut to 256 values (the shader's `u_table`).
        var kernel: [Float] = []
        /// feTurbulence's lattice as the shader reads it.
        var lattice: SoftwareTurbulenceLattice?
    }

    static func prepare(_ step: FilterPrimitiveStep) throws -> Prepared {
        var p = Prepared()
        switch step.op {
        case .convolve(_, _, _, let kernel): p.kernel = Array(kernel.prefix(256))
        case .turbulence(let t): p.lattice = SoftwareTurbulenceLattice(t.lattice)
        case .transfer(let table):
            guard table.samples.count >= FilterTransferTable.size else {
                throw SoftwareBackendError("feComponentTransfer table holds \(table.samples.count) samples, not \(FilterTransferTable.size)")
            }
        default: break
        }
        return p
    }

    /// `inCrop`: whether frame pixel `p` lies in the crop (x, y, w, h).
    @inline(__always) static func inCrop(_ p: SIMD2<Float>, _ c: SIMD4<Float>) -> Bool {
        p.x >= c.x && p.y >= c.y && p.x < c.x + c.z && p.y < c.y + c.w
    }

    /// GLSL `mod(x, y)`: x − y·floor(x / y).
    @inline(__always) static func mod(_ x: Float, _ y: Float) -> Float { x - y * (x / y).rounded(.down) }

    static func run(_ step: FilterPrimitiveStep, _ prep: Prepared, _ io: SoftwareFilterInputs, _ rows: Range<Int>) {
        let crop = step.crop
        let src = io.source
        // A primitive with `in2` that the frame gave none reads transparent black (GL would read
        // whatever texture unit 2 held; the frame writer always names it).
        let other = io.other
        func sampleOther(_ uv: SIMD2<Float>) -> SIMD4<Float> { other.map { io.sample($0, uv) } ?? .zero }
        func each(_ body: (SIMD4<Float>, SIMD2<Float>, SIMD2<Float>) -> SIMD4<Float>) {
            io.write(rows: rows) { _, _, uv, p in
                guard inCrop(p, crop) else { return .zero }
                return body(io.sample(src, uv), uv, p)
            }
        }
        switch step.op {
        case .offset(let d):
            each { _, _, p in io.fetch(src, p - d) }
        case .flood(let c):
            each { _, _, _ in c }
        case .composite(let k):
            // Porter-Duff (Filter Effects 1 § feComposite): source = in, backdrop = in2.
            let op = SoftwareClamp.int(Float(k) + 0.5)
            each { s, uv, _ in
                let b = sampleOther(uv)
                switch op {
                case 0: return s + b * (1 - s.w)
                case 1: return s * b.w
                case 2: return s * (1 - b.w)
                case 3: return s * b.w + b * (1 - s.w)
                case 4: return s * (1 - b.w) + b * (1 - s.w)
                default: return pointwiseMin(s + b, SIMD4(repeating: 1))
                }
            }
        case .arithmetic(let k):
            each { s, uv, _ in
                let b = sampleOther(uv)
                var o = M.clamp01(k.x * s * b + k.y * s + k.z * b + SIMD4(repeating: k.w))
                o = SIMD4(min(o.x, o.w), min(o.y, o.w), min(o.z, o.w), o.w)
                return o
            }
        case .blend(let mode):
            let m = SoftwareBlendMode(min(max(mode, 0), BlendModeID.count - 1))
            each { s, uv, _ in m.apply(s, sampleOther(uv)) }
        case .matrix(let t):
            each { s, _, _ in
                let c = M.unpremultiply(s)
                return M.premultiply(M.clamp01(SIMD4((t.r * c).sum(), (t.g * c).sum(), (t.b * c).sum(), (t.a * c).sum()) + t.bias))
            }
        case .transfer(let table):
            let samples = table.samples
            func transfer(_ ch: Int, _ c: Float) -> Float {
                let f = (c >= 0 ? min(c, 1) : 0) * 63
                let i = min(SoftwareClamp.int(f.rounded(.down)), 62)
                let a = samples[i][ch], b = samples[i + 1][ch]
                return a + (b - a) * (f - Float(i))
            }
            each { s, _, _ in
                let c = M.unpremultiply(s)
                return M.premultiply(M.clamp01(SIMD4(transfer(0, c.x), transfer(1, c.y), transfer(2, c.z), transfer(3, c.w))))
            }
        case .convert(let linear):
            each { s, _, _ in
                let c = M.unpremultiply(s)
                func f(_ v: Float) -> Float {
                    let x = min(max(v, 0), 1)
                    return linear ? M.toLinear(x) : M.toSRGB(x)
                }
                let rgb = SIMD3<Float>(f(c.x), f(c.y), f(c.z))
                return SIMD4(rgb * c.w, c.w)
            }
        case .morphology(let r, let dilate):
            // One direction of a separable rectangle minimum / maximum (one radius is 0).
            let n = SoftwareClamp.int(min(max(r.x, r.y), 256) + 0.5)
            let dir: SIMD2<Float> = r.x > 0 ? SIMD2(1, 0) : SIMD2(0, 1)
            each { _, _, p in
                var o = SIMD4<Float>(repeating: dilate ? 0 : 1)
                guard n >= 0 else { return o }
                for i in -n...n {
                    let v = io.fetch(src, p + dir * Float(i))
                    o = dilate ? pointwiseMax(o, v) : pointwiseMin(o, v)
                }
                return o
            }
        case .tile(let t):
            let size = SIMD2(max(t.z, 1), max(t.w, 1))
            each { _, _, p in
                io.fetch(src, SIMD2(t.x + mod(p.x - t.x, size.x), t.y + mod(p.y - t.y, size.y)))
            }
        case .copy:
            each { s, _, _ in s }
        case .displacement(let xAxis, let yAxis, let channels):
            let cx = Int(min(max(channels.x, 0), 3)), cy = Int(min(max(channels.y, 0), 3))
            each { _, uv, p in
                let m = M.unpremultiply(sampleOther(uv))
                let d = (m[cx] - 0.5) * xAxis + (m[cy] - 0.5) * yAxis
                let q = p + d
                return io.fetch(src, SIMD2(q.x.rounded(.down), q.y.rounded(.down)) + 0.5)
            }
        case .convolve(let size, let target, let params, _):
            let kernel = prep.kernel
            each { s, _, p in SoftwareFilterNeighbourhood.convolve(s, p, size: size, target: target, params: params, kernel: kernel, crop: crop, io) }
        case .lighting(let params, let light, let spot, let extra, let color):
            each { s, _, p in SoftwareFilterNeighbourhood.light(s, p, params: params, light: light, spot: spot, extra: extra, color: color, io) }
        case .turbulence(let t):
            guard let lattice = prep.lattice else { return }
            let inverse = SoftwareTurbulenceLattice.inverseRows(t)
            each { _, _, p in lattice.turbulence(t, rows: inverse, at: p) }
        }
    }
}
