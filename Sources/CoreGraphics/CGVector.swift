/// A two-dimensional vector, as Apple's `CGVector` (CoreGraphics/CGGeometry.h).
///
/// swift-corelibs-foundation on Linux defines `CGPoint`, `CGSize` and `CGRect` but not
/// `CGVector`, so it is provided here with Apple's spelling: stored `dx`/`dy`,
/// `init(dx:dy:)`, `init()` and `.zero`.
public struct CGVector: Hashable, Sendable, Codable, CustomStringConvertible {
    public var dx: CGFloat
    public var dy: CGFloat

    @inlinable
    public init(dx: CGFloat, dy: CGFloat) { self.dx = dx; self.dy = dy }

    @inlinable
    public init() { self.init(dx: 0, dy: 0) }

    /// Apple's Swift overlay also offers `Int` and `Double` initializers.
    @inlinable
    public init(dx: Int, dy: Int) { self.init(dx: CGFloat(dx), dy: CGFloat(dy)) }

    @inlinable
    public init(dx: Double, dy: Double) { self.init(dx: CGFloat(dx), dy: CGFloat(dy)) }

    public static let zero = CGVector(dx: 0, dy: 0)

    public var description: String { "(\(dx), \(dy))" }
}
