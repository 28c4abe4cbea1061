import Testing

/// The solid walk's held-back vertical runs (CCoverage.h `ca_edge_sink`, SolidSpanWalk.c
/// `heldSpans`): a vertical edge's whole rows are not written to rows no other edge touches, and
/// the walk works out those rows' spans once for every row with the same runs over it. That must
/// give exactly the bytes of the general per-pixel loop, which reads every cell: sides on and off
/// pixel boundaries, partial first and last rows, sides sharing a cell, sides cancelling, more
/// sides than the room for held runs, rows that other edges touch later than the sides, paths
/// partly off the bitmap, even-odd rings, a clip, and the context's scratch rasteriser reused by
/// a clip's coverage between fills.
@Suite struct CGContextHeldVerticalRunTests {
    struct Rng {
        var s: UInt32
        mutating func unit() -> CGFloat { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return CGFloat(s % 10_000) / 10_000 }
    }

    /// A context over a grey background (so that translucent fills blend), drawn by `body`
    /// through the span path or the general loop; its bytes.
    static func draw(spans: Bool, _ body: (CGContext) -> Void) -> [UInt8] {
        let w = 83, h = 57
        let ctx = CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        ctx.usesSpanLoops = spans
        ctx.setFillColor(CGColor(red: 0.4, green: 0.5, blue: 0.6, alpha: 0.7))
        ctx.fill(CGRect(x: 0, y: 0, width: w, height: h))
        body(ctx)
        return Array(UnsafeBufferPointer(start: ctx.data!.assumingMemoryBound(to: UInt8.self), count: ctx.bytesPerRow * h))
    }

    /// How many pixels differ between the span path and the general loop for `body` (which
    /// runs twice, so it makes its random numbers afresh each time).
    static func differing(_ body: (CGContext) -> Void) -> Int {
        let fast = draw(spans: true, body), general = draw(spans: false, body)
        return stride(from: 0, to: fast.count, by: 4).filter { fast[$0..<$0 + 4] != general[$0..<$0 + 4] }.count
    }

    /// Rects whose sides fall on pixel boundaries, at quarter pixels and at arbitrary positions,
    /// with whole, partial and single rows, translucent and opaque, non-zero and even-odd.
    @Test(arguments: [CGFloat(1), 4, 0])
    func rectsOnAndOffPixelBoundaries(grid: CGFloat) {
        func snap(_ v: CGFloat) -> CGFloat { grid == 0 ? v : (v * grid).rounded() / grid }
        let n = Self.differing { ctx in
            var rng = Rng(s: 77 + UInt32(grid))
            for k in 0..<40 {
                let x = snap(90 * rng.unit() - 5), y = snap(62 * rng.unit() - 5)
                let w = snap(0.3 + 30 * rng.unit()), h = snap(0.2 + (k % 5 == 0 ? 1.5 : 25) * rng.unit())
                ctx.setFillColor(CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: k % 3 == 0 ? 1 : 0.2 + 0.7 * rng.unit()))
                ctx.addRect(CGRect(x: x, y: y, width: w, height: h))
                ctx.fillPath(using: k % 4 == 0 ? .evenOdd : .winding)
            }
        }
        #expect(n == 0, "\(n) pixels differ")
    }

    /// One path of sides that share cells (abutting and overlapping rects, a rect drawn twice in
    /// opposite directions so its sides cancel), rounded corners whose chords touch the sides'
    /// rows after the sides were held, and a ring.
    @Test func sharedCellsCancellingSidesAndLateRows() {
        let n = Self.differing { ctx in
            let path = CGMutablePath()
            path.addRect(CGRect(x: 3.25, y: 2, width: 10, height: 30))
            path.addRect(CGRect(x: 13.25, y: 5.5, width: 8, height: 20))       // abuts the first
            path.addRect(CGRect(x: 8.25, y: 10, width: 10, height: 12.75))     // overlaps both
            path.move(to: CGPoint(x: 30.5, y: 4)); path.addLine(to: CGPoint(x: 30.5, y: 40))
            path.addLine(to: CGPoint(x: 44.5, y: 40)); path.addLine(to: CGPoint(x: 44.5, y: 4)); path.closeSubpath()
            path.addRect(CGRect(x: 30.5, y: 4, width: 14, height: 36))         // the same, the other way
            path.addRoundedRect(in: CGRect(x: 50.3, y: 3.6, width: 25, height: 45), cornerWidth: 9, cornerHeight: 9)
            path.addPath(CGPath(roundedRect: CGRect(x: 55.3, y: 8.6, width: 15, height: 35), cornerWidth: 4, cornerHeight: 4, transform: nil))
            // A slanted edge crossing rows the sides cover, added after them.
            path.move(to: CGPoint(x: 0, y: 50)); path.addLine(to: CGPoint(x: 82, y: 12)); path.addLine(to: CGPoint(x: 82, y: 50)); path.closeSubpath()
            for rule in [CGPathFillRule.winding, .evenOdd] {
                ctx.setFillColor(CGColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 0.55))
                ctx.addPath(path)
                ctx.fillPath(using: rule)
            }
        }
        #expect(n == 0, "\(n) pixels differ")
    }

    /// More vertical sides in one path than there is room to hold back (the rest are written),
    /// in several bands of rows.
    @Test func moreSidesThanTheRoom() {
        let n = Self.differing { ctx in
            let path = CGMutablePath()
            for k in 0..<60 {
                let x = CGFloat(k) * 1.37 + 0.1
                path.addRect(CGRect(x: x, y: CGFloat(k % 7) * 3.3, width: 0.9, height: 20 + CGFloat(k % 5) * 6))
            }
            ctx.setFillColor(CGColor(red: 0.1, green: 0.8, blue: 0.3, alpha: 0.6))
            ctx.addPath(path)
            ctx.fillPath()
        }
        #expect(n == 0, "\(n) pixels differ")
    }

    /// Fills under a rounded clip (its full runs and its edge pixels), with the scratch
    /// rasteriser taking a clip's coverage between fills, and a stroke of rects (its outline's
    /// sides are vertical too).
    @Test func underAClipAndBetweenOtherUses() {
        let n = Self.differing { ctx in
            var rng = Rng(s: 5)
            ctx.addPath(CGPath(roundedRect: CGRect(x: 6.5, y: 4.5, width: 70, height: 48), cornerWidth: 12, cornerHeight: 12, transform: nil))
            ctx.clip()
            for k in 0..<12 {
                if k == 6 {
                    ctx.addRect(CGRect(x: 2.5, y: 2, width: 75.25, height: 50))
                    ctx.clip()
                }
                ctx.setFillColor(CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 0.3 + 0.6 * rng.unit()))
                ctx.addRect(CGRect(x: 85 * rng.unit() - 4, y: 60 * rng.unit() - 4, width: 4 + 40 * rng.unit(), height: 4 + 30 * rng.unit()))
                ctx.fillPath()
                ctx.setStrokeColor(CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 0.8))
                ctx.setLineWidth(1 + 3 * rng.unit())
                ctx.stroke(CGRect(x: 80 * rng.unit(), y: 55 * rng.unit(), width: 20, height: 15))
            }
        }
        #expect(n == 0, "\(n) pixels differ")
    }
}
