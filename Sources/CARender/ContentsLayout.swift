import CoreGraphics
import CoreAnimation

/// Where a layer's `contents` image lands in its bounds and which part of the image each piece
/// samples: `contentsGravity` (all twelve), `contentsRect` (unit rectangle of the image, y down
/// from the image's top row), `contentsScale` (image pixels per point for the gravities that
/// keep the natural size) and `contentsCenter` (nine-part stretching).
///
/// Gravity names follow Core Animation's unflipped geometry (catalogue N5b): `top` is the
/// layer's max-y edge, `bottom` its min-y edge. In this project's y-down layer space that puts
/// `.top` content at the visual bottom, the same swap iOS shows for a plain CALayer.
enum ContentsLayout {
    struct Piece: Equatable {
        var rect: CGRect
        /// u0, v0, u1, v1 in the image (0…1, v down).
        var uv: SIMD4<Float>
    }

    static func pieces(bounds: CGRect, imageWidth: Int, imageHeight: Int, gravity: CALayerContentsGravity,
                       contentsRect: CGRect, contentsScale: CGFloat, contentsCenter: CGRect) -> [Piece] {
        let b = bounds.standardized
        guard imageWidth > 0, imageHeight > 0, b.width > 0, b.height > 0 else { return [] }
        // contentsRect may extend past the unit square (the image clamps, as Apple's edge
        // pixels repeat); an empty one shows nothing.
        let cr = contentsRect.standardized
        guard cr.width > 0, cr.height > 0, cr.origin.x.isFinite, cr.origin.y.isFinite else { return [] }
        let scale = contentsScale > 0 && contentsScale.isFinite ? contentsScale : 1
        let natural = CGSize(width: CGFloat(imageWidth) * cr.width / scale, height: CGFloat(imageHeight) * cr.height / scale)
        let dest = placement(bounds: b, natural: natural, gravity: gravity)
        guard dest.width > 0, dest.height > 0 else { return [] }
        let uv0 = SIMD4(Float(cr.minX), Float(cr.minY), Float(cr.maxX), Float(cr.maxY))

        let cc = contentsCenter.standardized
        let isUnitCenter = cc.minX <= 0 && cc.minY <= 0 && cc.maxX >= 1 && cc.maxY >= 1
        guard !isUnitCenter, cc.width.isFinite, cc.height.isFinite else { return [Piece(rect: dest, uv: uv0)] }

        // Nine-part: the centre rectangle (unit coordinates of the contentsRect) stretches, the
        // edges keep their natural size, shrunk together when the destination is too small.
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

    /// The image's rectangle in the layer's bounds for a gravity (Apple's `contentsGravity`).
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
        // Unflipped geometry: "top" is max y, "bottom" min y (N5b).
        case .top: return at(0.5, 1)
        case .bottom: return at(0.5, 0)
        case .left: return at(0, 0.5)
        case .right: return at(1, 0.5)
        case .topLeft: return at(0, 1)
        case .topRight: return at(1, 1)
        case .bottomLeft: return at(0, 0)
        case .bottomRight: return at(1, 0)
        default: return at(0.5, 0.5)  // .center, and unknown strings read as center (N5b)
        }
    }
}
