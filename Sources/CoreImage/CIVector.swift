import CoreGraphics

/// A vector of floating-point values, as Core Image's `CIVector`: filter parameters such as
/// `CIColorMatrix`'s `inputRVector` or `CIPixellate`'s `inputCenter`. Immutable, like Apple's.
public final class CIVector: @unchecked Sendable, CustomStringConvertible {
    private let values: [CGFloat]

    public init(values: UnsafePointer<CGFloat>, count: Int) {
        self.values = Array(UnsafeBufferPointer(start: values, count: max(count, 0)))
    }
    public init(x: CGFloat) { values = [x] }
    public init(x: CGFloat, y: CGFloat) { values = [x, y] }
    public init(x: CGFloat, y: CGFloat, z: CGFloat) { values = [x, y, z] }
    public init(x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) { values = [x, y, z, w] }
    public convenience init(cgPoint p: CGPoint) { self.init(x: p.x, y: p.y) }
    /// Origin x, y, then width and height (Apple's layout for a rectangle).
    public convenience init(cgRect r: CGRect) { self.init(x: r.origin.x, y: r.origin.y, z: r.size.width, w: r.size.height) }
    /// Apple's string form: "[x y z]".
    public convenience init(string representation: String) {
        let parts = representation.split(whereSeparator: { "[] ,".contains($0) }).compactMap { Double($0) }.map { CGFloat($0) }
        self.init(array: parts)
    }
    /// Extension beyond Apple's API: a vector from a Swift array.
    package init(array: [CGFloat]) { values = array }

    public var count: Int { values.count }
    /// The value at `index`, 0 past the end (as Apple's).
    public func value(at index: Int) -> CGFloat { values.indices.contains(index) ? values[index] : 0 }
    public var x: CGFloat { value(at: 0) }
    public var y: CGFloat { value(at: 1) }
    public var z: CGFloat { value(at: 2) }
    public var w: CGFloat { value(at: 3) }
    public var cgPointValue: CGPoint { CGPoint(x: x, y: y) }
    public var cgRectValue: CGRect { CGRect(x: x, y: y, width: z, height: w) }
    public var stringRepresentation: String { "[" + values.map { "\($0)" }.joined(separator: " ") + "]" }
    public var description: String { "CIVector \(stringRepresentation)" }
}
