import CoreText
import Foundation

// Writing a text layer's `string` and `font` (docs/SCENE-FORMAT.md, "Text layers"); its plain
// properties go through the schema like every layer's.

extension SceneWriter {
    /// The members for `l.string` and `l.font` that differ from a new layer's.
    func textMembers(_ l: CATextLayer, _ path: String) throws -> [(key: String, value: JSONNode)] {
        var m: [(key: String, value: JSONNode)] = []
        if let f = l.font { m.append(("font", JSONNode(try fontName(f, "\(path).font")))) }
        switch l.string {
        case nil: break
        case let s as String: m.append(("string", JSONNode(.string(s))))
        case let s as NSString: m.append(("string", JSONNode(.string(s as String))))
        case let a as NSAttributedString: m.append(("string", JSONNode(try runs(a, "\(path).string"))))
        case let other?:
            throw SceneEncodingError(path: "\(path).string", message: "\(type(of: other)) is not a String or NSAttributedString")
        }
        return m
    }

    /// A font by name: a name as given, a `CTFont`'s or `CGFont`'s PostScript name (a font
    /// loaded from a file is written by its name, so the file must be installed to read back).
    private func fontName(_ f: AnyObject, _ path: String) throws -> JSONValue {
        switch f {
        case let s as NSString: return .string(s as String)
        case let s as String: return .string(s)
        case let ct as CTFont: return .string(CTFontCopyPostScriptName(ct) as String)
        case let cg as CGFont: return .string((cg.postScriptName as String?) ?? (cg.fullName as String? ?? ""))
        default: throw SceneEncodingError(path: path, message: "\(type(of: f)) is not a font name, CTFont or CGFont")
        }
    }

    /// Attributed runs, one per attribute run of `a`.
    private func runs(_ a: NSAttributedString, _ path: String) throws -> JSONValue {
        var items: [JSONNode] = []
        var failure: Error?
        let ns = a.string as NSString
        a.enumerateAttributes(in: NSRange(location: 0, length: a.length), options: []) { attrs, range, stop in
            var m: [(key: String, value: JSONNode)] = [("text", JSONNode(.string(ns.substring(with: range))))]
            func num(_ key: CFString, _ name: String) {
                if let n = attrs[NSAttributedString.Key(key)] as? NSNumber { m.append((name, JSONNode(.number(n.doubleValue)))) }
                else if let n = attrs[NSAttributedString.Key(key)] as? Double { m.append((name, JSONNode(.number(n)))) }
            }
            do {
                if let f = attrs[NSAttributedString.Key(kCTFontAttributeName)] as? CTFont {
                    m.append(("font", JSONNode(.string(CTFontCopyPostScriptName(f) as String))))
                    m.append(("fontSize", JSONNode(.number(Double(CTFontGetSize(f))))))
                }
                for (key, name) in [(kCTForegroundColorAttributeName, "foregroundColor"), (kCTUnderlineColorAttributeName, "underlineColor"),
                                    (kCTStrokeColorAttributeName, "strokeColor")] {
                    if let c = attrs[NSAttributedString.Key(key)] { m.append((name, JSONNode(try value(c, .color, "\(path).\(name)")))) }
                }
                num(kCTKernAttributeName, "kern"); num(kCTTrackingAttributeName, "tracking"); num(kCTLigatureAttributeName, "ligature")
                num(kCTStrokeWidthAttributeName, "strokeWidth"); num(kCTBaselineOffsetAttributeName, "baselineOffset")
                if let u = attrs[NSAttributedString.Key(kCTUnderlineStyleAttributeName)] as? NSNumber,
                   let name = SceneSchema.underlineStyles.first(where: { $0.value == u.int32Value })?.key {
                    m.append(("underline", JSONNode(.string(name))))
                }
            } catch {
                failure = error; stop.pointee = true
            }
            items.append(JSONNode(.object(m)))
        }
        if let failure { throw failure }
        return .array(items)
    }
}
