/// UIKit's `UIColor` (https://developer.apple.com/documentation/uikit/uicolor), holding the
/// `CGColor` Core Animation needs: `layer.backgroundColor = UIColor.red.cgColor` reads as on iOS.
///
/// Colours are immutable, as UIKit's are, so the class is `Sendable`. Two kinds exist, as in
/// UIKit: grayscale colours (`init(white:alpha:)`, `.black`, `.white`, `.gray`, `.darkGray`,
/// `.lightGray`, `.clear`) and RGB colours (everything else). Components are extended sRGB and
/// are not clamped (UIKit has accepted values outside 0…1 since iOS 10).
///
/// Differences from UIKit: no dynamic (light/dark) colours — the system colours are their
/// light-mode values (see `UIColor+System.swift`); no pattern, CIColor or Display P3 colour
/// spaces (`init(displayP3Red:…)` keeps the numbers as sRGB and logs a warning).
open class UIColor: Hashable, CustomStringConvertible, @unchecked Sendable {
    /// The Core Graphics colour (UIKit's `cgColor`). A value type in this project (see
    /// `CGColor`), which changes nothing for code that assigns it to a layer.
    public let cgColor: CGColor

    /// An RGB colour in the sRGB space (UIKit: extended sRGB; components are not clamped).
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        cgColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// A grayscale colour (UIKit: extended gray colour space).
    public init(white: CGFloat, alpha: CGFloat) {
        cgColor = CGColor(gray: white, alpha: alpha)
    }

    /// An RGB colour from hue, saturation and brightness (HSB = HSV), each 0…1; a hue of 1 is
    /// the same as 0 (red). UIKit documents the same ranges.
    public convenience init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
        let rgb = UIColor.hsbToRGB(hue: hue, saturation: saturation, brightness: brightness)
        self.init(red: rgb.red, green: rgb.green, blue: rgb.blue, alpha: alpha)
    }

    /// Wraps a Core Graphics colour as is.
    public init(cgColor: CGColor) {
        self.cgColor = cgColor
    }

    /// UIKit makes a Display P3 colour. This project renders sRGB only, so the components are
    /// taken as sRGB values (a P3 red shows as sRGB red, slightly less saturated than on a wide
    /// gamut iPhone screen); logs one warning.
    public convenience init(displayP3Red red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        CompatDiagnostics.warnOnce("UIColor(displayP3Red:green:blue:alpha:)",
                                   "is treated as sRGB: there is no Display P3 colour space here")
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// A copy with another alpha, in the same colour space (UIKit `withAlphaComponent(_:)`).
    open func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
        if isGrayscale {
            return UIColor(white: cgColor.rgba.red, alpha: alpha)
        }
        let c = cgColor.rgba
        return UIColor(red: c.red, green: c.green, blue: c.blue, alpha: alpha)
    }

    /// RGB components; always succeeds here (gray converts to equal channels, as UIKit does).
    /// Pointers may be nil, as in UIKit, to skip a component.
    @discardableResult
    open func getRed(_ red: UnsafeMutablePointer<CGFloat>?, green: UnsafeMutablePointer<CGFloat>?,
                     blue: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        let c = cgColor.rgba
        red?.pointee = c.red; green?.pointee = c.green; blue?.pointee = c.blue; alpha?.pointee = c.alpha
        return true
    }

    /// Hue, saturation, brightness (HSB) and alpha; always succeeds here (a gray colour has
    /// hue 0 and saturation 0). Hue is 0…1 (not degrees), as UIKit returns it.
    @discardableResult
    open func getHue(_ hue: UnsafeMutablePointer<CGFloat>?, saturation: UnsafeMutablePointer<CGFloat>?,
                     brightness: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        let c = cgColor.rgba
        let hsb = UIColor.rgbToHSB(red: c.red, green: c.green, blue: c.blue)
        hue?.pointee = hsb.hue; saturation?.pointee = hsb.saturation; brightness?.pointee = hsb.brightness
        alpha?.pointee = c.alpha
        return true
    }

    /// The gray level and alpha of a grayscale colour. For an RGB colour UIKit answers `false`
    /// and leaves the pointers alone (its documentation: "If the color is not in a compatible
    /// color space … the parameters are unchanged"; as far as we know an RGB colour is not
    /// compatible — written from memory of UIKit's behaviour, not checked on a device).
    @discardableResult
    open func getWhite(_ white: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        guard isGrayscale else { return false }
        let c = cgColor.rgba
        white?.pointee = c.red; alpha?.pointee = c.alpha
        return true
    }

    /// UIKit's `isEqual(_:)`: same colour space and equal components. As on iOS,
    /// `UIColor(white: 1, alpha: 1)` equals `.white` but `UIColor(red: 1, green: 1, blue: 1,
    /// alpha: 1)` does not (gray and RGB spaces differ).
    public static func == (lhs: UIColor, rhs: UIColor) -> Bool { lhs.cgColor == rhs.cgColor }
    /// NSObject's spelling of `==`, which UIKit code calls directly (`color.isEqual(other)`);
    /// false for anything that is not a `UIColor`.
    open func isEqual(_ object: Any?) -> Bool { (object as? UIColor).map { $0 == self } ?? false }
    public func hash(into hasher: inout Hasher) { hasher.combine(cgColor) }

    /// As UIKit prints a colour: `UIExtendedSRGBColorSpace 1 0 0 1` / `UIExtendedGrayColorSpace 0 1`.
    open var description: String {
        let comps = (cgColor.components ?? []).map { v -> String in
            v == v.rounded() ? String(Int(v)) : "\(v)"
        }.joined(separator: " ")
        return (isGrayscale ? "UIExtendedGrayColorSpace " : "UIExtendedSRGBColorSpace ") + comps
    }

    var isGrayscale: Bool { cgColor.numberOfComponents == 2 }

    // MARK: HSB conversion (the standard hexcone model, as UIKit documents HSB)

    static func hsbToRGB(hue: CGFloat, saturation s: CGFloat, brightness v: CGFloat)
        -> (red: CGFloat, green: CGFloat, blue: CGFloat) {
        guard s > 0 else { return (v, v, v) }
        var h = hue.truncatingRemainder(dividingBy: 1)
        if h < 0 { h += 1 }
        h *= 6
        let sector = min(Int(h), 5)
        let f = h - CGFloat(sector)
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        switch sector {
        case 0: return (v, t, p)
        case 1: return (q, v, p)
        case 2: return (p, v, t)
        case 3: return (p, q, v)
        case 4: return (t, p, v)
        default: return (v, p, q)
        }
    }

    static func rgbToHSB(red r: CGFloat, green g: CGFloat, blue b: CGFloat)
        -> (hue: CGFloat, saturation: CGFloat, brightness: CGFloat) {
        let maxC = max(r, g, b), minC = min(r, g, b), delta = maxC - minC
        let saturation = maxC > 0 ? delta / maxC : 0
        guard delta > 0 else { return (0, saturation, maxC) }
        var h: CGFloat
        if maxC == r { h = (g - b) / delta }
        else if maxC == g { h = 2 + (b - r) / delta }
        else { h = 4 + (r - g) / delta }
        h /= 6
        if h < 0 { h += 1 }
        return (h, saturation, maxC)
    }
}

// MARK: - Fixed colours

/// UIKit's fixed colours with the component values its documentation gives for each
/// (https://developer.apple.com/documentation/uikit/uicolor, "Fixed colors": e.g. `darkGray`
/// "grayscale value of 1/3 and an alpha value of 1.0", `orange` "RGB values are 1.0, 0.5, and
/// 0.0"). The grays, black, white and clear are grayscale colours as in UIKit.
extension UIColor {
    public static let black = UIColor(white: 0, alpha: 1)
    public static let darkGray = UIColor(white: 1.0 / 3.0, alpha: 1)
    public static let lightGray = UIColor(white: 2.0 / 3.0, alpha: 1)
    public static let white = UIColor(white: 1, alpha: 1)
    public static let gray = UIColor(white: 0.5, alpha: 1)
    public static let red = UIColor(red: 1, green: 0, blue: 0, alpha: 1)
    public static let green = UIColor(red: 0, green: 1, blue: 0, alpha: 1)
    public static let blue = UIColor(red: 0, green: 0, blue: 1, alpha: 1)
    public static let cyan = UIColor(red: 0, green: 1, blue: 1, alpha: 1)
    public static let yellow = UIColor(red: 1, green: 1, blue: 0, alpha: 1)
    public static let magenta = UIColor(red: 1, green: 0, blue: 1, alpha: 1)
    public static let orange = UIColor(red: 1, green: 0.5, blue: 0, alpha: 1)
    public static let purple = UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1)
    public static let brown = UIColor(red: 0.6, green: 0.4, blue: 0.2, alpha: 1)
    /// "grayscale and alpha values are both 0.0".
    public static let clear = UIColor(white: 0, alpha: 0)
}
