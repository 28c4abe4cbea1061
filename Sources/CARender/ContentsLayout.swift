import CoreGraphics
import CoreAnimation

/// Where a layer's `contents` image lands in its bounds and which part of the image each piece
/// samples: `contentsGravity` (all twelve), `contentsRect` (unit rectangle of the image, y down
/// from the image's top row, extended by its edge pixels beyond the unit square, as the
/// `contentsRect` doc says), `contentsScale` (image pixels per point for the gravities that
/// keep the natural size) and `contentsCenter` (nine-part stretching).
///
/// ## Which edge is "top"
///
/// Apple's `contentsGravity` doc: "The naming of contents gravity constants is based on the
/// direction of the vertical axis … When [`contentsAreFlipped()`] is true, top aligns contents
/// to the bottom of the layer and bottom aligns content to the top of the layer." So `top` is
/// the **max-y** edge of the layer's own coordinate space, whatever the screen does with it:
/// docs/BEHAVIOUR.md N5b measured `top` at (30,50)–(50,60) of an 80×60 layer in macOS's y-up space,
/// and on iOS, whose layer space runs y down, the same rule puts `.top` contents at the
/// *visual bottom* of a plain layer and `.bottom` at the visual top — the documented swap that
/// iOS developers report (setting `isGeometryFlipped` makes the names match the screen). This
/// project's layer space is iOS's, so an unflipped layer shows `.top` at the bottom edge, as
/// an iOS user sees it.
///
/// `isGeometryFlipped` on the layer itself turns its coordinate space upside down for its
/// contents as for its sublayers, so `.top` then lands at the visual top; the image itself
/// stays upright ("does not affect the rendering of the layer's content", `isGeometryFlipped`
/// doc). When an *ancestor* flipped the plane the layer is drawn in, the image is mirrored back
/// so it stays upright on screen (that is what `contentsAreFlipped()` reports Core Animation
/// doing), and the gravity still names the plane's edges.
enum ContentsLayout {
    struct Piece: Equatable {
        var rect: CGRect
        /// u0, v0, u1, v1 in the image (0…1, v down). v0 > v1 when the piece is mirrored.
        var uv: SIMD4<Float>
    }

    /// - Parameters:
    ///   - geometryFlipped: the layer's own `isGeometryFlipped`: `.top` then means min-y.
    ///   - planeMirrored: an odd number of ancestors flip geometry, so the layer's plane runs y
    ///     up on screen; the image is mirrored in the plane to stay upright.
    static func pieces(bounds: CGRect, imageWidth: Int, imageHeight: Int, gravity: CALayerContentsGravity,
                       contentsRect: CGRect, contentsScale: CGFloat, contentsCenter: CGRect,
                       geometryFlipped: Bool = false, planeMirrored: Bool = false) -> [Piece] {
        let b = bounds.standardized
        guard imageWidth > 0, imageHeight > 0, b.width > 0, b.height > 0, b.isFiniteRect else { return [] }
        // contentsRect may extend past the unit square (the image clamps, as Apple's edge
        // pixels extend); an empty or non-finite one shows nothing.
        let cr = contentsRect.standardized
        guard cr.width > 0, cr.height > 0, cr.isFiniteRect else { return [] }
        let scale = contentsScale > 0 && contentsScale.isFinite ? contentsScale : 1
        let natural = CGSize(width: CGFloat(imageWidth) * cr.width / scale, height: CGFloat(imageHeight) * cr.height / scale)
        // The layout is computed upright (image row 0 at min-y) and mirrored afterwards when the
        // plane is mirrored; the gravity's vertical sense flips once for the layer's own flag
        // and once more to cancel that final mirror.
        let swapVertical = geometryFlipped != planeMirrored
        let dest = placement(bounds: b, natural: natural, gravity: swapVertical ? verticallySwapped(gravity) : gravity)
        guard dest.width > 0, dest.height > 0, dest.isFiniteRect else { return [] }
        var out = nineParts(dest: dest, natural: natural, contentsRect: cr, contentsCenter: contentsCenter)
        if planeMirrored {
            for i in out.indices {
                let r = out[i].rect
                out[i].rect = CGRect(x: r.minX, y: b.minY + b.maxY - r.maxY, width: r.width, height: r.height)
                out[i].uv = SIMD4(out[i].uv.x, out[i].uv.w, out[i].uv.z, out[i].uv.y)
            }
        }
        return out
    }

    /// One piece, or nine when `contentsCenter` is smaller than the unit rectangle: the centre
    /// (unit coordinates of the contentsRect's part of the image) stretches, the edges keep
    /// their natural size, shrunk together when the destination is too small for them.
    /// For the positioning gravities the destination *is* the natural size, so the nine
    /// pieces tile it exactly as one would (Apple: contentsCenter matters only when resizing).
    static func nineParts(dest: CGRect, natural: CGSize, contentsRect cr: CGRect, contentsCenter: CGRect) -> [Piece] {
        let uv0 = SIMD4(Float(cr.minX), Float(cr.minY), Float(cr.maxX), Float(cr.maxY))
        let cc = contentsCenter.standardized
        let isUnitCenter = cc.minX <= 0 && cc.minY <= 0 && cc.maxX >= 1 && cc.maxY >= 1
        guard !isUnitCenter, cc.isFiniteRect else { return [Piece(rect: dest, uv: uv0)] }
        let cx0 = min(max(cc.minX, 0), 1), cx1 = min(max(cc.maxX, cx0), 1)
        let cy0 = min(max(cc.minY, 0), 1), cy1 = min(max(cc.maxY, cy0), 1)
        var left = natural.width * cx0, right = natural.width * (1 - cx1)
        var top = natural.height * cy0, bottom = natural.height * (1 - cy1)
        if left + right > dest.width { let k = dest.width / (left + right); left *= k; right *= k }
        if top + bottom > dest.height { let k = dest.height / (top + bottom); top *= k; bottom *= k }
        let xs = [dest.minX, dest.minX + left, dest.maxX - right, dest.maxX]
        let ys = [dest.minY, dest.minY + top, dest.maxY - bottom, dest.maxY]
        func u(_ f: CGFloat) -> Float { Float(cr.minX + f * cr.width) }
        func v(_ f: CGFloat) -> Float { Float(cr.minY + f * cr.height) }
        let us = [u(0), u(cx0), u(cx1), u(1)]
        let vs = [v(0), v(cy0), v(cy1), v(1)]
        var out: [Piece] = []
        for j in 0..<3 {
            for i in 0..<3 {
                let r = CGRect(x: xs[i], y: ys[j], width: xs[i + 1] - xs[i], height: ys[j + 1] - ys[j])
                guard r.width > 0, r.height > 0 else { continue }
                out.append(Piece(rect: r, uv: SIMD4(us[i], vs[j], us[i + 1], vs[j + 1])))
            }
        }
        return out
    }

    /// The image's rectangle in the layer's bounds for a gravity (Apple's `contentsGravity`),
    /// in the layer's own coordinates: `top` is max y (see the type's documentation).
    static func placement(bounds b: CGRect, natural n: CGSize, gravity: CALayerContentsGravity) -> CGRect {
        func at(_ fx: CGFloat, _ fy: CGFloat) -> CGRect {
            CGRect(x: b.minX + (b.width - n.width) * fx, y: b.minY + (b.height - n.height) * fy, width: n.width, height: n.height)
        }
        switch gravity {
        case .resize: return b
        case .resizeAspect, .resizeAspectFill:
            let sx = b.width / n.width, sy = b.height / n.height
            let k = gravity == .resizeAspect ? min(sx, sy) : max(sx, sy)
            let w = n.width * k, h = n.height * k
            return CGRect(x: b.midX - w / 2, y: b.midY - h / 2, width: w, height: h)
        case .top: return at(0.5, 1)
        case .bottom: return at(0.5, 0)
        case .left: return at(0, 0.5)
        case .right: return at(1, 0.5)
        case .topLeft: return at(0, 1)
        case .topRight: return at(1, 1)
        case .bottomLeft: return at(0, 0)
        case .bottomRight: return at(1, 0)
        // .center, and any other string: the setter stores unknown strings as center (N5b),
        // but a value that arrives by another route is drawn as center too.
        default: return at(0.5, 0.5)
        }
    }

    static func verticallySwapped(_ g: CALayerContentsGravity) -> CALayerContentsGravity {
        switch g {
        case .top: return .bottom
        case .bottom: return .top
        case .topLeft: return .bottomLeft
        case .topRight: return .bottomRight
        case .bottomLeft: return .topLeft
        case .bottomRight: return .topRight
        default: return g
        }
    }
}

extension CGRect {
    var isFiniteRect: Bool { origin.x.isFinite && origin.y.isFinite && size.width.isFinite && size.height.isFinite }
}
