import CoreGraphics
import CFreeType

/// A colour glyph's pixels at a device pixel size (issue 20 "Rendering": "colour emoji in an RGBA
/// atlas"): premultiplied RGBA, 4 bytes a pixel, rows top to bottom. The bitmap's top-left
/// pixel corner lies `left` pixels right of the pen and `top` pixels above the baseline, as
/// `GlyphCoverage` places coverage.
package struct ColorGlyphBitmap: Sendable, Equatable {
    package var width: Int
    package var height: Int
    package var left: Int
    package var top: Int
    package var rgba: [UInt8]
}

struct ColorGlyphCacheKey: Hashable {
    var glyph: CGGlyph
    /// Pixels per em × 64.
    var size: Int32
}

extension FontFace {
    /// The largest number of scaled colour glyphs a face keeps (then the cache starts afresh).
    static let maxCachedColorGlyphs = 1024

    /// `glyph` of a bitmap-only colour face at `pixelSize` pixels per em: FreeType loads it from
    /// the strike nearest above that size (`FT_Select_Size`; the largest strike when none is as
    /// large) with `FT_LOAD_COLOR`, which gives premultiplied BGRA, and it is resampled to the
    /// size by area averaging (each device pixel the mean of the strike pixels it covers), as
    /// Apple scales its emoji strikes. Colour glyphs keep their own colours: callers draw them
    /// untinted (only the text colour's alpha applies, docs/TEXT.md). nil for a face that is not a
    /// colour bitmap face, a glyph without a bitmap (a space), or a size out of
    /// (0, `maxCoveragePixelSize`].
    package func colorGlyph(_ glyph: CGGlyph, pixelSize: Double) -> ColorGlyphBitmap? {
        guard isColorBitmap, pixelSize.isFinite, pixelSize > 0, pixelSize <= Self.maxCoveragePixelSize,
              Int(glyph) < glyphCount else { return nil }
        let key = ColorGlyphCacheKey(glyph: glyph, size: Int32(clamping: Int((pixelSize * 64).rounded())))
        if let hit = colorGlyphCache.withLock({ $0[key] }) { return hit }
        let made = strikeBitmap(glyph, pixelSize: pixelSize).flatMap { Self.scaled($0.bitmap, by: pixelSize / $0.ppem) }
        colorGlyphCache.withLock { c in
            if c.count >= Self.maxCachedColorGlyphs { c.removeAll(keepingCapacity: true) }
            c[key] = .some(made)
        }
        return made
    }

    /// The strike that serves `pixelSize`: the smallest at least that large, else the largest.
    func strikeIndex(for pixelSize: Double) -> Int? {
        guard !colorStrikes.isEmpty else { return nil }
        var best: Int?
        for (i, ppem) in colorStrikes.enumerated() where ppem >= pixelSize {
            if best == nil || ppem < colorStrikes[best!] { best = i }
        }
        return best ?? colorStrikes.indices.max { colorStrikes[$0] < colorStrikes[$1] }
    }

    /// The glyph's bitmap at its strike's own size (premultiplied RGBA) and that strike's ppem.
    private func strikeBitmap(_ glyph: CGGlyph, pixelSize: Double) -> (bitmap: ColorGlyphBitmap, ppem: Double)? {
        guard let strike = strikeIndex(for: pixelSize), colorStrikes[strike] > 0 else { return nil }
        lock.lock(); defer { lock.unlock() }
        guard let face, FT_Select_Size(face, FT_Int(strike)) == 0,
              FT_Load_Glyph(face, FT_UInt(glyph), Int32(FT_LOAD_COLOR)) == 0 else { return nil }
        let slot = face.pointee.glyph!
        let bm = slot.pointee.bitmap
        let w = Int(bm.width), h = Int(bm.rows)
        // A strike bitmap larger than the largest pixel size is not a real emoji (bounded memory).
        guard w > 0, h > 0, w <= 2048, h <= 2048, let buffer = bm.buffer else { return nil }
        let pitch = Int(bm.pitch)
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            let row = pitch >= 0 ? buffer + y * pitch : buffer + (h - 1 - y) * (-pitch)
            for x in 0..<w {
                let o = (y * w + x) * 4
                switch bm.pixel_mode {
                case UInt8(FT_PIXEL_MODE_BGRA.rawValue):
                    // Premultiplied BGRA → premultiplied RGBA; channels clamped to alpha (a bad
                    // strike cannot make a colour brighter than its coverage).
                    let a = row[x * 4 + 3]
                    out[o] = min(row[x * 4 + 2], a); out[o + 1] = min(row[x * 4 + 1], a)
                    out[o + 2] = min(row[x * 4], a); out[o + 3] = a
                case UInt8(FT_PIXEL_MODE_GRAY.rawValue):
                    let c = row[x]
                    out[o] = 0; out[o + 1] = 0; out[o + 2] = 0; out[o + 3] = c
                default:
                    return nil
                }
            }
        }
        let bitmap = ColorGlyphBitmap(width: w, height: h, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top), rgba: out)
        return (bitmap, colorStrikes[strike])
    }

    /// `bitmap` scaled by `k` by area averaging (separable: each output column, then row, the
    /// coverage-weighted mean of the input pixels under it). Its corner moves to the scaled and
    /// rounded position, its size rounds (at least one pixel).
    static func scaled(_ bitmap: ColorGlyphBitmap, by k: Double) -> ColorGlyphBitmap? {
        guard k.isFinite, k > 0 else { return nil }
        if abs(k - 1) < 1e-9 { return bitmap }
        let w = bitmap.width, h = bitmap.height
        let dw = max(1, Int((Double(w) * k).rounded())), dh = max(1, Int((Double(h) * k).rounded()))
        guard dw <= 4096, dh <= 4096 else { return nil }
        let wx = weights(from: w, to: dw), wy = weights(from: h, to: dh)
        // Horizontal pass: h rows × dw columns, Float.
        var mid = [Float](repeating: 0, count: h * dw * 4)
        for y in 0..<h {
            for (dx, taps) in wx.enumerated() {
                var acc = SIMD4<Float>.zero
                for (sx, wt) in taps {
                    let i = (y * w + sx) * 4
                    acc += SIMD4(Float(bitmap.rgba[i]), Float(bitmap.rgba[i + 1]), Float(bitmap.rgba[i + 2]), Float(bitmap.rgba[i + 3])) * wt
                }
                let o = (y * dw + dx) * 4
                mid[o] = acc.x; mid[o + 1] = acc.y; mid[o + 2] = acc.z; mid[o + 3] = acc.w
            }
        }
        var out = [UInt8](repeating: 0, count: dw * dh * 4)
        for (dy, taps) in wy.enumerated() {
            for x in 0..<dw {
                var acc = SIMD4<Float>.zero
                for (sy, wt) in taps {
                    let i = (sy * dw + x) * 4
                    acc += SIMD4(mid[i], mid[i + 1], mid[i + 2], mid[i + 3]) * wt
                }
                let o = (dy * dw + x) * 4
                let a = min(255, max(0, acc.w.rounded()))
                out[o + 3] = UInt8(a)
                out[o] = UInt8(min(a, max(0, acc.x.rounded())))
                out[o + 1] = UInt8(min(a, max(0, acc.y.rounded())))
                out[o + 2] = UInt8(min(a, max(0, acc.z.rounded())))
            }
        }
        return ColorGlyphBitmap(width: dw, height: dh, left: Int((Double(bitmap.left) * k).rounded()),
                                top: Int((Double(bitmap.top) * k).rounded()), rgba: out)
    }

    /// For each of `n` output pixels, the input pixels of `m` under it and their weights (the
    /// overlap of [i·m/n, (i+1)·m/n) with each input pixel, normalised). Enlarging, an output
    /// pixel lies within one or two input pixels.
    private static func weights(from m: Int, to n: Int) -> [[(Int, Float)]] {
        let step = Double(m) / Double(n)
        return (0..<n).map { i in
            let a = Double(i) * step, b = Double(i + 1) * step
            var taps: [(Int, Float)] = []
            var j = Int(a.rounded(.down))
            while Double(j) < b && j < m {
                let overlap = min(b, Double(j + 1)) - max(a, Double(j))
                if overlap > 0 { taps.append((j, Float(overlap / step))) }
                j += 1
            }
            return taps
        }
    }
}
