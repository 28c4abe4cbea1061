import CoreGraphics
import CoreAnimation
import CoreImage
import CAFrame

/// Core Image filters on layers (issue 24, docs/FILTERS.md): `filters` (the layer and its
/// sublayers, drawn into an offscreen target, run through the chain, composited back),
/// `backgroundFilters` (what is behind the layer, inside its rounded bounds, before the layer
/// draws) and `compositingFilter` (the layer's pixels blended with what is below). The walk's
/// compositing plan isolates such layers; this room turns the filters into steps and the steps
/// into passes (`FilterOp`).
final class FilterEmitter {
    /// Filters after this many in one list are not applied (a warning says so): each is at
    /// least one full pass over the layer's pixels.
    static let maxChain = 16
    /// Blur radii (CIGaussianBlur, CIBloom) are clamped to this many points; NaN and infinities
    /// count as 0 (a warning names the value).
    static let maxRadius = 100.0
    /// CIPixellate cells are clamped to 1…1000 points.
    static let maxCell = 1000.0
    /// Blurs run at 1/2 … 1/16 resolution while σ in texels would exceed this (as shadows do).
    static let maxTexelSigma: Float = 12

    /// One filter, its parameters read (points, linear colour).
    enum Step {
        case color(ColorTransform)
        case blur(radius: Double)
        case bloom(radius: Double, intensity: Float)
        case vignette(radius: Float, intensity: Float)
        case pixellate(center: CGPoint, scale: Double)
        /// A filter graph (SVG / CSS Filter Effects, `FilterGraphEmitter.swift`).
        case graph(FilterGraph)
    }

    // MARK: Reading the filters

    /// The steps of a `filters` or `backgroundFilters` list (`what` names it in warnings):
    /// unknown objects and blend filters warn once and are left out; past `maxChain` the rest
    /// is cut with a warning.
    static func steps(_ list: [Any], what: String) -> [Step] {
        if list.count > maxChain {
            RenderDiagnostics.warn("CALayer.\(what) holds \(list.count) filters: only the first \(maxChain) are applied")
        }
        var out: [Step] = []
        for item in list.prefix(maxChain) {
            if let g = item as? FilterGraph { out.append(.graph(g)); continue }
            guard let f = item as? CIFilter else {
                RenderDiagnostics.warn("CALayer.\(what): a \(type(of: item)) is not a CIFilter: not applied")
                continue
            }
            if let s = step(f, what: what) { out.append(s) }
        }
        return out
    }

    static func step(_ f: CIFilter, what: String) -> Step? {
        switch f.family {
        case .gaussianBlur: return .blur(radius: radius(f, kCIInputRadiusKey))
        case .bloom: return .bloom(radius: radius(f, kCIInputRadiusKey), intensity: finite(f, kCIInputIntensityKey, 0, 10))
        case .vignette: return .vignette(radius: finite(f, kCIInputRadiusKey, 0, 1e6), intensity: finite(f, kCIInputIntensityKey, -10, 10))
        case .pixellate:
            let c = f.vector(kCIInputCenterKey)
            let center = CGPoint(x: c.count > 0 && c[0].isFinite ? c[0] : 0, y: c.count > 1 && c[1].isFinite ? c[1] : 0)
            return .pixellate(center: center, scale: Double(finite(f, kCIInputScaleKey, 1, Float(maxCell))))
        case .blend:
            RenderDiagnostics.warn("CALayer.\(what): \(f.filterName) is a compositing filter: it applies only as compositingFilter")
            return nil
        default:
            return .color(ColorFilterMatrix.transform(f))
        }
    }

    /// A blur radius in points: clamped to `maxRadius`; NaN or infinite → 0, with a warning.
    static func radius(_ f: CIFilter, _ key: String) -> Double {
        let r = f.number(key)
        guard r.isFinite else {
            RenderDiagnostics.warn("\(f.filterName).\(key) is \(r): 0 is used")
            return 0
        }
        if r > maxRadius { RenderDiagnostics.warn("\(f.filterName).\(key) \(r) is clamped to \(maxRadius) points") }
        return min(max(r, 0), maxRadius)
    }

    static func finite(_ f: CIFilter, _ key: String, _ lo: Float, _ hi: Float) -> Float {
        let v = f.number(key)
        guard v.isFinite else {
            RenderDiagnostics.warn("\(f.filterName).\(key) is \(v): 0 is used")
            return min(max(0, lo), hi)
        }
        return min(max(Float(v), lo), hi)
    }

    // MARK: Geometry

    /// How far the steps move paint (frame pixels): a blur's 3σ, a pixellate cell.
    static func reach(_ steps: [Step], h: Homography) -> CGFloat {
        let scale = h.linearScale
        var r = 0.0
        for s in steps {
            switch s {
            case .blur(let radius), .bloom(let radius, _): r += 3 * radius * scale + 1
            case .pixellate(_, let cell): r += cell * scale
            case .color, .vignette: break
            case .graph(let g): r += graphReach(g, h: h)
            }
        }
        return CGFloat(min(r, 1e6))
    }

    /// The coarsest resolution a blur of the steps runs at (the target's grid is aligned to it).
    static func downscale(_ steps: [Step], h: Homography) -> Int {
        var d = 1
        for s in steps {
            if case .blur(let r) = s { d = max(d, downscale(sigma: Float(r * h.linearScale))) }
            if case .bloom(let r, _) = s { d = max(d, downscale(sigma: Float(r * h.linearScale))) }
            if case .graph(let g) = s { d = max(d, graphDownscale(g, h: h)) }
        }
        return d
    }

    static func downscale(sigma: Float) -> Int {
        var d = 1
        while sigma / Float(d) > maxTexelSigma, d < 16 { d *= 2 }
        return d
    }

    /// `rect` grown to whole texels of a target `d` times smaller.
    static func aligned(_ rect: CGRect, to d: Int) -> CGRect {
        guard !rect.isNull, d > 1 else { return rect }
        let k = CGFloat(d)
        let x0 = (rect.minX / k).rounded(.down) * k, y0 = (rect.minY / k).rounded(.down) * k
        let x1 = (rect.maxX / k).rounded(.up) * k, y1 = (rect.maxY / k).rounded(.up) * k
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    // MARK: Passes

    /// Runs `steps` on `source` (a target covering `rect`); returns the result's target.
    /// `bounds` is the layer's bounds (vignette's extent, pixellate's grid origin), `h` its plane.
    func apply(_ steps: [Step], to source: TargetID, rect: CGRect, bounds: CGRect, h: Homography, into out: FrameWriter,
               images: [ObjectIdentifier: [TargetID?]] = [:]) -> TargetID {
        var src = source
        var d = 1
        let scale = h.linearScale
        for step in steps {
            switch step {
            case .color(let m):
                src = out.appendFilter(.color(m), source: src, rect: rect, downscale: d)
            case .blur(let radius):
                (src, d) = blur(src, sigma: Float(radius * scale), rect: rect, downscale: d, into: out)
            case .bloom(let radius, let intensity):
                let (glow, _) = blur(src, sigma: Float(radius * scale), rect: rect, downscale: d, into: out)
                src = out.appendFilter(.add(glow: glow, weight: intensity), source: src, rect: rect, downscale: d)
            case .vignette(let radius, let intensity):
                guard let box = h.boundingBox(of: bounds.standardized) else { continue }
                src = out.appendFilter(.vignette(center: SIMD2(Float(box.midX), Float(box.midY)), extent: box.simd,
                                                 radius: radius, intensity: intensity), source: src, rect: rect, downscale: d)
            case .pixellate(let center, let cell):
                let p = h.project(Double(center.x), Double(center.y))
                guard p.z > 0 else { continue }
                src = out.appendFilter(.pixellate(center: SIMD2(Float(p.x / p.z), Float(p.y / p.z)), scale: Float(max(cell * scale, 1))),
                                       source: src, rect: rect, downscale: d)
            case .graph(let g):
                src = applyGraph(g, to: src, rect: rect, h: h, into: out, images: images[ObjectIdentifier(g)] ?? [])
                d = 1
            }
        }
        return src
    }

    /// `source` (at downscale `d0`) halved by 2×2 averages (bilinear composites into targets of
    /// half the size) until its downscale reaches `want`; the blurs run there.
    func halved(_ source: TargetID, rect: CGRect, from d0: Int, to want: Int, into out: FrameWriter) -> (TargetID, Int) {
        var src = source, d = d0
        while d < want {
            d *= 2
            let half = out.appendTarget(rect, downscale: d)
            out.frame.composites.append(CompositeInstance(dst: rect.simd, src: rect.simd, color: SIMD4(repeating: 1), params: .zero))
            let i = out.frame.composites.count - 1
            out.frame.passes.append(RenderPass(target: half, kind: .draw([Batch(pipeline: .composite(source: src, mask: nil), range: i..<(i + 1))])))
            src = half
        }
        return (src, d)
    }

    /// A separable Gaussian of σ frame pixels: halved (2×2 averages through bilinear sampling)
    /// until σ fits `maxTexelSigma` texels, then a horizontal and a vertical pass.
    func blur(_ source: TargetID, sigma: Float, rect: CGRect, downscale d0: Int, into out: FrameWriter) -> (TargetID, Int) {
        guard sigma >= 0.25 else { return (source, d0) }
        let (src, d) = halved(source, rect: rect, from: d0, to: max(Self.downscale(sigma: sigma), d0), into: out)
        let texelSigma = sigma / Float(d)
        let across = out.appendFilter(.blur(sigma: texelSigma, horizontal: true), source: src, rect: rect, downscale: d)
        return (out.appendFilter(.blur(sigma: texelSigma, horizontal: false), source: across, rect: rect, downscale: d), d)
    }

    /// Background filters: the backdrop under the layer's bounds (grown by the steps' reach),
    /// filtered, replacing what is inside the layer's rounded bounds, clip `outer` and the
    /// layer's mask (its target and rectangle).
    func emitBackground(_ steps: [Step], _ s: LayerState, h: Homography, outer: Int32, mask: (TargetID, CGRect)?,
                        into out: FrameWriter) {
        guard let inv = h.inverted(), let box = h.boundingBox(of: s.bounds.standardized) else { return }
        let pass = out.passRect
        let region = FrameWriter.pixelAligned(Self.aligned(box.insetBy(dx: -Self.reach(steps, h: h) - 1, dy: -Self.reach(steps, h: h) - 1),
                                                           to: Self.downscale(steps, h: h)).intersection(pass))
        guard !region.isNull, region.width >= 1, region.height >= 1 else { return }
        let backdrop = out.copyBackdrop(region)
        let filtered = apply(steps, to: backdrop, rect: region, bounds: s.bounds, h: h, into: out)
        let shape = out.appendClip(ClipShape(inverse: inv, rect: s.bounds.simd, radii: LayerGeometry.cornerRadii(s),
                                             continuous: s.cornerCurve == .continuous))
        let result = out.appendFilter(.inside(backdrop: backdrop, shape: shape, outer: outer, mask: mask?.0,
                                              maskRect: mask?.1.simd ?? .zero), source: filtered, rect: region, downscale: 1)
        out.appendReplacingComposite(source: result, rect: region)
    }

    /// A compositing filter: `source` (covering `rect`, possibly beyond the pass) blended with
    /// what the pass has drawn below it, at `opacity`, cut by clip `clip`.
    func emitBlend(_ mode: CIBlendMode, source: TargetID, rect: CGRect, opacity: Float, clip: Int32, into out: FrameWriter) {
        let region = FrameWriter.pixelAligned(rect.intersection(out.passRect))
        guard !region.isNull, region.width >= 1, region.height >= 1 else { return }
        var src = source
        if region != rect {
            src = out.beginOffscreen(region)
            out.appendComposite(source: source, mask: nil, rect: rect, opacity: 1, clip: 0)
            out.endOffscreen()
        }
        let backdrop = out.copyBackdrop(region)
        let result = out.appendFilter(.blend(mode: mode.rawValue, backdrop: backdrop, opacity: opacity, clip: clip),
                                      source: src, rect: region, downscale: 1)
        out.appendReplacingComposite(source: result, rect: region)
    }
}
