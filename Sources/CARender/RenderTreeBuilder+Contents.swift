import CoreGraphics
import CoreAnimation

extension RenderTreeBuilder {
    /// `contents` as textured quads (one, or nine for `contentsCenter`), cut to the rounded
    /// bounds when `masksToBounds` (contents never spill out of a clipped layer).
    func emitContents(_ image: CGImage, _ s: LayerState, h: Homography, radii: SIMD4<Float>, clip: Int32, opacity: Float) {
        let pieces = ContentsLayout.pieces(bounds: s.bounds, imageWidth: image.width, imageHeight: image.height,
                                           gravity: s.contentsGravity, contentsRect: s.contentsRect,
                                           contentsScale: s.contentsScale, contentsCenter: s.contentsCenter)
        guard !pieces.isEmpty else { return }
        let slot = textureSlot(image)
        // Coverage (and edge antialiasing) is computed against `shape`: the rounded bounds under
        // masksToBounds, else the union of the pieces, so seams between nine-part pieces stay
        // hard and only outer edges are smoothed.
        let union = pieces.dropFirst().reduce(pieces[0].rect) { $0.union($1.rect) }
        let shape: SIMD4<Float> = s.masksToBounds ? s.bounds.simd : union.simd
        let shapeRadii: SIMD4<Float> = s.masksToBounds ? radii : .zero
        let aa: UInt32 = s.allowsEdgeAntialiasing ? UInt32(s.edgeAntialiasingMask.rawValue & 15) : 0
        let p = h.packed(SIMD3(0, Float(clip), Float(aa | (s.cornerCurve == .continuous ? 16 : 0))))
        for piece in pieces {
            // Shown smaller than its pixels → minification filter, else magnification.
            let texW = Double(piece.uv.z - piece.uv.x) * Double(image.width)
            let shownW = Double(piece.rect.width) * h.linearScale
            let filterName = shownW < texW - 1e-6 ? s.minificationFilter : s.magnificationFilter
            let filter: TextureFilter = filterName == .nearest ? .nearest : filterName == .trilinear ? .trilinear : .linear
            appendImage(ImageInstance(h0: p.0, h1: p.1, h2: p.2, rect: piece.rect.simd, uv: piece.uv,
                                      tint: SIMD4(repeating: opacity), shape: shape, shapeRadii: shapeRadii),
                        texture: slot, filter: filter)
        }
    }

    /// A CAGradientLayer's colours as one ramp row (256 premultiplied RGBA8 texels; colours
    /// interpolate unpremultiplied, then premultiply, so a fade to clear keeps its hue) and one
    /// instance. Fewer than two colours draw nothing… one colour fills (Apple draws a single
    /// colour as solid).
    func emitGradient(_ layer: CAGradientLayer, _ s: LayerState, h: Homography, radii: SIMD4<Float>, clip: Int32, opacity: Float) {
        let colors = (layer.colors ?? []).compactMap { $0 as? CGColor }
        guard !colors.isEmpty else { return }
        var locs: [Double]
        if let l = layer.locations, l.count == colors.count {
            locs = l.map { $0.doubleValue }
        } else {
            locs = colors.count == 1 ? [0] : (0..<colors.count).map { Double($0) / Double(colors.count - 1) }
        }
        let row = frame.gradientRampRows
        let n = GradientInstance.rampWidth
        frame.gradientRamps.reserveCapacity(frame.gradientRamps.count + n * 4)
        for i in 0..<n {
            let t = Double(i) / Double(n - 1)
            var c0 = 0, c1 = 0
            var f = 0.0
            if t <= locs[0] { c0 = 0; c1 = 0 } else if t >= locs[locs.count - 1] { c0 = locs.count - 1; c1 = c0 } else {
                for k in 0..<(locs.count - 1) where t >= locs[k] && t <= locs[k + 1] {
                    c0 = k; c1 = k + 1
                    let span = locs[k + 1] - locs[k]
                    f = span > 0 ? (t - locs[k]) / span : 0
                    break
                }
            }
            let a = colors[c0].rgba, b = colors[c1].rgba
            let alpha = a.alpha + (b.alpha - a.alpha) * f
            func ch(_ x: CGFloat, _ y: CGFloat) -> UInt8 {
                UInt8(max(0, min(255, ((x + (y - x) * f) * alpha * 255).rounded())))
            }
            frame.gradientRamps.append(contentsOf: [ch(a.red, b.red), ch(a.green, b.green), ch(a.blue, b.blue),
                                                    UInt8(max(0, min(255, (alpha * 255).rounded())))])
        }
        let b = s.bounds.standardized
        let g = layer.gradient
        let sp = CGPoint(x: b.minX + g.startPoint.x * b.width, y: b.minY + g.startPoint.y * b.height)
        let ep = CGPoint(x: b.minX + g.endPoint.x * b.width, y: b.minY + g.endPoint.y * b.height)
        let kind: Float = g.type == .radial ? 1 : g.type == .conic ? 2 : 0
        let aa: UInt32 = s.allowsEdgeAntialiasing ? UInt32(s.edgeAntialiasingMask.rawValue & 15) : 0
        let p = h.packed(SIMD3(0, Float(clip), Float(aa | (s.cornerCurve == .continuous ? 16 : 0))))
        // Like contents, a gradient is cut by the corner radius only under masksToBounds
        // (cornerRadius doc: it "applies only to the background color and border").
        appendGradient(GradientInstance(h0: p.0, h1: p.1, h2: p.2, rect: b.simd, radii: s.masksToBounds ? radii : .zero,
                                        points: SIMD4(Float(sp.x), Float(sp.y), Float(ep.x), Float(ep.y)),
                                        params: SIMD4(kind, Float(row), opacity, 0)))
    }
}
