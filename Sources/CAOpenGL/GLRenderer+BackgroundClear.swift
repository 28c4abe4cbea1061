import CAFrame

/// A main pass whose first instance is an opaque box covering the whole target (the root
/// layer's `backgroundColor`, nearly every window and video frame) starts with that colour as
/// its clear colour instead of shading the box (issue 21: the 10,000-copy replicator spent a
/// full-screen box and a full-screen depth interior on it, where a hand-written renderer
/// clears).
///
/// The pixels are the same: every pixel of such a box has coverage 1 (its edges are at or
/// beyond the target's, so each pixel centre is at least half a pixel inside), the box
/// shader's output there is its premultiplied fill, and blending an opaque colour over the
/// clear colour gives that colour, which is what clearing to it gives.
extension GLRenderer {
    /// `batches` without a first box that covers the target (`viewport`: x, y, width, height in
    /// frame pixels) opaquely, and that box's fill, or `batches` as they are and nil.
    static func backgroundAsClear(_ frame: RenderFrame, _ batches: [Batch], viewport: SIMD4<Float>) -> ([Batch], SIMD4<Float>?) {
        guard var first = batches.first, case .box = first.pipeline, !first.range.isEmpty, first.replica < 0,
              first.variant.isDisjoint(with: [.additive, .replace, .blur, .mask]) else { return (batches, nil) }
        let box = frame.boxes[first.range.lowerBound]
        guard coversOpaquely(box, viewport: viewport) else { return (batches, nil) }
        var rest = batches
        first.range = (first.range.lowerBound + 1)..<first.range.upperBound
        if first.range.isEmpty { rest.removeFirst() } else { rest[0] = first }
        return (rest, box.fill)
    }

    /// Whether `b` paints every pixel of `viewport` with its opaque fill: an axis-aligned,
    /// unclipped, square-cornered, unblurred box whose fill is opaque, whose border (if any) is
    /// clear, and whose rectangle covers the viewport.
    static func coversOpaquely(_ b: BoxInstance, viewport: SIMD4<Float>) -> Bool {
        let flags = UInt32(max(b.h2.w, 0))
        guard b.fill.w >= 1, flags & InstanceFlags.borderOnly == 0, b.h1.w == 0, b.params.y <= 0, b.radii == .zero,
              b.params.x <= 0 || b.border == .zero,
              b.h0.z == 0, b.h1.z == 0, b.h2.z > 0, b.h0.y == 0, b.h1.x == 0 else { return false }
        let w = b.h2.z
        let x0 = (b.rect.x * b.h0.x + b.h2.x) / w, x1 = ((b.rect.x + b.rect.z) * b.h0.x + b.h2.x) / w
        let y0 = (b.rect.y * b.h1.y + b.h2.y) / w, y1 = ((b.rect.y + b.rect.w) * b.h1.y + b.h2.y) / w
        guard x0.isFinite, x1.isFinite, y0.isFinite, y1.isFinite else { return false }
        return min(x0, x1) <= viewport.x && max(x0, x1) >= viewport.x + viewport.z
            && min(y0, y1) <= viewport.y && max(y0, y1) >= viewport.y + viewport.w
    }
}
