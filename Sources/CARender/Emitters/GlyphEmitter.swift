import CoreGraphics
import CoreAnimation
import CoreText
import CAFrame

/// A `CATextLayer`'s text as glyph quads from the glyph atlas (issue 20 "Rendering";
/// `CARenderer.Options.usesGlyphAtlas`, off by default): the layer's text is laid out exactly as
/// its backing store lays it out (`CATextLayer.textLayerLines()`), and each glyph is one image
/// instance sampling its cell of a `GlyphAtlas` page, tinted with the run's colour (a colour
/// emoji's cell holds its own colours and is tinted with the colour's alpha only). Coverage is
/// FreeType's at the pixel size the frame shows (font size × the layer's on-screen scale), so
/// the text is crisp at any `contentsScale` and transform scale, and changing text or an
/// animated `fontSize` never uploads a bitmap of the whole layer.
///
/// Where the frame maps the layer to pixels by a scale and a translation (the usual case), each
/// glyph's pen is placed on the pixel grid: x quantised to a quarter pixel (rendered at that
/// offset), y to a whole pixel, so each cell's texels land on pixel centres. Under rotation,
/// skew or perspective the glyphs are rendered at the mean scale and sampled bilinearly.
///
/// Runs larger than `maxPixelSize` pixels per em on screen (other than colour emoji, which have
/// no outlines and are magnified cells: `GlyphAtlas.maxColorPixelSize`) are drawn as their glyph outlines
/// through the shape pipeline (`ShapeEmitter`: filled paths rasterised at the frame's own
/// transform, so very large text is crisp at any scale the frame shows; issue 20 "very large
/// sizes … as paths through the shape pipeline").
///
/// The layer's backing store draws instead (`ContentsEmitter`, as without the option) when the
/// glyph path cannot reproduce it: a subclass of `CATextLayer` (it may draw more), contents
/// not the layer's own drawing, geometry flipped, contents placed by a gravity, rect or centre
/// other than the defaults, or runs with stroke or underline attributes or a font matrix.
final class GlyphEmitter: ContentEmitter {
    /// Whether text layers draw as glyph quads (`CARenderer.Options.usesGlyphAtlas`, on by
    /// default).
    /// Set through `RenderTreeBuilder.usesGlyphAtlas` (claims kept per class depend on it).
    var enabled = true
    package let atlas = GlyphAtlas()
    /// Draws runs above `maxPixelSize` as filled outlines; set by the builder.
    weak var shapes: ShapeEmitter?
    private var pageSlots: [Int: Int] = [:]
    /// Above this many pixels per em on screen a run is drawn as filled glyph outlines through
    /// the shape pipeline; below it from the atlas, where a glyph's cell is at most
    /// `GlyphAtlas.maxCellSide` texels for common fonts.
    static let maxPixelSize = 192.0
    /// Outlines of large glyphs, by face, glyph, size and orientation, kept across frames so the
    /// shape cache (which keys rasters by path identity) reuses their rasters.
    private var outlinePaths: [OutlineKey: (face: FontFace, path: CGPath?)] = [:]
    static let maxOutlinePaths = 4096
    /// Outlines drawn through the shape pipeline since the builder was made (tests).
    package private(set) var outlinesDrawn = 0

    struct OutlineKey: Hashable {
        var face: ObjectIdentifier
        var glyph: CGGlyph
        var size: Double
        var mirrored: Bool
    }

    /// The layout `handles` made, for the `emit` that follows (one layout per layer and frame).
    private var last: (copy: CALayer, image: CGImage?, bounds: CGRect, lines: TextLayerLines?)?

    func claims(_ copy: CALayer) -> Bool { enabled && type(of: copy) == CATextLayer.self }
    /// (And `enabled`, set through `RenderTreeBuilder.usesGlyphAtlas`, which makes the walk
    /// forget the answers it kept.)
    var claimRule: ContentClaimRule { .byClass }

    func paints(_ copy: CALayer) -> Bool { eligible(copy) }

    func beginFrame(_ out: FrameWriter) {
        last = nil
        pageSlots.removeAll(keepingCapacity: true)
        atlas.beginFrame()
    }

    func finishFrame(_ out: FrameWriter) {
        for (page, slot) in pageSlots { out.frame.textures[slot] = atlas.pageImage(page) }
        // After `ContentsEmitter.finishFrame`, which replaces the list for this frame.
        out.frame.retiredTextures += atlas.takeRetired()
    }

    /// Whether the layer's drawing is one the glyph path reproduces (before its size on screen
    /// is known).
    func eligible(_ copy: CALayer) -> Bool {
        guard claims(copy), let text = copy as? CATextLayer else { return false }
        let s = copy.state
        guard !s.isGeometryFlipped, s.contentsGravity == .resize,
              s.contentsRect == CGRect(x: 0, y: 0, width: 1, height: 1),
              s.contentsCenter == CGRect(x: 0, y: 0, width: 1, height: 1) else { return false }
        // Only the layer's own drawing is replaced (contents a user set stay an image).
        if let c = s.contents { guard let img = c as? CGImage, copy.backingStore?.image === img else { return false } }
        return lines(text) != nil
    }

    /// Whether this emitter draws the layer's text here (then `ContentsEmitter` leaves its
    /// backing store out): eligible, on a plane with a finite scale, and — for runs larger on
    /// screen than `maxPixelSize` — with the shape pipeline at hand.
    func handles(_ copy: CALayer, at site: DrawSite) -> Bool {
        guard eligible(copy), copy is CATextLayer else { return false }
        let scale = site.h.linearScale
        guard scale.isFinite, scale > 0 else { return false }
        return shapes != nil
    }

    /// The layer's lines, laid out once per frame; nil when a run needs what the glyph path
    /// does not draw (stroke, underline, a font matrix).
    private func lines(_ text: CATextLayer) -> TextLayerLines? {
        // The same copy with the same drawing and bounds (a copy may live across frames; its
        // text changing makes a new backing store image).
        let image = text.backingStore?.image, b = text.state.bounds
        if let l = last, l.copy === text, l.image === image, l.bounds == b { return l.lines }
        var laid = text.textLayerLines()
        if let l = laid {
            check: for (line, _) in l.lines {
                for run in CTLineGetGlyphRuns(line) as! [CTRun] {
                    let a = run.attributes
                    let stroke = attributeNumber(a[kCTStrokeWidthAttributeName]) ?? 0
                    let underline = attributeNumber(a[kCTUnderlineStyleAttributeName]) ?? 0
                    if (stroke.isFinite && stroke != 0) || (underline.isFinite && Int32(clamping: Int(underline)) & 0xFF != 0)
                        || run.font.matrix != .identity {
                        laid = nil
                        break check
                    }
                }
            }
        } else {
            laid = TextLayerLines(lines: [], bounds: .zero, contextColor: nil)   // nothing to draw: nothing for the backing store either
        }
        last = (text, image, b, laid)
        return laid
    }

    func emit(_ layer: CALayer, _ copy: CALayer, at site: DrawSite, into out: FrameWriter) {
        defer { last = nil }
        guard handles(copy, at: site), let text = copy as? CATextLayer, let laid = lines(text), !laid.lines.isEmpty else { return }
        let h = site.h
        let bounds = laid.bounds
        let s = copy.state
        let shape = bounds.simd
        let shapeRadii: SIMD4<Float> = s.masksToBounds ? site.radii : .zero
        // Linear sampling both ways, no edge antialiasing: the cells' margins fade the edges,
        // and the bounds cut the text as the backing store's clip does.
        let p = h.packed(SIMD3(0, Float(site.clip), 0))
        let variant = ShaderVariant.of(clip: p.1.w, flags: p.2.w, h0: p.0, h1: p.1, h2: p.2)
        // Pixel-grid placement needs a map that is a positive scale and a translation on each axis.
        let snapped = h.isAxisAligned && h.r0.x > 0 && h.r1.y > 0 && !site.planeMirrored
            && abs(h.r0.x - h.r1.y) <= 1e-6 * max(h.r0.x, h.r1.y)
        let inverse = h.inverted()
        let scale = snapped ? h.r0.x / h.r2.z : h.linearScale
        let steps = Double(GlyphAtlas.subpixelSteps)
        // Core Text's y runs up from the bounds' bottom edge; the plane's runs down (a mirrored
        // plane shows the text upright by keeping Core Text's direction and flipping the cells).
        func planeY(_ y: Double) -> Double { site.planeMirrored ? y : Double(bounds.minY + bounds.maxY) - y }
        for (line, origin) in laid.lines {
            for run in CTLineGetGlyphRuns(line) as! [CTRun] {
                let color = run.colorFromContext ? (laid.contextColor ?? CGColor(gray: 0, alpha: 1)) : (run.color ?? CGColor(gray: 0, alpha: 1))
                let rgba = color.premultiplied(site.opacity)
                guard rgba.w > 0 else { continue }
                let face = run.font.face
                let pixelSize = Double(run.font.size) * scale
                // Colour glyphs (emoji) keep their own colours: only the alpha tints them.
                let tint = face.isColorBitmap ? SIMD4<Float>(repeating: rgba.w) : rgba
                if pixelSize > Self.maxPixelSize && !face.isColorBitmap {
                    emitOutlines(run, origin: origin, color: color, copy: copy, bounds: bounds, site: site, into: out, planeY: planeY)
                    continue
                }
                for (g, pos) in zip(run.glyphs, run.positions) {
                    let px = Double(origin.x + pos.x), py = planeY(Double(origin.y + pos.y))
                    var rect: CGRect
                    var entry: GlyphAtlas.Entry
                    if snapped, let dev = h.map(px, py), dev.x.isFinite, dev.y.isFinite, abs(dev.x) < 1e7, abs(dev.y) < 1e7 {
                        var ix = face.isColorBitmap ? dev.x.rounded() : dev.x.rounded(.down)
                        var q = Int(((dev.x - ix) * steps).rounded())
                        if q == Int(steps) { q = 0; ix += 1 }
                        let iy = dev.y.rounded()
                        entry = atlas.entry(face: face, glyph: g, pixelSize: pixelSize, subpixel: q)
                        guard entry.width > 0 else { continue }
                        let m = entry.magnification
                        let devRect = CGRect(x: ix + Double(entry.left) * m, y: iy - Double(entry.top) * m,
                                             width: Double(entry.width) * m, height: Double(entry.height) * m)
                        guard let inv = inverse, let r = inv.boundingBox(of: devRect) else { continue }
                        rect = r
                    } else {
                        entry = atlas.entry(face: face, glyph: g, pixelSize: pixelSize, subpixel: 0)
                        guard entry.width > 0 else { continue }
                        let m = entry.magnification
                        let w = Double(entry.width) * m / scale, hgt = Double(entry.height) * m / scale
                        let x = px + Double(entry.left) * m / scale
                        let y = site.planeMirrored ? py + Double(entry.top) * m / scale - hgt : py - Double(entry.top) * m / scale
                        rect = CGRect(x: x, y: y, width: w, height: hgt)
                    }
                    guard rect.intersects(bounds) else { continue }
                    let uv: SIMD4<Float> = site.planeMirrored ? SIMD4(0, 1, 1, 0) : SIMD4(0, 0, 1, 1)
                    let slot: Int
                    var placement = SIMD4<Float>(0, 0, 1, 1)
                    if let page = entry.page {
                        slot = pageSlot(page, out)
                        placement = entry.transform
                    } else if let own = entry.ownImage {
                        slot = out.textureSlot(own)
                    } else { continue }
                    let i = ImageInstance(h0: p.0, h1: p.1, h2: p.2, rect: rect.simd, uv: uv, tint: tint,
                                          shape: shape, shapeRadii: shapeRadii, atlas: placement)
                    out.frame.images.append(i)
                    out.appendBatch(.image(texture: slot, filter: .linear), variant: variant, index: out.frame.images.count - 1)
                }
            }
        }
    }

    /// A run too large for the atlas: each glyph's outline filled through the shape pipeline,
    /// placed by pre-translating the layer's map to the glyph's pen, and cut to the layer's
    /// bounds (as the backing store's clip cuts it) where an outline reaches beyond them.
    private func emitOutlines(_ run: CTRun, origin: CGPoint, color: CGColor, copy: CALayer, bounds: CGRect,
                              site: DrawSite, into out: FrameWriter, planeY: (Double) -> Double) {
        guard let shapes, color.alpha > 0 else { return }
        let fill = color.premultiplied(1)
        var clip: Int32? = nil
        for (g, pos) in zip(run.glyphs, run.positions) {
            guard let path = outline(run.font, g, mirrored: site.planeMirrored) else { continue }
            let px = Double(origin.x + pos.x), py = planeY(Double(origin.y + pos.y))
            guard px.isFinite, py.isFinite, abs(px) < 1e9, abs(py) < 1e9 else { continue }
            let box = path.boundingBoxOfPath.offsetBy(dx: px, dy: py)
            guard box.intersects(bounds) else { continue }
            var glyphClip = site.clip
            if !bounds.contains(box) {
                if clip == nil {
                    var c = site.clip
                    if let inv = site.h.inverted() {
                        let radii: SIMD4<Float> = copy.state.masksToBounds ? site.radii : .zero
                        let (merged, kept) = out.appendClip(ClipShape(inverse: inv, rect: bounds.simd, radii: radii,
                                                                      continuous: copy.state.cornerCurve == .continuous), within: site.clip)
                        if kept { c = merged }
                    }
                    clip = c
                }
                glyphClip = clip!
            }
            let h = Homography(r0: site.h.r0, r1: site.h.r1, r2: site.h.project(px, py))
            let spec = ShapeEmitter.ShapeDrawSpec(path: path, fill: fill, evenOdd: false, stroke: nil, style: nil,
                                                  trim: (0, 1), gpuDash: [], dashPhase: 0)
            shapes.emitShape(spec, h: h, clip: glyphClip, opacity: site.opacity, into: out)
            outlinesDrawn += 1
        }
    }

    /// The glyph's outline at the font's size, y running down the plane (up where the plane is
    /// mirrored), pen at the origin; nil for an empty glyph.
    private func outline(_ font: CTFont, _ glyph: CGGlyph, mirrored: Bool) -> CGPath? {
        let key = OutlineKey(face: ObjectIdentifier(font.face), glyph: glyph, size: Double(font.size), mirrored: mirrored)
        if let hit = outlinePaths[key] { return hit.path }
        if outlinePaths.count >= Self.maxOutlinePaths { outlinePaths.removeAll(keepingCapacity: true) }
        var flip = CGAffineTransform(scaleX: 1, y: mirrored ? 1 : -1)
        let path = CTFontCreatePathForGlyph(font, glyph, &flip).flatMap { $0.elements.isEmpty ? nil : $0 }
        outlinePaths[key] = (font.face, path)
        return path
    }

    private func pageSlot(_ page: Int, _ out: FrameWriter) -> Int {
        if let s = pageSlots[page] { return s }
        out.frame.textures.append(atlas.pageImage(page))
        pageSlots[page] = out.frame.textures.count - 1
        return out.frame.textures.count - 1
    }
}
