import Foundation
import Testing
@testable import CoreGraphics

/// A clip path set with nothing clipped before keeps its polygons (`ClipMask.path`) until its
/// coverage is read, and an axial gradient under it is painted through the path's coverage runs
/// (`ca_axial_walk`) instead of through a resolved mask. Apple documents `clip()` as
/// intersecting the clipping area with the path's interior and `drawLinearGradient` as filling
/// the clipping area; neither may depend on which of the two ways is taken.
@Suite struct CGClipPathWalkTests {
    /// The clip paths: a rounded rect (held vertical sides, curved corners), a ring filled
    /// even-odd, a star crossing itself (non-zero), a circle partly off the bitmap, a thin sliver
    /// (runs of partial coverage a row long), and a rect on whole pixels.
    static func clipPath(_ kind: Int) -> (CGPath, CGPathFillRule) {
        switch kind {
        case 0:
            return (CGPath(roundedRect: CGRect(x: 5.3, y: 4.6, width: 60.2, height: 38.7), cornerWidth: 9, cornerHeight: 9,
                           transform: nil), .winding)
        case 1:
            let p = CGMutablePath()
            p.addEllipse(in: CGRect(x: 10.5, y: 3.2, width: 50, height: 42))
            p.addEllipse(in: CGRect(x: 22.25, y: 13.5, width: 24, height: 20))
            return (p, .evenOdd)
        case 2:
            let p = CGMutablePath()
            for k in 0..<5 {
                let a = Double(k) * 4 * Double.pi / 5
                let q = CGPoint(x: 40 + 24 * cos(a), y: 25 + 22 * sin(a))
                if k == 0 { p.move(to: q) } else { p.addLine(to: q) }
            }
            p.closeSubpath()
            return (p, .winding)
        case 3:
            return (CGPath(ellipseIn: CGRect(x: -20.5, y: -10.25, width: 70, height: 60), transform: nil), .winding)
        case 4:
            let p = CGMutablePath()
            p.move(to: CGPoint(x: 2, y: 20.3))
            p.addLine(to: CGPoint(x: 75, y: 21.1))
            p.addLine(to: CGPoint(x: 75, y: 21.9))
            p.addLine(to: CGPoint(x: 2, y: 20.6))
            p.closeSubpath()
            return (p, .winding)
        default:
            return (CGPath(rect: CGRect(x: 8, y: 6, width: 40, height: 30), transform: nil), .winding)
        }
    }

    /// Program `seed` over a background that is neither blank nor opaque everywhere: a clip
    /// (kept as a path, or — `resolved` — the same path clipped after the bitmap's bounds, which
    /// makes it a resolved mask at once: 1 × c is c), then an axial gradient.
    static func draw(seed: UInt32, resolved: Bool, gradient: Bool = true) -> [UInt8] {
        let w = 77, h = 49
        let ctx = CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(),
                            bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)!
        var rng = CGGradientSpanTests.Rng(s: seed)
        ctx.setFillColor(CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 0.3 + 0.7 * rng.unit()))
        ctx.fill(CGRect(x: 0, y: 0, width: CGFloat(w) * rng.unit(), height: CGFloat(h)))
        if resolved { ctx.clip(to: CGRect(x: 0, y: 0, width: w, height: h)) }
        let (path, rule) = clipPath(Int(seed % 6))
        ctx.addPath(path)
        ctx.clip(using: rule)
        #expect((ctx.gstate.clip?.path != nil) == !resolved)
        if seed % 3 == 0 { ctx.setAlpha(0.3 + 0.7 * rng.unit()) }
        let n = 1 + Int(rng.unit() * 4)
        var comps: [CGFloat] = [], locs: [CGFloat] = []
        for _ in 0..<n {
            comps += [rng.unit(), rng.unit(), rng.unit(), seed % 4 == 0 ? rng.unit() : 1]
            locs.append(rng.unit())
        }
        let g = CGGradient(colorSpace: CGColorSpaceCreateDeviceRGB(), colorComponents: comps, locations: locs.sorted(), count: n)!
        var options: CGGradientDrawingOptions = []
        if rng.unit() < 0.5 { options.insert(.drawsBeforeStartLocation) }
        if rng.unit() < 0.5 { options.insert(.drawsAfterEndLocation) }
        let a = CGPoint(x: 80 * rng.unit(), y: 50 * rng.unit()), b = CGPoint(x: 80 * rng.unit(), y: 50 * rng.unit())
        if gradient { ctx.drawLinearGradient(g, start: a, end: b, options: options) }
        return Array(UnsafeBufferPointer(start: ctx.data!.assumingMemoryBound(to: UInt8.self), count: ctx.bytesPerRow * h))
    }

    @Test("a gradient through a clip path's runs gives the resolved clip's bytes (within a level, on 1 pixel in 2,000)")
    func walkMatchesResolvedClip() {
        var pixels = 0, differing = 0, worst = 0, painted = 0
        for seed in UInt32(1)...240 {
            let walked = Self.draw(seed: seed, resolved: false)
            let masked = Self.draw(seed: seed, resolved: true)
            if walked != Self.draw(seed: seed, resolved: false, gradient: false) { painted += 1 }
            CGGradientSpanTests.tally(walked, masked, pixels: &pixels, differing: &differing, worst: &worst)
        }
        #expect(worst <= 1)
        #expect(differing * 2_000 <= pixels, "\(differing) of \(pixels) pixels differ")
        #expect(painted >= 200, "the gradient painted in \(painted) of 240 programs")
    }

    @Test("a clip path's coverage, read later, is what clipping at once gives", arguments: 0..<6)
    func deferredCoverageMatchesImmediate(kind: Int) throws {
        let make = { CGContext(data: nil, width: 77, height: 49, bitsPerComponent: 8, bytesPerRow: 0,
                               space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)! }
        let (path, rule) = Self.clipPath(kind)
        let ctx = make()
        ctx.addPath(path)
        ctx.clip(using: rule)
        let clip = try #require(ctx.gstate.clip)
        #expect(clip.path != nil)
        let reference = make()
        let mask = try #require(reference.coverage(ofDevicePath: path, evenOdd: rule == .evenOdd))
        #expect(clip.box == PixelBox(x0: mask.x0, y0: mask.y0, x1: mask.x0 + mask.width, y1: mask.y0 + mask.height))
        #expect(clip.values == mask.values)
        #expect(clip.fullRuns == mask.fullRuns)
        #expect(clip.path == nil)
        // Read once, kept: a second clip intersects with it at once.
        ctx.addPath(path)
        ctx.clip(using: rule)
        #expect(ctx.gstate.clip?.path == nil)
    }

    @Test("a clip path of more vertices than are kept is resolved when it is set")
    func hugeClipPathIsResolvedAtOnce() throws {
        let ctx = CGContext(data: nil, width: 64, height: 64, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        // A zigzag of CGContext.maxKeptClipPoints + 2 vertices inside the bitmap.
        let n = CGContext.maxKeptClipPoints + 2
        let points = (0..<n).map { k in CGPoint(x: 8 + 48 * Double(k) / Double(n), y: k % 2 == 0 ? 10 : 50) }
        let path = CGMutablePath()
        path.addLines(between: points)
        path.closeSubpath()
        ctx.addPath(path)
        ctx.clip()
        let clip = try #require(ctx.gstate.clip)
        #expect(clip.path == nil)
        #expect(clip.values.contains { $0 > 0 })
        // A small one is kept.
        let small = CGContext(data: nil, width: 64, height: 64, bitsPerComponent: 8, bytesPerRow: 0,
                              space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        small.addPath(CGPath(ellipseIn: CGRect(x: 8, y: 8, width: 40, height: 40), transform: nil))
        small.clip()
        #expect(small.gstate.clip?.path != nil)
    }

    @Test("a clip path that covers nothing of the bitmap clips everything away")
    func clipOffTheBitmapPaintsNothing() {
        let ctx = CGContext(data: nil, width: 20, height: 20, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        ctx.addRect(CGRect(x: 40, y: 40, width: 10, height: 10))
        ctx.clip()
        #expect(ctx.boundingBoxOfClipPath.isEmpty)
        let g = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(),
                           colors: [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)] as CFArray,
                           locations: nil)!
        ctx.drawLinearGradient(g, start: .zero, end: CGPoint(x: 20, y: 0), options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        let bytes = UnsafeBufferPointer(start: ctx.data!.assumingMemoryBound(to: UInt8.self), count: ctx.bytesPerRow * 20)
        #expect(bytes.allSatisfy { $0 == 0 })
    }

    @Test("an opaque gradient through a rounded-rect clip: exact colours inside, the clip's coverage at its edge")
    func opaqueGradientThroughRoundedRect() throws {
        // A horizontal ramp from black at x = 0 to white at x = 100 over a 100 × 40 bitmap:
        // pixel column i's centre is at t = (i + 0.5)/100, so its value is ⌊(i + 0.5)·2.55 + 0.5⌋.
        let ctx = CGContext(data: nil, width: 100, height: 40, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        ctx.addPath(CGPath(roundedRect: CGRect(x: 10.5, y: 5, width: 80, height: 30), cornerWidth: 6, cornerHeight: 6, transform: nil))
        ctx.clip()
        let g = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(),
                           colors: [CGColor(red: 0, green: 0, blue: 0, alpha: 1), CGColor(red: 1, green: 1, blue: 1, alpha: 1)] as CFArray, locations: nil)!
        ctx.drawLinearGradient(g, start: .zero, end: CGPoint(x: 100, y: 0), options: [])
        let bytes = UnsafeBufferPointer(start: ctx.data!.assumingMemoryBound(to: UInt8.self), count: ctx.bytesPerRow * 40)
        func pixel(_ x: Int, _ y: Int) -> [Int] { (0..<4).map { Int(bytes[y * ctx.bytesPerRow + x * 4 + $0]) } }
        // Row 20 (raster) lies within the straight sides: columns 11 … 89 are inside.
        for x in 11..<90 {
            let v = Int((Double(x) + 0.5) * 2.55 + 0.5)
            #expect(pixel(x, 20) == [v, v, v, 255], "column \(x)")
        }
        // Columns 10 and 90 are half covered (the sides are at x = 10.5 and 90.5): half the
        // colour, half the alpha, within a level.
        for x in [10, 90] {
            let v = (Double(x) + 0.5) * 2.55
            let p = pixel(x, 20)
            #expect(abs(Double(p[0]) - v / 2) <= 1 && abs(Double(p[3]) - 127.5) <= 1, "column \(x): \(p)")
        }
        // Outside the clip nothing is painted.
        #expect(pixel(5, 20) == [0, 0, 0, 0])
        #expect(pixel(50, 2) == [0, 0, 0, 0])
        #expect(pixel(95, 38) == [0, 0, 0, 0])
    }
}
