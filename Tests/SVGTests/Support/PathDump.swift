import Testing
import Foundation

/// A path as text, one element per entry ("M 0 0", "L 10 0", "Q …", "C …", "Z"), with
/// coordinates rounded to 1e-4 so arc conversions compare exactly.
func dump(_ path: CGPath?) -> [String] {
    guard let path else { return [] }
    var out: [String] = []
    func f(_ v: CGFloat) -> String {
        let r = (Double(v) * 10000).rounded() / 10000
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
    path.applyWithBlock { p in
        let e = p.pointee
        func pts(_ n: Int) -> String { (0..<n).map { "\(f(e.points[$0].x)) \(f(e.points[$0].y))" }.joined(separator: " ") }
        switch e.type {
        case .moveToPoint: out.append("M " + pts(1))
        case .addLineToPoint: out.append("L " + pts(1))
        case .addQuadCurveToPoint: out.append("Q " + pts(2))
        case .addCurveToPoint: out.append("C " + pts(3))
        case .closeSubpath: out.append("Z")
        @unknown default: out.append("?")
        }
    }
    return out
}

/// All layers of a tree, depth first, masks included (after their owner).
func allLayers(_ root: CALayer) -> [CALayer] {
    var out: [CALayer] = []
    var stack = [root]
    while let l = stack.popLast() {
        out.append(l)
        if let m = l.mask { stack.append(m) }
        stack.append(contentsOf: (l.sublayers ?? []).reversed())
    }
    return out
}

func shapeLayers(_ root: CALayer) -> [CAShapeLayer] { allLayers(root).compactMap { $0 as? CAShapeLayer } }

/// Where a layer-local point lands in the root layer's space (affine layers only).
func rootPoint(_ p: CGPoint, in layer: CALayer, root: CALayer) -> CGPoint {
    layer.convert(p, to: root)
}

/// The union of a document's shape-layer paths in its user space (the text tests' ink box;
/// empty paths skipped, turned layers measured by their corners).
func inkBox(_ doc: SVGDocument) -> CGRect {
    var box = CGRect.null
    for l in shapeLayers(doc.layer) {
        guard let p = l.path, !p.isEmpty else { continue }
        let b = p.boundingBoxOfPath
        let o = rootPoint(b.origin, in: l, root: doc.layer)
        let e = rootPoint(CGPoint(x: b.maxX, y: b.maxY), in: l, root: doc.layer)
        box = box.union(CGRect(x: min(o.x, e.x), y: min(o.y, e.y), width: abs(e.x - o.x), height: abs(e.y - o.y)))
    }
    return box
}

func rgba(_ c: CGColor?) -> [Double] {
    guard let c, let comps = c.components else { return [] }
    let v = comps.count == 2 ? [comps[0], comps[0], comps[0], comps[1]] : comps
    return v.map { (Double($0) * 1000).rounded() / 1000 }
}

func svg(_ body: String, viewBox: String = "0 0 100 100", extra: String = "") throws -> SVGDocument {
    try SVGDocument(string: "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" viewBox=\"\(viewBox)\" \(extra)>\(body)</svg>")
}
