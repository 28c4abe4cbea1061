// Key-value coding as Core Animation extends it: every property by key, structure key paths
// (docs/BEHAVIOUR.md E6), and arbitrary extra keys stored on the layer.

extension CALayer {
    /// The value for `key`, in the property's Swift type; an undeclared key reads what was stored under
    /// it, else `defaultValue(forKey:)`.
    package func valueImpl(forKey key: String) -> Any? {
        if key == "frame" { return frame }
        if let d = PropertyTable.of(type(of: self)).descriptors[key] { return d.read(self) }
        return dynamicValues[key] ?? type(of: self).defaultValue(forKey: key)
    }

    /// Sets `key`. A value of the wrong type for a declared key is ignored with a warning.
    package func setValueImpl(_ value: Any?, forKey key: String) {
        if key == "frame" {
            if let r = AnimValue.unboxed(value) as? CGRect { frame = r } else { warnWrongType(key, value) }
            return
        }
        if let d = PropertyTable.of(type(of: self)).descriptors[key] {
            guard let v = AnimValue.from(value, kind: d.kind), !(v.isNull && d.kind.isNonOptional) else {
                return warnWrongType(key, value)
            }
            d.set(self, v)
            return
        }
        setDynamicValue(value, forKey: key)
    }

    /// Reads a key path such as `position.x` or `transform.rotation.z`; nil for an unknown path.
    package func valueImpl(forKeyPath keyPath: String) -> Any? {
        guard keyPath.contains(".") else { return value(forKey: keyPath) }
        if let v = filterParameterValue(forKeyPath: keyPath) { return v }
        if let b = KeyPathBinding.resolve(keyPath, for: self) { return b.get(self).anyValue }
        Diagnostics.warnOnce("CALayer.value(forKeyPath:): unknown key path \"\(keyPath)\"")
        return nil
    }

    /// Writes a key path (e.g. `setValue(10, forKeyPath: "transform.translation.x")`, E6);
    /// unknown paths and wrong types are ignored with a warning.
    package func setValueImpl(_ value: Any?, forKeyPath keyPath: String) {
        guard keyPath.contains(".") else { return setValue(value, forKey: keyPath) }
        guard let b = KeyPathBinding.resolve(keyPath, for: self) else {
            return Diagnostics.warnOnce("CALayer.setValue(_:forKeyPath:): unknown key path \"\(keyPath)\"; ignored")
        }
        guard let v = AnimValue.from(value, kind: b.kind), !v.isNull else { return warnWrongType(keyPath, value) }
        b.set(self, v)
    }

    /// Stores an undeclared (custom) key, with the same change handling as built-in ones.
    package func setDynamicValue(_ value: Any?, forKey key: String) {
        if isPresentationCopy { dynamicValues[key] = value; return }
        let run = layerWillChange(key)
        dynamicValues[key] = value
        layerDidChange(key, runAction: run)
    }

    private func warnWrongType(_ key: String, _ value: Any?) {
        Diagnostics.warnOnce("CALayer.setValue(_:forKey: \"\(key)\"): value \(value.map { "\(type(of: $0))" } ?? "nil") has the wrong type; ignored")
    }
}

extension AnimValue {
    package var isNull: Bool { if case .null = self { return true }; return false }
}

extension ValueKind {
    /// Kinds whose Swift property is not optional (nil cannot be stored).
    package var isNonOptional: Bool {
        switch self {
        case .number, .point, .size, .rect, .transform, .bool: return true
        case .color, .path, .vector, .object: return false
        }
    }
}

/// Declares a custom layer property stored through the layer's key-value storage, so it can be
/// animated and read from the presentation layer — the Swift counterpart of Apple's
/// `@NSManaged var` / `@objc dynamic var` on a CALayer subclass. Extension beyond Apple's API.
///
/// ```swift
/// final class ClockLayer: CALayer {
///     @LayerProperty(key: "time") var time: CGFloat = 0
///     override class func needsDisplay(forKey key: String) -> Bool {
///         key == "time" || super.needsDisplay(forKey: key)
///     }
/// }
/// ```
@propertyWrapper
public struct LayerProperty<Value> {
    public let key: String
    private let defaultValue: Value

    public init(wrappedValue: Value, key: String) {
        self.key = key
        self.defaultValue = wrappedValue
    }

    public static subscript<L: CALayer>(
        _enclosingInstance layer: L,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<L, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<L, LayerProperty<Value>>
    ) -> Value {
        get {
            let p = layer[keyPath: storageKeyPath]
            return Self.cast(layer.dynamicValues[p.key]) ?? p.defaultValue
        }
        set {
            let p = layer[keyPath: storageKeyPath]
            layer.setDynamicValue(newValue, forKey: p.key)
        }
    }

    /// Reads numbers stored as any numeric type (animations write `NSNumber`).
    private static func cast(_ v: Any?) -> Value? {
        guard let v else { return nil }
        if let x = v as? Value { return x }
        guard let n = AnimValue.number(from: v) else { return nil }
        switch Value.self {
        case is CGFloat.Type: return CGFloat(n) as? Value
        case is Double.Type: return n as? Value
        case is Float.Type: return Float(n) as? Value
        // Saturating: a finite 1e300 trapped in Int(_:) (issue 17); NaN gives 0 as before.
        case is Int.Type: return Int.clamped(n) as? Value
        default: return nil
        }
    }

    @available(*, unavailable, message: "@LayerProperty is only available on CALayer subclasses")
    public var wrappedValue: Value {
        get { fatalError() }
        set { fatalError() }
    }
}
