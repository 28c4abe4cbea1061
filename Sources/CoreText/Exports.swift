// Apple's Core Text module imports Core Graphics (its API is spelled in CGFloat, CGPath,
// CGContext, CGGlyph…), so `import CoreText` alone is enough for Core Text sample code.
@_exported import CoreGraphics
