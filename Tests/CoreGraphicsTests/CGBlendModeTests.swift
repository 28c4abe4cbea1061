import Testing

/// The 28 blend modes (Apple: CGBlendMode; W3C Compositing and Blending Level 1 §5.8, §10 for
/// the separable and non-separable modes; Porter-Duff equations as Apple's CGBlendMode
/// documentation states them). Expected bytes are worked out by hand from those formulas; ±1 is
/// allowed for Float rounding at .5 boundaries.
@Suite struct CGBlendModeTests {
    /// One pixel: `dst` filled with `.copy`, then `src` filled with `mode`.
    static func composite(dst: (CGFloat, CGFloat, CGFloat, CGFloat), src: (CGFloat, CGFloat, CGFloat, CGFloat),
                          _ mode: CGBlendMode) -> [UInt8] {
        let ctx = rgbaContext(1, 1)
        let r = CGRect(x: 0, y: 0, width: 1, height: 1)
        ctx.setBlendMode(.copy)
        ctx.setFillColor(red: dst.0, green: dst.1, blue: dst.2, alpha: dst.3)
        ctx.fill(r)
        ctx.setBlendMode(mode)
        ctx.setFillColor(red: src.0, green: src.1, blue: src.2, alpha: src.3)
        ctx.fill(r)
        return bytes(ctx, 0, 0)
    }

    static func near(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
    }

    static let allCases = CGBlendMode.allCases

    @Test("all 28 modes exist with Apple's raw values")
    func rawValues() {
        #expect(CGBlendMode.allCases.count == 28)
        #expect(CGBlendMode.normal.rawValue == 0 && CGBlendMode.luminosity.rawValue == 15)
        #expect(CGBlendMode.clear.rawValue == 16 && CGBlendMode.plusLighter.rawValue == 27)
    }

    // Opaque: Cb = (0.8, 0.4, 0.2) = bytes (204, 102, 51), Cs = (0.2, 0.6, 1.0); the result is B(Cb, Cs).
    @Test("separable and non-separable modes on opaque colours give B(Cb, Cs)",
          arguments: [
            (CGBlendMode.multiply, [41, 61, 51]),      // Cb·Cs = 0.16, 0.24, 0.2
            (.screen, [214, 194, 255]),                // Cb + Cs − Cb·Cs = 0.84, 0.76, 1
            (.overlay, [173, 122, 102]),               // HardLight(Cs, Cb): 0.68, 0.48, 0.4
            (.darken, [51, 102, 51]),
            (.lighten, [204, 153, 255]),
            (.colorDodge, [255, 255, 255]),            // min(1, Cb / (1 − Cs)) = 1, 1, 1 (Cs = 1 → 1)
            (.colorBurn, [0, 0, 51]),                  // 1 − min(1, (1 − Cb) / Cs) = 0, 0, 0.2
            (.hardLight, [82, 133, 255]),              // 0.32, Screen(0.4, 0.2) = 0.52, 1
            (.softLight, [180, 114, 114]),             // 0.704, 0.4465, 0.448
            (.difference, [153, 51, 204]),             // |Cb − Cs|
            (.exclusion, [173, 133, 204]),             // Cb + Cs − 2·Cb·Cs = 0.68, 0.52, 0.8
            (.hue, [65, 142, 218]),                    // SetLum(SetSat(Cs, Sat(Cb)), Lum(Cb)) = 0.255, 0.555, 0.855
            (.saturation, [230, 94, 26]),              // SetLum(SetSat(Cb, Sat(Cs)), Lum(Cb)) = 0.9007, 0.3673, 0.1007
            (.color, [44, 146, 248]),                  // SetLum(Cs, Lum(Cb)) = 0.174, 0.574, 0.974
            (.luminosity, [211, 109, 58]),             // SetLum(Cb, Lum(Cs)) = 0.826, 0.426, 0.226
          ] as [(CGBlendMode, [UInt8])])
    func opaqueBlend(_ mode: CGBlendMode, _ expected: [UInt8]) {
        let got = Self.composite(dst: (0.8, 0.4, 0.2, 1), src: (0.2, 0.6, 1.0, 1), mode)
        #expect(Self.near(got, expected + [255]), "\(mode): \(got)")
    }

    // Translucent: D = (0.6, 0, 0, 0.6) premultiplied (red at alpha 0.6: bytes 153, 0, 0, 153),
    // S = (0, 0, 0.4, 0.4) premultiplied (blue at alpha 0.4).
    @Test("Porter-Duff modes and plusLighter/plusDarker on translucent colours (premultiplied R = … formulas)",
          arguments: [
            (CGBlendMode.normal, [92, 0, 102, 194]),   // S + D(1 − Sa) = 0.36, 0, 0.4, 0.76
            (.clear, [0, 0, 0, 0]),
            (.copy, [0, 0, 102, 102]),                 // S
            (.sourceIn, [0, 0, 61, 61]),               // S·Da = 0.24
            (.sourceOut, [0, 0, 41, 41]),              // S(1 − Da) = 0.16
            (.sourceAtop, [92, 0, 61, 153]),           // S·Da + D(1 − Sa) = 0.36, 0, 0.24, 0.6
            (.destinationOver, [153, 0, 41, 194]),     // S(1 − Da) + D = 0.6, 0, 0.16, 0.76
            (.destinationIn, [61, 0, 0, 61]),          // D·Sa = 0.24
            (.destinationOut, [92, 0, 0, 92]),         // D(1 − Sa) = 0.36
            (.destinationAtop, [61, 0, 41, 102]),      // S(1 − Da) + D·Sa = 0.24, 0, 0.16, 0.4
            (.xor, [92, 0, 41, 133]),                  // S(1 − Da) + D(1 − Sa) = 0.36, 0, 0.16, 0.52
            (.plusLighter, [153, 0, 102, 255]),        // min(1, S + D) = 0.6, 0, 0.4, 1
            (.plusDarker, [153, 0, 102, 255]),         // αo = 1; max(0, 1 − ((Da − D) + (Sa − S))) = 0.6, 0, 0.4
            (.multiply, [92, 0, 41, 194]),             // S(1 − Da) + D(1 − Sa) + SaDa·(Cb·Cs = 0) = 0.36, 0, 0.16; αo 0.76
          ] as [(CGBlendMode, [UInt8])])
    func translucent(_ mode: CGBlendMode, _ expected: [UInt8]) {
        let got = Self.composite(dst: (1, 0, 0, 0.6), src: (0, 0, 1, 0.4), mode)
        #expect(Self.near(got, expected), "\(mode): \(got)")
    }

    @Test("coverage limits every mode to the shape: copy and clear with a rect leave the rest alone")
    func shapeBounded() {
        for mode in [CGBlendMode.copy, .clear, .sourceIn, .destinationIn] {
            let ctx = rgbaContext(3, 1)
            ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
            ctx.fill(CGRect(x: 0, y: 0, width: 3, height: 1))
            ctx.setBlendMode(mode)
            ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 0)
            ctx.fill(CGRect(x: 1, y: 0, width: 1, height: 1))
            #expect(bytes(ctx, 0, 0) == [255, 0, 0, 255] && bytes(ctx, 2, 0) == [255, 0, 0, 255], "\(mode)")
            #expect(bytes(ctx, 1, 0) == [0, 0, 0, 0], "\(mode)")
        }
    }

    @Test("setAlpha scales the source before the blend: multiply at alpha 0.5 over white")
    func alphaThenBlend() {
        let ctx = rgbaContext(1, 1)
        ctx.setFillColor(gray: 1, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        ctx.setAlpha(0.5)
        ctx.setBlendMode(.multiply)
        ctx.setFillColor(red: 0, green: 0, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        // S = (0, 0, 0, 0.5), D = 1: S(1 − Da) + D(1 − Sa) + SaDa·0 = 0.5 → 128 (127.5 rounded up).
        #expect(Self.near(bytes(ctx, 0, 0), [128, 128, 128, 255]))
    }
}
