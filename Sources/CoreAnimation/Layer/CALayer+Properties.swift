// The public properties of CALayer, Apple's names, types and defaults (docs/BEHAVIOUR.md A2).
// Every setter goes through `update`, which ignores non-finite geometry (with a warning),
// skips unchanged values (J5), records the change in the transaction and runs the action.

extension CALayer {
    // MARK: Geometry

    /// A change marks the layer for layout, and for display when `needsDisplayOnBoundsChange`
    /// is set ("whenever its bounds property changes", docs/BEHAVIOUR.md P5).
    public var bounds: CGRect {
        get { state.bounds }
        set {
            let old = state.bounds
            updateFinite("bounds", \.bounds, newValue)
            guard !isPresentationCopy, state.bounds != old else { return }
            if state.needsDisplayOnBoundsChange { setNeedsDisplay() }
            setNeedsLayout()
        }
    }
    public var position: CGPoint {
        get { state.position }
        set { updateFinite("position", \.position, newValue) }
    }
    public var zPosition: CGFloat {
        get { state.zPosition }
        set { updateFinite("zPosition", \.zPosition, newValue) }
    }
    /// Kept as given, also outside [0, 1] (docs/BEHAVIOUR.md M3).
    public var anchorPoint: CGPoint {
        get { state.anchorPoint }
        set { updateFinite("anchorPoint", \.anchorPoint, newValue) }
    }
    public var anchorPointZ: CGFloat {
        get { state.anchorPointZ }
        set { updateFinite("anchorPointZ", \.anchorPointZ, newValue) }
    }
    public var transform: CATransform3D {
        get { state.transform }
        set { updateFinite("transform", \.transform, newValue) }
    }
    public var sublayerTransform: CATransform3D {
        get { state.sublayerTransform }
        set { updateFinite("sublayerTransform", \.sublayerTransform, newValue) }
    }

    // MARK: Visibility and masking

    public var isHidden: Bool { get { state.isHidden } set { update("hidden", \.isHidden, newValue) } }
    public var isDoubleSided: Bool { get { state.isDoubleSided } set { update("doubleSided", \.isDoubleSided, newValue) } }
    public var isGeometryFlipped: Bool { get { state.isGeometryFlipped } set { update("geometryFlipped", \.isGeometryFlipped, newValue) } }
    public var masksToBounds: Bool { get { state.masksToBounds } set { update("masksToBounds", \.masksToBounds, newValue) } }
    public var isOpaque: Bool { get { state.isOpaque } set { update("opaque", \.isOpaque, newValue) } }
    /// Clamped to [0, 1] when rendered; NaN is ignored with a warning.
    public var opacity: Float {
        get { state.opacity }
        set { updateNotNaN("opacity", \.opacity, newValue) }
    }
    public var allowsGroupOpacity: Bool { get { state.allowsGroupOpacity } set { update("allowsGroupOpacity", \.allowsGroupOpacity, newValue) } }
    public var allowsEdgeAntialiasing: Bool { get { state.allowsEdgeAntialiasing } set { update("allowsEdgeAntialiasing", \.allowsEdgeAntialiasing, newValue) } }
    public var edgeAntialiasingMask: CAEdgeAntialiasingMask {
        get { state.edgeAntialiasingMask }
        set { update("edgeAntialiasingMask", \.edgeAntialiasingMask, newValue.intersection(.all)) }
    }

    // MARK: Contents

    /// Usually a `CGImage`; any other object is kept but not drawn.
    public var contents: Any? {
        get { state.contents }
        set { updateObject("contents", \.contents, newValue) }
    }
    public var contentsRect: CGRect {
        get { state.contentsRect }
        set { updateFinite("contentsRect", \.contentsRect, newValue) }
    }
    /// An unknown gravity string reads back as `center` (docs/BEHAVIOUR.md N5b).
    public var contentsGravity: CALayerContentsGravity {
        get { state.contentsGravity }
        set { update("contentsGravity", \.contentsGravity, CALayerContentsGravity.all.contains(newValue) ? newValue : .center) }
    }
    public var contentsScale: CGFloat {
        get { state.contentsScale }
        set {
            guard newValue.isFinite, newValue > 0 else { return rejectNonFinite("contentsScale", newValue) }
            update("contentsScale", \.contentsScale, newValue)
        }
    }
    public var contentsCenter: CGRect {
        get { state.contentsCenter }
        set { updateFinite("contentsCenter", \.contentsCenter, newValue) }
    }
    public var contentsFormat: CALayerContentsFormat { get { state.contentsFormat } set { update("contentsFormat", \.contentsFormat, newValue) } }
    public var minificationFilter: CALayerContentsFilter { get { state.minificationFilter } set { update("minificationFilter", \.minificationFilter, newValue) } }
    public var magnificationFilter: CALayerContentsFilter { get { state.magnificationFilter } set { update("magnificationFilter", \.magnificationFilter, newValue) } }
    public var minificationFilterBias: Float { get { state.minificationFilterBias } set { update("minificationFilterBias", \.minificationFilterBias, newValue) } }

    // MARK: Appearance

    public var backgroundColor: CGColor? { get { state.backgroundColor } set { update("backgroundColor", \.backgroundColor, newValue) } }
    public var cornerRadius: CGFloat {
        get { state.cornerRadius }
        set { updateFinite("cornerRadius", \.cornerRadius, newValue) }
    }
    /// Bits other than the four corners are dropped (docs/BEHAVIOUR.md N6: 255 reads back as 15).
    public var maskedCorners: CACornerMask {
        get { state.maskedCorners }
        set { update("maskedCorners", \.maskedCorners, newValue.intersection(.all)) }
    }
    /// Unknown curve names reset to `circular` (docs/BEHAVIOUR.md N6).
    public var cornerCurve: CALayerCornerCurve {
        get { state.cornerCurve }
        set { update("cornerCurve", \.cornerCurve, newValue == .continuous ? .continuous : .circular) }
    }
    /// How much further a corner curve reaches than a circular one (docs/BEHAVIOUR.md N6).
    public class func cornerCurveExpansionFactor(_ curve: CALayerCornerCurve) -> CGFloat {
        curve == .continuous ? 1.528665 : 1
    }
    public var borderWidth: CGFloat {
        get { state.borderWidth }
        set { updateFinite("borderWidth", \.borderWidth, newValue) }
    }
    public var borderColor: CGColor? { get { state.borderColor } set { update("borderColor", \.borderColor, newValue) } }

    // MARK: Shadow

    public var shadowColor: CGColor? { get { state.shadowColor } set { update("shadowColor", \.shadowColor, newValue) } }
    public var shadowOpacity: Float {
        get { state.shadowOpacity }
        set { updateNotNaN("shadowOpacity", \.shadowOpacity, newValue) }
    }
    public var shadowOffset: CGSize {
        get { state.shadowOffset }
        set {
            guard newValue.width.isFinite, newValue.height.isFinite else { return rejectNonFinite("shadowOffset", newValue) }
            update("shadowOffset", \.shadowOffset, newValue)
        }
    }
    public var shadowRadius: CGFloat {
        get { state.shadowRadius }
        set { updateFinite("shadowRadius", \.shadowRadius, newValue) }
    }
    /// Stored as an immutable copy, so later edits of a `CGMutablePath` don't leak in.
    public var shadowPath: CGPath? {
        get { state.shadowPath }
        set { update("shadowPath", \.shadowPath, newValue.map { CGPath(elements: $0.elements) }) }
    }

    // MARK: Filters and rasterisation (filters: CoreImage filters the renderer runs as GPU passes, docs/FILTERS.md)

    public var filters: [Any]? { get { state.filters } set { updateObject("filters", \.filters, newValue) } }
    public var backgroundFilters: [Any]? { get { state.backgroundFilters } set { updateObject("backgroundFilters", \.backgroundFilters, newValue) } }
    public var compositingFilter: Any? { get { state.compositingFilter } set { updateObject("compositingFilter", \.compositingFilter, newValue) } }
    public var shouldRasterize: Bool { get { state.shouldRasterize } set { update("shouldRasterize", \.shouldRasterize, newValue) } }
    public var rasterizationScale: CGFloat { get { state.rasterizationScale } set { update("rasterizationScale", \.rasterizationScale, newValue) } }
    public var drawsAsynchronously: Bool { get { state.drawsAsynchronously } set { update("drawsAsynchronously", \.drawsAsynchronously, newValue) } }
    public var needsDisplayOnBoundsChange: Bool {
        get { state.needsDisplayOnBoundsChange }
        set { update("needsDisplayOnBoundsChange", \.needsDisplayOnBoundsChange, newValue) }
    }

    // MARK: Identification

    public var name: String? { get { state.name } set { update("name", \.name, newValue) } }
    /// Default values for keys not set on the layer, including `style["actions"]` (J1).
    public var style: [AnyHashable: Any]? { get { state.style } set { updateObject("style", \.style, newValue) } }

    // MARK: CAMediaTiming (layers default to an infinite duration, A2)

    public var beginTime: CFTimeInterval {
        get { state.timing.beginTime }
        set { updateFinite("beginTime", \.timing.beginTime, newValue) }
    }
    public var duration: CFTimeInterval { get { state.timing.duration } set { update("duration", \.timing.duration, newValue) } }
    public var speed: Float {
        get { state.timing.speed }
        set { updateFinite("speed", \.timing.speed, newValue) }
    }
    public var timeOffset: CFTimeInterval {
        get { state.timing.timeOffset }
        set { updateFinite("timeOffset", \.timing.timeOffset, newValue) }
    }
    public var repeatCount: Float { get { state.timing.repeatCount } set { update("repeatCount", \.timing.repeatCount, newValue) } }
    public var repeatDuration: CFTimeInterval { get { state.timing.repeatDuration } set { update("repeatDuration", \.timing.repeatDuration, newValue) } }
    public var autoreverses: Bool { get { state.timing.autoreverses } set { update("autoreverses", \.timing.autoreverses, newValue) } }
    public var fillMode: CAMediaTimingFillMode { get { state.timing.fillMode } set { update("fillMode", \.timing.fillMode, newValue) } }
}

extension CGRect {
    @inline(__always) var isFiniteRect: Bool {
        origin.x.isFinite && origin.y.isFinite && size.width.isFinite && size.height.isFinite
    }
}

extension CALayer {
    /// Bad geometry never reaches the model: it is ignored with a logged warning.
    package func rejectNonFinite(_ key: String, _ value: Any) {
        Diagnostics.warnOnce("CALayer.\(key): ignored non-finite or invalid value \(value)")
    }

    @inline(__always)
    package func update<V: Equatable>(_ key: String, _ kp: WritableKeyPath<LayerState, V>, _ value: V) {
        if isPresentationCopy { state[keyPath: kp] = value; return }
        if state[keyPath: kp] == value { return }
        let runAction = layerWillChange(key)
        state[keyPath: kp] = value
        layerDidChange(key, runAction: runAction)
    }

    /// Scalars that must be finite (geometry, radii, times): anything else is ignored with a warning.
    @inline(__always)
    package func updateFinite<V: BinaryFloatingPoint>(_ key: String, _ kp: WritableKeyPath<LayerState, V>, _ value: V) {
        guard value.isFinite else { return rejectNonFinite(key, value) }
        update(key, kp, value)
    }

    @inline(__always)
    package func updateFinite(_ key: String, _ kp: WritableKeyPath<LayerState, CATransform3D>, _ value: CATransform3D) {
        guard value.isFinite else { return rejectNonFinite(key, value) }
        update(key, kp, value)
    }

    @inline(__always)
    package func updateFinite(_ key: String, _ kp: WritableKeyPath<LayerState, CGPoint>, _ value: CGPoint) {
        guard value.x.isFinite, value.y.isFinite else { return rejectNonFinite(key, value) }
        update(key, kp, value)
    }

    @inline(__always)
    package func updateFinite(_ key: String, _ kp: WritableKeyPath<LayerState, CGRect>, _ value: CGRect) {
        guard value.isFiniteRect else { return rejectNonFinite(key, value) }
        update(key, kp, value)
    }

    /// Scalars clamped when rendered (opacities): only NaN is refused.
    @inline(__always)
    package func updateNotNaN<V: BinaryFloatingPoint>(_ key: String, _ kp: WritableKeyPath<LayerState, V>, _ value: V) {
        guard !value.isNaN else { return rejectNonFinite(key, value) }
        update(key, kp, value)
    }

    /// For `Any`-typed properties: identical objects count as unchanged.
    package func updateObject<V>(_ key: String, _ kp: WritableKeyPath<LayerState, V>, _ value: V) {
        if isPresentationCopy { state[keyPath: kp] = value; return }
        if let old = state[keyPath: kp] as AnyObject?, let new = value as AnyObject?, old === new { return }
        let runAction = layerWillChange(key)
        state[keyPath: kp] = value
        layerDidChange(key, runAction: runAction)
    }
}
