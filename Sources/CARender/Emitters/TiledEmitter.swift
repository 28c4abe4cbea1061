import CoreGraphics
import CoreAnimation
import CAFrame

/// A `CATiledLayer`'s tiles as textured quads (issue 19): the tiles the frame shows — inside the
/// pass being drawn and the layer's clip — at the level of detail the layer's on-screen scale
/// needs, drawn (or taken from the layer's cache) before the frame renders, so offscreen and
/// video frames are deterministic (docs/BEHAVIOUR.md P8–P11). Each tile is one image instance;
/// coverage is computed against the layer's bounds, so seams between tiles stay hard and only
/// the layer's outer edges are smoothed, as one image would be.
final class TiledEmitter: ContentEmitter {
    func claims(_ copy: CALayer) -> Bool { copy is CATiledLayer }
    var claimRule: ContentClaimRule { .byClass }

    func paints(_ copy: CALayer) -> Bool {
        let b = copy.state.bounds
        return b.width > 0 && b.height > 0
    }

    func emit(_ layer: CALayer, _ copy: CALayer, at site: DrawSite, into out: FrameWriter) {
        guard let model = layer as? CATiledLayer, let values = copy as? CATiledLayer else { return }
        let b = values.state.bounds.standardized
        guard b.width > 0, b.height > 0 else { return }
        if type(of: model).fadeDuration() != 0.25 {
            RenderDiagnostics.warn("CATiledLayer.fadeDuration(): tiles are drawn before the frame that shows them, so none fades in (docs/CONTENT-LAYERS.md)")
        }
        let flipped = model.contentsAreFlipped()
        // The plane shows the drawing reflected when exactly one of the drawing's flip and the
        // plane's mirror applies (as a backing store drawn by `display()` and placed by
        // `ContentsLayout` would be).
        let reflect = flipped != site.planeMirrored
        let visible = Self.visibleRect(bounds: b, h: site.h, clip: site.clip, out: out)
        let inLayer = reflect ? Self.reflected(visible, in: b) : visible
        let tiles = model.tilesForView(visible: inLayer, onScreenScale: CGFloat(site.h.linearScale), values: values)
        guard !tiles.isEmpty else { return }
        let shape = values.state.bounds.simd
        let shapeRadii: SIMD4<Float> = values.state.masksToBounds ? site.radii : .zero
        let aa: UInt32 = values.state.allowsEdgeAntialiasing ? UInt32(values.state.edgeAntialiasingMask.rawValue & 15) : 0
        let filters = ContentsEmitter.filterBits(values.state.minificationFilter) << InstanceFlags.minificationFilterShift
            | ContentsEmitter.filterBits(values.state.magnificationFilter) << InstanceFlags.magnificationFilterShift
        let flags = aa | (values.state.cornerCurve == .continuous ? 16 : 0) | filters
        let p = site.h.packed(SIMD3(0, Float(site.clip), Float(flags)))
        for t in tiles {
            let rect = reflect ? Self.reflected(t.rect, in: b) : t.rect
            let uMax = Float(t.rect.width * t.density / CGFloat(t.image.width))
            let vMax = Float(t.rect.height * t.density / CGFloat(t.image.height))
            // The tile's first bitmap row is its min-y edge (max-y when drawn flipped); the plane
            // shows it at the quad's min-y edge unless mirrored.
            let uv = site.planeMirrored ? SIMD4<Float>(0, vMax, uMax, 0) : SIMD4<Float>(0, 0, uMax, vMax)
            let slot = out.textureSlot(t.image)
            let i = ImageInstance(h0: p.0, h1: p.1, h2: p.2, rect: rect.simd, uv: uv,
                                  tint: SIMD4(repeating: site.opacity), shape: shape, shapeRadii: shapeRadii)
            out.frame.images.append(i)
            out.appendBatch(.image(texture: slot, filter: .linear),
                            variant: ShaderVariant.of(clip: i.h1.w, flags: i.h2.w, h0: i.h0, h1: i.h1, h2: i.h2),
                            index: out.frame.images.count - 1)
        }
    }

    /// The part of the layer's plane that can show: the pass's pixels, cut by the clip's
    /// pixel bounds, mapped back onto the plane (the whole bounds where that cannot be done,
    /// e.g. a plane passing behind the eye).
    static func visibleRect(bounds b: CGRect, h: Homography, clip: Int32, out: FrameWriter) -> CGRect {
        var px = out.passRect
        if clip > 0, Int(clip) < out.frame.clips.count, let c = FrameWriter.pixelRect(out.frame.clips[Int(clip)]) {
            px = px.intersection(c)
        }
        guard !px.isNull, px.width > 0, px.height > 0 else { return .null }
        guard let inv = h.inverted(), let r = inv.boundingBox(of: px), r.isFiniteRect else { return b }
        // A corner behind the eye maps to nonsense: keep the bounds (`boundingBox` returns nil).
        return r.intersection(b)
    }

    /// `r` reflected top to bottom within `b`.
    static func reflected(_ r: CGRect, in b: CGRect) -> CGRect {
        guard !r.isNull else { return r }
        return CGRect(x: r.minX, y: b.minY + b.maxY - r.maxY, width: r.width, height: r.height)
    }
}
