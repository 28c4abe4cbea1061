// Animations (docs/SCENE-FORMAT.md, "Animations"): `class` names the CAAnimation subclass;
// the other members are its Swift properties. Values (fromValue, values …) are typed by the
// animated key path of the layer the animation is added to.

extension SceneReader {
    static let animationClasses = ["CABasicAnimation", "CAKeyframeAnimation", "CASpringAnimation",
                                   "CAAnimationGroup", "CATransition"]

    /// An entry of a layer's `animations` (or a change's `addAnimation`): an animation object
    /// with an optional `key` (the key of `add(_:forKey:)`).
    func animationEntry(_ node: JSONNode, _ path: String, layer: CALayer) -> (CAAnimation, String?)? {
        guard let o = ObjectReader(node, path: path, self, what: "an animation object") else { return nil }
        var key: String? = nil
        if let k = o["key"] { key = string(k, o.at("key")) }
        guard let anim = animation(o, layer: layer, groupDepth: 0) else { return nil }
        return (anim, key)
    }

    func animation(_ o: ObjectReader, layer: CALayer, groupDepth: Int) -> CAAnimation? {
        animationCount += 1
        guard within(animationCount, limits.maxAnimations, "animations", limitName: "maxAnimations", o.path, line: o.node.line) else { return nil }
        guard let c = o["class"] else {
            problem(o.path, o.node, "missing \"class\" (one of \(Self.animationClasses.joined(separator: ", ")))")
            o.markAllUsed()
            return nil
        }
        guard let className = string(c, o.at("class")) else { o.markAllUsed(); return nil }
        let anim: CAAnimation
        switch className {
        case "CABasicAnimation": anim = CABasicAnimation()
        case "CAKeyframeAnimation": anim = CAKeyframeAnimation()
        case "CASpringAnimation": anim = CASpringAnimation()
        case "CAAnimationGroup": anim = CAAnimationGroup()
        case "CATransition": anim = CATransition()
        default:
            problem(o.at("class"), c, "unknown animation class \"\(className.prefix(80))\" (one of \(Self.animationClasses.joined(separator: ", ")))")
            o.markAllUsed()
            return nil
        }
        // CAMediaTiming and CAAnimation.
        for p in SceneSchema.timing {
            guard let v = o[p.name], let value = propertyValue(v, p, o.at(p.name)) else { continue }
            anim.setValue(value, forKey: p.key)
        }
        if let v = o["timingFunction"], let tf = value(v, .timingFunction, o.at("timingFunction")) {
            anim.timingFunction = tf as? CAMediaTimingFunction
        }
        if let v = o["isRemovedOnCompletion"], let b = bool(v, o.at("isRemovedOnCompletion")) { anim.isRemovedOnCompletion = b }
        if let v = o["delegate"] { problem(o.at("delegate"), v, "delegates are code and cannot be written in a scene file") }

        if let p = anim as? CAPropertyAnimation { propertyAnimation(p, o, layer: layer) }
        if let g = anim as? CAAnimationGroup {
            if let v = o["animations"], let items = array(v, o.at("animations"), expected: "an array of animation objects") {
                if groupDepth + 1 > limits.maxGroupDepth {
                    problem(o.at("animations"), v, "animation groups nested deeper than \(limits.maxGroupDepth) levels (limit maxGroupDepth)")
                } else {
                    var children: [CAAnimation] = []
                    for (i, item) in items.enumerated() {
                        guard let co = ObjectReader(item, path: indexPath(o.at("animations"), i), self, what: "an animation object") else { continue }
                        if let child = animation(co, layer: layer, groupDepth: groupDepth + 1) { children.append(child) }
                    }
                    g.animations = children
                }
            }
        }
        if let t = anim as? CATransition {
            if let v = o["type"], let s = value(v, .constant(SceneConstants.transitionType), o.at("type")) as? String {
                t.type = CATransitionType(rawValue: s)
            }
            if let v = o["subtype"], let s = value(v, .constant(SceneConstants.transitionSubtype), o.at("subtype")) as? String {
                t.subtype = CATransitionSubtype(rawValue: s)
            }
            if let v = o["startProgress"], let d = number(v, o.at("startProgress")) { t.startProgress = Float(d) }
            if let v = o["endProgress"], let d = number(v, o.at("endProgress")) { t.endProgress = Float(d) }
            if let v = o["filter"] { problem(o.at("filter"), v, "transition filters are not rendered (Core Image filters do not exist on Linux)") }
        }
        o.finish("a \(className)")
        return anim
    }

    /// What a key path animates on `layer`'s class, or nil (problem reported).
    func valueKind(keyPath: String, layer: CALayer, _ path: String, _ node: JSONNode) -> SceneValueKind? {
        let cls = type(of: layer)
        let head = String(keyPath.split(separator: ".", maxSplits: 1).first ?? "")
        let clsName = SceneSchema.className(of: layer) ?? "\(cls)"
        guard head == "frame" || PropertyTable.of(cls).descriptors[head] != nil,
              let binding = KeyPathBinding.resolve(keyPath, for: layer) else {
            problem(path, node, "unknown key path \"\(keyPath.prefix(80))\" for a \(clsName)")
            return nil
        }
        if let k = SceneValueKind(binding.kind) { return k }
        if !keyPath.contains("."), let p = SceneSchema.property(forKey: head, of: cls) { return p.kind }
        problem(path, node, "key path \"\(keyPath.prefix(80))\" cannot be animated in a scene file")
        return nil
    }

    private func propertyAnimation(_ p: CAPropertyAnimation, _ o: ObjectReader, layer: CALayer) {
        var kind: SceneValueKind? = nil
        if let v = o["keyPath"], let kp = string(v, o.at("keyPath")) {
            p.keyPath = kp
            kind = valueKind(keyPath: kp, layer: layer, o.at("keyPath"), v)
        } else {
            problem(o.path, o.node, "missing \"keyPath\" (the animated property, e.g. \"position\" or \"transform.rotation.z\")")
        }
        if let v = o["isAdditive"], let b = bool(v, o.at("isAdditive")) { p.isAdditive = b }
        if let v = o["isCumulative"], let b = bool(v, o.at("isCumulative")) { p.isCumulative = b }
        var usesValueFunction = false
        if let v = o["valueFunction"], let s = value(v, .constant(SceneConstants.valueFunction), o.at("valueFunction")) as? String {
            p.valueFunction = CAValueFunction(name: CAValueFunctionName(rawValue: s))
            usesValueFunction = true
        }
        /// Reads one animation value; with a value function, numbers or [x, y, z] arrays (E5).
        func animValue(_ node: JSONNode, _ path: String) -> Any?? {
            if usesValueFunction {
                if case .number(let d) = node.value { return .some(d) }
                guard let n = fixedNumbers(node, path, counts: [1, 2, 3], expected: "a number or [x, y, z] (value function)") else { return nil }
                return .some(n)
            }
            guard let kind else { return nil }  // unknown key path: reported already
            // Rotation angles may carry a CSS unit ("90deg", "0.25turn"); numbers are radians.
            if case .number = kind, case .string = node.value, p.keyPath?.hasPrefix("transform.rotation") == true {
                guard let a = angle(node, path) else { return nil }
                return .some(a)
            }
            return value(node, kind, path)
        }
        if let b = p as? CABasicAnimation {
            for name in ["fromValue", "toValue", "byValue"] {
                guard let v = o[name], let x = animValue(v, o.at(name)) else { continue }
                b.setValue(x, forKey: name)
            }
        }
        if let s = p as? CASpringAnimation {
            for (name, minimum, inclusive) in [("mass", 0.0, false), ("stiffness", 0, false), ("damping", 0, true), ("initialVelocity", -Double.greatestFiniteMagnitude, true)] {
                guard let v = o[name], let d = number(v, o.at(name)) else { continue }
                guard inclusive ? d >= minimum : d > minimum else {
                    problem(o.at(name), v, "must be \(inclusive ? "at least" : "greater than") \(JSONWriter.number(minimum))")
                    continue
                }
                switch name {
                case "mass": s.mass = d
                case "stiffness": s.stiffness = d
                case "damping": s.damping = d
                default: s.initialVelocity = d
                }
            }
            if let v = o["allowsOverdamping"], let b = bool(v, o.at("allowsOverdamping")) { s.allowsOverdamping = b }
        }
        if let k = p as? CAKeyframeAnimation { keyframes(k, o, kind: kind, animValue: animValue) }
    }

    private func keyframes(_ k: CAKeyframeAnimation, _ o: ObjectReader, kind: SceneValueKind?, animValue: (JSONNode, String) -> Any??) {
        var valueCount: Int? = nil
        if let v = o["values"], let items = array(v, o.at("values"), expected: "an array of keyframe values") {
            if within(items.count, limits.maxKeyframes, "keyframes", limitName: "maxKeyframes", o.at("values"), line: v.line),
               spend(items.count, from: &keyframeTotal, limits.maxTotalKeyframes, "keyframe entries in the whole file",
                     limitName: "maxTotalKeyframes", o.at("values"), line: v.line) {
                var out: [Any] = []
                var ok = true
                for (i, item) in items.enumerated() {
                    if let x = animValue(item, indexPath(o.at("values"), i)) { out.append(x ?? NSNull()) } else { ok = false }
                }
                if ok { k.values = out }
                valueCount = items.count
            }
        }
        var hasPath = false
        if let v = o["path"] {
            if let kind, kind != .point {
                problem(o.at("path"), v, "a keyframe path animates point properties only (this key path takes \(kind.expected))")
            } else if let path = path(v, o.at("path")) {
                k.path = path
                hasPath = true
            }
        }
        let mode = o["calculationMode"].flatMap { value($0, .constant(SceneConstants.calculationMode), o.at("calculationMode")) as? String }
        if let mode { k.calculationMode = CAAnimationCalculationMode(rawValue: mode) }
        let paced = mode == "paced" || mode == "cubicPaced"
        let keyframeCount = hasPath ? nil : valueCount
        if let v = o["keyTimes"], let times = numbers(v, o.at("keyTimes")),
           spend(times.count, from: &keyframeTotal, limits.maxTotalKeyframes, "keyframe entries in the whole file",
                 limitName: "maxTotalKeyframes", o.at("keyTimes"), line: v.line) {
            let discrete = mode == "discrete"
            if let n = keyframeCount, !paced {
                let expected = discrete ? n + 1 : n
                if times.count != expected {
                    problem(o.at("keyTimes"), v, "\(times.count) values for \(n) keyframes" + (discrete ? " (calculationMode discrete takes \(n + 1))" : ""))
                }
            }
            if times.contains(where: { !($0 >= 0 && $0 <= 1) }) {
                problem(o.at("keyTimes"), v, "key times must lie between 0 and 1")
            } else if zip(times, times.dropFirst()).contains(where: { $0 > $1 }) {
                problem(o.at("keyTimes"), v, "key times must not decrease")
            }
            k.keyTimes = times.map { NSNumber(value: $0) }
        }
        if let v = o["timingFunctions"], let items = array(v, o.at("timingFunctions"), expected: "an array of timing functions") {
            if within(items.count, limits.maxKeyframes, "keyframes", limitName: "maxKeyframes", o.at("timingFunctions"), line: v.line),
               spend(items.count, from: &keyframeTotal, limits.maxTotalKeyframes, "keyframe entries in the whole file",
                     limitName: "maxTotalKeyframes", o.at("timingFunctions"), line: v.line) {
                var fns: [CAMediaTimingFunction] = []
                for (i, item) in items.enumerated() {
                    if let f = timingFunction(item, indexPath(o.at("timingFunctions"), i)) { fns.append(f) }
                }
                if let n = keyframeCount, n > 0, !paced, items.count != n - 1 {
                    problem(o.at("timingFunctions"), v, "\(items.count) timing functions for \(n) keyframes (one per segment: \(n - 1))")
                }
                k.timingFunctions = fns
            }
        }
        for name in ["tensionValues", "continuityValues", "biasValues"] {
            guard let v = o[name], let ns = numbers(v, o.at(name)) else { continue }
            if let n = keyframeCount, ns.count != n {
                problem(o.at(name), v, "\(ns.count) values for \(n) keyframes")
            }
            switch name {
            case "tensionValues": k.tensionValues = ns.map { NSNumber(value: $0) }
            case "continuityValues": k.continuityValues = ns.map { NSNumber(value: $0) }
            default: k.biasValues = ns.map { NSNumber(value: $0) }
            }
        }
        if let v = o["rotationMode"], let s = value(v, .constant(SceneConstants.rotationMode), o.at("rotationMode")) as? String {
            if !hasPath && !o.has("path") { problem(o.at("rotationMode"), v, "rotationMode needs a path") }
            k.rotationMode = CAAnimationRotationMode(rawValue: s)
        }
        if !hasPath, !o.has("path"), !o.has("values") {
            problem(o.path, o.node, "a CAKeyframeAnimation needs \"values\" or \"path\"")
        }
    }
}
