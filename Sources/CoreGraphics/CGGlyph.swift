/// A glyph index in a font, as Core Graphics' `CGGlyph` (`UInt16`, glyph IDs of the font's
/// `glyf`/`CFF` tables). Core Text returns them (`CTFontGetGlyphsForCharacters`, `CTRunGetGlyphs`).
public typealias CGGlyph = UInt16
