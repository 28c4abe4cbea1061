import Foundation

/// `viewBox` and `preserveAspectRatio` (SVG 1.1 §7.7, §7.8): the transform from the viewBox
/// into a viewport of the given size.
package struct SVGAspectRatio: Equatable {
    enum Align: Equatable { case none, min, mid, max }
    var x = Align.mid
    var y = Align.mid
    var slice = false

    package init() {}

    package static func parse(_ s: String?) -> SVGAspectRatio? {
        guard let s else { return SVGAspectRatio() }
        var words = s.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "," }).map(String.init)
        if words.first == "defer" { words.removeFirst() }
        guard let align = words.first else { return nil }
        var r = SVGAspectRatio()
        if align == "none" {
            r.x = .none; r.y = .none
        } else {
            guard align.count == 8 else { return nil }
            func part(_ p: Substring) -> Align? { p == "Min" ? .min : p == "Mid" ? .mid : p == "Max" ? .max : nil }
            let a = Array(align)
            guard a[0] == "x", a[4] == "Y", let x = part(Substring(String(a[1...3]))), let y = part(Substring(String(a[5...7]))) else { return nil }
            r.x = x; r.y = y
        }
        if words.count > 1 {
            switch words[1] { case "meet": r.slice = false; case "slice": r.slice = true; default: return nil }
        }
        return r
    }

    /// viewBox → viewport (SVG 1.1 §7.8's steps).
    package func transform(viewBox vb: CGRect, viewport: CGSize) -> CGAffineTransform {
        var sx = viewport.width / vb.width, sy = viewport.height / vb.height
        if x != .none {
            let s = slice ? max(sx, sy) : min(sx, sy)
            sx = s; sy = s
        }
        var tx = -vb.minX * sx, ty = -vb.minY * sy
        let extraX = viewport.width - vb.width * sx, extraY = viewport.height - vb.height * sy
        switch x { case .mid: tx += extraX / 2; case .max: tx += extraX; default: break }
        switch y { case .mid: ty += extraY / 2; case .max: ty += extraY; default: break }
        return CGAffineTransform(a: sx, b: 0, c: 0, d: sy, tx: tx, ty: ty)
    }

    /// A `viewBox` attribute: four numbers with positive width and height, else nil.
    package static func viewBox(_ s: String?) -> CGRect? {
        guard let s else { return nil }
        let (v, ok) = SVGScanner.numberList(s)
        guard ok, v.count == 4, v.allSatisfy(\.isFinite), v[2] > 0, v[3] > 0 else { return nil }
        return CGRect(x: v[0], y: v[1], width: v[2], height: v[3])
    }
}
