import CoreGraphics
import CoreAnimation
import CAFrame

/// `instanceColor` on the flattened copy (docs/BEHAVIOUR.md R3). Apple: `instanceColor`
/// "Defines the color used to multiply the source object" — the copy as one object, composed
/// first and tinted after, as group opacity fades a layer's composed subtree.
///
/// A premultiplied tint `(r·a, g·a, b·a, a)` splits into a colour part `(r, g, b, 1)` and an
/// alpha part `a`. The colour part is linear in the premultiplied colours and leaves every
/// alpha alone, so multiplying each piece by it equals multiplying the composed copy: it is
/// applied to the pieces (`tintRange`). Only the alpha part differs between the two — where
/// pieces of one copy overlap, fading each lets the lower one show through the upper — so a
/// copy whose tint has alpha below 1 and that draws more than one piece is drawn into an
/// offscreen target and composited at that alpha. Every other copy (alpha 1, or a single
/// piece: the spinner's dot, the benchmark's cell) stays on the instanced path (R7).
extension RenderTreeBuilder {
    /// Most copies drawn through a target of their own in one frame; later ones are tinted
    /// piece by piece with a warning (each target can be as large as the pass).
    static let maxFlattenedCopies = 64

    /// Whether some copy's alpha is below 1 and a copy draws several overlapping pieces.
    func replicaCopiesNeedFlattening(_ children: [CALayer], _ r: ReplicaSpec) -> Bool {
        guard r.count > 0, min(r.color(0).w, r.color(r.count - 1).w) < 1 else { return false }
        return copyDrawsSeveralPieces(children)
    }

    /// A copy of `children` may paint more than one piece (conservative: any two sublayers, a
    /// sublayer with sublayers or a shadow, or one that paints two pieces itself).
    func copyDrawsSeveralPieces(_ children: [CALayer]) -> Bool {
        if children.count > 1 { return true }
        guard let child = children.first else { return false }
        if !(child.sublayersUnchecked?.isEmpty ?? true) { return true }
        let copy = child.renderCopy
        let s = copy.state
        if ShadowSpec(s) != nil { return true }
        let claims = contentClaims.mask(copy)
        return drawsSeveralPieces(child, copy, s, claims: claims)
    }

    /// The copies of a replicator whose translucent copies are composed before their alpha
    /// applies (see the extension's comment): each copy is a walk of `children` at its own
    /// transform and time, as R1–R2 describe; a translucent one into its own target.
    func drawReplicasFlattened(_ children: [CALayer], _ ctx: Context, _ r: ReplicaSpec) {
        var power = CATransform3DIdentity
        for k in 0..<r.count {
            if k > 0 {
                guard replicas.budget > 0 else { warnBudget(); break }
                power = CATransform3DConcat(power, r.transform)
            }
            let c = r.aboutCentre(power)
            guard LayerGeometry.isFinite(c) else {
                RenderDiagnostics.warn("CAReplicatorLayer: instanceTransform raised to the copy's index is not finite: that copy and the later ones are not drawn")
                break
            }
            var cctx = ctx
            if k > 0 {
                cctx.parentWorld = CATransform3DConcat(c, ctx.parentWorld)
                cctx.parentWorldIsFinite = LayerGeometry.isFinite(cctx.parentWorld)
            }
            let tint = r.color(k)
            let shift = replicas.timeShift
            replicas.timeShift = shift + Double(k) * r.delay
            defer { replicas.timeShift = shift }
            let before = ReplicaMark(out)
            if tint.w < 1, tint.w > 0, replicas.flattenedCopies < Self.maxFlattenedCopies,
               let rect = copyRect(children, cctx) {
                replicas.flattenedCopies += 1
                cctx.clip = 0
                let target = out.beginOffscreen(rect)
                for child in children { visit(child, cctx, isMask: false) }
                out.endOffscreen()
                tintRange(from: before, to: ReplicaMark(out), by: SIMD4(tint.x, tint.y, tint.z, 1))
                out.appendComposite(source: target, mask: nil, rect: rect, opacity: tint.w, clip: ctx.clip)
            } else {
                if tint.w < 1, tint.w > 0, replicas.flattenedCopies >= Self.maxFlattenedCopies {
                    RenderDiagnostics.warn("CAReplicatorLayer: more than \(Self.maxFlattenedCopies) translucent copies of overlapping sublayers in one frame: the later ones are faded piece by piece, not as one picture")
                }
                for child in children { visit(child, cctx, isMask: false) }
                tintRange(from: before, to: ReplicaMark(out), by: tint)
            }
            if k > 0 { replicas.budget -= max(1, (ReplicaMark(out).counts &- before.counts).wrappedSum()) }
        }
    }

    /// The pixels one copy of `children` can cover (inheriting `cctx`), whole pixels within the
    /// pass; nil when it covers none.
    func copyRect(_ children: [CALayer], _ cctx: Context) -> CGRect? {
        var box = CGRect.null
        for child in children {
            let cs = child.renderCopy.state
            guard !cs.isHidden else { continue }
            let cw = CATransform3DConcat(LayerGeometry.localToParent(cs, parent: parentState(of: cctx), isMask: false), cctx.parentWorld)
            guard Homography(cw).isFiniteInFloat, cs.bounds.fitsInFloat,
                  let b = subtreeBounds(child, cs, world: cw, depth: cctx.depth) else {
                box = out.passRect
                break
            }
            box = box.union(b)
        }
        let rect = FrameWriter.pixelAligned(box.intersection(out.passRect))
        guard !rect.isNull, rect.width >= 1, rect.height >= 1 else { return nil }
        return rect
    }
}
