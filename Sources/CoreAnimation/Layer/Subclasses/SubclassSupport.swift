// Shared plumbing for the CALayer subclasses: the same change protocol as `CALayer.update`
// (presentation copies store silently, unchanged values are skipped — docs/BEHAVIOUR.md J5 — and a
// real change goes through `layerWillChange`/`layerDidChange`, which record the transaction and
// run the action), but for values kept in a subclass's own state struct.

/// Sets a subclass-stored value with `CALayer.update`'s semantics.
@inline(__always)
func updateLayerValue<L: CALayer, V: Equatable>(_ layer: L, _ key: String, _ kp: ReferenceWritableKeyPath<L, V>, _ value: V) {
    if layer.isPresentationCopy { layer[keyPath: kp] = value; return }
    if layer[keyPath: kp] == value { return }
    let runAction = layer.layerWillChange(key)
    layer[keyPath: kp] = value
    layer.layerDidChange(key, runAction: runAction)
}

/// For `Any`-typed subclass values: identical objects count as unchanged (as `updateObject`).
@inline(__always)
func updateLayerObject<L: CALayer, V>(_ layer: L, _ key: String, _ kp: ReferenceWritableKeyPath<L, V>, _ value: V) {
    if layer.isPresentationCopy { layer[keyPath: kp] = value; return }
    if let old = layer[keyPath: kp] as AnyObject?, let new = value as AnyObject?, old === new { return }
    let runAction = layer.layerWillChange(key)
    layer[keyPath: kp] = value
    layer.layerDidChange(key, runAction: runAction)
}

/// Opaque colours of Apple's defaults, with four RGBA components (docs/BEHAVIOUR.md A3: CAShapeLayer's
/// fillColor is "opaque black (4 components)").
let opaqueBlackRGBA = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
let opaqueWhiteRGBA = CGColor(red: 1, green: 1, blue: 1, alpha: 1)

extension PropertyTable {
    /// A `UInt32` or other integer-like property exposed to KVC as a number but not
    /// `AnimValueConvertible` (emitter `seed`).
    mutating func addNumber<L: CALayer>(_ key: String, get: @escaping @Sendable (L) -> Double,
                                        set: @escaping @Sendable (L, Double) -> Void, read: @escaping @Sendable (L) -> Any) {
        descriptors[key] = PropertyDescriptor(
            kind: .number, implicitAction: .none,
            get: { l in .number(get(unsafeDowncast(l, to: L.self))) },
            set: { l, v in if case .number(let d) = v { set(unsafeDowncast(l, to: L.self), d) } },
            read: { l in read(unsafeDowncast(l, to: L.self)) })
    }
}
