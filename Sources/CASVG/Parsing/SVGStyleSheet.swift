import Foundation

/// The rules of `<style>` elements (CSS 2.1 syntax), for the selectors icon files use:
/// `*`, a type (`rect`), `.class`, `#id` and their compounds (`rect.a#b`), in comma lists.
/// Combinators, attribute selectors, pseudo-classes and at-rules are reported as unsupported
/// and their rules skipped. Cascade order (CSS 2.1 §6.4.3): presentation attributes, then
/// rules by specificity and source order, then the `style` attribute.
struct SVGStyleSheet {
    struct Rule {
        var type: String?
        var id: String?
        var classes: [String]
        var specificity: Int
        var order: Int
        var declarations: [(String, String)]

        func matches(_ e: SVGElement) -> Bool {
            if let type, type != e.name { return false }
            if let id, id != e.id { return false }
            if !classes.isEmpty {
                let have = Set((e.attributes["class"] ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init))
                if !classes.allSatisfy(have.contains) { return false }
            }
            return true
        }
    }
    var rules: [Rule] = []

    mutating func add(css rawCSS: String, log: SVGIssueLog) {
        var css = rawCSS
        while let a = css.range(of: "/*") {
            if let b = css.range(of: "*/", range: a.upperBound..<css.endIndex) { css.removeSubrange(a.lowerBound..<b.upperBound) }
            else { css.removeSubrange(a.lowerBound..<css.endIndex) }
        }
        var rest = Substring(css)
        while let open = rest.firstIndex(of: "{") {
            let selectorText = rest[..<open].trimmingCharacters(in: .whitespacesAndNewlines)
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let body = String(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
            if selectorText.hasPrefix("@") {
                log.add(.unsupportedFeature, "CSS \(selectorText.split(separator: " ").first ?? "")", "at-rules are not supported; skipped")
                continue
            }
            let decls = SVGDeclarations.parse(body)
            for sel in selectorText.split(separator: ",") {
                let s = sel.trimmingCharacters(in: .whitespacesAndNewlines)
                guard let rule = Self.compound(s, decls: decls, order: rules.count) else {
                    log.add(.unsupportedFeature, "CSS selector \"\(s)\"", "only *, type, .class, #id and their compounds are supported; rule skipped")
                    continue
                }
                rules.append(rule)
            }
        }
    }

    static func compound(_ s: String, decls: [(String, String)], order: Int) -> Rule? {
        guard !s.isEmpty, !s.contains(where: { " >+~[:()".contains($0) }) else { return nil }
        var type: String? = nil, id: String? = nil, classes: [String] = []
        var spec = 0
        var i = s.startIndex
        func token() -> String {
            let st = i
            while i < s.endIndex, s[i] != ".", s[i] != "#" { i = s.index(after: i) }
            return String(s[st..<i])
        }
        if s[i] != ".", s[i] != "#" {
            let t = token()
            if t != "*" { type = t; spec += 1 }
        }
        while i < s.endIndex {
            let c = s[i]
            i = s.index(after: i)
            let t = token()
            guard !t.isEmpty else { return nil }
            if c == "#" { id = t; spec += 100 } else { classes.append(t); spec += 10 }
        }
        return Rule(type: type, id: id, classes: classes, specificity: spec, order: order, declarations: decls)
    }

    /// Declarations that apply to `e`, lowest priority first.
    func declarations(for e: SVGElement) -> [(String, String)] {
        guard !rules.isEmpty else { return [] }
        let matched = rules.filter { $0.matches(e) }.sorted { ($0.specificity, $0.order) < ($1.specificity, $1.order) }
        return matched.flatMap(\.declarations)
    }
}
