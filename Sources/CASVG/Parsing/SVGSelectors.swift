import Foundation

/// The selectors beyond simple compounds that `SVGStyleSheet` reads (CSS Selectors 3): attribute
/// selectors `[name]` and `[name=value]` (quoted or not), and the descendant (` `) and child
/// (`>`) combinators. Sibling combinators and pseudo-classes stay unsupported (reported).
extension SVGStyleSheet {
    /// A selector with attribute selectors or combinators, or nil when it uses anything else.
    static func complex(_ s: String, decls: [(String, String)], order: Int) -> Rule? {
        guard !s.contains(where: { "+~:()".contains($0) }) else { return nil }
        // Tokens: compounds and ">" (whitespace outside brackets separates them).
        var tokens: [String] = []
        var current = ""
        var inBracket = false
        for ch in s {
            if ch == "[" { inBracket = true }
            if ch == "]" { inBracket = false }
            if !inBracket, ch == " " || ch == "\t" || ch == "\n" || ch == ">" {
                if !current.isEmpty { tokens.append(current); current = "" }
                if ch == ">" { tokens.append(">") }
                continue
            }
            current.append(ch)
        }
        if !current.isEmpty { tokens.append(current) }
        guard !inBracket, let last = tokens.last, last != ">" else { return nil }
        var compounds: [(child: Bool, rule: Rule)] = []
        var child = false
        for t in tokens {
            if t == ">" {
                guard !compounds.isEmpty, !child else { return nil }
                child = true
                continue
            }
            guard let r = simple(t, order: order) else { return nil }
            compounds.append((child, r))
            child = false
        }
        guard var subject = compounds.popLast()?.rule else { return nil }
        // The subject's own combinator tells how it relates to the compound before it, and so on.
        var context: [(child: Bool, compound: Rule)] = []
        var combinator = tokens.count >= 2 && tokens[tokens.count - 2] == ">"
        var spec = subject.specificity
        for (i, c) in compounds.enumerated().reversed() {
            context.append((combinator, c.rule))
            spec += c.rule.specificity
            combinator = i > 0 ? compounds[i].child : false
        }
        // (compounds[i].child records whether a ">" came before compound i.)
        subject.context = context
        subject.specificity = spec
        subject.declarations = decls
        return subject
    }

    /// One compound with optional attribute selectors: `rect.a[x][y="1"]`.
    private static func simple(_ t: String, order: Int) -> Rule? {
        var base = ""
        var attributes: [(name: String, value: String?)] = []
        var rest = Substring(t)
        if let open = rest.firstIndex(of: "[") {
            base = String(rest[..<open])
            rest = rest[open...]
            while let o = rest.firstIndex(of: "["), let c = rest.firstIndex(of: "]"), o < c {
                let body = rest[rest.index(after: o)..<c]
                if let eq = body.firstIndex(of: "=") {
                    let name = body[..<eq].trimmingCharacters(in: .whitespaces)
                    var value = body[body.index(after: eq)...].trimmingCharacters(in: .whitespaces)
                    if value.count >= 2, let f = value.first, f == "\"" || f == "'", value.last == f { value = String(value.dropFirst().dropLast()) }
                    guard !name.isEmpty, !name.contains(where: { "~|^$*".contains($0) }) else { return nil }
                    attributes.append((name, value))
                } else {
                    let name = body.trimmingCharacters(in: .whitespaces)
                    guard !name.isEmpty else { return nil }
                    attributes.append((name, nil))
                }
                rest = rest[rest.index(after: c)...]
            }
            guard rest.isEmpty else { return nil }
        } else {
            base = t
        }
        var rule: Rule
        if base.isEmpty {
            rule = Rule(type: nil, id: nil, classes: [], specificity: 0, order: order, declarations: [])
        } else {
            guard let r = compound(base, decls: [], order: order) else { return nil }
            rule = r
        }
        rule.attributes = attributes
        rule.specificity += 10 * attributes.count
        return rule
    }
}

extension SVGStyleSheet.Rule {
    /// Whether the ancestors of `e` satisfy the context compounds (nearest first): a child
    /// combinator needs the parent itself, a descendant one any ancestor (the nearest that
    /// matches is taken).
    func matchesContext(_ e: SVGElement) -> Bool {
        var node: SVGElement? = e.parent
        for (child, compound) in context {
            if child {
                guard let p = node, compound.matches(p, classes: SVGStyleSheet.classNames(p.attributes["class"])) else { return false }
                node = p.parent
            } else {
                var found = false
                while let p = node {
                    node = p.parent
                    if compound.matches(p, classes: SVGStyleSheet.classNames(p.attributes["class"])) { found = true; break }
                }
                if !found { return false }
            }
        }
        return true
    }
}
