import Foundation

/// The rules of `<style>` elements (CSS 2.1 syntax), for the selectors icon files use:
/// `*`, a type (`rect`), `.class`, `#id` and their compounds (`rect.a#b`), in comma lists.
/// Combinators, attribute selectors, pseudo-classes and at-rules are reported as unsupported
/// and their rules skipped. Cascade order (CSS 2.1 §6.4.3): presentation attributes, then
/// rules by specificity and source order, then the `style` attribute.
package struct SVGStyleSheet {
    struct Rule {
        var type: String?
        var id: String?
        var classes: [String]
        var specificity: Int
        var order: Int
        var declarations: [(String, String)]
        /// Attribute selectors of the subject (`[x]`, `[x=v]`) and the compounds before it with
        /// their combinators (`>`: child, else descendant), nearest first (`SVGSelectors.swift`).
        var attributes: [(name: String, value: String?)] = []
        var context: [(child: Bool, compound: Rule)] = []

        /// `classes`: the element's class names, split once per element (not once per rule).
        func matches(_ e: SVGElement, classes have: Set<Substring>) -> Bool {
            if let type, type != e.name { return false }
            if let id, id != e.id { return false }
            for c in classes where !have.contains(Substring(c)) { return false }
            for a in attributes {
                guard let v = e.attributes[a.name] else { return false }
                if let want = a.value, want != v { return false }
            }
            return context.isEmpty || matchesContext(e)
        }
    }
    var rules: [Rule] = []
    /// Rules by the most selective part of their selector (issue 17: every rule used to be tried
    /// on every element, so 50,000 rules × 50,000 elements took minutes). A rule sits in exactly
    /// one bucket: its id if it has one, else its first class, else its type, else `universal`;
    /// an element asks only the buckets of its own id, classes and type, so each rule it tries
    /// can match it on that part already.
    private var byID: [String: [Int]] = [:]
    private var byClass: [String: [Int]] = [:]
    private var byType: [String: [Int]] = [:]
    private var universal: [Int] = []

    private mutating func index(_ rule: Rule) {
        let n = rules.count
        rules.append(rule)
        if let id = rule.id { byID[id, default: []].append(n) }
        else if let c = rule.classes.first { byClass[c, default: []].append(n) }
        else if let t = rule.type { byType[t, default: []].append(n) }
        else { universal.append(n) }
    }

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
                guard let rule = Self.compound(s, decls: decls, order: rules.count) ?? Self.complex(s, decls: decls, order: rules.count) else {
                    log.add(.unsupportedFeature, "CSS selector \"\(s)\"",
                            "only *, type, .class, #id, [attr], [attr=value], their compounds and the child and descendant combinators are supported; rule skipped")
                    continue
                }
                index(rule)
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

    /// The element's class names, split once per element.
    static func classNames(_ attribute: String?) -> Set<Substring> {
        Set((attribute ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }))
    }

    /// The rules worth trying on an element (indices into `rules`): the buckets of its id,
    /// classes and type, and the universal rules.
    func candidates(name: String, id: String?, classes: Set<Substring>) -> [Int] {
        var candidates = universal
        if let id, let b = byID[id] { candidates += b }
        for c in classes { if let b = byClass[String(c)] { candidates += b } }
        if let b = byType[name] { candidates += b }
        return candidates
    }

    /// A sheet of `css` alone, for the tests (package access).
    package init(css: String) {
        add(css: css, log: SVGIssueLog())
    }

    package init() {}

    /// How many rules an element of this name, id and `class` attribute is tried against: the
    /// tests bound the cascade's work with it (a count, not a clock).
    package func candidateCount(name: String, id: String?, classAttribute: String?) -> Int {
        candidates(name: name, id: id, classes: Self.classNames(classAttribute)).count
    }

    /// Declarations that apply to `e`, lowest priority first.
    func declarations(for e: SVGElement) -> [(String, String)] {
        guard !rules.isEmpty else { return [] }
        let classes = Self.classNames(e.attributes["class"])
        // Rule indices are source order, so sorting by (specificity, index) is the cascade.
        let matched = candidates(name: e.name, id: e.id, classes: classes).filter { rules[$0].matches(e, classes: classes) }
            .sorted { (rules[$0].specificity, $0) < (rules[$1].specificity, $1) }
        return matched.flatMap { rules[$0].declarations }
    }
}
