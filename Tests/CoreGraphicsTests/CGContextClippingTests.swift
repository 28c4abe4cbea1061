import Testing

/// Clipping as coverage (Apple: CGContext clip(), clip(using:), clip(to:) rect(s) and mask,
/// boundingBoxOfClipPath; "the clipping area … can only shrink", restored by restoreGState).
@Suite struct CGContextClippingTests {
    static func alpha(_ ctx: CGContext, _ x: Int, _ row: Int) -> UInt8 { bytes(ctx, x, row)[3] }

    @Test("clip(to: rect) limits a fill; restoreGState removes the clip")
    func rectClip() {
        let ctx = rgbaContext(4, 4)
        ctx.saveGState()
        ctx.clip(to: CGRect(x: 1, y: 1, width: 2, height: 2))
        ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(Self.alpha(ctx, 1, 1) == 255 && Self.alpha(ctx, 0, 0) == 0 && Self.alpha(ctx, 3, 3) == 0)
        ctx.restoreGState()
        ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(Self.alpha(ctx, 0, 0) == 255)
    }

    @Test("a clip edge on a half pixel gives half coverage; clips intersect (multiply)")
    func antialiasedAndIntersecting() {
        let ctx = rgbaContext(4, 1)
        ctx.clip(to: CGRect(x: 0.5, y: 0, width: 3, height: 1))
        ctx.clip(to: CGRect(x: 0, y: 0, width: 3, height: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 1))
        #expect((0..<4).map { Self.alpha(ctx, $0, 0) } == [128, 255, 255, 0])
    }

    @Test("clip(to: [rects]) is their union; clip(using: .evenOdd) makes a hole; clip() clears the path")
    func rectsAndRules() {
        let ctx = rgbaContext(4, 1)
        ctx.clip(to: [CGRect(x: 0, y: 0, width: 1, height: 1), CGRect(x: 2, y: 0, width: 1, height: 1)])
        ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 1))
        #expect((0..<4).map { Self.alpha(ctx, $0, 0) } == [255, 0, 255, 0])
        let eo = rgbaContext(4, 4)
        eo.addRect(CGRect(x: 0, y: 0, width: 4, height: 4))
        eo.addRect(CGRect(x: 1, y: 1, width: 2, height: 2))
        eo.clip(using: .evenOdd)
        #expect(eo.isPathEmpty)
        eo.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(Self.alpha(eo, 0, 0) == 255 && Self.alpha(eo, 1, 1) == 0)
        let nz = rgbaContext(4, 4)
        nz.addEllipse(in: CGRect(x: 0, y: 0, width: 4, height: 4))
        nz.clip()
        nz.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(Self.alpha(nz, 1, 1) == 255 && Self.alpha(nz, 0, 0) > 0 && Self.alpha(nz, 0, 0) < 128)   // the corner pixel is about 0.3 inside
    }

    @Test("boundingBoxOfClipPath: the bitmap without a clip, the clip's box in user space after one")
    func boundingBox() {
        let ctx = rgbaContext(8, 6)
        #expect(ctx.boundingBoxOfClipPath == CGRect(x: 0, y: 0, width: 8, height: 6))
        ctx.clip(to: CGRect(x: 1, y: 2, width: 3, height: 2))
        #expect(ctx.boundingBoxOfClipPath == CGRect(x: 1, y: 2, width: 3, height: 2))
        ctx.translateBy(x: 1, y: 0)
        #expect(ctx.boundingBoxOfClipPath == CGRect(x: 0, y: 2, width: 3, height: 2))
        ctx.clip(to: CGRect(x: 100, y: 100, width: 1, height: 1))
        #expect(ctx.boundingBoxOfClipPath.isEmpty)
        ctx.resetClip()
        #expect(ctx.boundingBoxOfClipPath == CGRect(x: -1, y: 0, width: 8, height: 6))
    }

    @Test("clip(to:mask:) uses a gray image's values as the clip's alpha (white paints, black does not)")
    func maskClip() {
        let mask = CGImage(width: 2, height: 1, rgba8Bytes: [255, 255, 255, 255, 0, 0, 0, 255], premultiplied: true)!
        let ctx = rgbaContext(2, 1)
        ctx.clip(to: CGRect(x: 0, y: 0, width: 2, height: 1), mask: mask)
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 2, height: 1))
        #expect(bytes(ctx, 0, 0) == [255, 0, 0, 255] && bytes(ctx, 1, 0) == [0, 0, 0, 0])
    }
}
