/// UIKit's geometry value types (UIGeometry.h):
/// https://developer.apple.com/documentation/uikit/uiedgeinsets,
/// https://developer.apple.com/documentation/uikit/uirectcorner,
/// https://developer.apple.com/documentation/uikit/uioffset.

/// Insets for each edge of a rectangle; positive values shrink it. `top` and `bottom` are in
/// UIKit's y-down sense (top = min y), which is also this project's layer space.
public struct UIEdgeInsets: Hashable, Sendable, CustomStringConvertible {
    public var top: CGFloat
    public var left: CGFloat
    public var bottom: CGFloat
    public var right: CGFloat

    /// All zero, as UIKit's `UIEdgeInsets()`.
    public init() { top = 0; left = 0; bottom = 0; right = 0 }

    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }

    public static let zero = UIEdgeInsets()

    /// As `NSStringFromUIEdgeInsets` prints them: `{top, left, bottom, right}`.
    public var description: String { "{\(top), \(left), \(bottom), \(right)}" }
}

extension CGRect {
    /// The rectangle shrunk by `insets` (UIKit's `CGRect.inset(by:)`, formerly
    /// `UIEdgeInsetsInsetRect`): origin moves by (left, top), size shrinks by (left + right,
    /// top + bottom). Like UIKit, the result is not standardised: insets larger than the
    /// rectangle give a negative size.
    public func inset(by insets: UIEdgeInsets) -> CGRect {
        CGRect(x: origin.x + insets.left, y: origin.y + insets.top,
               width: size.width - (insets.left + insets.right),
               height: size.height - (insets.top + insets.bottom))
    }
}

/// The corners of a rectangle, for `UIBezierPath(roundedRect:byRoundingCorners:cornerRadii:)`.
/// Raw values as UIKit's (`UIRectCornerTopLeft = 1 << 0` … `UIRectCornerAllCorners = ~0UL`).
/// "Top" is min y, as on a y-down UIKit screen.
public struct UIRectCorner: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let topLeft = UIRectCorner(rawValue: 1 << 0)
    public static let topRight = UIRectCorner(rawValue: 1 << 1)
    public static let bottomLeft = UIRectCorner(rawValue: 1 << 2)
    public static let bottomRight = UIRectCorner(rawValue: 1 << 3)
    public static let allCorners = UIRectCorner(rawValue: ~0)
}

/// A horizontal and vertical offset (UIKit's `UIOffset`).
public struct UIOffset: Hashable, Sendable, CustomStringConvertible {
    public var horizontal: CGFloat
    public var vertical: CGFloat

    public init() { horizontal = 0; vertical = 0 }
    public init(horizontal: CGFloat, vertical: CGFloat) {
        self.horizontal = horizontal; self.vertical = vertical
    }

    public static let zero = UIOffset()

    /// As `NSStringFromUIOffset` prints it: `{horizontal, vertical}`.
    public var description: String { "{\(horizontal), \(vertical)}" }
}
