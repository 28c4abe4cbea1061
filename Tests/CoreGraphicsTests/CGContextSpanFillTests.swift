import Testing

// Issue 19's drawing speed: solid fills rasterise over the path's own box with one reused
// rasteriser, translucent runs blend through an integer kernel, and aligned clears are memsets.
// These tests pin the behaviour those rely on (the bytes; the box; the rasteriser left clear),
// not time.
@Suite struct CGContextSpanFillTests {
    /// A 30 × 40 fill on a 2000 × 2000 context rasterises a grid the size of its own box, not
    /// the bitmap, and leaves the context's reused rasteriser with every cell and bit clear.
    @Test func smallFillOnHugeContextTouchesOnlyItsBox() {
        let ctx = rgbaContext(2000, 2000)
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 0.5)
        ctx.fill(CGRect(x: 10.5, y: 20.25, width: 30, height: 40))
        let r = ctx.rasterScratch
        // x 10.5…40.5 → pixels 10…40 (31); y 20.25…60.25 → 41 rows.
        #expect(r.width == 31)
        #expect(r.height == 41)
        #expect(r.acc.count <= (31 + 2) * 41)
        // Two vertical edges of 40 rows and two horizontal ones of one row each, not 2000² cells.
        #expect(r.work > 0 && r.work < 400)
        #expect(r.acc.allSatisfy { $0 == 0 })
        #expect(r.touched.allSatisfy { $0 == 0 })
        // And the pixels: inside half red, outside untouched.
        #expect(bytes(ctx, 20, 2000 - 40) == [128, 0, 0, 128])
        #expect(bytes(ctx, 5, 2000 - 40) == [0, 0, 0, 0])
        #expect(bytes(ctx, 20, 10) == [0, 0, 0, 0])
    }

    /// A second fill after a bigger one reuses the rasteriser and draws the same bytes as a
    /// fresh context does (no coverage left over from the first path).
    @Test func reusedRasteriserLeavesNoCoverageBehind() {
        let a = rgbaContext(64, 64), b = rgbaContext(64, 64)
        a.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        a.fillEllipse(in: CGRect(x: 3.3, y: 4.7, width: 50, height: 40))
        a.clear(CGRect(x: 0, y: 0, width: 64, height: 64))
        for ctx in [a, b] {
            ctx.setFillColor(red: 0, green: 0.6, blue: 0, alpha: 0.7)
            ctx.fillEllipse(in: CGRect(x: 10.2, y: 8.9, width: 20, height: 30))
        }
        let n = 64 * 64 * 4
        let pa = Array(UnsafeBufferPointer(start: a.data!.assumingMemoryBound(to: UInt8.self), count: n))
        let pb = Array(UnsafeBufferPointer(start: b.data!.assumingMemoryBound(to: UInt8.self), count: n))
        #expect(pa == pb)
        #expect(pa.contains { $0 != 0 })
    }

    /// The integer full-coverage kernel gives exactly the float table's byte for every
    /// destination byte, every channel, over a sweep of colours and alphas (and exists for the
    /// common ones, so that translucent fills take it).
    /// The four-lane Swift loop and (where the CPU has AVX2) `CPixelKernels`' eight-pixel loop.
    static let kernelWidths = PixelKernels.available ? [false, true] : [false]

    @Test(arguments: kernelWidths) func integerBlendMatchesFloatTableExactly(wide: Bool) {
        var built = 0, tried = 0
        for ai in stride(from: 1, through: 254, by: 7) {
            let a = Float(ai) / 255
            for (r, g, b) in [(1.0, 0.0, 0.0), (0.3, 0.6, 0.9), (0.5, 0.5, 0.5), (0.01, 0.99, 0.47)] as [(Float, Float, Float)] {
                let color = SIMD4<Float>(r * a, g * a, b * a, a)
                let s = color * 255
                let table: [UInt8] = (0..<4).flatMap { ch in
                    (0..<256).map { d in UInt8(Float(d) * (1 - a * 1) + s[ch] * 1 + 0.5) }
                }
                tried += 1
                guard let k = FullCoverageBlend(table: table, offsets: SIMD4(3, 2, 1, 0), wide: wide) else { continue }
                built += 1
                // Pixel d holds byte d in every position.
                var px = [UInt8](repeating: 0, count: 256 * 4)
                for d in 0..<256 { for o in 0..<4 { px[d * 4 + o] = UInt8(d) } }
                px.withUnsafeMutableBytes { k.apply($0.baseAddress!, count: 256) }
                for d in 0..<256 {
                    // offsets r 3, g 2, b 1, a 0.
                    #expect(px[d * 4 + 3] == table[d])
                    #expect(px[d * 4 + 2] == table[256 + d])
                    #expect(px[d * 4 + 1] == table[512 + d])
                    #expect(px[d * 4 + 0] == table[768 + d])
                }
            }
        }
        #expect(built * 10 >= tried * 9, "kernel built for \(built) of \(tried)")
        // The benchmark's alpha 0.8.
        let a: Float = 0.8
        let s = SIMD4<Float>(0.2 * a, 0.4 * a, 0.6 * a, a) * 255
        let table: [UInt8] = (0..<4).flatMap { ch in (0..<256).map { d in UInt8(Float(d) * (1 - a * 1) + s[ch] * 1 + 0.5) } }
        #expect(FullCoverageBlend(table: table, offsets: SIMD4(0, 1, 2, 3), wide: wide) != nil)
    }

    /// The constants search (wrapping integer maths since issue 19's cgrects2 pass) is exact
    /// for every 8-bit alpha 1…254, with channel values 0, 1, 127, 128, 254 and 255 (k / 255
    /// premultiplied, as `setFillColor` gives them): when it returns a kernel, every one of the
    /// 1,024 table entries comes out of the kernel's lanes unchanged, through the four-pixel
    /// steps and the overlapping last step alike (a 259-pixel run: 64 steps and one overlap),
    /// and where the eight-pixel loop runs, through its one-multiply form.
    @Test(arguments: kernelWidths) func kernelSearchIsExactForEveryEightBitAlpha(wide: Bool) {
        var built = 0, tried = 0, wrong = 0, oneMultiply = 0
        let values: [Float] = [0, 1, 127, 128, 254, 255]
        for ai in 1...254 {
            let a = Float(ai) / 255
            for (i, v) in values.enumerated() {
                // r, g, b: three different channel values; alpha is a's own.
                let rgb = SIMD3<Float>(v, values[(i + 2) % values.count], values[(i + 4) % values.count]) / 255
                let s = SIMD4<Float>(rgb.x * a, rgb.y * a, rgb.z * a, a) * 255
                let table: [UInt8] = (0..<4).flatMap { ch in
                    (0..<256).map { d in UInt8(Float(d) * (1 - a * 1) + s[ch] * 1 + 0.5) }
                }
                tried += 1
                guard let k = FullCoverageBlend(table: table, offsets: SIMD4(0, 1, 2, 3), wide: wide) else { continue }
                built += 1
                if k.usesOneMultiply { oneMultiply += 1 }
                // Pixel d (0…258) holds byte (d + o·61) mod 256 at offset o: every channel sees
                // every byte value.
                var px = [UInt8](repeating: 0, count: 259 * 4)
                for d in 0..<259 { for o in 0..<4 { px[d * 4 + o] = UInt8((d + o * 61) % 256) } }
                let before = px
                px.withUnsafeMutableBytes { k.apply($0.baseAddress!, count: 259) }
                for i in 0..<px.count where px[i] != table[(i & 3) * 256 + Int(before[i])] { wrong += 1 }
            }
        }
        #expect(wrong == 0)
        #expect(built * 10 >= tried * 9, "kernel built for \(built) of \(tried)")
        // The eight-pixel loop's one-multiply form (offsets that are multiples of 256) is what
        // most colours take, so the 259-pixel runs above went through it.
        // (1,377 of 1,524 when written.)
        if wide { #expect(oneMultiply * 10 >= built * 8, "one multiply for \(oneMultiply) of \(built)") }
    }

    /// The kernel's four-pixel lanes and its one-pixel tail (eight-pixel lanes and overlapping
    /// last step from eight pixels on, where the wide loop runs) give the float table's bytes
    /// for every start (aligned or not) and every run length, and leave the pixels either side
    /// of the run untouched: a 12-pixel row of varied bytes, runs of 0…12 pixels from every
    /// pixel and from one byte past a pixel boundary (the kernel takes any alignment).
    @Test(arguments: kernelWidths) func integerBlendRunsOfEveryLengthAndAlignment(wide: Bool) {
        var tested = 0
        // Alphas that 8-bit colours give (k / 255), as the sweep above; 0.8 is the benchmark's.
        let colours: [(Float, SIMD3<Float>)] = [(0.8, SIMD3(0.2, 0.4, 0.6)), (77 / 255, SIMD3(1, 0.05, 0.5)),
                                                (140 / 255, SIMD3(0.9, 0.9, 0.1)), (26 / 255, SIMD3(0.5, 0.5, 0.5)),
                                                (242 / 255, SIMD3(0.01, 0.99, 0.47)), (102 / 255, SIMD3(0, 0, 1))]
        for (a, rgb) in colours {
            let s = SIMD4<Float>(rgb.x * a, rgb.y * a, rgb.z * a, a) * 255
            let table: [UInt8] = (0..<4).flatMap { ch in (0..<256).map { d in UInt8(Float(d) * (1 - a * 1) + s[ch] * 1 + 0.5) } }
            // Not every colour has exact constants (then the table is used, not this kernel).
            guard let k = FullCoverageBlend(table: table, offsets: SIMD4(0, 1, 2, 3), wide: wide) else { continue }
            tested += 1
            // 13 pixels' bytes (one spare for the shifted start), each a different value.
            let original: [UInt8] = (0..<52).map { UInt8(($0 * 37 + 11) % 256) }
            for shift in [0, 1] {
                for start in 0..<12 {
                    for count in 0...(12 - start) {
                        var px = original
                        px.withUnsafeMutableBytes { k.apply($0.baseAddress! + shift + start * 4, count: count) }
                        for i in 0..<52 {
                            let inRun = i >= shift + start * 4 && i < shift + (start + count) * 4
                            // Byte i is channel (i − shift) mod 4 of its pixel (offsets r 0, g 1, b 2, a 3).
                            let expected = inRun ? table[((i - shift) & 3) * 256 + Int(original[i])] : original[i]
                            #expect(px[i] == expected, "alpha \(a) shift \(shift) start \(start) count \(count) byte \(i)")
                        }
                    }
                }
            }
        }
        // The benchmark's colour (alpha 0.8) among them, and most of the others.
        #expect(tested >= 4, "kernel built for \(tested) of \(colours.count)")
    }

    /// CGContextClearRect of a pixel-aligned rect (the row-memset path) clears exactly that
    /// rect; an unaligned one still clears partially covered pixels in proportion (Apple:
    /// "clears the rectangle", coverage-weighted at its edges here as every fill).
    @Test func alignedClearZeroesExactlyTheRect() {
        let ctx = rgbaContext(8, 8)
        ctx.setFillColor(red: 1, green: 1, blue: 1, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 8, height: 8))
        ctx.clear(CGRect(x: 2, y: 2, width: 3, height: 4))   // rows 2…5 from the top, columns 2…4
        #expect(bytes(ctx, 2, 2) == [0, 0, 0, 0])
        #expect(bytes(ctx, 4, 5) == [0, 0, 0, 0])
        #expect(bytes(ctx, 1, 3) == [255, 255, 255, 255])
        #expect(bytes(ctx, 5, 3) == [255, 255, 255, 255])
        #expect(bytes(ctx, 3, 1) == [255, 255, 255, 255])
        #expect(bytes(ctx, 3, 6) == [255, 255, 255, 255])
        // Half a pixel: the column 6 pixel keeps half its colour.
        ctx.clear(CGRect(x: 6, y: 0, width: 0.5, height: 8))
        #expect(bytes(ctx, 6, 0) == [128, 128, 128, 128])
        // Under a clip the general path runs: only the clipped part is cleared.
        ctx.clip(to: CGRect(x: 0, y: 0, width: 1, height: 8))
        ctx.clear(CGRect(x: 0, y: 0, width: 8, height: 8))
        #expect(bytes(ctx, 0, 0) == [0, 0, 0, 0])
        #expect(bytes(ctx, 1, 0) == [255, 255, 255, 255])
    }
}
