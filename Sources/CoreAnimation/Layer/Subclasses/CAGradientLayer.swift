/// The stored values of a `CAGradientLayer` with Apple's defaults (docs/BEHAVIOUR.md A3,
/// `CAGradientLayer/gradient.m`): no colours or locations, a top-to-bottom axial gradient.
package struct GradientLayerState {
    package var colors: [Any]? = nil
    package var locations: [NSNumber]? = nil
    package var startPoint = CGPoint(x: 0.5, y: 0)
    package var endPoint = CGPoint(x: 0.5, y: 1)
    package var type = CAGradientLayerType.axial
    /// Package extension beyond Apple's API (SVG's focal radial gradient, SVG 1.1 §13.2.3):
    /// when set on a `.radial` gradient, in the layer's unit coordinates, the ramp runs from
    /// this point (t = 0) to the circle around `startPoint` through `endPoint` (t = 1), each
    /// point taking the largest t whose circle (centre and radius interpolated from the focal
    /// point with radius 0 to that circle) passes through it. The point must lie inside the
    /// circle; the renderer pulls it in to 0.999 of the radius otherwise. Nil: Apple's radial.
    package var focalPoint: CGPoint? = nil
}

/// A layer that draws a colour gradient over its background (Apple's `CAGradientLayer`).
/// Points are in the unit coordinate space of the layer's bounds.
open class CAGradientLayer: CALayer {
    package var gradient = GradientLayerState()

    public override init() { super.init() }

    /// Copies the gradient state too (presentation copies are of the model's class, L4).
    public required init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CAGradientLayer { gradient = other.gradient }
    }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// `CGColor`s, typed `[Any]?` as in Apple's Swift API.
    public var colors: [Any]? { get { gradient.colors } set { updateLayerObject(self, "colors", \.gradient.colors, newValue) } }
    /// Stop positions in [0, 1], one per colour; nil spreads the colours evenly.
    public var locations: [NSNumber]? { get { gradient.locations } set { updateLayerValue(self, "locations", \.gradient.locations, newValue) } }
    public var startPoint: CGPoint {
        get { gradient.startPoint }
        set {
            guard newValue.x.isFinite, newValue.y.isFinite else { return rejectNonFinite("startPoint", newValue) }
            updateLayerValue(self, "startPoint", \.gradient.startPoint, newValue)
        }
    }
    public var endPoint: CGPoint {
        get { gradient.endPoint }
        set {
            guard newValue.x.isFinite, newValue.y.isFinite else { return rejectNonFinite("endPoint", newValue) }
            updateLayerValue(self, "endPoint", \.gradient.endPoint, newValue)
        }
    }
    /// An unknown type string is kept as given (docs/BEHAVIOUR.md A3, measured on Apple).
    public var type: CAGradientLayerType { get { gradient.type } set { updateLayerValue(self, "type", \.gradient.type, newValue) } }

    /// colors, locations, startPoint and endPoint are animatable (CAGradientLayer.h).
    package override class func makePropertyTable() -> PropertyTable {
        var t = super.makePropertyTable()
        t.add("startPoint", \CAGradientLayer.startPoint)
        t.add("endPoint", \CAGradientLayer.endPoint)
        t.addObject("colors", .basic, get: { (l: CAGradientLayer) in l.colors }, set: { l, v in l.colors = v as? [Any] })
        t.addObject("locations", .basic, get: { (l: CAGradientLayer) in l.locations }, set: { l, v in l.locations = numberArray(v) })
        t.addConstant("type", \CAGradientLayer.type)
        return t
    }
}
