// libFuzzer target: a font file of arbitrary bytes, loaded as an app loads one from data
// (`CGFont(_:)` over a data provider, FreeType underneath), then shaped and measured (HarfBuzz)
// and its glyph outlines taken, as drawing a line of text does. nil is a normal answer.
import CFuzzDriver
import CoreGraphics
import CoreText
import Foundation

// Latin with ligature and kerning pairs, marks, and a right-to-left word: the font's own GSUB,
// GPOS and kern tables are read for what it covers (the rest falls back to installed fonts).
let sample = "Hello, fi ffl Ta AV 0123 — ÅÉ ß e\u{301} مرحبا"

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let data = bytes.map { Data(bytes: $0, count: size) } ?? Data()
    guard let provider = CGDataProvider(data: data as CFData), let cgFont = CGFont(provider) else { return 0 }
    let font = CTFontCreateWithGraphicsFont(cgFont, 24, nil, nil)
    let attributed = NSAttributedString(string: sample, attributes: [NSAttributedString.Key(kCTFontAttributeName): font])
    let line = CTLineCreateWithAttributedString(attributed)
    _ = CTLineGetTypographicBounds(line, nil, nil, nil)
    for run in CTLineGetGlyphRuns(line) as! [CTRun] {
        let count = CTRunGetGlyphCount(run)
        var glyphs = [CGGlyph](repeating: 0, count: count)
        CTRunGetGlyphs(run, CFRange(location: 0, length: count), &glyphs)
        for g in glyphs.prefix(16) { _ = CTFontCreatePathForGlyph(font, g, nil) }
    }
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOne))
