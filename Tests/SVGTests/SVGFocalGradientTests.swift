import Testing
import Foundation

/// Focal radial gradients (SVG 1.1 §13.2.3 `fx`/`fy`, SVG 2 `fr`): t = 0 at the focal point,
/// t = 1 on the circle, each point taking the largest t whose interpolated circle (centre
/// f + t(c − f), radius t·r) passes through it. Drawn by both backends through the gradient
/// layer's package focal form (`GradientLayerState.focalPoint`). Expected values by hand from
/// that formula; stops white → black, interpolated in sRGB as SVG does by default.
@Suite struct SVGFocalGradientTests {
    /// A 100×100 document with one rect painted by `gradient` (id g), over white, on `backend`.
    func render(_ gradient: String, backend: CARenderer.Backend) throws -> [UInt8] {
        let doc = try SVGDocument(string: """
            <svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">\(gradient)
            <rect width="100" height="100" fill="url(#g)"/></svg>
            """)
        var o = CARenderer.Options(backend: .openGL)
        o.backend = backend
        let r = try CARenderer(offscreenSize: CGSize(width: 100, height: 100), options: o)
        r.layer = doc.layer
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        r.endFrame()
        return SVGImageDiff.onWhite(try r.makeImage())
    }

    /// The grey level of the pixel whose centre is (x + 0.5, y + 0.5).
    func grey(_ rgb: [UInt8], _ x: Int, _ y: Int) -> Double { Double(rgb[(y * 100 + x) * 3]) }

    static let stops = #"<stop offset="0" stop-color="white"/><stop offset="1" stop-color="black"/>"#

    @Test("fx/fy: white at the focal point, black on the circle, t on the focal line solved by hand; both backends",
          arguments: [CARenderer.Backend.openGL, .software])
    func focalPoint(backend: CARenderer.Backend) throws {
        // c = (50.5, 50.5), r = 40, f = (30.5, 50.5): d = p − f, e = c − f = (20, 0),
        // t²(400 − 1600) − 2t(d·e) + d·d = 0.
        let rgb = try render(#"<radialGradient id="g" gradientUnits="userSpaceOnUse" cx="50.5" cy="50.5" r="40" fx="30.5" fy="50.5">"#
                             + Self.stops + "</radialGradient>", backend: backend)
        // At the focal point t = 0: white.
        #expect(abs(grey(rgb, 30, 50) - 255) <= 3, "\(grey(rgb, 30, 50))")
        // p = (60.5, 50.5): d = (30, 0), d·e = 600, t = (600 − √(600² + 1200·900)) / −1200 = 0.5.
        #expect(abs(grey(rgb, 60, 50) - 127.5) <= 3, "\(grey(rgb, 60, 50))")
        // p = (15.5, 50.5): d = (−15, 0), d·e = −300, t = (−300 − 600) / −1200 = 0.75 → 63.75.
        // (Without the focal point: |p − c| / r = 0.875 → 31.9.)
        #expect(abs(grey(rgb, 15, 50) - 63.75) <= 3, "\(grey(rgb, 15, 50))")
        // p = (30.5, 80.5): d = (0, 30), d·e = 0, t = √(1200·900) / 1200 = 0.866 → 34.2.
        #expect(abs(grey(rgb, 30, 80) - 34.2) <= 3, "\(grey(rgb, 30, 80))")
        // Beyond the circle: padded black.
        #expect(grey(rgb, 95, 50) <= 3 && grey(rgb, 2, 2) <= 3)
    }

    @Test("A focal point outside the circle moves onto it (SVG 1.1 §13.2.3): t = 0 just inside the edge",
          arguments: [CARenderer.Backend.openGL, .software])
    func focalOutsideIsClamped(backend: CARenderer.Backend) throws {
        // fx = 200 lies outside; it moves to c + 0.999·r·(1, 0) = (90.46, 50.5). Along the line
        // from there to the far edge (10.5, 50.5) t grows linearly: at x = 50.5, t ≈ 0.5.
        let rgb = try render(#"<radialGradient id="g" gradientUnits="userSpaceOnUse" cx="50.5" cy="50.5" r="40" fx="200" fy="50.5">"#
                             + Self.stops + "</radialGradient>", backend: backend)
        #expect(abs(grey(rgb, 50, 50) - 127.5) <= 4, "\(grey(rgb, 50, 50))")
        #expect(grey(rgb, 89, 50) > 240, "\(grey(rgb, 89, 50))")
    }

    @Test("fr with a focal point: the stops start on the focal circle, its inside painted with the first stop")
    func focalRadius() throws {
        // c = (50.5, 50.5), r = 40, f = (40.5, 50.5), fr = 10. Point (40.5, 50.5) is inside the
        // focal circle: white. On the focal line to the right, the circles interpolate linearly:
        // x_right(t) = 40.5 + 10t + 10 + 30t = 50.5 + 40t; p = 70.5 → t = 0.5.
        let rgb = try render(#"<radialGradient id="g" gradientUnits="userSpaceOnUse" cx="50.5" cy="50.5" r="40" fx="40.5" fy="50.5" fr="10">"#
                             + Self.stops + "</radialGradient>", backend: .openGL)
        #expect(abs(grey(rgb, 40, 50) - 255) <= 3)
        #expect(abs(grey(rgb, 70, 50) - 127.5) <= 3, "\(grey(rgb, 70, 50))")
        // To the left: x_left(t) = 40.5 + 10t − 10 − 30t = 30.5 − 20t; p = 20.5 → t = 0.5.
        #expect(abs(grey(rgb, 20, 50) - 127.5) <= 3, "\(grey(rgb, 20, 50))")
    }

    @Test("spreadMethod=repeat keeps the focal point: t = 1.5 beyond the circle on the focal line")
    func focalRepeat() throws {
        // As focalPoint(), repeat: p = (5.5, 50.5): d = (−25, 0), d·e = −500, dd = 625,
        // t = (−500 − √(250000 + 750000)) / −1200 = 1.25 → the second period at 0.25 → 191.
        let rgb = try render(#"<radialGradient id="g" gradientUnits="userSpaceOnUse" cx="50.5" cy="50.5" r="40" fx="30.5" fy="50.5" spreadMethod="repeat">"#
                             + Self.stops + "</radialGradient>", backend: .openGL)
        #expect(abs(grey(rgb, 5, 50) - 191.25) <= 4, "\(grey(rgb, 5, 50))")
        #expect(abs(grey(rgb, 60, 50) - 127.5) <= 4, "\(grey(rgb, 60, 50))")
    }
}
