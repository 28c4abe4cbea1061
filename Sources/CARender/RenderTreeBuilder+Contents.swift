import CoreGraphics
import CoreAnimation

extension RenderTreeBuilder {
    /// `contents` as textured quads (one, or nine for `contentsCenter`), cut to the rounded
    /// bounds when `masksToBounds` (contents never spill out of a clipped layer).
    ///
    /// Filters are chosen per pixel in `image.frag`, as GL chooses between its own minifying
    /// and magnifying filters: `minificationFilter` where the image is shown smaller than its
    /// pixels, `magnificationFilter` elsewhere (CALayer docs), so a perspective-tilted image can
    /// use both. `trilinear` needs mipmaps, so it is the batch's texture filter; nearest and
    /// linear ride in the instance flags.
    ///
    /// `drawn`: the image is the layer's own backing store (its `display()` drew it). Those stay
    /// out of the image atlas: a layer that redraws replaces its image at every display (every
    /// frame while a `needsDisplay(forKey:)` property animates), and the atlas, which keeps
    /// what it placed until the builder goes away, would fill with stale drawings and upload a
    /// whole page per redraw. A texture of its own is uploaded once per display instead, and
    /// released by the backend once unused (`GLRenderer.evictUnused`).
    func emitContents(_ image: CGImage, _ s: LayerState, h: Homography, radii: SIMD4<Float>, clip: Int32, opacity: Float,
                      drawn: Bool = false) {
        let pieces = ContentsLayout.pieces(bounds: s.bounds, imageWidth: image.width, imageHeight: image.height,
                                           gravity: s.contentsGravity, contentsRect: s.contentsRect,
                                           contentsScale: s.contentsScale, contentsCenter: s.contentsCenter,
                                           geometryFlipped: s.isGeometryFlipped, planeMirrored: planeMirrored)
        guard !pieces.isEmpty else { return }
        let batchFilter: TextureFilter = s.minificationFilter == .trilinear ? .trilinear : .linear
        let slot: Int
        var atlas = SIMD4<Float>(0, 0, 1, 1)
        if usesImageAtlas, !drawn, batchFilter != .trilinear, let p = imageAtlas.placement(of: image) {
            slot = atlasSlot(page: p.page)
            atlas = p.transform
        } else {
            slot = textureSlot(image)
        }
        // Coverage (and edge antialiasing) is computed against `shape`: the rounded bounds under
        // masksToBounds, else the union of the pieces, so seams between nine-part pieces stay
        // hard and only outer edges are smoothed.
        let union = pieces.dropFirst().reduce(pieces[0].rect) { $0.union($1.rect) }
        let shape: SIMD4<Float> = s.masksToBounds ? s.bounds.simd : union.simd
        let shapeRadii: SIMD4<Float> = s.masksToBounds ? radii : .zero
        let aa: UInt32 = s.allowsEdgeAntialiasing ? UInt32(s.edgeAntialiasingMask.rawValue & 15) : 0
        let filters = Self.filterBits(s.minificationFilter) << InstanceFlags.minificationFilterShift
            | Self.filterBits(s.magnificationFilter) << InstanceFlags.magnificationFilterShift
        let flags = aa | (s.cornerCurve == .continuous ? 16 : 0) | filters
        let p = h.packed(SIMD3(0, Float(clip), Float(flags)))
        for piece in pieces {
            appendImage(ImageInstance(h0: p.0, h1: p.1, h2: p.2, rect: piece.rect.simd, uv: piece.uv,
                                      tint: SIMD4(repeating: opacity), shape: shape, shapeRadii: shapeRadii, atlas: atlas),
                        texture: slot, filter: batchFilter)
        }
    }

    /// Image instance flag bits of a `CALayerContentsFilter`: 0 linear, 1 nearest, 2 trilinear.
    /// An unknown filter name samples linearly (Apple's default for both filters).
    static func filterBits(_ f: CALayerContentsFilter) -> UInt32 {
        f == .nearest ? 1 : f == .trilinear ? 2 : 0
    }

    /// A CAGradientLayer's colours as one ramp row and one instance.
    ///
    /// The ramp holds `GradientInstance.rampWidth` premultiplied RGBA texels in 32-bit float:
    /// colours interpolate *unpremultiplied* and are premultiplied afterwards, as Core Animation
    /// does (a fade from white to `clear`, transparent black, passes through grey; one to
    /// red at alpha 0 keeps the hue). Float texels keep the fractions between 8-bit levels so
    /// the shader's dither can spread them (an 8-bit ramp would band before any dither).
    /// No colours draw nothing; one colour fills the layer.
    func emitGradient(_ layer: CAGradientLayer, _ s: LayerState, h: Homography, radii: SIMD4<Float>, clip: Int32, opacity: Float) {
        let colors = (layer.colors ?? []).compactMap { $0 as? CGColor }
        guard !colors.isEmpty else { return }
        let locations = layer.locations?.map(\.doubleValue)
        let key = colors.flatMap { c -> [Double] in let v = c.rgba; return [v.red, v.green, v.blue, v.alpha].map(Double.init) }
            + [.infinity] + (locations ?? [])
        let row: Int
        if let r = gradientRampIndex[key] {
            row = r
        } else {
            row = frame.gradientRampRows
            // Ramps change only when colours or locations do (a commit or an animation of them),
            // so they are kept across frames rather than interpolated again each frame.
            if let cached = rampCache[key] {
                frame.gradientRamps.append(contentsOf: cached)
            } else {
                let ramp = Self.gradientRamp(colors: colors, locations: locations)
                if rampCache.count >= Self.rampCacheLimit { rampCache.removeAll(keepingCapacity: true) }
                rampCache[key] = ramp
                frame.gradientRamps.append(contentsOf: ramp)
            }
            gradientRampIndex[key] = row
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

    /// One ramp row (`rampWidth` × RGBA floats, premultiplied). `locations` apply when there is
    /// one per colour and all are finite (else the colours spread evenly, as for nil); stops
    /// out of order are sorted, as CGGradient requires them increasing.
    static func gradientRamp(colors: [CGColor], locations: [Double]?) -> [Float] {
        var stops: [(loc: Double, c: (red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat))]
        if let l = locations, l.count == colors.count, l.allSatisfy(\.isFinite) {
            stops = zip(l, colors.map(\.rgba)).map { ($0, $1) }
            stops.sort { $0.loc < $1.loc }
        } else {
            let n = colors.count
            stops = colors.enumerated().map { (n > 1 ? Double($0.offset) / Double(n - 1) : 0, $0.element.rgba) }
        }
        let n = GradientInstance.rampWidth
        var out = [Float]()
        out.reserveCapacity(n * 4)
        var k = 0
        for i in 0..<n {
            let t = Double(i) / Double(n - 1)
            while k + 1 < stops.count, stops[k + 1].loc <= t { k += 1 }
            let a = stops[k].c
            var b = a
            var f = 0.0
            if t > stops[k].loc, k + 1 < stops.count {
                b = stops[k + 1].c
                let span = stops[k + 1].loc - stops[k].loc
                f = span > 0 ? (t - stops[k].loc) / span : 1
            }
            func mix(_ x: CGFloat, _ y: CGFloat) -> Double { Double(x) + (Double(y) - Double(x)) * f }
            let alpha = min(max(mix(a.alpha, b.alpha), 0), 1)
            func ch(_ x: CGFloat, _ y: CGFloat) -> Float { Float(min(max(mix(x, y), 0), 1) * alpha) }
            out.append(contentsOf: [ch(a.red, b.red), ch(a.green, b.green), ch(a.blue, b.blue), Float(alpha)])
        }
        return out
    }
}
