import CoreGraphics

/// A colour for Core Image filter parameters (`CIColorMonochrome`'s `inputColor`, `CIFalseColor`'s
/// two colours), as Apple's `CIColor`: red, green, blue and alpha, not premultiplied. Immutable.
public final class CIColor: @unchecked Sendable, CustomStringConvertible {
    public let red: CGFloat
    public let green: CGFloat
    public let blue: CGFloat
    public let alpha: CGFloat

    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat) { self.init(red: red, green: green, blue: blue, alpha: 1) }
    /// The colour's components as RGBA: grey colours (two components) are spread to RGB.
    public convenience init(cgColor c: CGColor) {
        let k = c.components ?? []
        if k.count >= 4 {
            self.init(red: k[0], green: k[1], blue: k[2], alpha: k[3])
        } else if k.count == 2 {
            self.init(red: k[0], green: k[0], blue: k[0], alpha: k[1])
        } else {
            self.init(red: 0, green: 0, blue: 0, alpha: 1)
        }
    }
    public var numberOfComponents: Int { 4 }
    public var components: [CGFloat] { [red, green, blue, alpha] }
    public var stringRepresentation: String { "\(red) \(green) \(blue) \(alpha)" }
    public var description: String { "CIColor(\(stringRepresentation))" }

    public static let black = CIColor(red: 0, green: 0, blue: 0)
    public static let white = CIColor(red: 1, green: 1, blue: 1)
    public static let clear = CIColor(red: 0, green: 0, blue: 0, alpha: 0)
    public static let red = CIColor(red: 1, green: 0, blue: 0)
    public static let green = CIColor(red: 0, green: 1, blue: 0)
    public static let blue = CIColor(red: 0, green: 0, blue: 1)
}
