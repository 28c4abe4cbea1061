import CoreGraphics
import CoreAnimation
import CAFrame

/// The copies of a replicator that `preservesDepth`: Apple documents the property as "If true
/// it behaves like `CATransformLayer`" (`CAReplicatorLayer.preservesDepth`), and a transform
/// layer's sublayers are drawn in the order of their depth in the shared 3D space, not in
/// sublayer order (docs/BEHAVIOUR.md N8, R7). So the pieces here are the (copy, sublayer) pairs:
/// each pair is keyed by the z of the sublayer's centre after `instanceTransform`^k about the
/// replicator's centre (and the replicator's own place in its 3D context), drawn farthest first,
/// equal depths in copy then sublayer order. A carousel of copies turned about the y axis then
/// shows its front copies over its back ones, whatever their index.
///
/// Each pair is a walk of its sublayer at the copy's transform and time (k × instanceDelay),
/// tinted by the copy's colour; as with a transform layer's sublayers, pieces are not composed
/// into one picture per copy before a translucent instance colour applies.
extension RenderTreeBuilder {
    /// The pairs (copy index, index into `children`) of a depth-preserving replicator in
    /// drawing order, with each copy's transform about the centre; the copies from the first
    /// non-finite power on are left out (with a warning).
    func depthOrderedCopies(_ children: [CALayer], _ r: ReplicaSpec, parent: CALayer, basis: CATransform3D)
        -> (order: [(copy: Int, child: Int)], transforms: [CATransform3D]) {
        let parentState = parent.renderCopy.state
        var transforms: [CATransform3D] = []
        transforms.reserveCapacity(min(r.count, 4096))
        var power = CATransform3DIdentity
        for k in 0..<r.count {
            if k > 0 { power = CATransform3DConcat(power, r.transform) }
            let c = r.aboutCentre(power)
            guard LayerGeometry.isFinite(c) else {
                RenderDiagnostics.warn("CAReplicatorLayer: instanceTransform raised to the copy's index is not finite: that copy and the later ones are not drawn")
                break
            }
            transforms.append(c)
        }
        let local = children.map { child -> (CATransform3D, CGPoint) in
            let s = child.renderCopy.state
            let b = s.bounds.standardized
            return (LayerGeometry.localToParent(s, parent: parentState, isMask: false), CGPoint(x: b.midX, y: b.midY))
        }
        var keyed: [(z: Double, copy: Int, child: Int)] = []
        keyed.reserveCapacity(transforms.count * children.count)
        for (k, c) in transforms.enumerated() {
            let copyToBasis = CATransform3DConcat(c, basis)
            for (i, (m0, centre)) in local.enumerated() {
                let m = CATransform3DConcat(m0, copyToBasis)
                let x = Double(centre.x), y = Double(centre.y)
                let z = x * Double(m.m13) + y * Double(m.m23) + Double(m.m43)
                let w = x * Double(m.m14) + y * Double(m.m24) + Double(m.m44)
                let depth = w != 0 ? z / w : z
                keyed.append((depth.isFinite ? depth : 0, k, i))
            }
        }
        keyed.sort { a, b in a.z != b.z ? a.z < b.z : (a.copy != b.copy ? a.copy < b.copy : a.child < b.child) }
        return (keyed.map { ($0.copy, $0.child) }, transforms)
    }

    /// Draws the pairs of `depthOrderedCopies` (see the extension's comment).
    func drawReplicasInDepth(_ children: [CALayer], _ ctx: Context, _ r: ReplicaSpec, parent: CALayer, basis: CATransform3D) {
        let (order, transforms) = depthOrderedCopies(children, r, parent: parent, basis: basis)
        for (k, i) in order {
            if k > 0 {
                guard replicas.budget > 0 else { warnBudget(); break }
            }
            var cctx = ctx
            if k > 0 {
                cctx.parentWorld = CATransform3DConcat(transforms[k], ctx.parentWorld)
                cctx.parentWorldIsFinite = LayerGeometry.isFinite(cctx.parentWorld)
            }
            let shift = replicas.timeShift
            replicas.timeShift = shift + Double(k) * r.delay
            let before = ReplicaMark(out)
            visit(children[i], cctx, isMask: false)
            replicas.timeShift = shift
            let after = ReplicaMark(out)
            tintRange(from: before, to: after, by: r.color(k))
            if k > 0 { replicas.budget -= max(1, (after.counts &- before.counts).wrappedSum()) }
        }
    }
}
