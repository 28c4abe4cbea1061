import Testing
@testable import CoreAnimation

/// The CALayer subclass models against docs/BEHAVIOUR.md A1 (constant raw values), A3 (defaults),
/// E7 (implicit animation of shape keys) and L4 (presentation copies keep the class).
@Suite struct LayerSubclassTests {
    private func approx(_ a: Double, _ b: Double, _ eps: Double = 1e-9) -> Bool { abs(a - b) < eps }

    @Test("A3 CAShapeLayer defaults") func shapeDefaults() {
        let l = CAShapeLayer()
        #expect(l.path == nil)
        #expect(l.fillColor == CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        #expect(l.fillColor?.numberOfComponents == 4)
        #expect(l.strokeColor == nil)
        #expect(l.fillRule == .nonZero)
        #expect(l.lineWidth == 1)
        #expect(l.miterLimit == 10)
        #expect(l.lineCap == .butt)
        #expect(l.lineJoin == .miter)
        #expect(l.strokeStart == 0)
        #expect(l.strokeEnd == 1)
        #expect(l.lineDashPhase == 0)
        #expect(l.lineDashPattern == nil)
    }

    @Test("A3 CAGradientLayer defaults; unknown type kept as given") func gradientDefaults() {
        let l = CAGradientLayer()
        #expect(l.colors == nil)
        #expect(l.locations == nil)
        #expect(l.startPoint == CGPoint(x: 0.5, y: 0))
        #expect(l.endPoint == CGPoint(x: 0.5, y: 1))
        #expect(l.type == .axial)
        l.type = CAGradientLayerType(rawValue: "spiral")
        #expect(l.type.rawValue == "spiral")
        #expect(l.value(forKey: "type") as? String == "spiral")
    }

    @Test("A3 CATextLayer defaults") func textDefaults() {
        let l = CATextLayer()
        #expect(l.string == nil)
        #expect(l.font == nil)
        #expect(l.fontSize == 36)
        #expect(l.isWrapped == false)
        #expect(l.alignmentMode == .natural)
        #expect(l.truncationMode == .none)
        #expect(l.foregroundColor == CGColor(red: 1, green: 1, blue: 1, alpha: 1))
    }

    @Test("A3 CAReplicatorLayer defaults") func replicatorDefaults() {
        let l = CAReplicatorLayer()
        #expect(l.instanceCount == 1)
        #expect(l.instanceDelay == 0)
        #expect(l.instanceTransform == CATransform3DIdentity)
        #expect(l.preservesDepth == false)
        #expect(l.instanceColor == CGColor(red: 1, green: 1, blue: 1, alpha: 1))
        #expect(l.instanceRedOffset == 0 && l.instanceGreenOffset == 0)
        #expect(l.instanceBlueOffset == 0 && l.instanceAlphaOffset == 0)
    }

    @Test("A3 CATiledLayer, CAScrollLayer, CAEmitterLayer, CAEmitterCell defaults") func otherDefaults() {
        let t = CATiledLayer()
        #expect(t.levelsOfDetail == 1)
        #expect(t.levelsOfDetailBias == 0)
        #expect(t.tileSize == CGSize(width: 256, height: 256))
        #expect(CATiledLayer.fadeDuration() == 0.25)
        #expect(CAScrollLayer().scrollMode == .both)
        let e = CAEmitterLayer()
        #expect(e.emitterShape == .point)
        #expect(e.emitterMode == .volume)
        #expect(e.renderMode == .unordered)
        #expect(e.scale == 1 && e.spin == 1 && e.velocity == 1 && e.birthRate == 1 && e.lifetime == 1)
        #expect(e.seed == 0)
        #expect(e.emitterCells == nil)
        #expect(e.emitterPosition == .zero && e.emitterSize == .zero)
        let c = CAEmitterCell()
        #expect(c.isEnabled)
        #expect(c.color == CGColor(red: 1, green: 1, blue: 1, alpha: 1))
        #expect(c.scale == 1)
        #expect(c.contentsRect == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(c.birthRate == 0 && c.lifetime == 0 && c.velocity == 0)
    }

    @Test("A1 fill rule, line cap and line join raw values") func shapeConstants() {
        #expect(CAShapeLayerFillRule.nonZero.rawValue == "non-zero")
        #expect(CAShapeLayerFillRule.evenOdd.rawValue == "even-odd")
        #expect([CAShapeLayerLineCap.butt, .round, .square].map(\.rawValue) == ["butt", "round", "square"])
        #expect([CAShapeLayerLineJoin.miter, .round, .bevel].map(\.rawValue) == ["miter", "round", "bevel"])
    }

    @Test("A1 gradient, text, scroll and emitter constant raw values") func otherConstants() {
        #expect([CAGradientLayerType.axial, .radial, .conic].map(\.rawValue) == ["axial", "radial", "conic"])
        #expect([CATextLayerAlignmentMode.natural, .left, .right, .center, .justified].map(\.rawValue)
                == ["natural", "left", "right", "center", "justified"])
        #expect([CATextLayerTruncationMode.none, .start, .end, .middle].map(\.rawValue) == ["none", "start", "end", "middle"])
        #expect([CAScrollLayerScrollMode.none, .vertically, .horizontally, .both].map(\.rawValue)
                == ["none", "vertically", "horizontally", "both"])
        #expect([CAEmitterLayerEmitterShape.point, .line, .rectangle, .cuboid, .circle, .sphere].map(\.rawValue)
                == ["point", "line", "rectangle", "cuboid", "circle", "sphere"])
        #expect([CAEmitterLayerEmitterMode.points, .outline, .surface, .volume].map(\.rawValue)
                == ["points", "outline", "surface", "volume"])
        #expect([CAEmitterLayerRenderMode.unordered, .oldestFirst, .oldestLast, .backToFront, .additive].map(\.rawValue)
                == ["unordered", "oldestFirst", "oldestLast", "backToFront", "additive"])
    }

    @Test("KVC round-trip of subclass keys") func kvc() {
        let s = CAShapeLayer()
        s.setValue(3.5, forKey: "lineWidth")
        #expect(s.lineWidth == 3.5)
        #expect(s.value(forKey: "lineWidth") as? CGFloat == 3.5)
        s.setValue("even-odd", forKey: "fillRule")
        #expect(s.fillRule == .evenOdd)
        #expect(s.value(forKey: "fillRule") as? String == "even-odd")
        s.setValue(CAShapeLayerLineCap.round, forKey: "lineCap")
        #expect(s.lineCap == .round)
        s.setValue([2.0, 4.0], forKey: "lineDashPattern")
        #expect(s.lineDashPattern?.map(\.doubleValue) == [2, 4])
        s.setValue(CGColor(gray: 0.5, alpha: 1), forKey: "strokeColor")
        #expect(s.strokeColor == CGColor(gray: 0.5, alpha: 1))
        s.setValue(0.25, forKey: "strokeEnd")
        #expect(s.value(forKey: "strokeEnd") as? CGFloat == 0.25)

        let g = CAGradientLayer()
        g.setValue(CGPoint(x: 0, y: 0.5), forKey: "startPoint")
        #expect(g.startPoint == CGPoint(x: 0, y: 0.5))
        g.setValue([0.0, 1.0], forKey: "locations")
        #expect(g.locations?.map(\.doubleValue) == [0, 1])
        g.setValue("radial", forKey: "type")
        #expect(g.type == .radial)

        let t = CATextLayer()
        t.setValue(true, forKey: "wrapped")
        #expect(t.isWrapped)
        t.setValue("hello", forKey: "string")
        #expect(t.string as? String == "hello")
        t.setValue(12.0, forKey: "fontSize")
        #expect(t.value(forKey: "fontSize") as? CGFloat == 12)

        let r = CAReplicatorLayer()
        r.setValue(5, forKey: "instanceCount")
        #expect(r.instanceCount == 5)
        r.setValue(-0.1, forKey: "instanceAlphaOffset")
        #expect(r.value(forKey: "instanceAlphaOffset") as? Float == -0.1)

        let e = CAEmitterLayer()
        e.setValue(7, forKey: "seed")
        #expect(e.seed == 7)
        #expect(e.value(forKey: "seed") as? UInt32 == 7)
        e.setValue("circle", forKey: "emitterShape")
        #expect(e.emitterShape == .circle)
        let sc = CAScrollLayer()
        sc.setValue("vertically", forKey: "scrollMode")
        #expect(sc.scrollMode == .vertically)
        let tl = CATiledLayer()
        tl.setValue(CGSize(width: 64, height: 32), forKey: "tileSize")
        #expect(tl.tileSize == CGSize(width: 64, height: 32))
    }

    @Test("bad input is ignored, not stored") func badInput() {
        let s = CAShapeLayer()
        s.lineWidth = .nan
        s.strokeEnd = .infinity
        #expect(s.lineWidth == 1 && s.strokeEnd == 1)
        let r = CAReplicatorLayer()
        r.instanceCount = -3
        #expect(r.instanceCount == 1)
        r.instanceRedOffset = .nan
        #expect(r.instanceRedOffset == 0)
        let t = CATiledLayer()
        t.tileSize = CGSize(width: -1, height: 10)
        t.levelsOfDetail = 0
        #expect(t.tileSize == CGSize(width: 256, height: 256) && t.levelsOfDetail == 1)
        let e = CAEmitterLayer()
        e.birthRate = .nan
        e.setValue(-1, forKey: "seed")
        #expect(e.birthRate == 1 && e.seed == 0)
    }

    @Test("path is stored as a copy") func pathCopy() {
        let m = CGMutablePath()
        m.move(to: .zero)
        m.addLine(to: CGPoint(x: 10, y: 0))
        let s = CAShapeLayer()
        s.path = m
        let before = s.path!.elements.count
        m.addLine(to: CGPoint(x: 10, y: 10))
        #expect(s.path!.elements.count == before)
        #expect(s.path!.elements.count != m.elements.count)
    }

    @Test("L4 init(layer:) copies subclass state; presentation is of the model's class") func presentationCopy() {
        let s = CAShapeLayer()
        let p = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 20), transform: nil)
        s.path = p
        s.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        s.lineDashPattern = [NSNumber(value: 3)]
        CATransaction.flush()
        let pres = s.presentation()
        #expect(pres != nil)
        #expect(type(of: pres!) == CAShapeLayer.self)
        #expect(pres?.path == s.path)
        #expect(pres?.fillColor == CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        #expect(pres?.lineDashPattern?.map(\.intValue) == [3])

        let copies: [(CALayer, (CALayer) -> Bool)] = [
            ({ let g = CAGradientLayer(); g.startPoint = CGPoint(x: 1, y: 1); return g }(), { ($0 as? CAGradientLayer)?.startPoint == CGPoint(x: 1, y: 1) }),
            ({ let t = CATextLayer(); t.fontSize = 9; return t }(), { ($0 as? CATextLayer)?.fontSize == 9 }),
            ({ let r = CAReplicatorLayer(); r.instanceCount = 4; return r }(), { ($0 as? CAReplicatorLayer)?.instanceCount == 4 }),
            ({ let c = CAScrollLayer(); c.scrollMode = .none; return c }(), { ($0 as? CAScrollLayer)?.scrollMode == CAScrollLayerScrollMode.none }),
            ({ let t = CATiledLayer(); t.levelsOfDetail = 3; return t }(), { ($0 as? CATiledLayer)?.levelsOfDetail == 3 }),
            ({ let e = CAEmitterLayer(); e.emitterShape = .sphere; return e }(), { ($0 as? CAEmitterLayer)?.emitterShape == .sphere }),
        ]
        for (layer, check) in copies {
            let c = type(of: layer).init(layer: layer)
            #expect(type(of: c) == type(of: layer))
            #expect(check(c), "init(layer:) of \(type(of: layer))")
        }
    }

    @Test("E7 path has no implicit animation; fillColor and strokeEnd do") func shapeImplicitActions() {
        let s = CAShapeLayer()
        CATransaction.flush()
        #expect(s.action(forKey: "path") == nil)
        #expect(s.action(forKey: "fillColor") is CABasicAnimation)
        #expect(s.action(forKey: "strokeEnd") is CABasicAnimation)
        #expect(s.action(forKey: "lineDashPattern") == nil)
        let g = CAGradientLayer()
        #expect(g.action(forKey: "startPoint") is CABasicAnimation)
    }

    @Test("explicit CABasicAnimation on strokeEnd evaluates") func strokeEndAnimation() throws {
        let s = CAShapeLayer()
        CATransaction.flush()
        let a = CABasicAnimation(keyPath: "strokeEnd")
        a.fromValue = 0.0
        a.toValue = 1.0
        a.duration = 1
        s.add(a, forKey: "draw")
        CATransaction.flush()
        let begin = try #require(s.animation(forKey: "draw")).beginTime
        let out = TimingEngine.evaluatePresentation(of: s, base: try #require(s.committedCopy), at: begin + 0.5)
        let shape = try #require(out as? CAShapeLayer)
        #expect(approx(Double(shape.strokeEnd), 0.5, 1e-6))
        #expect(s.strokeEnd == 1)
    }

    @Test("CAScrollLayer scroll(to:) honours scrollMode; CALayer scroll helpers") func scrolling() {
        let sc = CAScrollLayer()
        sc.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        sc.scroll(to: CGPoint(x: 10, y: 20))
        #expect(sc.bounds.origin == CGPoint(x: 10, y: 20))
        sc.scrollMode = .vertically
        sc.scroll(to: CGPoint(x: 50, y: 60))
        #expect(sc.bounds.origin == CGPoint(x: 10, y: 60))
        sc.scrollMode = .horizontally
        sc.scroll(to: CGPoint(x: 50, y: 0))
        #expect(sc.bounds.origin == CGPoint(x: 50, y: 60))
        sc.scrollMode = .none
        sc.scroll(to: CGPoint(x: 0, y: 0))
        #expect(sc.bounds.origin == CGPoint(x: 50, y: 60))

        sc.scrollMode = .both
        sc.scroll(to: CGPoint.zero)
        sc.scroll(to: CGRect(x: 150, y: 20, width: 30, height: 30))
        #expect(sc.bounds.origin == CGPoint(x: 80, y: 0))
        sc.scroll(to: CGRect(x: 10, y: 0, width: 10, height: 10))
        #expect(sc.bounds.origin == CGPoint(x: 10, y: 0))

        // A content layer at the scroll layer's origin: its coordinates equal the scroll
        // layer's, so scroll(_:) brings the point to the scroll layer's origin.
        sc.scroll(to: CGPoint.zero)
        let content = CALayer()
        content.anchorPoint = .zero
        content.bounds = CGRect(x: 0, y: 0, width: 400, height: 400)
        sc.addSublayer(content)
        content.scroll(CGPoint(x: 30, y: 40))
        #expect(sc.bounds.origin == CGPoint(x: 30, y: 40))
        #expect(content.visibleRect == CGRect(x: 30, y: 40, width: 100, height: 100))
        content.scrollRectToVisible(CGRect(x: 300, y: 40, width: 20, height: 20))
        #expect(sc.bounds.origin == CGPoint(x: 220, y: 40))
        let lone = CALayer()
        lone.bounds = CGRect(x: 0, y: 0, width: 5, height: 5)
        #expect(lone.visibleRect == lone.bounds)
    }

    @Test("CATransformLayer hit test never returns itself") func transformLayerHitTest() {
        let t = CATransformLayer()
        t.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        t.anchorPoint = .zero
        #expect(t.hitTest(CGPoint(x: 50, y: 50)) == nil)
        let child = CALayer()
        child.anchorPoint = .zero
        child.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        t.addSublayer(child)
        #expect(t.hitTest(CGPoint(x: 10, y: 10)) === child)
    }
}
