import CoreImage

/// Key paths into a layer's Core Image filters: `filters.<name>.<key>` and
/// `backgroundFilters.<name>.<key>` (Apple's CALayer `filters` doc: "you can animate a filter's
/// parameters by key path, using the filter's name", e.g. `filters.blur.inputRadius`): numbers,
/// colours (`CIColor`, or a `CGColor`; interpolated as colours are) and vectors (`CIVector`, a
/// number array or a `CGPoint`; component by component). The key's type is Core Image's for
/// that key name (`CIFilterCatalogue.parameterType(forKey:)`). The filter is the first in the
/// array whose `name` matches.
///
/// A write never changes a filter object in place: the layer gets a new array holding a copy
/// of that filter with the new value (a presentation copy shares the model's filters; the model
/// commits the new array, so the renderer sees the change). On a model layer the write runs the
/// action for the key path, as a property change does: with none found elsewhere, a
/// `CABasicAnimation` of the key path from the old value (implicit animation, J4).
extension KeyPathBinding {
    static func filterParameter(_ property: String, _ rest: String) -> KeyPathBinding? {
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        let name = parts[0], key = parts[1]
        let path = "\(property).\(rest)"
        let list: WritableKeyPath<LayerState, [Any]?> = property == "filters" ? \.filters : \.backgroundFilters
        func find(_ l: CALayer) -> CIFilter? {
            l.state[keyPath: list]?.lazy.compactMap { $0 as? CIFilter }.first { $0.name == name }
        }
        let type = CIFilterCatalogue.parameterType(forKey: key) ?? .number
        let get: (CALayer) -> AnimValue = { l in
            guard let f = find(l), f.inputKeys.contains(key) else { return .null }
            switch type {
            case .number: return .number(f.number(key))
            case .vector: return .vector(f.vector(key))
            case .color:
                let c = f.color(key)
                return .color(CGColor(red: c.x, green: c.y, blue: c.z, alpha: c.w))
            }
        }
        func write(_ l: CALayer, _ v: AnimValue) {
            let value: Any
            switch (type, v) {
            case (.number, .number(let x)): value = x
            case (.vector, .vector(let x)): value = CIVector(array: x.map { CGFloat($0) })
            case (.color, .color(let c)):
                let k = CIColor(cgColor: c)
                value = CIColor(red: k.red, green: k.green, blue: k.blue, alpha: k.alpha)
            default: return
            }
            guard let filters = l.state[keyPath: list],
                  let i = filters.firstIndex(where: { ($0 as? CIFilter)?.name == name }), let f = filters[i] as? CIFilter else { return }
            let copy = CIFilter(copying: f)
            copy.setValue(value, forKey: key)
            var changed = filters
            changed[i] = copy
            if l.isPresentationCopy {
                l.state[keyPath: list] = changed
                return
            }
            // The model: the array changes as a property change, then the key path's action.
            let old = get(l)
            let run = l.layerWillChange(property)
            l.state[keyPath: list] = changed
            l.layerDidChange(property, runAction: false)
            guard run, !CATransaction.disableActions() else { return }
            if l.implicitFromValues[path] == nil { l.implicitFromValues[path] = old }
            if let action = l.action(forKey: path) {
                action.run(forKey: path, object: l, arguments: nil)
            } else {
                let a = CABasicAnimation(keyPath: path)
                a.duration = CATransaction.animationDuration()
                a.timingFunction = CATransaction.animationTimingFunction()
                l.add(a, forKey: path)
            }
        }
        let kind: ValueKind = switch type { case .number: .number; case .vector: .vector; case .color: .color }
        return KeyPathBinding(kind: kind, property: property, get: get, set: write,
                              add: { l, v in write(l, get(l).adding(v)) },
                              reset: { out, base in out.state[keyPath: list] = base.state[keyPath: list] })
    }
}

extension CALayer {
    /// `value(forKeyPath: "filters.<name>.<key>")` answers the filter's own value, as Apple's
    /// key-value coding reaches through the array and the filter: a `CIColor` or `CIVector`
    /// stays one (the animation binding's typed value would hand out a `CGColor` or an array).
    /// Nil (outer) when `keyPath` is not a colour or vector filter parameter path.
    func filterParameterValue(forKeyPath keyPath: String) -> Any?? {
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, parts[0] == "filters" || parts[0] == "backgroundFilters" else { return nil }
        // Numbers keep the binding's answer: a CGFloat, whichever number type the filter holds
        // (NSNumber does not cast to CGFloat on Linux).
        if CIFilterCatalogue.parameterType(forKey: parts[2]) ?? .number == .number { return nil }
        let list = parts[0] == "filters" ? state.filters : state.backgroundFilters
        guard let f = list?.lazy.compactMap({ $0 as? CIFilter }).first(where: { $0.name == parts[1] }),
              f.inputKeys.contains(parts[2]) else { return .some(nil) }
        return .some(f.value(forKey: parts[2]))
    }
}
