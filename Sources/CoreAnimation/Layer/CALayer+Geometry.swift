// Geometry: frame, coordinate and time conversion, hit testing (docs/BEHAVIOUR.md M1–M7, C2).

extension CALayer {
    /// Derived from bounds, position, anchorPoint and transform (M1): the bounding box of the
    /// bounds placed so the anchor point sits on `position`, transformed about it. Setting it
    /// changes position and bounds.size (keeping bounds.origin, M2); a frame with a negative
    /// size is standardised first. Apple: don't set it under a rotation that is not a multiple
    /// of 90°.
    public var frame: CGRect {
        get {
            let b = state.bounds
            let m = localToParentMatrix(includeParentSublayerTransform: false)
            return Self.boundingBox(of: b, through: m)
        }
        set {
            guard newValue.isFiniteRect else { return rejectNonFinite("frame", newValue) }
            let f = newValue.standardized
            let t = state.transform
            let inv = CATransform3DGetAffineTransform(t).inverted()
            let size = f.size.applying(CGAffineTransform(a: inv.a, b: inv.b, c: inv.c, d: inv.d, tx: 0, ty: 0))
            let a = state.anchorPoint
            position = CGPoint(x: f.minX + a.x * f.width - t.m41, y: f.minY + a.y * f.height - t.m42)
            bounds = CGRect(origin: state.bounds.origin, size: CGSize(width: abs(size.width), height: abs(size.height)))
        }
    }

    public func affineTransform() -> CGAffineTransform { CATransform3DGetAffineTransform(transform) }

    /// Replaces the whole transform (M5: m33 back to 1).
    public func setAffineTransform(_ m: CGAffineTransform) { transform = CATransform3DMakeAffineTransform(m) }

    /// The bounds size mapped into the superlayer's space.
    package func preferredFrameSizeImpl() -> CGSize { frame.size }

    /// Whether `p` (in the layer's own coordinates) lies inside its bounds.
    package func containsImpl(_ p: CGPoint) -> Bool { state.bounds.contains(p) }

    /// The farthest descendant (front-most first) whose bounds contain `p`, a point in the
    /// superlayer's coordinates. Hidden layers and their subtrees are skipped; a layer that
    /// masks to its bounds hides the parts of its sublayers outside them.
    package func hitTestImpl(_ p: CGPoint) -> CALayer? {
        if state.isHidden || state.opacity <= 0 { return nil }
        let m = localToParentMatrix(includeParentSublayerTransform: true)
        let local = Self.map(p, through: CATransform3DInvert(m))
        let inside = contains(local)
        if state.masksToBounds && !inside { return nil }
        let subs = (_sublayers ?? []).enumerated().sorted {
            $0.element.zPosition != $1.element.zPosition ? $0.element.zPosition > $1.element.zPosition : $0.offset > $1.offset
        }
        for (_, s) in subs {
            if let hit = s.hitTest(local) { return hit }
        }
        return inside ? self : nil
    }

    // MARK: Point and rect conversion (M4, M7)

    public func convert(_ p: CGPoint, from l: CALayer?) -> CGPoint {
        Self.map(p, through: CATransform3DConcat(l?.localToWorldMatrix() ?? CATransform3DIdentity,
                                                 CATransform3DInvert(localToWorldMatrix())))
    }

    public func convert(_ p: CGPoint, to l: CALayer?) -> CGPoint {
        Self.map(p, through: CATransform3DConcat(localToWorldMatrix(),
                                                 CATransform3DInvert(l?.localToWorldMatrix() ?? CATransform3DIdentity)))
    }

    /// The bounding box of the converted rectangle.
    public func convert(_ r: CGRect, from l: CALayer?) -> CGRect {
        Self.boundingBox(of: r, through: CATransform3DConcat(l?.localToWorldMatrix() ?? CATransform3DIdentity,
                                                             CATransform3DInvert(localToWorldMatrix())))
    }

    public func convert(_ r: CGRect, to l: CALayer?) -> CGRect {
        Self.boundingBox(of: r, through: CATransform3DConcat(localToWorldMatrix(),
                                                             CATransform3DInvert(l?.localToWorldMatrix() ?? CATransform3DIdentity)))
    }

    /// Maps the layer's own coordinates into its superlayer's (docs/BEHAVIOUR.md M7), from the model's
    /// values; the renderer calls `LayerState.localToParentMatrix` with presentation values.
    package func localToParentMatrix(includeParentSublayerTransform: Bool) -> CATransform3D {
        let parent = includeParentSublayerTransform && !isMaskLayer ? _superlayer?.state : nil
        return LayerState.localToParentMatrix(state, parent: parent, isMask: isMaskLayer)
    }

    /// Maps the layer's coordinates to the space its root layer sits in. Layers in different
    /// trees convert through that shared space (M4); a removed layer converts as a root.
    package func localToWorldMatrix() -> CATransform3D {
        var m = localToParentMatrix(includeParentSublayerTransform: true)
        var p = _superlayer
        var depth = 0
        while let l = p, depth < 100_000 {
            m = CATransform3DConcat(m, l.localToParentMatrix(includeParentSublayerTransform: true))
            p = l._superlayer
            depth += 1
        }
        return m
    }

    package static func map(_ p: CGPoint, through m: CATransform3D) -> CGPoint {
        let r = m.apply(x: p.x, y: p.y)
        guard r.w != 0, r.w.isFinite else { return CGPoint(x: r.x, y: r.y) }
        return CGPoint(x: r.x / r.w, y: r.y / r.w)
    }

    package static func boundingBox(of r: CGRect, through m: CATransform3D) -> CGRect {
        let pts = [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                   CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.maxX, y: r.maxY)].map { map($0, through: m) }
        let xs = pts.map(\.x), ys = pts.map(\.y)
        let minX = xs.min()!, minY = ys.min()!
        return CGRect(x: minX, y: minY, width: xs.max()! - minX, height: ys.max()! - minY)
    }

    // MARK: Time conversion (C1, C2)

    /// Converts `t` from `l`'s time space (nil: media time) into this layer's (C2).
    public func convertTime(_ t: CFTimeInterval, from l: CALayer?) -> CFTimeInterval {
        localTime(fromMedia: l?.mediaTime(fromLocal: t) ?? t)
    }

    /// Converts `t` from this layer's time space into `l`'s (nil: media time) (C2).
    public func convertTime(_ t: CFTimeInterval, to l: CALayer?) -> CFTimeInterval {
        let media = mediaTime(fromLocal: t)
        return l?.localTime(fromMedia: media) ?? media
    }

    /// Media time → this layer's local time: C1 applied from the root down.
    package func localTime(fromMedia t: CFTimeInterval) -> CFTimeInterval {
        localTime(parentTime: _superlayer.map { $0.localTime(fromMedia: t) } ?? t)
    }

    /// C1 for this layer alone, given its parent's local time.
    @inline(__always)
    package func localTime(parentTime parent: CFTimeInterval) -> CFTimeInterval {
        (parent - state.timing.beginTime) * Double(state.timing.speed) + state.timing.timeOffset
    }

    /// This layer's local time → media time: C1 inverted from the layer up. A layer with speed
    /// 0 maps every time to its beginTime in the parent (the inverse is not a function).
    package func mediaTime(fromLocal t: CFTimeInterval) -> CFTimeInterval {
        let s = state.timing
        let parent = s.speed == 0 ? s.beginTime : (t - s.timeOffset) / Double(s.speed) + s.beginTime
        return _superlayer?.mediaTime(fromLocal: parent) ?? parent
    }
}
