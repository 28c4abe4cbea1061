import CALottie
/// One layer property of the format: its JSON name (the Swift property name of Apple's API),
/// the key-value-coding key the model stores it under, and its value kind.
struct SceneProperty {
    let name: String
    let key: String
    let kind: SceneValueKind
    init(_ name: String, _ kind: SceneValueKind, key: String? = nil) {
        self.name = name
        self.key = key ?? name
        self.kind = kind
    }
}

/// The layer classes and properties a scene file may use (docs/SCENE-FORMAT.md, "Layers").
/// Written out rather than derived from the model's key table so the format is a documented
/// contract that does not change when the model grows a key.
enum SceneSchema {
    /// `CAMediaTiming` of layers and animations.
    static let timing: [SceneProperty] = [
        .init("beginTime", .number), .init("duration", .number), .init("speed", .number),
        .init("timeOffset", .number), .init("repeatCount", .number), .init("repeatDuration", .number),
        .init("autoreverses", .bool), .init("fillMode", .constant(SceneConstants.fillMode)),
    ]

    /// Timing fields that accept "infinity".
    static let infiniteTiming: Set<String> = ["duration", "repeatCount", "repeatDuration"]

    static let layer: [SceneProperty] = [
        .init("name", .string),
        .init("bounds", .rect), .init("position", .point), .init("zPosition", .number),
        .init("anchorPoint", .point), .init("anchorPointZ", .number),
        .init("transform", .transform), .init("sublayerTransform", .transform),
        .init("isHidden", .bool, key: "hidden"), .init("isDoubleSided", .bool, key: "doubleSided"),
        .init("isGeometryFlipped", .bool, key: "geometryFlipped"), .init("masksToBounds", .bool),
        .init("contents", .image), .init("contentsRect", .rect),
        .init("contentsGravity", .constant(SceneConstants.contentsGravity)),
        .init("contentsScale", .number), .init("contentsCenter", .rect),
        .init("contentsFormat", .constant(SceneConstants.contentsFormat)),
        .init("minificationFilter", .constant(SceneConstants.contentsFilter)),
        .init("magnificationFilter", .constant(SceneConstants.contentsFilter)),
        .init("minificationFilterBias", .number),
        .init("isOpaque", .bool, key: "opaque"), .init("opacity", .number),
        .init("allowsGroupOpacity", .bool), .init("allowsEdgeAntialiasing", .bool),
        .init("edgeAntialiasingMask", .edgeMask),
        .init("backgroundColor", .color), .init("cornerRadius", .number), .init("maskedCorners", .cornerMask),
        .init("cornerCurve", .constant(SceneConstants.cornerCurve)),
        .init("borderWidth", .number), .init("borderColor", .color),
        .init("shadowColor", .color), .init("shadowOpacity", .number), .init("shadowOffset", .size),
        .init("shadowRadius", .number), .init("shadowPath", .path),
        .init("shouldRasterize", .bool), .init("rasterizationScale", .number),
        .init("drawsAsynchronously", .bool), .init("needsDisplayOnBoundsChange", .bool),
    ] + timing

    static let gradient: [SceneProperty] = [
        .init("colors", .colorArray), .init("locations", .numberArray),
        .init("startPoint", .point), .init("endPoint", .point),
        .init("type", .constant(SceneConstants.gradientType)),
    ]

    static let shape: [SceneProperty] = [
        .init("path", .path), .init("fillColor", .color), .init("strokeColor", .color),
        .init("fillRule", .constant(SceneConstants.fillRule)), .init("lineWidth", .number),
        .init("miterLimit", .number), .init("lineCap", .constant(SceneConstants.lineCap)),
        .init("lineJoin", .constant(SceneConstants.lineJoin)), .init("strokeStart", .number),
        .init("strokeEnd", .number), .init("lineDashPhase", .number), .init("lineDashPattern", .numberArray),
    ]

    /// `CAScrollLayer`: the scroll position is `bounds.origin` (a CALayer member).
    static let scroll: [SceneProperty] = [.init("scrollMode", .constant(SceneConstants.scrollMode))]

    /// `CAVideoLayer` (extension beyond Apple's API): `videoGravity` takes `contentsGravity`'s
    /// values; its `source` (a video file relative to the scene) is read by code
    /// (`SceneReader+Video.swift`).
    static let video: [SceneProperty] = [.init("videoGravity", .constant(SceneConstants.contentsGravity))]

    /// Swift properties of CALayer the format leaves out on purpose, with the reason.
    static let unsupportedLayerFields: [String: String] = [
        "style": "the style dictionary is not part of the scene format; set the properties directly",
        "actions": "layer actions are code; use scheduled transactions instead",
        "delegate": "delegates are code and cannot be written in a scene file",
    ]

    /// The layer classes the format accepts, `CALayer` first.
    static let layerClasses: [CALayer.Type] = [CALayer.self, CAGradientLayer.self, CAShapeLayer.self, CATransformLayer.self,
                                               CATextLayer.self, CAReplicatorLayer.self, CAEmitterLayer.self, CAScrollLayer.self,
                                               CAVideoLayer.self, LottieAnimationLayer.self]

    /// The layer classes the format accepts.
    static func layerClass(_ name: String) -> CALayer.Type? {
        switch name {
        case "CALayer": return CALayer.self
        case "CAGradientLayer": return CAGradientLayer.self
        case "CATransformLayer": return CATransformLayer.self
        case "CAShapeLayer": return CAShapeLayer.self
        case "CATextLayer": return CATextLayer.self
        case "CAReplicatorLayer": return CAReplicatorLayer.self
        case "CAEmitterLayer": return CAEmitterLayer.self
        case "CAScrollLayer": return CAScrollLayer.self
        case "CAVideoLayer": return CAVideoLayer.self
        case "LottieAnimationLayer": return LottieAnimationLayer.self
        default: return nil
        }
    }

    /// A new layer of an accepted class (`init()` is not `required`, so not through the metatype).
    static func makeLayer(_ cls: CALayer.Type) -> CALayer {
        if cls == CAGradientLayer.self { return CAGradientLayer() }
        if cls == CATransformLayer.self { return CATransformLayer() }
        if cls == CAShapeLayer.self { return CAShapeLayer() }
        if cls == CATextLayer.self { return CATextLayer() }
        if cls == CAReplicatorLayer.self { return CAReplicatorLayer() }
        if cls == CAEmitterLayer.self { return CAEmitterLayer() }
        if cls == CAScrollLayer.self { return CAScrollLayer() }
        if cls == CAVideoLayer.self { return CAVideoLayer() }
        if cls == LottieAnimationLayer.self { return LottieAnimationLayer() }
        return CALayer()
    }

    /// Why a known Apple layer class is not accepted (yet).
    static let unsupportedLayerClasses: [String: String] = [
        "CATiledLayer": "CATiledLayer is not supported in scene files (its tiles are drawn by code)",
    ]

    static func className(of layer: CALayer) -> String? {
        switch layer {
        case is CAGradientLayer: return "CAGradientLayer"
        case is CATransformLayer: return "CATransformLayer"
        case is CAShapeLayer: return "CAShapeLayer"
        case is CAScrollLayer: return "CAScrollLayer"
        case is CAVideoLayer: return "CAVideoLayer"
        case is LottieAnimationLayer: return "LottieAnimationLayer"
        case is CATextLayer: return "CATextLayer"
        case is CAEmitterLayer: return "CAEmitterLayer"
        case is CAReplicatorLayer: return "CAReplicatorLayer"
        default: return type(of: layer) == CALayer.self ? "CALayer" : nil
        }
    }

    static func properties(of cls: CALayer.Type) -> [SceneProperty] {
        if cls is CAGradientLayer.Type { return layer + gradient }
        if cls is CAShapeLayer.Type { return layer + shape }
        if cls is CATextLayer.Type { return layer + text }
        if cls is CAReplicatorLayer.Type { return layer + replicator }
        if cls is CAEmitterLayer.Type { return layer + emitterLayer }   // SceneReader+Emitter.swift
        if cls is CAScrollLayer.Type { return layer + scroll }
        if cls is CAVideoLayer.Type { return layer + video }
        return layer
    }

    /// The property named `name` (JSON name) for class `cls`.
    static func property(_ name: String, of cls: CALayer.Type) -> SceneProperty? {
        properties(of: cls).first { $0.name == name }
    }

    /// The property behind a key path's first component (`colors` of `colors`, `transform` of
    /// `transform.rotation.z`): animations type their values by it.
    static func property(forKey key: String, of cls: CALayer.Type) -> SceneProperty? {
        properties(of: cls).first { $0.key == key || $0.name == key }
    }
}
