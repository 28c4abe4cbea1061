import CoreImage
/// Writes a live layer tree as a scene document (`SceneFile.encode`): each layer's class and
/// every property that differs from a new layer of its class, masks, sublayers, attached
/// animations (as `add(_:forKey:)` stored them) and scheduled transactions. Numbers are
/// written so they read back to the same Double, so a reloaded scene draws the same frames.
final class SceneWriter {
    let imageDirectory: URL?
    private var imageFiles: [ObjectIdentifier: String] = [:]
    private var usedFileNames: Set<String> = []
    private var defaultLayers: [ObjectIdentifier: CALayer] = [:]
    /// Layers by name, for typing the values of scheduled `set` changes.
    private var named: [String: CALayer] = [:]

    private init(imageDirectory: URL?) { self.imageDirectory = imageDirectory }

    /// Runs `body` with a fresh writer: the one way in for `SceneFile.encode` and the
    /// `Encodable` conformances (CALayer+Encodable.swift, LoadedScene+Codable.swift), so both
    /// write the same JSON. The writer makes default layers to compare with; their
    /// transaction is closed here rather than left open as an implicit one.
    static func write<T>(imageDirectory: URL?, _ body: (SceneWriter) throws -> T) rethrows -> T {
        let writer = SceneWriter(imageDirectory: imageDirectory)
        CATransaction.begin()
        defer { CATransaction.commit() }
        return try body(writer)
    }

    func document(root: CALayer, size: CGSize, scale: CGFloat, duration: CFTimeInterval, framesPerSecond: Double,
                  transactions: [SceneTransaction]) throws -> JSONValue {
        var m: [(key: String, value: JSONNode)] = []
        func put(_ k: String, _ v: JSONValue) { m.append((k, JSONNode(v))) }
        put("format", .string(SceneFormat.name))
        put("version", .number(Double(SceneFormat.version)))
        put("size", try value(size, .size, "size"))
        put("scale", try value(scale, .number, "scale"))
        put("duration", try value(duration, .number, "duration"))
        put("framesPerSecond", try value(framesPerSecond, .number, "framesPerSecond"))
        put("root", try layer(root, "root", depth: 1))
        if !transactions.isEmpty {
            for t in transactions { for c in t.changes { if case .addSublayer(_, let s) = c { index(s, depth: 0) } } }
            var items: [JSONNode] = []
            for (i, t) in transactions.enumerated() { items.append(JSONNode(try transaction(t, indexPath("transactions", i)))) }
            put("transactions", .array(items))
        }
        return .object(m)
    }

    private func index(_ l: CALayer, depth: Int) {
        guard depth < 10_000 else { return }
        if let n = l.name, named[n] == nil { named[n] = l }
        if let mask = l.mask { index(mask, depth: depth + 1) }
        for s in l.sublayers ?? [] { index(s, depth: depth + 1) }
    }

    private func defaultLayer(_ cls: CALayer.Type) -> CALayer {
        if let l = defaultLayers[ObjectIdentifier(cls)] { return l }
        let l = SceneSchema.makeLayer(cls)
        defaultLayers[ObjectIdentifier(cls)] = l
        return l
    }

    func layer(_ l: CALayer, _ path: String, depth: Int) throws -> JSONValue {
        guard depth <= 10_000 else { throw SceneEncodingError(path: path, message: "layer tree too deep to write") }
        if let n = l.name, named[n] == nil { named[n] = l }
        guard let className = SceneSchema.className(of: l) else {
            let why = SceneSchema.unsupportedLayerClasses["\(type(of: l))"] ?? "layer class \(type(of: l)) is not part of the scene format"
            throw SceneEncodingError(path: path, message: why)
        }
        if className == "LottieAnimationLayer" {
            throw SceneEncodingError(path: path, message: "a LottieAnimationLayer is read from scene files but not written (it does not keep its file's path)")
        }
        let cls = type(of: l)
        var m: [(key: String, value: JSONNode)] = []
        if className != "CALayer" { m.append(("class", JSONNode(.string(className)))) }
        let defaults = defaultLayer(cls)
        for p in SceneSchema.properties(of: cls) {
            let mine = try value(l.value(forKey: p.key), p.kind, "\(path).\(p.name)", infinite: SceneSchema.infiniteTiming.contains(p.name), imageName: l.name)
            let theirs = try value(defaults.value(forKey: p.key), p.kind, "", infinite: SceneSchema.infiniteTiming.contains(p.name), imageName: nil)
            if mine != theirs { m.append((p.name, JSONNode(mine))) }
        }
        if let e = l as? CAEmitterLayer, let cells = e.emitterCells {
            m.append(("emitterCells", JSONNode(try emitterCells(cells, "\(path).emitterCells", depth: 0))))
        }
        if let text = l as? CATextLayer { m += try textMembers(text, path) }
        if let video = l as? CAVideoLayer, let url = video.url { m.append(("source", JSONNode(.string(videoSourcePath(url))))) }
        m += try filterMembers(l, path)
        if let mask = l.mask { m.append(("mask", JSONNode(try layer(mask, "\(path).mask", depth: depth + 1)))) }
        if let subs = l.sublayers, !subs.isEmpty {
            var items: [JSONNode] = []
            for (i, s) in subs.enumerated() { items.append(JSONNode(try layer(s, indexPath("\(path).sublayers", i), depth: depth + 1))) }
            m.append(("sublayers", JSONNode(.array(items))))
        }
        let records = l.animationRecords.filter { !$0.isRemoved }
        if !records.isEmpty {
            var items: [JSONNode] = []
            for (i, r) in records.enumerated() {
                items.append(JSONNode(try animation(r.animation, layer: l, key: r.key, indexPath("\(path).animations", i))))
            }
            m.append(("animations", JSONNode(.array(items))))
        }
        return .object(m)
    }

    // MARK: Emitter cells

    /// An emitter layer's (or cell's) `emitterCells`: each cell's members that differ from a new
    /// cell's, in `SceneSchema.emitterCell` order, and its own cells (docs/SCENE-FORMAT.md,
    /// "Emitter layers"); images are written as files named after the cell.
    func emitterCells(_ cells: [CAEmitterCell], _ path: String, depth: Int) throws -> JSONValue {
        guard depth < EmitterCellTree.maxDepth else {
            throw SceneEncodingError(path: path, message: "emitter cells nested deeper than \(EmitterCellTree.maxDepth) levels (a cycle?)")
        }
        let fresh = CAEmitterCell()
        var items: [JSONNode] = []
        for (i, c) in cells.enumerated() {
            let at = indexPath(path, i)
            if c.style != nil { throw SceneEncodingError(path: "\(at).style", message: "the style dictionary is not part of the scene format") }
            var m: [(key: String, value: JSONNode)] = []
            for p in SceneSchema.emitterCell {
                let inf = SceneSchema.infiniteTiming.contains(p.name)
                let mine = try value(p.get(c), p.kind, "\(at).\(p.name)", infinite: inf, imageName: c.name)
                let theirs = try value(p.get(fresh), p.kind, "", infinite: inf, imageName: nil)
                if mine != theirs { m.append((p.name, JSONNode(mine))) }
            }
            if let subs = c.emitterCells {
                m.append(("emitterCells", JSONNode(try emitterCells(subs, "\(at).emitterCells", depth: depth + 1))))
            }
            items.append(JSONNode(.object(m)))
        }
        return .array(items)
    }

    // MARK: Animations

    private static func className(of a: CAAnimation) -> String? {
        switch ObjectIdentifier(type(of: a)) {
        case ObjectIdentifier(CABasicAnimation.self): return "CABasicAnimation"
        case ObjectIdentifier(CASpringAnimation.self): return "CASpringAnimation"
        case ObjectIdentifier(CAKeyframeAnimation.self): return "CAKeyframeAnimation"
        case ObjectIdentifier(CAAnimationGroup.self): return "CAAnimationGroup"
        case ObjectIdentifier(CATransition.self): return "CATransition"
        default: return nil
        }
    }

    /// What `keyPath` animates on `layer`, which types the animation's values. An animation
    /// written on its own (`layer` nil) is typed by the first layer class of the format that
    /// has the key path (a key path names the same type on every class that has it).
    private func valueKind(keyPath: String, on layer: CALayer?, _ path: String) -> SceneValueKind? {
        let probe = SceneReader(options: .init(), baseDirectory: nil)
        if let layer { return probe.valueKind(keyPath: keyPath, layer: layer, path, JSONNode(.null)) }
        for cls in SceneSchema.layerClasses {
            if let k = probe.valueKind(keyPath: keyPath, layer: defaultLayer(cls), path, JSONNode(.null)) { return k }
        }
        return nil
    }

    /// An animation object; `layer` is the layer it is added to (nil for an animation written
    /// on its own, see `valueKind`).
    func animation(_ a: CAAnimation, layer: CALayer?, key: String?, _ path: String) throws -> JSONValue {
        guard let className = Self.className(of: a) else {
            throw SceneEncodingError(path: path, message: "animation class \(type(of: a)) is not part of the scene format")
        }
        var m: [(key: String, value: JSONNode)] = []
        func put(_ k: String, _ v: JSONValue) { m.append((k, JSONNode(v))) }
        if let key { put("key", .string(key)) }
        put("class", .string(className))
        let fresh = type(of: a).init()
        if let p = a as? CAPropertyAnimation, let kp = p.keyPath { put("keyPath", .string(kp)) }
        for p in SceneSchema.timing {
            let inf = SceneSchema.infiniteTiming.contains(p.name)
            let mine = try value(a.value(forKey: p.key), p.kind, "\(path).\(p.name)", infinite: inf)
            if mine != (try value(fresh.value(forKey: p.key), p.kind, "", infinite: inf)) { put(p.name, mine) }
        }
        if let tf = a.timingFunction { put("timingFunction", try value(tf, .timingFunction, "\(path).timingFunction")) }
        if !a.isRemovedOnCompletion { put("isRemovedOnCompletion", .bool(false)) }
        if let p = a as? CAPropertyAnimation {
            if p.isAdditive { put("isAdditive", .bool(true)) }
            if p.isCumulative { put("isCumulative", .bool(true)) }
            if let vf = p.valueFunction { put("valueFunction", .string(vf.name.rawValue)) }
            let kind: SceneValueKind? = p.keyPath.flatMap { valueKind(keyPath: $0, on: layer, path) }
            func animValue(_ v: Any?, _ at: String) throws -> JSONValue {
                if p.valueFunction != nil {
                    if let n = AnimValue.number(from: v) { return try value(n, .number, at) }
                    if case .vector(let ns)? = AnimValue.vector(from: v) { return .array(ns.map { JSONNode(.number($0)) }) }
                    throw SceneEncodingError(path: at, message: "value-function values must be numbers or [x, y, z]")
                }
                guard let kind else { throw SceneEncodingError(path: at, message: "unknown key path \(p.keyPath ?? "nil")") }
                return try value(v, kind, at, imageName: layer?.name)
            }
            if let b = p as? CABasicAnimation {
                if let v = b.fromValue { put("fromValue", try animValue(v, "\(path).fromValue")) }
                if let v = b.toValue { put("toValue", try animValue(v, "\(path).toValue")) }
                if let v = b.byValue { put("byValue", try animValue(v, "\(path).byValue")) }
            }
            if let s = p as? CASpringAnimation {
                let f = CASpringAnimation()
                if s.mass != f.mass { put("mass", .number(Double(s.mass))) }
                if s.stiffness != f.stiffness { put("stiffness", .number(Double(s.stiffness))) }
                if s.damping != f.damping { put("damping", .number(Double(s.damping))) }
                if s.initialVelocity != f.initialVelocity { put("initialVelocity", .number(Double(s.initialVelocity))) }
                if s.allowsOverdamping { put("allowsOverdamping", .bool(true)) }
            }
            if let k = p as? CAKeyframeAnimation {
                if let vs = k.values {
                    var items: [JSONNode] = []
                    for (i, v) in vs.enumerated() { items.append(JSONNode(try animValue(v, indexPath("\(path).values", i)))) }
                    put("values", .array(items))
                }
                if let path = k.path { put("path", .string(PathData.format(path.elements))) }
                if let kt = k.keyTimes { put("keyTimes", .array(kt.map { JSONNode(.number($0.doubleValue)) })) }
                if let fns = k.timingFunctions {
                    put("timingFunctions", .array(try fns.map { JSONNode(try value($0, .timingFunction, "\(path).timingFunctions")) }))
                }
                if k.calculationMode != .linear { put("calculationMode", .string(k.calculationMode.rawValue)) }
                for (name, list) in [("tensionValues", k.tensionValues), ("continuityValues", k.continuityValues), ("biasValues", k.biasValues)] {
                    if let list { put(name, .array(list.map { JSONNode(.number($0.doubleValue)) })) }
                }
                if let r = k.rotationMode { put("rotationMode", .string(r.rawValue)) }
            }
        }
        if let g = a as? CAAnimationGroup, let children = g.animations {
            var items: [JSONNode] = []
            for (i, c) in children.enumerated() { items.append(JSONNode(try animation(c, layer: layer, key: nil, indexPath("\(path).animations", i)))) }
            put("animations", .array(items))
        }
        if let t = a as? CATransition {
            if t.filter != nil { throw SceneEncodingError(path: path, message: "transition filters are not part of the scene format") }
            if t.type != .fade { put("type", .string(t.type.rawValue)) }
            if let s = t.subtype { put("subtype", .string(s.rawValue)) }
            if t.startProgress != 0 { put("startProgress", .number(Double(t.startProgress))) }
            if t.endProgress != 1 { put("endProgress", .number(Double(t.endProgress))) }
        }
        if a.delegate != nil {
            throw SceneEncodingError(path: path, message: "animation delegates are code and cannot be written in a scene file")
        }
        return .object(m)
    }

    // MARK: Transactions

    private func transaction(_ t: SceneTransaction, _ path: String) throws -> JSONValue {
        var m: [(key: String, value: JSONNode)] = []
        func put(_ k: String, _ v: JSONValue) { m.append((k, JSONNode(v))) }
        put("time", try value(t.time, .number, "\(path).time"))
        if let d = t.animationDuration { put("animationDuration", try value(d, .number, "\(path).animationDuration")) }
        if let f = t.animationTimingFunction { put("animationTimingFunction", try value(f, .timingFunction, "\(path).animationTimingFunction")) }
        if t.disableActions { put("disableActions", .bool(true)) }
        var items: [JSONNode] = []
        for (i, c) in t.changes.enumerated() {
            let at = indexPath("\(path).changes", i)
            let name = c.layerName
            let target = named[name]
            var cm: [(key: String, value: JSONNode)] = [("layer", JSONNode(.string(name)))]
            switch c {
            case .set(_, let property, let v):
                let encoded: JSONValue
                if property == "frame" {
                    encoded = try value(v, .rect, "\(at).set.frame")
                } else {
                    guard let p = SceneSchema.property(property, of: target.map { type(of: $0) } ?? CALayer.self) else {
                        throw SceneEncodingError(path: at, message: "unknown property \"\(property)\"")
                    }
                    encoded = try value(v, p.kind, "\(at).set.\(property)", infinite: SceneSchema.infiniteTiming.contains(p.name), imageName: name)
                }
                cm.append(("set", JSONNode(.object([(property, JSONNode(encoded))]))))
            case .addAnimation(_, let a, let key):
                guard let target else { throw SceneEncodingError(path: at, message: "no layer named \"\(name)\"") }
                cm.append(("addAnimation", JSONNode(try animation(a, layer: target, key: key, "\(at).addAnimation"))))
            case .removeAnimation(_, let key): cm.append(("removeAnimation", JSONNode(.string(key))))
            case .removeAllAnimations: cm.append(("removeAllAnimations", JSONNode(.bool(true))))
            case .addSublayer(_, let s): cm.append(("addSublayer", JSONNode(try layer(s, "\(at).addSublayer", depth: 2))))
            case .removeFromSuperlayer: cm.append(("removeFromSuperlayer", JSONNode(.bool(true))))
            }
            items.append(JSONNode(.object(cm)))
        }
        put("changes", .array(items))
        return .object(m)
    }

    // MARK: Values

    func num(_ v: Any?, _ path: String, infinite: Bool = false) throws -> JSONValue {
        // A Float (opacity, speed …) in its own shortest form: 0.45, not 0.44999998807907104.
        // Reading it back as a Double and converting to Float gives the same Float.
        if let f = v as? Float, f.isFinite, let d = Double("\(f)") { return .number(d) }
        guard let d = AnimValue.number(from: v) else { throw SceneEncodingError(path: path, message: "expected a number, found \(v.map { "\(type(of: $0))" } ?? "nil")") }
        if d.isFinite { return .number(d) }
        if infinite && d == .infinity { return .string("infinity") }
        throw SceneEncodingError(path: path, message: "\(d) cannot be written (JSON has no NaN or infinity)")
    }

    func value(_ v: Any?, _ kind: SceneValueKind, _ path: String, infinite: Bool = false, imageName: String? = nil) throws -> JSONValue {
        // NSValue-wrapped geometry (`NSValue(cgPoint:)`, `NSValue(caTransform3D:)`, …) is written as
        // the value it boxes, as Apple's key-value coding reads it.
        var v = AnimValue.unboxed(v)
        // A filter parameter's animation values (`filters.tint.inputColor`) as Core Image gives
        // them: written as the scene's colour and number-array forms.
        if let c = v as? CIColor { v = CGColor(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha) }
        if let vec = v as? CIVector { v = (0..<vec.count).map { vec.value(at: $0) } }
        if v == nil || v is NSNull {
            if kind.nullable { return .null }
            throw SceneEncodingError(path: path, message: "missing value")
        }
        func nums(_ ds: [CGFloat]) throws -> JSONValue { .array(try ds.map { JSONNode(try num($0, path)) }) }
        func wrong() -> SceneEncodingError {
            SceneEncodingError(path: path, message: "\(type(of: v!)) is not \(kind.expected)")
        }
        switch kind {
        case .number: return try num(v, path, infinite: infinite)
        case .bool:
            if let b = v as? Bool { return .bool(b) }
            if let n = AnimValue.number(from: v) { return .bool(n != 0) }
            throw wrong()
        case .point:
            guard let p = v as? CGPoint else { throw wrong() }
            return try nums([p.x, p.y])
        case .size:
            guard let s = v as? CGSize else { throw wrong() }
            return try nums([s.width, s.height])
        case .rect:
            guard let r = v as? CGRect else { throw wrong() }
            return try nums([r.origin.x, r.origin.y, r.size.width, r.size.height])
        case .transform:
            let t: CATransform3D
            if let x = v as? CATransform3D { t = x } else if let a = v as? CGAffineTransform { t = CATransform3DMakeAffineTransform(a) } else { throw wrong() }
            return try nums([t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44])
        case .color:
            guard let c = v as? CGColor, let comps = c.components else { throw wrong() }
            return try nums(comps)
        case .path:
            guard let p = v as? CGPath else { throw wrong() }
            guard p.elements.allSatisfy(\.isFinite) else { throw SceneEncodingError(path: path, message: "path has non-finite points") }
            return .string(PathData.format(p.elements))
        case .string:
            guard let s = v as? String else { throw wrong() }
            return .string(s)
        case .constant:
            if let s = v as? String { return .string(s) }
            throw wrong()
        case .numberArray:
            guard let a = v as? [Any] else { throw wrong() }
            return .array(try a.map { JSONNode(try num($0, path)) })
        case .colorArray:
            guard let a = v as? [Any] else { throw wrong() }
            return .array(try a.map { JSONNode(try value($0, .color, path)) })
        case .image:
            guard let img = v as? CGImage else {
                throw SceneEncodingError(path: path, message: "contents of type \(type(of: v!)) cannot be written; only CGImage contents can")
            }
            return .string(try imageFile(img, path, hint: imageName))
        case .cornerMask, .edgeMask:
            // The names are the option sets' own (LayerMasks+Codable.swift), as `Codable` writes them.
            guard let n = AnimValue.number(from: v), n >= 0, n <= 15, n == n.rounded() else { throw wrong() }
            let names = kind == .cornerMask ? CACornerMask(rawValue: UInt(n)).optionNameList : CAEdgeAntialiasingMask(rawValue: UInt32(n)).optionNameList
            return .array((names ?? []).map { JSONNode(.string($0)) })
        case .timingFunction:
            // Name or control points, as `CAMediaTimingFunction`'s `Codable` writes it.
            guard let f = v as? CAMediaTimingFunction else { throw wrong() }
            if let name = f.predefinedName { return .string(name.rawValue) }
            let c = f.controlPoints
            guard c.allSatisfy(\.isFinite) else { throw SceneEncodingError(path: path, message: "timing function has non-finite control points") }
            return .array(c.map { JSONNode(.number(Double($0))) })
        }
    }

    /// Writes `img` as a PNG next to the scene (once per image) and returns its file name.
    private func imageFile(_ img: CGImage, _ path: String, hint: String?) throws -> String {
        if let name = imageFiles[ObjectIdentifier(img)] { return name }
        guard let dir = imageDirectory else {
            throw SceneEncodingError(path: path, message: "image contents need an image directory to be written to")
        }
        let stem = String((hint ?? "image").map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }.prefix(60))
        var name = "\(stem.isEmpty ? "image" : stem).png"
        var k = 2
        while usedFileNames.contains(name) { name = "\(stem)-\(k).png"; k += 1 }
        guard let png = img.pngData() else { throw SceneEncodingError(path: path, message: "PNG encoding failed") }
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try png.write(to: dir.appendingPathComponent(name), options: .atomic)
        } catch {
            throw SceneEncodingError(path: path, message: "cannot write \(name): \(error.localizedDescription)")
        }
        usedFileNames.insert(name)
        imageFiles[ObjectIdentifier(img)] = name
        return name
    }
}

extension SceneWriter {
    /// A video layer's `source`: relative to the image directory (where the scene is written)
    /// when the file lies under it, else the file's absolute path (which a reader accepts only
    /// with `allowImagesOutsideSceneFolder`). The video itself is not copied.
    func videoSourcePath(_ url: URL) -> String {
        let file = url.standardizedFileURL.path
        if let dir = imageDirectory?.standardizedFileURL.path {
            let prefix = dir.hasSuffix("/") ? dir : dir + "/"
            if file.hasPrefix(prefix) { return String(file.dropFirst(prefix.count)) }
        }
        return file
    }
}
