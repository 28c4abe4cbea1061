import Testing

/// Transparency layers and shadows (Apple: CGContext beginTransparencyLayer(auxiliaryInfo:),
/// beginTransparencyLayer(in:auxiliaryInfo:), endTransparencyLayer(); setShadow(offset:blur:color:),
/// setShadow(offset:blur:): "shadow parameters … are not affected by the current transformation
/// matrix"; default shadow colour RGBA {0, 0, 0, 1/3}).
@Suite struct CGContextLayerShadowTests {
    @Test("a layer composites as one image: overlapping opaque rects at alpha 0.5 show only the top one")
    func layerGroupAlpha() {
        let ctx = rgbaContext(3, 1)
        ctx.setAlpha(0.5)
        ctx.beginTransparencyLayer(auxiliaryInfo: nil)
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 2, height: 1))
        ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        ctx.fill(CGRect(x: 1, y: 0, width: 2, height: 1))
        ctx.endTransparencyLayer()
        #expect(bytes(ctx, 0, 0) == [128, 0, 0, 128])
        #expect(bytes(ctx, 1, 0) == [0, 0, 128, 128])            // not red seen through blue
        // Without a layer, the second rect at alpha 0.5 would blend with the first:
        let plain = rgbaContext(3, 1)
        plain.setAlpha(0.5)
        plain.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        plain.fill(CGRect(x: 0, y: 0, width: 2, height: 1))
        plain.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        plain.fill(CGRect(x: 1, y: 0, width: 2, height: 1))
        #expect(bytes(plain, 1, 0) == [64, 0, 128, 192])   // α = 0.5 + (128/255)(1 − 0.5) = 0.751 → 191.5
    }

    @Test("the state set inside a layer ends with it; beginTransparencyLayer(in:) clips to the rect")
    func layerStateAndRect() {
        let ctx = rgbaContext(4, 1)
        ctx.beginTransparencyLayer(in: CGRect(x: 1, y: 0, width: 2, height: 1), auxiliaryInfo: nil)
        ctx.translateBy(x: 5, y: 0)
        ctx.translateBy(x: -5, y: 0)
        ctx.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 1))
        ctx.endTransparencyLayer()
        #expect((0..<4).map { bytes(ctx, $0, 0)[3] } == [0, 255, 255, 0])
        ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))         // fill colour is black again
        #expect(bytes(ctx, 0, 0) == [0, 0, 0, 255])
    }

    @Test("unbalanced endTransparencyLayer is ignored with a warning; deep nesting is capped")
    func unbalanced() {
        let ctx = rgbaContext(2, 2)
        let (_, warnings) = CGDiagnostics.capture { ctx.endTransparencyLayer() }
        #expect(warnings.contains { $0.contains("endTransparencyLayer") })
        let (_, deep) = CGDiagnostics.capture {
            for _ in 0..<100 { ctx.beginTransparencyLayer(auxiliaryInfo: nil) }
        }
        #expect(ctx.layers.count == CGContext.maxTransparencyLayers)
        #expect(deep.contains { $0.contains("nested layers") })
        ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        for _ in 0..<100 { ctx.endTransparencyLayer() }
        #expect(ctx.layers.isEmpty)
        #expect(bytes(ctx, 0, 1) == [0, 0, 0, 255])
        // A context freed with layers open frees them too (no leak, no crash).
        let open = rgbaContext(2, 2)
        open.beginTransparencyLayer(auxiliaryInfo: nil)
    }

    @Test("shadow offset is in base space: width right, height up, unaffected by the CTM")
    func shadowOffset() {
        for scale in [CGFloat(1), 2] {
            let ctx = rgbaContext(6, 6)
            ctx.scaleBy(x: scale, y: scale)
            ctx.setShadow(offset: CGSize(width: 2, height: -2), blur: 0, color: CGColor(red: 1, green: 0, blue: 0, alpha: 1))
            ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
            ctx.fill(CGRect(x: 0, y: 5 / scale, width: 1 / scale, height: 1 / scale))   // device (0, 5)–(1, 6): row 0
            #expect(bytes(ctx, 0, 0) == [0, 0, 255, 255], "scale \(scale)")
            #expect(bytes(ctx, 2, 2) == [255, 0, 0, 255], "scale \(scale)")           // 2 right, 2 down
            #expect(bytes(ctx, 1, 1) == [0, 0, 0, 0], "scale \(scale)")
        }
    }

    @Test("setShadow(offset:blur:) uses black at 1/3 alpha; a nil colour turns the shadow off")
    func defaultShadow() {
        let ctx = rgbaContext(4, 1)
        ctx.setShadow(offset: CGSize(width: 2, height: 0), blur: 0)
        ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(bytes(ctx, 2, 0) == [0, 0, 0, 85])
        ctx.setShadow(offset: CGSize(width: 2, height: 0), blur: 0, color: nil)
        ctx.fill(CGRect(x: 1, y: 0, width: 1, height: 1))
        #expect(bytes(ctx, 3, 0) == [0, 0, 0, 0])
    }

    @Test("a blurred shadow fades with distance from the shape; the shape's own pixels stay opaque")
    func blurSpreads() {
        let ctx = rgbaContext(40, 40)
        ctx.setShadow(offset: .zero, blur: 6, color: CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        ctx.fill(CGRect(x: 15, y: 15, width: 10, height: 10))
        // σ = 3: just outside the left edge about half, 5 px out a few percent, far away nothing.
        let near = bytes(ctx, 14, 20)[3], far = bytes(ctx, 10, 20)[3]
        #expect(near > far && far > 0 && near > 64 && near < 192, "\(near) \(far)")
        #expect(bytes(ctx, 20, 20)[3] == 255 && bytes(ctx, 0, 0)[3] == 0)
        // A transparent fill casts no shadow (the shadow takes the drawing's alpha).
        let clear = rgbaContext(40, 40)
        clear.setShadow(offset: .zero, blur: 6, color: CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        clear.setFillColor(red: 0, green: 0, blue: 0, alpha: 0)
        clear.fill(CGRect(x: 15, y: 15, width: 10, height: 10))
        #expect(clear.makeImage()!.rgba8Bytes.allSatisfy { $0 == 0 })
    }

    @Test("a blur of 1e9 is clamped (warning) and a shadow far outside is bounded work")
    func hugeBlur() {
        let ctx = rgbaContext(16, 16)
        let (_, warnings) = CGDiagnostics.capture {
            ctx.setShadow(offset: CGSize(width: 1e12, height: .nan), blur: 1e9, color: CGColor(gray: 0, alpha: 1))
        }
        #expect(warnings.contains { $0.contains("blur") })
        #expect(ctx.gstate.shadow?.blur == CGContext.maxShadowBlur)
        ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(bytes(ctx, 1, 14) == [0, 0, 0, 255])
    }
}
