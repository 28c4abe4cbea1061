import Testing

/// Drawing images (Apple: CGContext draw(_:in:byTiling:), interpolationQuality). In Apple's
/// y-up bitmap space an image is drawn upright: its first row along the rect's top edge.
@Suite struct CGContextImageTests {
    /// A 2 × 2 image: red, green / blue, white (rows top first).
    static let quad = CGImage(width: 2, height: 2, rgba8Bytes: [255, 0, 0, 255, 0, 255, 0, 255,
                                                                0, 0, 255, 255, 255, 255, 255, 255], premultiplied: true)!

    @Test("an image drawn at its size lands upright: its row 0 is the bitmap's row 0")
    func upright() {
        let ctx = rgbaContext(2, 2)
        ctx.draw(Self.quad, in: CGRect(x: 0, y: 0, width: 2, height: 2))
        #expect(bytes(ctx, 0, 0) == [255, 0, 0, 255] && bytes(ctx, 1, 0) == [0, 255, 0, 255])
        #expect(bytes(ctx, 0, 1) == [0, 0, 255, 255] && bytes(ctx, 1, 1) == [255, 255, 255, 255])
        #expect(ctx.makeImage()!.rgba8Bytes == Self.quad.rgba8Bytes)
    }

    @Test("a flipped CTM (the UIKit idiom) draws it upside down, as on Apple")
    func flipped() {
        let ctx = rgbaContext(2, 2)
        ctx.translateBy(x: 0, y: 2)
        ctx.scaleBy(x: 1, y: -1)
        ctx.draw(Self.quad, in: CGRect(x: 0, y: 0, width: 2, height: 2))
        #expect(bytes(ctx, 0, 0) == [0, 0, 255, 255] && bytes(ctx, 0, 1) == [255, 0, 0, 255])
    }

    @Test("interpolationQuality .none scales by nearest pixel; the default interpolates bilinearly")
    func interpolation() {
        let bw = CGImage(width: 2, height: 1, rgba8Bytes: [0, 0, 0, 255, 255, 255, 255, 255], premultiplied: true)!
        let near = rgbaContext(4, 1)
        near.interpolationQuality = .none
        near.draw(bw, in: CGRect(x: 0, y: 0, width: 4, height: 1))
        #expect((0..<4).map { bytes(near, $0, 0)[0] } == [0, 0, 255, 255])
        let lin = rgbaContext(4, 1)
        lin.draw(bw, in: CGRect(x: 0, y: 0, width: 4, height: 1))
        // Centres at u = 0.25, 0.75, 1.25, 1.75 image pixels: weights of the right texel 0 (clamped), 0.25, 0.75, 1.
        #expect((0..<4).map { bytes(lin, $0, 0)[0] } == [0, 64, 191, 255])
    }

    @Test("byTiling repeats the image across the clip, starting at the rect")
    func tiling() {
        let rb = CGImage(width: 2, height: 1, rgba8Bytes: [255, 0, 0, 255, 0, 0, 255, 255], premultiplied: true)!
        let ctx = rgbaContext(6, 1)
        ctx.clip(to: CGRect(x: 0, y: 0, width: 5, height: 1))
        ctx.draw(rb, in: CGRect(x: 1, y: 0, width: 2, height: 1), byTiling: true)
        #expect((0..<6).map { bytes(ctx, $0, 0)[0] } == [0, 255, 0, 255, 0, 0])
        #expect(bytes(ctx, 0, 0) == [0, 0, 255, 255] && bytes(ctx, 5, 0) == [0, 0, 0, 0])
    }

    @Test("an empty or non-finite rect draws nothing")
    func degenerate() {
        let ctx = rgbaContext(2, 2)
        ctx.draw(Self.quad, in: .zero)
        ctx.draw(Self.quad, in: CGRect(x: 0, y: 0, width: CGFloat.nan, height: 2))
        ctx.draw(Self.quad, in: CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 2))
        #expect(ctx.makeImage()!.rgba8Bytes.allSatisfy { $0 == 0 })
    }
}
