import CoreImage

/// Key paths into a layer's Core Image filters: `filters.<name>.<key>` and
/// `backgroundFilters.<name>.<key>` (Apple's CALayer `filters` doc: "you can animate a filter's
/// parameters by key path, using the filter's name", e.g. `filters.blur.inputRadius`), for
/// numeric parameters. The filter is the first in the array whose `name` matches.
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
        let get: (CALayer) -> AnimValue = { l in
            guard let f = find(l), f.inputKeys.contains(key) else { return .null }
            return .number(f.number(key))
        }
        func write(_ l: CALayer, _ v: AnimValue) {
            guard case .number(let x) = v, let filters = l.state[keyPath: list],
                  let i = filters.firstIndex(where: { ($0 as? CIFilter)?.name == name }), let f = filters[i] as? CIFilter else { return }
            let copy = CIFilter(copying: f)
            copy.setValue(x, forKey: key)
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
        return KeyPathBinding(kind: .number, property: property, get: get, set: write,
                              add: { l, v in write(l, get(l).adding(v)) },
                              reset: { out, base in out.state[keyPath: list] = base.state[keyPath: list] })
    }
}
