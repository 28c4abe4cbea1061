import Testing
import Foundation
@testable import CoreAnimation
@testable import CoreText

/// swift-corelibs-foundation's `NSAttributedString` never releases the attribute values it
/// stores (swiftlang/swift-corelibs-foundation#5256; docs/SECURITY.md). `CATextLayer` used to
/// build one per display, so every display of a layer whose font came from data kept that
/// font's whole face (file bytes included) alive for ever. Core Text and CATextLayer now lay out
/// from `AttributedText` values; these tests watch the font faces through weak references.
/// Noto Sans from the shared test fonts, as bytes (nil without them).
private let retentionFontData: Data? = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return [root.deletingLastPathComponent().appendingPathComponent("shared/corpora/fonts/NotoSans-Regular.ttf"),
            URL(fileURLWithPath: "/work/shared/corpora/fonts/NotoSans-Regular.ttf")]
        .lazy.compactMap { try? Data(contentsOf: $0) }.first
}()

@Suite(.enabled(if: retentionFontData != nil, "test fonts not found (../shared/corpora/fonts)"))
struct CATextLayerRetentionTests {
    /// A font face made from data, reachable only through what the caller keeps.
    private static func freshFont() throws -> CGFont {
        let data = try #require(retentionFontData)
        return try #require(CGFont(CGDataProvider(data: data as CFData)!))
    }

    /// Displays a text layer `displays` times (each at another font size, so each display lays
    /// out anew with a new `CTFont`) with `string` and a font made from data; returns a weak
    /// probe on that font's face once the layer and font are gone.
    private static func displayRepeatedly(_ string: (CTFont) -> Any, displays: Int) throws -> () -> Bool {
        weak var probe: FontFace?
        try {
            let font = try freshFont()
            probe = font.face
            let layer = CATextLayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 200, height: 60)
            layer.font = font
            layer.string = string(CTFontCreateWithGraphicsFont(font, 20, nil, nil))
            for k in 0..<displays {
                layer.fontSize = CGFloat(20 + k)
                layer.display()
                #expect(layer.contents is CGImage)
            }
        }()
        // The implicit transaction holds the layer until it is flushed.
        return { CATransaction.flush(); return probe != nil }
    }

    @Test("Repeated displays of a plain string keep no font face alive once the layer is gone (upstream #5256 workaround)")
    func plainStringReleasesFont() throws {
        var alive = 0
        for _ in 0..<3 { if try Self.displayRepeatedly({ _ in "Hello, world" }, displays: 20)() { alive += 1 } }
        #expect(alive == 0)
    }

    @Test("A user's NSAttributedString without a font: the layer's font is added without a new NSAttributedString, and released")
    func attributedStringWithoutFontReleasesLayerFont() throws {
        let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let user = NSAttributedString(string: "Hello", attributes: [NSAttributedString.Key(kCTForegroundColorAttributeName): blue])
        var alive = 0
        for _ in 0..<3 { if try Self.displayRepeatedly({ _ in user }, displays: 20)() { alive += 1 } }
        #expect(alive == 0)
    }

    @Test("Wrapped text truncated at its last line (the truncation path) keeps no font face alive")
    func truncationReleasesFont() throws {
        weak var probe: FontFace?
        try {
            let font = try Self.freshFont()
            probe = font.face
            let layer = CATextLayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 80, height: 30)
            layer.font = font
            layer.isWrapped = true
            layer.truncationMode = .middle
            layer.string = String(repeating: "words that wrap ", count: 20)
            for k in 0..<10 { layer.fontSize = CGFloat(12 + k); layer.display() }
            // Core Text's own truncation too (CTLineCreateTruncatedLine builds its result line).
            let ct = CTFontCreateWithGraphicsFont(font, 14, nil, nil)
            let line = CTLineCreate(AttributedText(string: "a long line to truncate", attributes: [NSAttributedString.Key(kCTFontAttributeName): ct]))
            #expect(CTLineCreateTruncatedLine(line, 40, .end, nil) != nil)
        }()
        CATransaction.flush()   // the implicit transaction held the layer
        #expect(probe == nil)
    }

    /// The probe can see the retention: an `NSAttributedString` holding the font keeps it, which
    /// is the upstream bug the workaround avoids. When this fails, Foundation releases its
    /// values again (#5256 merged): the SECURITY.md note can go.
    @Test("Control: a font stored in an NSAttributedString stays alive (swift-corelibs-foundation #5256, still open)")
    func nsAttributedStringRetains() throws {
        weak var probe: FontFace?
        try {
            let font = try Self.freshFont()
            probe = font.face
            let ct = CTFontCreateWithGraphicsFont(font, 20, nil, nil)
            let s = NSAttributedString(string: "Hello", attributes: [NSAttributedString.Key(kCTFontAttributeName): ct])
            #expect(s.length == 5)
        }()
        #expect(probe != nil)
    }
}
