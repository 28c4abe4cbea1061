import Testing

/// Gradients (Apple: CGGradient init(colorsSpace:colors:locations:),
/// init(colorSpace:colorComponents:locations:count:), CGContext drawLinearGradient /
/// drawRadialGradient with CGGradientDrawingOptions). Pixels sample the ramp at their centres.
@Suite struct CGGradientTests {
    static let blackToWhite = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(),
                                         colors: [CGColor.black, CGColor.white] as CFArray,
                                         locations: [0, 1])!

    @Test("linear: pixel centres at t = 1/8, 3/8, 5/8, 7/8 of black → white")
    func linear() {
        let ctx = rgbaContext(4, 1)
        ctx.drawLinearGradient(Self.blackToWhite, start: .zero, end: CGPoint(x: 4, y: 0), options: [])
        // 255·t: 31.9, 95.6, 159.4, 223.1.
        #expect((0..<4).map { bytes(ctx, $0, 0)[0] } == [32, 96, 159, 223])
        #expect(bytes(ctx, 0, 0)[3] == 255)
    }

    @Test("without options nothing is painted before the start or after the end; the options extend the end colours")
    func extend() {
        let plain = rgbaContext(4, 1)
        plain.drawLinearGradient(Self.blackToWhite, start: CGPoint(x: 1, y: 0), end: CGPoint(x: 3, y: 0), options: [])
        #expect(bytes(plain, 0, 0) == [0, 0, 0, 0] && bytes(plain, 3, 0) == [0, 0, 0, 0])
        #expect(bytes(plain, 1, 0) == [64, 64, 64, 255])           // t = 0.25 → 63.75
        let both = rgbaContext(4, 1)
        both.drawLinearGradient(Self.blackToWhite, start: CGPoint(x: 1, y: 0), end: CGPoint(x: 3, y: 0),
                                options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        #expect(bytes(both, 0, 0) == [0, 0, 0, 255] && bytes(both, 3, 0) == [255, 255, 255, 255])
    }

    @Test("radial: t is the distance from the centre over the radius; outside the end circle only with the option")
    func radial() {
        let g = CGGradient(colorSpace: CGColorSpaceCreateDeviceGray(), colorComponents: [0, 1, 1, 1],
                           locations: nil, count: 2)!
        let ctx = rgbaContext(10, 10)
        ctx.drawRadialGradient(g, startCenter: CGPoint(x: 5, y: 5), startRadius: 0,
                               endCenter: CGPoint(x: 5, y: 5), endRadius: 5, options: [])
        // Pixel (7, row 4): centre (7.5, 5.5) in y-up space, 2.5495 from (5, 5): t = 0.5099 → 130.
        #expect(bytes(ctx, 7, 4) == [130, 130, 130, 255])
        #expect(bytes(ctx, 0, 0) == [0, 0, 0, 0])                 // 6.36 from the centre: outside
        ctx.drawRadialGradient(g, startCenter: CGPoint(x: 5, y: 5), startRadius: 0,
                               endCenter: CGPoint(x: 5, y: 5), endRadius: 5, options: .drawsAfterEndLocation)
        #expect(bytes(ctx, 0, 0) == [255, 255, 255, 255])
    }

    @Test("a gradient with no stops is nil; the clip limits a gradient; the CTM maps its points")
    func noStopsClipCTM() {
        #expect(CGGradient(colorsSpace: nil, colors: [] as CFArray, locations: nil) == nil)
        #expect(CGGradient(colorsSpace: nil, colors: ["not a colour"] as CFArray, locations: nil) == nil)
        #expect(CGGradient(colorSpace: CGColorSpaceCreateDeviceRGB(), colorComponents: [0, 0, 0, 1],
                           locations: nil, count: 0) == nil)
        let ctx = rgbaContext(4, 1)
        ctx.clip(to: CGRect(x: 0, y: 0, width: 2, height: 1))
        ctx.scaleBy(x: 2, y: 1)
        ctx.drawLinearGradient(Self.blackToWhite, start: .zero, end: CGPoint(x: 2, y: 0), options: [])
        #expect(bytes(ctx, 1, 0) == [96, 96, 96, 255] && bytes(ctx, 2, 0) == [0, 0, 0, 0])
    }

    @Test("three stops with unsorted locations are sorted; colours interpolate unpremultiplied")
    func stops() {
        let g = CGGradient(colorsSpace: nil,
                           colors: [CGColor(red: 0, green: 0, blue: 1, alpha: 1), CGColor(red: 1, green: 0, blue: 0, alpha: 1),
                                    CGColor(red: 0, green: 1, blue: 0, alpha: 0)] as CFArray,
                           locations: [0.5, 0, 1])!
        let ctx = rgbaContext(4, 1)
        ctx.drawLinearGradient(g, start: .zero, end: CGPoint(x: 4, y: 0), options: [])
        // t = 0.125: red → blue at 0.25 of the way = (0.75, 0, 0.25) opaque.
        #expect(bytes(ctx, 0, 0) == [191, 0, 64, 255])
        // t = 0.875: blue (opaque) → transparent green, 0.75 of the way: (0, 0.75, 0.25), α 0.25 → premultiplied.
        #expect(bytes(ctx, 3, 0) == [0, 48, 16, 64])
    }
}
