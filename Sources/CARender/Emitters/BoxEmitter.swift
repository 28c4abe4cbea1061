import CoreGraphics
import CoreAnimation
import CAFrame

/// Every layer's own background and border: one rounded rectangle with analytic coverage
/// (`Shaders/box.frag`). A layer that paints nothing else is one instance holding both (the
/// shader composites the border over the background before the fade); otherwise the background
/// goes under the layer's content and the border over its sublayers (CALayer `borderWidth`:
/// "composited above the receiver's contents and sublayers"), as two instances.
///
/// Both a whole build (`RenderTreeBuilder.drawLayer`) and a leaf patch (`leafBox`) make the
/// instance here, from the same reading of the layer (`BoxLook`), so the two agree. Inlined
/// into the walk: every layer of the 10,000-rect scene comes through here (as calls, the build
/// took 30 % more instructions, callgrind).
enum BoxEmitter {
    /// A layer's box instance: background and border together (`flags` 0), background only
    /// (`InstanceFlags.fillOnly`) or border only (`InstanceFlags.borderOnly`).
    @inline(__always)
    static func instance(_ look: BoxLook, h: Homography, clip: Int32, opacity: Float, fill: SIMD4<Float>,
                         border: SIMD4<Float>, flags: UInt32) -> BoxInstance {
        let bounds = look.bounds
        // A border wider than half the layer already covers it: clamped so a huge finite width
        // does not reach the shader as infinity.
        let borderWidth = Float(min(look.borderWidth, max(bounds.width, bounds.height)))
        // params.z: the opacity a background-and-border box fades as one group (N4), 0 when
        // the pieces fade separately (allowsGroupOpacity false).
        let group: Float = look.allowsGroupOpacity ? opacity : 0
        let p = h.packed(SIMD3(0, Float(clip), Float(look.shapeFlags | flags)))
        return BoxInstance(h0: p.0, h1: p.1, h2: p.2, rect: bounds.simd, radii: look.radii, fill: fill,
                           border: border, params: SIMD4(borderWidth, 0, group, 0))
    }

    /// The shader variant a box needs (its flags, blur, border).
    @inline(__always)
    static func variant(_ b: BoxInstance) -> ShaderVariant {
        var v = ShaderVariant.of(clip: b.h1.w, flags: b.h2.w, h0: b.h0, h1: b.h1, h2: b.h2)
        if b.params.y > 0 { v.insert(.blur) }
        if b.params.x > 0, b.border.w > 0 { v.insert(.border) }
        return v
    }

    /// Appends a box (a layer's, or a shadow's analytic shape).
    @inline(__always)
    static func append(_ b: BoxInstance, into out: FrameWriter) {
        out.frame.boxes.append(b)
        out.appendBatch(.box, variant: variant(b), index: out.frame.boxes.count - 1)
    }

    /// The background under the layer's content (nothing when it is clear).
    @inline(__always)
    static func emitBackground(_ look: BoxLook, at site: DrawSite, into out: FrameWriter) {
        guard look.fill.w > 0 else { return }
        append(instance(look, h: site.h, clip: site.clip, opacity: site.opacity, fill: look.fill, border: .zero,
                               flags: InstanceFlags.fillOnly), into: out)
    }

    /// The border over the layer's content and sublayers (nothing when it is clear or 0 wide).
    @inline(__always)
    static func emitBorder(_ look: BoxLook, at site: DrawSite, into out: FrameWriter) {
        guard look.border.w > 0 else { return }
        append(instance(look, h: site.h, clip: site.clip, opacity: site.opacity, fill: .zero, border: look.border,
                               flags: InstanceFlags.borderOnly), into: out)
    }

    /// Background and border as one instance, for a layer that paints nothing else.
    @inline(__always)
    static func emitWhole(_ look: BoxLook, at site: DrawSite, into out: FrameWriter) {
        guard look.fill.w > 0 || look.border.w > 0 else { return }
        append(instance(look, h: site.h, clip: site.clip, opacity: site.opacity, fill: look.fill, border: look.border, flags: 0), into: out)
    }
}
