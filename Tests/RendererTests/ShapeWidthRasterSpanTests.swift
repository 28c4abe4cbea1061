import Testing
import Foundation

/// A `lineWidth` animation whose bounds its values give (`CALayer.animatedBounds`) drawn from one
/// width-free raster for its widest width (`Options.drawsAnimatedWidthsFromOneRaster`, on by
/// default for the GL backend; issue 22: "lineWidth-animated shapes without re-batching per
/// width"). Per-bucket rasters are made in the frame a width crosses into the next power of two,
/// so shapes whose animations cross in different frames leave their batches; one raster per
/// animation keeps them together. The stroke is still cut at the current width: the pixels
/// equal the per-bucket rasters'.
@Suite struct ShapeWidthRasterSpanTests {
    typealias S = ShapeStrokeGeometryAnimationTests

    /// 60 rings and stars in painting order, their `lineWidth` animating 2 → 9 over three
    /// durations (1.0, 1.3, 1.6 s), so the three groups cross each bucket in different frames.
    static func crowd() -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 240, height: 200)
        root.anchorPoint = .zero
        root.backgroundColor = solid(1, 1, 1)
        for i in 0..<60 {
            let s = CAShapeLayer()
            s.frame = CGRect(x: CGFloat(i % 10) * 24, y: CGFloat(i / 10) * 32, width: 24, height: 32)
            let box = CGRect(x: 5, y: 6, width: 14, height: 18)
            s.path = i % 2 == 0 ? CGPath(ellipseIn: box, transform: nil) : CGPath(roundedRect: box, cornerWidth: 4, cornerHeight: 4, transform: nil)
            s.fillColor = solid(0.9, 0.7, Double(i % 5) / 5)
            s.strokeColor = solid(0.1, 0.2, 0.8)
            s.lineJoin = .round
            s.lineWidth = 2
            let w = CABasicAnimation(keyPath: "lineWidth")
            w.fromValue = 2.0; w.toValue = 9.0
            w.duration = 1.0 + Double(i % 3) * 0.3
            s.add(w, forKey: "w")
            root.addSublayer(s)
        }
        return root
    }

    /// Frames of `root` (the animations begin at the first frame a renderer draws of it).
    static func frames(_ root: CALayer = crowd(), spans: Bool, times: [Double]) throws -> [(image: CGImage, stats: RenderStats)] {
        var o = CARenderer.Options(backend: .openGL)
        o.drawsAnimatedWidthsFromOneRaster = spans
        let r = try CARenderer(offscreenSize: CGSize(width: 240, height: 200), scale: 1, options: o)
        r.layer = root
        return try times.map { t in (try RenderHarness.frame(r, at: t), r.statistics) }
    }

    /// Up to 0.95 s: every animation still runs (the first group ends at 1.0 s).
    static let times = (0..<20).map { Double($0) / 20 }

    @Test("one raster per shape for the whole animation: no raster after the first frame, the draw calls never grow")
    func oneRasterKeepsTheBatches() throws {
        let spans = try Self.frames(spans: true, times: Self.times)
        // (At most one a shape: equal small paths at the same placement share theirs,
        // `ShapeCache.canonicalPath`.)
        #expect((1...60).contains(spans[0].stats.shapeRasters), "\(spans[0].stats.shapeRasters) rasters")
        #expect(spans.dropFirst().allSatisfy { $0.stats.shapeRasters == 0 }, "\(spans.map(\.stats.shapeRasters))")
        let first = spans[0].stats.drawCalls
        #expect(spans.allSatisfy { $0.stats.drawCalls == first }, "\(spans.map(\.stats.drawCalls))")
        // Per-bucket rasters: the groups re-rasterise in the frames they cross into the next
        // bucket (their new rasters go where the atlas has room, which on a full page splits the
        // batch: 1,000 stars went from 36 draws to 1,001, docs/PERFORMANCE.md).
        let buckets = try Self.frames(spans: false, times: Self.times)
        #expect(buckets.dropFirst().filter { $0.stats.shapeRasters > 0 }.count >= 3, "\(buckets.map(\.stats.shapeRasters))")
        // The same pixels: the stroke is cut at the current width from either field.
        for (a, b) in zip(spans, buckets) {
            let (fraction, _) = Golden.compare(a.image, b.image, threshold: 2)
            #expect(fraction <= 0.001, "\(fraction * 100)% of pixels differ by more than 2/255")
        }
    }

    @Test("a frame drawn alone equals the same frame drawn after the others")
    func framesDoNotDependOnEarlierFrames() throws {
        let root = Self.crowd()
        let all = try Self.frames(root, spans: true, times: Self.times)
        for i in [7, 15] {
            let alone = try Self.frames(root, spans: true, times: [Self.times[i]])[0].image
            #expect(Golden.compare(all[i].image, alone, threshold: 0).fraction == 0)
        }
    }

    @Test("an animation without known bounds (additive) keeps the per-bucket rasters")
    func additiveKeepsBuckets() throws {
        let (root, s) = S.scene { $0.path = S.circle() }
        let w = S.widthAnimation(from: 0, to: 10)
        w.isAdditive = true
        s.lineWidth = 2
        s.add(w, forKey: "w")
        let out = try S.frames(root, (0...10).map { Double($0) / 10 }, spans: true)
        // Half widths 1 … 6 texels: buckets 1, 2, 4 and 8, each rasterised when the width enters it.
        #expect(out.map(\.rasters).reduce(0, +) >= 3, "\(out.map(\.rasters))")
    }

    @Test("CA_WIDTH_RASTER_SPANS maps onto the option: 1 on, 0 off, unset the backend's choice")
    func environment() throws {
        #expect(try CARenderer.Options(environment: ["CA_WIDTH_RASTER_SPANS": "1"]).drawsAnimatedWidthsFromOneRaster == true)
        #expect(try CARenderer.Options(environment: ["CA_WIDTH_RASTER_SPANS": "0"]).drawsAnimatedWidthsFromOneRaster == false)
        #expect(try CARenderer.Options(environment: [:]).drawsAnimatedWidthsFromOneRaster == nil)
    }

    @Test("the CPU backend keeps per-bucket rasters by default (it has no draw calls to save)")
    func cpuDefault() throws {
        let r = try CARenderer(offscreenSize: CGSize(width: 240, height: 200), scale: 1, options: .init(backend: .software))
        r.layer = Self.crowd()
        var rasters: [Int] = []
        for t in Self.times { _ = try RenderHarness.frame(r, at: t); rasters.append(r.statistics.shapeRasters) }
        #expect(rasters.dropFirst().reduce(0, +) > 0, "\(rasters)")
    }
}
