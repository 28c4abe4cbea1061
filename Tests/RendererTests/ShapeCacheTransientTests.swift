import Testing
import Foundation
import CATestSupport
@testable import CARender

/// Rasters no frame used after the one that made them (`ShapeCache.dropTransientEntries`): a
/// shape that changes every frame (here a trimmed stroke, as Lottie's TwitterHeart's dots) makes
/// a raster a frame that no later frame asks for. Kept like a still shape's for
/// `ShapeCache.maxIdleFrames`, they filled the table by thousands (issue 23); a build drops
/// those no build drew since the one that filed them (`ShapeCache.transientFrames` builds on),
/// and a still shape's raster stays.
@Suite struct ShapeCacheTransientTests {
    /// A still stroked line and one whose `strokeEnd` animates, round-capped.
    static func scene() -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 120, height: 80)
        root.anchorPoint = .zero
        func shape(_ y: Double) -> CAShapeLayer {
            let s = CAShapeLayer()
            s.frame = CGRect(x: 0, y: y, width: 120, height: 40)
            let p = CGMutablePath()
            p.move(to: CGPoint(x: 10, y: 20))
            p.addLine(to: CGPoint(x: 110, y: 20))
            s.path = p
            s.strokeColor = solid(0.9, 0.4, 0.1)
            s.fillColor = nil
            s.lineWidth = 6
            s.lineCap = .round
            root.addSublayer(s)
            return s
        }
        _ = shape(0)
        let trimmed = shape(40)
        let a = basic("strokeEnd", from: 0.1, to: 1, duration: 10)
        // (Not 0, which a commit replaces with the current time: frames are rendered at 0.05 …)
        a.beginTime = 0.001
        trimmed.add(a, forKey: "trim")
        return root
    }

    @Test("under patches a trimmed stroke's rasters wait for the builds, which drop those they did not draw",
          arguments: [1, 3])
    func transientRastersWaitForBuilds(threads: Int) throws {
        let root = Self.scene()
        var options = CARenderer.Options(backend: .software)
        options.shapeRasterThreads = threads
        let r = try CARenderer(offscreenSize: root.bounds.size, scale: 1, options: options)
        r.layer = root
        let cache = r.builder.shapes.cache
        // Only the trimmed stroke changes, so frames after the first are patches: each makes a
        // raster, kept (a patch does not judge: a still shape's raster is not drawn by it).
        for k in 0..<20 {
            _ = try RenderHarness.frame(r, at: 0.05 + 0.2 * Double(k))
            if k > 0 { #expect(r.statistics.shapeRasters == 1, "frame \(k): only the trimmed stroke is rasterised again") }
        }
        #expect(cache.frameNumber == 1, "one build")
        #expect(cache.entries.count == 21)
        // Two builds (a new sublayer changes the tree's structure): the second drops every
        // raster the first did not draw; the still shape's stays.
        for k in 20..<22 {
            root.addSublayer(CALayer())
            CATransaction.flush()
            _ = try RenderHarness.frame(r, at: 0.05 + 0.2 * Double(k))
            #expect(r.statistics.shapeRasters == 1, "frame \(k): only the trimmed stroke is rasterised again")
        }
        #expect(cache.frameNumber == 3)
        #expect(cache.entries.count == 1 + ShapeCache.transientFrames, "the still shape's and the two builds' trimmed strokes")
    }

    @Test("frames that are builds keep the still shape's raster and the trimmed stroke's of the last two builds")
    func transientRastersDroppedUnderBuilds() throws {
        let root = Self.scene()
        let r = try CARenderer(offscreenSize: root.bounds.size, scale: 1, options: CARenderer.Options(backend: .software))
        r.layer = root
        let cache = r.builder.shapes.cache
        var sizes: [Int] = []
        for k in 0..<40 {
            // A new sublayer every frame changes the tree's structure: every frame is a build.
            root.addSublayer(CALayer())
            CATransaction.flush()
            _ = try RenderHarness.frame(r, at: 0.05 + 0.2 * Double(k))
            #expect(cache.frameNumber == k + 1, "frame \(k) is a build")
            sizes.append(cache.entries.count)
            if k > 0 { #expect(r.statistics.shapeRasters == 1, "frame \(k): only the trimmed stroke is rasterised again") }
        }
        #expect(sizes.suffix(38).allSatisfy { $0 == 1 + ShapeCache.transientFrames }, "\(sizes)")
    }

    @Test("a frame drawn again at the same time uses the rasters it made and keeps them")
    func repeatedFrameKeepsItsRasters() throws {
        let root = Self.scene()
        let r = try CARenderer(offscreenSize: root.bounds.size, scale: 1, options: CARenderer.Options(backend: .software))
        r.layer = root
        let first = try RenderHarness.frame(r, at: 1.3)
        for _ in 0..<4 {
            let again = try RenderHarness.frame(r, at: 1.3)
            #expect(r.statistics.shapeRasters == 0, "nothing rasterised again")
            #expect(again.rgba8Bytes == first.rgba8Bytes)
        }
    }
}
