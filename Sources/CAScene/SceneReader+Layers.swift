import CALottie

// Layers (docs/SCENE-FORMAT.md, "Layers"): a layer object's members are the Swift property
// names of Apple's API, plus `class`, `mask`, `sublayers` and `animations`; filters are filter
// objects (SceneReader+Filters.swift).

extension SceneReader {
    /// Builds the layer described at `path` (nil, with problems reported, when it is not a
    /// layer object or its class is not accepted). `depth` is 1 for the root.
    func layer(_ node: JSONNode, _ path: String, depth: Int) -> CALayer? {
        layerCount += 1
        guard within(layerCount, limits.maxLayers, "layers", limitName: "maxLayers", path, line: node.line) else { return nil }
        guard depth <= limits.maxDepth else {
            if reportedLimits.insert("maxDepth").inserted {
                problem(path, node, "layer tree deeper than \(limits.maxDepth) levels (limit maxDepth)")
            }
            return nil
        }
        guard let o = ObjectReader(node, path: path, self, what: "a layer object") else { return nil }
        var cls: CALayer.Type = CALayer.self
        var className = "CALayer"
        if let c = o["class"], let name = string(c, o.at("class")) {
            if let k = SceneSchema.layerClass(name) {
                cls = k
                className = name
            } else if let why = SceneSchema.unsupportedLayerClasses[name] {
                // Its own fields are not checked: the class itself is the problem.
                problem(o.at("class"), c, why)
                return nil
            } else {
                problem(o.at("class"), c, "unknown layer class \"\(name.prefix(80))\" (CALayer, CAGradientLayer, CAShapeLayer, CATransformLayer, CATextLayer, CAReplicatorLayer, CAEmitterLayer, CAScrollLayer, CAVideoLayer, LottieAnimationLayer)")
                o.finish("a layer")
                return nil
            }
        }
        let layer = SceneSchema.makeLayer(cls)
        for p in SceneSchema.properties(of: cls) {
            guard let v = o[p.name] else { continue }
            guard let value = propertyValue(v, p, o.at(p.name)) else { continue }
            layer.setValue(value, forKey: p.key)
            if p.name == "name", let n = value as? String { layersByName[n, default: []].append(layer) }
        }
        if let text = layer as? CATextLayer { textContent(o, text) }
        if let e = layer as? CAEmitterLayer { readEmitterCells(o, into: e) }
        if let v = layer as? CAVideoLayer { videoSource(o, v) }
        if let l = layer as? LottieAnimationLayer { lottieMembers(o, l) }
        filterMembers(o, into: layer)
        if let v = o["frame"] {
            if o.has("bounds") || o.has("position") {
                problem(o.at("frame"), v, "give either frame or bounds and position, not both")
            } else if let r = rect(v, o.at("frame")) {
                layer.frame = r
            }
        }
        for (field, why) in SceneSchema.unsupportedLayerFields {
            if let v = o[field] { problem(o.at(field), v, why) }
        }
        if let m = o["mask"], let mask = self.layer(m, o.at("mask"), depth: depth + 1) {
            layer.mask = mask
        }
        if let s = o["sublayers"], let items = array(s, o.at("sublayers"), expected: "an array of layer objects") {
            for (i, item) in items.enumerated() {
                if let child = self.layer(item, indexPath(o.at("sublayers"), i), depth: depth + 1) { layer.addSublayer(child) }
            }
        }
        if let a = o["animations"], let items = array(a, o.at("animations"), expected: "an array of animation objects") {
            for (i, item) in items.enumerated() {
                // An animation with problems is not added (the load fails anyway; adding it
                // would only make the model warn about it).
                let before = problems.count
                if let (anim, key) = animationEntry(item, indexPath(o.at("animations"), i), layer: layer), problems.count == before {
                    layer.add(anim, forKey: key)
                }
            }
        }
        o.finish("a \(className)")
        return layer
    }

    /// A property's value in the Swift type its setter takes (nil: problem reported).
    func propertyValue(_ node: JSONNode, _ p: SceneProperty, _ path: String) -> Any?? {
        if p.name == "instanceCount" { return instanceCount(node, path) }
        if SceneSchema.infiniteTiming.contains(p.name) {
            return timingNumber(node, path).map { $0 as Any }
        }
        return value(node, p.kind, path)
    }
}
