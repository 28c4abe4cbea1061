import CoreGraphics

/// A path element as seen through the public `applyWithBlock(_:)`, for tests of path building
/// (CoreGraphics, UIKitCompat).
package struct Element: Equatable, CustomStringConvertible {
    package var type: CGPathElementType
    package var points: [CGPoint]
    /// Where the element ends (none for a close).
    package var end: CGPoint? { points.last }

    package init(type: CGPathElementType, points: [CGPoint]) { self.type = type; self.points = points }

    package static func move(_ x: CGFloat, _ y: CGFloat) -> Element { Element(type: .moveToPoint, points: [CGPoint(x: x, y: y)]) }
    package static func line(_ x: CGFloat, _ y: CGFloat) -> Element { Element(type: .addLineToPoint, points: [CGPoint(x: x, y: y)]) }
    package static let close = Element(type: .closeSubpath, points: [])

    package var description: String { "\(type)\(points.map { "(\($0.x), \($0.y))" })" }
}

package func elements(of path: CGPath) -> [Element] {
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

package func types(of path: CGPath) -> [CGPathElementType] { elements(of: path).map(\.type) }
