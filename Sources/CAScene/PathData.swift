/// Path data as scenes write it (docs/SCENE-FORMAT.md, "Paths"): SVG path data with absolute
/// M, L, Q, C and Z only, one per `CGPath` element, so reading it back (through CASVG's SVG
/// path grammar) gives the same elements.
enum PathData {
    /// Absolute commands with numbers that read back exactly.
    static func format(_ elements: [PathElement]) -> String {
        func n(_ v: CGFloat) -> String { JSONWriter.number(Double(v)) }
        func p(_ q: CGPoint) -> String { "\(n(q.x)) \(n(q.y))" }
        return elements.map { e -> String in
            switch e {
            case .move(let a): return "M \(p(a))"
            case .line(let a): return "L \(p(a))"
            case .quad(let c, let a): return "Q \(p(c)) \(p(a))"
            case .cubic(let c1, let c2, let a): return "C \(p(c1)) \(p(c2)) \(p(a))"
            case .close: return "Z"
            }
        }.joined(separator: " ")
    }
}
