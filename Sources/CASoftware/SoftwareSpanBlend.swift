import Foundation

/// Premultiplied source-over of 8-bit colours along a row (issue 22: flat interiors as spans).
///
/// GL blends `src + dst · (1 − src.a)` in float and rounds once into the RGBA8 attachment; these
/// kernels take the source already rounded to 8 bits (`src8`, `ia = 255 − src8.a`) and compute
/// `src8 + round(dst · ia / 255)` exactly in integers, so a texel differs from GL's by at most
/// one level (the source's own rounding), inside the parity tolerance (≤ 2/255). The source must
/// be premultiplied (every colour byte ≤ its alpha byte): then no channel passes 255 and no carry
/// crosses into the next channel. Four texels at a time in 16-bit lanes (SSE2's `pmullw`), so
/// the loops stay vectorised without any target flag.
enum SoftwareSpanBlend {
    /// `round(d · a / 255)` for each byte of `d`, with `a` ≤ 255 (exact: (t + (t >> 8)) >> 8
    /// with t = d·a + 128).
    @inline(__always) static func scale(_ d: UInt32, _ a: UInt32) -> UInt32 {
        var rb = (d & 0x00FF_00FF) &* a &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((d >> 8) & 0x00FF_00FF) &* a &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return rb | ag
    }

    /// The same on four texels: lanes of 16 bits hold one byte each (R and B, then A and G).
    @inline(__always) static func scale4(_ d: SIMD4<UInt32>, _ a16: SIMD8<UInt16>) -> SIMD4<UInt32> {
        let mask = SIMD4<UInt32>(repeating: 0x00FF_00FF)
        let half = SIMD8<UInt16>(repeating: 0x80)
        var rb = unsafeBitCast(d & mask, to: SIMD8<UInt16>.self) &* a16 &+ half
        rb = (rb &+ (rb &>> 8)) &>> 8
        var ag = unsafeBitCast((d &>> 8) & mask, to: SIMD8<UInt16>.self) &* a16 &+ half
        ag = (ag &+ (ag &>> 8)) &>> 8
        return unsafeBitCast(rb, to: SIMD4<UInt32>.self) | (unsafeBitCast(ag, to: SIMD4<UInt32>.self) &<< 8)
    }

    /// One source texel over one target texel.
    @inline(__always) static func over(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let ia = 255 &- (s >> 24)
        return ia == 0 ? s : s &+ scale(d, ia)
    }

    /// `n` texels from `row` blended with the constant premultiplied `src`: opaque ones are
    /// stores, transparent ones nothing.
    static func fill(_ row: UnsafeMutablePointer<UInt32>, _ n: Int, _ src: UInt32) {
        guard n > 0 else { return }
        let ia = 255 &- (src >> 24)
        if ia == 0 { row.update(repeating: src, count: n); return }
        if src == 0 { return }
        let a16 = SIMD8<UInt16>(repeating: UInt16(ia))
        let s4 = SIMD4<UInt32>(repeating: src)
        let raw = UnsafeMutableRawPointer(row)
        var k = 0
        while k &+ 4 <= n {
            let p = raw + k &* 4
            let d = p.loadUnaligned(as: SIMD4<UInt32>.self)
            p.storeBytes(of: s4 &+ scale4(d, a16), as: SIMD4<UInt32>.self)
            k &+= 4
        }
        while k < n { row[k] = src &+ scale(row[k], ia); k &+= 1 }
    }

    /// `n` texels of `src` (one source texel per target texel) over `row`; runs of four opaque
    /// source texels are stored without reading `row`.
    static func blend(_ row: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ n: Int) {
        guard n > 0 else { return }
        let raw = UnsafeMutableRawPointer(row)
        let sraw = UnsafeRawPointer(src)
        let full = SIMD4<UInt32>(repeating: 255)
        var k = 0
        while k &+ 4 <= n {
            let p = raw + k &* 4
            let s = (sraw + k &* 4).loadUnaligned(as: SIMD4<UInt32>.self)
            let ia = full &- (s &>> 24)
            // Four opaque texels (an image's or a gradient's interior) are stores: the target
            // is not read.
            if ia == .zero { p.storeBytes(of: s, as: SIMD4<UInt32>.self); k &+= 4; continue }
            let a16 = unsafeBitCast(ia | (ia &<< 16), to: SIMD8<UInt16>.self)
            let d = p.loadUnaligned(as: SIMD4<UInt32>.self)
            p.storeBytes(of: s &+ scale4(d, a16), as: SIMD4<UInt32>.self)
            k &+= 4
        }
        while k < n { row[k] = over(src[k], row[k]); k &+= 1 }
    }

    /// Four source texels over four target texels from `p`: `blend`'s step (opaque ones a
    /// store, the rest `s + scale(d, 255 − s.a)`), so `over`'s bytes.
    @inline(__always) static func blend4(_ p: UnsafeMutablePointer<UInt32>, _ s: SIMD4<UInt32>) {
        let raw = UnsafeMutableRawPointer(p)
        let ia = SIMD4<UInt32>(repeating: 255) &- (s &>> 24)
        if ia == .zero { raw.storeBytes(of: s, as: SIMD4<UInt32>.self); return }
        let a16 = unsafeBitCast(ia | (ia &<< 16), to: SIMD8<UInt16>.self)
        let d = raw.loadUnaligned(as: SIMD4<UInt32>.self)
        raw.storeBytes(of: s &+ scale4(d, a16), as: SIMD4<UInt32>.self)
    }

    /// `SoftwarePixel.pack`'s byte of each of four values: ⌊v·255 + ½⌋ held to 0…255 (NaN to
    /// 0): held with a max and a min, then truncated (the floor of a non-negative lane) by one
    /// four-lane conversion (`FloatLanes`).
    @inline(__always) static func bytes(_ v: SIMD4<Float>) -> SIMD4<UInt32> {
        (v * 255 + 0.5).clamped(0, 255).flooredWholeNumbers
    }

    /// `source` of four colours given one channel a vector: each channel's bytes, each colour
    /// byte held to its alpha byte.
    @inline(__always) static func sources(_ r: SIMD4<Float>, _ g: SIMD4<Float>, _ b: SIMD4<Float>, _ a: SIMD4<Float>) -> SIMD4<UInt32> {
        let ab = bytes(a)
        @inline(__always) func held(_ v: SIMD4<UInt32>) -> SIMD4<UInt32> { v.replacing(with: ab, where: ab .< v) }
        return held(bytes(r)) | held(bytes(g)) &<< 8 | held(bytes(b)) &<< 16 | ab &<< 24
    }

    /// A premultiplied float colour as the 8-bit source these kernels take: clamped to 0…1,
    /// rounded, and each colour byte held to the alpha byte (so a slightly non-premultiplied
    /// colour cannot carry into the next channel).
    @inline(__always) static func source(_ c: SIMD4<Float>) -> UInt32 {
        let v = SoftwarePixel.pack(c)
        let a = v >> 24
        return min(v & 0xFF, a) | (min((v >> 8) & 0xFF, a) << 8) | (min((v >> 16) & 0xFF, a) << 16) | (a << 24)
    }
}

/// The default of `SoftwareRenderer.usesRowPaths`: on unless the environment sets
/// `CA_SOFTWARE_SPANS=0`.
enum SoftwareRowPaths {
    static let enabledByDefault: Bool = ProcessInfo.processInfo.environment["CA_SOFTWARE_SPANS"] != "0"
    /// The default of `SoftwareRenderer.usesInteriorLoops`: on unless the environment sets
    /// `CA_SOFTWARE_INTERIOR=0` (what the image and gradient interior loops gain, measured in
    /// one binary).
    static let interiorLoopsByDefault: Bool = ProcessInfo.processInfo.environment["CA_SOFTWARE_INTERIOR"] != "0"
    /// The default of `SoftwareRenderer.usesOcclusion`: on unless the environment sets
    /// `CA_SOFTWARE_OCCLUSION=0` (what skipping hidden texels gains, measured in one binary).
    static let occlusionByDefault: Bool = ProcessInfo.processInfo.environment["CA_SOFTWARE_OCCLUSION"] != "0"
}
