import Foundation
import Testing
@testable import CoreAnimation

/// True when running `body` recorded a new warning containing `needle`.
/// Whether `body` itself warned about `needle`: captured per call (`Diagnostics.capture`), not
/// counted in the process-wide list of recent warnings, which is a 256-entry ring that other
/// suites running in parallel fill (a full ring kept the count unchanged: a flaky failure).
private func warns(_ needle: String, _ body: () -> Void) -> Bool {
    Diagnostics.capture(body).1.contains { $0.contains(needle) }
}

private func sample() -> CALayer {
    let l = CALayer()
    l.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
    l.position = CGPoint(x: 200, y: 300)
    return l
}

@Suite struct LayerBadInputTests {
    // MARK: Non-finite geometry

    @Test("bad input: NaN or infinite position is ignored with a warning")
    func nanPosition() {
        let l = sample()
        #expect(warns("position") { l.position = CGPoint(x: CGFloat.nan, y: 1) })
        #expect(warns("position") { l.position = CGPoint(x: 1, y: CGFloat.infinity) })
        #expect(l.position == CGPoint(x: 200, y: 300))
    }

    @Test("bad input: non-finite bounds, frame and anchorPoint are ignored with a warning")
    func nanRects() {
        let l = sample()
        #expect(warns("bounds") { l.bounds = CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 1) })
        #expect(warns("frame") { l.frame = CGRect(x: CGFloat.nan, y: 0, width: 10, height: 10) })
        #expect(warns("anchorPoint") { l.anchorPoint = CGPoint(x: CGFloat.nan, y: 0) })
        #expect(warns("zPosition") { l.zPosition = -.infinity })
        #expect(l.bounds == CGRect(x: 0, y: 0, width: 100, height: 50))
        #expect(l.position == CGPoint(x: 200, y: 300))
        #expect(l.anchorPoint == CGPoint(x: 0.5, y: 0.5))
        #expect(l.zPosition == 0)
        #expect(l.frame == CGRect(x: 150, y: 275, width: 100, height: 50))
    }

    @Test("bad input: a transform containing NaN is ignored with a warning")
    func nanTransform() {
        let l = sample()
        var t = CATransform3DMakeScale(2, 2, 1)
        t.m41 = .nan
        #expect(warns("transform") { l.transform = t })
        #expect(CATransform3DIsIdentity(l.transform))
        #expect(warns("sublayerTransform") { l.sublayerTransform = t })
        #expect(CATransform3DIsIdentity(l.sublayerTransform))
    }

    @Test("bad input: NaN scalars (opacity, cornerRadius, borderWidth, shadowRadius) are ignored")
    func nanScalars() {
        let l = sample()
        #expect(warns("opacity") { l.opacity = .nan })
        #expect(warns("cornerRadius") { l.cornerRadius = .nan })
        #expect(warns("borderWidth") { l.borderWidth = .infinity })
        #expect(warns("shadowRadius") { l.shadowRadius = .nan })
        #expect(l.opacity == 1 && l.cornerRadius == 0 && l.borderWidth == 0 && l.shadowRadius == 3)
    }

    @Test("bad input: NaN through KVC and key paths is ignored with a warning")
    func nanKVC() {
        let l = sample()
        #expect(warns("position") { l.setValue(Double.nan, forKeyPath: "position.x") })
        #expect(warns("bounds") { l.setValue(CGFloat.infinity, forKeyPath: "bounds.size.width") })
        #expect(warns("opacity") { l.setValue(Float.nan, forKey: "opacity") })
        #expect(l.position == CGPoint(x: 200, y: 300))
        #expect(l.bounds.width == 100)
        #expect(l.opacity == 1)
    }

    @Test("bad input: non-finite timing (beginTime, speed, timeOffset) is ignored")
    func nanTiming() {
        let l = CALayer()
        #expect(warns("beginTime") { l.beginTime = .nan })
        #expect(warns("speed") { l.speed = .infinity })
        #expect(warns("timeOffset") { l.timeOffset = .nan })
        #expect(l.beginTime == 0 && l.speed == 1 && l.timeOffset == 0)
    }

    @Test("bad input: contentsScale zero or negative is ignored")
    func contentsScale() {
        let l = CALayer()
        #expect(warns("contentsScale") { l.contentsScale = 0 })
        #expect(warns("contentsScale") { l.contentsScale = -2 })
        #expect(l.contentsScale == 1)
    }

    // MARK: Negative sizes

    @Test("bad input: negative-size bounds do not crash; the frame is a proper bounding box")
    func negativeBounds() {
        let l = sample()
        l.bounds = CGRect(x: 0, y: 0, width: -100, height: -50)
        let f = l.frame
        #expect(f.width >= 0 && f.height >= 0)
        #expect(f == CGRect(x: 150, y: 275, width: 100, height: 50))
        #expect(l.contains(CGPoint(x: -10, y: -10)))
    }

    @Test("bad input: a negative-size frame is standardised before it is set")
    func negativeFrame() {
        let l = CALayer()
        l.frame = CGRect(x: 10, y: 20, width: -100, height: -50)
        #expect(l.bounds == CGRect(x: 0, y: 0, width: 100, height: 50))
        #expect(l.position == CGPoint(x: -40, y: -5))
        #expect(l.frame == CGRect(x: -90, y: -30, width: 100, height: 50))
    }

    // MARK: Unknown key paths

    @Test("bad input: unknown key paths read nil with a warning")
    func unknownKeyPathRead() {
        let l = sample()
        for path in ["position.z", "transform.rotation.w", "bounds.middle", "opacity.x"] {
            var v: Any? = 0
            #expect(warns(path) { v = l.value(forKeyPath: path) })
            #expect(v == nil)
        }
    }

    @Test("bad input: writing an unknown key path is ignored with a warning")
    func unknownKeyPathWrite() {
        let l = sample()
        let before = l.transform
        #expect(warns("position.z") { l.setValue(1, forKeyPath: "position.z") })
        #expect(warns("transform.shear") { l.setValue(1, forKeyPath: "transform.shear") })
        #expect(warns("frame.centre") { l.setValue(CGPoint.zero, forKeyPath: "frame.centre") })
        #expect(l.position == CGPoint(x: 200, y: 300))
        #expect(CATransform3DEqualToTransform(l.transform, before))
    }

    @Test("bad input: empty key path components do not crash")
    func emptyComponents() {
        let l = sample()
        _ = l.value(forKeyPath: ".")
        _ = l.value(forKeyPath: "position.")
        l.setValue(1, forKeyPath: ".x")
        #expect(l.position == CGPoint(x: 200, y: 300))
    }

    // MARK: Wrong value types

    @Test("bad input: a value of the wrong type for a key is ignored with a warning")
    func wrongType() {
        let l = sample()
        #expect(warns("opacity") { l.setValue("abc", forKey: "opacity") })
        #expect(warns("bounds") { l.setValue(CGPoint(x: 1, y: 1), forKey: "bounds") })
        #expect(warns("position") { l.setValue(nil, forKey: "position") })
        #expect(warns("transform") { l.setValue("rotate", forKey: "transform") })
        #expect(warns("frame") { l.setValue(5, forKey: "frame") })
        #expect(l.opacity == 1)
        #expect(l.bounds == CGRect(x: 0, y: 0, width: 100, height: 50))
        #expect(l.position == CGPoint(x: 200, y: 300))
        #expect(CATransform3DIsIdentity(l.transform))
    }

    @Test("bad input: a wrong type for a key-path component is ignored with a warning")
    func wrongTypeKeyPath() {
        let l = sample()
        #expect(warns("position.x") { l.setValue("ten", forKeyPath: "position.x") })
        #expect(warns("bounds.origin") { l.setValue(5, forKeyPath: "bounds.origin") })
        #expect(warns("transform.translation") { l.setValue(3, forKeyPath: "transform.translation") })
        #expect(l.position == CGPoint(x: 200, y: 300))
        #expect(l.bounds.origin == .zero)
        #expect(CATransform3DIsIdentity(l.transform))
    }

    @Test("bad input: setting nil for an optional property clears it")
    func nilOptional() {
        let l = sample()
        l.backgroundColor = CGColor(gray: 1, alpha: 1)
        l.setValue(nil, forKey: "backgroundColor")
        #expect(l.backgroundColor == nil)
        l.setValue(NSNull(), forKey: "shadowColor")
        #expect(l.shadowColor == nil)
    }

    // MARK: Cycles

    @Test("bad input: adding a layer to itself is ignored with a warning")
    func selfCycle() {
        let l = CALayer()
        #expect(warns("cycle") { l.addSublayer(l) })
        #expect(l.sublayers == nil || l.sublayers!.isEmpty)
        #expect(l.superlayer == nil)
    }

    @Test("bad input: adding an ancestor as a sublayer is ignored with a warning")
    func ancestorCycle() {
        let root = CALayer(), mid = CALayer(), leaf = CALayer()
        root.addSublayer(mid)
        mid.addSublayer(leaf)
        #expect(warns("cycle") { leaf.addSublayer(root) })
        #expect(warns("cycle") { leaf.insertSublayer(mid, at: 0) })
        #expect(warns("cycle") { leaf.insertSublayer(root, above: nil) })
        #expect(warns("cycle") { leaf.insertSublayer(root, below: nil) })
        #expect(root.superlayer == nil)
        #expect(mid.superlayer === root && leaf.superlayer === mid)
        #expect(leaf.sublayers == nil || leaf.sublayers!.isEmpty)
        #expect(root.sublayers?.count == 1 && mid.sublayers?.count == 1)
    }

    @Test("bad input: replaceSublayer or sublayers = [...] with an ancestor is ignored")
    func ancestorCycleReplace() {
        let root = CALayer(), mid = CALayer(), leaf = CALayer(), x = CALayer()
        root.addSublayer(mid)
        mid.addSublayer(leaf)
        leaf.addSublayer(x)
        #expect(warns("cycle") { leaf.replaceSublayer(x, with: root) })
        #expect(x.superlayer === leaf)
        #expect(root.superlayer == nil)
        #expect(warns("cycle") { leaf.sublayers = [root] })
        #expect(root.superlayer == nil)
        #expect(mid.superlayer === root)
    }

    @Test("bad input: replaceSublayer of a layer that is not a sublayer changes nothing")
    func replaceStranger() {
        let p = CALayer(), a = CALayer(), stranger = CALayer(), n = CALayer()
        p.addSublayer(a)
        p.replaceSublayer(stranger, with: n)
        #expect(p.sublayers?.count == 1 && p.sublayers?.first === a)
        #expect(n.superlayer == nil)
    }

    // MARK: Masks

    @Test("bad input: own mask through KVC is ignored with a warning")
    func selfMaskKVC() {
        let l = CALayer()
        #expect(warns("mask") { l.setValue(l, forKey: "mask") })
        #expect(l.mask == nil)
    }

    @Test("bad input: a layer as its own mask is ignored with a warning")
    func selfMask() {
        let l = CALayer()
        #expect(warns("mask") { l.mask = l })
        #expect(l.mask == nil)
        #expect(l.superlayer == nil)
    }

    @Test("bad input: an ancestor as mask is ignored with a warning")
    func ancestorMask() {
        let root = CALayer(), child = CALayer()
        root.addSublayer(child)
        #expect(warns("mask") { child.mask = root })
        #expect(child.mask == nil)
        #expect(root.superlayer == nil)
    }

    @Test("bad input: a mask layer cannot take its masked layer as a sublayer")
    func maskCycle() {
        let l = CALayer(), m = CALayer()
        l.mask = m
        #expect(warns("cycle") { m.addSublayer(l) })
        #expect(l.superlayer == nil)
        #expect(m.superlayer === l)
    }
}
