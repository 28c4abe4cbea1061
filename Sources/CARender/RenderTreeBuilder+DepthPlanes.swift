import CoreGraphics
import CoreAnimation
import CAFrame

/// Intersecting opaque planes of a `CATransformLayer` through the depth buffer (issue 21:
/// "translucent planes are depth-sorted, intersecting planes split, opaque ones use the depth
/// buffer").
///
/// When every visible sublayer of the transform layer is a plain opaque plane — a `CALayer`
/// with an opaque background and nothing else that draws (no contents, sublayers, rounded
/// corners, translucent border, shadow, mask or filters, full opacity) — each draws as the one
/// opaque box it is, whole, in the order of its centre's depth, and its box batch carries its
/// plane's depth (`DepthPlane`, `ShaderVariant.planeDepth`): the backend writes the planes'
/// interiors into the depth buffer at their 3D depth first and tests every plane against them,
/// so where two planes cross, each pixel shows the nearer one (a depth test decides the
/// crossing line, as a GPU draws intersecting opaque geometry). Nothing is split and no
/// offscreen pass is made.
///
/// Otherwise — a translucent or composite plane among them, a transform layer inside an
/// offscreen pass or a clip, or a backend without the depth path (the CPU backend) — the planes
/// are split (`+PlaneSplitting.swift`), which gives the same occlusion.
extension RenderTreeBuilder {
    /// Draws `sublayers` (their depth-space matrices `local`, far-to-near `ordered`) as depth
    /// planes; false, with nothing drawn, when they do not qualify.
    func drawDepthPlanes(_ sublayers: [CALayer], local: [CATransform3D], parent s: LayerState, ctx: Context,
                         ordered: [CALayer]) -> Bool {
        guard usesPlaneDepth, out.inMainPass, ctx.clip == 0, ctx.opacity >= 1, local.count == sublayers.count else { return false }
        var planes: [ObjectIdentifier: (CATransform3D, CGRect)] = [:]
        var zmin = Double.infinity, zmax = -Double.infinity
        for (i, l) in sublayers.enumerated() {
            let cs = l.renderCopy.state
            if cs.isHidden || cs.opacity <= 0 { continue }
            guard Self.isOpaquePlane(l, cs), let q = Self.planeCorners(cs.bounds.standardized, local[i]) else { return false }
            for p in q { zmin = min(zmin, p.z); zmax = max(zmax, p.z) }
            planes[ObjectIdentifier(l)] = (local[i], cs.bounds)
        }
        guard planes.count >= 2, zmax - zmin > 1e-9, (zmax - zmin).isFinite else { return false }
        let group = (out.frame.depthPlanes.last?.group ?? -1) + 1
        for l in ordered {
            guard let (m, _) = planes[ObjectIdentifier(l)] else { continue }
            out.depthPlane = out.appendDepthPlane(Self.depthPlane(m, zmin: zmin, zmax: zmax, group: group))
            visit(l, ctx, isMask: false)
            out.depthPlane = -1
        }
        return true
    }

    /// A layer whose whole picture is one opaque box: its background, an opaque border or none,
    /// square corners, and nothing else.
    static func isOpaquePlane(_ l: CALayer, _ cs: LayerState) -> Bool {
        guard type(of: l) == CALayer.self, (l.sublayers ?? []).isEmpty, l.mask == nil, cs.contents == nil,
              cs.opacity >= 1, let bg = cs.backgroundColor, bg.alpha >= 1,
              cs.cornerRadius == 0 || cs.maskedCorners.isEmpty,
              cs.borderWidth <= 0 || (cs.borderColor?.alpha ?? 0) >= 1,
              cs.shadowOpacity <= 0 || cs.shadowColor == nil,
              (cs.filters ?? []).isEmpty, (cs.backgroundFilters ?? []).isEmpty, cs.compositingFilter == nil,
              !cs.shouldRasterize, cs.bounds.width > 0, cs.bounds.height > 0 else { return false }
        return true
    }

    /// The plane's depth after the divide, (Z/W − zmin) / (zmax − zmin), as a ratio of two
    /// affine functions of its layer's own (x, y): (x, y, 0, 1)·m = (X, Y, Z, W).
    static func depthPlane(_ m: CATransform3D, zmin: Double, zmax: Double, group: Int32) -> DepthPlane {
        let k = 1 / (zmax - zmin)
        let n = SIMD4(Float((Double(m.m13) - zmin * Double(m.m14)) * k), Float((Double(m.m23) - zmin * Double(m.m24)) * k),
                      Float((Double(m.m43) - zmin * Double(m.m44)) * k), 0)
        let d = SIMD4(Float(m.m14), Float(m.m24), Float(m.m44), 0)
        return DepthPlane(numerator: n, denominator: d, group: group)
    }
}
