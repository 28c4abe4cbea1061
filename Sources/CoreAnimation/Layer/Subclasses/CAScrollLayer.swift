/// A layer that shows a scrollable part of its sublayers (Apple's `CAScrollLayer`). Scrolling
/// moves `bounds.origin`; the visible part is the layer's bounds.
open class CAScrollLayer: CALayer {
    /// Apple's default is `both` (docs/BEHAVIOUR.md A3, `CAScrollLayer/scroll.m`).
    package var scrollModeValue = CAScrollLayerScrollMode.both

    public override init() { super.init() }

    /// Copies the scroll mode too (presentation copies are of the model's class, L4).
    public required init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CAScrollLayer { scrollModeValue = other.scrollModeValue }
    }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// The axes `scroll(to:)` may move along. An unknown mode string scrolls along neither.
    public var scrollMode: CAScrollLayerScrollMode {
        get { scrollModeValue }
        set { updateLayerValue(self, "scrollMode", \.scrollModeValue, newValue) }
    }

    /// Moves `bounds.origin` to `p` along the axes `scrollMode` allows (Apple: "Changes the
    /// origin of the receiver to the specified point"). Non-finite points are ignored.
    open func scroll(to p: CGPoint) {
        guard p.x.isFinite, p.y.isFinite else { return rejectNonFinite("scroll(to:)", p) }
        var b = bounds
        if scrollMode == .horizontally || scrollMode == .both { b.origin.x = p.x }
        if scrollMode == .vertically || scrollMode == .both { b.origin.y = p.y }
        bounds = b
    }

    /// Scrolls as little as needed for `r` to be visible (Apple: "Scroll the contents of the
    /// receiver to ensure that the rectangle is visible"). Along an axis where `r` is larger
    /// than the bounds, its minimum edge is brought to the bounds' origin.
    open func scroll(to r: CGRect) {
        guard r.isFiniteRect else { return rejectNonFinite("scroll(to:)", r) }
        let r = r.standardized
        let b = bounds
        var o = b.origin
        if r.width > b.width || r.minX < b.minX { o.x = r.minX } else if r.maxX > b.maxX { o.x = r.maxX - b.width }
        if r.height > b.height || r.minY < b.minY { o.y = r.minY } else if r.maxY > b.maxY { o.y = r.maxY - b.height }
        scroll(to: o)
    }

    package override class func makePropertyTable() -> PropertyTable {
        var t = super.makePropertyTable()
        t.addConstant("scrollMode", \CAScrollLayer.scrollMode)
        return t
    }
}

/// Scrolling helpers every layer has (Apple declares them in a CALayer category in
/// CAScrollLayer.h); they act on the nearest ancestor `CAScrollLayer`.
extension CALayer {
    /// The closest superlayer (not `self`) that is a scroll layer.
    package var enclosingScrollLayer: CAScrollLayer? {
        var l = superlayer
        while let c = l {
            if let s = c as? CAScrollLayer { return s }
            l = c.superlayer
        }
        return nil
    }

    /// Scrolls the closest ancestor scroll layer so that `p` (in this layer's coordinates)
    /// lies at its origin. Does nothing without one.
    public func scroll(_ p: CGPoint) {
        guard let s = enclosingScrollLayer else { return }
        s.scroll(to: convert(p, to: s))
    }

    /// Scrolls the closest ancestor scroll layer so that `r` (in this layer's coordinates) is
    /// visible. Does nothing without one.
    public func scrollRectToVisible(_ r: CGRect) {
        guard let s = enclosingScrollLayer else { return }
        s.scroll(to: convert(r, to: s))
    }

    /// The part of this layer, in its own coordinates, that the closest ancestor scroll layer
    /// shows: the layer's bounds clipped to the scroll layer's bounds (the bounds when there is
    /// no scroll layer; `CGRect.null` when nothing is visible).
    public var visibleRect: CGRect {
        guard let s = enclosingScrollLayer else { return bounds }
        return bounds.intersection(convert(s.bounds, from: s))
    }
}
