/// Turns an added animation into an evaluator, resolving its key path and values once
/// (never per frame). Returns nil, with a warning, when the animation cannot apply: unknown
/// key path, values of the wrong type, nothing to interpolate.
package enum AnimationCompiler {
    package static func compile(_ anim: CAAnimation, for layer: CALayer, implicitFrom: AnimValue?, depth: Int = 0) -> AnimationEvaluator? {
        guard depth < 32 else {
            Diagnostics.warnOnce("CAAnimationGroup: groups nested more than 32 deep are ignored")
            return nil
        }
        switch anim {
        case let t as CATransition:
            return TransitionEvaluator(t)
        case let g as CAAnimationGroup:
            let children = (g.animations ?? []).compactMap { compile($0, for: layer, implicitFrom: nil, depth: depth + 1) }
            return GroupEvaluator(timing: g.timing, timingFunction: g.timingFunction,
                                  removedOnCompletion: depth == 0 && g.isRemovedOnCompletion, children: children)
        case let p as CAPropertyAnimation:
            // A group's children ignore removedOnCompletion (H2): their fill modes hold inside
            // the group's window.
            return compileProperty(p, for: layer, implicitFrom: implicitFrom, removedOnCompletion: depth == 0 && p.isRemovedOnCompletion)
        default:
            Diagnostics.warnOnce("\(type(of: anim)): not a property animation, group or transition; ignored")
            return nil
        }
    }

    private static func compileProperty(_ p: CAPropertyAnimation, for layer: CALayer, implicitFrom: AnimValue?,
                                        removedOnCompletion: Bool) -> AnimationEvaluator? {
        guard let keyPath = p.keyPath, !keyPath.isEmpty else {
            Diagnostics.warnOnce("\(type(of: p)): no keyPath; ignored")
            return nil
        }
        let sample: Any? = (p as? CABasicAnimation).flatMap { $0.toValue ?? $0.fromValue ?? $0.byValue }
            ?? (p as? CAKeyframeAnimation)?.values?.first
        guard let binding = KeyPathBinding.resolve(keyPath, for: layer, sample: sample) else {
            Diagnostics.warnOnce("\(type(of: p)): unknown key path \"\(keyPath)\" for \(type(of: layer)); ignored")
            return nil
        }
        let vf = p.valueFunction?.name
        let read: (Any?) -> AnimValue? = { any in
            vf != nil ? AnimValue.vector(from: any) : AnimValue.from(any, kind: binding.kind)
        }
        func bad(_ what: String) -> AnimationEvaluator? {
            Diagnostics.warnOnce("\(type(of: p)) \"\(keyPath)\": \(what); ignored")
            return nil
        }
        let curve: ValueCurve
        var rotation: KeyPathBinding? = nil
        switch p {
        case let b as CABasicAnimation:
            func convert(_ v: Any?) -> (ok: Bool, value: AnimValue?) {
                guard let v, !(v is NSNull) else { return (true, nil) }
                let x = read(v)
                return (x != nil, x)
            }
            let from = convert(b.fromValue), to = convert(b.toValue), by = convert(b.byValue)
            guard from.ok, to.ok, by.ok else { return bad("a from/to/by value has the wrong type") }
            let e: BasicEndpoints
            switch (from.value, to.value, by.value) {
            case let (f?, t?, _): e = .fromTo(f, t)
            case let (f?, nil, by?): e = .fromTo(f, f.adding(by))
            case let (nil, t?, by?): e = .fromTo(t.subtracting(by), t)
            case let (f?, nil, nil): e = .fromOnly(f)
            case let (nil, t?, nil): e = .toOnly(t)
            case let (nil, nil, by?): e = .byOnly(by)
            case (nil, nil, nil): e = .implicit(from: implicitFrom)
            }
            if let s = b as? CASpringAnimation { curve = .spring(e, s.solver) } else { curve = .basic(e) }
        case let k as CAKeyframeAnimation:
            let usePath = k.path != nil && binding.kind == .point
            var vals: [AnimValue] = []
            if !usePath {
                for v in k.values ?? [] {
                    guard let x = read(v) else { return bad("a keyframe value has the wrong type") }
                    vals.append(x)
                }
            }
            let nums: ([NSNumber]?) -> [Double] = { $0?.map(\.doubleValue) ?? [] }
            guard let kc = KeyframeCurve(values: vals, path: usePath ? k.path : nil, keyTimes: k.keyTimes.map(nums),
                                         timingFunctions: k.timingFunctions, mode: k.calculationMode,
                                         tension: nums(k.tensionValues), continuity: nums(k.continuityValues),
                                         bias: nums(k.biasValues), rotationMode: k.rotationMode) else {
                return bad("no values and no path")
            }
            curve = .keyframes(kc)
            if usePath, k.rotationMode != nil { rotation = KeyPathBinding.resolve("transform", for: layer) }
        default:
            return bad("unsupported property animation class")
        }
        return PropertyEvaluator(binding: binding, timing: p.timing, timingFunction: p is CASpringAnimation ? nil : p.timingFunction,
                                 curve: curve, isAdditive: p.isAdditive, isCumulative: p.isCumulative,
                                 removedOnCompletion: removedOnCompletion, valueFunction: vf, rotationBinding: rotation,
                                 slot: PropertyTable.of(type(of: layer)).descriptors[binding.property] != nil ? LayerSlot(keyPath: keyPath) : nil)
    }
}
