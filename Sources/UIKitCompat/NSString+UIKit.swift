import Foundation

/// UIKit's attributed-string keys for fonts and colours (declared by UIKit on iOS, in
/// NSAttributedString+UIKitAdditions; swift-corelibs-foundation has none of them). Raw values
/// are UIKit's, so attribute dictionaries built by ported code read the same. Only the keys
/// Core Animation code commonly puts in a `CATextLayer`'s attributed string are here.
extension NSAttributedString.Key {
    /// A `UIFont`; UIKit's default is Helvetica 12 pt.
    public static var font: NSAttributedString.Key { NSAttributedString.Key("NSFont") }
    /// A `UIColor`; UIKit's default is black.
    public static var foregroundColor: NSAttributedString.Key { NSAttributedString.Key("NSColor") }
    /// A `UIColor`; UIKit's default is none.
    public static var backgroundColor: NSAttributedString.Key { NSAttributedString.Key("NSBackgroundColor") }
    /// Extra spacing between characters, in points (a number).
    public static var kern: NSAttributedString.Key { NSAttributedString.Key("NSKern") }
}

/// UIKit's string measuring and drawing (NSString(UIKitAdditions), reachable from `String` as
/// on iOS). There is no text layout or rendering in this project: sizes are estimates from the
/// font's point size, drawing draws nothing, and the font gets its one warning (see `UIFont`).
extension NSString {
    /// Estimated: 0.55 × point size per character (plus `kern`), one line of the font's
    /// `lineHeight` per line. Logs the font's warning the first time.
    public func size(withAttributes attrs: [NSAttributedString.Key: Any]? = nil) -> CGSize {
        String(self).size(withAttributes: attrs)
    }

    /// Draws nothing (no UIGraphics context, no text rendering); logs the font's warning.
    public func draw(at point: CGPoint, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
        String(self).draw(at: point, withAttributes: attrs)
    }

    /// Draws nothing (no UIGraphics context, no text rendering); logs the font's warning.
    public func draw(in rect: CGRect, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
        String(self).draw(in: rect, withAttributes: attrs)
    }
}

extension String {
    /// See `NSString.size(withAttributes:)`.
    public func size(withAttributes attrs: [NSAttributedString.Key: Any]? = nil) -> CGSize {
        let font = UIKitText.font(attrs)
        font.usedForLayout("size(withAttributes:)")
        let kern = (attrs?[.kern] as? CGFloat) ?? (attrs?[.kern] as? Double).map { CGFloat($0) } ?? 0
        let lines = split(separator: "\n", omittingEmptySubsequences: false)
        let widest = lines.map { $0.count }.max() ?? 0
        let width = CGFloat(widest) * (font.pointSize * 0.55 + kern)
        let lineHeight = (font.pointSize * 1.193).rounded(.up)
        return CGSize(width: width.rounded(.up), height: lineHeight * CGFloat(max(lines.count, 1)))
    }

    /// See `NSString.draw(at:withAttributes:)`.
    public func draw(at point: CGPoint, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
        UIKitText.font(attrs).usedForLayout("draw(at:withAttributes:)")
        CompatDiagnostics.warnOnce("String.draw(at:withAttributes:)", "draws nothing: there is no text rendering or UIGraphics context (a CATextLayer holds text but draws no glyphs either)")
    }

    /// See `NSString.draw(in:withAttributes:)`.
    public func draw(in rect: CGRect, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
        UIKitText.font(attrs).usedForLayout("draw(in:withAttributes:)")
        CompatDiagnostics.warnOnce("String.draw(in:withAttributes:)", "draws nothing: there is no text rendering or UIGraphics context (a CATextLayer holds text but draws no glyphs either)")
    }
}

enum UIKitText {
    /// The attributes' font, or UIKit's default for attributed strings, Helvetica 12 pt.
    static func font(_ attrs: [NSAttributedString.Key: Any]?) -> UIFont {
        (attrs?[.font] as? UIFont) ?? UIFont(name: "Helvetica", size: 12)!
    }
}
