import Testing
import Foundation
import CATestSupport
@testable import CARender

/// The CPU backend rasterises a trimmed stroke without a fill or dashes trimmed (`StrokeTrim`,
/// `ShapeRasterizer.Request.trim`), as Core Graphics strokes the part of a path strokeStart and
/// strokeEnd leave; the GL backend cuts a raster of the whole stroke with its arc-length field.
/// Issue 23: TwitterHeart's fourteen dots travelling along lines.
@Suite struct StrokeTrimTests {
    static func flat(_ p: CGPath) -> [FlattenedSubpath] { p.flattenedSubpaths(tolerance: 0.01) }

    @Test("a window of an open line is the segment between the two lengths, corners at its cut ends")
    func openLine() {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 0, y: 0)); p.addLine(to: CGPoint(x: 100, y: 0)); p.addLine(to: CGPoint(x: 100, y: 100))
        let t = StrokeTrim.trimmed(Self.flat(p), from: 0.25, to: 0.75)   // lengths 50 … 150 of 200
        #expect(t.count == 1)
        #expect(t[0].points == [CGPoint(x: 50, y: 0), CGPoint(x: 100, y: 0), CGPoint(x: 100, y: 50)])
        #expect(t[0].isCorner == [true, true, true])
        #expect(!t[0].isClosed && t[0].hasSegments)
        #expect(t[0].startTangent == CGPoint(x: 1, y: 0) && t[0].endTangent == CGPoint(x: 0, y: 1))
    }

    @Test("a closed subpath wholly inside stays closed; one cut becomes an open piece from its start")
    func closedSubpaths() {
        let p = CGMutablePath()
        p.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))        // length 40
        p.addRect(CGRect(x: 100, y: 0, width: 20, height: 20))      // length 80
        let t = StrokeTrim.trimmed(Self.flat(p), from: 0, to: 0.5)  // 0 … 60: all of the first, 20 of the second
        #expect(t.count == 2)
        #expect(t[0].isClosed && t[0].points.count == 4)
        #expect(!t[1].isClosed)
        #expect(t[1].points == [CGPoint(x: 100, y: 0), CGPoint(x: 120, y: 0)])
        // The last 20 of 120: the second rectangle's closing side, (100, 20) back to its start.
        let end = StrokeTrim.trimmed(Self.flat(p), from: 100.0 / 120, to: 1)
        #expect(end.count == 1)
        #expect(end[0].points == [CGPoint(x: 100, y: 20), CGPoint(x: 100, y: 0)])
    }

    @Test("an empty or reversed window is nothing; the whole range is the path itself")
    func edges() {
        let p = CGMutablePath()
        p.move(to: .zero); p.addCurve(to: CGPoint(x: 100, y: 0), control1: CGPoint(x: 30, y: 60), control2: CGPoint(x: 70, y: -60))
        let f = Self.flat(p)
        #expect(StrokeTrim.trimmed(f, from: 0.5, to: 0.5).isEmpty)
        #expect(StrokeTrim.trimmed(f, from: 0.7, to: 0.2).isEmpty)
        #expect(StrokeTrim.trimmed(f, from: 0, to: 1) == f)
        #expect(StrokeTrim.trimmed([], from: 0, to: 0.5).isEmpty)
        #expect(StrokeTrim.trimmed(f, from: .nan, to: 0.5).isEmpty)
        // Inside a curve, sampled vertices stay non-corners; the open end keeps the curve's tangent.
        let mid = StrokeTrim.trimmed(f, from: 0.1, to: 1)
        #expect(mid.count == 1 && mid[0].isCorner.dropFirst().dropLast().allSatisfy { !$0 })
        #expect(mid[0].endTangent == f[0].endTangent)
    }

    /// Strokes whose trims animate (no fill): a line with round caps, an arc with square caps,
    /// a ring whose window crosses its start, a star with miter joins, and one whose width
    /// animates too.
    static func scene() -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 160, height: 120)
        root.anchorPoint = .zero
        root.backgroundColor = solid(1, 1, 1)
        func add(_ path: CGPath, at p: CGPoint, _ configure: (CAShapeLayer) -> Void, from: (Double, Double), to: (Double, Double)) {
            TrimAnimations.add(path, at: p, to: root, lineWidth: 5, color: solid(0.1, 0.3, 0.8), from: from, to: to, configure)
        }
        let line = CGMutablePath()
        line.move(to: CGPoint(x: 10, y: 15)); line.addLine(to: CGPoint(x: 90, y: 80))
        add(line, at: CGPoint(x: 50, y: 45), { $0.lineCap = .round }, from: (0.05, 0.2), to: (0.7, 0.9))
        let arc = CGMutablePath()
        arc.addArc(center: CGPoint(x: 50, y: 50), radius: 32, startAngle: 0.2, endAngle: 5.5, clockwise: false)
        add(arc, at: CGPoint(x: 110, y: 50), { $0.lineCap = .square }, from: (0.1, 0.3), to: (0.5, 0.8))
        add(ShapeRasterSpanResolveTests.ring(radius: 25, center: CGPoint(x: 50, y: 50)), at: CGPoint(x: 50, y: 80),
            { _ in }, from: (0.0, 0.2), to: (0.6, 0.95))
        add(ShapeRasterSpanResolveTests.star(), at: CGPoint(x: 115, y: 80), { $0.lineJoin = .miter; $0.miterLimit = 6; $0.lineWidth = 3 },
            from: (0.15, 0.4), to: (0.45, 0.8))
        add(line, at: CGPoint(x: 80, y: 60), TrimAnimations.roundCapNarrowing, from: (0.4, 0.5), to: (0.1, 0.2))
        return root
    }

    static let times = [0.0, 0.3, 0.6, 0.9]

    static func frames(geometry: Bool, root: CALayer, times: [Double] = times) throws -> [(image: CGImage, rasters: Int)] {
        let r = try CARenderer(offscreenSize: CGSize(width: 160, height: 120), scale: 1, options: .init(backend: .software))
        r.builder.trimsStrokeGeometry = geometry
        r.layer = root
        return try times.map { (try RenderHarness.frame(r, at: $0), r.statistics.shapeRasters) }
    }

    @Test("CPU: strokes rasterised trimmed look like the whole strokes cut by their fields (caps at the cuts included)")
    func trimmedLikeTheFieldsCut() throws {
        let root = Self.scene()
        let geometric = try Self.frames(geometry: true, root: root)
        let field = try Self.frames(geometry: false, root: root)
        for (k, (a, b)) in zip(geometric, field).enumerated() {
            // Exact area against the field's one-texel ramps at the cuts (a round cap's edge,
            // a square cap's corner on a curve): a few pixels of each cut differ.
            let (fraction, _) = Golden.compare(a.image, b.image, threshold: 32)
            #expect(fraction < 0.01, "frame \(k): \(fraction * 100)% of pixels differ by more than 32")
        }
        // A raster a frame for each of the five, while their trims move.
        #expect(geometric.dropFirst().allSatisfy { $0.rasters == 5 }, "\(geometric.map(\.rasters))")
    }

    @Test("CPU: a trimmed frame drawn alone equals the same frame drawn after the others")
    func framesDoNotDependOnEarlierFrames() throws {
        let root = Self.scene()
        let all = try Self.frames(geometry: true, root: root)
        for i in [1, 3] {
            let alone = try Self.frames(geometry: true, root: root, times: [Self.times[i]])[0].image
            #expect(all[i].image.rgba8Bytes == alone.rgba8Bytes)
        }
    }

    @Test("strokeStart ≥ strokeEnd draws nothing, on the CPU backend as on GL")
    func emptyWindowDrawsNothing() throws {
        let root = TrimAnimations.still(CGPath(ellipseIn: CGRect(x: 10, y: 10, width: 40, height: 40), transform: nil),
                                        size: CGSize(width: 60, height: 60), lineWidth: 6, start: 0.6, end: 0.4)
        let img = try RenderHarness.render(root, size: CGSize(width: 60, height: 60), clear: nil)
        #expect(img.rgba8Bytes.allSatisfy { $0 == 0 })
    }

    @Test("a trimmed straight stroke with butt caps covers exactly the trimmed length (both backends)")
    func butt() throws {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 10, y: 30)); p.addLine(to: CGPoint(x: 110, y: 30))
        let root = TrimAnimations.still(p, size: CGSize(width: 120, height: 60), lineWidth: 10, start: 0.25, end: 0.75,
                                        background: solid(1, 1, 1))
        let img = try RenderHarness.render(root, size: CGSize(width: 120, height: 60))
        // x 35 … 85, y 25 … 35.
        for (x, y) in [(35, 25), (60, 30), (84, 34)] { #expect(img.rgba(x, y) == RGBA(0, 0, 0), "(\(x), \(y)) \(img.rgba(x, y))") }
        for (x, y) in [(34, 30), (85, 30), (60, 24), (60, 35), (12, 30), (108, 30)] {
            #expect(img.rgba(x, y) == RGBA(255, 255, 255), "(\(x), \(y)) \(img.rgba(x, y))")
        }
    }
}
