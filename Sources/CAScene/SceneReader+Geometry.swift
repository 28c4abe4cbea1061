import CASVG
import ImageIO

// Transforms, paths and images (docs/SCENE-FORMAT.md, "Values").

extension SceneReader {
    /// 16 numbers (m11 … m44, row by row as `CATransform3D` declares them), a readable object
    /// (`{"rotateZ": 0.5, "translate": [10, 0]}`), or an array of readable objects applied
    /// first to last.
    func transform(_ node: JSONNode, _ path: String) -> CATransform3D? {
        switch node.value {
        case .object: return transformSteps(node, path)
        case .array(let a):
            if let first = a.first, case .object = first.value {
                var t = CATransform3DIdentity
                var ok = true
                for (i, step) in a.prefix(limits.maxKeyframes).enumerated() {
                    if let s = transformSteps(step, indexPath(path, i)) { t = CATransform3DConcat(t, s) } else { ok = false }
                }
                return ok ? t : nil
            }
            guard let m = fixedNumbers(node, path, counts: [16], expected: "16 numbers (m11 … m44)") else { return nil }
            return CATransform3D(m11: m[0], m12: m[1], m13: m[2], m14: m[3], m21: m[4], m22: m[5], m23: m[6], m24: m[7],
                                 m31: m[8], m32: m[9], m33: m[10], m34: m[11], m41: m[12], m42: m[13], m43: m[14], m44: m[15])
        default:
            problem(path, node, "expected \(SceneValueKind.transform.expected), found \(node.value.typeName)")
            return nil
        }
    }

    /// The readable form. Parts apply to the layer's points in this fixed order, whatever the
    /// order in the file: affine, scale, rotate, rotateX, rotateY, rotateZ, translate,
    /// perspective/m34 — i.e. `CATransform3DConcat` of the parts in that order (row vectors).
    private func transformSteps(_ node: JSONNode, _ path: String) -> CATransform3D? {
        guard let o = ObjectReader(node, path: path, self) else { return nil }
        var t = CATransform3DIdentity
        var ok = true
        func then(_ m: CATransform3D) { t = CATransform3DConcat(t, m) }
        if let v = o["affine"] {
            if let n = fixedNumbers(v, o.at("affine"), counts: [6], expected: "[a, b, c, d, tx, ty]") {
                then(CATransform3DMakeAffineTransform(CGAffineTransform(a: n[0], b: n[1], c: n[2], d: n[3], tx: n[4], ty: n[5])))
            } else { ok = false }
        }
        if let v = o["scale"] {
            if case .number(let s) = v.value { then(CATransform3DMakeScale(s, s, 1)) }
            else if let n = fixedNumbers(v, o.at("scale"), counts: [2, 3], expected: "a number, [sx, sy] or [sx, sy, sz]") {
                then(CATransform3DMakeScale(n[0], n[1], n.count == 3 ? n[2] : 1))
            } else { ok = false }
        }
        if let v = o["rotate"] {
            if let n = fixedNumbers(v, o.at("rotate"), counts: [4], expected: "[angle, x, y, z] (radians about an axis)") {
                then(CATransform3DMakeRotation(n[0], n[1], n[2], n[3]))
            } else { ok = false }
        }
        for (key, axis) in [("rotateX", (1.0, 0.0, 0.0)), ("rotateY", (0, 1, 0)), ("rotateZ", (0, 0, 1))] {
            guard let v = o[key] else { continue }
            if let a = angle(v, o.at(key)) { then(CATransform3DMakeRotation(a, axis.0, axis.1, axis.2)) } else { ok = false }
        }
        if let v = o["translate"] {
            if let n = fixedNumbers(v, o.at("translate"), counts: [2, 3], expected: "[tx, ty] or [tx, ty, tz]") {
                then(CATransform3DMakeTranslation(n[0], n[1], n.count == 3 ? n[2] : 0))
            } else { ok = false }
        }
        if let v = o["perspective"] {
            if let d = number(v, o.at("perspective")) {
                if d > 0 { var p = CATransform3DIdentity; p.m34 = -1 / d; then(p) }
                else { problem(o.at("perspective"), v, "the eye distance must be greater than 0"); ok = false }
            } else { ok = false }
        }
        if let v = o["m34"] {
            if let d = number(v, o.at("m34")) { var p = CATransform3DIdentity; p.m34 = d; then(p) } else { ok = false }
        }
        o.finish("a transform (affine, scale, rotate, rotateX, rotateY, rotateZ, translate, perspective, m34)")
        return ok ? t : nil
    }

    /// SVG-style path data (`"M 0 0 L 10 0 C … Z"`), a list of elements
    /// (`[{"move": [0, 0]}, {"line": [10, 0]}, {"close": true}]`) or a shape
    /// (`{"rect": […]}`, `{"ellipse": […]}`, `{"roundedRect": […], "cornerRadius": 8}`).
    func path(_ node: JSONNode, _ path: String) -> CGPath? {
        switch node.value {
        case .string(let s):
            // The SVG path grammar, shared with the SVG importer (every command, arcs as
            // cubics). A scene is data, not a drawing: anything SVG would draw partially
            // (an error, a clamped coordinate, too many segments) is a problem here.
            let r = SVGPathParser.parse(s, maxSegments: limits.maxPathElements)
            if r.truncated {
                problem(path, node, "path data: more than \(limits.maxPathElements) path elements (limit maxPathElements)")
                return nil
            }
            if let e = r.error {
                problem(path, node, "path data: \(e)")
                return nil
            }
            if r.clamped {
                problem(path, node, "path data: a coordinate is not a finite number within ±1e9")
                return nil
            }
            guard spend(r.segments, from: &pathElementTotal, limits.maxTotalPathElements, "path elements in the whole file",
                        limitName: "maxTotalPathElements", path, line: node.line) else { return nil }
            return r.path
        case .array(let a):
            guard within(a.count, limits.maxPathElements, "path elements", limitName: "maxPathElements", path, line: node.line),
                  spend(a.count, from: &pathElementTotal, limits.maxTotalPathElements, "path elements in the whole file",
                        limitName: "maxTotalPathElements", path, line: node.line) else { return nil }
            var elements: [PathElement] = []
            var ok = true
            for (i, item) in a.enumerated() {
                if let e = pathElement(item, indexPath(path, i)) { elements.append(e) } else { ok = false }
            }
            return ok ? CGPath(elements: elements) : nil
        case .object:
            guard let o = ObjectReader(node, path: path, self) else { return nil }
            defer { o.finish("a path shape (rect, ellipse, or roundedRect with cornerRadius)") }
            if let v = o["rect"] {
                return rect(v, o.at("rect")).map { CGPath(rect: $0, transform: nil) }
            }
            if let v = o["ellipse"] {
                return rect(v, o.at("ellipse")).map { CGPath(ellipseIn: $0, transform: nil) }
            }
            if let v = o["roundedRect"] {
                let r = rect(v, o.at("roundedRect"))
                let radius = o["cornerRadius"].map { number($0, o.at("cornerRadius")) } ?? 0
                guard let r, let radius else { return nil }
                guard radius >= 0, 2 * radius <= min(abs(r.width), abs(r.height)) else {
                    problem(o.at("cornerRadius"), node, "must be between 0 and half the rect's smaller side")
                    return nil
                }
                return CGPath(roundedRect: r, cornerWidth: radius, cornerHeight: radius, transform: nil)
            }
            problem(path, node, "a path object needs \"rect\", \"ellipse\" or \"roundedRect\"")
            return nil
        default:
            problem(path, node, "expected \(SceneValueKind.path.expected), found \(node.value.typeName)")
            return nil
        }
    }

    private func pathElement(_ node: JSONNode, _ path: String) -> PathElement? {
        guard let o = ObjectReader(node, path: path, self) else { return nil }
        defer { o.finish("a path element (move, line, quad, curve or close)") }
        guard o.members.count == 1 else {
            problem(path, node, "a path element has exactly one of move, line, quad, curve, close")
            for m in o.members { _ = o[m.key] }
            return nil
        }
        let key = o.members[0].key
        guard let v = o[key] else { return nil }
        func pts(_ n: Int, _ what: String) -> [CGPoint]? {
            fixedNumbers(v, o.at(key), counts: [2 * n], expected: what).map { a in
                stride(from: 0, to: a.count, by: 2).map { CGPoint(x: a[$0], y: a[$0 + 1]) }
            }
        }
        switch key {
        case "move": return pts(1, "[x, y]").map { .move($0[0]) }
        case "line": return pts(1, "[x, y]").map { .line($0[0]) }
        case "quad": return pts(2, "[cx, cy, x, y]").map { .quad($0[0], $0[1]) }
        case "curve": return pts(3, "[c1x, c1y, c2x, c2y, x, y]").map { .cubic($0[0], $0[1], $0[2]) }
        case "close":
            guard case .bool(true) = v.value else { problem(o.at(key), v, "expected true"); return nil }
            return .close
        default:
            problem(o.at(key), v, "unknown path element (move, line, quad, curve, close)")
            return nil
        }
    }

    /// Layer contents: a PNG, JPEG, GIF (first frame) or WebP file, by path relative to the scene file's folder. The path may
    /// not be absolute, contain `..` or resolve (through symlinks) outside the folder unless
    /// `allowImagesOutsideSceneFolder` is set; size limits are checked before decoding.
    func image(_ node: JSONNode, _ path: String) -> CGImage? {
        guard let rel = string(node, path, expected: SceneValueKind.image.expected) else { return nil }
        guard let resolved = sceneFile(rel, path, node, what: "image") else { return nil }
        if let img = images[resolved] { return img }
        guard within(images.count + 1, limits.maxImages, "images", limitName: "maxImages", path, line: node.line) else { return nil }
        guard let data = sceneFileData(resolved, rel, path, node, what: "image") else { return nil }
        // PNG, JPEG, GIF (first frame) or WebP, through ImageIO. Width and height come from the
        // header, so an oversized image is refused before its pixels are allocated.
        guard let source = CGImageSourceCreateWithData(data as CFData, nil), CGImageSourceGetType(source) != nil else {
            problem(path, node, "image file \"\(rel.prefix(200))\" is not a readable image (PNG, JPEG, GIF or WebP)")
            return nil
        }
        if let props = CGImageSourceCopyPropertiesAtIndex(source, 0, nil),
           let w = props[kCGImagePropertyPixelWidth] as? Int, let h = props[kCGImagePropertyPixelHeight] as? Int {
            guard w.multipliedReportingOverflow(by: h).partialValue <= limits.maxImagePixels else {
                problem(path, node, "image \"\(rel.prefix(200))\" is \(w)×\(h) pixels; at most \(limits.maxImagePixels) pixels are allowed (limit maxImagePixels)")
                return nil
            }
            guard spend(w * h, from: &imagePixelTotal, limits.maxTotalImagePixels, "image pixels in the whole file",
                        limitName: "maxTotalImagePixels", path, line: node.line) else { return nil }
        }
        do {
            let img = try source.decodeImage(at: 0)
            images[resolved] = img
            return img
        } catch {
            let format = (CGImageSourceGetType(source)).map { ["public.png": "PNG", "public.jpeg": "JPEG", "com.compuserve.gif": "GIF", "org.webmproject.webp": "WebP"][$0] ?? $0 } ?? "image"
            problem(path, node, "image file \"\(rel.prefix(200))\" is not a readable \(format): \(error.message)")
            return nil
        }
    }
}
