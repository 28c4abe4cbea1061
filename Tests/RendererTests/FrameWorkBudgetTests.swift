import Testing
import Foundation

/// Issue 17 item 6: one frame had no time budget (300 shapes stroked 5,000 px wide took
/// minutes). New shape rasters now share a per-frame work budget (`ShapeCache`): the shapes
/// that fit draw, the rest are skipped that frame with a warning, and the work is bounded by
/// the budget, not by the input. Sized down (a lowered budget) so a debug build stays quick.
@Suite struct FrameWorkBudgetTests {
    /// `n` shapes whose strokes are wider than the whole 200×150 frame: each raster visits
    /// every texel and crosses every row many times.
    func wideStrokes(_ n: Int) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 150)
        for i in 0..<n {
            let s = CAShapeLayer()
            s.frame = root.bounds
            let p = CGMutablePath()
            p.move(to: CGPoint(x: 10 + Double(i), y: 10))
            p.addCurve(to: CGPoint(x: 190, y: 140), control1: CGPoint(x: 300, y: -50), control2: CGPoint(x: -100, y: 200))
            p.addLine(to: CGPoint(x: 20, y: 130 - Double(i)))
            s.path = p
            s.fillColor = nil
            s.strokeColor = CGColor(red: 1, green: 0, blue: 0, alpha: 0.5)
            s.lineWidth = 1_000
            s.lineJoin = .round
            root.addSublayer(s)
        }
        return root
    }

    @Test func newRastersStopAtTheFramesWorkBudgetWithAWarning() throws {
        let root = wideStrokes(40)
        // Measure what one shape costs with no budget, then allow about five of them.
        let free = RenderTreeBuilder()
        let (_, one) = free.build(root: wideStrokes(1), width: 200, height: 150, scale: 1)
        #expect(one.shapeRasters == 1)
        let perShape = free.shapeWorkThisFrame
        #expect(perShape > 200 * 150, "a stroke wider than the frame visits every texel at least once: \(perShape)")
        let builder = RenderTreeBuilder()
        builder.shapeWorkBudget = 5 * perShape
        let ((_, stats), warnings) = RenderDiagnostics.capture {
            builder.build(root: root, width: 200, height: 150, scale: 1)
        }
        #expect((3...6).contains(stats.shapeRasters), "\(stats.shapeRasters) rasters for a budget of about five")
        #expect(builder.shapeWorkThisFrame <= 5 * perShape + perShape / 2)
        #expect(warnings.contains { $0.contains("work budget") }, "\(warnings)")
    }

    @Test func theBudgetIsPerFrameAndCachedRastersCostNothing() throws {
        let root = wideStrokes(12)
        let probe = RenderTreeBuilder()
        _ = probe.build(root: wideStrokes(1), width: 200, height: 150, scale: 1)
        let builder = RenderTreeBuilder()
        builder.shapeWorkBudget = 3 * probe.shapeWorkThisFrame
        var drawn: [Int] = []
        for _ in 0..<12 {
            let ((_, stats), _) = RenderDiagnostics.capture { builder.build(root: root, width: 200, height: 150, scale: 1) }
            drawn.append(stats.shapeRasters)
        }
        // Each frame rasterises a few new shapes (the budget renews) while the ones cached
        // before draw for free, so after some frames every shape is drawn and nothing is new.
        #expect(drawn.first! > 0 && drawn.first! < 12, "\(drawn)")
        #expect(drawn.reduce(0, +) >= 12, "\(drawn)")
        #expect(drawn.last == 0, "\(drawn)")
    }

    @Test func aNormalSceneIsFarBelowTheDefaultBudget() throws {
        // The default is documented against the 1,000-shape stress scene (about 35 M of 200 M);
        // here: the whole 40-shape frame above fits the default with room to spare.
        let builder = RenderTreeBuilder()
        let ((_, stats), warnings) = RenderDiagnostics.capture {
            builder.build(root: wideStrokes(40), width: 200, height: 150, scale: 1)
        }
        #expect(stats.shapeRasters == 40)
        #expect(!warnings.contains { $0.contains("work budget") })
    }
}
