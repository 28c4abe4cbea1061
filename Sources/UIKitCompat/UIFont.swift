
/// UIKit's `UIFont` (https://developer.apple.com/documentation/uikit/uifont): a font name and
/// a point size, so code that builds fonts (for a `CATextLayer`, say) compiles and keeps them.
///
/// There is no text rendering in this project yet, and no font database. So:
/// - `init?(name:size:)` accepts any non-empty name (UIKit returns nil for a font it does not
///   have; there is nothing to check against here);
/// - the metrics (`lineHeight`, `ascender`, `descender`, `capHeight`, `xHeight`, `leading`)
///   are estimates from the point size (proportions of Apple's San Francisco font), and the
///   first time a font is used for text layout this way one warning naming it is logged;
/// - nothing draws text with it (a `CATextLayer` holding it draws in Helvetica and warns; give
///   it a Core Text `CTFont` or a font name instead, docs/TEXT.md).
open class UIFont: Hashable, CustomStringConvertible, @unchecked Sendable {
    /// UIKit's `UIFont.Weight`, with UIKit's raw values (UIFontWeightUltraLight = -0.8 …
    /// UIFontWeightBlack = 0.62, UIFontDescriptor.h).
    public struct Weight: RawRepresentable, Hashable, Sendable {
        public var rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        public init(_ rawValue: CGFloat) { self.rawValue = rawValue }

        public static let ultraLight = Weight(-0.8)
        public static let thin = Weight(-0.6)
        public static let light = Weight(-0.4)
        public static let regular = Weight(0)
        public static let medium = Weight(0.23)
        public static let semibold = Weight(0.3)
        public static let bold = Weight(0.4)
        public static let heavy = Weight(0.56)
        public static let black = Weight(0.62)
    }

    /// The PostScript-style name (`"Helvetica-Bold"`; `".SFUI-Regular"` for the system font).
    public let fontName: String
    /// The family (`"Helvetica"`; `".AppleSystemUIFont"` for the system font).
    public let familyName: String
    /// The size in points.
    public let pointSize: CGFloat

    private init(fontName: String, familyName: String, pointSize: CGFloat) {
        self.fontName = fontName
        self.familyName = familyName
        self.pointSize = pointSize
    }

    /// A font by name and size. Any non-empty name is accepted (see the class comment). The
    /// family is the name up to its first `-` (`"Avenir-Heavy"` → `"Avenir"`), an estimate.
    /// A size that is not positive and finite becomes 12 (UIKit uses its default size for 0).
    public convenience init?(name fontName: String, size fontSize: CGFloat) {
        guard !fontName.isEmpty else { return nil }
        let family = fontName.split(separator: "-", maxSplits: 1).first.map(String.init) ?? fontName
        self.init(fontName: fontName, familyName: family, pointSize: UIFont.sanitised(fontSize))
    }

    /// The system font (San Francisco on iOS) at `fontSize`.
    open class func systemFont(ofSize fontSize: CGFloat) -> UIFont {
        systemFont(ofSize: fontSize, weight: .regular)
    }

    /// The bold system font. Its name here is `.SFUI-Semibold`, as iOS reports for
    /// `boldSystemFont(ofSize:)` as far as we know (written from memory, not checked).
    open class func boldSystemFont(ofSize fontSize: CGFloat) -> UIFont {
        UIFont(fontName: ".SFUI-Semibold", familyName: ".AppleSystemUIFont", pointSize: sanitised(fontSize))
    }

    /// The italic system font.
    open class func italicSystemFont(ofSize fontSize: CGFloat) -> UIFont {
        UIFont(fontName: ".SFUI-RegularItalic", familyName: ".AppleSystemUIFont", pointSize: sanitised(fontSize))
    }

    /// The system font at a weight; the name follows iOS's `.SFUI-<Weight>` pattern.
    open class func systemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        let names: [(Weight, String)] = [
            (.ultraLight, "Ultralight"), (.thin, "Thin"), (.light, "Light"), (.regular, "Regular"),
            (.medium, "Medium"), (.semibold, "Semibold"), (.bold, "Bold"), (.heavy, "Heavy"), (.black, "Black"),
        ]
        // The nearest named weight.
        let name = names.min { abs($0.0.rawValue - weight.rawValue) < abs($1.0.rawValue - weight.rawValue) }!.1
        return UIFont(fontName: ".SFUI-\(name)", familyName: ".AppleSystemUIFont", pointSize: sanitised(fontSize))
    }

    /// The same font at another size.
    open func withSize(_ fontSize: CGFloat) -> UIFont {
        UIFont(fontName: fontName, familyName: familyName, pointSize: UIFont.sanitised(fontSize))
    }

    // MARK: Metrics (estimates; text layout is not reproduced)

    /// Estimated: 1.19 × point size (San Francisco's line height). Logs one warning per font.
    open var lineHeight: CGFloat { usedForLayout("lineHeight"); return (pointSize * 1.193).rounded(.up) }
    /// Estimated: 0.952 × point size. Logs one warning per font.
    open var ascender: CGFloat { usedForLayout("ascender"); return pointSize * 0.952 }
    /// Estimated: −0.241 × point size (negative, below the baseline). Logs one warning per font.
    open var descender: CGFloat { usedForLayout("descender"); return -pointSize * 0.241 }
    /// Estimated: 0.705 × point size. Logs one warning per font.
    open var capHeight: CGFloat { usedForLayout("capHeight"); return pointSize * 0.705 }
    /// Estimated: 0.528 × point size. Logs one warning per font.
    open var xHeight: CGFloat { usedForLayout("xHeight"); return pointSize * 0.528 }
    /// 0, as UIKit reports for the system font. Logs one warning per font.
    open var leading: CGFloat { usedForLayout("leading"); return 0 }

    /// Equal name and size (UIKit's `isEqual(_:)` compares the font descriptor).
    public static func == (lhs: UIFont, rhs: UIFont) -> Bool {
        lhs.fontName == rhs.fontName && lhs.pointSize == rhs.pointSize
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(fontName); hasher.combine(pointSize) }
    /// NSObject's spelling of `==` (`font.isEqual(other)`); false for anything not a `UIFont`.
    open func isEqual(_ object: Any?) -> Bool { (object as? UIFont).map { $0 == self } ?? false }

    open var description: String { "<UIFont: font-family: \"\(familyName)\"; font-size: \(pointSize)pt; name: \(fontName)>" }

    /// The warning of the class comment: one per font (name and size), naming the first use.
    func usedForLayout(_ what: String) {
        let key = "\(fontName) \(pointSize)"
        let isFirst = UIFont.warnedFonts.withLock { $0.insert(key).inserted }
        guard isFirst else { return }
        CompatDiagnostics.warnOnce("UIFont \"\(fontName)\" \(pointSize) pt",
                                   "is used for text layout or drawing (first: \(what)), but there is no text rendering here: metrics are estimates and no glyphs are drawn")
    }

    private static let warnedFonts = Locked<Set<String>>([])

    private static func sanitised(_ size: CGFloat) -> CGFloat {
        size.isFinite && size > 0 ? size : 12
    }
}
