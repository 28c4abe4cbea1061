import Testing

// Issue 19's drawing speed: where the CPU has AVX2, the span painters take `CPixelKernels`'
// eight-pixel loops (translucent full-coverage runs, their table and constants, opaque axial
// gradient pieces; solid fills' and strokes' rows read eight cells at a time, non-zero and
// even-odd, `chunkRow`), and a clip records where it is exactly 1 so that gradients paint those
// columns unclipped. Neither may change a byte: these tests draw the same programs with the wide
// loops on and off (`usesWideKernels`), and check the clip's full columns against its coverage.
@Suite struct CGContextWideKernelTests {
    struct Rng {
        var s: UInt32
        mutating func unit() -> CGFloat { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return CGFloat(s % 10_000) / 10_000 }
    }

    static let layouts: [UInt32] = [CGImageAlphaInfo.premultipliedLast.rawValue, CGImageAlphaInfo.premultipliedFirst.rawValue,
                                    CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue]

    static func pixels(_ ctx: CGContext) -> [UInt8] {
        Array(UnsafeBufferPointer(start: ctx.data!.assumingMemoryBound(to: UInt8.self), count: ctx.bytesPerRow * ctx.height))
    }

    /// Program `seed`: translucent rounded rects, each filled and given an even-odd border ring
    /// (the benchmark's rects, runs of 8 to 100 pixels), and stars filled and stroked, over a
    /// background, on a 127 × 71 context of `info`.
    static func drawShapes(seed: UInt32, info: UInt32, wide: Bool) -> [UInt8] {
        let ctx = rgbaContext(127, 71, info: info)
        ctx.usesWideKernels = wide
        var rng = Rng(s: seed)
        ctx.setFillColor(CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 0.5 + 0.5 * rng.unit()))
        ctx.fill(CGRect(x: 0, y: 0, width: 127, height: 71))
        for _ in 0..<12 {
            let w = 8 + 100 * rng.unit(), h = 6 + 50 * rng.unit()
            // Whole pixels for most (full-coverage runs end to end), fractions for some.
            var rect = CGRect(x: 127 * rng.unit() - 10, y: 71 * rng.unit() - 10, width: w, height: h)
            if seed % 3 != 0 { rect = rect.integral }
            let outer = CGPath(roundedRect: rect, cornerWidth: 4, cornerHeight: 4, transform: nil)
            ctx.addPath(outer)
            ctx.setFillColor(CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 0.05 + 0.9 * rng.unit()))
            ctx.fillPath()
            ctx.addPath(outer)
            ctx.addPath(CGPath(roundedRect: rect.insetBy(dx: 2, dy: 2), cornerWidth: 2, cornerHeight: 2, transform: nil))
            ctx.setFillColor(CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 0.05 + 0.9 * rng.unit()))
            ctx.fillPath(using: .evenOdd)
        }
        ctx.setLineWidth(1 + 3 * rng.unit())
        ctx.setLineJoin(.round)
        for _ in 0..<6 {
            let c = CGPoint(x: 127 * rng.unit(), y: 71 * rng.unit()), r = 10 + 30 * rng.unit()
            let star = CGMutablePath()
            for k in 0..<10 {
                let a = Double(k) * .pi / 5, rr = k % 2 == 0 ? r : 0.45 * r
                let p = CGPoint(x: c.x + rr * cos(a), y: c.y + rr * sin(a))
                if k == 0 { star.move(to: p) } else { star.addLine(to: p) }
            }
            star.closeSubpath()
            ctx.addPath(star)
            ctx.setFillColor(CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 0.2 + 0.7 * rng.unit()))
            ctx.fillPath()
            ctx.addPath(star)
            ctx.setStrokeColor(CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 0.2 + 0.7 * rng.unit()))
            ctx.strokePath()
        }
        return pixels(ctx)
    }

    /// How many of `programs` seeds `draw` paints differently with the wide loops on and off.
    static func differing(_ programs: ClosedRange<UInt32>, _ draw: (UInt32, Bool) -> [UInt8]) -> Int {
        programs.filter { draw($0, true) != draw($0, false) }.count
    }

    @Test("solid fills and strokes: the eight-pixel kernels give the four-lane loops' bytes", arguments: layouts)
    func solidKernelsMatch(info: UInt32) {
        let n = Self.differing(1...40) { Self.drawShapes(seed: $0, info: info, wide: $1) }
        #expect(n == 0, "\(n) of 40 programs differ")
    }

    /// Program `seed`: axial gradients between opaque stops (the eight-pixel kernel's case), under
    /// no clip or a rounded-rect clip, through rotated and scaled CTMs, on a 131 × 67 context.
    static func drawGradients(seed: UInt32, info: UInt32, wide: Bool, radial: Bool = false) -> [UInt8] {
        let ctx = rgbaContext(131, 67, info: info)
        ctx.usesWideKernels = wide
        var rng = Rng(s: seed)
        ctx.setFillColor(CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 0.6))
        ctx.fill(CGRect(x: 0, y: 0, width: 131, height: 67))
        for _ in 0..<4 {
            ctx.saveGState()
            if rng.unit() < 0.6 {
                let rect = CGRect(x: 100 * rng.unit() - 10, y: 50 * rng.unit() - 10, width: 20 + 90 * rng.unit(), height: 10 + 50 * rng.unit())
                ctx.addPath(CGPath(roundedRect: rect, cornerWidth: 6, cornerHeight: 6, transform: nil))
                ctx.clip()
            }
            ctx.translateBy(x: 65, y: 33)
            ctx.rotate(by: rng.unit() * 6.3)
            ctx.scaleBy(x: 0.5 + rng.unit(), y: 0.5 + rng.unit())
            let n = 2 + Int(rng.unit() * 3)
            var comps: [CGFloat] = [], locs: [CGFloat] = []
            for i in 0..<n {
                comps += [rng.unit(), rng.unit(), rng.unit(), 1]
                locs.append(CGFloat(i) / CGFloat(n - 1) * (0.8 + 0.2 * rng.unit()))
            }
            let g = CGGradient(colorSpace: CGColorSpaceCreateDeviceRGB(), colorComponents: comps, locations: locs, count: n)!
            var options: CGGradientDrawingOptions = []
            if rng.unit() < 0.5 { options.insert(.drawsBeforeStartLocation) }
            if rng.unit() < 0.5 { options.insert(.drawsAfterEndLocation) }
            if radial {
                // Mostly one circle inside the other (every pixel's root in 0 … 1: the four-lane
                // vector path), now and then apart (pixels no circle reaches, roots past the ends).
                let c0 = CGPoint(x: -10 * rng.unit(), y: -10 * rng.unit())
                let inside = rng.unit() < 0.7
                let c1 = inside ? CGPoint(x: c0.x + 4 * rng.unit(), y: c0.y + 4 * rng.unit()) : CGPoint(x: 40 * rng.unit(), y: 20 * rng.unit())
                ctx.drawRadialGradient(g, startCenter: c0, startRadius: 3 * rng.unit(), endCenter: c1,
                                       endRadius: 20 + 60 * rng.unit(), options: options)
            } else {
                ctx.drawLinearGradient(g, start: CGPoint(x: -60 * rng.unit(), y: -30 * rng.unit()),
                                       end: CGPoint(x: 60 * rng.unit(), y: 30 * rng.unit()), options: options)
            }
            ctx.restoreGState()
        }
        return pixels(ctx)
    }

    @Test("axial gradients: the eight-pixel kernel gives the four-lane loop's bytes", arguments: layouts)
    func gradientKernelMatches(info: UInt32) {
        let n = Self.differing(1...60) { Self.drawGradients(seed: $0, info: info, wide: $1) }
        #expect(n == 0, "\(n) of 60 programs differ")
    }

    @Test("radial gradients: the AVX2 lanes give the baseline lanes' bytes", arguments: layouts)
    func radialKernelMatches(info: UInt32) {
        let n = Self.differing(1...60) { Self.drawGradients(seed: $0, info: info, wide: $1, radial: true) }
        #expect(n == 0, "\(n) of 60 programs differ")
    }

    /// Row y's longest run of coverage exactly 1 in `clip` (relative to its box), (0, 0) if none.
    static func longestFullRun(_ clip: ClipMask, row y: Int) -> (Int, Int) {
        let w = clip.box.x1 - clip.box.x0
        var best = (0, 0), start = -1
        for i in 0...w {
            let full = i < w && clip.values[(y - clip.box.y0) * w + i] == 1
            if full, start < 0 { start = i }
            if !full, start >= 0 { if i - start > best.1 - best.0 { best = (start, i) }; start = -1 }
        }
        return best
    }

    @Test("a clip's full columns are its longest run of coverage 1 a row; intersections keep only columns both hold")
    func clipFullColumns() throws {
        let ctx = rgbaContext(90, 60)
        // A rounded rect at fractional coordinates (the expected runs are read from the
        // coverage itself), then an even-odd ring of two ellipses.
        ctx.addPath(CGPath(roundedRect: CGRect(x: 5.3, y: 4.6, width: 70.2, height: 41.7), cornerWidth: 9, cornerHeight: 9, transform: nil))
        ctx.clip()
        let first = try #require(ctx.gstate.clip)
        #expect(first.fullRuns != nil)
        var fullRows = 0
        for y in first.box.y0..<first.box.y1 {
            let (lo, hi) = first.fullColumns(row: y)
            let expected = Self.longestFullRun(first, row: y)
            #expect(lo - first.box.x0 == expected.0 && hi - first.box.x0 == expected.1, "row \(y)")
            if hi > lo { fullRows += 1 }
        }
        #expect(fullRows >= 35, "only \(fullRows) rows have full columns")
        ctx.addEllipse(in: CGRect(x: 20, y: 0, width: 60, height: 60))
        ctx.addEllipse(in: CGRect(x: 35, y: 15, width: 30, height: 30))
        ctx.clip(using: .evenOdd)
        let both = try #require(ctx.gstate.clip)
        var narrowed = 0
        for y in both.box.y0..<both.box.y1 {
            let (lo, hi) = both.fullColumns(row: y)
            for x in lo..<hi { #expect(both.value(x, y) == 1, "(\(x), \(y)) is \(both.value(x, y))") }
            let old = first.fullColumns(row: y)
            #expect(hi <= lo || (lo >= old.lo && hi <= old.hi))
            if hi > lo, hi - lo < old.hi - old.lo { narrowed += 1 }
        }
        #expect(narrowed > 0)
        // An image mask scales the coverage: no full columns are claimed.
        let mask = CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0,
                             space: CGColorSpaceCreateDeviceGray(), bitmapInfo: CGImageAlphaInfo.none.rawValue)!
        mask.setFillColor(gray: 0.5, alpha: 1)
        mask.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        ctx.clip(to: CGRect(x: 0, y: 0, width: 90, height: 60), mask: try #require(mask.makeImage()))
        #expect(ctx.gstate.clip?.fullRuns == nil)
    }
}
