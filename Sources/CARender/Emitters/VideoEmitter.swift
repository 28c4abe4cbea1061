import CoreGraphics
import CoreAnimation
import CAFrame

/// A `CAVideoLayer`'s frame as textured quads (issue 19): the frame of its video at the layer's
/// local time for this frame's media time, placed by `videoGravity` with `contentsGravity`'s
/// maths (`ContentsLayout`). Decoded before the frame renders, so offscreen and video frames are
/// deterministic; each new video frame is a texture of its own, uploaded once. A live source
/// (`CAVideoLayer.liveSource`) shows its newest captured frame, never waiting for one. A frame that
/// showed a video depends on time (`dependsOnTime`): it is built anew, never reused.
final class VideoEmitter: ContentEmitter {
    /// A video layer was drawn in the last frame.
    private(set) var drewVideo = false

    func claims(_ copy: CALayer) -> Bool { copy is CAVideoLayer }
    var claimRule: ContentClaimRule { .byClass }

    func paints(_ copy: CALayer) -> Bool { copy is CAVideoLayer }

    func beginFrame(_ out: FrameWriter) { drewVideo = false }

    func emit(_ layer: CALayer, _ copy: CALayer, at site: DrawSite, into out: FrameWriter) {
        // The video (its URL and decoder) is the model's: only `videoGravity` animates.
        guard let model = layer as? CAVideoLayer, let values = copy as? CAVideoLayer,
              model.url != nil || model.liveSource != nil else { return }
        drewVideo = true
        // A live source shows its newest frame whatever the time (it is not seekable).
        let image: CGImage?
        if model.liveSource != nil { image = model.liveFrameImage } else {
            image = model.frameImage(atLocalTime: model.convertTime(CACurrentMediaTime(), from: nil))
        }
        guard let image else { return }
        let s = values.state
        let pieces = ContentsLayout.pieces(bounds: s.bounds, imageWidth: image.width, imageHeight: image.height,
                                           gravity: values.videoGravity, contentsRect: CGRect(x: 0, y: 0, width: 1, height: 1),
                                           contentsScale: s.contentsScale, contentsCenter: CGRect(x: 0, y: 0, width: 1, height: 1),
                                           geometryFlipped: s.isGeometryFlipped, planeMirrored: site.planeMirrored)
        guard !pieces.isEmpty else { return }
        let slot = out.textureSlot(image)
        // As contents: spills past the bounds (`resizeAspectFill`) unless `masksToBounds`.
        let union = pieces.dropFirst().reduce(pieces[0].rect) { $0.union($1.rect) }
        let shape: SIMD4<Float> = s.masksToBounds ? s.bounds.simd : union.simd
        let shapeRadii: SIMD4<Float> = s.masksToBounds ? site.radii : .zero
        let aa: UInt32 = s.allowsEdgeAntialiasing ? UInt32(s.edgeAntialiasingMask.rawValue & 15) : 0
        let filters = ContentsEmitter.filterBits(s.minificationFilter) << InstanceFlags.minificationFilterShift
            | ContentsEmitter.filterBits(s.magnificationFilter) << InstanceFlags.magnificationFilterShift
        let flags = aa | (s.cornerCurve == .continuous ? 16 : 0) | filters
        let p = site.h.packed(SIMD3(0, Float(site.clip), Float(flags)))
        for piece in pieces {
            let i = ImageInstance(h0: p.0, h1: p.1, h2: p.2, rect: piece.rect.simd, uv: piece.uv,
                                  tint: SIMD4(repeating: site.opacity), shape: shape, shapeRadii: shapeRadii)
            out.frame.images.append(i)
            out.appendBatch(.image(texture: slot, filter: .linear),
                            variant: ShaderVariant.of(clip: i.h1.w, flags: i.h2.w, h0: i.h0, h1: i.h1, h2: i.h2),
                            index: out.frame.images.count - 1)
        }
    }
}
