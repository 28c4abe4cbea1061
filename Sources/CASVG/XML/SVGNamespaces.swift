/// XML namespaces of element and attribute names (Namespaces in XML 1.0 §5, SVG 1.1 §1.1): an
/// element is SVG when its prefix (or, unprefixed, the default namespace) is bound to the SVG
/// namespace, whatever the prefix is called (`<s:rect xmlns:s="http://www.w3.org/2000/svg">`);
/// an element in another namespace is foreign and keeps a name no SVG element has, so it is
/// skipped like any unknown element. Lenient where documents often are: an unprefixed element
/// with no default namespace declared, and the undeclared prefix `svg:`, are SVG.
enum SVGNamespaces {
    static let svg = "http://www.w3.org/2000/svg"
    static let xlink = "http://www.w3.org/1999/xlink"
    static let xml = "http://www.w3.org/XML/1998/namespace"
    /// The resolved name of an `href` in the XLink namespace (`xlink:href`, or any prefix bound
    /// to XLink).
    static let xlinkHref = "xlink:href"

    /// The name an element is known by: its local name when in the SVG namespace, else
    /// `{namespace}local` (foreign).
    static func element(_ qualified: String, scope: [String: String]) -> String {
        let (prefix, local) = split(qualified)
        let uri: String?
        if let prefix {
            uri = scope[prefix] ?? (prefix == "svg" ? svg : nil)
        } else {
            uri = scope[""].flatMap { $0.isEmpty ? nil : $0 } ?? svg
        }
        return uri == svg ? local : "{\(uri ?? prefix ?? "")}\(local)"
    }

    /// The name an attribute is known by: unprefixed names as written (attributes have no
    /// default namespace); `xlink:…` for a prefix bound to XLink (or an undeclared `xlink:`),
    /// `xml:…` for the XML namespace, the local name for a prefix bound to SVG; names in
    /// other namespaces keep a form no SVG attribute has.
    static func attribute(_ qualified: String, scope: [String: String]) -> String {
        let (prefix, local) = split(qualified)
        guard let prefix, prefix != "xmlns" else { return qualified }
        if prefix == "xml" { return qualified }
        switch scope[prefix] {
        case svg?: return local
        case xlink?: return "xlink:" + local
        case xml?: return "xml:" + local
        case nil:
            // Undeclared: the conventional prefixes keep their meaning.
            if prefix == "svg" { return local }
            return qualified
        case let other?: return "{\(other)}\(local)"
        }
    }

    private static func split(_ q: String) -> (String?, String) {
        guard let i = q.firstIndex(of: ":") else { return (nil, q) }
        return (String(q[..<i]), String(q[q.index(after: i)...]))
    }
}
