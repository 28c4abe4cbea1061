// Emitter layers (docs/SCENE-FORMAT.md, "Emitter layers"): a `CAEmitterLayer`'s own members
// and its `emitterCells`, cell objects with Apple's Swift property names, nested through their
// own `emitterCells`; cell images by path relative to the scene file, as layer contents.

extension SceneSchema {
    static let emitterShape = ["point", "line", "rectangle", "cuboid", "circle", "sphere"]
    static let emitterMode = ["points", "outline", "surface", "volume"]
    static let renderMode = ["unordered", "oldestFirst", "oldestLast", "backToFront", "additive"]

    /// `CAEmitterLayer`'s members besides `emitterCells`.
    static let emitterLayer: [SceneProperty] = [
        .init("birthRate", .number), .init("lifetime", .number), .init("emitterPosition", .point),
        .init("emitterZPosition", .number), .init("emitterSize", .size), .init("emitterDepth", .number),
        .init("emitterShape", .constant(emitterShape)), .init("emitterMode", .constant(emitterMode)),
        .init("renderMode", .constant(renderMode)), .init("preservesDepth", .bool),
        .init("velocity", .number), .init("scale", .number), .init("spin", .number), .init("seed", .number),
    ]

    /// One member of an emitter cell object: its JSON name (Apple's Swift name), kind and setter
    /// (`CAEmitterCell` is a plain object: no key-value coding on Linux).
    struct CellProperty {
        let name: String
        let kind: SceneValueKind
        /// The value as the writer encodes it (`SceneWriter.emitterCell`): numbers as Double.
        let get: (CAEmitterCell) -> Any?
        let set: (CAEmitterCell, Any?) -> Void
    }

    // Immutable once built; its closures capture only key paths.
    nonisolated(unsafe) static let emitterCell: [CellProperty] = {
        func float(_ name: String, _ kp: ReferenceWritableKeyPath<CAEmitterCell, Float>) -> CellProperty {
            CellProperty(name: name, kind: .number, get: { Double($0[keyPath: kp]) }) { c, v in if let d = v as? Double { c[keyPath: kp] = Float(d) } }
        }
        func cg(_ name: String, _ kp: ReferenceWritableKeyPath<CAEmitterCell, CGFloat>) -> CellProperty {
            CellProperty(name: name, kind: .number, get: { Double($0[keyPath: kp]) }) { c, v in if let d = v as? Double { c[keyPath: kp] = CGFloat(d) } }
        }
        func time(_ name: String, _ kp: ReferenceWritableKeyPath<CAEmitterCell, Double>) -> CellProperty {
            CellProperty(name: name, kind: .number, get: { $0[keyPath: kp] }) { c, v in if let d = v as? Double { c[keyPath: kp] = d } }
        }
        return [
            CellProperty(name: "name", kind: .string, get: { $0.name }) { c, v in c.name = v as? String },
            CellProperty(name: "isEnabled", kind: .bool, get: { $0.isEnabled }) { c, v in if let b = v as? Bool { c.isEnabled = b } },
            float("birthRate", \.birthRate), float("lifetime", \.lifetime), float("lifetimeRange", \.lifetimeRange),
            cg("emissionLatitude", \.emissionLatitude), cg("emissionLongitude", \.emissionLongitude),
            cg("emissionRange", \.emissionRange), cg("velocity", \.velocity), cg("velocityRange", \.velocityRange),
            cg("xAcceleration", \.xAcceleration), cg("yAcceleration", \.yAcceleration), cg("zAcceleration", \.zAcceleration),
            cg("scale", \.scale), cg("scaleRange", \.scaleRange), cg("scaleSpeed", \.scaleSpeed),
            cg("spin", \.spin), cg("spinRange", \.spinRange),
            CellProperty(name: "color", kind: .color, get: { $0.color }) { c, v in c.color = v.flatMap { $0 as? CGColor } },
            float("redRange", \.redRange), float("greenRange", \.greenRange), float("blueRange", \.blueRange),
            float("alphaRange", \.alphaRange), float("redSpeed", \.redSpeed), float("greenSpeed", \.greenSpeed),
            float("blueSpeed", \.blueSpeed), float("alphaSpeed", \.alphaSpeed),
            CellProperty(name: "contents", kind: .image, get: { $0.contents }) { c, v in c.contents = v.flatMap { $0 as? CGImage } },
            CellProperty(name: "contentsRect", kind: .rect, get: { $0.contentsRect }) { c, v in if let r = v as? CGRect { c.contentsRect = r } },
            cg("contentsScale", \.contentsScale),
            CellProperty(name: "minificationFilter", kind: .constant(SceneConstants.contentsFilter), get: { $0.minificationFilter }) { c, v in
                if let s = v as? String { c.minificationFilter = s }
            },
            CellProperty(name: "magnificationFilter", kind: .constant(SceneConstants.contentsFilter), get: { $0.magnificationFilter }) { c, v in
                if let s = v as? String { c.magnificationFilter = s }
            },
            float("minificationFilterBias", \.minificationFilterBias),
            time("beginTime", \.beginTime), time("duration", \.duration), float("speed", \.speed),
            time("timeOffset", \.timeOffset), float("repeatCount", \.repeatCount), time("repeatDuration", \.repeatDuration),
            CellProperty(name: "autoreverses", kind: .bool, get: { $0.autoreverses }) { c, v in if let b = v as? Bool { c.autoreverses = b } },
        ]
    }()
}

extension SceneReader {
    /// Reads `emitterCells` of an emitter layer object (called by `layer(_:_:depth:)`).
    func readEmitterCells(_ o: ObjectReader, into layer: CAEmitterLayer) {
        guard let v = o["emitterCells"] else { return }
        layer.emitterCells = emitterCells(v, o.at("emitterCells"), depth: 0)
    }

    /// An array of cell objects. Cells count against `maxLayers` (each is an object the model
    /// holds); nesting deeper than the simulation's `EmitterCellTree.maxDepth` is a problem.
    func emitterCells(_ node: JSONNode, _ path: String, depth: Int) -> [CAEmitterCell]? {
        guard let items = array(node, path, expected: "an array of emitter cell objects") else { return nil }
        guard depth < EmitterCellTree.maxDepth else {
            problem(path, node, "emitter cells nested deeper than \(EmitterCellTree.maxDepth) levels (the renderer simulates no deeper)")
            return nil
        }
        var cells: [CAEmitterCell] = []
        for (i, item) in items.enumerated() {
            if let c = emitterCell(item, indexPath(path, i), depth: depth) { cells.append(c) }
        }
        return cells
    }

    func emitterCell(_ node: JSONNode, _ path: String, depth: Int) -> CAEmitterCell? {
        layerCount += 1
        guard within(layerCount, limits.maxLayers, "layers and emitter cells", limitName: "maxLayers", path, line: node.line) else { return nil }
        guard let o = ObjectReader(node, path: path, self, what: "an emitter cell object") else { return nil }
        let cell = CAEmitterCell()
        for p in SceneSchema.emitterCell {
            guard let v = o[p.name] else { continue }
            let value: Any??
            if SceneSchema.infiniteTiming.contains(p.name) {
                value = timingNumber(v, o.at(p.name)).map { $0 as Any }
            } else {
                value = self.value(v, p.kind, o.at(p.name))
            }
            guard let value else { continue }
            if case .number = p.kind, let d = value as? Double, !d.isFinite, !SceneSchema.infiniteTiming.contains(p.name) {
                problem(o.at(p.name), v, "expected a finite number")
                continue
            }
            p.set(cell, value)
        }
        if let v = o["style"] { problem(o.at("style"), v, "the style dictionary is not part of the scene format; set the properties directly") }
        if let v = o["emitterCells"], let subs = emitterCells(v, o.at("emitterCells"), depth: depth + 1) {
            cell.emitterCells = subs
        }
        o.finish("an emitter cell")
        return cell
    }
}
