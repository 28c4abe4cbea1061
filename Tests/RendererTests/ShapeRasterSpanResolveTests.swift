import Testing
import Foundation
@testable import CARender

/// Issue 23 (Lottie speed): a shape layer whose scale changes every frame — 9squares_AlBoardman's
/// 18 stroked rings — is rasterised again every frame, and that raster's cost was passes over
/// every texel of its box (a fresh zeroed accumulation buffer, the dense resolve, the scan for
/// the crop), most of a ring's box being its hole. Now one accumulation buffer is reused
/// (`ShapeCache.rasterScratch`), coverage is resolved over the touched cells only and the crop
/// comes from the resolve (`CoverageRasterizer.takeResolved`, `ShapeRaster.crop(toCovered:)`).
/// These tests hold the new rasters to the old ones byte for byte (`Request.denseResolve`, the
/// old path, kept as the reference): every scale, rotation, width, cap, fill rule, trim field,
/// width-free and perspective raster; and a renderer that re-rasterises a scaling ring every
/// frame draws what a fresh renderer draws for that frame alone, on both backends.
@Suite struct ShapeRasterSpanResolveTests {
    /// The 9squares ring: a circle as four cubics with the handle ratio After Effects writes
    /// (246.859 / 446.978), stroked 8 wide with round caps and joins (its Lottie `lc` 2, `lj` 2).
    static func ring(radius r: Double, center c: CGPoint) -> CGPath {
        let k = r * 246.859 / 446.978
        let p = CGMutablePath()
        p.move(to: CGPoint(x: c.x + r, y: c.y))
        p.addCurve(to: CGPoint(x: c.x, y: c.y + r), control1: CGPoint(x: c.x + r, y: c.y + k), control2: CGPoint(x: c.x + k, y: c.y + r))
        p.addCurve(to: CGPoint(x: c.x - r, y: c.y), control1: CGPoint(x: c.x - k, y: c.y + r), control2: CGPoint(x: c.x - r, y: c.y + k))
        p.addCurve(to: CGPoint(x: c.x, y: c.y - r), control1: CGPoint(x: c.x - r, y: c.y - k), control2: CGPoint(x: c.x - k, y: c.y - r))
        p.addCurve(to: CGPoint(x: c.x + r, y: c.y), control1: CGPoint(x: c.x + k, y: c.y - r), control2: CGPoint(x: c.x + r, y: c.y - k))
        p.closeSubpath()
        return p
    }

    /// A five-pointed star with a self-crossing pentagram inside (even-odd and non-zero differ).
    static func star() -> CGPath {
        let p = CGMutablePath()
        for i in 0..<10 {
            let r: CGFloat = i % 2 == 0 ? 45 : 19
            let a = CGFloat(i) * .pi / 5 - .pi / 2
            let q = CGPoint(x: 50 + r * cos(a), y: 50 + r * sin(a))
            if i == 0 { p.move(to: q) } else { p.addLine(to: q) }
        }
        p.closeSubpath()
        for i in 0..<5 {
            let a = CGFloat(i * 2 % 5) * 2 * .pi / 5 - .pi / 2
            let q = CGPoint(x: 50 + 30 * cos(a), y: 50 + 30 * sin(a))
            if i == 0 { p.move(to: q) } else { p.addLine(to: q) }
        }
        p.closeSubpath()
        return p
    }

    /// An open arc with an odd size, for caps.
    static func arc() -> CGPath {
        let p = CGMutablePath()
        p.addArc(center: CGPoint(x: 31.3, y: 27.7), radius: 23.1, startAngle: 0.3, endAngle: 5.0, clockwise: false)
        return p
    }

    /// A rotation by `angle` and uniform scale `s`, plus a sub-texel offset.
    static func map(scale s: Double, angle: Double, offset: Double = 0.25) -> TexelMap {
        TexelMap(a: s * cos(angle), b: s * sin(angle), c: -s * sin(angle), d: s * cos(angle), tx: offset + 3, ty: 0.5 + offset)
    }

    static let noLimit = (-1_000_000_000, -1_000_000_000, 1_000_000_000, 1_000_000_000)

    /// `request` made the old way (dense) and the new way (spans, through a scratch rasteriser
    /// and a resolve buffer already used by the rasters before): every field of the two rasters
    /// equal, and both scratches handed back clear.
    static func expectSame(_ request: ShapeRasterizer.Request, scratch: inout CoverageRasterizer, bytes: inout [UInt8],
                           _ name: String) {
        var dense = request
        dense.denseResolve = true
        var spans = request
        spans.denseResolve = false
        guard case .success(let a) = ShapeRasterizer.rasterize(dense),
              case .success(let b) = ShapeRasterizer.rasterize(spans, scratch: &scratch, resolveBuffer: &bytes) else {
            Issue.record("\(name): no raster")
            return
        }
        let placementA: [Int] = [a.originX, a.originY, a.width, a.height], placementB: [Int] = [b.originX, b.originY, b.width, b.height]
        #expect(placementA == placementB, "\(name): placement")
        #expect(a.coverage == b.coverage, "\(name): coverage bytes differ")
        #expect(a.aux == b.aux && a.field == b.field && a.fieldScale == b.fieldScale, "\(name): field differs")
        #expect(a.totalLength == b.totalLength && a.widthFree == b.widthFree && a.work == b.work, "\(name): totals differ")
        #expect(a.coverage.contains { $0 != 0 }, "\(name): the raster covers something")
        // The same raster as runs (`Request.sparse`, the CPU backend's): placed the same, and
        // the runs expand to the dense bytes; a raster with a field stays dense.
        var sparse = spans
        sparse.sparse = true
        if case .success(let c) = ShapeRasterizer.rasterize(sparse, scratch: &scratch, resolveBuffer: &bytes) {
            #expect([c.originX, c.originY, c.width, c.height] == placementA, "\(name): runs placed differently")
            if let runs = c.spans {
                #expect(c.coverage.isEmpty && c.field.isEmpty && c.aux.isEmpty, "\(name): runs and texels both")
                #expect(runs.denseCoverage() == a.coverage, "\(name): runs differ from the dense bytes")
            } else {
                #expect(request.field || request.widthFree != nil, "\(name): a plain raster made without runs")
                #expect(c.coverage == a.coverage, "\(name): coverage bytes differ")
            }
        } else {
            Issue.record("\(name): no raster as runs")
        }
        // The scratch rasteriser is handed back clear, for the next raster.
        #expect(scratch.acc.allSatisfy { $0 == 0 } && scratch.touched.allSatisfy { $0 == 0 }, "\(name): scratch left dirty")
        #expect(bytes.allSatisfy { $0 == 0 }, "\(name): resolve buffer left dirty")
    }

    @Test("the 9squares ring rasterised by spans equals the dense raster at every scale and rotation",
          arguments: [0.3128, 0.35, 0.9, 1, 2.8444, 5.3], [0, 0.3, 1.1])
    func ringAtScales(_ scale: Double, _ angle: Double) {
        var scratch = CoverageRasterizer(width: 0, height: 0)
        var bytes: [UInt8] = []
        // Two sizes of ring through one scratch, as frames of 9squares do.
        for r in [446.978, 116.994] {
            let path = Self.ring(radius: r * 0.35, center: CGPoint(x: 170, y: 170))
            for width in [8.0 * 0.35, 1.0, 0.0] {
                let style = ShapeStrokeStyle(halfWidth: width / 2, cap: .round, join: .round, miterLimit: 10)
                let req = ShapeRasterizer.Request(path: path, fill: false, evenOdd: false, stroke: style, field: false,
                                                  map: Self.map(scale: scale, angle: angle), limit: Self.noLimit)
                Self.expectSame(req, scratch: &scratch, bytes: &bytes, "ring r \(r) width \(width) scale \(scale) angle \(angle)")
            }
        }
    }

    @Test("a raster refused for its work after its fill was resolved leaves the resolve buffer zeroed")
    func refusedRasterLeavesTheBufferClear() {
        var scratch = CoverageRasterizer(width: 0, height: 0)
        var bytes: [UInt8] = []
        let style = ShapeStrokeStyle(halfWidth: 3, cap: .round, join: .round, miterLimit: 10)
        var req = ShapeRasterizer.Request(path: Self.star(), fill: true, evenOdd: false, stroke: style, field: false,
                                          map: Self.map(scale: 1.5, angle: 0.2), limit: Self.noLimit)
        guard case .success(let whole) = ShapeRasterizer.rasterize(req, scratch: &scratch, resolveBuffer: &bytes) else {
            Issue.record("no raster"); return
        }
        #expect(bytes.count > 0 && bytes.allSatisfy { $0 == 0 })
        // Just short of the whole raster's work: the fill is resolved, the stroke refused.
        req.workLimit = whole.work - 1
        guard case .failure(.overBudget) = ShapeRasterizer.rasterize(req, scratch: &scratch, resolveBuffer: &bytes) else {
            Issue.record("not refused"); return
        }
        #expect(bytes.allSatisfy { $0 == 0 }, "the refused raster's fill was left in the buffer")
        // And the next raster through the same buffers is the one made fresh.
        req.workLimit = .max
        guard case .success(let again) = ShapeRasterizer.rasterize(req, scratch: &scratch, resolveBuffer: &bytes) else {
            Issue.record("no raster"); return
        }
        #expect(again.coverage == whole.coverage && again.width == whole.width && again.originX == whole.originX)
    }

    @Test("fills, strokes, fill rules, caps, joins, trims and limits rasterised by spans equal the dense rasters")
    func otherShapes() {
        var scratch = CoverageRasterizer(width: 0, height: 0)
        var bytes: [UInt8] = []
        let styles = [ShapeStrokeStyle(halfWidth: 3.5, cap: .butt, join: .miter, miterLimit: 10),
                      ShapeStrokeStyle(halfWidth: 1.25, cap: .square, join: .bevel, miterLimit: 10),
                      ShapeStrokeStyle(halfWidth: 6, cap: .round, join: .round, miterLimit: 10)]
        for (pi, path) in [Self.star(), Self.arc(), Self.ring(radius: 21.7, center: CGPoint(x: 30, y: 25))].enumerated() {
            for scale in [0.7, 1, 2.3] {
                for angle in [0, 0.45] {
                    let m = Self.map(scale: scale, angle: angle)
                    for evenOdd in [false, true] {
                        Self.expectSame(.init(path: path, fill: true, evenOdd: evenOdd, stroke: nil, field: false, map: m, limit: Self.noLimit),
                                        scratch: &scratch, bytes: &bytes, "fill \(pi) \(scale) \(angle) \(evenOdd)")
                    }
                    for (si, st) in styles.enumerated() {
                        let name = "path \(pi) style \(si) scale \(scale) angle \(angle)"
                        // Fill and stroke (both channels), stroke with the arc-length field
                        // (compact, and the exact one a perspective raster keeps, with its margin).
                        Self.expectSame(.init(path: path, fill: true, evenOdd: true, stroke: st, field: false, map: m, limit: Self.noLimit),
                                        scratch: &scratch, bytes: &bytes, name + " fill+stroke")
                        Self.expectSame(.init(path: path, fill: false, evenOdd: false, stroke: st, field: true, map: m, limit: Self.noLimit),
                                        scratch: &scratch, bytes: &bytes, name + " field")
                        Self.expectSame(.init(path: path, fill: true, evenOdd: false, stroke: st, field: true, wideField: true, map: m,
                                              limit: Self.noLimit), scratch: &scratch, bytes: &bytes, name + " wide field")
                        // Width-free (a similarity: allowed) and a raster cut to a visible rectangle.
                        Self.expectSame(.init(path: path, fill: true, evenOdd: false, stroke: st, field: true, map: m, limit: Self.noLimit,
                                              widthFree: 8), scratch: &scratch, bytes: &bytes, name + " width-free")
                        // (A 31 × 26 window on the path's middle, which its fill covers.)
                        let box = path.boundingBox
                        let mid = m.apply(CGPoint(x: box.midX, y: box.midY))
                        let limit = (Int(mid.x) - 15, Int(mid.y) - 13, Int(mid.x) + 16, Int(mid.y) + 13)
                        Self.expectSame(.init(path: path, fill: true, evenOdd: false, stroke: st, field: false, map: m, limit: limit),
                                        scratch: &scratch, bytes: &bytes, name + " limited")
                    }
                }
            }
        }
    }

    /// A shape layer drawn as 9squares draws its rings: a ring whose scale animates, so each
    /// frame makes a new raster (the statistics say so) in the reused scratch rasteriser. Each
    /// frame equals that frame rendered alone by a fresh renderer (no state carried between
    /// rasters), on the GL and the CPU backend.
    @Test("a scaling ring re-rasterised every frame draws what a fresh renderer draws, on both backends",
          arguments: [CARenderer.Backend.openGL, .software])
    func scalingRingFrames(_ backend: CARenderer.Backend) throws {
        let size = CGSize(width: 97, height: 83)
        func scene() -> CALayer {
            let root = CALayer()
            root.bounds = CGRect(origin: .zero, size: size)
            root.anchorPoint = .zero
            root.backgroundColor = solid(0.19, 0.19, 0.19)
            for (i, r) in [38.3, 21.1, 9.7].enumerated() {
                let s = CAShapeLayer()
                s.bounds = CGRect(x: 0, y: 0, width: 90, height: 90)
                s.position = CGPoint(x: 48.3, y: 41.6)
                s.path = Self.ring(radius: r, center: CGPoint(x: 45, y: 45))
                s.fillColor = nil
                s.strokeColor = solid(0.97, 0.49, 0.37)
                s.lineWidth = 2.8 - Double(i) * 0.6
                s.lineCap = .round
                s.lineJoin = .round
                let a = CABasicAnimation(keyPath: "transform.scale")
                a.fromValue = 0.9
                a.toValue = 1.0 + 0.05 * Double(i)
                a.duration = 1
                s.add(a, forKey: "scale")
                if i == 1 { s.transform = CATransform3DMakeRotation(0.4, 0, 0, 1) }
                root.addSublayer(s)
            }
            return root
        }
        var options = CARenderer.Options(backend: .openGL)
        options.backend = backend
        let times = [0.0, 0.13, 0.37, 0.5, 0.81]
        let root = scene()
        let r = try CARenderer(offscreenSize: size, scale: 1, options: options)
        r.layer = root
        for t in times {
            let image = try RenderHarness.frame(r, at: t)
            #expect(r.statistics.shapeRasters == 3, "\(backend) t = \(t): each ring rasterised again")
            // (The same tree, as the other frame-independence tests do: its animations' begin
            // times are the ones the first renderer's commit set.)
            let alone = try CARenderer(offscreenSize: size, scale: 1, options: options)
            alone.layer = root
            let fresh = try RenderHarness.frame(alone, at: t)
            #expect(Golden.compare(image, fresh, threshold: 0).fraction == 0, "\(backend) t = \(t): depends on the rasters before")
        }
    }
}
