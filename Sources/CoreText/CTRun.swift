import CoreGraphics
import Foundation

/// What is special about a run's glyphs (`CTRunStatus`).
public struct CTRunStatus: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let noStatus = CTRunStatus([])
    public static let rightToLeft = CTRunStatus(rawValue: 1 << 0)
    public static let nonMonotonic = CTRunStatus(rawValue: 1 << 1)
    public static let hasNonIdentityMatrix = CTRunStatus(rawValue: 1 << 2)
}

/// A glyph run (`CTRun`): glyphs of one font and one set of attributes, in visual order, with
/// positions relative to the line's origin (x along the line, y the glyph's offset from the
/// baseline), advances and the UTF-16 index of each glyph's character.
public final class CTRun: @unchecked Sendable {
    package let font: CTFont
    package let attributes: [AnyHashable: Any]
    package let color: CGColor?
    package let colorFromContext: Bool
    package let glyphs: [CGGlyph]
    package let positions: [CGPoint]
    package let advances: [CGSize]
    package let stringIndices: [CFIndex]
    package let stringRange: CFRange
    package let status: CTRunStatus
    package let width: Double
    package let baselineOffset: Double
    /// Each glyph's pen position along the line (its position before mark offsets).
    package let pens: [Double]

    package init(font: CTFont, attributes: [AnyHashable: Any], color: CGColor?, colorFromContext: Bool, glyphs: [CGGlyph],
                 positions: [CGPoint], advances: [CGSize], stringIndices: [CFIndex], stringRange: CFRange,
                 status: CTRunStatus, baselineOffset: Double, pens: [Double]) {
        self.font = font; self.attributes = attributes; self.color = color; self.colorFromContext = colorFromContext
        self.glyphs = glyphs; self.positions = positions; self.advances = advances; self.stringIndices = stringIndices
        self.stringRange = stringRange; self.status = status; self.baselineOffset = baselineOffset
        width = advances.reduce(0) { $0 + $1.width }
        self.pens = pens
    }

    /// The run moved by `dx` along the line, with `extra[i]` added to glyph i's advance (justification).
    package func shifted(by dx: Double, extra: [Double]? = nil) -> CTRun {
        var pos = positions, adv = advances, pen = pens
        var acc = dx
        for i in pos.indices {
            pos[i].x += acc
            pen[i] += acc
            if let extra { adv[i].width += extra[i]; acc += extra[i] }
        }
        return CTRun(font: font, attributes: attributes, color: color, colorFromContext: colorFromContext, glyphs: glyphs,
                     positions: pos, advances: adv, stringIndices: stringIndices, stringRange: stringRange, status: status,
                     baselineOffset: baselineOffset, pens: pen)
    }

    /// A Core Text range (length 0 = to the end) clamped to the run's glyphs.
    package func glyphRange(_ r: CFRange) -> Range<Int> {
        let lo = max(0, min(glyphs.count, r.location))
        let hi = r.length <= 0 || r.length > glyphs.count - lo ? glyphs.count : lo + r.length
        return lo..<hi
    }
}

public func CTRunGetGlyphCount(_ run: CTRun) -> CFIndex { run.glyphs.count }
/// The run's attributes, with its font (the fallback font where one was used) under
/// `kCTFontAttributeName`.
public func CTRunGetAttributes(_ run: CTRun) -> CFDictionary { run.attributes }
public func CTRunGetStatus(_ run: CTRun) -> CTRunStatus { run.status }
public func CTRunGetStringRange(_ run: CTRun) -> CFRange { run.stringRange }
public func CTRunGetTextMatrix(_ run: CTRun) -> CGAffineTransform { .identity }
/// Direct access is not offered (Apple allows nil); use `CTRunGetGlyphs`.
public func CTRunGetGlyphsPtr(_ run: CTRun) -> UnsafePointer<CGGlyph>? { nil }
public func CTRunGetPositionsPtr(_ run: CTRun) -> UnsafePointer<CGPoint>? { nil }
public func CTRunGetAdvancesPtr(_ run: CTRun) -> UnsafePointer<CGSize>? { nil }
public func CTRunGetStringIndicesPtr(_ run: CTRun) -> UnsafePointer<CFIndex>? { nil }

public func CTRunGetGlyphs(_ run: CTRun, _ range: CFRange, _ buffer: UnsafeMutablePointer<CGGlyph>) {
    for (k, i) in run.glyphRange(range).enumerated() { buffer[k] = run.glyphs[i] }
}
public func CTRunGetPositions(_ run: CTRun, _ range: CFRange, _ buffer: UnsafeMutablePointer<CGPoint>) {
    for (k, i) in run.glyphRange(range).enumerated() { buffer[k] = run.positions[i] }
}
public func CTRunGetAdvances(_ run: CTRun, _ range: CFRange, _ buffer: UnsafeMutablePointer<CGSize>) {
    for (k, i) in run.glyphRange(range).enumerated() { buffer[k] = run.advances[i] }
}
public func CTRunGetStringIndices(_ run: CTRun, _ range: CFRange, _ buffer: UnsafeMutablePointer<CFIndex>) {
    for (k, i) in run.glyphRange(range).enumerated() { buffer[k] = run.stringIndices[i] }
}

/// The width of the glyphs in `range` and the run font's ascent, descent and leading
/// (CTRunGetTypographicBounds).
public func CTRunGetTypographicBounds(_ run: CTRun, _ range: CFRange, _ ascent: UnsafeMutablePointer<CGFloat>?,
                                      _ descent: UnsafeMutablePointer<CGFloat>?, _ leading: UnsafeMutablePointer<CGFloat>?) -> Double {
    ascent?.pointee = run.font.ascent + run.baselineOffset
    descent?.pointee = run.font.descent - run.baselineOffset
    leading?.pointee = run.font.leading
    return run.glyphRange(range).reduce(0) { $0 + run.advances[$1].width }
}

/// The ink bounds of the glyphs in `range`, in line coordinates (CTRunGetImageBounds). The
/// context's text matrix is not applied.
public func CTRunGetImageBounds(_ run: CTRun, _ context: CGContext?, _ range: CFRange) -> CGRect {
    var union = CGRect.null
    for i in run.glyphRange(range) {
        let b = run.font.face.bounds(of: run.glyphs[i])
        guard b.width > 0 || b.height > 0 else { continue }
        let s = run.font.scale
        union = union.union(CGRect(x: run.positions[i].x + b.minX * s, y: run.positions[i].y + b.minY * s,
                                   width: b.width * s, height: b.height * s))
    }
    return union.isNull ? .zero : union
}
