import CoreGraphics
import CoreAnimation
import CAFrame

/// A `CAOpenGLLayer`'s picture as a textured quad (issue 19). The builder has no GL: the
/// picture is made by `drawer`, which the renderer (QuartzCore) installs — it runs the layer's
/// hooks in a GL context into a framebuffer of the layer's pixel size and reads it back — and is
/// then drawn like `contents` (stretched to the bounds). Synchronous layers are drawn again only
/// after `display()` (`setNeedsDisplay()`) or a change of pixel size; `isAsynchronous` ones for
/// every frame, which makes the frame depend on time.
final class OpenGLLayerEmitter: ContentEmitter {
    /// Runs a layer's hooks at a pixel size, local time and media time; nil keeps the last picture.
    var drawer: OpenGLLayerDrawer?
    /// An asynchronous GL layer was drawn in the last frame.
    private(set) var drewAsynchronous = false

    func claims(_ copy: CALayer) -> Bool { copy is CAOpenGLLayer }
    var claimRule: ContentClaimRule { .byClass }

    func beginFrame(_ out: FrameWriter) { drewAsynchronous = false }

    func emit(_ layer: CALayer, _ copy: CALayer, at site: DrawSite, into out: FrameWriter) {
        guard let model = layer as? CAOpenGLLayer else { return }
        let s = copy.state
        let b = s.bounds.standardized
        let scale = s.contentsScale > 0 && s.contentsScale.isFinite ? s.contentsScale : 1
        let fw = (b.width * scale).rounded(.up), fh = (b.height * scale).rounded(.up)
        guard fw >= 1, fh >= 1, b.isFiniteRect else { return }
        guard fw <= CGFloat(CALayer.maxBackingStoreSide), fh <= CGFloat(CALayer.maxBackingStoreSide),
              fw * fh * 4 <= CGFloat(CALayer.maxBackingStoreBytes) else {
            RenderDiagnostics.warn("CAOpenGLLayer: a framebuffer of \(fw)×\(fh) pixels exceeds the limit of \(CALayer.maxBackingStoreSide) pixels a side and \(CALayer.maxBackingStoreBytes >> 20) MiB; the layer is not drawn")
            return
        }
        let w = Int(fw), h = Int(fh)
        let async = model.isAsynchronous
        if async { drewAsynchronous = true }
        var picture = model.glPicture
        let now = CACurrentMediaTime()
        let stale = picture.map { $0.width != w || $0.height != h || $0.generation != model.glState.generation } ?? true
        // An asynchronous layer draws once per frame time, however often a frame emits it (a
        // patch that falls back to a whole build, a layer drawn into several passes).
        let due = async && picture.map { $0.time != now } ?? true
        if due || stale {
            if let drawer {
                if let image = drawer(model, w, h, model.convertTime(now, from: nil), now) {
                    picture = (image, w, h, model.glState.generation, now)
                    model.glPicture = picture
                }
            } else {
                RenderDiagnostics.warn("CAOpenGLLayer: this renderer has no GL drawer; the layer is not drawn")
            }
        }
        guard let image = picture?.image else { return }
        let pieces = ContentsLayout.pieces(bounds: b, imageWidth: image.width, imageHeight: image.height, gravity: .resize,
                                           contentsRect: CGRect(x: 0, y: 0, width: 1, height: 1), contentsScale: scale,
                                           contentsCenter: CGRect(x: 0, y: 0, width: 1, height: 1),
                                           geometryFlipped: s.isGeometryFlipped, planeMirrored: site.planeMirrored)
        guard !pieces.isEmpty else { return }
        let slot = out.textureSlot(image)
        let shapeRadii: SIMD4<Float> = s.masksToBounds ? site.radii : .zero
        let aa: UInt32 = s.allowsEdgeAntialiasing ? UInt32(s.edgeAntialiasingMask.rawValue & 15) : 0
        let flags = aa | (s.cornerCurve == .continuous ? 16 : 0)
        let p = site.h.packed(SIMD3(0, Float(site.clip), Float(flags)))
        for piece in pieces {
            let i = ImageInstance(h0: p.0, h1: p.1, h2: p.2, rect: piece.rect.simd, uv: piece.uv,
                                  tint: SIMD4(repeating: site.opacity), shape: b.simd, shapeRadii: shapeRadii)
            out.frame.images.append(i)
            out.appendBatch(.image(texture: slot, filter: .linear),
                            variant: ShaderVariant.of(clip: i.h1.w, flags: i.h2.w, h0: i.h0, h1: i.h1, h2: i.h2),
                            index: out.frame.images.count - 1)
        }
    }
}
