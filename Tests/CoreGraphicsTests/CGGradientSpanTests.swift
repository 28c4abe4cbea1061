import Testing

/// The four-pixel loops of axial and radial gradients (CGContext+GradientSpans.swift,
/// CGContext+RadialGradientSpans.swift) against the general per-pixel loop they stand in for: the same bytes, over clips, transforms, translucent stops,
/// the context alpha, the extend options and every 32-bit layout with alpha, on a destination
/// that is not blank. Only t differs in how it is found (stepped along the row rather than
/// mapped through the inverse CTM per pixel), and between opaque stops the colour too (stepped
/// along the row from the exact value at the piece's first pixel), which can move a byte by one
/// where a value sits on a rounding boundary; the test allows that on one pixel in 10,000. Both
/// ways are also held to the exact colours, computed here in double precision.
@Suite struct CGGradientSpanTests {
    struct Rng {
        var s: UInt32
        mutating func unit() -> CGFloat { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return CGFloat(s % 10_000) / 10_000 }
    }

    /// Draws program `seed` into a fresh context of `info` (span loops on or off); its bytes.
    /// `radial`: a radial gradient between two random circles (one inside the other, apart, or
    /// of equal radii) instead of an axial one.
    static func draw(seed: UInt32, info: UInt32, spans: Bool, radial: Bool = false, gradient: Bool = true) -> [UInt8] {
        let w = 61, h = 37
        let ctx = CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: info)!
        ctx.usesSpanLoops = spans
        var rng = Rng(s: seed)
        // A background that is neither blank nor opaque everywhere.
        ctx.setFillColor(CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 0.3 + 0.7 * rng.unit()))
        ctx.fill(CGRect(x: 0, y: 0, width: CGFloat(w) * rng.unit(), height: CGFloat(h)))
        if seed % 2 == 0 {
            ctx.addPath(CGPath(roundedRect: CGRect(x: 3 + 10 * rng.unit(), y: 2 + 5 * rng.unit(), width: 40, height: 25),
                               cornerWidth: 8, cornerHeight: 8, transform: nil))
            ctx.clip()
        }
        if seed % 3 == 0 { ctx.setAlpha(0.2 + 0.8 * rng.unit()) }
        ctx.translateBy(x: 30, y: 18)
        ctx.rotate(by: rng.unit() * 6.3)
        ctx.scaleBy(x: 0.5 + rng.unit(), y: 0.5 + rng.unit())
        let n = 1 + Int(rng.unit() * 5)
        var comps: [CGFloat] = [], locs: [CGFloat] = []
        for i in 0..<n {
            comps += [rng.unit(), rng.unit(), rng.unit(), seed % 5 == 0 ? rng.unit() : 1]
            // Repeated locations now and then: a hard step.
            locs.append(i > 0 && seed % 7 == 0 ? locs[i - 1] : rng.unit())
        }
        let g = CGGradient(colorSpace: CGColorSpaceCreateDeviceRGB(), colorComponents: comps, locations: locs, count: n)!
        var options: CGGradientDrawingOptions = []
        if rng.unit() < 0.5 { options.insert(.drawsBeforeStartLocation) }
        if rng.unit() < 0.5 { options.insert(.drawsAfterEndLocation) }
        let a = CGPoint(x: -20 * rng.unit(), y: -20 * rng.unit()), b = CGPoint(x: 25 * rng.unit(), y: 25 * rng.unit())
        if !gradient {
            // The same program without its gradient: what the gradient changed.
        } else if radial {
            let r0 = seed % 4 == 0 ? 0 : 15 * rng.unit()
            let r1 = seed % 11 == 0 ? r0 : 30 * rng.unit()
            ctx.drawRadialGradient(g, startCenter: a, startRadius: r0, endCenter: b, endRadius: r1, options: options)
        } else {
            ctx.drawLinearGradient(g, start: a, end: b, options: options)
        }
        return Array(UnsafeBufferPointer(start: ctx.data!.assumingMemoryBound(to: UInt8.self), count: ctx.bytesPerRow * h))
    }

    @Test("axial gradients: the four-pixel loop gives the general loop's bytes",
          arguments: [CGImageAlphaInfo.premultipliedLast.rawValue, CGImageAlphaInfo.premultipliedFirst.rawValue,
                      CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue])
    func spansMatchGeneralLoop(info: UInt32) {
        Self.expectSameBytes(info: info, radial: false)
    }

    @Test("radial gradients: the four-pixel loop gives the general loop's bytes",
          arguments: [CGImageAlphaInfo.premultipliedLast.rawValue, CGImageAlphaInfo.premultipliedFirst.rawValue,
                      CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue])
    func radialSpansMatchGeneralLoop(info: UInt32) {
        Self.expectSameBytes(info: info, radial: true)
    }

    /// 200 programs drawn both ways: at most one level apart, on at most one pixel in 10,000;
    /// and the gradient changes the bytes in most of them (the comparison is not of blank
    /// programs).
    static func expectSameBytes(info: UInt32, radial: Bool) {
        var pixels = 0, differing = 0, worst = 0, painted = 0
        for seed in UInt32(1)...200 {
            let fast = draw(seed: seed, info: info, spans: true, radial: radial)
            let general = draw(seed: seed, info: info, spans: false, radial: radial)
            if fast != draw(seed: seed, info: info, spans: true, radial: radial, gradient: false) { painted += 1 }
            Self.tally(fast, general, pixels: &pixels, differing: &differing, worst: &worst)
        }
        #expect(worst <= 1)
        #expect(differing * 10_000 <= pixels, "\(differing) of \(pixels) pixels differ")
        #expect(painted >= 150, "the gradient painted in \(painted) of 200 programs")
    }

    /// Adds two bitmaps' pixels (four bytes each) to `pixels`, those that differ to `differing`,
    /// and raises `worst` to their largest channel difference.
    static func tally(_ a: [UInt8], _ b: [UInt8], pixels: inout Int, differing: inout Int, worst: inout Int) {
        for p in stride(from: 0, to: a.count, by: 4) {
            pixels += 1
            let d = (0..<4).map { abs(Int(a[p + $0]) - Int(b[p + $0])) }.max()!
            if d > 0 { differing += 1; worst = max(worst, d) }
        }
    }

    /// Opaque axial gradients over a 300-pixel-wide context — shallow, steep and vertical axes,
    /// two to four stops, long rows in one piece — against the gradient computed here in double
    /// precision: every channel's byte is ⌊v·255 + 0.5⌋ of the exact colour v at the pixel's
    /// centre, except where v·255 + 0.5 lies within 10⁻³ of a whole number (there either
    /// neighbour is right to float precision). `drawLinearGradient`: "the color at each point on
    /// the axis", extended past the ends by the options (Apple's CGContext documentation).
    @Test("axial gradients between opaque stops: each byte is the exact colour's, rounded", arguments: [true, false])
    func opaqueAxialMatchesExactColours(spans: Bool) {
        let w = 300, h = 24
        var rng = Rng(s: 5)
        var checked = 0, wrong: [String] = []
        for program in 0..<24 {
            let ctx = rgbaContext(w, h)
            ctx.usesSpanLoops = spans
            let n = 2 + program % 3
            var comps: [CGFloat] = [], locs: [CGFloat] = []
            for i in 0..<n {
                comps += [rng.unit(), rng.unit(), rng.unit(), 1]
                locs.append(i == 0 ? 0.1 * rng.unit() : locs[i - 1] + (0.9 - 0.1 * rng.unit()) / CGFloat(n - 1))
            }
            let g = CGGradient(colorSpace: CGColorSpaceCreateDeviceRGB(), colorComponents: comps, locations: locs, count: n)!
            // Axes from 2 to 600 px long at any angle; every fourth one vertical (one colour a row).
            let start = CGPoint(x: CGFloat(w) * rng.unit(), y: CGFloat(h) * rng.unit())
            let length = 2 + 598 * rng.unit() * rng.unit(), angle = program % 4 == 0 ? CGFloat.pi / 2 : 6.3 * rng.unit()
            let end = CGPoint(x: start.x + length * cos(angle), y: start.y + length * sin(angle))
            ctx.drawLinearGradient(g, start: start, end: end, options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
            let (dx, dy) = (Double(end.x - start.x), Double(end.y - start.y))
            for row in 0..<h {
                for x in 0..<w {
                    // The pixel's centre in user space (the identity CTM: y up from the bottom row).
                    let ux = Double(x) + 0.5, uy = Double(h - row) - 0.5
                    let t = ((ux - Double(start.x)) * dx + (uy - Double(start.y)) * dy) / (dx * dx + dy * dy)
                    let got = bytes(ctx, x, row)
                    for c in 0..<3 {
                        let v = Self.exactChannel(c, at: t, comps: comps, locs: locs) * 255 + 0.5
                        guard abs(v - v.rounded()) > 1e-3 else { continue }
                        checked += 1
                        if Int(got[c]) != Int(v.rounded(.down)) {
                            wrong.append("program \(program) pixel (\(x), \(row)) channel \(c): \(got[c]), exact \(v - 0.5)")
                        }
                    }
                    if got[3] != 255 { wrong.append("program \(program) pixel (\(x), \(row)): alpha \(got[3])") }
                }
            }
        }
        #expect(checked > 400_000)
        #expect(wrong.isEmpty, "\(wrong.count) bytes differ, first \(wrong.prefix(3))")
    }

    /// Channel `c` of the opaque gradient at t, in double precision: clamped to the end stops,
    /// linear between neighbouring stops.
    static func exactChannel(_ c: Int, at t: Double, comps: [CGFloat], locs: [CGFloat]) -> Double {
        let n = locs.count
        func stop(_ i: Int) -> Double { Double(comps[4 * i + c]) }
        if t <= Double(locs[0]) { return stop(0) }
        if t >= Double(locs[n - 1]) { return stop(n - 1) }
        var i = 1
        while Double(locs[i]) < t { i += 1 }
        let f = (t - Double(locs[i - 1])) / (Double(locs[i]) - Double(locs[i - 1]))
        return stop(i - 1) + (stop(i) - stop(i - 1)) * f
    }

    @Test("a gradient changes the pixels the span loop paints: a vertical ramp, row by row")
    func verticalRampRows() {
        // 8 × 4, black at the top row's centre → white at the bottom's; one colour a row.
        let ctx = rgbaContext(8, 4)
        ctx.drawLinearGradient(CGGradientTests.blackToWhite, start: CGPoint(x: 0, y: 4), end: .zero, options: [])
        // Rows from the top: t = 1/8, 3/8, 5/8, 7/8.
        #expect((0..<4).map { bytes(ctx, 5, $0)[0] } == [32, 96, 159, 223])
        #expect((0..<8).allSatisfy { bytes(ctx, $0, 2) == [159, 159, 159, 255] })
    }
}
