/// A path element as seen through the public `applyWithBlock(_:)`.
struct Element: Equatable, CustomStringConvertible {
    var type: CGPathElementType
    var points: [CGPoint]

    static func move(_ x: CGFloat, _ y: CGFloat) -> Element { Element(type: .moveToPoint, points: [CGPoint(x: x, y: y)]) }
    static func line(_ x: CGFloat, _ y: CGFloat) -> Element { Element(type: .addLineToPoint, points: [CGPoint(x: x, y: y)]) }
    static let close = Element(type: .closeSubpath, points: [])

    var description: String { "\(type)\(points.map { "(\($0.x), \($0.y))" })" }
}

func elements(of path: CGPath) -> [Element] {
    var out: [Element] = []
    path.applyWithBlock { e in
        let n: Int
        switch e.pointee.type {
        case .moveToPoint, .addLineToPoint: n = 1
        case .addQuadCurveToPoint: n = 2
        case .addCurveToPoint: n = 3
        case .closeSubpath: n = 0
        }
        out.append(Element(type: e.pointee.type, points: (0..<n).map { e.pointee.points[$0] }))
    }
    return out
}

func types(of path: CGPath) -> [CGPathElementType] { elements(of: path).map(\.type) }
