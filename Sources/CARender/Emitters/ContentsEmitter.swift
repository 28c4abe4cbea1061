import CoreGraphics
import CoreAnimation
import CAFrame

/// A layer's `contents` image as textured quads (one, or nine for `contentsCenter`), cut to
/// the rounded bounds when `masksToBounds` (contents never spill out of a clipped layer).
/// Drawn content (`display()`/`draw(in:)`) arrives here as the image it made.
///
/// Filters are chosen per pixel in `image.frag`, as GL chooses between its own minifying and
/// magnifying filters: `minificationFilter` where the image is shown smaller than its pixels,
/// `magnificationFilter` elsewhere (CALayer docs), so a perspective-tilted image can use both.
/// `trilinear` needs mipmaps, so it is the batch's texture filter; nearest and linear ride in
/// the instance flags.
final class ContentsEmitter: ContentEmitter {
    /// Small images packed into shared pages, kept across frames (`ImageAtlas.swift`).
    let atlas = ImageAtlas()
    /// This frame's texture slot of each atlas page in use.
    var atlasSlots: [Int: Int] = [:]
    /// Whether small images go into the atlas (`CARenderer.Options.usesImageAtlas`; tests
    /// compare against their own textures).
    var usesAtlas = true
    /// Text layers whose text the glyph atlas draws leave their backing store out (issue 20,
    /// `GlyphEmitter`); set by the builder.
    weak var glyphs: GlyphEmitter?

    func claims(_ copy: CALayer) -> Bool { copy.hasContents }
    var claimRule: ContentClaimRule { .byContents }

    /// The image `paints` found, for the `emit` that follows it (one dynamic cast of `contents`
    /// per layer, not two). Held, and used once, as `ShapeEmitter.lastSpec`.
    private var lastImage: (copy: CALayer, image: CGImage)?

    /// Contents of a kind not drawn (not a `CGImage`) paint nothing.
    func paints(_ copy: CALayer) -> Bool {
        guard let image = copy.state.contents.flatMap({ $0 as? CGImage }) else { return false }
        lastImage = (copy, image)
        return true
    }

    func beginFrame(_ out: FrameWriter) {
        lastImage = nil
        atlasSlots.removeAll(keepingCapacity: true)
    }

    /// The page images are filled in once every image of the frame has been placed, so a page
    /// that grew during the frame is uploaded once, not once per version.
    func finishFrame(_ out: FrameWriter) {
        for (page, slot) in atlasSlots { out.frame.textures[slot] = atlas.pageImage(page) }
        // (Replacing, not appending: a patched frame must not keep last frame's retired pages.)
        out.frame.retiredTextures = atlas.takeRetired()
    }

    func emit(_ layer: CALayer, _ copy: CALayer, at site: DrawSite, into out: FrameWriter) {
        let found = lastImage.flatMap { $0.copy === copy ? $0.image : nil }
        lastImage = nil
        guard let image = found ?? copy.state.contents.flatMap({ $0 as? CGImage }) else { return }
        if let glyphs, glyphs.handles(copy, at: site) { return }
        let pieces = ContentsLayout.pieces(bounds: copy.state.bounds, imageWidth: image.width, imageHeight: image.height,
                                           gravity: copy.state.contentsGravity, contentsRect: copy.state.contentsRect,
                                           contentsScale: copy.state.contentsScale, contentsCenter: copy.state.contentsCenter,
                                           geometryFlipped: copy.state.isGeometryFlipped, planeMirrored: site.planeMirrored)
        guard !pieces.isEmpty else { return }
        let batchFilter: TextureFilter = copy.state.minificationFilter == .trilinear ? .trilinear : .linear
        let slot: Int
        var placement = SIMD4<Float>(0, 0, 1, 1)
        // The layer's own backing store (its `display()` drew it) stays out of the atlas: a layer
        // that redraws replaces its image at every display (every frame while a
        // `needsDisplay(forKey:)` property animates), and the atlas, which keeps what it placed
        // until the builder goes away, would fill with stale drawings and upload a whole page per
        // redraw. A texture of its own is uploaded once per display instead, and released by the
        // backend once unused.
        let drawn = copy.backingStore?.image === image
        if usesAtlas, !drawn, batchFilter != .trilinear, let p = atlas.placement(of: image) {
            slot = atlasSlot(page: p.page, out)
            placement = p.transform
        } else {
            slot = out.textureSlot(image)
        }
        // Coverage (and edge antialiasing) is computed against `shape`: the rounded bounds under
        // masksToBounds, else the union of the pieces, so seams between nine-part pieces stay
        // hard and only outer edges are smoothed.
        let union = pieces.dropFirst().reduce(pieces[0].rect) { $0.union($1.rect) }
        let shape: SIMD4<Float> = copy.state.masksToBounds ? copy.state.bounds.simd : union.simd
        let shapeRadii: SIMD4<Float> = copy.state.masksToBounds ? site.radii : .zero
        let aa: UInt32 = copy.state.allowsEdgeAntialiasing ? UInt32(copy.state.edgeAntialiasingMask.rawValue & 15) : 0
        let filters = Self.filterBits(copy.state.minificationFilter) << InstanceFlags.minificationFilterShift
            | Self.filterBits(copy.state.magnificationFilter) << InstanceFlags.magnificationFilterShift
        let flags = aa | (copy.state.cornerCurve == .continuous ? 16 : 0) | filters
        let p = site.h.packed(SIMD3(0, Float(site.clip), Float(flags)))
        for piece in pieces {
            let i = ImageInstance(h0: p.0, h1: p.1, h2: p.2, rect: piece.rect.simd, uv: piece.uv,
                                  tint: SIMD4(repeating: site.opacity), shape: shape, shapeRadii: shapeRadii, atlas: placement)
            out.frame.images.append(i)
            out.appendBatch(.image(texture: slot, filter: batchFilter),
                            variant: ShaderVariant.of(clip: i.h1.w, flags: i.h2.w, h0: i.h0, h1: i.h1, h2: i.h2),
                            index: out.frame.images.count - 1)
        }
    }

    /// Image instance flag bits of a `CALayerContentsFilter`: 0 linear, 1 nearest, 2 trilinear.
    /// An unknown filter name samples linearly (Apple's default for both filters).
    static func filterBits(_ f: CALayerContentsFilter) -> UInt32 {
        f == .nearest ? 1 : f == .trilinear ? 2 : 0
    }

    /// The texture slot of an atlas page in this frame (its image is filled in by `finishFrame`).
    func atlasSlot(page: Int, _ out: FrameWriter) -> Int {
        if let i = atlasSlots[page] { return i }
        out.frame.textures.append(atlas.pageImage(page))
        atlasSlots[page] = out.frame.textures.count - 1
        return out.frame.textures.count - 1
    }
}
