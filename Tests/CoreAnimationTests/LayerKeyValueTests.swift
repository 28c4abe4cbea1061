import Foundation
import Testing
@testable import CoreAnimation

private func near(_ a: CGFloat, _ b: CGFloat, _ tol: CGFloat = 1e-9) -> Bool { abs(a - b) <= tol }
private func entries(_ t: CATransform3D) -> [CGFloat] {
    [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44]
}
private func near(_ a: CATransform3D, _ b: CATransform3D, _ tol: CGFloat = 1e-9) -> Bool {
    zip(entries(a), entries(b)).allSatisfy { abs($0 - $1) <= tol }
}
private func cg(_ v: Any?) -> CGFloat? { v as? CGFloat }

final class ClockLayer: CALayer {
    @LayerProperty(key: "time") var time: CGFloat = 0
}

@Suite struct LayerKeyValueTests {
    // MARK: value(forKey:) types

    @Test("KVC value(forKey:) returns each property's Swift type")
    func valueTypes() {
        let l = CALayer()
        l.opacity = 0.25
        l.cornerRadius = 4
        l.position = CGPoint(x: 1, y: 2)
        l.bounds = CGRect(x: 0, y: 0, width: 3, height: 4)
        l.isHidden = true
        #expect(l.value(forKey: "opacity") as? Float == 0.25)
        #expect(l.value(forKey: "cornerRadius") as? CGFloat == 4)
        #expect(l.value(forKey: "position") as? CGPoint == CGPoint(x: 1, y: 2))
        #expect(l.value(forKey: "bounds") as? CGRect == CGRect(x: 0, y: 0, width: 3, height: 4))
        #expect(l.value(forKey: "frame") as? CGRect == l.frame)
        #expect(l.value(forKey: "hidden") as? Bool == true)
        #expect(l.value(forKey: "isHidden") as? Bool == true)
        #expect(l.value(forKey: "shadowOffset") as? CGSize == CGSize(width: 0, height: -3))
        #expect(l.value(forKey: "duration") as? Double == .infinity)
        #expect(l.value(forKey: "transform").map { $0 is CATransform3D } == true)
    }

    @Test("KVC setValue(_:forKey:) sets the property")
    func setValueForKey() {
        let l = CALayer()
        l.setValue(CGPoint(x: 5, y: 6), forKey: "position")
        l.setValue(CGRect(x: 0, y: 0, width: 10, height: 20), forKey: "bounds")
        l.setValue(true, forKey: "masksToBounds")
        l.setValue(CATransform3DMakeScale(2, 2, 1), forKey: "transform")
        #expect(l.position == CGPoint(x: 5, y: 6))
        #expect(l.bounds == CGRect(x: 0, y: 0, width: 10, height: 20))
        #expect(l.masksToBounds)
        #expect(near(l.transform, CATransform3DMakeScale(2, 2, 1)))
        l.setValue(CGRect(x: 10, y: 20, width: 100, height: 50), forKey: "frame")
        #expect(l.frame == CGRect(x: 10, y: 20, width: 100, height: 50))
    }

    @Test("KVC numbers given as Double, Float, CGFloat, Int and NSNumber all work")
    func numberTypes() {
        let inputs: [(Any, Double)] = [(0.5 as Double, 0.5), (Float(0.25), 0.25), (CGFloat(0.75), 0.75),
                                       (2 as Int, 2), (NSNumber(value: 0.125), 0.125)]
        for (v, expected) in inputs {
            let l = CALayer()
            l.setValue(v, forKey: "opacity")
            #expect(Double(l.opacity) == expected)
            l.setValue(v, forKey: "cornerRadius")
            #expect(l.cornerRadius == CGFloat(expected))
            l.setValue(v, forKeyPath: "position.x")
            #expect(l.position.x == CGFloat(expected))
            l.setValue(v, forKeyPath: "transform.translation.y")
            #expect(near(l.transform.m42, CGFloat(expected)))
        }
    }

    // MARK: E6 key paths

    @Test("E6 position.x and position.y read and write one component")
    func positionComponents() {
        let l = CALayer()
        l.position = CGPoint(x: 3, y: 4)
        #expect(cg(l.value(forKeyPath: "position.x")) == 3)
        #expect(cg(l.value(forKeyPath: "position.y")) == 4)
        l.setValue(10, forKeyPath: "position.x")
        #expect(l.position == CGPoint(x: 10, y: 4))
    }

    @Test("E6 bounds.size.width, bounds.origin and other rect paths")
    func rectPaths() {
        let l = CALayer()
        l.bounds = CGRect(x: 1, y: 2, width: 30, height: 40)
        #expect(cg(l.value(forKeyPath: "bounds.size.width")) == 30)
        #expect(cg(l.value(forKeyPath: "bounds.size.height")) == 40)
        #expect(cg(l.value(forKeyPath: "bounds.origin.x")) == 1)
        #expect(cg(l.value(forKeyPath: "bounds.origin.y")) == 2)
        #expect(l.value(forKeyPath: "bounds.origin") as? CGPoint == CGPoint(x: 1, y: 2))
        #expect(l.value(forKeyPath: "bounds.size") as? CGSize == CGSize(width: 30, height: 40))
        l.setValue(80, forKeyPath: "bounds.size.width")
        #expect(l.bounds == CGRect(x: 1, y: 2, width: 80, height: 40))
        l.setValue(CGPoint(x: 7, y: 8), forKeyPath: "bounds.origin")
        #expect(l.bounds == CGRect(x: 7, y: 8, width: 80, height: 40))
        l.setValue(CGSize(width: 5, height: 6), forKeyPath: "bounds.size")
        #expect(l.bounds == CGRect(x: 7, y: 8, width: 5, height: 6))
        l.setValue(9, forKeyPath: "bounds.origin.y")
        #expect(l.bounds.origin.y == 9)
    }

    @Test("E6 frame has the CGRect key paths too (frame.origin, frame.size.width)")
    func framePaths() {
        let l = CALayer()
        l.frame = CGRect(x: 10, y: 20, width: 100, height: 50)
        #expect(l.value(forKeyPath: "frame.origin") as? CGPoint == CGPoint(x: 10, y: 20))
        #expect(cg(l.value(forKeyPath: "frame.size.width")) == 100)
        l.setValue(CGPoint(x: 0, y: 0), forKeyPath: "frame.origin")
        #expect(l.position == CGPoint(x: 50, y: 25))
        l.setValue(40, forKeyPath: "frame.size.height")
        #expect(l.frame == CGRect(x: 0, y: 0, width: 100, height: 40))
    }

    @Test("KVC mask and sublayers by key")
    func treeKeys() {
        let l = CALayer(), m = CALayer(), s = CALayer()
        l.setValue(m, forKey: "mask")
        l.setValue([s], forKey: "sublayers")
        #expect(l.mask === m && m.superlayer === l)
        #expect((l.value(forKey: "sublayers") as? [CALayer])?.first === s)
        #expect(l.value(forKey: "mask") as? CALayer === m)
        l.setValue(nil, forKey: "mask")
        #expect(l.mask == nil && m.superlayer == nil)
    }

    @Test("E6 shadowOffset.height and .width")
    func sizePaths() {
        let l = CALayer()
        #expect(cg(l.value(forKeyPath: "shadowOffset.height")) == -3)
        l.setValue(7, forKeyPath: "shadowOffset.height")
        l.setValue(2, forKeyPath: "shadowOffset.width")
        #expect(l.shadowOffset == CGSize(width: 2, height: 7))
    }

    @Test("E6 transform.rotation.z reads and writes the z rotation; transform.rotation is the same")
    func rotationZ() {
        let l = CALayer()
        l.transform = CATransform3DMakeRotation(0.5, 0, 0, 1)
        #expect(near(cg(l.value(forKeyPath: "transform.rotation.z")) ?? .nan, 0.5))
        #expect(near(cg(l.value(forKeyPath: "transform.rotation")) ?? .nan, 0.5))
        l.setValue(1.0, forKeyPath: "transform.rotation.z")
        #expect(near(l.transform, CATransform3DMakeRotation(1, 0, 0, 1)))
        l.setValue(0.25, forKeyPath: "transform.rotation")
        #expect(near(l.transform, CATransform3DMakeRotation(0.25, 0, 0, 1)))
    }

    @Test("E6 transform.rotation.x and .y")
    func rotationXY() {
        let l = CALayer()
        l.setValue(0.5, forKeyPath: "transform.rotation.x")
        #expect(near(l.transform, CATransform3DMakeRotation(0.5, 1, 0, 0)))
        #expect(near(cg(l.value(forKeyPath: "transform.rotation.x")) ?? .nan, 0.5))
        let m = CALayer()
        m.setValue(-0.3, forKeyPath: "transform.rotation.y")
        #expect(near(m.transform, CATransform3DMakeRotation(-0.3, 0, 1, 0)))
        #expect(near(cg(m.value(forKeyPath: "transform.rotation.y")) ?? .nan, -0.3))
    }

    @Test("E6 transform.scale reads the average of the three factors; setting sets all three")
    func scale() {
        let l = CALayer()
        l.transform = CATransform3DMakeScale(1, 2, 6)
        #expect(near(cg(l.value(forKeyPath: "transform.scale")) ?? .nan, 3))
        #expect(near(cg(l.value(forKeyPath: "transform.scale.x")) ?? .nan, 1))
        #expect(near(cg(l.value(forKeyPath: "transform.scale.y")) ?? .nan, 2))
        #expect(near(cg(l.value(forKeyPath: "transform.scale.z")) ?? .nan, 6))
        l.setValue(2, forKeyPath: "transform.scale")
        #expect(near(l.transform, CATransform3DMakeScale(2, 2, 2)))
        l.setValue(4, forKeyPath: "transform.scale.y")
        #expect(near(l.transform, CATransform3DMakeScale(2, 4, 2)))
    }

    @Test("E6 setting transform.translation.x to 10 shifts the layer by 10")
    func translationX() {
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: 100, height: 50)
        let before = l.frame
        l.setValue(10, forKeyPath: "transform.translation.x")
        #expect(near(l.transform, CATransform3DMakeTranslation(10, 0, 0)))
        #expect(near(l.frame.minX, before.minX + 10))
        #expect(near(l.frame.minY, before.minY))
        #expect(cg(l.value(forKeyPath: "transform.translation.x")) == 10)
        l.setValue(3, forKeyPath: "transform.translation.z")
        #expect(near(l.transform, CATransform3DMakeTranslation(10, 0, 3)))
    }

    @Test("E6 transform.translation is a CGSize of x and y")
    func translationSize() {
        let l = CALayer()
        l.transform = CATransform3DMakeTranslation(3, 4, 5)
        #expect(l.value(forKeyPath: "transform.translation") as? CGSize == CGSize(width: 3, height: 4))
        l.setValue(CGSize(width: 7, height: 8), forKeyPath: "transform.translation")
        #expect(near(l.transform, CATransform3DMakeTranslation(7, 8, 5)))
    }

    @Test("E6 a component write replaces only that component of the decomposed transform")
    func componentOnly() {
        let l = CALayer()
        // Scale (2,3) applied first, then the rotation: decomposes into exactly those parts.
        l.transform = CATransform3DScale(CATransform3DMakeRotation(0.5, 0, 0, 1), 2, 3, 1)
        #expect(near(cg(l.value(forKeyPath: "transform.scale.y")) ?? .nan, 3))
        l.setValue(10, forKeyPath: "transform.translation.x")
        #expect(near(cg(l.value(forKeyPath: "transform.rotation.z")) ?? .nan, 0.5))
        #expect(near(cg(l.value(forKeyPath: "transform.scale.x")) ?? .nan, 2))
        #expect(near(cg(l.value(forKeyPath: "transform.scale.y")) ?? .nan, 3))
        #expect(near(l.transform.m41, 10) && near(l.transform.m42, 0))
        l.setValue(0.25, forKeyPath: "transform.rotation.z")
        #expect(near(cg(l.value(forKeyPath: "transform.scale.x")) ?? .nan, 2))
        #expect(near(cg(l.value(forKeyPath: "transform.translation.x")) ?? .nan, 10))
    }

    @Test("E6 sublayerTransform supports the same key paths")
    func sublayerTransformPaths() {
        let l = CALayer()
        l.setValue(2, forKeyPath: "sublayerTransform.scale")
        #expect(near(l.sublayerTransform, CATransform3DMakeScale(2, 2, 2)))
    }

    @Test("E6 key-path components come back as CGFloat")
    func componentType() {
        let l = CALayer()
        #expect(l.value(forKeyPath: "position.x") is CGFloat)
        #expect(l.value(forKeyPath: "transform.rotation.z") is CGFloat)
        #expect(l.value(forKeyPath: "bounds.size.width") is CGFloat)
    }

    @Test("E6 value(forKeyPath:) without a dot is value(forKey:)")
    func plainKeyPath() {
        let l = CALayer()
        l.opacity = 0.5
        #expect(l.value(forKeyPath: "opacity") as? Float == 0.5)
        l.setValue(0.75, forKeyPath: "opacity")
        #expect(l.opacity == 0.75)
    }

    // MARK: Custom keys

    @Test("KVC custom keys round-trip as stored")
    func customKeys() {
        let l = CALayer()
        l.setValue("hello", forKey: "greeting")
        l.setValue(3, forKey: "count")
        l.setValue(CGPoint(x: 1, y: 2), forKey: "spot")
        #expect(l.value(forKey: "greeting") as? String == "hello")
        #expect(l.value(forKey: "count") as? Int == 3)
        #expect(l.value(forKey: "spot") as? CGPoint == CGPoint(x: 1, y: 2))
        #expect(l.value(forKey: "neverSet") == nil)
        l.setValue(nil, forKey: "greeting")
        #expect(l.value(forKey: "greeting") == nil)
    }

    @Test("KVC custom key paths reach into stored structures")
    func customKeyPath() {
        let l = CALayer()
        l.setValue(CGPoint(x: 1, y: 2), forKey: "spot")
        #expect(cg(l.value(forKeyPath: "spot.y")) == 2)
        l.setValue(5, forKeyPath: "spot.x")
        #expect(l.value(forKey: "spot") as? CGPoint == CGPoint(x: 5, y: 2))
    }

    @Test("KVC @LayerProperty(key: time) stores through key-value coding")
    func layerProperty() {
        let l = ClockLayer()
        #expect(l.time == 0)
        l.time = 2.5
        #expect(l.value(forKey: "time") as? CGFloat == 2.5)
        l.setValue(4.0, forKey: "time")
        #expect(l.time == 4)
        l.setValue(NSNumber(value: 6), forKey: "time")
        #expect(l.time == 6)
        l.setValue(Float(1.5), forKey: "time")
        #expect(l.time == 1.5)
    }

    @Test("KVC init(layer:) copies custom values")
    func copyCustom() {
        let l = ClockLayer()
        l.time = 3
        l.setValue("x", forKey: "tag")
        let c = ClockLayer(layer: l)
        #expect(c.time == 3)
        #expect(c.value(forKey: "tag") as? String == "x")
    }

    // MARK: N5b/N6 value rules

    @Test("N6 maskedCorners 255 reads back 15, directly and by KVC")
    func maskedCorners() {
        let l = CALayer()
        l.maskedCorners = CACornerMask(rawValue: 255)
        #expect(l.maskedCorners.rawValue == 15)
        l.maskedCorners = [.layerMinXMinYCorner]
        #expect(l.maskedCorners.rawValue == 1)
        l.setValue(255, forKey: "maskedCorners")
        #expect(l.maskedCorners.rawValue == 15)
        #expect((l.value(forKey: "maskedCorners") as? NSNumber)?.intValue == 15)
    }

    @Test("N5 edgeAntialiasingMask keeps only the four edge bits")
    func edgeMask() {
        let l = CALayer()
        l.edgeAntialiasingMask = CAEdgeAntialiasingMask(rawValue: 0xFF)
        #expect(l.edgeAntialiasingMask.rawValue == 15)
        l.edgeAntialiasingMask = [.layerTopEdge]
        #expect(l.edgeAntialiasingMask.rawValue == 8)
    }

    @Test("N6 unknown cornerCurve resets to circular; continuous is kept")
    func cornerCurve() {
        let l = CALayer()
        l.cornerCurve = .continuous
        #expect(l.cornerCurve == .continuous)
        l.cornerCurve = CALayerCornerCurve(rawValue: "squircle")
        #expect(l.cornerCurve == .circular)
        l.setValue("continuous", forKey: "cornerCurve")
        #expect(l.value(forKey: "cornerCurve") as? String == "continuous")
        l.setValue("bogus", forKey: "cornerCurve")
        #expect(l.value(forKey: "cornerCurve") as? String == "circular")
    }

    @Test("N6 cornerCurveExpansionFactor: continuous 1.528665, everything else 1")
    func expansionFactor() {
        #expect(near(CALayer.cornerCurveExpansionFactor(.continuous), 1.528665, 1e-5))
        #expect(CALayer.cornerCurveExpansionFactor(.circular) == 1)
        #expect(CALayer.cornerCurveExpansionFactor(CALayerCornerCurve(rawValue: "other")) == 1)
    }

    @Test("N5b a known contentsGravity is kept; an unknown one reads back center")
    func contentsGravity() {
        let l = CALayer()
        l.contentsGravity = .topLeft
        #expect(l.contentsGravity == .topLeft)
        l.contentsGravity = CALayerContentsGravity(rawValue: "sideways")
        #expect(l.contentsGravity == .center)
        l.setValue("resizeAspect", forKey: "contentsGravity")
        #expect(l.value(forKey: "contentsGravity") as? String == "resizeAspect")
        l.setValue("nowhere", forKey: "contentsGravity")
        #expect(l.value(forKey: "contentsGravity") as? String == "center")
    }
}
