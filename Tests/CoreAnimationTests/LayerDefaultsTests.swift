import Testing
@testable import CoreAnimation

@Suite struct LayerDefaultsTests {
    // MARK: A1 — string values of constants

    @Test("A1 fill modes are removed forwards backwards both")
    func fillModes() {
        #expect([CAMediaTimingFillMode.removed, .forwards, .backwards, .both].map(\.rawValue)
                == ["removed", "forwards", "backwards", "both"])
    }

    @Test("A1 timing function names")
    func timingFunctionNames() {
        #expect([CAMediaTimingFunctionName.linear, .easeIn, .easeOut, .easeInEaseOut, .default].map(\.rawValue)
                == ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"])
    }

    @Test("A1 calculation modes and rotation modes")
    func calculationModes() {
        #expect([CAAnimationCalculationMode.linear, .discrete, .paced, .cubic, .cubicPaced].map(\.rawValue)
                == ["linear", "discrete", "paced", "cubic", "cubicPaced"])
        #expect(CAAnimationRotationMode.rotateAuto.rawValue == "auto")
        #expect(CAAnimationRotationMode.rotateAutoReverse.rawValue == "autoReverse")
    }

    @Test("A1 transition types, subtypes and event keys")
    func transitions() {
        #expect([CATransitionType.fade, .moveIn, .push, .reveal].map(\.rawValue) == ["fade", "moveIn", "push", "reveal"])
        #expect([CATransitionSubtype.fromLeft, .fromRight, .fromTop, .fromBottom].map(\.rawValue)
                == ["fromLeft", "fromRight", "fromTop", "fromBottom"])
        #expect(kCATransition == "transition")
        #expect(kCAOnOrderIn == "onOrderIn")
        #expect(kCAOnOrderOut == "onOrderOut")
    }

    @Test("A1 contents gravity names")
    func gravity() {
        let g: [CALayerContentsGravity] = [.center, .top, .bottom, .left, .right, .topLeft, .topRight,
                                            .bottomLeft, .bottomRight, .resize, .resizeAspect, .resizeAspectFill]
        #expect(g.map(\.rawValue) == ["center", "top", "bottom", "left", "right", "topLeft", "topRight",
                                      "bottomLeft", "bottomRight", "resize", "resizeAspect", "resizeAspectFill"])
    }

    @Test("A1 value function names: 11, unknown or empty gives nil, same name equal")
    func valueFunctions() {
        let names: [CAValueFunctionName] = [.rotateX, .rotateY, .rotateZ, .scale, .scaleX, .scaleY, .scaleZ,
                                            .translate, .translateX, .translateY, .translateZ]
        #expect(names.map(\.rawValue) == ["rotateX", "rotateY", "rotateZ", "scale", "scaleX", "scaleY", "scaleZ",
                                          "translate", "translateX", "translateY", "translateZ"])
        for n in names { #expect(CAValueFunction(name: n) != nil) }
        #expect(CAValueFunction(name: CAValueFunctionName(rawValue: "bogus")) == nil)
        #expect(CAValueFunction(name: CAValueFunctionName(rawValue: "")) == nil)
        #expect(CAValueFunction(name: .rotateZ) == CAValueFunction(name: .rotateZ))
        #expect(CAValueFunction(name: .rotateZ) != CAValueFunction(name: .rotateX))
    }

    @Test("A1 transaction keys")
    func transactionKeys() {
        #expect(kCATransactionAnimationDuration == "animationDuration")
        #expect(kCATransactionDisableActions == "disableActions")
        #expect(kCATransactionAnimationTimingFunction == "animationTimingFunction")
    }

    @Test("A1 corner curves and contents formats")
    func cornerCurvesAndFormats() {
        #expect(CALayerCornerCurve.circular.rawValue == "circular")
        #expect(CALayerCornerCurve.continuous.rawValue == "continuous")
        #expect([CALayerContentsFormat.RGBA8Uint, .RGBA16Float, .gray8Uint, .automatic].map(\.rawValue)
                == ["RGBA8", "RGBAh", "Gray8", "Automatic"])
        #expect(CALayerContentsFilter.linear.rawValue == "linear")
        #expect(CALayerContentsFilter.nearest.rawValue == "nearest")
        #expect(CALayerContentsFilter.trilinear.rawValue == "trilinear")
    }

    // MARK: A2 — CALayer defaults

    @Test("A2 geometry defaults: bounds zero, position zero, anchor (0.5,0.5), identity transforms")
    func geometryDefaults() {
        let l = CALayer()
        #expect(l.bounds == CGRect(x: 0, y: 0, width: 0, height: 0))
        #expect(l.position == CGPoint(x: 0, y: 0))
        #expect(l.anchorPoint == CGPoint(x: 0.5, y: 0.5))
        #expect(l.anchorPointZ == 0)
        #expect(l.zPosition == 0)
        #expect(CATransform3DIsIdentity(l.transform))
        #expect(CATransform3DIsIdentity(l.sublayerTransform))
        #expect(l.frame == .zero)
    }

    @Test("A2 state defaults: opacity 1, not hidden, doubleSided, no masking or flipping")
    func stateDefaults() {
        let l = CALayer()
        #expect(l.opacity == 1)
        #expect(l.isHidden == false)
        #expect(l.masksToBounds == false)
        #expect(l.isGeometryFlipped == false)
        #expect(l.isDoubleSided == true)
        #expect(l.isOpaque == false)
        #expect(l.allowsGroupOpacity == true)
        #expect(l.allowsEdgeAntialiasing == true)
        #expect(l.edgeAntialiasingMask.rawValue == 15)
        #expect(CAEdgeAntialiasingMask.layerLeftEdge.rawValue == 1)
        #expect(CAEdgeAntialiasingMask.layerRightEdge.rawValue == 2)
        #expect(CAEdgeAntialiasingMask.layerBottomEdge.rawValue == 4)
        #expect(CAEdgeAntialiasingMask.layerTopEdge.rawValue == 8)
        #expect(l.drawsAsynchronously == false)
        #expect(l.shouldRasterize == false)
        #expect(l.rasterizationScale == 1)
        #expect(l.needsDisplayOnBoundsChange == false)
    }

    @Test("A2 appearance defaults: corner, border, shadow (radius 3, offset (0,-3))")
    func appearanceDefaults() {
        let l = CALayer()
        #expect(l.cornerRadius == 0)
        #expect(l.borderWidth == 0)
        #expect(l.shadowOpacity == 0)
        #expect(l.shadowRadius == 3)
        #expect(l.shadowOffset == CGSize(width: 0, height: -3))
        #expect(l.shadowPath == nil)
        #expect(l.cornerCurve == .circular)
        #expect(l.maskedCorners.rawValue == 15)
        #expect(CACornerMask.layerMinXMinYCorner.rawValue == 1)
        #expect(CACornerMask.layerMaxXMinYCorner.rawValue == 2)
        #expect(CACornerMask.layerMinXMaxYCorner.rawValue == 4)
        #expect(CACornerMask.layerMaxXMaxYCorner.rawValue == 8)
    }

    @Test("A2 doc defaults: borderColor and shadowColor opaque black")
    func colorDefaults() throws {
        let l = CALayer()
        let b = try #require(l.borderColor?.components)
        let s = try #require(l.shadowColor?.components)
        #expect(b.last == 1 && b.dropLast().allSatisfy { $0 == 0 })
        #expect(s.last == 1 && s.dropLast().allSatisfy { $0 == 0 })
        #expect(l.backgroundColor == nil)
    }

    @Test("A2 contents defaults: rects (0,0,1,1), linear filters, RGBA8, gravity resize, scale 1")
    func contentsDefaults() {
        let l = CALayer()
        #expect(l.contents == nil)
        #expect(l.contentsRect == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(l.contentsCenter == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(l.minificationFilter == .linear)
        #expect(l.magnificationFilter == .linear)
        #expect(l.minificationFilterBias == 0)
        #expect(l.contentsFormat.rawValue == "RGBA8")
        #expect(l.contentsGravity == .resize)
        #expect(l.contentsScale == 1)
    }

    @Test("A2 nil defaults: contents, backgroundColor, sublayers, actions, style, mask, filters")
    func nilDefaults() {
        let l = CALayer()
        #expect(l.sublayers == nil)
        #expect(l.superlayer == nil)
        #expect(l.actions == nil)
        #expect(l.style == nil)
        #expect(l.mask == nil)
        #expect(l.filters == nil)
        #expect(l.backgroundFilters == nil)
        #expect(l.compositingFilter == nil)
        #expect(l.name == nil)
        #expect(l.delegate == nil)
    }

    @Test("A2 layer timing defaults: duration +inf, speed 1, rest 0")
    func timingDefaults() {
        let l = CALayer()
        #expect(l.beginTime == 0)
        #expect(l.timeOffset == 0)
        #expect(l.repeatDuration == 0)
        #expect(l.repeatCount == 0)
        #expect(l.autoreverses == false)
        #expect(l.duration == .infinity)
        #expect(l.speed == 1)
        #expect(l.fillMode == .removed)
    }

    @Test("A2 defaultValue(forKey:) non-nil for anchorPoint, nil for bounds, position, frame")
    func classDefaults() {
        #expect(CALayer.defaultValue(forKey: "anchorPoint") as? CGPoint == CGPoint(x: 0.5, y: 0.5))
        #expect(CALayer.defaultValue(forKey: "bounds") == nil)
        #expect(CALayer.defaultValue(forKey: "position") == nil)
        #expect(CALayer.defaultValue(forKey: "frame") == nil)
    }

    @Test("A2 defaultValue(forKey:) of a subclass override is read for unset custom keys")
    func subclassDefault() {
        #expect(DefaultingLayer().value(forKey: "wobble") as? Double == 7)
        #expect(CALayer().value(forKey: "wobble") == nil)
    }
}

private final class DefaultingLayer: CALayer {
    override class func defaultValue(forKey key: String) -> Any? {
        key == "wobble" ? 7.0 : super.defaultValue(forKey: key)
    }
}
