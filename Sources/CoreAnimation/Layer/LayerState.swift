/// The built-in property values of a `CALayer`, with Apple's defaults (catalogue A2).
/// Kept as one value so a presentation or committed copy takes them in one assignment.
package struct LayerState {
    var bounds = CGRect.zero
    var position = CGPoint.zero
    var zPosition: CGFloat = 0
    var anchorPoint = CGPoint(x: 0.5, y: 0.5)
    var anchorPointZ: CGFloat = 0
    var transform = CATransform3DIdentity
    var sublayerTransform = CATransform3DIdentity
    var isHidden = false
    var isDoubleSided = true
    var isGeometryFlipped = false
    var masksToBounds = false
    var contents: Any? = nil
    var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    var contentsGravity = CALayerContentsGravity.resize
    var contentsScale: CGFloat = 1
    var contentsCenter = CGRect(x: 0, y: 0, width: 1, height: 1)
    var contentsFormat = CALayerContentsFormat.RGBA8Uint
    var minificationFilter = CALayerContentsFilter.linear
    var magnificationFilter = CALayerContentsFilter.linear
    var minificationFilterBias: Float = 0
    var isOpaque = false
    var opacity: Float = 1
    var allowsGroupOpacity = true
    var allowsEdgeAntialiasing = true
    var edgeAntialiasingMask = CAEdgeAntialiasingMask.all
    var backgroundColor: CGColor? = nil
    var cornerRadius: CGFloat = 0
    var maskedCorners = CACornerMask.all
    var cornerCurve = CALayerCornerCurve.circular
    var borderWidth: CGFloat = 0
    var borderColor: CGColor? = CGColor(gray: 0, alpha: 1)
    var shadowColor: CGColor? = CGColor(gray: 0, alpha: 1)
    var shadowOpacity: Float = 0
    var shadowOffset = CGSize(width: 0, height: -3)
    var shadowRadius: CGFloat = 3
    var shadowPath: CGPath? = nil
    var filters: [Any]? = nil
    var backgroundFilters: [Any]? = nil
    var compositingFilter: Any? = nil
    var shouldRasterize = false
    var rasterizationScale: CGFloat = 1
    var drawsAsynchronously = false
    var needsDisplayOnBoundsChange = false
    var name: String? = nil
    var style: [AnyHashable: Any]? = nil
    var timing = MediaTimingValues.layerDefaults
}

/// The CAMediaTiming values of a layer or an animation.
package struct MediaTimingValues: Sendable, Equatable {
    package var beginTime: CFTimeInterval = 0
    package var duration: CFTimeInterval = 0
    package var speed: Float = 1
    package var timeOffset: CFTimeInterval = 0
    package var repeatCount: Float = 0
    package var repeatDuration: CFTimeInterval = 0
    package var autoreverses = false
    /// Kept as flags, not the string constant, so copying timing values retains nothing.
    package var fillsBackwards = false
    package var fillsForwards = false

    /// Unknown fill-mode strings behave like `removed` (C5) and read back as `removed`.
    package var fillMode: CAMediaTimingFillMode {
        get {
            switch (fillsBackwards, fillsForwards) {
            case (true, true): return .both
            case (true, false): return .backwards
            case (false, true): return .forwards
            case (false, false): return .removed
            }
        }
        set {
            fillsBackwards = newValue == .backwards || newValue == .both
            fillsForwards = newValue == .forwards || newValue == .both
        }
    }

    /// Layers default to an infinite duration (catalogue A2), animations to 0 (A4).
    package static let layerDefaults = MediaTimingValues(duration: .infinity)
    package static let animationDefaults = MediaTimingValues()
}
