// Typed values (docs/SCENE-FORMAT.md, "Values"): each reader reports a problem at `path` and
// returns nil when the JSON does not have the shape the property's Swift type needs.

extension SceneReader {
    /// A value of `kind` as the Swift API takes it (`Double`, `CGPoint`, `CGColor`, …).
    /// `.some(nil)` is JSON null for an optional property; `nil` means a problem was reported.
    func value(_ node: JSONNode, _ kind: SceneValueKind, _ path: String) -> Any?? {
        if case .null = node.value {
            if kind.nullable { return .some(nil) }
            problem(path, node, "expected \(kind.expected), found null")
            return nil
        }
        switch kind {
        case .number: return number(node, path).map { $0 as Any }
        case .bool: return bool(node, path).map { $0 as Any }
        case .point: return point(node, path).map { $0 as Any }
        case .size: return size(node, path).map { $0 as Any }
        case .rect: return rect(node, path).map { $0 as Any }
        case .transform: return transform(node, path).map { $0 as Any }
        case .color: return color(node, path).map { $0 as Any }
        case .path: return self.path(node, path).map { $0 as Any }
        case .string: return string(node, path).map { $0 as Any }
        case .constant(let names):
            guard let s = string(node, path, expected: kind.expected) else { return nil }
            guard names.contains(s) else {
                problem(path, node, "\"\(s.prefix(80))\" is not \(kind.expected)")
                return nil
            }
            return .some(s)
        case .numberArray:
            return numbers(node, path).map { $0 as Any }
        case .colorArray:
            guard let items = array(node, path, expected: kind.expected) else { return nil }
            guard within(items.count, limits.maxKeyframes, "values in one list", limitName: "maxKeyframes", path, line: node.line) else { return nil }
            var out: [Any] = []
            var ok = true
            for (i, item) in items.enumerated() {
                if let c = color(item, indexPath(path, i)) { out.append(c) } else { ok = false }
            }
            return ok ? .some(out) : nil
        case .image: return image(node, path).map { $0 as Any }
        case .cornerMask: return mask(node, path, names: SceneConstants.corners, kind: kind)
        case .edgeMask: return mask(node, path, names: SceneConstants.edges, kind: kind)
        case .timingFunction: return timingFunction(node, path).map { $0 as Any }
        }
    }

    func number(_ node: JSONNode, _ path: String) -> Double? {
        guard case .number(let d) = node.value else {
            problem(path, node, "expected a number, found \(node.value.typeName)")
            return nil
        }
        return d
    }

    /// A number, or the string "infinity" where Apple's API takes `.infinity`
    /// (`repeatCount`, `repeatDuration`, `duration`).
    func timingNumber(_ node: JSONNode, _ path: String) -> Double? {
        if case .string(let s) = node.value, s == "infinity" { return .infinity }
        guard case .number(let d) = node.value else {
            problem(path, node, "expected a number or \"infinity\", found \(node.value.typeName)")
            return nil
        }
        return d
    }

    func bool(_ node: JSONNode, _ path: String) -> Bool? {
        guard case .bool(let b) = node.value else {
            problem(path, node, "expected true or false, found \(node.value.typeName)")
            return nil
        }
        return b
    }

    func string(_ node: JSONNode, _ path: String, expected: String = "a string") -> String? {
        guard case .string(let s) = node.value else {
            problem(path, node, "expected \(expected), found \(node.value.typeName)")
            return nil
        }
        return s
    }

    func array(_ node: JSONNode, _ path: String, expected: String) -> [JSONNode]? {
        guard case .array(let a) = node.value else {
            problem(path, node, "expected \(expected), found \(node.value.typeName)")
            return nil
        }
        return a
    }

    /// Exactly `count` numbers (any of `counts`), for points, rects, matrices.
    func fixedNumbers(_ node: JSONNode, _ path: String, counts: [Int], expected: String) -> [Double]? {
        guard case .array(let a) = node.value else {
            problem(path, node, "expected \(expected), found \(node.value.typeName)")
            return nil
        }
        guard counts.contains(a.count) else {
            problem(path, node, "expected \(expected), found an array of \(a.count) values")
            return nil
        }
        var out: [Double] = []
        for (i, e) in a.enumerated() {
            guard case .number(let d) = e.value else {
                problem(indexPath(path, i), e, "expected a number, found \(e.value.typeName)")
                return nil
            }
            out.append(d)
        }
        return out
    }

    func numbers(_ node: JSONNode, _ path: String) -> [Double]? {
        guard let items = array(node, path, expected: "an array of numbers") else { return nil }
        guard within(items.count, limits.maxKeyframes, "values in one list", limitName: "maxKeyframes", path, line: node.line) else { return nil }
        var out: [Double] = []
        var ok = true
        for (i, e) in items.enumerated() {
            if let d = number(e, indexPath(path, i)) { out.append(d) } else { ok = false }
        }
        return ok ? out : nil
    }

    /// Numbers from named members of an object (`{"x": 1, "y": 2}`); all required.
    private func members(_ node: JSONNode, _ path: String, _ names: [String], expected: String) -> [Double]? {
        guard let o = ObjectReader(node, path: path, self, what: expected) else { return nil }
        var out: [Double] = []
        var ok = true
        for n in names {
            guard let v = o[n] else { problem(o.at(n), node, "missing (\(expected))"); ok = false; continue }
            if let d = number(v, o.at(n)) { out.append(d) } else { ok = false }
        }
        o.finish(expected)
        return ok ? out : nil
    }

    func point(_ node: JSONNode, _ path: String) -> CGPoint? {
        let e = SceneValueKind.point.expected
        let n: [Double]? = if case .object = node.value { members(node, path, ["x", "y"], expected: e) }
            else { fixedNumbers(node, path, counts: [2], expected: e) }
        return n.map { CGPoint(x: $0[0], y: $0[1]) }
    }

    func size(_ node: JSONNode, _ path: String) -> CGSize? {
        let e = SceneValueKind.size.expected
        let n: [Double]? = if case .object = node.value { members(node, path, ["width", "height"], expected: e) }
            else { fixedNumbers(node, path, counts: [2], expected: e) }
        return n.map { CGSize(width: $0[0], height: $0[1]) }
    }

    func rect(_ node: JSONNode, _ path: String) -> CGRect? {
        let e = SceneValueKind.rect.expected
        // [[x, y], [width, height]]: how Foundation's `Codable` writes a CGRect (origin, size),
        // so a rect from JSONEncoder is a scene value as it is.
        if case .array(let a) = node.value, a.count == 2, a.allSatisfy({ if case .array = $0.value { true } else { false } }) {
            guard let origin = point(a[0], indexPath(path, 0)), let size = size(a[1], indexPath(path, 1)) else { return nil }
            return CGRect(origin: origin, size: size)
        }
        let n: [Double]? = if case .object = node.value { members(node, path, ["x", "y", "width", "height"], expected: e) }
            else { fixedNumbers(node, path, counts: [4], expected: e) }
        return n.map { CGRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
    }

    func color(_ node: JSONNode, _ path: String) -> CGColor? {
        let e = SceneValueKind.color.expected
        switch node.value {
        case .string(let s):
            if let c = CGColor(named: s) ?? CGColor(hex: s) ?? SceneCSSColor.parse(s) { return c }
            problem(path, node, "\"\(s.prefix(40))\" is not a colour: use \"#RRGGBB\", \"#RRGGBBAA\", \"#RGB\", a CSS name (\"tomato\"), \"rgb(242 107 82)\", \"hsl(9 86% 63%)\" or clear")
            return nil
        case .array:
            guard let n = fixedNumbers(node, path, counts: [2, 3, 4], expected: "a colour [r, g, b], [r, g, b, a] or [gray, alpha]") else { return nil }
            guard n.count == 2 || checkUnitComponents(n, node, path) else { return nil }
            switch n.count {
            case 2: return CGColor(gray: n[0], alpha: n[1])
            case 3: return CGColor(red: n[0], green: n[1], blue: n[2], alpha: 1)
            default: return CGColor(red: n[0], green: n[1], blue: n[2], alpha: n[3])
            }
        case .object:
            guard let o = ObjectReader(node, path: path, self) else { return nil }
            if o.has("gray") {
                let g = o["gray"].flatMap { number($0, o.at("gray")) }
                let a = o["alpha"].map { number($0, o.at("alpha")) } ?? 1
                o.finish("a grey colour {\"gray\", \"alpha\"}")
                guard let g, let a else { return nil }
                return CGColor(gray: g, alpha: a)
            }
            var c: [Double] = []
            var ok = true
            for k in ["red", "green", "blue"] {
                guard let v = o[k] else { problem(o.at(k), node, "missing (a colour needs red, green and blue)"); ok = false; continue }
                if let d = number(v, o.at(k)) { c.append(d) } else { ok = false }
            }
            let a = o["alpha"].map { number($0, o.at("alpha")) } ?? 1
            o.finish("a colour {\"red\", \"green\", \"blue\", \"alpha\"}")
            guard ok, let a else { return nil }
            return CGColor(red: c[0], green: c[1], blue: c[2], alpha: a)
        default:
            problem(path, node, "expected \(e), found \(node.value.typeName)")
            return nil
        }
    }

    func timingFunction(_ node: JSONNode, _ path: String) -> CAMediaTimingFunction? {
        if case .string(let s) = node.value {
            guard SceneConstants.timingFunctionNames.contains(s) else {
                problem(path, node, "\"\(s.prefix(40))\" is not a timing function name: use one of "
                        + SceneConstants.timingFunctionNames.map { "\"\($0)\"" }.joined(separator: ", ") + " or [c1x, c1y, c2x, c2y]")
                return nil
            }
            return CAMediaTimingFunction(name: CAMediaTimingFunctionName(rawValue: s))
        }
        guard let n = fixedNumbers(node, path, counts: [4], expected: SceneValueKind.timingFunction.expected) else { return nil }
        return CAMediaTimingFunction(controlPoints: Float(n[0]), Float(n[1]), Float(n[2]), Float(n[3]))
    }

    private func mask(_ node: JSONNode, _ path: String, names: [String], kind: SceneValueKind) -> Any?? {
        if case .number(let d) = node.value {
            guard d == d.rounded(), d >= 0, d <= 15 else {
                problem(path, node, "expected \(kind.expected), found \(d)")
                return nil
            }
            return .some(d)
        }
        guard let items = array(node, path, expected: kind.expected) else { return nil }
        var bits = 0
        var ok = true
        for (i, item) in items.prefix(64).enumerated() {
            guard let s = string(item, indexPath(path, i)) else { ok = false; continue }
            guard let k = names.firstIndex(of: s) else {
                problem(indexPath(path, i), item, "\"\(s.prefix(40))\" is not one of " + names.joined(separator: ", "))
                ok = false
                continue
            }
            bits |= 1 << k
        }
        return ok ? .some(Double(bits)) : nil
    }
}
