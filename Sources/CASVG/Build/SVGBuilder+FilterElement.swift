import Foundation
import CoreImage

/// A `<filter>` element as a `FilterGraph` (Filter Effects Module Level 1): the filter region
/// (`filterUnits`, x/y/width/height, default −10 % −10 % 120 % 120 % of the bounding box), each
/// primitive's subregion (`primitiveUnits`), `in`/`in2`/`result` resolved to indices,
/// `color-interpolation-filters` per primitive, and the primitives' parameters in user units.
extension SVGBuilder {
    /// nil: the element is not drawn (a region of no area, objectBoundingBox units on an
    /// element with no box — Filter Effects 1 § "Filter region").
    func filterGraph(_ f: SVGElement, bbox: CGRect) -> FilterGraph? {
        // An feImage of this filter is building the element that uses it (`imageKind`).
        if active.contains(ObjectIdentifier(f)) {
            feImageRecursion = true
            return nil
        }
        // xlink:href: attributes and children the element lacks come from the referenced filter.
        var chain = [f]
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(f)]
        while let href = chain.last!.attributes["href"], href.hasPrefix("#"), let next = ids[String(href.dropFirst())],
              next.name == "filter", seen.insert(ObjectIdentifier(next)).inserted, chain.count < 16 {
            chain.append(next)
        }
        func attr(_ name: String) -> String? { chain.lazy.compactMap { $0.attributes[name] }.first }
        let source = chain.first { e in e.children.contains { $0.name.hasPrefix("fe") } } ?? f

        let userUnits = attr("filterUnits") == "userSpaceOnUse"
        let primitiveBBox = attr("primitiveUnits") == "objectBoundingBox"
        if (!userUnits || primitiveBBox) && (bbox.isNull || bbox.width <= 0 || bbox.height <= 0) {
            if !userUnits { return nil }
        }
        func coord(_ raw: String?, _ def: Double, _ axis: SVGLength.Axis, bboxUnits: Bool) -> Double? {
            guard let raw, let l = SVGLength.parse(raw) else { return raw == nil ? def : nil }
            if bboxUnits {
                let fraction = l.unit == .percent ? l.value / 100 : l.value
                switch axis {
                case .x: return bbox.minX + fraction * bbox.width
                case .y: return bbox.minY + fraction * bbox.height
                case .other: return fraction * (axis == .x ? bbox.width : bbox.height)
                }
            }
            return l.resolve(axis, viewport: viewport)
        }
        func size(_ raw: String?, _ def: Double, _ axis: SVGLength.Axis, bboxUnits: Bool) -> Double? {
            guard let raw, let l = SVGLength.parse(raw) else { return raw == nil ? def : nil }
            if bboxUnits { return (l.unit == .percent ? l.value / 100 : l.value) * (axis == .x ? bbox.width : bbox.height) }
            return l.resolve(axis, viewport: viewport)
        }
        let region: CGRect
        if userUnits {
            let x = coord(attr("x"), -0.1 * viewport.width, .x, bboxUnits: false) ?? -0.1 * viewport.width
            let y = coord(attr("y"), -0.1 * viewport.height, .y, bboxUnits: false) ?? -0.1 * viewport.height
            let w = size(attr("width"), 1.2 * viewport.width, .x, bboxUnits: false) ?? 1.2 * viewport.width
            let h = size(attr("height"), 1.2 * viewport.height, .y, bboxUnits: false) ?? 1.2 * viewport.height
            region = CGRect(x: x, y: y, width: w, height: h)
        } else {
            let x = coord(attr("x"), bbox.minX - 0.1 * bbox.width, .x, bboxUnits: true) ?? bbox.minX - 0.1 * bbox.width
            let y = coord(attr("y"), bbox.minY - 0.1 * bbox.height, .y, bboxUnits: true) ?? bbox.minY - 0.1 * bbox.height
            let w = size(attr("width"), 1.2 * bbox.width, .x, bboxUnits: true) ?? 1.2 * bbox.width
            let h = size(attr("height"), 1.2 * bbox.height, .y, bboxUnits: true) ?? 1.2 * bbox.height
            region = CGRect(x: x, y: y, width: w, height: h)
        }
        guard region.width > 0, region.height > 0, region.minX.isFinite, region.minY.isFinite,
              region.width.isFinite, region.height.isFinite else {
            log.add(.invalidValue, "<filter> region", "has no area; the element is not drawn")
            return nil
        }

        var primitives: [FilterPrimitive] = []
        var images: [AnyObject] = []
        var names: [String: Int] = [:]
        let elements = source.children.filter { $0.name.hasPrefix("fe") }
        if elements.count > FilterGraph.maxPrimitives {
            log.add(.limitReached, "<filter> primitives", "\(elements.count) primitives; only the first \(FilterGraph.maxPrimitives) are run")
        }
        for p in elements.prefix(FilterGraph.maxPrimitives) {
            let pStyle = styleFromRoot(p)
            func input(_ name: String) -> FilterInput? {
                guard let raw = p.attributes[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
                switch raw {
                case "SourceGraphic": return .sourceGraphic
                case "SourceAlpha": return .sourceAlpha
                case "BackgroundImage", "BackgroundAlpha", "FillPaint", "StrokePaint":
                    log.add(.unsupportedFeature, "in=\"\(raw)\"", "not reproduced; transparent black is used")
                    return .transparent
                default: return names[raw].map { .result($0) }
                }
            }
            let linear = (pStyle.filterProperties["color-interpolation-filters"] ?? "linearRGB") != "sRGB"
            func num(_ n: String, _ def: Double) -> Double {
                guard let raw = p.attributes[n] else { return def }
                guard let v = Double(raw.trimmingCharacters(in: .whitespaces)), v.isFinite else { return def }
                return v
            }
            func pair(_ n: String, _ def: Double) -> (Double, Double)? {
                guard let raw = p.attributes[n] else { return (def, def) }
                let (v, complete) = SVGScanner.numberList(raw)
                guard complete, v.count == 1 || v.count == 2, v.allSatisfy(\.isFinite) else { return nil }
                return (v[0], v.count == 2 ? v[1] : v[0])
            }
            let kx = primitiveBBox ? Double(bbox.width) : 1, ky = primitiveBBox ? Double(bbox.height) : 1
            func flood() -> SIMD4<Float> {
                var c: SVGColorValue = .rgba(0, 0, 0, 1)
                if let raw = pStyle.filterProperties["flood-color"], let parsed = SVGColorParser.parse(raw) { c = parsed }
                let rgba = pStyle.resolve(c)
                var o = 1.0
                if let raw = pStyle.filterProperties["flood-opacity"]?.trimmingCharacters(in: .whitespaces) {
                    if raw.hasSuffix("%"), let v = Double(raw.dropLast()) { o = v / 100 } else if let v = Double(raw) { o = v }
                }
                o = o.isFinite ? min(max(o, 0), 1) : 1
                return SIMD4(Float(rgba.0), Float(rgba.1), Float(rgba.2), Float(rgba.3 * o))
            }
            var inputs = [input("in"), input("in2")].map { $0 }
            var kind: FilterPrimitive.Kind
            switch p.name {
            case "feOffset": kind = .offset(dx: num("dx", 0) * kx, dy: num("dy", 0) * ky)
            case "feFlood": kind = .flood(flood())
            case "feGaussianBlur":
                if let v = pair("stdDeviation", 0), v.0 >= 0, v.1 >= 0 { kind = .gaussianBlur(sx: v.0 * kx, sy: v.1 * ky) }
                else { kind = .gaussianBlur(sx: 0, sy: 0) }
            case "feDropShadow":
                let (sx, sy) = pair("stdDeviation", 2) ?? (2, 2)
                kind = .dropShadow(dx: num("dx", 2) * kx, dy: num("dy", 2) * ky, sx: max(sx, 0) * kx, sy: max(sy, 0) * ky, color: flood())
            case "feBlend":
                let modes: [String: Int32] = ["normal": 0, "multiply": 1, "screen": 2, "overlay": 3, "darken": 4, "lighten": 5,
                                              "color-dodge": 6, "color-burn": 7, "soft-light": 8, "hard-light": 9,
                                              "difference": 10, "exclusion": 11, "hue": 12, "saturation": 13, "color": 14, "luminosity": 15]
                kind = .blend(mode: modes[p.attributes["mode"] ?? "normal"] ?? 0)
            case "feComposite":
                let op: FilterComposite
                switch p.attributes["operator"] ?? "over" {
                case "in": op = .in
                case "out": op = .out
                case "atop": op = .atop
                case "xor": op = .xor
                case "lighter": op = .lighter
                case "arithmetic":
                    op = .arithmetic(k1: Float(num("k1", 0)), k2: Float(num("k2", 0)), k3: Float(num("k3", 0)), k4: Float(num("k4", 0)))
                default: op = .over
                }
                kind = .composite(op)
            case "feMerge":
                kind = .merge
                inputs = p.children.filter { $0.name == "feMergeNode" }.map { node -> FilterInput? in
                    guard let raw = node.attributes["in"] else { return primitives.isEmpty ? .sourceGraphic : .result(primitives.count - 1) }
                    switch raw {
                    case "SourceGraphic": return .sourceGraphic
                    case "SourceAlpha": return .sourceAlpha
                    default: return names[raw].map { .result($0) } ?? (primitives.isEmpty ? .sourceGraphic : .result(primitives.count - 1))
                    }
                }
            case "feColorMatrix":
                let (values, complete) = SVGScanner.numberList(p.attributes["values"] ?? "")
                switch p.attributes["type"] ?? "matrix" {
                case "saturate":
                    let s = p.attributes["values"] == nil ? 1 : (complete && values.count == 1 && values[0].isFinite ? values[0] : 1)
                    kind = .colorMatrix(SVGFilterMatrices.saturate(max(s, 0)))
                case "hueRotate":
                    let a = complete && values.count == 1 && values[0].isFinite ? values[0] : 0
                    kind = .colorMatrix(SVGFilterMatrices.hueRotate(a))
                case "luminanceToAlpha": kind = .colorMatrix(SVGFilterMatrices.luminanceToAlpha)
                default:
                    kind = .colorMatrix(complete && values.count == 20 && values.allSatisfy(\.isFinite) ? values.map(Float.init) : SVGFilterMatrices.identity)
                }
            case "feComponentTransfer":
                var fns: [TransferFunction] = [.identity, .identity, .identity, .identity]
                for (i, n) in ["feFuncR", "feFuncG", "feFuncB", "feFuncA"].enumerated() {
                    guard let fe = p.children.last(where: { $0.name == n }) else { continue }
                    func fnum(_ a: String, _ d: Double) -> Float {
                        guard let raw = fe.attributes[a], let v = Double(raw.trimmingCharacters(in: .whitespaces)), v.isFinite else { return Float(d) }
                        return Float(v)
                    }
                    let (table, ok) = SVGScanner.numberList(fe.attributes["tableValues"] ?? "")
                    let values = ok ? table.filter(\.isFinite).prefix(4096).map(Float.init) : []
                    switch fe.attributes["type"] ?? "" {
                    case "table": fns[i] = values.isEmpty ? .identity : .table(values)
                    case "discrete": fns[i] = values.isEmpty ? .identity : .discrete(values)
                    case "linear": fns[i] = .linear(slope: fnum("slope", 1), intercept: fnum("intercept", 0))
                    case "gamma": fns[i] = .gamma(amplitude: fnum("amplitude", 1), exponent: fnum("exponent", 1), offset: fnum("offset", 0))
                    default: fns[i] = .identity
                    }
                }
                kind = .componentTransfer(fns)
            case "feMorphology":
                let op = p.attributes["operator"] == "dilate"
                if let v = pair("radius", 0), v.0 > 0, v.1 > 0 { kind = .morphology(dilate: op, rx: v.0 * kx, ry: v.1 * ky) }
                else { kind = .morphology(dilate: op, rx: 0, ry: 0) }
            case "feTile": kind = .tile(source: .null)
            case "feConvolveMatrix": kind = convolveKind(p)
            case "feTurbulence": kind = turbulenceKind(p); inputs = []
            case "feDisplacementMap": kind = displacementKind(p, kx: kx, ky: ky)
            case "feImage": kind = .flood(.zero); inputs = []
            case "feDiffuseLighting", "feSpecularLighting":
                kind = lightingKind(p, style: pStyle) ?? .unsupported(p.name)
            default:
                log.add(.unsupportedElement, "<\(p.name)>", "filter primitive not reproduced yet; its result is transparent")
                kind = .unsupported(p.name)
            }
            let resolved = inputs.map { $0 ?? (primitives.isEmpty ? .sourceGraphic : .result(primitives.count - 1)) }
            // Default subregion (Filter Effects 1 § "Filter primitive subregion"): the union of
            // the referenced results' subregions; the filter region when there are none, one is
            // a standard input, or for feTile.
            var base = CGRect.null
            let usesResults = !resolved.isEmpty && !["feTile", "feFlood", "feTurbulence", "feImage"].contains(p.name) && resolved.allSatisfy {
                if case .result = $0 { return true } else { return false }
            }
            if usesResults {
                for case .result(let k) in resolved { base = base.union(primitives[k].subregion) }
            }
            if base.isNull { base = region }
            var x = base.minX, y = base.minY, w = base.width, h = base.height
            if let v = coord(p.attributes["x"], x, .x, bboxUnits: primitiveBBox) { x = v }
            if let v = coord(p.attributes["y"], y, .y, bboxUnits: primitiveBBox) { y = v }
            if let v = size(p.attributes["width"], w, .x, bboxUnits: primitiveBBox), v >= 0 { w = v }
            if let v = size(p.attributes["height"], h, .y, bboxUnits: primitiveBBox), v >= 0 { h = v }
            let subregion = CGRect(x: x, y: y, width: w, height: h)
            if p.name == "feImage" {
                // An element reference moves by the subregion's origin (resvg's references).
                kind = imageKind(p, filter: f, subregion: subregion, offset: CGSize(width: x, height: y), images: &images)
            }
            primitives.append(FilterPrimitive(kind: kind, inputs: resolved, subregion: subregion, linearRGB: linear))
            if let r = p.attributes["result"], !r.isEmpty { names[r] = primitives.count - 1 }
        }
        return FilterGraph(region: region, primitives: primitives, images: images)
    }
}

extension SVGBuilder {
    /// feConvolveMatrix (Filter Effects 1 § feConvolveMatrix). An order whose kernel would exceed
    /// `FilterConvolve.maxKernel` values is reported and the result is transparent; a kernel of
    /// the wrong length, or a target outside the kernel, makes the result transparent too (an
    /// error in the primitive, as resvg and Chrome draw it).
    func convolveKind(_ p: SVGElement) -> FilterPrimitive.Kind {
        let (orders, okOrder) = SVGScanner.numberList(p.attributes["order"] ?? "3")
        guard okOrder, orders.count == 1 || orders.count == 2, orders.allSatisfy({ $0.isFinite && $0 >= 1 && $0.rounded() == $0 }) else {
            log.add(.invalidValue, "<feConvolveMatrix order>", "not one or two positive integers; transparent result")
            return .unsupported("feConvolveMatrix")
        }
        let ox = orders[0], oy = orders.count == 2 ? orders[1] : orders[0]
        guard ox * oy <= Double(FilterConvolve.maxKernel) else {
            log.add(.limitReached, "<feConvolveMatrix>", "order \(ox) × \(oy) exceeds \(FilterConvolve.maxKernel) kernel values; transparent result")
            return .unsupported("feConvolveMatrix")
        }
        let (kernel, okKernel) = SVGScanner.numberList(p.attributes["kernelMatrix"] ?? "")
        guard okKernel, kernel.count == Int(ox * oy), kernel.allSatisfy(\.isFinite) else {
            return .unsupported("feConvolveMatrix")
        }
        func int(_ n: String, _ d: Int) -> Int? {
            guard let raw = p.attributes[n] else { return d }
            guard let v = Double(raw.trimmingCharacters(in: .whitespaces)), v.isFinite, v.rounded() == v else { return nil }
            return Int(v)
        }
        guard let tx = int("targetX", Int(ox) / 2), let ty = int("targetY", Int(oy) / 2),
              tx >= 0, tx < Int(ox), ty >= 0, ty < Int(oy) else { return .unsupported("feConvolveMatrix") }
        // The divisor defaults to the kernel's sum, or 1 where that sum is 0. An explicit 0 is an
        // error in the primitive (SVG 1.1 § feConvolveMatrix "It is an error to specify a divisor
        // of zero"): its result is transparent, as Chrome, Firefox, Safari and resvg all draw
        // the suite's `divisor=0` case (Filter Effects 1 would fall back to the default).
        var divisor = kernel.reduce(0, +)
        if divisor == 0 { divisor = 1 }
        if let raw = p.attributes["divisor"], let v = Double(raw.trimmingCharacters(in: .whitespaces)), v.isFinite {
            guard v != 0 else {
                log.add(.invalidValue, "<feConvolveMatrix divisor=0>", "a zero divisor is an error; transparent result")
                return .unsupported("feConvolveMatrix")
            }
            divisor = v
        }
        let bias = Double(p.attributes["bias"]?.trimmingCharacters(in: .whitespaces) ?? "0") ?? 0
        let edge: Int
        switch p.attributes["edgeMode"] ?? "duplicate" {
        case "wrap": edge = 1
        case "none": edge = 2
        default: edge = 0
        }
        return .convolve(FilterConvolve(orderX: Int(ox), orderY: Int(oy), targetX: tx, targetY: ty, kernel: kernel.map(Float.init),
                                        divisor: Float(divisor), bias: Float(bias.isFinite ? bias : 0), edgeMode: edge,
                                        preserveAlpha: p.attributes["preserveAlpha"] == "true"))
    }
}

extension SVGBuilder {
    /// feDiffuseLighting / feSpecularLighting with their light source (Filter Effects 1 §
    /// "Light source elements"); nil (transparent result) without a light.
    func lightingKind(_ p: SVGElement, style: SVGComputedStyle) -> FilterPrimitive.Kind? {
        func num(_ e: SVGElement, _ n: String, _ d: Float) -> Float {
            guard let raw = e.attributes[n], let v = Double(raw.trimmingCharacters(in: .whitespaces)), v.isFinite else { return d }
            return Float(v)
        }
        guard let l = p.children.first(where: { ["feDistantLight", "fePointLight", "feSpotLight"].contains($0.name) }) else { return nil }
        let light: FilterLight
        switch l.name {
        case "feDistantLight": light = .distant(azimuth: num(l, "azimuth", 0), elevation: num(l, "elevation", 0))
        case "fePointLight": light = .point(x: num(l, "x", 0), y: num(l, "y", 0), z: num(l, "z", 0))
        default:
            let cone = l.attributes["limitingConeAngle"].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0.isFinite ? Float($0) : nil }
            light = .spot(x: num(l, "x", 0), y: num(l, "y", 0), z: num(l, "z", 0),
                          pointsAt: SIMD3(num(l, "pointsAtX", 0), num(l, "pointsAtY", 0), num(l, "pointsAtZ", 0)),
                          exponent: num(l, "specularExponent", 1), cone: cone)
        }
        var c: SVGColorValue = .rgba(1, 1, 1, 1)
        if let raw = style.filterProperties["lighting-color"], let parsed = SVGColorParser.parse(raw) { c = parsed }
        let rgba = style.resolve(c)
        let specular = p.name == "feSpecularLighting"
        let constant = specular ? num(p, "specularConstant", 1) : num(p, "diffuseConstant", 1)
        let exponent = min(max(num(p, "specularExponent", 1), 1), 128)
        return .lighting(specular: specular, surfaceScale: num(p, "surfaceScale", 1), constant: max(constant, 0), exponent: exponent,
                         light: light, color: SIMD3(Float(rgba.0), Float(rgba.1), Float(rgba.2)))
    }
}
