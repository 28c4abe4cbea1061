import Testing
import Foundation
import CATestSupport
@testable import CARender

/// A trimmed stroke is drawn over only the part of its raster the trim can leave
/// (`ShapeEmitter.trimmedRegion`, issue 23): the box of the centreline between the trim's arc
/// lengths, grown by the stroke's reach. Every pixel the whole raster would draw lies in it, so
/// the frames are the same bytes as with the whole raster drawn, on both backends.
@Suite struct TrimmedStrokeRegionTests {
    static let size = CGSize(width: 160, height: 140)

    /// Shapes whose trims animate: an open line (round caps), an arc (square caps), a closed
    /// ring (a window crossing its start), a star with miter joins (a window over a tip), a
    /// path of two subpaths, a stroke whose width animates too (width-free raster), and a
    /// rotated, scaled one.
    static func scene() -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(origin: .zero, size: size)
        root.anchorPoint = .zero
        root.backgroundColor = solid(1, 1, 1)
        func add(_ path: CGPath, at p: CGPoint, _ configure: (CAShapeLayer) -> Void, from: (Double, Double), to: (Double, Double)) {
            TrimAnimations.add(path, at: p, to: root, lineWidth: 4, color: solid(0.1, 0.3, 0.8, 0.9), from: from, to: to, configure)
        }
        let line = CGMutablePath()
        line.move(to: CGPoint(x: 10, y: 12)); line.addLine(to: CGPoint(x: 90, y: 85))
        add(line, at: CGPoint(x: 45, y: 40), { $0.lineCap = .round; $0.lineWidth = 6 }, from: (0.05, 0.1), to: (0.8, 0.9))
        let arc = CGMutablePath()
        arc.addArc(center: CGPoint(x: 50, y: 50), radius: 35, startAngle: 0.2, endAngle: 5.5, clockwise: false)
        add(arc, at: CGPoint(x: 110, y: 45), { $0.lineCap = .square }, from: (0.1, 0.2), to: (0.6, 0.75))
        add(ShapeRasterSpanResolveTests.ring(radius: 30, center: CGPoint(x: 50, y: 50)), at: CGPoint(x: 45, y: 100),
            { $0.lineWidth = 5 }, from: (0.0, 0.15), to: (0.7, 0.98))
        add(ShapeRasterSpanResolveTests.star(), at: CGPoint(x: 110, y: 100), { $0.lineJoin = .miter; $0.miterLimit = 6 }, from: (0.2, 0.3), to: (0.55, 0.6))
        let two = CGMutablePath()
        two.move(to: CGPoint(x: 10, y: 20)); two.addLine(to: CGPoint(x: 90, y: 20))
        two.move(to: CGPoint(x: 10, y: 60)); two.addCurve(to: CGPoint(x: 90, y: 70), control1: CGPoint(x: 30, y: 20), control2: CGPoint(x: 60, y: 110))
        add(two, at: CGPoint(x: 80, y: 70), { $0.lineCap = .round; $0.strokeColor = solid(0.8, 0.2, 0.1) }, from: (0.3, 0.35), to: (0.6, 0.7))
        add(line, at: CGPoint(x: 60, y: 60), TrimAnimations.roundCapNarrowing, from: (0.4, 0.45), to: (0.1, 0.2))
        add(arc, at: CGPoint(x: 70, y: 75), { s in
            s.transform = CATransform3DConcat(CATransform3DMakeScale(0.6, 0.6, 1), CATransform3DMakeRotation(0.7, 0, 0, 1))
            s.lineJoin = .bevel
        }, from: (0.5, 0.52), to: (0.9, 0.93))
        return root
    }

    static let times = [0.0, 0.2, 0.45, 0.7, 0.95]

    static func frames(_ backend: CARenderer.Backend, cut: Bool, root: CALayer) throws -> [CGImage] {
        let r = try CARenderer(offscreenSize: size, scale: 1, options: .init(backend: backend))
        r.builder.cutsTrimmedStrokes = cut
        // (The CPU backend rasterises trimmed strokes trimmed; here it cuts the field as GL does.)
        r.builder.trimsStrokeGeometry = false
        r.layer = root
        return try times.map { try RenderHarness.frame(r, at: $0) }
    }

    @Test("trimmed strokes drawn over the trim's part of their rasters equal the whole rasters drawn, byte for byte",
          arguments: [CARenderer.Backend.software, .openGL])
    func cutEqualsWhole(_ backend: CARenderer.Backend) throws {
        let root = Self.scene()
        let cut = try Self.frames(backend, cut: true, root: root)
        let whole = try Self.frames(backend, cut: false, root: root)
        for (k, (a, b)) in zip(cut, whole).enumerated() {
            #expect(a.rgba8Bytes == b.rgba8Bytes, "frame \(k) at t = \(Self.times[k]) differs")
        }
        // And the strokes are drawn: each frame has blue on white.
        #expect(cut.allSatisfy { img in img.rgba8Bytes.count > 0 && stride(from: 0, to: img.rgba8Bytes.count, by: 4).contains { img.rgba8Bytes[$0 + 2] > 150 && img.rgba8Bytes[$0] < 120 } })
    }

    @Test("the region drawn is the trim's part: a short window on a long line draws a small part of its raster")
    func regionShrinks() throws {
        let line = CGMutablePath()
        line.move(to: CGPoint(x: 10, y: 10)); line.addLine(to: CGPoint(x: 150, y: 130))
        let root = TrimAnimations.still(line, size: Self.size, lineWidth: 4, start: 0.45, end: 0.5)
        let b = RenderTreeBuilder()
        let frame = b.build(root: root, width: Int(Self.size.width), height: Int(Self.size.height), scale: 1).0
        let region = try #require(frame.shapes.first).region
        // The line's raster is about 148 × 128 texels; a twentieth of it (9 of its 184 units)
        // grown by the reach (half width and two texels) and the length's hundredth is about
        // 20 × 20.
        #expect(region.z < 40 && region.w < 40, "region \(region)")
        b.cutsTrimmedStrokes = false
        let whole = try #require(b.build(root: root, width: Int(Self.size.width), height: Int(Self.size.height), scale: 1).0.shapes.first).region
        #expect(whole.z > 140 && whole.w > 120, "whole \(whole)")
    }
}
