import CoreGraphics
import Foundation

// The attribute names Core Text reads from an attributed string, with Apple's string values
// (the names Core Text and AppKit/UIKit share, such as "NSFont" and "NSKern", are the same key).
// On Apple platforms they are `CFString`s used as `NSAttributedString.Key(kCTFontAttributeName
// as String)`; the same spelling works here.

/// The run's `CTFont` (default Helvetica 12 pt).
public let kCTFontAttributeName: CFString = "NSFont"
/// The run's fill colour, a `CGColor` (default black).
public let kCTForegroundColorAttributeName: CFString = "CTForegroundColor"
/// Use the context's fill colour instead of the run's (a Boolean).
public let kCTForegroundColorFromContextAttributeName: CFString = "CTForegroundColorFromContext"
/// Extra space after each character, points; 0 turns the font's kerning off.
public let kCTKernAttributeName: CFString = "NSKern"
/// Extra space between all characters, points.
public let kCTTrackingAttributeName: CFString = "CTTracking"
/// 0: only required ligatures; 1: standard ligatures (default); 2: also discretionary ones.
public let kCTLigatureAttributeName: CFString = "NSLigature"
/// A `CTParagraphStyle`.
public let kCTParagraphStyleAttributeName: CFString = "NSParagraphStyle"
/// Stroke width in percent of the font size: positive strokes only, negative fills and strokes.
public let kCTStrokeWidthAttributeName: CFString = "NSStrokeWidth"
/// Stroke colour, a `CGColor` (default: the foreground colour).
public let kCTStrokeColorAttributeName: CFString = "CTStrokeColor"
/// Underline style (`CTUnderlineStyle` raw value: single, thick, double).
public let kCTUnderlineStyleAttributeName: CFString = "NSUnderline"
/// Underline colour, a `CGColor` (default: the foreground colour).
public let kCTUnderlineColorAttributeName: CFString = "CTUnderlineColor"
/// Superscript level; not applied here (warns once).
public let kCTSuperscriptAttributeName: CFString = "NSSuperScript"
/// Baseline shift of the run, points, positive up.
public let kCTBaselineOffsetAttributeName: CFString = "CTBaselineOffset"
/// BCP 47 language of the run, for shaping (e.g. "sr" picks Serbian forms where fonts have them).
public let kCTLanguageAttributeName: CFString = "NSLanguage"
/// Explicit embedding/override directions; not applied here (warns once).
public let kCTWritingDirectionAttributeName: CFString = "NSWritingDirection"
/// Vertical glyph forms; not applied here (warns once).
public let kCTVerticalFormsAttributeName: CFString = "CTVerticalForms"

/// OpenType features to turn on for the run, an array of HarfBuzz feature strings ("smcp",
/// "onum=1"): not an Apple attribute (Core Text takes features on the font descriptor,
/// `kCTFontFeatureSettingsAttribute`); the package's own importers (CASVG's `font-variant`) use
/// it. Strings HarfBuzz does not parse are skipped.
package let caOpenTypeFeaturesAttributeName: CFString = "CAOpenTypeFeatures"

/// Underline styles (`CTUnderlineStyle`).
public struct CTUnderlineStyle: OptionSet, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let single = CTUnderlineStyle(rawValue: 0x01)
    public static let thick = CTUnderlineStyle(rawValue: 0x02)
    public static let double = CTUnderlineStyle(rawValue: 0x09)
}

/// Values an attribute may be given in: Core Text takes CFNumbers, which Swift code writes
/// as Double, CGFloat, Int, Float or NSNumber.
package func attributeNumber(_ v: Any?) -> Double? {
    switch v {
    case let d as Double: return d
    case let f as Float: return Double(f)
    case let i as Int: return Double(i)
    case let n as NSNumber: return n.doubleValue
    case let b as Bool: return b ? 1 : 0
    default: return nil
    }
}

/// A run's attributes as the layout reads them, resolved once per attribute span.
package struct TextAttributes {
    package var font: CTFont
    package var color: CGColor?
    package var colorFromContext = false
    package var kern: Double?
    package var tracking: Double = 0
    package var ligature: Int = 1
    package var baselineOffset: Double = 0
    package var language: String?
    /// `caOpenTypeFeaturesAttributeName`'s feature strings (at most 32 kept).
    package var features: [String] = []
    package var paragraphStyle: CTParagraphStyle?
    /// The attributes as given, for `CTRunGetAttributes`.
    package var raw: [AnyHashable: Any]

    /// The names Core Text here reads; any other attribute warns once (no silent gaps).
    static let understood: Set<String> = [
        kCTFontAttributeName, kCTForegroundColorAttributeName, kCTForegroundColorFromContextAttributeName,
        kCTKernAttributeName, kCTTrackingAttributeName, kCTLigatureAttributeName, kCTParagraphStyleAttributeName,
        kCTBaselineOffsetAttributeName, kCTLanguageAttributeName, caOpenTypeFeaturesAttributeName, "NSColor", "NSBaselineOffset", "NSTracking",
        // Read when drawing (CTDraw.swift).
        kCTStrokeWidthAttributeName, kCTStrokeColorAttributeName, "NSStrokeColor",
        kCTUnderlineStyleAttributeName, kCTUnderlineColorAttributeName, "NSUnderlineColor",
    ]

    package init(_ attrs: [NSAttributedString.Key: Any], defaultFont: () -> CTFont) {
        var raw: [AnyHashable: Any] = [:]
        for (k, v) in attrs { raw[k.rawValue] = v }
        self.raw = raw
        let f = attrs[NSAttributedString.Key(kCTFontAttributeName)]
        if let font = f as? CTFont {
            self.font = font
        } else {
            if f != nil { TextDiagnostics.warnOnce("attribute \(kCTFontAttributeName) holds \(type(of: f!)), not a CTFont; Helvetica 12 pt is used") }
            self.font = defaultFont()
        }
        raw[kCTFontAttributeName] = font
        let colorValue = attrs[NSAttributedString.Key(kCTForegroundColorAttributeName)] ?? attrs[NSAttributedString.Key("NSColor")]
        if let c = colorValue as? CGColor { color = c }
        else if let c = colorValue as? CGColorConvertible { color = c.textCGColor }
        else if let v = colorValue { TextDiagnostics.warnOnce("foreground colour of type \(type(of: v)) is not a CGColor; black is used") }
        colorFromContext = attributeNumber(attrs[NSAttributedString.Key(kCTForegroundColorFromContextAttributeName)]).map { $0 != 0 } ?? false
        if let k = attributeNumber(attrs[NSAttributedString.Key(kCTKernAttributeName)]), k.isFinite { kern = max(-1e4, min(1e4, k)) }
        if let t = attributeNumber(attrs[NSAttributedString.Key(kCTTrackingAttributeName)] ?? attrs[NSAttributedString.Key("NSTracking")]),
           t.isFinite { tracking = max(-1e4, min(1e4, t)) }
        if let l = attributeNumber(attrs[NSAttributedString.Key(kCTLigatureAttributeName)]), l.isFinite { ligature = Int(max(0, min(2, l))) }
        if let b = attributeNumber(attrs[NSAttributedString.Key(kCTBaselineOffsetAttributeName)] ?? attrs[NSAttributedString.Key("NSBaselineOffset")]),
           b.isFinite { baselineOffset = max(-1e5, min(1e5, b)) }
        language = attrs[NSAttributedString.Key(kCTLanguageAttributeName)] as? String
        if let f = attrs[NSAttributedString.Key(caOpenTypeFeaturesAttributeName)] as? [String] {
            features = Array(f.prefix(32).map { String($0.prefix(64)) })
        }
        paragraphStyle = attrs[NSAttributedString.Key(kCTParagraphStyleAttributeName)] as? CTParagraphStyle
        for k in attrs.keys where !Self.understood.contains(k.rawValue) {
            TextDiagnostics.warnOnce("attribute \(k.rawValue) is not supported and has no effect")
        }
    }
}

/// A colour type that can give a `CGColor` for text (extension beyond Apple's API: lets
/// UIKitCompat's `UIColor`, stored under UIKit's "NSColor" key, colour Core Text runs).
package protocol CGColorConvertible {
    var textCGColor: CGColor { get }
}
