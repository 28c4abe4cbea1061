import CoreGraphics
import Foundation
import CoreImage
import CAFrame

/// Filter graphs (SVG / CSS Filter Effects; `FilterGraph`, docs/FILTERS.md "Filter graphs"):
/// the layer's subtree is drawn into a target covering the filter region, and every primitive
/// becomes one or more `FilterOp.primitive` passes over targets of that same rectangle. Named
/// results are targets; `in`/`in2` pick them; SourceAlpha is one matrix pass; each primitive
/// works in its `color-interpolation-filters` space, with conversion passes where an input was
/// made in the other one; the last result is converted back to sRGB.
extension FilterEmitter {
    /// A filter region wider or taller than this many frame pixels is cut (with a warning) to
    /// the pass's rectangle grown by the graph's reach.
    static let maxRegionPixels: CGFloat = 16384
    /// feMorphology radii are clamped to this many frame pixels (each pass reads 2r + 1 texels).
    static let maxMorphologyRadius: Float = 256
    /// Offsets and tile sizes are clamped to this many frame pixels.
    static let maxGraphOffset: Double = 1e5

    /// How far a graph's primitives move paint, frame pixels (blurs' 3σ, offsets, radii).
    static func graphReach(_ g: FilterGraph, h: Homography) -> CGFloat {
        let k = h.linearScale
        var r = 0.0
        for p in g.primitives {
            switch p.kind {
            case .gaussianBlur(let sx, let sy): r += 3 * max(sx, sy) * k + 1
            case .dropShadow(let dx, let dy, let sx, let sy, _): r += 3 * max(sx, sy) * k + (abs(dx) + abs(dy)) * k + 1
            case .offset(let dx, let dy): r += (abs(dx) + abs(dy)) * k
            case .morphology(_, let rx, let ry): r += max(rx, ry) * k
            default: break
            }
            if r > 4096 { return 4096 }
        }
        return CGFloat(r)
    }

    /// The target rectangle for a layer filtered by `g`: its filter region in frame pixels, cut
    /// to the pass grown by the graph's reach, with one texel of transparent border (the blur
    /// reads the edge texels).
    static func graphRect(_ g: FilterGraph, h: Homography, pass: CGRect, downscale d: Int) -> CGRect {
        guard let box = h.boundingBox(of: g.region.standardized), box.width.isFinite, box.height.isFinite else { return .null }
        if box.width > maxRegionPixels || box.height > maxRegionPixels {
            RenderDiagnostics.warn("filter region \(Int(min(box.width, 1e12))) × \(Int(min(box.height, 1e12))) px is cut to the visible area grown by the filter's reach")
        }
        let reach = graphReach(g, h: h) + 2
        let cut = box.intersection(pass.insetBy(dx: -reach, dy: -reach))
        guard !cut.isNull, cut.width > 0, cut.height > 0 else { return .null }
        return aligned(FrameWriter.pixelAligned(cut).insetBy(dx: -1, dy: -1), to: d)
    }

    /// The coarsest resolution a graph's blurs run at.
    static func graphDownscale(_ g: FilterGraph, h: Homography) -> Int {
        var d = 1
        for p in g.primitives {
            switch p.kind {
            case .gaussianBlur(let sx, let sy), .dropShadow(_, _, let sx, let sy, _):
                d = max(d, downscale(sigma: Float(max(sx, sy) * h.linearScale)))
            default: break
            }
        }
        return d
    }

    /// Runs graph `g` on `source` (the layer drawn into a target covering `rect`); `images`: the
    /// graph's feImage pictures drawn into targets covering `rect` (`drawFilterImages`).
    func applyGraph(_ g: FilterGraph, to source: TargetID, rect: CGRect, h: Homography, into out: FrameWriter,
                    images: [TargetID?] = []) -> TargetID {
        let regionBox = h.boundingBox(of: g.region.standardized)?.intersection(rect) ?? .null
        let region = regionBox.isNull ? SIMD4<Float>(0, 0, 0, 0) : regionBox.simd
        func prim(_ op: FilterPrimitiveOp, _ src: TargetID, other: TargetID? = nil, crop: SIMD4<Float>) -> TargetID {
            out.appendFilter(.primitive(FilterPrimitiveStep(op, other: other, crop: crop)), source: src, rect: rect, downscale: 1)
        }
        guard !g.primitives.isEmpty else { return prim(.flood(.zero), source, crop: .zero) }

        // Frame-pixel vector of a layer-space vector (the plane's linear part at the region).
        let o = h.map(Double(g.region.midX), Double(g.region.midY)) ?? .zero
        func vector(_ dx: Double, _ dy: Double) -> SIMD2<Float> {
            let dx = min(max(dx, -Self.maxGraphOffset), Self.maxGraphOffset), dy = min(max(dy, -Self.maxGraphOffset), Self.maxGraphOffset)
            guard let p = h.map(Double(g.region.midX) + dx, Double(g.region.midY) + dy) else { return .zero }
            return SIMD2(Float(p.x - o.x), Float(p.y - o.y))
        }
        func sigmas(_ sx: Double, _ sy: Double) -> SIMD2<Float> {
            let a = vector(1, 0), b = vector(0, 1)
            let kx = (a.x * a.x + a.y * a.y).squareRoot(), ky = (b.x * b.x + b.y * b.y).squareRoot()
            return SIMD2(Float(min(max(sx, 0), Self.maxRadius)) * kx, Float(min(max(sy, 0), Self.maxRadius)) * ky)
        }

        var results: [(target: TargetID, linear: Bool, crop: SIMD4<Float>)] = []
        var alpha: TargetID?
        var converted: [String: TargetID] = [:]
        func input(_ i: FilterInput?, linear: Bool, index: Int) -> TargetID {
            let base: (TargetID, Bool)
            switch i ?? (index == 0 ? .sourceGraphic : .result(index - 1)) {
            case .sourceGraphic: base = (source, false)
            case .sourceAlpha:
                if alpha == nil {
                    let m = ColorTransform(r: .zero, g: .zero, b: .zero, a: SIMD4(0, 0, 0, 1))
                    alpha = prim(.matrix(m), source, crop: region)
                }
                return alpha!
            case .result(let k) where k >= 0 && k < results.count: base = (results[k].target, results[k].linear)
            case .result: base = (source, false)
            case .transparent: return prim(.flood(.zero), source, crop: .zero)
            }
            guard base.1 != linear else { return base.0 }
            let key = "\(base.0)-\(linear)"
            if let t = converted[key] { return t }
            let t = prim(.convert(toLinear: linear), base.0, crop: region)
            converted[key] = t
            return t
        }
        func crop(_ p: FilterPrimitive) -> SIMD4<Float> {
            guard let b = h.boundingBox(of: p.subregion.standardized) else { return .zero }
            let c = b.intersection(regionBox)
            return c.isNull ? .zero : c.simd
        }
        func color(_ c: SIMD4<Float>, linear: Bool) -> SIMD4<Float> {
            var rgb = SIMD3(c.x, c.y, c.z).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
            if linear {
                func lin(_ v: Float) -> Float { v <= 0.04045 ? v / 12.92 : powf((v + 0.055) / 1.055, 2.4) }
                rgb = SIMD3(lin(rgb.x), lin(rgb.y), lin(rgb.z))
            }
            let a = min(max(c.w, 0), 1)
            return SIMD4(rgb * a, a)
        }
        func blurred(_ src: TargetID, _ s: SIMD2<Float>, crop c: SIMD4<Float>) -> TargetID {
            guard s.x >= 0.25 || s.y >= 0.25 else { return prim(.copy, src, crop: c) }
            var (t, d) = halved(src, rect: rect, from: 1, to: Self.downscale(sigma: max(s.x, s.y)), into: out)
            if s.x >= 0.25 { t = out.appendFilter(.blur(sigma: s.x / Float(d), horizontal: true), source: t, rect: rect, downscale: d) }
            if s.y >= 0.25 { t = out.appendFilter(.blur(sigma: s.y / Float(d), horizontal: false), source: t, rect: rect, downscale: d) }
            return prim(.copy, t, crop: c)
        }

        for (index, p) in g.primitives.prefix(FilterGraph.maxPrimitives).enumerated() {
            let lin = p.linearRGB
            var resultLinear = lin
            let c = crop(p)
            func inp(_ k: Int) -> TargetID { input(k < p.inputs.count ? p.inputs[k] : nil, linear: lin, index: index) }
            let t: TargetID
            switch p.kind {
            case .offset(let dx, let dy): t = prim(.offset(vector(dx, dy)), inp(0), crop: c)
            case .flood(let col): t = prim(.flood(color(col, linear: lin)), source, crop: c)
            case .gaussianBlur(let sx, let sy): t = blurred(inp(0), sigmas(sx, sy), crop: c)
            case .blend(let mode): t = prim(.blend(mode), inp(0), other: inp(1), crop: c)
            case .composite(let op):
                let (a, b) = (inp(0), inp(1))
                switch op {
                case .over: t = prim(.composite(0), a, other: b, crop: c)
                case .in: t = prim(.composite(1), a, other: b, crop: c)
                case .out: t = prim(.composite(2), a, other: b, crop: c)
                case .atop: t = prim(.composite(3), a, other: b, crop: c)
                case .xor: t = prim(.composite(4), a, other: b, crop: c)
                case .lighter: t = prim(.composite(5), a, other: b, crop: c)
                case .arithmetic(let k1, let k2, let k3, let k4): t = prim(.arithmetic(SIMD4(k1, k2, k3, k4)), a, other: b, crop: c)
                }
            case .merge:
                if p.inputs.isEmpty {
                    t = prim(.flood(.zero), source, crop: .zero)
                } else {
                    var acc = prim(.copy, input(p.inputs[0], linear: lin, index: index), crop: c)
                    for i in p.inputs.dropFirst() {
                        acc = prim(.composite(0), input(i, linear: lin, index: index), other: acc, crop: c)
                    }
                    t = acc
                }
            case .colorMatrix(let m) where m.count == 20:
                let tr = ColorTransform(r: SIMD4(m[0], m[1], m[2], m[3]), g: SIMD4(m[5], m[6], m[7], m[8]),
                                        b: SIMD4(m[10], m[11], m[12], m[13]), a: SIMD4(m[15], m[16], m[17], m[18]),
                                        bias: SIMD4(m[4], m[9], m[14], m[19]))
                t = prim(.matrix(tr), inp(0), crop: c)
            case .colorMatrix: t = prim(.copy, inp(0), crop: c)
            case .componentTransfer(let f):
                let n = FilterTransferTable.size
                var samples: [SIMD4<Float>] = []
                for i in 0..<n {
                    let x = Float(i) / Float(n - 1)
                    func ch(_ k: Int) -> Float { k < f.count ? f[k].apply(x) : x }
                    samples.append(SIMD4(ch(0), ch(1), ch(2), ch(3)))
                }
                t = prim(.transfer(FilterTransferTable(samples: samples)), inp(0), crop: c)
            case .dropShadow(let dx, let dy, let sx, let sy, let col):
                let src = inp(0)
                let blur = blurred(src, sigmas(sx, sy), crop: region)
                let moved = prim(.offset(vector(dx, dy)), blur, crop: region)
                let cc = color(col, linear: lin)
                let a = cc.w, rgb = a > 0 ? SIMD3(cc.x, cc.y, cc.z) / a : .zero
                let tint = ColorTransform(r: .zero, g: .zero, b: .zero, a: SIMD4(0, 0, 0, a), bias: SIMD4(rgb.x, rgb.y, rgb.z, 0))
                let shadow = prim(.matrix(tint), moved, crop: region)
                t = prim(.composite(0), src, other: shadow, crop: c)
            case .morphology(let dilate, let rx, let ry):
                let r = sigmas(rx, ry)
                var m = inp(0)
                let x = min(r.x, Self.maxMorphologyRadius).rounded(), y = min(r.y, Self.maxMorphologyRadius).rounded()
                if x >= 1 { m = prim(.morphology(SIMD2(x, 0), dilate: dilate), m, crop: region) }
                if y >= 1 { m = prim(.morphology(SIMD2(0, y), dilate: dilate), m, crop: region) }
                t = prim(.copy, m, crop: c)
            case .tile:
                let k = p.inputs.first ?? (index == 0 ? .sourceGraphic : .result(index - 1))
                var tile = region
                if case .result(let j) = k, j >= 0, j < results.count { tile = results[j].crop }
                t = tile.z >= 1 && tile.w >= 1 ? prim(.tile(tile), inp(0), crop: c) : prim(.flood(.zero), source, crop: .zero)
            case .convolve(let k):
                let params = SIMD4(k.divisor, k.bias, Float(k.edgeMode), k.preserveAlpha ? 1 : 0)
                t = prim(.convolve(size: SIMD2(Float(k.orderX), Float(k.orderY)), target: SIMD2(Float(k.targetX), Float(k.targetY)),
                                   params: params, kernel: k.kernel), inp(0), crop: c)
            case .lighting(let specular, let surfaceScale, let constant, let exponent, let light, let col):
                let k = Float(h.linearScale)
                func point(_ x: Float, _ y: Float, _ z: Float) -> SIMD3<Float> {
                    guard let q = h.map(Double(x), Double(y)) else { return SIMD3(0, 0, z * k) }
                    return SIMD3(Float(q.x), Float(q.y), z * k)
                }
                var params = SIMD4<Float>(0, surfaceScale, constant, exponent)
                var lv = SIMD4<Float>(0, 0, 1, 0), spot = SIMD4<Float>(0, 0, 0, 1), extra = SIMD4<Float>(-2, specular ? 1 : 0, 0, 0)
                switch light {
                case .distant(let az, let el):
                    let a = az * .pi / 180, e = el * .pi / 180
                    lv = SIMD4(cosf(a) * cosf(e), sinf(a) * cosf(e), sinf(e), 0)
                case .point(let x, let y, let z):
                    params.x = 1
                    let q = point(x, y, z); lv = SIMD4(q.x, q.y, q.z, 0)
                case .spot(let x, let y, let z, let at, let e, let cone):
                    params.x = 2
                    let q = point(x, y, z); lv = SIMD4(q.x, q.y, q.z, 0)
                    let r = point(at.x, at.y, at.z); spot = SIMD4(r.x, r.y, r.z, e)
                    if let cone { extra.x = cosf(min(abs(cone), 90) * .pi / 180) }
                }
                let cc = color(SIMD4(col.x, col.y, col.z, 1), linear: lin)
                t = prim(.lighting(params: params, light: lv, spot: spot, extra: extra, color: cc), inp(0), crop: c)
            case .turbulence(let tb):
                t = turbulence(tb, subregion: p.subregion, h: h).map { prim(.turbulence($0), source, crop: c) }
                    ?? prim(.flood(.zero), source, crop: .zero)
            case .displacementMap(let sx, let sy, let x, let y):
                // Filter Effects 1 § feDisplacementMap: color-interpolation-filters applies to
                // the map (in2) only; `in` and the result stay in the space `in` was made in.
                let first = p.inputs.first ?? (index == 0 ? .sourceGraphic : .result(index - 1))
                switch first {
                case .sourceGraphic: resultLinear = false
                case .result(let k) where k >= 0 && k < results.count: resultLinear = results[k].linear
                default: resultLinear = lin
                }
                let channels = SIMD2(Int32(min(max(x, 0), 3)), Int32(min(max(y, 0), 3)))
                let map = input(p.inputs.count > 1 ? p.inputs[1] : nil, linear: lin, index: index)
                t = prim(.displacement(xAxis: vector(sx, 0), yAxis: vector(0, sy), channels: channels),
                         input(first, linear: resultLinear, index: index), other: map, crop: c)
            case .image(let k):
                // A picture is in sRGB, whatever the primitive's space (a later input converts it).
                resultLinear = false
                if k >= 0, k < images.count, let picture = images[k] { t = prim(.copy, picture, crop: c) }
                else { t = prim(.flood(.zero), source, crop: .zero) }
            case .unsupported:
                t = prim(.flood(.zero), source, crop: .zero)
            }
            results.append((t, resultLinear, c))
        }
        guard let last = results.last else { return source }
        return last.linear ? prim(.convert(toLinear: false), last.target, crop: region) : last.target
    }

    /// feTurbulence's pass parameters: the lattice from the seed, the frame → user-space map,
    /// the stitched frequencies and tile. nil (a transparent result) when the layer's plane
    /// cannot be inverted.
    func turbulence(_ tb: FilterTurbulence, subregion: CGRect, h: Homography) -> FilterTurbulenceStep? {
        guard let inv = h.inverted(), inv.isFiniteInFloat else { return nil }
        if tb.numOctaves > FilterTurbulenceStep.maxOctaves {
            RenderDiagnostics.warn("feTurbulence numOctaves \(tb.numOctaves) is clamped to \(FilterTurbulenceStep.maxOctaves) (further octaves change no 8-bit level)")
        }
        var f = tb.baseFrequency
        var stitch: TurbulenceLattice.Stitch?
        if tb.stitchTiles, subregion.width.isFinite, subregion.height.isFinite {
            (f, stitch) = TurbulenceLattice.stitch(frequency: f, tile: SIMD4(Double(subregion.minX), Double(subregion.minY), Double(subregion.width), Double(subregion.height)))
        }
        func row(_ r: SIMD3<Double>) -> SIMD4<Float> { SIMD4(Float(r.x), Float(r.y), Float(r.z), 0) }
        return FilterTurbulenceStep(lattice: TurbulenceLattice.cached(seed: tb.seed), inverse: [row(inv.r0), row(inv.r1), row(inv.r2)],
                                    frequency: SIMD2(Float(f.x), Float(f.y)), octaves: tb.numOctaves, fractal: tb.fractalNoise,
                                    stitch: stitch)
    }
}
