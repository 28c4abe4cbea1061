import Testing

/// Solid fills and strokes through the span path (CGContext+SolidSpans.swift: runs of equal
/// coverage, full-coverage tables and integer kernels, edge pixels one at a time) against the
/// general per-pixel compositing loop (`compositeSolidOver`), which the span path must equal
/// byte for byte: translucent and opaque colours, the context alpha, even-odd and non-zero
/// fills, strokes, a clip, every 32-bit layout, over a destination that is not blank.
@Suite struct CGContextSpanParityTests {
    struct Rng {
        var s: UInt32
        mutating func unit() -> CGFloat { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return CGFloat(s % 10_000) / 10_000 }
    }

    static func draw(seed: UInt32, info: UInt32, spans: Bool) -> [UInt8] {
        let w = 97, h = 61
        let ctx = CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: info)!
        ctx.usesSpanLoops = spans
        var rng = Rng(s: seed)
        // A background of two translucent rects, drawn the same way in both runs.
        for _ in 0..<2 {
            ctx.setFillColor(CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 0.2 + 0.8 * rng.unit()))
            ctx.fill(CGRect(x: 97 * rng.unit() - 20, y: 61 * rng.unit() - 20, width: 60, height: 40))
        }
        if seed % 3 == 0 {
            ctx.addEllipse(in: CGRect(x: 10 * rng.unit(), y: 5 * rng.unit(), width: 70, height: 50))
            ctx.clip()
        }
        if seed % 4 == 0 { ctx.setAlpha(0.3 + 0.7 * rng.unit()) }
        for shape in 0..<6 {
            // Stars and rounded rects, small (no full-coverage table) and large.
            let cx = 97 * rng.unit(), cy = 61 * rng.unit(), r = 3 + 40 * rng.unit()
            let path = CGMutablePath()
            if shape % 2 == 0 {
                for k in 0..<10 {
                    let a = Double(k) * Double.pi / 5 + Double(rng.unit()), rr = k % 2 == 0 ? r : 0.45 * r
                    let p = CGPoint(x: cx + rr * cos(a), y: cy + rr * sin(a))
                    if k == 0 { path.move(to: p) } else { path.addLine(to: p) }
                }
                path.closeSubpath()
            } else {
                path.addRoundedRect(in: CGRect(x: cx - r, y: cy - r / 2, width: 2 * r, height: r), cornerWidth: r / 4, cornerHeight: r / 4)
                path.addRect(CGRect(x: cx - r / 2, y: cy - r / 4, width: r, height: r / 2))
            }
            let alpha = seed % 5 == 0 ? 1 : 0.1 + 0.85 * rng.unit()
            ctx.setFillColor(CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: alpha))
            ctx.addPath(path)
            ctx.fillPath(using: shape % 3 == 0 ? .evenOdd : .winding)
            ctx.setStrokeColor(CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 0.3 + 0.7 * rng.unit()))
            ctx.setLineWidth(0.5 + 4 * rng.unit())
            ctx.addPath(path)
            ctx.strokePath()
        }
        return Array(UnsafeBufferPointer(start: ctx.data!.assumingMemoryBound(to: UInt8.self), count: ctx.bytesPerRow * h))
    }

    @Test("fills and strokes: the span path gives the general loop's bytes",
          arguments: [CGImageAlphaInfo.premultipliedLast.rawValue, CGImageAlphaInfo.premultipliedFirst.rawValue,
                      CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue,
                      CGImageAlphaInfo.noneSkipLast.rawValue, CGImageAlphaInfo.noneSkipFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue])
    func spanPathMatchesGeneralLoop(info: UInt32) {
        var differing = 0, pixels = 0
        for seed in UInt32(1)...120 {
            let fast = Self.draw(seed: seed, info: info, spans: true)
            let general = Self.draw(seed: seed, info: info, spans: false)
            pixels += fast.count / 4
            for p in stride(from: 0, to: fast.count, by: 4) where fast[p..<p + 4] != general[p..<p + 4] { differing += 1 }
        }
        #expect(differing == 0, "\(differing) of \(pixels) pixels differ")
    }

    /// The walk skips runs of coverage up to `negligibleSpanCoverage` (the rasteriser's float noise
    /// where an edge's pieces cancel). That is only the same bytes if the general loop's blend,
    /// ⌊D·(1 − Sα·c) + S·c + 0.5⌋, leaves every destination byte as it is there: every D, a
    /// grid of premultiplied sources (S ≤ 255·Sα, the alpha channel S = 255·Sα).
    @Test func negligibleCoverageChangesNoByte() {
        let c = CGContext.negligibleSpanCoverage
        #expect(c > 0)
        var changed = 0
        for ai in 0...32 {
            let sa = Float(ai) / 32
            for si in 0...32 {
                let s = 255 * sa * Float(si) / 32
                for d in 0...255 {
                    let o = Float(d) * (1 - sa * c) + s * c + 0.5
                    if UInt8(o) != UInt8(d) { changed += 1 }
                }
            }
        }
        #expect(changed == 0, "\(changed) bytes change at coverage \(c)")
        // And the bound is not slack by orders of magnitude: at 0.01 bytes do change.
        let coarse: Float = 0.01
        #expect((0...255).contains { d in UInt8(Float(d) * (1 - coarse) + 255 * coarse + 0.5) != UInt8(d) })
    }
}
