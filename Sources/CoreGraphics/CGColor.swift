/// Colour spaces. Only device-independent sRGB (and its gray counterpart) are modelled now:
/// the renderer composites in sRGB, as Core Animation does on iOS.
public final class CGColorSpace: Hashable, Sendable, CustomStringConvertible {
    /// Apple's colour space names are CFStrings; here they are plain strings.
    public static let sRGB: CFString = "kCGColorSpaceSRGB"
    public static let genericGrayGamma2_2: CFString = "kCGColorSpaceGenericGrayGamma2_2"
    public static let linearGray: CFString = "kCGColorSpaceLinearGray"
    public static let extendedSRGB: CFString = "kCGColorSpaceExtendedSRGB"

    public enum Model: Int32, Sendable { case monochrome = 0, rgb = 1 }

    public let name: CFString?
    public let model: Model
    public var numberOfComponents: Int { model == .rgb ? 3 : 1 }

    /// Returns nil for names that are not modelled here (Apple returns nil for unknown names).
    public init?(name: CFString) {
        switch name {
        case CGColorSpace.sRGB, CGColorSpace.extendedSRGB: model = .rgb
        case CGColorSpace.genericGrayGamma2_2, CGColorSpace.linearGray: model = .monochrome
        default: return nil
        }
        self.name = name
    }

    private init(name: CFString, model: Model) { self.name = name; self.model = model }

    static let srgbSpace = CGColorSpace(name: CGColorSpace.sRGB, model: .rgb)
    static let graySpace = CGColorSpace(name: CGColorSpace.genericGrayGamma2_2, model: .monochrome)

    public static func == (l: CGColorSpace, r: CGColorSpace) -> Bool { l.name == r.name && l.model == r.model }
    public func hash(into h: inout Hasher) { h.combine(name); h.combine(model) }
    public var description: String { "CGColorSpace(\(name ?? "unnamed"))" }
}

/// `CFString` on Linux is a Swift `String` (Apple bridges the two).
public typealias CFString = String

/// An immutable colour, as Apple's `CGColor`: components in a colour space plus alpha.
/// Apple's `CGColor` is a reference type; here it is a value (`Sendable`, `Hashable`), which
/// changes nothing for code that creates, compares and assigns colours. Components are stored
/// inline (no array) so interpolating colours every frame allocates nothing.
public struct CGColor: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline let c0: CGFloat, c1: CGFloat, c2: CGFloat, a: CGFloat
    @usableFromInline let isGray: Bool

    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        c0 = red; c1 = green; c2 = blue; a = alpha; isGray = false
    }

    public init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    public init(gray: CGFloat, alpha: CGFloat) {
        c0 = gray; c1 = gray; c2 = gray; a = alpha; isGray = true
    }

    /// `components` must hold the space's colour components followed by alpha.
    public init?(colorSpace space: CGColorSpace, components: UnsafePointer<CGFloat>) {
        let n = space.numberOfComponents + 1
        self.init(colorSpace: space, componentArray: Array(UnsafeBufferPointer(start: components, count: n)))
    }

    /// Extension beyond Apple's API: build from a Swift array (nil when the count does not
    /// match the colour space: 2 for gray, 4 for RGB).
    public init?(colorSpace space: CGColorSpace, componentArray c: [CGFloat]) {
        guard c.count == space.numberOfComponents + 1 else { return nil }
        if space.model == .monochrome { self.init(gray: c[0], alpha: c[1]) }
        else { self.init(red: c[0], green: c[1], blue: c[2], alpha: c[3]) }
    }

    public static let black = CGColor(gray: 0, alpha: 1)
    public static let white = CGColor(gray: 1, alpha: 1)
    public static let clear = CGColor(gray: 0, alpha: 0)

    /// The components, colour channels followed by alpha (4 for RGB, 2 for gray).
    public var components: [CGFloat]? { isGray ? [c0, a] : [c0, c1, c2, a] }
    public var colorSpace: CGColorSpace? { isGray ? CGColorSpace.graySpace : CGColorSpace.srgbSpace }
    public var numberOfComponents: Int { isGray ? 2 : 4 }
    public var alpha: CGFloat { a }

    /// A copy with a new alpha; Apple clamps alpha to [0, 1].
    public func copy(alpha: CGFloat) -> CGColor? {
        let na = alpha.isNaN ? 0 : Swift.min(Swift.max(alpha, 0), 1)
        return isGray ? CGColor(gray: c0, alpha: na) : CGColor(red: c0, green: c1, blue: c2, alpha: na)
    }

    /// Extension beyond Apple's API: straight (not premultiplied) sRGB red, green, blue, alpha;
    /// gray expands to equal channels. This is what interpolation and the renderer consume.
    @inlinable
    public var rgba: (red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) { (c0, c1, c2, a) }

    public var description: String {
        "CGColor(\(isGray ? "gray" : "sRGB"): \((components ?? []).map { "\($0)" }.joined(separator: ", ")))"
    }
}
