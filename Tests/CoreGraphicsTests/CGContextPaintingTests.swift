import Testing

/// Painting paths, rects, ellipses and lines (Apple: CGContext fillPath(using:), strokePath(),
/// drawPath(using:), fill(_:), stroke(_:width:), fillEllipse(in:), strokeLineSegments(between:),
/// replacePathWithStrokedPath(); line state setters). Expected coverage is worked out by hand:
/// exact-area antialiasing gives a pixel the fraction of its area inside the shape.
@Suite struct CGContextPaintingTests {
    static func alpha(_ ctx: CGContext, _ x: Int, _ row: Int) -> UInt8 { bytes(ctx, x, row)[3] }

    /// Two squares wound the same way: 0…4 and 1…3.
    static func nestedSquares(_ ctx: CGContext) {
        ctx.addRect(CGRect(x: 0, y: 0, width: 4, height: 4))
        ctx.addRect(CGRect(x: 1, y: 1, width: 2, height: 2))
    }

    @Test("fillPath: non-zero fills the inner square, even-odd leaves it a hole")
    func fillRules() {
        let nz = rgbaContext(4, 4)
        Self.nestedSquares(nz)
        nz.fillPath(using: .winding)
        #expect(Self.alpha(nz, 1, 1) == 255 && Self.alpha(nz, 0, 0) == 255)
        let eo = rgbaContext(4, 4)
        Self.nestedSquares(eo)
        eo.fillPath(using: .evenOdd)
        #expect(Self.alpha(eo, 1, 1) == 0 && Self.alpha(eo, 2, 2) == 0 && Self.alpha(eo, 0, 0) == 255)
        #expect(eo.isPathEmpty)
    }

    @Test("strokePath: a 2-wide horizontal line at y = 2 covers rows 1 and 2 fully; a 1-wide one half of each")
    func strokeWidths() {
        let ctx = rgbaContext(4, 4)
        ctx.setLineWidth(2)
        ctx.move(to: CGPoint(x: 0, y: 2)); ctx.addLine(to: CGPoint(x: 4, y: 2))
        ctx.strokePath()
        #expect((0..<4).allSatisfy { Self.alpha(ctx, $0, 1) == 255 && Self.alpha(ctx, $0, 2) == 255 })
        #expect(Self.alpha(ctx, 0, 0) == 0 && Self.alpha(ctx, 0, 3) == 0)
        let thin = rgbaContext(4, 4)
        thin.move(to: CGPoint(x: 0, y: 2)); thin.addLine(to: CGPoint(x: 4, y: 2))
        thin.strokePath()
        #expect(Self.alpha(thin, 1, 1) == 128 && Self.alpha(thin, 1, 2) == 128)
    }

    @Test("line width 0 strokes the thinnest line: one device pixel wide (Apple)")
    func hairline() {
        let ctx = rgbaContext(4, 3)
        ctx.scaleBy(x: 10, y: 10)
        ctx.setLineWidth(0)
        ctx.move(to: CGPoint(x: 0, y: 0.15)); ctx.addLine(to: CGPoint(x: 0.4, y: 0.15))   // device y = 1.5
        ctx.strokePath()
        #expect(Self.alpha(ctx, 2, 1) == 255 && Self.alpha(ctx, 2, 0) == 0 && Self.alpha(ctx, 2, 2) == 0)
        // Its dashes stay in user units: [0.1, 0.1] at scale 10 is 1 px on, 1 px off.
        let dashed = rgbaContext(4, 1)
        dashed.scaleBy(x: 10, y: 10)
        dashed.setLineWidth(0)
        dashed.setLineDash(phase: 0, lengths: [0.1, 0.1])
        dashed.move(to: CGPoint(x: 0, y: 0.05)); dashed.addLine(to: CGPoint(x: 0.4, y: 0.05))
        dashed.strokePath()
        #expect((0..<4).map { Self.alpha(dashed, $0, 0) } == [255, 0, 255, 0])
    }

    @Test("caps: butt stops at the end, square goes half the width past it")
    func caps() {
        for (cap, lastColumn) in [(CGLineCap.butt, 2), (.square, 3)] {
            let ctx = rgbaContext(6, 2)
            ctx.setLineWidth(2)
            ctx.setLineCap(cap)
            ctx.move(to: CGPoint(x: 1, y: 1)); ctx.addLine(to: CGPoint(x: 3, y: 1))
            ctx.strokePath()
            #expect(Self.alpha(ctx, lastColumn, 0) == 255, "\(cap)")
            #expect(Self.alpha(ctx, lastColumn + 1, 0) == 0, "\(cap)")
        }
    }

    @Test("dashes: [2, 2] on an 8-pixel line paints pixels 0–1 and 4–5")
    func dashes() {
        let ctx = rgbaContext(8, 1)
        ctx.setLineDash(phase: 0, lengths: [2, 2])
        ctx.move(to: CGPoint(x: 0, y: 0.5)); ctx.addLine(to: CGPoint(x: 8, y: 0.5))
        ctx.strokePath()
        #expect((0..<8).map { Self.alpha(ctx, $0, 0) } == [255, 255, 0, 0, 255, 255, 0, 0])
        // Phase 1 shifts the pattern left by one.
        let shifted = rgbaContext(8, 1)
        shifted.setLineDash(phase: 1, lengths: [2, 2])
        shifted.move(to: CGPoint(x: 0, y: 0.5)); shifted.addLine(to: CGPoint(x: 8, y: 0.5))
        shifted.strokePath()
        #expect((0..<8).map { Self.alpha(shifted, $0, 0) } == [255, 0, 0, 255, 255, 0, 0, 255])
    }

    @Test("bad dash patterns (zero, negative, NaN lengths) stroke solid with a warning")
    func badDashes() {
        for lengths: [CGFloat] in [[0, 0], [-1, 2], [.nan, 1], [2, -.infinity]] {
            let ctx = rgbaContext(4, 1)
            let (_, warnings) = CGDiagnostics.capture { ctx.setLineDash(phase: 0, lengths: lengths) }
            #expect(warnings.contains { $0.contains("setLineDash") })
            ctx.move(to: CGPoint(x: 0, y: 0.5)); ctx.addLine(to: CGPoint(x: 4, y: 0.5))
            ctx.strokePath()
            #expect((0..<4).allSatisfy { Self.alpha(ctx, $0, 0) == 255 })
        }
    }

    /// A painted path's object is emptied and reused for the next path (`takeCurrentPath`):
    /// a copy taken before painting keeps its elements, the next path starts empty, and a
    /// second fill paints only the second path.
    @Test("painting clears the path; copies taken before keep theirs; the next path starts empty")
    func paintedPathStorageIsReused() {
        let ctx = rgbaContext(8, 8)
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.addRect(CGRect(x: 0, y: 0, width: 2, height: 2))
        let before = ctx.path
        ctx.fillPath()
        #expect(ctx.isPathEmpty)
        #expect(before?.boundingBox == CGRect(x: 0, y: 0, width: 2, height: 2))
        ctx.addRect(CGRect(x: 5, y: 5, width: 2, height: 2))
        #expect(ctx.boundingBoxOfPath == CGRect(x: 5, y: 5, width: 2, height: 2))
        ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        ctx.fillPath()
        #expect(before?.boundingBox == CGRect(x: 0, y: 0, width: 2, height: 2))
        // Rows from the top: the first rect at the bottom left, red; the second at the top right, blue.
        #expect(bytes(ctx, 0, 7) == [255, 0, 0, 255])
        #expect(bytes(ctx, 6, 1) == [0, 0, 255, 255])
        #expect(bytes(ctx, 0, 1) == [0, 0, 0, 0])
        #expect(bytes(ctx, 6, 7) == [0, 0, 0, 0])
        ctx.addRect(CGRect(x: 3, y: 3, width: 1, height: 1))
        ctx.clip()
        #expect(ctx.isPathEmpty)
        ctx.addRect(CGRect(x: 0, y: 0, width: 1, height: 1))
        ctx.strokePath()
        #expect(ctx.isPathEmpty)
    }

    @Test("drawPath(using:) in every mode; fillStroke paints the stroke over the fill")
    func drawModes() {
        func run(_ mode: CGPathDrawingMode) -> CGContext {
            let ctx = rgbaContext(6, 6)
            ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
            ctx.setStrokeColor(red: 0, green: 0, blue: 1, alpha: 1)
            ctx.setLineWidth(2)
            ctx.addRect(CGRect(x: 1, y: 1, width: 4, height: 4))
            ctx.addRect(CGRect(x: 2, y: 2, width: 2, height: 2))
            ctx.drawPath(using: mode)
            #expect(ctx.isPathEmpty)
            return ctx
        }
        // Pixel (0, 0) from the top: outside the fill, inside the outer stroke (x 0…2, y 4…6).
        // Pixel (2, 2): inside the inner square's stroke band, inside the fill (non-zero).
        #expect(bytes(run(.fill), 0, 0) == [0, 0, 0, 0])
        #expect(bytes(run(.fill), 4, 1) == [255, 0, 0, 255])
        #expect(bytes(run(.eoFill), 4, 1) == [255, 0, 0, 255])
        #expect(bytes(run(.stroke), 0, 0) == [0, 0, 255, 255])
        #expect(bytes(run(.stroke), 4, 4) == [0, 0, 255, 255])
        #expect(bytes(run(.fillStroke), 2, 2) == [0, 0, 255, 255])
        #expect(bytes(run(.eoFillStroke), 0, 0) == [0, 0, 255, 255])
    }

    @Test("fill([rects]), stroke(_:), stroke(_:width:) (line width left as it was)")
    func rectCalls() {
        let ctx = rgbaContext(6, 6)
        ctx.fill([CGRect(x: 0, y: 0, width: 1, height: 1), CGRect(x: 5, y: 5, width: 1, height: 1)])
        #expect(Self.alpha(ctx, 0, 5) == 255 && Self.alpha(ctx, 5, 0) == 255 && Self.alpha(ctx, 3, 3) == 0)
        let s = rgbaContext(6, 6)
        s.stroke(CGRect(x: 1, y: 1, width: 4, height: 4), width: 2)
        #expect(Self.alpha(s, 0, 0) == 255 && Self.alpha(s, 1, 1) == 255 && Self.alpha(s, 2, 2) == 0)
        s.stroke(CGRect(x: 2.5, y: 2.5, width: 1, height: 1))    // width 1 again: edges on pixel centres' borders
        #expect(Self.alpha(s, 2, 2) == 255 && Self.alpha(s, 3, 3) == 255)
    }

    @Test("fillEllipse: exact-area coverage adds up to πr² and the centre is full")
    func ellipseArea() {
        let ctx = rgbaContext(24, 24)
        ctx.fillEllipse(in: CGRect(x: 2, y: 2, width: 20, height: 20))
        var sum = 0.0
        for y in 0..<24 { for x in 0..<24 { sum += Double(Self.alpha(ctx, x, y)) / 255 } }
        #expect(abs(sum - Double.pi * 100) < 1.0, "\(sum)")
        #expect(Self.alpha(ctx, 12, 12) == 255 && Self.alpha(ctx, 2, 2) == 0)
        let ring = rgbaContext(24, 24)
        ring.setLineWidth(2)
        ring.strokeEllipse(in: CGRect(x: 2, y: 2, width: 20, height: 20))
        #expect(Self.alpha(ring, 12, 12) == 0 && Self.alpha(ring, 12, 2) >= 254)
        // Ring area: π(11² − 9²) = 40π.
        var ringSum = 0.0
        for y in 0..<24 { for x in 0..<24 { ringSum += Double(Self.alpha(ring, x, y)) / 255 } }
        #expect(abs(ringSum - 40 * Double.pi) < 1.5, "\(ringSum)")
    }

    @Test("strokeLineSegments pairs points; an odd last point is ignored")
    func lineSegments() {
        let ctx = rgbaContext(4, 4)
        ctx.strokeLineSegments(between: [CGPoint(x: 0, y: 0.5), CGPoint(x: 4, y: 0.5),
                                         CGPoint(x: 0.5, y: 2), CGPoint(x: 0.5, y: 4), CGPoint(x: 3, y: 3)])
        #expect(Self.alpha(ctx, 3, 3) == 255 && Self.alpha(ctx, 0, 0) == 255 && Self.alpha(ctx, 3, 0) == 0)
        #expect(Self.alpha(ctx, 2, 1) == 0)
    }

    @Test("replacePathWithStrokedPath then fillPath paints what strokePath paints")
    func strokedPath() {
        func draw(_ replace: Bool) -> [UInt8] {
            let ctx = rgbaContext(12, 12)
            ctx.setLineWidth(3)
            ctx.setLineJoin(.round)
            ctx.move(to: CGPoint(x: 2, y: 2)); ctx.addLine(to: CGPoint(x: 9, y: 3)); ctx.addLine(to: CGPoint(x: 4, y: 10))
            if replace { ctx.replacePathWithStrokedPath(); ctx.fillPath() } else { ctx.strokePath() }
            return ctx.makeImage()!.rgba8Bytes
        }
        #expect(draw(true) == draw(false))
    }

    @Test("setAlpha scales what is drawn; setShouldAntialias(false) paints a pixel when at least half is covered")
    func alphaAndAntialias() {
        let ctx = rgbaContext(4, 1)
        ctx.setAlpha(0.5)
        ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(bytes(ctx, 0, 0) == [0, 0, 0, 128])
        ctx.setAlpha(1)
        ctx.setShouldAntialias(false)
        ctx.fill(CGRect(x: 1.4, y: 0, width: 1.2, height: 1))   // covers 0.6 of pixel 1, 0.6 of pixel 2
        ctx.fill(CGRect(x: 3.6, y: 0, width: 0.4, height: 1))   // 0.4 of pixel 3
        #expect(Self.alpha(ctx, 1, 0) == 255 && Self.alpha(ctx, 2, 0) == 255 && Self.alpha(ctx, 3, 0) == 0)
    }

    @Test("NaN and infinite coordinates draw nothing and do not crash (documented: ignored)")
    func nonFinite() {
        let ctx = rgbaContext(4, 4)
        ctx.fill(CGRect(x: CGFloat.nan, y: 0, width: 2, height: 2))
        ctx.fill(CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 2))
        ctx.move(to: CGPoint(x: CGFloat.nan, y: 1)); ctx.addLine(to: CGPoint(x: 3, y: CGFloat.infinity))
        ctx.strokePath()
        ctx.fillEllipse(in: CGRect(x: 0, y: 0, width: CGFloat.nan, height: 1))
        ctx.translateBy(x: .nan, y: 0)
        ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(ctx.makeImage()!.rgba8Bytes.allSatisfy { $0 == 0 })
        // Huge but finite geometry is clamped, and covers the bitmap.
        let big = rgbaContext(2, 2)
        big.fill(CGRect(x: -1e30, y: -1e30, width: 2e30, height: 2e30))
        #expect(bytes(big, 1, 1) == [0, 0, 0, 255])
        big.setLineWidth(1e20)
        big.move(to: .zero); big.addLine(to: CGPoint(x: 1, y: 1))
        big.strokePath()
    }

    @Test("a 1-wide stroke of an integer rect: outer corner ¼, edge ½, inner corner ¾ covered (no double-counted overlap)")
    func rectStrokeCorners() {
        let ctx = rgbaContext(4, 4)
        ctx.stroke(CGRect(x: 1, y: 1, width: 2, height: 2))
        // Bands 0.5…1.5 around each edge, mitred corners. Pixel [0,1]² (row 3): [0.5,1]² = 0.25.
        #expect(Self.alpha(ctx, 0, 3) == 64)
        // Pixel [1,2]×[0,1] (row 3): the bottom band's upper half, 0.5 → 127.5.
        #expect(Self.alpha(ctx, 1, 3) == 128)
        // Pixel [1,2]² (row 2): inside both the left and bottom bands' halves: 1 − 0.5·0.5 = 0.75.
        #expect(Self.alpha(ctx, 1, 2) == 191)
        for join in [CGLineJoin.bevel, .round] {
            let j = rgbaContext(4, 4)
            j.setLineJoin(join)
            j.stroke(CGRect(x: 1, y: 1, width: 2, height: 2))
            #expect(Self.alpha(j, 1, 2) == 191, "\(join)")                 // the inner side does not change
            #expect(Self.alpha(j, 0, 3) < 64, "\(join)")                   // the outer corner is cut
        }
    }

    @Test("round caps: an 8-long, 4-wide line covers 8·4 + π·2² pixels in total (caps add exactly two half discs)")
    func roundCapArea() {
        let ctx = rgbaContext(16, 10)
        ctx.setLineWidth(4)
        ctx.setLineCap(.round)
        ctx.move(to: CGPoint(x: 4, y: 5.3)); ctx.addLine(to: CGPoint(x: 12, y: 5.3))
        ctx.strokePath()
        var sum = 0.0
        for y in 0..<10 { for x in 0..<16 { sum += Double(Self.alpha(ctx, x, y)) / 255 } }
        #expect(abs(sum - (32 + 4 * Double.pi)) < 0.25, "\(sum)")
    }

    /// The pen's disc at a round join is needed only between the two segments' outer normals:
    /// where the join is a piece of its own (segments short against the width, so the band
    /// cannot take it) that piece is the sector, and nothing is covered twice. (The whole disc
    /// it once was overlapped the rectangles' ends, which the area rasteriser counted twice in
    /// the partly covered pixels there: about half a pixel too much on this corner.)
    @Test("round join: an L of two 3-long, 4-wide segments covers 2·12 − 4 + π·2²/4 pixels (the join adds a quarter disc)")
    func roundJoinArea() {
        let ctx = rgbaContext(16, 16)
        ctx.setLineWidth(4)
        ctx.setLineJoin(.round)
        // The rectangles' shared square has whole-pixel rows (y = 5…7) and one whole-pixel
        // column inside each, so their own overlap is never counted twice; the corner at
        // x = 7.5 leaves the first rectangle's end half a pixel, where a whole disc overlapped it.
        ctx.move(to: CGPoint(x: 4.5, y: 5)); ctx.addLine(to: CGPoint(x: 7.5, y: 5)); ctx.addLine(to: CGPoint(x: 7.5, y: 8))
        ctx.strokePath()
        var sum = 0.0
        for y in 0..<16 { for x in 0..<16 { sum += Double(Self.alpha(ctx, x, y)) / 255 } }
        // Two 3 × 4 rectangles sharing a 2 × 2 square, and the quarter disc outside the corner.
        #expect(abs(sum - (24 - 4 + Double.pi)) < 0.1, "\(sum)")
    }
}
