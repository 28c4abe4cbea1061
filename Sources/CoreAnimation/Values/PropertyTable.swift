
/// How the model reads and writes one property by key: used by key-value coding, by compiled
/// animations (resolved once, when the animation is added) and by the action search.
package struct PropertyDescriptor: Sendable {
    package let kind: ValueKind
    package let implicitAction: ImplicitAction
    package let get: @Sendable (CALayer) -> AnimValue
    /// Writes through the public setter (validation, actions on model layers; a plain store on
    /// presentation copies). Values of the wrong kind are ignored by the caller.
    package let set: @Sendable (CALayer, AnimValue) -> Void
    /// The value as the public API hands it out: the property's own Swift type (`Float` for
    /// `opacity`, `CGFloat` for `cornerRadius` …), since `NSNumber` does not cast to `CGFloat`
    /// on Linux the way it bridges on Apple platforms.
    package let read: @Sendable (CALayer) -> Any?
    /// Typed writers for number and point properties, so the frame step's common case (a
    /// basic or spring animation of one scalar or point) writes without boxing the value in an
    /// `AnimValue`; nil for other kinds.
    package var setNumber: (@Sendable (CALayer, Double) -> Void)? = nil
    package var setPoint: (@Sendable (CALayer, CGPoint) -> Void)? = nil
    /// Copies the property from one layer to another in its own type (the frame step resets
    /// every animated property from the committed state this way, with no boxing).
    package var copyValue: (@Sendable (_ to: CALayer, _ from: CALayer) -> Void)? = nil
    /// Typed access to a whole transform, for `transform.*` component writes.
    package var getTransform: (@Sendable (CALayer) -> CATransform3D)? = nil
    package var setTransform: (@Sendable (CALayer, CATransform3D) -> Void)? = nil
}

/// Conversion between a stored Swift type and `AnimValue`.
package protocol AnimValueConvertible: SendableMetatype {
    static var valueKind: ValueKind { get }
    init?(animValue: AnimValue)
    var animValue: AnimValue { get }
    /// `self` as `Any?` (nil for an empty optional).
    var boxed: Any? { get }
}

extension AnimValueConvertible {
    package var boxed: Any? { self }
}

extension CGFloat: AnimValueConvertible {
    package static var valueKind: ValueKind { .number }
    package init?(animValue v: AnimValue) { guard case .number(let d) = v else { return nil }; self = d }
    package var animValue: AnimValue { .number(Double(self)) }
}
extension Double: AnimValueConvertible {
    package static var valueKind: ValueKind { .number }
    package init?(animValue v: AnimValue) { guard case .number(let d) = v else { return nil }; self = d }
    package var animValue: AnimValue { .number(self) }
}
extension Float: AnimValueConvertible {
    package static var valueKind: ValueKind { .number }
    package init?(animValue v: AnimValue) { guard case .number(let d) = v else { return nil }; self = Float(d) }
    package var animValue: AnimValue { .number(Double(self)) }
}
extension Int: AnimValueConvertible {
    package static var valueKind: ValueKind { .number }
    package init?(animValue v: AnimValue) {
        guard case .number(let d) = v, d.isFinite, abs(d) < 1e15 else { return nil }
        self = Int(d)
    }
    package var animValue: AnimValue { .number(Double(self)) }
}
extension Bool: AnimValueConvertible {
    package static var valueKind: ValueKind { .bool }
    package init?(animValue v: AnimValue) {
        switch v {
        case .bool(let b): self = b
        case .number(let d): self = d != 0
        default: return nil
        }
    }
    package var animValue: AnimValue { .bool(self) }
}
extension CGPoint: AnimValueConvertible {
    package static var valueKind: ValueKind { .point }
    package init?(animValue v: AnimValue) { guard case .point(let p) = v else { return nil }; self = p }
    package var animValue: AnimValue { .point(self) }
}
extension CGSize: AnimValueConvertible {
    package static var valueKind: ValueKind { .size }
    package init?(animValue v: AnimValue) { guard case .size(let s) = v else { return nil }; self = s }
    package var animValue: AnimValue { .size(self) }
}
extension CGRect: AnimValueConvertible {
    package static var valueKind: ValueKind { .rect }
    package init?(animValue v: AnimValue) { guard case .rect(let r) = v else { return nil }; self = r }
    package var animValue: AnimValue { .rect(self) }
}
extension CATransform3D: AnimValueConvertible {
    package static var valueKind: ValueKind { .transform }
    package init?(animValue v: AnimValue) { guard case .transform(let t) = v else { return nil }; self = t }
    package var animValue: AnimValue { .transform(self) }
}
extension Optional: AnimValueConvertible where Wrapped: AnimValueConvertibleObject {
    package static var valueKind: ValueKind { Wrapped.objectKind }
    package init?(animValue v: AnimValue) {
        if case .null = v { self = nil; return }
        guard let w = Wrapped.make(objectValue: v) else { return nil }
        self = w
    }
    package var animValue: AnimValue { self.map { $0.objectValue } ?? .null }
    package var boxed: Any? { self.map { $0 as Any } }
}

/// Optional-valued properties (colours, paths).
package protocol AnimValueConvertibleObject: SendableMetatype {
    static var objectKind: ValueKind { get }
    static func make(objectValue: AnimValue) -> Self?
    var objectValue: AnimValue { get }
}
extension CGColor: AnimValueConvertibleObject {
    package static var objectKind: ValueKind { .color }
    package static func make(objectValue v: AnimValue) -> CGColor? { if case .color(let c) = v { return c }; return nil }
    package var objectValue: AnimValue { .color(self) }
}
extension CGPath: AnimValueConvertibleObject {
    package static var objectKind: ValueKind { .path }
    package static func make(objectValue v: AnimValue) -> Self? {
        guard case .path(let p) = v else { return nil }
        return p as? Self
    }
    package var objectValue: AnimValue { .path(self) }
}

/// The keys a layer class understands. Built once per class and cached; subclasses extend
/// their superclass's table through `CALayer.makePropertyTable()`.
package struct PropertyTable: Sendable {
    package var descriptors: [String: PropertyDescriptor] = [:]

    private static let cache = Locked<[ObjectIdentifier: PropertyTable]>([:])

    package static func of(_ cls: CALayer.Type) -> PropertyTable {
        let id = ObjectIdentifier(cls)
        if let t = cache.withLock({ $0[id] }) { return t }
        let t = cls.makePropertyTable()
        cache.withLock { $0[id] = t }
        return t
    }

    /// Adds a property stored at `kp` of layer class `L`.
    package mutating func add<L: CALayer, T: AnimValueConvertible>(
        _ key: String, _ kp: ReferenceWritableKeyPath<L, T>, _ action: ImplicitAction = .basic, aliases: [String] = []
    ) {
        let box = KeyPathBox(kp)
        let untyped = PropertyDescriptor(
            kind: T.valueKind, implicitAction: action,
            get: { layer in unsafeDowncast(layer, to: L.self)[keyPath: box.kp].animValue },
            set: { layer, v in if let x = T(animValue: v) { unsafeDowncast(layer, to: L.self)[keyPath: box.kp] = x } },
            read: { layer in unsafeDowncast(layer, to: L.self)[keyPath: box.kp].boxed })
        let d = Self.withTypedWriters(untyped, T.self, read: { layer in unsafeDowncast(layer, to: L.self)[keyPath: box.kp] }) {
            layer, x in unsafeDowncast(layer, to: L.self)[keyPath: box.kp] = x
        }
        descriptors[key] = d
        for a in aliases { descriptors[a] = d }
    }

    /// Adds a property through explicit accessors: no key-path projection on the per-frame
    /// path (key-path application through computed properties allocates).
    package mutating func add<L: CALayer, T: AnimValueConvertible>(
        _ key: String, _ action: ImplicitAction = .basic, aliases: [String] = [],
        get: @escaping @Sendable (L) -> T, set: @escaping @Sendable (L, T) -> Void
    ) {
        let untyped = PropertyDescriptor(
            kind: T.valueKind, implicitAction: action,
            get: { layer in get(unsafeDowncast(layer, to: L.self)).animValue },
            set: { layer, v in if let x = T(animValue: v) { set(unsafeDowncast(layer, to: L.self), x) } },
            read: { layer in get(unsafeDowncast(layer, to: L.self)).boxed })
        let d = Self.withTypedWriters(untyped, T.self, read: { layer in get(unsafeDowncast(layer, to: L.self)) }) {
            layer, x in set(unsafeDowncast(layer, to: L.self), x)
        }
        descriptors[key] = d
        for a in aliases { descriptors[a] = d }
    }

    /// `d` with its typed accessors: `copyValue` always, `setNumber`/`setPoint` when `T` is a
    /// floating-point number or a point, transform access for `CATransform3D`. The conversions
    /// are the ones `set` applies (`T(animValue:)`), so both paths write the same value.
    private static func withTypedWriters<T: AnimValueConvertible>(
        _ d: PropertyDescriptor, _: T.Type, read: @escaping @Sendable (CALayer) -> T,
        _ write: @escaping @Sendable (CALayer, T) -> Void
    ) -> PropertyDescriptor {
        var d = d
        d.copyValue = { to, from in write(to, read(from)) }
        if T.self == CATransform3D.self {
            d.getTransform = { layer in read(layer) as! CATransform3D }
            d.setTransform = { layer, m in write(layer, m as! T) }
        }
        if T.self == Double.self || T.self == CGFloat.self || T.self == Float.self {
            d.setNumber = { layer, x in if let v = T(animValue: .number(x)) { write(layer, v) } }
        } else if T.self == CGPoint.self {
            d.setPoint = { layer, p in if let v = T(animValue: .point(p)) { write(layer, v) } }
        }
        return d
    }

    /// Adds a property whose value is an object or a string constant (discrete, not interpolated).
    package mutating func addObject<L: CALayer>(
        _ key: String, _ action: ImplicitAction = .none,
        get: @escaping @Sendable (L) -> Any?, set: @escaping @Sendable (L, Any?) -> Void
    ) {
        descriptors[key] = PropertyDescriptor(
            kind: .object, implicitAction: action,
            get: { layer in get(unsafeDowncast(layer, to: L.self)).map { AnimValue.object($0) } ?? .null },
            set: { layer, v in set(unsafeDowncast(layer, to: L.self), v.object) },
            read: { layer in get(unsafeDowncast(layer, to: L.self)) })
    }

    /// Adds a string-constant property (`contentsGravity`, `fillRule` …): reads give the raw
    /// string, writes take a string or the constant type.
    package mutating func addConstant<L: CALayer, C: CAStringConstant>(_ key: String, _ kp: ReferenceWritableKeyPath<L, C>) {
        let box = KeyPathBox(kp)
        addObject(key, get: { (l: L) -> Any? in l[keyPath: box.kp].rawValue }, set: { (layer: L, v: Any?) in
            if let s = v as? String { layer[keyPath: box.kp] = C(rawValue: s) } else if let c = v as? C { layer[keyPath: box.kp] = c }
        })
    }
}

/// Key paths to layer properties are immutable values; this box states that to the compiler.
private struct KeyPathBox<L, T>: @unchecked Sendable {
    let kp: ReferenceWritableKeyPath<L, T>
    init(_ kp: ReferenceWritableKeyPath<L, T>) { self.kp = kp }
}
