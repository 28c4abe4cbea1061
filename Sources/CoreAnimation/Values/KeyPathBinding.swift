/// A key path resolved once against a layer class: how to read, write and add to the value
/// it names, including Core Animation's structure paths (docs/BEHAVIOUR.md E6: `position.x`,
/// `bounds.size.width`, `transform.rotation.z`, `transform.scale`, …). Compiled animations and
/// key-value coding share it, so no key path is parsed per frame.
package final class KeyPathBinding {
    /// The kind of the value at the key path.
    package let kind: ValueKind
    /// The layer property the path starts with (what a frame resets from the committed state).
    package let property: String
    package let get: (CALayer) -> AnimValue
    package let set: (CALayer, AnimValue) -> Void
    /// Additive composition with the underlying value (E3).
    package let add: (CALayer, AnimValue) -> Void
    // The writers below are set while the binding is made and only read after: their reads,
    // one per animated property per frame step, are unchecked (see AnimationRecord's flags).
    /// Copies the whole property from `base` into `out`.
    @exclusivity(unchecked) package private(set) var reset: (_ out: CALayer, _ base: CALayer) -> Void
    /// Typed writers of a whole number or point property (see `PropertyDescriptor.setNumber`);
    /// nil for components and other kinds.
    @exclusivity(unchecked) package private(set) var setNumber: ((CALayer, Double) -> Void)? = nil
    @exclusivity(unchecked) package private(set) var setPoint: ((CALayer, CGPoint) -> Void)? = nil
    /// Typed access to a whole-transform property, so its components write without boxing.
    @exclusivity(unchecked) private var getTransform: ((CALayer) -> CATransform3D)? = nil
    @exclusivity(unchecked) private var setTransform: ((CALayer, CATransform3D) -> Void)? = nil

    // A class, not a struct: evaluators pass bindings around every frame, and one retain is
    // cheaper than copying five closures.
    init(kind: ValueKind, property: String, get: @escaping (CALayer) -> AnimValue,
         set: @escaping (CALayer, AnimValue) -> Void, add: @escaping (CALayer, AnimValue) -> Void,
         reset: @escaping (_ out: CALayer, _ base: CALayer) -> Void) {
        self.kind = kind; self.property = property; self.get = get; self.set = set; self.add = add; self.reset = reset
    }

    /// Resolves `keyPath` for a layer of class `cls`; a key the class does not declare is a
    /// custom property whose kind is inferred from `sample` (or the layer's current value).
    package static func resolve(_ keyPath: String, for layer: CALayer, sample: Any? = nil) -> KeyPathBinding? {
        let parts = keyPath.split(separator: ".", maxSplits: 1).map(String.init)
        guard let head = parts.first, !head.isEmpty else { return nil }
        let rest = parts.count > 1 ? parts[1] : nil
        // `emitterCells.<name>.<property>` (CAEmitterCell+KeyPaths.swift).
        if head == "emitterCells", let rest, layer is CAEmitterLayer { return emitterCells(rest) }
        // `filters.<name>.<key>`, `backgroundFilters.<name>.<key>` (CALayer+FilterKeyPaths.swift).
        if head == "filters" || head == "backgroundFilters", let rest { return filterParameter(head, rest) }
        let table = PropertyTable.of(type(of: layer))
        let top: KeyPathBinding
        if let d = table.descriptors[head] {
            top = KeyPathBinding(kind: d.kind, property: head, get: d.get, set: d.set,
                                 add: { l, v in d.set(l, d.get(l).adding(v)) },
                                 reset: { out, base in d.set(out, d.get(base)) })
            top.setNumber = d.setNumber
            top.setPoint = d.setPoint
            top.getTransform = d.getTransform
            top.setTransform = d.setTransform
            if let copy = d.copyValue { top.reset = copy }
        } else if head == "frame" {
            // Derived (M1): its CGRect fields work as for any rect property (E6).
            top = KeyPathBinding(kind: .rect, property: "frame", get: { .rect($0.frame) },
                                 set: { l, v in if case .rect(let r) = v { l.frame = r } },
                                 add: { _, _ in }, reset: { _, _ in })
        } else {
            let current = layer.dynamicValues[head] ?? type(of: layer).defaultValue(forKey: head)
            let kind = AnimValue.inferredKind(of: sample ?? current)
            top = KeyPathBinding(
                kind: kind, property: head,
                get: { l in AnimValue.from(l.dynamicValues[head] ?? type(of: l).defaultValue(forKey: head), kind: kind) ?? .null },
                set: { l, v in l.setDynamicValue(v.anyValue, forKey: head) },
                add: { l, v in
                    let cur = AnimValue.from(l.dynamicValues[head] ?? type(of: l).defaultValue(forKey: head), kind: kind) ?? .null
                    l.setDynamicValue(cur.adding(v).anyValue, forKey: head)
                },
                reset: { out, base in out.dynamicValues[head] = base.dynamicValues[head] })
        }
        guard let rest else { return top }
        return top.component(rest)
    }

    /// A sub-field of this binding's value (E6).
    private func component(_ path: String) -> KeyPathBinding? {
        switch kind {
        case .transform:
            if path == "translation" {
                return derived(.size, { .size(transformTranslation($0.transform3D)) },
                               { .transform(settingTransformTranslation($0.transform3D, $1.cgSize)) },
                               { .transform(settingTransformTranslation($0.transform3D, CGSize(
                                   width: transformTranslation($0.transform3D).width + $1.cgSize.width,
                                   height: transformTranslation($0.transform3D).height + $1.cgSize.height))) })
            }
            guard let c = TransformComponent(keyPath: path) else { return nil }
            let b = derived(.number, { .number(Double(transformComponentValue($0.transform3D, c))) },
                            { .transform(applyingTransformComponent($0.transform3D, c, value: CGFloat($1.double))) },
                            { .transform(addingTransformComponent($0.transform3D, c, delta: CGFloat($1.double))) })
            if let get = getTransform, let set = setTransform {
                // The same write as `set` above, without the boxed values.
                b.setNumber = { l, x in set(l, applyingTransformComponent(get(l), c, value: CGFloat(x))) }
            }
            return b
        case .point:
            switch path {
            case "x": return scalar({ $0.cgPoint.x }, { var p = $0.cgPoint; p.x = $1; return .point(p) })
            case "y": return scalar({ $0.cgPoint.y }, { var p = $0.cgPoint; p.y = $1; return .point(p) })
            default: return nil
            }
        case .size:
            switch path {
            case "width": return scalar({ $0.cgSize.width }, { var s = $0.cgSize; s.width = $1; return .size(s) })
            case "height": return scalar({ $0.cgSize.height }, { var s = $0.cgSize; s.height = $1; return .size(s) })
            default: return nil
            }
        case .rect:
            switch path {
            case "origin":
                return derived(.point, { .point($0.cgRect.origin) }, { var r = $0.cgRect; r.origin = $1.cgPoint; return .rect(r) }, nil)
            case "size":
                return derived(.size, { .size($0.cgRect.size) }, { var r = $0.cgRect; r.size = $1.cgSize; return .rect(r) }, nil)
            case "origin.x": return scalar({ $0.cgRect.origin.x }, { var r = $0.cgRect; r.origin.x = $1; return .rect(r) })
            case "origin.y": return scalar({ $0.cgRect.origin.y }, { var r = $0.cgRect; r.origin.y = $1; return .rect(r) })
            case "size.width": return scalar({ $0.cgRect.size.width }, { var r = $0.cgRect; r.size.width = $1; return .rect(r) })
            case "size.height": return scalar({ $0.cgRect.size.height }, { var r = $0.cgRect; r.size.height = $1; return .rect(r) })
            default: return nil
            }
        default:
            return nil
        }
    }

    private func scalar(_ read: @escaping (AnimValue) -> CGFloat, _ write: @escaping (AnimValue, CGFloat) -> AnimValue) -> KeyPathBinding {
        derived(.number, { .number(Double(read($0))) }, { write($0, CGFloat($1.double)) }, nil)
    }

    /// A binding to a part of this binding's value: `read` extracts it, `write` replaces it,
    /// `addTo` composes additively (default: read + delta, then write).
    private func derived(_ kind: ValueKind, _ read: @escaping (AnimValue) -> AnimValue,
                         _ write: @escaping (AnimValue, AnimValue) -> AnimValue,
                         _ addTo: ((AnimValue, AnimValue) -> AnimValue)?) -> KeyPathBinding {
        let get = self.get, set = self.set
        let add = addTo ?? { whole, delta in write(whole, read(whole).adding(delta)) }
        return KeyPathBinding(kind: kind, property: property,
                              get: { read(get($0)) },
                              set: { l, v in set(l, write(get(l), v)) },
                              add: { l, v in set(l, add(get(l), v)) },
                              reset: reset)
    }
}
