/// The built-in property values of a `CALayer`, with Apple's defaults (docs/BEHAVIOUR.md A2).
/// Kept as one value so a presentation or committed copy takes them in one assignment.
package struct LayerState {
    /// First: the frame step reads every animated layer's timing (its local time), and the
    /// fields it animates most (position, transform, opacity) follow within a few lines.
    package var timing = MediaTimingValues.layerDefaults
    package var bounds = CGRect.zero
    package var position = CGPoint.zero
    package var zPosition: CGFloat = 0
    package var anchorPoint = CGPoint(x: 0.5, y: 0.5)
    package var anchorPointZ: CGFloat = 0
    package var opacity: Float = 1
    package var transform = CATransform3DIdentity
    package var sublayerTransform = CATransform3DIdentity
    package var isHidden = false
    package var isDoubleSided = true
    package var isGeometryFlipped = false
    package var masksToBounds = false
    package var contents: Any? = nil
    /// (Asked, not kept: a `didSet` on `contents` keeping a flag broke the display pipeline's
    /// redraw of an animated custom property, ProgressLayerExampleTests, for a reason not
    /// found; asking copies the optional existential, about a hundred instructions.)
    package var hasContents: Bool { contents != nil }
    package var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    package var contentsGravity = CALayerContentsGravity.resize
    package var contentsScale: CGFloat = 1
    package var contentsCenter = CGRect(x: 0, y: 0, width: 1, height: 1)
    package var contentsFormat = CALayerContentsFormat.RGBA8Uint
    package var minificationFilter = CALayerContentsFilter.linear
    package var magnificationFilter = CALayerContentsFilter.linear
    package var minificationFilterBias: Float = 0
    package var isOpaque = false
    package var allowsGroupOpacity = true
    package var allowsEdgeAntialiasing = true
    package var edgeAntialiasingMask = CAEdgeAntialiasingMask.all
    package var backgroundColor: CGColor? = nil
    package var cornerRadius: CGFloat = 0
    package var maskedCorners = CACornerMask.all
    package var cornerCurve = CALayerCornerCurve.circular
    package var borderWidth: CGFloat = 0
    package var borderColor: CGColor? = CGColor(gray: 0, alpha: 1)
    package var shadowColor: CGColor? = CGColor(gray: 0, alpha: 1)
    package var shadowOpacity: Float = 0
    package var shadowOffset = CGSize(width: 0, height: -3)
    package var shadowRadius: CGFloat = 3
    package var shadowPath: CGPath? = nil
    package var filters: [Any]? = nil
    package var backgroundFilters: [Any]? = nil
    package var compositingFilter: Any? = nil
    package var shouldRasterize = false
    package var rasterizationScale: CGFloat = 1
    package var drawsAsynchronously = false
    package var needsDisplayOnBoundsChange = false
    package var name: String? = nil
    package var style: [AnyHashable: Any]? = nil
}

/// The CAMediaTiming values of a layer or an animation.
package struct MediaTimingValues: Sendable, Hashable {
    // The three a layer's local time needs (C1) first, side by side.
    package var beginTime: CFTimeInterval = 0
    package var timeOffset: CFTimeInterval = 0
    package var speed: Float = 1
    package var repeatCount: Float = 0
    package var duration: CFTimeInterval = 0
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

    /// Layers default to an infinite duration (docs/BEHAVIOUR.md A2), animations to 0 (A4).
    package static let layerDefaults = MediaTimingValues(duration: .infinity)
    package static let animationDefaults = MediaTimingValues()
}

extension LayerState {
    /// Maps a layer's own coordinates into its superlayer's (docs/BEHAVIOUR.md M7, row vectors):
    /// `((p − origin − anchor·size, −anchorZ) · transform + (position, zPosition) − A) · flip · S + A`,
    /// where S is the parent's sublayerTransform about A, the parent's anchor point in its own
    /// bounds space, and flip the parent's `isGeometryFlipped` mirror about its bounds' mid-y.
    /// A mask layer (M8) and a root (`parent` nil) take no parent terms. Shared by the model's
    /// point conversion and the renderer (which passes presentation values).
    package static func localToParentMatrix(_ s: LayerState, parent: LayerState?, isMask: Bool) -> CATransform3D {
        localToParentMatrix(s, parentGeometry: parent.flatMap { SublayerGeometry($0) }, isMask: isMask)
    }

    /// M7 with the parent's part given as a `SublayerGeometry` (nil: a plain parent, a mask or
    /// the root), the same operations in the same order as with the parent's whole state.
    package static func localToParentMatrix(_ s: LayerState, parentGeometry parent: SublayerGeometry?, isMask: Bool) -> CATransform3D {
        // Standardised, so a negative-size bounds rect still has its anchor (0.5, 0.5) at its
        // centre (CGRect.width is already the standardised width; origin alone is not).
        let b = s.bounds.standardized
        let ax = b.minX + s.anchorPoint.x * b.width
        let ay = b.minY + s.anchorPoint.y * b.height
        var m = CATransform3DMakeTranslation(-ax, -ay, -s.anchorPointZ)
        if !CATransform3DIsIdentity(s.transform) { m = CATransform3DConcat(m, s.transform) }
        m = CATransform3DConcat(m, CATransform3DMakeTranslation(s.position.x, s.position.y, s.zPosition))
        guard let ps = parent, !isMask else { return m }
        let pb = ps.bounds
        if ps.isGeometryFlipped {
            // y → minY + maxY − y: the sublayers' y axis runs up from the bottom edge.
            m = CATransform3DConcat(m, CATransform3DMakeScale(1, -1, 1))
            m = CATransform3DConcat(m, CATransform3DMakeTranslation(0, pb.minY + pb.maxY, 0))
        }
        if !ps.sublayerTransformIsIdentity {
            let px = pb.minX + ps.anchorPoint.x * pb.width
            let py = pb.minY + ps.anchorPoint.y * pb.height
            m = CATransform3DConcat(m, CATransform3DMakeTranslation(-px, -py, -ps.anchorPointZ))
            m = CATransform3DConcat(m, ps.sublayerTransform)
            m = CATransform3DConcat(m, CATransform3DMakeTranslation(px, py, ps.anchorPointZ))
        }
        return m
    }
}

/// The part of a layer's state that its sublayers' M7 reads (docs/BEHAVIOUR.md M7): its
/// `isGeometryFlipped` mirror and its `sublayerTransform` about its anchor point. A plain
/// value with no references, so the renderer's walk hands it to every sublayer without
/// copying the parent's whole `LayerState` (its retained fields made that copy most of a small
/// layer's walk, issue 23).
package struct SublayerGeometry {
    /// Standardised.
    package var bounds: CGRect
    package var anchorPoint: CGPoint
    package var anchorPointZ: CGFloat
    package var isGeometryFlipped: Bool
    package var sublayerTransform: CATransform3D
    package var sublayerTransformIsIdentity: Bool

    /// nil where the parent adds nothing to M7 (neither flipped nor a `sublayerTransform`).
    package init?(_ p: borrowing LayerState) {
        let identity = CATransform3DIsIdentity(p.sublayerTransform)
        guard p.isGeometryFlipped || !identity else { return nil }
        bounds = p.bounds.standardized
        anchorPoint = p.anchorPoint
        anchorPointZ = p.anchorPointZ
        isGeometryFlipped = p.isGeometryFlipped
        sublayerTransform = p.sublayerTransform
        sublayerTransformIsIdentity = identity
    }
}
