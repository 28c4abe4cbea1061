import CoreImage

// Core Image filters on layers (docs/SCENE-FORMAT.md, "Filters"; docs/FILTERS.md): `filters` and
// `backgroundFilters` are arrays of filter objects, `compositingFilter` is one of Apple's strings
// ("multiplyBlendMode") or a filter object. A filter object names its Core Image filter and
// gives Apple's parameter keys: `{"filter": "CIGaussianBlur", "name": "blur", "inputRadius": 8}`.
// Its `name` is what key paths use (`filters.blur.inputRadius` in an animation).

extension SceneSchema {
    /// The most filters one list may hold in a file (the renderer applies the first 16 and
    /// warns; docs/FILTERS.md): a bound on what a file can make the reader build.
    static let maxFiltersPerList = 256
}

extension SceneReader {
    /// Reads `filters`, `backgroundFilters` and `compositingFilter` (called by `layer(_:_:depth:)`).
    func filterMembers(_ o: ObjectReader, into layer: CALayer) {
        for field in ["filters", "backgroundFilters"] {
            guard let v = o[field] else { continue }
            guard let items = array(v, o.at(field), expected: "an array of filter objects ({\"filter\": \"CIGaussianBlur\", …})"),
                  within(items.count, SceneSchema.maxFiltersPerList, "filters in one list", limitName: "maxFiltersPerList", o.at(field), line: v.line)
            else { continue }
            var list: [Any] = []
            for (i, item) in items.enumerated() {
                guard let f = filter(item, indexPath(o.at(field), i)) else { continue }
                if case .blend = f.family {
                    problem(indexPath(o.at(field), i), item, "\(f.filterName) is a blend or compositing filter: give it as the layer's compositingFilter")
                    continue
                }
                list.append(f)
            }
            if field == "filters" { layer.filters = list } else { layer.backgroundFilters = list }
        }
        guard let v = o["compositingFilter"] else { return }
        if case .string(let s) = v.value {
            if CIBlendMode(compositingFilter: s) != nil { layer.compositingFilter = s } else {
                problem(o.at("compositingFilter"), v, "\"\(s.prefix(80))\" is not a blend or compositing filter (\"multiplyBlendMode\", \"screenBlendMode\", \"sourceOverCompositing\", \"plusL\" …; docs/FILTERS.md)")
            }
            return
        }
        guard let f = filter(v, o.at("compositingFilter")) else { return }
        if CIBlendMode(compositingFilter: f) != nil { layer.compositingFilter = f } else {
            problem(o.at("compositingFilter"), v, "\(f.filterName) is not a blend or compositing filter")
        }
    }

    /// A filter object: its Core Image `filter` name, an optional `name`, and parameters by
    /// Apple's keys — numbers, colours (any scene colour form) and vectors (arrays of numbers of
    /// the parameter's length). Nil, with problems reported, for an unknown filter or key.
    func filter(_ node: JSONNode, _ path: String) -> CIFilter? {
        guard let o = ObjectReader(node, path: path, self, what: "a filter object ({\"filter\": \"CIGaussianBlur\", …})") else { return nil }
        guard let n = o["filter"] else {
            problem(path, node, "a filter object needs \"filter\", a Core Image filter name such as \"CIGaussianBlur\"")
            o.markAllUsed()
            return nil
        }
        guard let ciName = string(n, o.at("filter")) else { o.markAllUsed(); return nil }
        guard let entry = CIFilterCatalogue.entries[ciName], let f = CIFilter(name: ciName) else {
            problem(o.at("filter"), n, "unknown Core Image filter \"\(ciName.prefix(80))\" (the filters docs/FILTERS.md lists)")
            o.markAllUsed()
            return nil
        }
        if let v = o["name"], let s = string(v, o.at("name")) { f.name = s }
        var keys: [String] = []
        for (key, kind) in entry.parameters {
            if case .image = kind {
                if let v = o[key] { problem(o.at(key), v, "\(key) is the layer's own image; it is not set in a scene") }
                continue
            }
            keys.append(key)
            guard let v = o[key] else { continue }
            switch kind {
            case .number:
                if let d = number(v, o.at(key)) { f.setValue(d, forKey: key) }
            case .vector(let defaults):
                guard let ns = numbers(v, o.at(key)) else { continue }
                guard ns.count == defaults.count else {
                    problem(o.at(key), v, "\(key) is a vector of \(defaults.count) numbers, found \(ns.count)")
                    continue
                }
                f.setValue(CIVector(array: ns.map { CGFloat($0) }), forKey: key)
            case .color:
                if let c = color(v, o.at(key)) { f.setValue(CIColor(cgColor: c), forKey: key) }
            case .image: break
            }
        }
        o.finish("a \(ciName) filter (filter, name\(keys.isEmpty ? "" : ", " + keys.joined(separator: ", ")))")
        return f
    }
}
