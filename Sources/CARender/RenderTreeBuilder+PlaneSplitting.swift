import CoreGraphics
import CoreAnimation
import CAFrame

/// Intersecting planes of a `CATransformLayer`, split so each shows in front on its own side.
///
/// A transform layer's sublayers are planes in one 3D space (each flattened with its own
/// sublayers). Drawn whole, far to near by their centres (`orderedSublayers`), two planes that
/// cut through each other cannot both be right: each should cover the other where it is the
/// nearer. As browsers do for `transform-style: preserve-3d` (CSS Transforms 2, "3D Rendering
/// Contexts": intersecting planes are split), the planes are put in a BSP tree: a plane that
/// crosses another is cut along the line where they meet, and the pieces are drawn back to
/// front from the eye. A piece is its whole layer drawn under clips, one per cut: each clip is
/// the half of the layer's plane on one side of the cutting plane, a rectangle in coordinates of
/// that plane turned so the cut is an edge (`ClipShape` takes any homography), so the layer's
/// contents, borders and flattened sublayers are cut alike. A piece under more than one clip
/// (or under an outer clip) is drawn into an offscreen target per further clip and composited.
///
/// Only when two planes intersect (`quadsIntersect`), and not when every plane is opaque and the
/// backend has a depth buffer (`+DepthPlanes.swift`: those go through the depth buffer): other
/// transform layers keep the centre order and their frames. Not split, with a warning: a transform layer whose
/// sublayers include transform layers (their planes belong to the same 3D space, one level
/// down), more than `maxPlanesChecked` sublayers, or a tree that would need more than
/// `maxPlanePieces` pieces.
extension RenderTreeBuilder {
    static let maxPlanePieces = 256

    /// A piece of a plane: its layer, its polygon in depth space (after the homogeneous divide,
    /// looking down −z), and the half-spaces it was cut to, `s·(n·p − d) ≥ 0`.
    struct PlanePiece {
        var index: Int
        var polygon: [SIMD3<Double>]
        var cuts: [(n: SIMD3<Double>, d: Double, side: Double)]
    }

    /// Draws `sublayers` of transform layer state `s` split where their planes intersect;
    /// false (nothing drawn) when no two intersect or they cannot be split (then warned), so
    /// the caller draws them whole in centre order.
    func drawSplitPlanes(_ sublayers: [CALayer], depthBasis: CATransform3D, parent s: LayerState, ctx: Context,
                         ordered: [CALayer]) -> Bool {
        guard sublayers.count >= 2 else { return false }
        var pieces: [PlanePiece] = []
        var local: [CATransform3D] = []
        var hasNested = false
        // The intersection test is quadratic: past the limit only the first planes are tested
        // (to warn), and nothing is split.
        let tooMany = sublayers.count > Self.maxPlanesChecked
        for (i, l) in sublayers.prefix(Self.maxPlanesChecked).enumerated() {
            if l is CATransformLayer { hasNested = true; local.append(CATransform3DIdentity); continue }
            let cs = l.renderCopy.state
            let m = CATransform3DConcat(LayerGeometry.localToParent(cs, parent: s, isMask: false), depthBasis)
            local.append(m)
            guard !cs.isHidden, let q = Self.planeCorners(cs.bounds.standardized, m) else { continue }
            pieces.append(PlanePiece(index: i, polygon: q, cuts: []))
        }
        var crossing = false
        outer: for i in 0..<pieces.count where i + 1 < pieces.count {
            for j in (i + 1)..<pieces.count where Self.quadsIntersect(pieces[i].polygon, pieces[j].polygon) { crossing = true; break outer }
        }
        guard crossing else { return false }
        // Opaque planes alone: drawn whole, in the order of their centres, each tested against
        // the others' 3D depth (`+DepthPlanes.swift`), where the backend has a depth buffer.
        if !hasNested, !tooMany, drawDepthPlanes(sublayers, local: local, parent: s, ctx: ctx, ordered: ordered) { return true }
        guard !hasNested, !tooMany else {
            RenderDiagnostics.warn("CATransformLayer: two sublayers' planes intersect but are not split (the transform layer has sublayer transform layers, or more than \(Self.maxPlanesChecked) sublayers); each is drawn whole in the order of its centre's depth (docs/BEHAVIOUR.md N8)")
            return false
        }
        var budget = Self.maxPlanePieces
        guard let order = Self.backToFront(pieces, budget: &budget) else {
            RenderDiagnostics.warn("CATransformLayer: intersecting planes would need more than \(Self.maxPlanePieces) pieces; each is drawn whole in the order of its centre's depth (docs/BEHAVIOUR.md N8)")
            return false
        }
        for piece in order {
            drawPiece(piece, sublayers[piece.index], depthSpace: local[piece.index], parent: s, ctx: ctx)
        }
        return true
    }

    /// BSP order of `pieces`, far to near; nil past `budget` pieces.
    static func backToFront(_ pieces: [PlanePiece], budget: inout Int) -> [PlanePiece]? {
        guard pieces.count > 1 else { return pieces }
        let split = pieces[0]
        let q = split.polygon
        let n0 = cross(q[1] - q[0], q[2] - q[0])
        let len = (n0 * n0).sum().squareRoot()
        guard len > 1e-12 else { return pieces }
        let n = n0 / len, d = (n * q[0]).sum()
        let eps = 1e-6 * max(1, abs(d))
        var front: [PlanePiece] = [], back: [PlanePiece] = [], on: [PlanePiece] = [split]
        for p in pieces.dropFirst() {
            let ds = p.polygon.map { (n * $0).sum() - d }
            let hasFront = ds.contains { $0 > eps }, hasBack = ds.contains { $0 < -eps }
            switch (hasFront, hasBack) {
            case (false, false): on.append(p)
            case (true, false): front.append(p)
            case (false, true): back.append(p)
            case (true, true):
                budget -= 1
                guard budget > 0 else { return nil }
                let (f, b) = clipPolygon(p.polygon, ds)
                if f.count >= 3 { front.append(PlanePiece(index: p.index, polygon: f, cuts: p.cuts + [(n, d, 1)])) }
                if b.count >= 3 { back.append(PlanePiece(index: p.index, polygon: b, cuts: p.cuts + [(n, d, -1)])) }
            }
        }
        guard let f = backToFront(front, budget: &budget), let b = backToFront(back, budget: &budget) else { return nil }
        // The eye looks down −z: it is on the front side when the normal points towards +z.
        return n.z >= 0 ? b + on + f : f + on + b
    }

    /// The parts of convex `poly` with signed distances `ds` on the positive and negative side.
    static func clipPolygon(_ poly: [SIMD3<Double>], _ ds: [Double]) -> ([SIMD3<Double>], [SIMD3<Double>]) {
        var f: [SIMD3<Double>] = [], b: [SIMD3<Double>] = []
        for k in 0..<poly.count {
            let p = poly[k], r = poly[(k + 1) % poly.count], dp = ds[k], dr = ds[(k + 1) % poly.count]
            if dp >= 0 { f.append(p) }
            if dp <= 0 { b.append(p) }
            if (dp > 0 && dr < 0) || (dp < 0 && dr > 0) {
                let x = p + (r - p) * (dp / (dp - dr))
                f.append(x); b.append(x)
            }
        }
        return (f, b)
    }

    static func cross(_ u: SIMD3<Double>, _ v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
    }

    /// Draws `layer` cut to `piece`'s half-planes. `m` maps the layer's own coordinates to depth
    /// space (row vectors, before the divide).
    func drawPiece(_ piece: PlanePiece, _ layer: CALayer, depthSpace m: CATransform3D, parent s: LayerState, ctx: Context) {
        let cs = layer.renderCopy.state
        let world = CATransform3DConcat(LayerGeometry.localToParent(cs, parent: s, isMask: false), ctx.parentWorld)
        guard let inv = Homography(world).inverted() else { return }
        var clips: [Int32] = []
        for cut in piece.cuts {
            // s·(n·(X, Y, Z) − d·W) ≥ 0 with (X, Y, Z, W) = (x, y, 0, 1)·m: a·x + b·y + c ≥ 0.
            let n = cut.n, d = cut.d, k = cut.side
            var a = k * (n.x * Double(m.m11) + n.y * Double(m.m12) + n.z * Double(m.m13) - d * Double(m.m14))
            var b = k * (n.x * Double(m.m21) + n.y * Double(m.m22) + n.z * Double(m.m23) - d * Double(m.m24))
            var c = k * (n.x * Double(m.m41) + n.y * Double(m.m42) + n.z * Double(m.m43) - d * Double(m.m44))
            let l = (a * a + b * b).squareRoot()
            guard l > 1e-12, l.isFinite else { continue }
            a /= l; b /= l; c /= l
            // Plane coordinates (u, v) = (a·x + b·y + c, −b·x + a·y): u ≥ 0 is the kept half.
            func turned(_ r: SIMD3<Double>) -> SIMD3<Double> { SIMD3(a * r.x + b * r.y + c * r.z, -b * r.x + a * r.y, r.z) }
            let h = Homography(r0: turned(inv.r0), r1: turned(inv.r1), r2: turned(inv.r2))
            let extent: Float = 1e5
            clips.append(out.appendClip(ClipShape(inverse: h, rect: SIMD4(0, -extent, extent, 2 * extent), radii: .zero, continuous: false)))
        }
        if ctx.clip != 0 { clips.append(ctx.clip) }
        var inner = ctx
        inner.clip = clips.first ?? 0
        guard clips.count > 1 else {
            visit(layer, inner, isMask: false)
            return
        }
        // More clips than an instance has: each further one cuts an offscreen result.
        let pass = out.passRect
        let rect = FrameWriter.pixelAligned((subtreeBounds(layer, cs, world: world, depth: ctx.depth) ?? pass).intersection(pass))
        guard !rect.isNull, rect.width >= 1, rect.height >= 1 else { return }
        var target = out.beginOffscreen(rect)
        visit(layer, inner, isMask: false)
        out.endOffscreen()
        for clip in clips.dropFirst().dropLast() {
            let next = out.beginOffscreen(rect)
            out.appendComposite(source: target, mask: nil, rect: rect, opacity: 1, clip: clip)
            out.endOffscreen()
            target = next
        }
        out.appendComposite(source: target, mask: nil, rect: rect, opacity: 1, clip: clips.last!)
    }
}
