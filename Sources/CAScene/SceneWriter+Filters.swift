import CoreImage

// Writes a layer's Core Image filters as the filter objects SceneReader+Filters.swift reads:
// the Core Image name, the `name` when it differs from it, and each parameter that differs from
// Apple's default (docs/SCENE-FORMAT.md, "Filters").

extension SceneWriter {
    /// `filters`, `backgroundFilters` and `compositingFilter` members of a layer.
    func filterMembers(_ l: CALayer, _ path: String) throws -> [(key: String, value: JSONNode)] {
        var m: [(key: String, value: JSONNode)] = []
        for (field, list) in [("filters", l.filters), ("backgroundFilters", l.backgroundFilters)] {
            guard let list else { continue }
            var items: [JSONNode] = []
            for (i, any) in list.enumerated() {
                let p = indexPath("\(path).\(field)", i)
                guard let f = any as? CIFilter else { throw SceneEncodingError(path: p, message: "\(type(of: any)) is not a CIFilter") }
                items.append(JSONNode(try filter(f, p)))
            }
            m.append((field, JSONNode(.array(items))))
        }
        switch l.compositingFilter {
        case nil: break
        case let s as String: m.append(("compositingFilter", JSONNode(.string(s))))
        case let f as CIFilter: m.append(("compositingFilter", JSONNode(try filter(f, "\(path).compositingFilter"))))
        case let other?:
            throw SceneEncodingError(path: "\(path).compositingFilter", message: "\(type(of: other)) is neither a string nor a CIFilter")
        }
        return m
    }

    func filter(_ f: CIFilter, _ path: String) throws -> JSONValue {
        var m: [(key: String, value: JSONNode)] = [("filter", JSONNode(.string(f.filterName)))]
        if f.name != f.filterName { m.append(("name", JSONNode(.string(f.name)))) }
        for (key, def) in f.entry.parameters {
            let p = "\(path).\(key)"
            switch def {
            case .image: continue
            case .number(let d):
                let v = f.number(key)
                if v != d { m.append((key, JSONNode(try num(v, p)))) }
            case .vector(let d):
                let v = f.vector(key)
                if v != d.map({ Double($0) }) { m.append((key, JSONNode(.array(try v.map { JSONNode(try num($0, p)) })))) }
            case .color(let r, let g, let b, let a):
                let c = f.color(key)
                if c != SIMD4(Double(r), Double(g), Double(b), Double(a)) {
                    m.append((key, JSONNode(.array(try [c.x, c.y, c.z, c.w].map { JSONNode(try num($0, p)) }))))
                }
            }
        }
        return .object(m)
    }
}
