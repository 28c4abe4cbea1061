import CoreGraphics
import CoreAnimation

/// A layer's shadow settings, nil when it casts none (`shadowOpacity` 0 or a clear colour).
///
/// How wide the blur is (docs/BEHAVIOUR.md N1, measured on Apple): a 40×40 layer with shadowOffset
/// (20, 20) and shadowRadius 5 paints up to 2·r = 10 points past its offset edge (pixel 149
/// painted) and nothing further (pixel 152 clear). Core Graphics gets a blur of 2·r for a
/// layer's r and spreads a hard edge by exactly that much, as box passes whose reaches add up
/// to it would. Our blur is a true Gaussian cut at the same reach: σ = 0.8·r (three boxes
/// spanning 2·r together have σ ≈ 0.77·r) with the kernel cut at 2·r = 2.5·σ, so the last
/// pixel inside 2·r still gets about 1/255 and everything beyond gets exactly 0. The discrete
/// blur (`Shaders/blur.frag`) and the analytic one for `shadowPath` shapes (`Shaders/box.frag`)
/// use the same kernel, so both routes paint the same pixels.
struct ShadowSpec {
    /// σ of the Gaussian per point of `shadowRadius`.
    static let sigmaPerRadius = 0.8
    /// Where the kernel ends, in σ (= 2·shadowRadius). The shaders hard-code the same 2.5.
    static let cutInSigmas = 2.5
    /// The farthest the pixel blur reaches, in pixels (`Shaders/blur.frag` takes at most 256
    /// texels each side): shadows with 2.5σ beyond it (σ > 102 pixels) end there, a little
    /// harder than the Gaussian would. The analytic `shadowPath` shapes have no such limit.
    static let maxBlurReach: CGFloat = 256

    var color: CGColor
    var opacity: Float
    var offset: CGSize
    var radius: CGFloat

    /// Whether a layer with these settings casts a shadow at all (what `init?` decides first).
    static func isCast(opacity: Float, color: CGColor?) -> Bool { opacity > 0 && (color?.alpha ?? 0) > 0 }

    /// (Borrowed, and `shadowOpacity` read first: most layers cast nothing, and a state passed
    /// owned was copied and destroyed for every layer of every frame; issue 23.)
    init?(_ s: borrowing LayerState) {
        guard s.shadowOpacity > 0, Self.isCast(opacity: s.shadowOpacity, color: s.shadowColor), let c = s.shadowColor else { return nil }
        color = c
        opacity = min(s.shadowOpacity, 1)
        // The setters reject non-finite values; a state built another way must not put NaN
        // into a frame.
        let o = s.shadowOffset
        offset = o.width.isFinite && o.height.isFinite ? o : .zero
        radius = max(0, s.shadowRadius.isFinite ? s.shadowRadius : 0)
    }

    /// Gaussian σ in target pixels. `shadowRadius` is in the layer's space, so the blur grows
    /// and shrinks with the layer's transform and the renderer's scale.
    func sigma(_ h: Homography) -> Float { Float(Double(radius) * Self.sigmaPerRadius * h.linearScale) }

    /// How far the blurred shadow reaches past the casting edge, in target pixels (2·r, at
    /// most `maxBlurReach`).
    func reach(_ h: Homography) -> CGFloat { min(CGFloat(Double(sigma(h)) * Self.cutInSigmas), Self.maxBlurReach) }

    /// The offset in target pixels: `shadowOffset` is in the layer's own space (y down here, so
    /// a positive height casts downward; the default (0, −3) casts upward, as on iOS), and it
    /// turns and scales with the layer's transform.
    func pixelOffset(_ h: Homography) -> CGSize {
        let w = max(abs(h.r2.z), 1e-9)
        let dx = (Double(offset.width) * h.r0.x + Double(offset.height) * h.r1.x) / w
        let dy = (Double(offset.width) * h.r0.y + Double(offset.height) * h.r1.y) / w
        guard dx.isFinite, dy.isFinite else { return .zero }
        return CGSize(width: dx, height: dy)
    }

    /// How many times smaller than the frame the blur runs: 1 below σ = 8 pixels, then 2, 4,
    /// 8, keeping at least 4 texels of σ. A wide Gaussian has no detail a quarter-resolution
    /// pass would lose, and it costs a sixteenth as much (the kernel shrinks too).
    func downscale(_ h: Homography) -> Int {
        let s = sigma(h)
        var d = 1
        while d < 8, s / Float(2 * d) >= 4 { d *= 2 }
        return d
    }

    /// Pixels the blurred, offset shadow of content inside `rect` can reach.
    func castBounds(of rect: CGRect, h: Homography) -> CGRect {
        let o = pixelOffset(h)
        let reach = self.reach(h) + 1
        return rect.offsetBy(dx: o.width, dy: o.height).insetBy(dx: -reach, dy: -reach)
    }
}

/// The shapes whose blurred shadow `Shaders/box.frag` computes analytically: a rectangle with
/// elliptical corners of one size (`corner` zero for a plain rectangle, half the size for an
/// ellipse).
struct ShadowPathShape: Equatable {
    var rect: CGRect
    var corner: CGSize

    init(rect: CGRect, corner: CGSize) {
        self.rect = rect
        self.corner = corner
    }

    /// Recognises `CGPath(rect:)`, `CGPath(roundedRect:cornerWidth:cornerHeight:)` and
    /// `CGPath(ellipseIn:)` (and the `add…` methods that make the same elements) by their
    /// element patterns: a rectangle by `isRect`; an ellipse as a move and four cubics; a rounded
    /// rectangle as a move and four line–cubic pairs. The candidate is rebuilt with Core
    /// Graphics' own constructor and must match element for element, so a hand-made path that
    /// only looks similar is not taken for one. Nil for anything else.
    init?(_ path: CGPath) {
        var r = CGRect.zero
        if path.isRect(&r) {
            rect = r.standardized
            corner = .zero
            return
        }
        let e = path.elements
        guard e.count == 6 || e.count == 10, case .move = e[0], case .close = e[e.count - 1] else { return nil }
        let box = path.boundingBox
        guard !box.isNull, box.width > 0, box.height > 0 else { return nil }
        let candidate: CGPath
        if e.count == 6 {
            candidate = CGPath(ellipseIn: box, transform: nil)
            corner = CGSize(width: box.width / 2, height: box.height / 2)
        } else {
            guard case .line(let a) = e[1], case .cubic(_, _, let b) = e[2] else { return nil }
            let cw = box.maxX - b.x, ch = box.maxY - a.y
            guard cw > 0, ch > 0 else { return nil }
            candidate = CGPath(roundedRect: box, cornerWidth: cw, cornerHeight: ch, transform: nil)
            corner = CGSize(width: min(cw, box.width / 2), height: min(ch, box.height / 2))
        }
        let tolerance = 1e-6 * max(1, box.width, box.height)
        guard candidate.elements.count == e.count else { return nil }
        for (x, y) in zip(candidate.elements, e) {
            let px = x.points, py = y.points
            guard px.count == py.count else { return nil }
            for (p, q) in zip(px, py) where abs(p.x - q.x) > tolerance || abs(p.y - q.y) > tolerance { return nil }
        }
        rect = box
    }
}
