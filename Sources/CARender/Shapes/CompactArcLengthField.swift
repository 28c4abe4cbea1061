/// The arc-length field in 8 bytes a texel instead of 16, for paths short enough that 16 bits
/// place a trim or a dash well within a pixel (issue 6's animated-trim benchmark: the 16-byte
/// RGBA32F fetch per covered pixel cost about half the frame on llvmpipe).
///
/// - The arc length from the path start goes into the B and A bytes of the coverage texel,
///   which fill and stroke coverage (R, G) leave free: a trim costs no texture fetch beyond the
///   coverage one.
/// - A second RGBA8 texel at the same place in an auxiliary page holds the arc length from the
///   subpath start (R, G: dashes restart at each subpath) and the distance from the centreline
///   (B, A: round caps at a cut). Only shaders that dash or draw round caps fetch it.
///
/// Arc lengths are stored as 16-bit fractions of `range`, offset by `offset` (the field runs a
/// little before the path's start and past its end, where caps reach), so one step is
/// `range / 65535` layer units. Distances are fractions of `halfWidth + 2` texels (a round cap
/// covers nothing farther out), clamped.
///
/// Precision limit: the encoding is used only while `range` spans at most `maxRangeTexels`
/// texels (16,384: a step of at most 0.25 texel, so a cut lands within 0.125 px of its exact
/// place along the stroke). Longer paths (the whole path's length on screen, plus the cap reach)
/// keep the exact RGBA32F field, in pages of their own.
struct CompactArcLengthField {
    /// Most texels the encoded arc-length range may span on screen.
    static let maxRangeTexels = 16_384.0

    /// Arc length (layer units) of encoded value 0.
    let offset: Double
    /// Arc length (layer units) from encoded 0 to encoded 65535.
    let range: Double
    /// Distances are stored as fractions of this many texels.
    let distanceRange: Double

    /// The encoding for a path of `totalLength` layer units whose field reaches `reachTexels`
    /// from the centreline at `scale` texels per layer unit; nil when 16 bits cannot hold it
    /// within the precision limit.
    init?(totalLength: Double, reachTexels: Double, scale: Double, halfWidthTexels: Double) {
        guard totalLength.isFinite, reachTexels.isFinite, scale.isFinite, scale > 0 else { return nil }
        // Beyond an open end the arc length continues along the tangent for at most the
        // diagonal of the splat box around the end point.
        let pad = reachTexels * 1.5 / scale
        offset = -pad
        range = max(totalLength + 2 * pad, 1e-9)
        distanceRange = halfWidthTexels + 2
        guard range * scale <= Self.maxRangeTexels else { return nil }
    }

    @inline(__always) static func quantise(_ v: Double) -> UInt16 {
        // Written so that NaN gives 0 (min/max would pass NaN on, and UInt16(NaN) traps).
        let c = v > 0 ? (v < 1 ? v : 1) : 0
        return UInt16(c * 65535 + 0.5)
    }

    /// Writes the path arc length of `field` (RGBA32F as `ArcLengthField.compute` makes it) into
    /// bytes 2, 3 of each coverage texel (RGBA8) and returns the auxiliary RGBA8 texels.
    func encode(_ field: [Float], into coverage: inout [UInt8]) -> [UInt8] {
        let n = field.count / 4
        var aux = [UInt8](repeating: 0, count: n * 4)
        let inv = 1 / range, dinv = 1 / distanceRange
        field.withUnsafeBufferPointer { f in
            coverage.withUnsafeMutableBufferPointer { c in
                aux.withUnsafeMutableBufferPointer { a in
                    for i in 0..<n {
                        let s = Self.quantise((Double(f[4 * i]) - offset) * inv)
                        let sub = Self.quantise((Double(f[4 * i + 1]) - offset) * inv)
                        let d = Self.quantise(Double(f[4 * i + 2]) * dinv)
                        c[4 * i + 2] = UInt8(s >> 8); c[4 * i + 3] = UInt8(s & 255)
                        a[4 * i] = UInt8(sub >> 8); a[4 * i + 1] = UInt8(sub & 255)
                        a[4 * i + 2] = UInt8(d >> 8); a[4 * i + 3] = UInt8(d & 255)
                    }
                }
            }
        }
        return aux
    }
}
