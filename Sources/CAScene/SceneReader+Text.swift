import CoreText
import Foundation

// Text layers (docs/SCENE-FORMAT.md, "Text layers"): a `CATextLayer` object takes Apple's
// properties by their Swift names. `fontSize`, `foregroundColor`, `isWrapped`,
// `truncationMode`, `alignmentMode` and `allowsFontSubpixelQuantization` are plain values (and
// the first two animatable); `string` (plain, or attributed runs) and `font` (a name, or a font
// file relative to the scene) are read here.

extension SceneSchema {
    /// `CATextLayerAlignmentMode`'s raw values.
    static let textAlignment = ["natural", "left", "right", "center", "justified"]
    /// `CATextLayerTruncationMode`'s raw values.
    static let textTruncation = ["none", "start", "end", "middle"]
    /// `CTUnderlineStyle` by name, as attributed runs spell it.
    static let underlineStyles: [String: Int32] = ["none": 0, "single": 0x01, "thick": 0x02, "double": 0x09]

    /// CATextLayer's properties with plain values.
    static let text: [SceneProperty] = [
        .init("fontSize", .number), .init("foregroundColor", .color), .init("isWrapped", .bool, key: "wrapped"),
        .init("truncationMode", .constant(textTruncation)), .init("alignmentMode", .constant(textAlignment)),
        .init("allowsFontSubpixelQuantization", .bool),
    ]

    /// Fields of one attributed run.
    static let runFields = ["text", "font", "fontSize", "foregroundColor", "kern", "tracking", "ligature", "underline",
                            "underlineColor", "strokeWidth", "strokeColor", "baselineOffset"]

    /// The most runs one attributed string may have (a bound on the work a file can ask for).
    static let maxTextRuns = 10_000
    /// The most font files one scene may load.
    static let maxFontFiles = 64
}

extension SceneReader {
    /// Reads a text layer's `string` and `font` (its plain properties went through the schema).
    func textContent(_ o: ObjectReader, _ layer: CATextLayer) {
        if let v = o["fontSize"], case .number(let n) = v.value, n < 0 {
            problem(o.at("fontSize"), v, "fontSize \(n) is negative (a size in points, 0 or more)")
        }
        if let v = o["font"], let font = fontValue(v, o.at("font")) {
            layer.font = font
        }
        if let v = o["string"] {
            switch v.value {
            case .null: layer.string = nil
            case .string(let s): layer.string = s
            case .array: if let a = attributedString(v, o.at("string"), layer: layer) { layer.string = a }
            default: problem(o.at("string"), v, "expected a string or an array of runs ({\"text\": …}), found \(v.value.typeName)")
            }
        }
    }

    /// A font: a name (`NSString`, resolved by Core Text when drawing) or `{"file": path}`, a
    /// TrueType/OpenType file relative to the scene (a `CGFont`). Nil: problem reported.
    func fontValue(_ node: JSONNode, _ path: String) -> AnyObject? {
        switch node.value {
        case .string(let name):
            guard !name.isEmpty else { problem(path, node, "font name is empty"); return nil }
            return NSString(string: name)
        case .object:
            guard let o = ObjectReader(node, path: path, self) else { return nil }
            defer { o.finish("a font object") }
            guard let f = o["file"] else {
                problem(path, node, "a font object needs \"file\" (a font file path relative to the scene)")
                return nil
            }
            guard let rel = string(f, o.at("file")) else { return nil }
            return fontFile(rel, o.at("file"), f)
        default:
            problem(path, node, "expected a font name or {\"file\": path}, found \(node.value.typeName)")
            return nil
        }
    }

    /// The graphics font in file `rel` (cached per resolved path), nil with a problem reported.
    private func fontFile(_ rel: String, _ path: String, _ node: JSONNode) -> CGFont? {
        guard let resolved = sceneFile(rel, path, node, what: "font") else { return nil }
        if let f = fonts[resolved] { return f }
        guard within(fonts.count + 1, SceneSchema.maxFontFiles, "font files", limitName: "maxFontFiles", path, line: node.line) else { return nil }
        guard let data = sceneFileData(resolved, rel, path, node, what: "font") else { return nil }
        guard let provider = CGDataProvider(data: data as CFData), let font = CGFont(provider) else {
            problem(path, node, "font file \"\(rel.prefix(200))\" is not a readable font (TrueType, OpenType or a collection)")
            return nil
        }
        fonts[resolved] = font
        return font
    }

    /// An attributed string from runs: `[{"text": "Hello ", "font": "NotoSans-Bold", "fontSize": 24,
    /// "foregroundColor": "#ff0000", "kern": 1, "underline": "single"}, …]`. A run without a font
    /// or size takes the layer's when drawn (its `font` at its `fontSize`), as CATextLayer does.
    func attributedString(_ node: JSONNode, _ path: String, layer: CATextLayer) -> NSAttributedString? {
        guard let items = array(node, path, expected: "an array of runs") else { return nil }
        guard within(items.count, SceneSchema.maxTextRuns, "runs in one string", limitName: "maxTextRuns", path, line: node.line) else { return nil }
        let out = NSMutableAttributedString(string: "")
        let before = problems.count
        for (i, item) in items.enumerated() {
            let p = indexPath(path, i)
            guard let o = ObjectReader(item, path: p, self, what: "a run object ({\"text\": …})") else { continue }
            var attrs: [NSAttributedString.Key: Any] = [:]
            func put(_ key: CFString, _ v: Any) { attrs[NSAttributedString.Key(key)] = v }
            var text = ""
            if let t = o["text"] { text = string(t, o.at("text")) ?? "" } else { problem(p, item, "a run needs \"text\"") }
            var size: Double? = nil
            if let v = o["fontSize"], let n = number(v, o.at("fontSize")) {
                if n < 0 { problem(o.at("fontSize"), v, "fontSize \(n) is negative (a size in points, 0 or more)") } else { size = n }
            }
            var font: AnyObject? = nil
            if let v = o["font"] { font = fontValue(v, o.at("font")) }
            if font != nil || size != nil {
                let s = CGFloat(size ?? Double(layer.fontSize))
                switch font ?? layer.font {
                case let cg as CGFont: put(kCTFontAttributeName, CTFontCreateWithGraphicsFont(cg, s, nil, nil))
                case let name as NSString: put(kCTFontAttributeName, CTFontCreateWithName(name as String, s, nil))
                case let ct as CTFont: put(kCTFontAttributeName, CTFontCreateCopyWithAttributes(ct, s, nil, nil))
                default: put(kCTFontAttributeName, CTFontCreateWithName("Helvetica", s, nil))
                }
            }
            if let v = o["foregroundColor"], let c = color(v, o.at("foregroundColor")) { put(kCTForegroundColorAttributeName, c) }
            for (field, key) in [("kern", kCTKernAttributeName), ("tracking", kCTTrackingAttributeName),
                                 ("strokeWidth", kCTStrokeWidthAttributeName), ("baselineOffset", kCTBaselineOffsetAttributeName)] {
                if let v = o[field], let n = number(v, o.at(field)) { put(key, NSNumber(value: n)) }
            }
            if let v = o["ligature"], let n = number(v, o.at("ligature")) {
                if n == 0 || n == 1 || n == 2 { put(kCTLigatureAttributeName, NSNumber(value: Int(n))) }
                else { problem(o.at("ligature"), v, "ligature is 0 (none), 1 (standard) or 2 (all)") }
            }
            if let v = o["underline"], let s = value(v, .constant(Array(SceneSchema.underlineStyles.keys).sorted()), o.at("underline")) as? String {
                put(kCTUnderlineStyleAttributeName, NSNumber(value: SceneSchema.underlineStyles[s] ?? 0))
            }
            if let v = o["underlineColor"], let c = color(v, o.at("underlineColor")) { put(kCTUnderlineColorAttributeName, c) }
            if let v = o["strokeColor"], let c = color(v, o.at("strokeColor")) { put(kCTStrokeColorAttributeName, c) }
            o.finish("a run (\(SceneSchema.runFields.joined(separator: ", ")))")
            out.append(NSAttributedString(string: text, attributes: attrs))
        }
        return problems.count == before ? out : nil
    }
}
