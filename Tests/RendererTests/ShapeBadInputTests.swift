import Testing
import Foundation

/// CAShapeLayer with hostile or degenerate input (issue 6, Bad input): never a crash or a hang;
/// a documented clamp or a warning.
@Suite struct ShapeBadInputTests {
    static func render(_ configure: (CAShapeLayer) -> Void) throws -> (CGImage, [String]) {
        let root = ShapeLayerTests.scene(100, 100, configure)
        return try RenderDiagnostics.capture { try ShapeLayerTests.render(root) }
    }

    /// `render`, with the frame's statistics: the work it did (rasters made, flattened segments
    /// rasterised). Hostile input is bounded by that work, never by the clock: a slow machine
    /// must not turn these tests red.
    static func renderCounting(_ configure: (CAShapeLayer) -> Void) throws -> (CGImage, [String], RenderStats) {
        let root = ShapeLayerTests.scene(100, 100, configure)
        let r = try CARenderer(offscreenSize: root.bounds.size, options: .init(backend: .openGL))
        r.clearColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        r.layer = root
        let (img, warnings) = try RenderDiagnostics.capture { try RenderHarness.frame(r, at: 0) }
        return (img, warnings, r.statistics)
    }

    @Test func emptyAndSinglePointPathsDrawNothing() throws {
        for path in [CGMutablePath(), ShapeLayerTests.polygon([(50, 50)], close: false)] {
            let (img, _) = try Self.render { s in
                s.path = path; s.strokeColor = ShapeLayerTests.black; s.lineWidth = 10
            }
            #expect(ShapeLayerTests.v(img, 50, 50) == 255)
        }
    }

    @Test func nonFiniteCoordinatesAreSkipped() throws {
        // CGPath drops points with NaN; a path built with them draws what is left.
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 10, y: 10))
        p.addLine(to: CGPoint(x: CGFloat.nan, y: 50))
        p.addLine(to: CGPoint(x: 90, y: 10))
        p.addLine(to: CGPoint(x: 90, y: 90))
        p.addLine(to: CGPoint(x: CGFloat.infinity, y: 90))
        p.addLine(to: CGPoint(x: 10, y: 90))
        p.closeSubpath()
        let (img, _) = try Self.render { $0.path = p }
        #expect(ShapeLayerTests.v(img, 50, 50) == 0)
    }

    @Test func hugeCoordinatesStayBounded() throws {
        // A line from −1e30 to 1e30: coordinates are clamped to ±1e7 pixels (documented) and
        // the raster to the visible frame, so it draws a horizontal band from one raster of a
        // handful of segments.
        let (img, _, stats) = try Self.renderCounting { s in
            s.path = ShapeLayerTests.line(-1e30, 50, 1e30, 50)
            s.fillColor = nil
            s.strokeColor = ShapeLayerTests.black
            s.lineWidth = 4
        }
        #expect(ShapeLayerTests.v(img, 50, 50) == 0 && ShapeLayerTests.v(img, 50, 40) == 255)
        #expect(stats.shapeRasters == 1 && stats.shapeSegments <= 4, "\(stats.shapeRasters) rasters, \(stats.shapeSegments) segments")
        let (fill, _, fillStats) = try Self.renderCounting { $0.path = ShapeLayerTests.polygon([(-1e30, -1e30), (1e30, -1e30), (1e30, 1e30), (-1e30, 1e30)]) }
        #expect(ShapeLayerTests.v(fill, 50, 50) == 0)
        #expect(fillStats.shapeRasters == 1 && fillStats.shapeSegments <= 8, "\(fillStats.shapeRasters) rasters, \(fillStats.shapeSegments) segments")
    }

    @Test func millionSegmentsAreRefusedQuicklyWithAWarning() throws {
        var elements: [CGPoint] = []
        elements.reserveCapacity(1_000_000)
        for i in 0..<1_000_000 { elements.append(CGPoint(x: Double(i % 100), y: Double(i % 2) * 50)) }
        let p = CGMutablePath()
        p.addLines(between: elements)
        let (img, warnings, stats) = try Self.renderCounting { $0.path = p }
        #expect(warnings.contains { $0.contains("exceeds the limit") })
        // Refused before rasterising: no raster, no segment flattened.
        #expect(stats.shapeRasters == 0 && stats.shapeSegments == 0, "\(stats.shapeRasters) rasters, \(stats.shapeSegments) segments")
        #expect(ShapeLayerTests.v(img, 50, 25) == 255)
    }

    @Test func manySegmentsBelowTheLimitDraw() throws {
        // 20,000 segments of a polygonal circle: drawn, from one raster of about as many
        // segments (work proportional to the path, not more).
        var pts: [CGPoint] = []
        for i in 0..<20_000 {
            let a = Double(i) / 20_000 * 2 * Double.pi
            pts.append(CGPoint(x: 50 + 40 * cos(a), y: 50 + 40 * sin(a)))
        }
        let p = CGMutablePath()
        p.addLines(between: pts)
        p.closeSubpath()
        let (img, _, stats) = try Self.renderCounting { s in s.path = p; s.strokeColor = ShapeLayerTests.black; s.lineWidth = 2 }
        #expect(stats.shapeRasters == 1, "\(stats.shapeRasters) rasters")
        #expect(stats.shapeSegments >= 20_000 && stats.shapeSegments <= 2 * 20_001, "\(stats.shapeSegments) segments")
        #expect(ShapeLayerTests.v(img, 50, 50) == 0 && ShapeLayerTests.v(img, 5, 5) == 255)
    }

    @Test func degenerateDashPatternsDrawSolidWithAWarning() throws {
        for pattern: [NSNumber] in [[0, 0], [-5, 5], [5, -1], [NSNumber(value: Double.nan), 3]] {
            let (img, warnings) = try Self.render { s in
                s.path = ShapeLayerTests.line(0, 50, 100, 50)
                s.fillColor = nil
                s.strokeColor = ShapeLayerTests.black
                s.lineWidth = 4
                s.lineDashPattern = pattern
            }
            for x in [5, 15, 25, 55] { #expect(ShapeLayerTests.v(img, x, 50) == 0, "pattern \(pattern) at x \(x)") }
            #expect(warnings.contains { $0.contains("lineDashPattern") })
        }
    }

    @Test func negativeLineWidthDrawsNoStroke() throws {
        let (img, warnings) = try Self.render { s in
            s.path = ShapeLayerTests.line(0, 50, 100, 50)
            s.fillColor = nil
            s.strokeColor = ShapeLayerTests.black
            s.lineWidth = -3
        }
        #expect(ShapeLayerTests.v(img, 50, 50) == 255)
        #expect(warnings.contains { $0.contains("lineWidth") })
    }

    @Test func longDashPatternsAreDashedOnTheCPU() throws {
        // More than four entries: dashed before stroking (documented), same positions.
        let (img, _) = try Self.render { s in
            s.path = ShapeLayerTests.line(0, 50, 100, 50)
            s.fillColor = nil
            s.strokeColor = ShapeLayerTests.black
            s.lineWidth = 4
            s.lineDashPattern = [10, 5, 5, 5, 5, 5]
        }
        #expect(ShapeLayerTests.v(img, 5, 50) == 0 && ShapeLayerTests.v(img, 12, 50) == 255 && ShapeLayerTests.v(img, 17, 50) == 0
                && ShapeLayerTests.v(img, 22, 50) == 255 && ShapeLayerTests.v(img, 27, 50) == 0 && ShapeLayerTests.v(img, 32, 50) == 255)
    }

    /// Issue 17: a dashed stroke with a line width above about 1e19 killed the process with
    /// SIGILL (`Int(_:)` of the field's box in ArcLengthField trapped: −1e20 is below Int.min).
    /// Huge widths and dash lengths now render: the stroke covers the frame, no crash.
    @Test func hugeLineWidthsAndDashLengthsRender() throws {
        let huge: [CGFloat] = [1e19, 1e20, 1e300, .greatestFiniteMagnitude]
        for width in huge {
            for pattern: [NSNumber] in [[10, 5], [10, 5, 5, 5, 5, 5]] {
                let (img, _) = try Self.render { s in
                    s.path = ShapeLayerTests.line(10, 50, 90, 50)
                    s.fillColor = nil
                    s.strokeColor = ShapeLayerTests.black
                    s.lineWidth = width
                    s.lineDashPattern = pattern
                }
                // Whatever the dash does at this scale, the picture is made and not garbage.
                #expect(img.width == 100 && img.height == 100, "width \(width) pattern \(pattern)")
            }
            // Solid (undashed) strokes and trims take the arc-length field path as well.
            let (img, _) = try Self.render { s in
                s.path = ShapeLayerTests.line(10, 50, 90, 50)
                s.fillColor = nil
                s.strokeColor = ShapeLayerTests.black
                s.lineWidth = width
                s.strokeEnd = 0.5
            }
            #expect(img.width == 100, "width \(width) trimmed")
        }
        for pattern: [NSNumber] in [[1e20, 1e20], [NSNumber(value: Double.greatestFiniteMagnitude), 1], [1, 1e300],
                                    [1e-300, 1e-300], [1e20, 5, 5, 5, 5, 1e20]] {
            let (img, _) = try Self.render { s in
                s.path = ShapeLayerTests.line(10, 50, 90, 50)
                s.fillColor = nil
                s.strokeColor = ShapeLayerTests.black
                s.lineWidth = 4
                s.lineDashPattern = pattern
                s.lineDashPhase = 1e20
            }
            #expect(img.width == 100, "pattern \(pattern)")
        }
    }

    /// Issue 17, the animated path: while `lineWidth` animates the stroke comes from the gauge
    /// field (GaugeField), whose box conversion trapped the same way for a width of 1e20.
    @Test func hugeAnimatedLineWidthRenders() throws {
        typealias A = ShapeStrokeGeometryAnimationTests
        for to in [1e20, Double.greatestFiniteMagnitude] {
            let (root, s) = A.scene { $0.path = A.arc() }
            s.add(A.widthAnimation(from: 2, to: to), forKey: "w")
            let out = try A.frames(root, [0, 0.5, 1])
            #expect(out.count == 3, "to \(to)")
        }
    }
}
