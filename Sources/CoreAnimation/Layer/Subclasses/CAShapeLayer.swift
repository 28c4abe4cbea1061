/// The stored values of a `CAShapeLayer`, with Apple's defaults (docs/BEHAVIOUR.md A3,
/// `CAShapeLayer/shapelayer.m`). One value, so presentation copies take it in one assignment.
package struct ShapeLayerState {
    var path: CGPath? = nil
    var fillColor: CGColor? = opaqueBlackRGBA
    var strokeColor: CGColor? = nil
    var fillRule = CAShapeLayerFillRule.nonZero
    var lineWidth: CGFloat = 1
    var miterLimit: CGFloat = 10
    var lineCap = CAShapeLayerLineCap.butt
    var lineJoin = CAShapeLayerLineJoin.miter
    var strokeStart: CGFloat = 0
    var strokeEnd: CGFloat = 1
    var lineDashPhase: CGFloat = 0
    var lineDashPattern: [NSNumber]? = nil
}

/// A layer that draws a cubic Bézier path (Apple's `CAShapeLayer`). The model side: Apple's
/// property names, types and defaults. `path` is animatable but has no implicit animation
/// ("unlike most animatable properties, path … does not support implicit animation",
/// Apple docs for `CAShapeLayer.path`; docs/BEHAVIOUR.md E7).
open class CAShapeLayer: CALayer {
    // Kept, measured with CALayer.state (see there): timing-benchmark 1000, callgrind, step +6%.
    @exclusivity(unchecked) package final var shape = ShapeLayerState()

    public override init() { super.init() }

    /// Copies the shape state too, so the presentation of a shape layer is a shape layer with
    /// the same path and colours (docs/BEHAVIOUR.md L4).
    public required init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CAShapeLayer { shape = other.shape }
    }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// Stored as an immutable copy so later edits of a `CGMutablePath` don't reach the layer
    /// (Apple copies the path: the property is declared `copy` in CAShapeLayer.h).
    public var path: CGPath? {
        get { shape.path }
        set { updateLayerValue(self, "path", \.shape.path, newValue.map { CGPath(elements: $0.elements) }) }
    }
    /// Defaults to opaque black; nil fills nothing.
    public var fillColor: CGColor? { get { shape.fillColor } set { updateLayerValue(self, "fillColor", \.shape.fillColor, newValue) } }
    /// Defaults to nil: no stroke.
    public var strokeColor: CGColor? { get { shape.strokeColor } set { updateLayerValue(self, "strokeColor", \.shape.strokeColor, newValue) } }
    public var fillRule: CAShapeLayerFillRule { get { shape.fillRule } set { updateLayerValue(self, "fillRule", \.shape.fillRule, newValue) } }
    public var lineCap: CAShapeLayerLineCap { get { shape.lineCap } set { updateLayerValue(self, "lineCap", \.shape.lineCap, newValue) } }
    public var lineJoin: CAShapeLayerLineJoin { get { shape.lineJoin } set { updateLayerValue(self, "lineJoin", \.shape.lineJoin, newValue) } }
    public var lineWidth: CGFloat {
        get { shape.lineWidth }
        set { guard newValue.isFinite else { return rejectNonFinite("lineWidth", newValue) }; updateLayerValue(self, "lineWidth", \.shape.lineWidth, newValue) }
    }
    public var miterLimit: CGFloat {
        get { shape.miterLimit }
        set { guard newValue.isFinite else { return rejectNonFinite("miterLimit", newValue) }; updateLayerValue(self, "miterLimit", \.shape.miterLimit, newValue) }
    }
    /// Kept as given; Apple clamps the stroked range to [0, 1] only when drawing.
    public var strokeStart: CGFloat {
        get { shape.strokeStart }
        set { guard newValue.isFinite else { return rejectNonFinite("strokeStart", newValue) }; updateLayerValue(self, "strokeStart", \.shape.strokeStart, newValue) }
    }
    public var strokeEnd: CGFloat {
        get { shape.strokeEnd }
        set { guard newValue.isFinite else { return rejectNonFinite("strokeEnd", newValue) }; updateLayerValue(self, "strokeEnd", \.shape.strokeEnd, newValue) }
    }
    public var lineDashPhase: CGFloat {
        get { shape.lineDashPhase }
        set { guard newValue.isFinite else { return rejectNonFinite("lineDashPhase", newValue) }; updateLayerValue(self, "lineDashPhase", \.shape.lineDashPhase, newValue) }
    }
    /// Dash lengths in user space; nil draws a solid line.
    public var lineDashPattern: [NSNumber]? {
        get { shape.lineDashPattern }
        set { updateLayerValue(self, "lineDashPattern", \.shape.lineDashPattern, newValue) }
    }

    /// Apple's animatable shape keys (CAShapeLayer.h "Animatable"), path without implicit action.
    package override class func makePropertyTable() -> PropertyTable {
        var t = super.makePropertyTable()
        // Explicit accessors, as CALayer's own keys: a key-path write is a generic runtime call
        // per animated value per frame (7 % of a Lottie frame whose shapes animate, issue 23).
        t.add("path", .none, get: { (l: CAShapeLayer) in l.path }, set: { (l: CAShapeLayer, v) in l.path = v })
        t.add("fillColor", get: { (l: CAShapeLayer) in l.fillColor }, set: { (l: CAShapeLayer, v) in l.fillColor = v })
        t.add("strokeColor", get: { (l: CAShapeLayer) in l.strokeColor }, set: { (l: CAShapeLayer, v) in l.strokeColor = v })
        t.add("lineWidth", get: { (l: CAShapeLayer) in l.lineWidth }, set: { (l: CAShapeLayer, v) in l.lineWidth = v })
        t.add("miterLimit", get: { (l: CAShapeLayer) in l.miterLimit }, set: { (l: CAShapeLayer, v) in l.miterLimit = v })
        t.add("strokeStart", get: { (l: CAShapeLayer) in l.strokeStart }, set: { (l: CAShapeLayer, v) in l.strokeStart = v })
        t.add("strokeEnd", get: { (l: CAShapeLayer) in l.strokeEnd }, set: { (l: CAShapeLayer, v) in l.strokeEnd = v })
        t.add("lineDashPhase", get: { (l: CAShapeLayer) in l.lineDashPhase }, set: { (l: CAShapeLayer, v) in l.lineDashPhase = v })
        t.addConstant("fillRule", \CAShapeLayer.fillRule)
        t.addConstant("lineCap", \CAShapeLayer.lineCap)
        t.addConstant("lineJoin", \CAShapeLayer.lineJoin)
        t.addObject("lineDashPattern", get: { (l: CAShapeLayer) in l.lineDashPattern },
                    set: { l, v in l.lineDashPattern = numberArray(v) })
        return t
    }
}

/// `[NSNumber]` from KVC input: on Linux `[Double]` does not bridge to `[NSNumber]` with `as?`,
/// so each element is converted. Nil (or anything that is not an array of numbers) gives nil.
func numberArray(_ v: Any?) -> [NSNumber]? {
    guard let v else { return nil }
    if let ns = v as? [NSNumber] { return ns }
    guard let a = v as? [Any] else { return nil }
    var out: [NSNumber] = []
    for e in a {
        guard let d = AnimValue.number(from: e) else { return nil }
        out.append(NSNumber(value: d))
    }
    return out
}
