// The top level of a scene file and its scheduled transactions (docs/SCENE-FORMAT.md).

/// The format's identity: files say `"format": "ca-scene"` and the version they were written for.
enum SceneFormat {
    static let name = "ca-scene"
    static let version = 1
}

extension SceneReader {
    /// Reads the whole document inside the caller's transaction. Nil when it is not an object
    /// or a required member is missing (problems reported).
    func document(_ node: JSONNode) -> LoadedScene? {
        guard let o = ObjectReader(node, path: "", self, what: "a scene object") else { return nil }
        // `$schema` names the JSON Schema editors check the file with (docs/scene.schema.json).
        if let v = o["$schema"] { _ = string(v, "$schema") }
        if let v = o["format"], let s = string(v, "format"), s != SceneFormat.name {
            problem("format", v, "expected \"\(SceneFormat.name)\", found \"\(s.prefix(80))\"")
        }
        if let v = o["version"] {
            if let d = number(v, "version") {
                if d != Double(SceneFormat.version) {
                    problem("version", v, d > Double(SceneFormat.version)
                            ? "version \(JSONWriter.number(d)) is newer than this reader (version \(SceneFormat.version))"
                            : "unknown version \(JSONWriter.number(d)) (this reader reads version \(SceneFormat.version))")
                }
            }
        } else {
            problem("version", "missing (this reader reads version \(SceneFormat.version))", line: node.line)
        }
        var scale: Double = 1
        if let v = o["scale"], let s = number(v, "scale") {
            if s > 0 && s <= 16 { scale = s } else { problem("scale", v, "must be greater than 0 and at most 16") }
        }
        var size: CGSize? = nil
        if let v = o["size"] {
            if let s = self.size(v, "size") {
                size = s
                for (side, value) in [("width", s.width), ("height", s.height)] {
                    let pixels = value * scale
                    if !(value > 0) {
                        problem("size", v, "\(side) must be greater than 0")
                        size = nil
                    } else if pixels > Double(limits.maxSize) {
                        problem("size", v, "\(side) of \(JSONWriter.number(pixels)) pixels is more than \(limits.maxSize) (limit maxSize)")
                        size = nil
                    } else if pixels < 1 {
                        problem("size", v, "\(side) is less than one pixel")
                        size = nil
                    }
                }
            }
        } else {
            problem("size", "missing (the frame in points, [width, height])", line: node.line)
        }
        var duration: Double? = nil
        if let v = o["duration"], let d = number(v, "duration") {
            if !(d > 0) { problem("duration", v, "must be greater than 0 seconds") }
            else if d > limits.maxDuration { problem("duration", v, "\(JSONWriter.number(d)) s is longer than \(JSONWriter.number(limits.maxDuration)) s (limit maxDuration)") }
            else { duration = d }
        } else if !o.has("duration") {
            problem("duration", "missing (seconds)", line: node.line)
        }
        var fps: Double? = 30
        if let v = o["framesPerSecond"], let f = number(v, "framesPerSecond") {
            if !(f > 0) { problem("framesPerSecond", v, "must be greater than 0"); fps = nil }
            else if f > limits.maxFramesPerSecond { problem("framesPerSecond", v, "more than \(JSONWriter.number(limits.maxFramesPerSecond)) (limit maxFramesPerSecond)"); fps = nil }
            else { fps = f }
        }
        if let d = duration, let f = fps, d * f > Double(limits.maxFrameCount) {
            problem("duration", "\(JSONWriter.number(d)) s at \(JSONWriter.number(f)) frames per second is \(JSONWriter.number((d * f).rounded(.up))) frames; at most \(limits.maxFrameCount) are allowed (limit maxFrameCount)", line: o["duration"]?.line)
        }
        var root: CALayer? = nil
        if let v = o["root"] {
            root = layer(v, "root", depth: 1)
        } else {
            problem("root", "missing (the root layer object)", line: node.line)
        }
        var transactions: [SceneTransaction] = []
        var references: [(name: String, path: String, node: JSONNode)] = []
        if let v = o["transactions"], let items = array(v, "transactions", expected: "an array of transaction objects") {
            if within(items.count, limits.maxTransactions, "transactions", limitName: "maxTransactions", "transactions", line: v.line) {
                for (i, item) in items.enumerated() {
                    if let t = transaction(item, indexPath("transactions", i), references: &references) { transactions.append(t) }
                }
            }
        }
        // Names used by changes must name exactly one layer.
        var named: [String: CALayer] = [:]
        for r in references {
            guard let layers = layersByName[r.name] else {
                problem(r.path, r.node, "no layer is named \"\(r.name.prefix(80))\"")
                continue
            }
            if layers.count > 1 {
                problem(r.path, r.node, "\(layers.count) layers are named \"\(r.name.prefix(80))\"; a layer that changes refer to needs a unique name")
                continue
            }
            named[r.name] = layers[0]
        }
        o.finish("a scene (format, version, size, scale, duration, framesPerSecond, root, transactions)")
        if let root, let size {
            var roots = [root]
            for t in transactions {
                for c in t.changes { if case .addSublayer(_, let s) = c { roots.append(s) } }
            }
            checkOffscreenBudget(roots, frameWidth: size.width * scale, frameHeight: size.height * scale, scale: scale)
        }
        guard let root, let size, let duration, let fps else { return nil }
        return LoadedScene(rootLayer: root, size: size, scale: scale, duration: duration, framesPerSecond: fps,
                           transactions: transactions, namedLayers: named)
    }

    private func transaction(_ node: JSONNode, _ path: String, references: inout [(name: String, path: String, node: JSONNode)]) -> SceneTransaction? {
        guard let o = ObjectReader(node, path: path, self, what: "a transaction object") else { return nil }
        defer { o.finish("a transaction (time, animationDuration, animationTimingFunction, disableActions, changes)") }
        var time: Double? = nil
        if let v = o["time"], let t = number(v, o.at("time")) {
            if t >= 0 && t <= limits.maxDuration { time = t } else { problem(o.at("time"), v, "must be between 0 and \(JSONWriter.number(limits.maxDuration)) seconds") }
        } else if !o.has("time") {
            problem(o.at("time"), "missing (seconds from the start of the scene)", line: node.line)
        }
        var tx = SceneTransaction(time: time ?? 0, changes: [])
        if let v = o["animationDuration"], let d = number(v, o.at("animationDuration")) {
            if d >= 0 && d <= limits.maxDuration { tx.animationDuration = d } else { problem(o.at("animationDuration"), v, "must be between 0 and \(JSONWriter.number(limits.maxDuration)) seconds") }
        }
        if let v = o["animationTimingFunction"], let f = timingFunction(v, o.at("animationTimingFunction")) { tx.animationTimingFunction = f }
        if let v = o["disableActions"], let b = bool(v, o.at("disableActions")) { tx.disableActions = b }
        if let v = o["changes"], let items = array(v, o.at("changes"), expected: "an array of change objects") {
            for (i, item) in items.enumerated() {
                changeCount += 1
                guard within(changeCount, limits.maxTransactions, "scheduled changes", limitName: "maxTransactions", o.at("changes"), line: v.line) else { break }
                if let c = change(item, indexPath(o.at("changes"), i), references: &references) { tx.changes.append(contentsOf: c) }
            }
        } else if !o.has("changes") {
            problem(o.at("changes"), "missing (the changes made in the transaction)", line: node.line)
        }
        return time == nil ? nil : tx
    }

    static let changeKinds = ["set", "addAnimation", "removeAnimation", "removeAllAnimations", "addSublayer", "removeFromSuperlayer"]

    /// One change object; a `set` of several properties gives one change per property, in
    /// file order.
    private func change(_ node: JSONNode, _ path: String, references: inout [(name: String, path: String, node: JSONNode)]) -> [SceneChange]? {
        guard let o = ObjectReader(node, path: path, self, what: "a change object") else { return nil }
        defer { o.finish("a change (layer and one of \(Self.changeKinds.joined(separator: ", ")))") }
        guard let lv = o["layer"] else {
            problem(o.at("layer"), "missing (the name of the layer to change)", line: node.line)
            for k in Self.changeKinds { _ = o[k] }
            return nil
        }
        guard let name = string(lv, o.at("layer")) else { return nil }
        let kinds = Self.changeKinds.filter { o.has($0) }
        guard kinds.count == 1 else {
            problem(path, node, kinds.isEmpty ? "a change needs one of \(Self.changeKinds.joined(separator: ", "))"
                                              : "a change does one thing; found \(kinds.joined(separator: " and "))")
            for k in Self.changeKinds { _ = o[k] }
            return nil
        }
        references.append((name, o.at("layer"), lv))
        // The class the change targets decides property types; the layer is found by name,
        // so decoding waits for the tree: it is built, and every name indexed, before
        // transactions are read.
        let target = layersByName[name]?.first
        let kind = kinds[0]
        guard let v = o[kind] else { return nil }
        switch kind {
        case "set":
            guard let so = ObjectReader(v, path: o.at("set"), self, what: "an object of properties") else { return nil }
            let cls: CALayer.Type = target.map { type(of: $0) } ?? CALayer.self
            // Several properties in one object: one change each, in file order.
            var out: [SceneChange] = []
            for (k, pv) in so.members {
                _ = so[k]
                if k.hasPrefix("x-") { continue }
                if k == "frame" {
                    if let r = rect(pv, so.at(k)) { out.append(.set(layer: name, property: k, value: r)) }
                    continue
                }
                guard let p = SceneSchema.property(k, of: cls), p.name != "name" else {
                    problem(so.at(k), pv, SceneSchema.unsupportedLayerFields[k] ?? "unknown property \"\(k.prefix(80))\" for a \(target.flatMap(SceneSchema.className) ?? "CALayer")")
                    continue
                }
                if let value = propertyValue(pv, p, so.at(k)) { out.append(.set(layer: name, property: k, value: value)) }
            }
            so.finish("a property set")
            return out
        case "addAnimation":
            // An unknown name is reported with the references; the animation is still checked.
            guard let (anim, key) = animationEntry(v, o.at("addAnimation"), layer: target ?? CALayer()) else { return nil }
            return [.addAnimation(layer: name, animation: anim, forKey: key)]
        case "removeAnimation":
            guard let key = string(v, o.at("removeAnimation"), expected: "the key of the animation to remove") else { return nil }
            return [.removeAnimation(layer: name, forKey: key)]
        case "removeAllAnimations":
            guard case .bool(true) = v.value else { problem(o.at(kind), v, "expected true"); return nil }
            return [.removeAllAnimations(layer: name)]
        case "addSublayer":
            guard let s = layer(v, o.at("addSublayer"), depth: 2) else { return nil }
            return [.addSublayer(layer: name, sublayer: s)]
        default:
            guard case .bool(true) = v.value else { problem(o.at(kind), v, "expected true"); return nil }
            return [.removeFromSuperlayer(layer: name)]
        }
    }
}
