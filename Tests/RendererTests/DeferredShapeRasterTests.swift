import Testing
import Foundation
import CATestSupport
@testable import CARender

/// Issue 23: on the CPU backend, plain shape rasters (made as runs) are placed during the walk by
/// a box known before they are made, and made by other threads beside the walk
/// (`ShapeCache+Deferred.swift`, `DeferredRasterQueue`). Made there or in the walk, a raster is
/// the same raster in the same box, so frames are the same bytes whatever the threads.
@Suite struct DeferredShapeRasterTests {
    /// Twelve shape layers whose scale animates (a new raster each, every frame): rings and
    /// stars, filled, stroked and both, one under a rounded clip, one rotated.
    static func scene(_ size: CGSize) -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(origin: .zero, size: size)
        root.anchorPoint = .zero
        root.backgroundColor = solid(0.15, 0.2, 0.3)
        let clip = CALayer()
        clip.frame = CGRect(x: 150.5, y: 20.25, width: 80, height: 70)
        clip.cornerRadius = 12
        clip.masksToBounds = true
        root.addSublayer(clip)
        for k in 0..<12 {
            let s = CAShapeLayer()
            s.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
            s.position = CGPoint(x: 35.3 + Double(k % 4) * 57.7, y: 40.6 + Double(k / 4) * 61.1)
            s.path = k % 2 == 0 ? ShapeRasterSpanResolveTests.star()
                : ShapeRasterSpanResolveTests.ring(radius: 20 + Double(k), center: CGPoint(x: 50, y: 50))
            s.fillColor = k % 3 == 1 ? nil : solid(0.9, 0.3 + 0.05 * Double(k), 0.1, k % 2 == 0 ? 0.75 : 1)
            s.strokeColor = k % 3 == 2 ? nil : solid(0.1, 0.85, 0.9 - 0.05 * Double(k), k < 6 ? 0.6 : 1)
            s.lineWidth = 1 + Double(k) * 0.6
            s.lineJoin = k % 2 == 0 ? .miter : .round
            s.fillRule = k % 4 == 0 ? .evenOdd : .nonZero
            if k == 5 { s.transform = CATransform3DMakeRotation(0.4, 0, 0, 1) }
            let a = CABasicAnimation(keyPath: "transform.scale")
            a.fromValue = 0.7 + 0.02 * Double(k)
            a.toValue = 1.15
            a.duration = 1
            s.add(a, forKey: "scale")
            if k == 6 {
                s.position = CGPoint(x: 40, y: 35)
                clip.addSublayer(s)
            } else {
                root.addSublayer(s)
            }
        }
        return root
    }

    @Test("frames whose rasters are made beside the walk equal frames whose rasters the walk makes, byte for byte")
    func deferredEqualsInline() throws {
        let size = CGSize(width: 241, height: 213)
        let root = Self.scene(size)
        var inline = CARenderer.Options(backend: .software)
        inline.shapeRasterThreads = 1
        var beside = inline
        beside.shapeRasterThreads = 3
        let a = try CARenderer(offscreenSize: size, scale: 1, options: inline)
        let b = try CARenderer(offscreenSize: size, scale: 1, options: beside)
        a.layer = root
        b.layer = root
        #expect(a.builder.shapeRasterThreads == 1 && b.builder.shapeRasterThreads == 3)
        for (n, t) in [0.0, 0.13, 0.4, 0.77, 0.9].enumerated() {
            let ia = try RenderHarness.frame(a, at: t), ib = try RenderHarness.frame(b, at: t)
            #expect(ia.rgba8Bytes == ib.rgba8Bytes, "t = \(t): the frames differ")
            #expect(a.builder.shapes.cache.deferredThisFrame == 0, "t = \(t): one thread defers nothing")
            #expect(b.statistics.shapeRasters >= 11, "t = \(t): \(b.statistics.shapeRasters) new rasters")
            // The first frame has no frame before it that made rasters: it defers only while
            // the drain started with the renderer still waits (timing), the others always.
            let deferred = b.builder.shapes.cache.deferredThisFrame
            if n > 0 { #expect(deferred >= 10, "t = \(t): \(deferred) rasters deferred") }
        }
    }

    /// A drain that has run out of rasters waits for more (`lingerNanoseconds`): the next
    /// frame's rasters start at once instead of waking a thread.
    @Test("a background drain that ran out of rasters takes the next one without a new drain")
    func lingeringDrain() throws {
        let queue = DeferredRasterQueue()
        queue.lingerNanoseconds.store(30_000_000_000, ordering: .relaxed)
        defer { queue.lingerNanoseconds.store(0, ordering: .relaxed) }
        queue.helpers = 1
        let request = ShapeRasterizer.Request(path: ShapeRasterSpanResolveTests.ring(radius: 30, center: CGPoint(x: 50, y: 50)),
                                              fill: true, evenOdd: false, stroke: nil, field: false,
                                              map: ShapeRasterSpanResolveTests.map(scale: 1, angle: 0),
                                              limit: ShapeRasterSpanResolveTests.noLimit, sparse: true)
        func waitForLingering() -> Bool {
            for _ in 0..<5_000 where !queue.hasLingeringDrain { usleep(1_000) }
            return queue.hasLingeringDrain
        }
        // The drain started with the helpers finds nothing, and waits.
        #expect(waitForLingering(), "no drain waits")
        let started = queue.drainsStarted
        for frame in 0..<3 {
            queue.submit(DeferredRaster(request: request, page: 0, x: 0, y: 0))
            let done = queue.finish()
            #expect(done.count == 1)
            if case .success(let r) = done.first?.result { #expect(r.width > 60 && r.height > 60) } else { Issue.record("frame \(frame): no raster") }
            #expect(waitForLingering(), "frame \(frame): the drain does not wait for the next raster")
        }
        #expect(queue.drainsStarted == started, "\(queue.drainsStarted - started) drains started for rasters a waiting drain could take")
    }

    @Test("a raster given its box draws the same as one that finds its own, and fills the box")
    func fixedBox() {
        var scratch = CoverageRasterizer(width: 0, height: 0)
        var bytes: [UInt8] = []
        let style = ShapeStrokeStyle(halfWidth: 1.7, cap: .round, join: .round, miterLimit: 10)
        for (path, fill) in [(ShapeRasterSpanResolveTests.star(), true), (ShapeRasterSpanResolveTests.ring(radius: 30, center: CGPoint(x: 50, y: 50)), false)] {
            var req = ShapeRasterizer.Request(path: path, fill: fill, evenOdd: false, stroke: style, field: false,
                                              map: ShapeRasterSpanResolveTests.map(scale: 1.3, angle: 0.2),
                                              limit: ShapeRasterSpanResolveTests.noLimit, sparse: true)
            guard case .success(let own) = ShapeRasterizer.rasterize(req, scratch: &scratch, resolveBuffer: &bytes), let ownRuns = own.spans else {
                Issue.record("no raster")
                continue
            }
            // A box 5 texels wider on every side than the raster's own crop.
            req.box = (own.originX - 5, own.originY - 5, own.originX + own.width + 5, own.originY + own.height + 5)
            guard case .success(let boxed) = ShapeRasterizer.rasterize(req, scratch: &scratch, resolveBuffer: &bytes), let runs = boxed.spans else {
                Issue.record("no raster in the box")
                continue
            }
            let placement: [Int] = [boxed.originX, boxed.originY, boxed.width, boxed.height]
            let expected: [Int] = [own.originX - 5, own.originY - 5, own.width + 10, own.height + 10]
            #expect(placement == expected)
            #expect(runs.width == boxed.width && runs.height == boxed.height && runs.isWellFormed)
            // The box's texels: the own raster's at (5, 5), nothing elsewhere (within a step of
            // rounding: texel positions are counted from another origin).
            let big = runs.denseCoverage(), small = ownRuns.denseCoverage()
            var worst = 0, differing = 0
            for y in 0..<boxed.height {
                for x in 0..<boxed.width {
                    for c in 0..<4 {
                        let inside = x >= 5 && y >= 5 && x < 5 + own.width && y < 5 + own.height
                        let want = inside ? Int(small[((y - 5) * own.width + (x - 5)) * 4 + c]) : 0
                        let d = abs(Int(big[(y * boxed.width + x) * 4 + c]) - want)
                        worst = max(worst, d)
                        if d != 0 { differing += 1 }
                    }
                }
            }
            #expect(worst <= 1 && differing <= 4, "worst \(worst), \(differing) bytes differ")
        }
        #expect(scratch.acc.allSatisfy { $0 == 0 } && scratch.touched.allSatisfy { $0 == 0 }, "scratch left dirty")
    }

    @Test("one channel's runs written straight are the runs the general resolve gives", arguments: [false, true])
    func directRunsEqualGeneralRuns(_ evenOdd: Bool) {
        // A self-overlapping star and a ring with a hole, at fractional positions.
        let star: [SIMD2<Double>] = (0..<10).map { i in
            let a = Double(i) * .pi / 5 * 2, r = 40.0
            return SIMD2(50.3 + r * cos(a), 47.7 + r * sin(a))
        }
        for stroke in [false, true] {
            var a = CoverageRasterizer(width: 101, height: 97), b = CoverageRasterizer(width: 101, height: 97)
            for rast in [0, 1] {
                if rast == 0 { a.addPolygon(star) } else { b.addPolygon(star) }
            }
            var starts: [Int32] = [], general: [(x0: Int32, x1: Int32, value: UInt8)] = []
            _ = a.takeResolvedRuns(evenOdd: evenOdd, rowStarts: &starts, runs: &general)
            var spanStarts: [Int32] = [], spans: [ShapeCoverageSpans.Run] = []
            b.takeResolvedSpans(evenOdd: evenOdd, stroke: stroke, rowStarts: &spanStarts, runs: &spans)
            #expect(starts == spanStarts)
            let expected = general.map { ShapeCoverageSpans.Run(x: UInt16($0.x0), count: UInt16($0.x1 - $0.x0), fill: stroke ? 0 : $0.value, stroke: stroke ? $0.value : 0) }
            #expect(spans == expected)
            #expect(!spans.isEmpty)
            #expect(b.acc.allSatisfy { $0 == 0 } && b.touched.allSatisfy { $0 == 0 }, "left dirty")
        }
    }

    /// `n` strokes wider than the frame (FrameWorkBudgetTests' shapes), each scaled by an
    /// animation so every frame makes every raster again.
    static func wideStrokes(_ n: Int) -> CALayer {
        let root = FrameWorkBudgetTests().wideStrokes(n)
        for (i, s) in (root.sublayers ?? []).enumerated() {
            let a = CABasicAnimation(keyPath: "transform.scale")
            a.fromValue = 0.9 + 0.001 * Double(i)
            a.toValue = 1.1
            a.duration = 1
            s.add(a, forKey: "scale")
        }
        return root
    }

    @Test("rasters made beside the walk keep to the frame's work budget, with a warning for what does not fit")
    func workBudget() throws {
        let probe = RenderTreeBuilder()
        probe.makesShapeRuns = true
        _ = probe.build(root: Self.wideStrokes(1), width: 200, height: 150, scale: 1)
        let perShape = probe.shapeWorkThisFrame
        #expect(perShape > 200 * 150)
        let builder = RenderTreeBuilder()
        builder.makesShapeRuns = true
        builder.shapeRasterThreads = 2
        builder.shapes.deferringRasters = 0
        builder.shapeWorkBudget = 6 * perShape
        let root = Self.wideStrokes(40)
        for _ in 0..<3 {
            let ((frame, stats), warnings) = RenderDiagnostics.capture {
                builder.build(root: root, width: 200, height: 150, scale: 1)
            }
            #expect(builder.shapes.cache.deferredThisFrame > 0, "nothing deferred")
            #expect((1...6).contains(stats.shapeRasters), "\(stats.shapeRasters) rasters for a budget of about six")
            #expect(builder.shapeWorkThisFrame <= 6 * perShape, "\(builder.shapeWorkThisFrame) work for a budget of \(6 * perShape)")
            #expect(warnings.contains { $0.contains("work budget") }, "\(warnings)")
            // Every deferred raster has its upload, as runs (empty where it was not made).
            let runs = frame.shapeUploads.filter { $0.spans?.isWellFormed == true }
            #expect(runs.count >= builder.shapes.cache.deferredThisFrame)
        }
    }
}
