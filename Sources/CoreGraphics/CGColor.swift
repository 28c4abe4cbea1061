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
/// changes nothing for code that creates, compares and assigns colours.
public struct CGColor: Hashable, Sendable, CustomStringConvertible {
    /// The components, colour channels followed by alpha (4 for RGB, 2 for gray).
    public let components: [CGFloat]?
    public let colorSpace: CGColorSpace?

    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        components = [red, green, blue, alpha]
        colorSpace = CGColorSpace.srgbSpace
    }

    public init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    public init(gray: CGFloat, alpha: CGFloat) {
        components = [gray, alpha]
        colorSpace = CGColorSpace.graySpace
    }

    /// `components` must hold the space's colour components followed by alpha; any other
    /// count gives nil (Apple's initializer is failable for the same reason).
    public init?(colorSpace space: CGColorSpace, components: UnsafePointer<CGFloat>) {
        let n = space.numberOfComponents + 1
        self.components = Array(UnsafeBufferPointer(start: components, count: n))
        colorSpace = space
    }

    /// Extension beyond Apple's API: build from a Swift array (nil when the count is wrong).
    public init?(colorSpace space: CGColorSpace, componentArray: [CGFloat]) {
        guard componentArray.count == space.numberOfComponents + 1 else { return nil }
        components = componentArray
        colorSpace = space
    }

    public static let black = CGColor(gray: 0, alpha: 1)
    public static let white = CGColor(gray: 1, alpha: 1)
    public static let clear = CGColor(gray: 0, alpha: 0)

    public var numberOfComponents: Int { components?.count ?? 0 }
    public var alpha: CGFloat { components?.last ?? 1 }

    /// A copy with a new alpha; Apple clamps alpha to [0, 1].
    public func copy(alpha: CGFloat) -> CGColor? {
        guard var c = components, !c.isEmpty else { return nil }
        c[c.count - 1] = Swift.min(Swift.max(alpha, 0), 1)
        return CGColor(colorSpace: colorSpace ?? CGColorSpace.srgbSpace, componentArray: c)
    }

    /// Extension beyond Apple's API: straight (not premultiplied) sRGB red, green, blue, alpha;
    /// gray expands to equal channels. This is what interpolation and the renderer consume.
    public var rgba: (red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        guard let c = components else { return (0, 0, 0, 1) }
        if c.count == 2 { return (c[0], c[0], c[0], c[1]) }
        if c.count >= 4 { return (c[0], c[1], c[2], c[3]) }
        return (0, 0, 0, 1)
    }

    public var description: String {
        "CGColor(\(colorSpace?.name ?? "nil"): \((components ?? []).map { "\($0)" }.joined(separator: ", ")))"
    }
}
