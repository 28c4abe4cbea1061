import CoreGraphics

/// A property that the frame step writes directly into a presentation copy, with no closure,
/// no boxed value and no key path: the properties that animations drive most (position,
/// opacity, transform components, corner radius, the layer colours, and `CAShapeLayer`'s
/// numbers and colours, which progress rings and drawn-on strokes animate on every layer).
/// Every other key goes through `KeyPathBinding` as before.
package enum LayerSlot: Equatable {
    case opacity, zPosition, anchorPointZ, cornerRadius, borderWidth, shadowOpacity, shadowRadius
    case positionX, positionY, anchorPointX, anchorPointY
    case position, anchorPoint
    case transform(TransformComponent)
    case sublayerTransform(TransformComponent)
    /// A colour of `CALayer` or `CAShapeLayer`.
    case color(ColorKey)
    /// A number of `CAShapeLayer`.
    case shape(ShapeNumber)

    package enum ColorKey: UInt8 { case background, border, shadow, fill, stroke }
    package enum ShapeNumber: UInt8 { case lineWidth, miterLimit, strokeStart, strokeEnd, lineDashPhase }

    /// The slot a key path names, or nil when it is not one of these (docs/BEHAVIOUR.md E6 spells the
    /// structure paths; `PropertyTable` the whole keys). The caller has checked that the
    /// layer's class has the key, so the shape slots only reach `CAShapeLayer`s.
    init?(keyPath: String) {
        switch keyPath {
        case "opacity": self = .opacity
        case "zPosition": self = .zPosition
        case "anchorPointZ": self = .anchorPointZ
        case "cornerRadius": self = .cornerRadius
        case "borderWidth": self = .borderWidth
        case "shadowOpacity": self = .shadowOpacity
        case "shadowRadius": self = .shadowRadius
        case "position": self = .position
        case "position.x": self = .positionX
        case "position.y": self = .positionY
        case "anchorPoint": self = .anchorPoint
        case "anchorPoint.x": self = .anchorPointX
        case "anchorPoint.y": self = .anchorPointY
        case "backgroundColor": self = .color(.background)
        case "borderColor": self = .color(.border)
        case "shadowColor": self = .color(.shadow)
        case "fillColor": self = .color(.fill)
        case "strokeColor": self = .color(.stroke)
        case "lineWidth": self = .shape(.lineWidth)
        case "miterLimit": self = .shape(.miterLimit)
        case "strokeStart": self = .shape(.strokeStart)
        case "strokeEnd": self = .shape(.strokeEnd)
        case "lineDashPhase": self = .shape(.lineDashPhase)
        default:
            if keyPath.hasPrefix("transform."), let c = TransformComponent(keyPath: String(keyPath.dropFirst(10))) {
                self = .transform(c)
            } else if keyPath.hasPrefix("sublayerTransform."),
                      let c = TransformComponent(keyPath: String(keyPath.dropFirst(18))) {
                self = .sublayerTransform(c)
            } else {
                return nil
            }
        }
    }

    var isPoint: Bool { self == .position || self == .anchorPoint }

    var isColor: Bool { if case .color = self { return true }; return false }

    /// Whether the slot lives in `CAShapeLayer`'s own state (`SlotTarget.shape`).
    var isShape: Bool {
        switch self {
        case .shape, .color(.fill), .color(.stroke): return true
        default: return false
        }
    }

    /// The current value of a number slot: the underlying value P of docs/BEHAVIOUR.md E1 when the
    /// endpoints depend on it (what `KeyPathBinding.get` reads on the general path).
    @inline(__always)
    func number(in t: SlotTarget) -> Double {
        let s = t.state
        switch self {
        case .opacity: return Double(s.pointee.opacity)
        case .shadowOpacity: return Double(s.pointee.shadowOpacity)
        case .zPosition: return s.pointee.zPosition
        case .anchorPointZ: return s.pointee.anchorPointZ
        case .cornerRadius: return s.pointee.cornerRadius
        case .borderWidth: return s.pointee.borderWidth
        case .shadowRadius: return s.pointee.shadowRadius
        case .positionX: return s.pointee.position.x
        case .positionY: return s.pointee.position.y
        case .anchorPointX: return s.pointee.anchorPoint.x
        case .anchorPointY: return s.pointee.anchorPoint.y
        case .transform(let c): return Double(transformComponentValue(s.pointee.transform, c))
        case .sublayerTransform(let c): return Double(transformComponentValue(s.pointee.sublayerTransform, c))
        case .shape(let n):
            guard let sh = t.shape else { return 0 }
            switch n {
            case .lineWidth: return sh.pointee.lineWidth
            case .miterLimit: return sh.pointee.miterLimit
            case .strokeStart: return sh.pointee.strokeStart
            case .strokeEnd: return sh.pointee.strokeEnd
            case .lineDashPhase: return sh.pointee.lineDashPhase
            }
        case .position, .anchorPoint, .color: return 0
        }
    }

    @inline(__always)
    func point(in t: SlotTarget) -> CGPoint { self == .anchorPoint ? t.state.pointee.anchorPoint : t.state.pointee.position }

    /// The current value of a colour slot (nil for a slot that is not a colour, or a shape
    /// colour of a layer that is not a shape layer).
    @inline(__always)
    func color(in t: SlotTarget) -> CGColor? {
        guard case .color(let k) = self else { return nil }
        switch k {
        case .background: return t.state.pointee.backgroundColor
        case .border: return t.state.pointee.borderColor
        case .shadow: return t.state.pointee.shadowColor
        case .fill: return t.shape?.pointee.fillColor
        case .stroke: return t.shape?.pointee.strokeColor
        }
    }

    /// The whole stored property the slot is part of (what a frame resets from the committed
    /// state before animations write, like `KeyPathBinding.reset`).
    var root: LayerSlot {
        switch self {
        case .positionX, .positionY: return .position
        case .anchorPointX, .anchorPointY: return .anchorPoint
        case .transform: return .transform(.scale)
        case .sublayerTransform: return .sublayerTransform(.scale)
        default: return self
        }
    }

    @inline(__always)
    func reset(_ out: SlotTarget, from base: SlotTarget) {
        // Field by field, through pointers: a copy of the whole `LayerState` would retain every
        // colour and path, and passing the layers would retain them.
        let o = out.state, b = base.state
        switch self {
        case .opacity: o.pointee.opacity = b.pointee.opacity
        case .zPosition: o.pointee.zPosition = b.pointee.zPosition
        case .anchorPointZ: o.pointee.anchorPointZ = b.pointee.anchorPointZ
        case .cornerRadius: o.pointee.cornerRadius = b.pointee.cornerRadius
        case .borderWidth: o.pointee.borderWidth = b.pointee.borderWidth
        case .shadowOpacity: o.pointee.shadowOpacity = b.pointee.shadowOpacity
        case .shadowRadius: o.pointee.shadowRadius = b.pointee.shadowRadius
        case .position, .positionX, .positionY: o.pointee.position = b.pointee.position
        case .anchorPoint, .anchorPointX, .anchorPointY: o.pointee.anchorPoint = b.pointee.anchorPoint
        case .transform: o.pointee.transform = b.pointee.transform
        case .sublayerTransform: o.pointee.sublayerTransform = b.pointee.sublayerTransform
        case .color(.background): o.pointee.backgroundColor = b.pointee.backgroundColor
        case .color(.border): o.pointee.borderColor = b.pointee.borderColor
        case .color(.shadow): o.pointee.shadowColor = b.pointee.shadowColor
        case .color(.fill), .color(.stroke), .shape:
            guard let os = out.shape, let bs = base.shape else { return }
            switch self {
            case .color(.fill): os.pointee.fillColor = bs.pointee.fillColor
            case .color(.stroke): os.pointee.strokeColor = bs.pointee.strokeColor
            case .shape(.lineWidth): os.pointee.lineWidth = bs.pointee.lineWidth
            case .shape(.miterLimit): os.pointee.miterLimit = bs.pointee.miterLimit
            case .shape(.strokeStart): os.pointee.strokeStart = bs.pointee.strokeStart
            case .shape(.strokeEnd): os.pointee.strokeEnd = bs.pointee.strokeEnd
            case .shape(.lineDashPhase): os.pointee.lineDashPhase = bs.pointee.lineDashPhase
            default: break
            }
        }
    }

    /// The store the public setter makes on a presentation copy: a value the setter refuses
    /// (non-finite; NaN only for the opacities) is ignored with the same warning
    /// (`updateFinite`/`updateNotNaN`, `rejectNonFinite` for the shape numbers); a transform
    /// component is checked by `applyingTransformComponent`, as on the general path.
    @inline(__always)
    func write(_ v: Double, into t: SlotTarget) {
        let s = t.state
        switch self {
        case .transform(let c): s.pointee.transform = applyingTransformComponent(s.pointee.transform, c, value: v); return
        case .sublayerTransform(let c): s.pointee.sublayerTransform = applyingTransformComponent(s.pointee.sublayerTransform, c, value: v); return
        case .opacity, .shadowOpacity: if v.isNaN { return refuse(v) }
        default: if !v.isFinite { return refuse(v) }
        }
        switch self {
        case .opacity: s.pointee.opacity = Float(v)
        case .shadowOpacity: s.pointee.shadowOpacity = Float(v)
        case .zPosition: s.pointee.zPosition = v
        case .anchorPointZ: s.pointee.anchorPointZ = v
        case .cornerRadius: s.pointee.cornerRadius = v
        case .borderWidth: s.pointee.borderWidth = v
        case .shadowRadius: s.pointee.shadowRadius = v
        case .positionX: s.pointee.position.x = v
        case .positionY: s.pointee.position.y = v
        case .anchorPointX: s.pointee.anchorPoint.x = v
        case .anchorPointY: s.pointee.anchorPoint.y = v
        case .shape(let n):
            guard let sh = t.shape else { return }
            switch n {
            case .lineWidth: sh.pointee.lineWidth = v
            case .miterLimit: sh.pointee.miterLimit = v
            case .strokeStart: sh.pointee.strokeStart = v
            case .strokeEnd: sh.pointee.strokeEnd = v
            case .lineDashPhase: sh.pointee.lineDashPhase = v
            }
        case .transform, .sublayerTransform, .position, .anchorPoint, .color: break
        }
    }

    @inline(__always)
    func write(_ p: CGPoint, into t: SlotTarget) {
        guard p.x.isFinite, p.y.isFinite else { return refuse(p) }
        if self == .position { t.state.pointee.position = p } else if self == .anchorPoint { t.state.pointee.anchorPoint = p }
    }

    /// The colour setters take any value (as the general path's binding stores it).
    @inline(__always)
    func write(color c: CGColor?, into t: SlotTarget) {
        guard case .color(let k) = self else { return }
        switch k {
        case .background: t.state.pointee.backgroundColor = c
        case .border: t.state.pointee.borderColor = c
        case .shadow: t.state.pointee.shadowColor = c
        case .fill: t.shape?.pointee.fillColor = c
        case .stroke: t.shape?.pointee.strokeColor = c
        }
    }

    @inline(never)
    private func refuse(_ value: Any) {
        let key: String
        switch root {
        case .opacity: key = "opacity"
        case .shadowOpacity: key = "shadowOpacity"
        case .zPosition: key = "zPosition"
        case .anchorPointZ: key = "anchorPointZ"
        case .cornerRadius: key = "cornerRadius"
        case .borderWidth: key = "borderWidth"
        case .shadowRadius: key = "shadowRadius"
        case .anchorPoint: key = "anchorPoint"
        case .shape(.lineWidth): key = "lineWidth"
        case .shape(.miterLimit): key = "miterLimit"
        case .shape(.strokeStart): key = "strokeStart"
        case .shape(.strokeEnd): key = "strokeEnd"
        case .shape(.lineDashPhase): key = "lineDashPhase"
        default: key = "position"
        }
        Diagnostics.warnOnce("CALayer.\(key): ignored non-finite or invalid value \(value)")
    }
}

/// Where a typed track reads and writes: a copy's `LayerState`, and its `ShapeLayerState` when
/// the copy is a `CAShapeLayer` (nil otherwise; the shape slots then read 0 and write nothing,
/// though a shape key only compiles to a slot for a class that has it).
package struct SlotTarget {
    let state: UnsafeMutablePointer<LayerState>
    let shape: UnsafeMutablePointer<ShapeLayerState>?

    /// `body` with `layer`'s state, and its shape state when `shape` is true and the layer is a
    /// shape layer. Pointers into the objects: passing values would copy and retain.
    @inline(__always)
    static func with<R>(_ layer: CALayer, shape: Bool, _ body: (SlotTarget) -> R) -> R {
        withUnsafeMutablePointer(to: &layer.state) { s in
            if shape, let sl = layer as? CAShapeLayer {
                return withUnsafeMutablePointer(to: &sl.shape) { body(SlotTarget(state: s, shape: $0)) }
            }
            return body(SlotTarget(state: s, shape: nil))
        }
    }
}

extension AnimValue {
    /// The colour a fraction `t` of the way between two colours, as `interpolated(to:_:)` makes
    /// it (a nil colour animates as transparent black; two nil colours stay nil), for the
    /// typed colour tracks, so both paths compute the same components.
    @inline(__always)
    package static func lerpOptionalColor(_ c: CGColor?, _ d: CGColor?, _ t: Double) -> CGColor? {
        if c == nil, d == nil { return nil }
        let clear = CGColor(red: 0, green: 0, blue: 0, alpha: 0)
        return lerpColor(c ?? clear, d ?? clear, t)
    }
}
