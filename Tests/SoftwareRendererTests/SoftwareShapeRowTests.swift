import Testing
import CAFrame
@testable import CARender
@testable import CASoftware

/// The CPU backend's shape rows (`SoftwareShapeRows.swift`): empty runs skipped, interior runs
/// blended as spans (`SoftwareCoverageRuns.swift`), raster rows prefetched — against the
/// per-texel port of shape.frag (`usesRowPaths = false`), which reads every texel of the quad.
@Suite struct SoftwareShapeRowTests {
    /// A five-pointed star of outer radius `r` at (cx, cy).
    static func star(_ cx: CGFloat, _ cy: CGFloat, _ r: CGFloat) -> CGPath {
        let p = CGMutablePath()
        for k in 0..<10 {
            let a = CGFloat(k) * .pi / 5 + 0.3
            let rr = k % 2 == 0 ? r : 0.45 * r
            let pt = CGPoint(x: cx + rr * cos(a), y: cy + rr * sin(a))
            if k == 0 { p.move(to: pt) } else { p.addLine(to: pt) }
        }
        p.closeSubpath()
        return p
    }

    static func shape(_ path: CGPath, fill: CGColor?, stroke: CGColor?, width: CGFloat = 3,
                      configure: (CAShapeLayer) -> Void = { _ in }) -> CAShapeLayer {
        let s = CAShapeLayer()
        s.frame = CGRect(x: 0, y: 0, width: 160, height: 120)
        s.path = path
        s.fillColor = fill
        s.strokeColor = stroke
        s.lineWidth = width
        configure(s)
        return s
    }

    /// Translucent and opaque interiors over each other and over a backdrop, strokes trimmed
    /// and dashed, a shape cut by the frame's edge, and one placed a quarter texel off.
    static func scene() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 160, height: 120)
        root.backgroundColor = CGColor(red: 0.1, green: 0.2, blue: 0.6, alpha: 1)
        root.addSublayer(shape(star(50, 55, 40), fill: CGColor(red: 0.9, green: 0.5, blue: 0.1, alpha: 0.8),
                               stroke: CGColor(red: 0, green: 0, blue: 0, alpha: 1)) { $0.strokeEnd = 0.6 })
        root.addSublayer(shape(star(80, 60, 45), fill: CGColor(red: 0.2, green: 0.9, blue: 0.3, alpha: 0.5),
                               stroke: CGColor(red: 1, green: 1, blue: 1, alpha: 0.7), width: 5) { $0.lineDashPattern = [6, 3] })
        root.addSublayer(shape(star(150, 100, 30), fill: CGColor(red: 1, green: 0, blue: 0, alpha: 1), stroke: nil))
        let off = shape(star(110, 35, 25), fill: CGColor(red: 0.5, green: 0.5, blue: 1, alpha: 0.9),
                        stroke: CGColor(red: 0.3, green: 0, blue: 0.3, alpha: 1), width: 2)
        off.position.x += 0.25
        root.addSublayer(off)
        return root
    }

    /// Strokes whose `lineWidth` animates, drawn from width-free fields: trimmed, with round and
    /// butt caps, over a translucent fill and over each other.
    static func widthScene() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 160, height: 120)
        root.backgroundColor = CGColor(red: 0.9, green: 0.9, blue: 0.8, alpha: 1)
        for (k, cap) in [CAShapeLayerLineCap.round, .butt, .square].enumerated() {
            let s = shape(star(40 + 40 * CGFloat(k), 60, 35), fill: CGColor(red: 0.1, green: 0.3 * CGFloat(k), blue: 0.8, alpha: 0.7),
                          stroke: CGColor(red: 0.8, green: 0.1, blue: 0.1, alpha: 0.9), width: 3 + 2 * CGFloat(k)) {
                $0.lineCap = cap
                $0.strokeEnd = 0.8
            }
            let w = CABasicAnimation(keyPath: "lineWidth")
            w.fromValue = 2.0; w.toValue = 9.0; w.duration = 1
            s.add(w, forKey: "widen")
            root.addSublayer(s)
        }
        return root
    }

    /// Draws `frame` both ways (two threads) and bounds the difference: each 8-bit blend is within
    /// one level of the float blend, and the levels add up where translucent shapes and their
    /// strokes overlap, up to two here.
    static func expectRowsMatchTexels(_ frame: RenderFrame) throws -> [UInt8] {
        let rows = try SoftwareRowPathTests.render(frame, rowPaths: true, threads: 2)
        let texels = try SoftwareRowPathTests.render(frame, rowPaths: false, threads: 2)
        let differences = zip(rows, texels).map { abs(Int($0) - Int($1)) }
        let worst = differences.max() ?? 0
        #expect(worst <= 2, "largest difference \(worst)")
        let offByTwo = differences.filter { $0 > 1 }.count
        #expect(offByTwo * 200 <= differences.count, "\(offByTwo) of \(differences.count) bytes differ by 2")
        return rows
    }

    @Test("shape rows draw the per-texel path's pixels (±1 level a blend they pass through), interiors as spans")
    func rowsMatchTexels() throws {
        let (frame, _) = RenderTreeBuilder().build(root: Self.scene(), width: 160, height: 120, scale: 1)
        #expect(frame.shapes.count == 4)
        let rows = try Self.expectRowsMatchTexels(frame)
        // Something was drawn: the opaque red star's centre (150, 100) is red.
        let i = (100 * 160 + 150) * 4
        #expect(Array(rows[i..<i + 4]) == [255, 0, 0, 255])
    }

    @Test("lineWidth-animated strokes: the rows' width-free field coverage is the per-texel path's")
    func widthFieldRowsMatchTexels() throws {
        let (frame, _) = RenderTreeBuilder().build(root: Self.widthScene(), width: 160, height: 120, scale: 1)
        let batches = frame.passes.flatMap { pass -> [Batch] in if case .draw(let b) = pass.kind { return b } else { return [] } }
        #expect(batches.contains { b in
            if case .shape = b.pipeline { return b.variant.contains(.shapeWidthField) } else { return false }
        }, "drawn from width-free fields")
        _ = try Self.expectRowsMatchTexels(frame)
    }

    @Test("lineWidth-animated strokes: the band four texels at a time draws the rows' texel-by-texel bytes")
    func widthBandFourWideIsExact() throws {
        let (frame, _) = RenderTreeBuilder().build(root: Self.widthScene(), width: 160, height: 120, scale: 1)
        let fast = try SoftwareInteriorLoopTests.render(frame, interior: true, threads: 2)
        let single = try SoftwareInteriorLoopTests.render(frame, interior: false, threads: 2)
        #expect(SoftwareRowPathTests.maxDifference(fast, single) == 0)
    }
}
