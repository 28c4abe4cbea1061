// Four-lane float helpers shared by the CPU loops that work four pixels at a time (CGContext's
// gradient spans, CASoftware's interiors). Baseline x86-64 has no SSE4.1 rounding, and Swift's
// generic SIMD float ↔ integer conversions are a library call per lane, so these stay in
// vector registers with the 2^23 trick instead. They are `@inlinable`: without it another module
// (CASoftware) calls each one, and the call was 15 % of the CPU backend's shadow rows.

extension SIMD4 where Scalar == Float {
    /// ⌊v⌋ of lanes in 0 ..< 2^23 without a conversion: v + 2^23 − 2^23 is v rounded to the
    /// nearest integer (exact in that range), one less where that is above v.
    @inlinable @inline(__always) package var floorOfNonNegative: SIMD4<Float> {
        let r = (self + 8_388_608) - 8_388_608
        return r.replacing(with: r - 1, where: r .> self)
    }

    /// Whole-number lanes in 0 ..< 2^23 as integers: the low mantissa bits of v + 2^23.
    @inlinable @inline(__always) package var wholeNumbers: SIMD4<Int32> {
        unsafeBitCast(self + 8_388_608, to: SIMD4<Int32>.self) & 0x7F_FFFF
    }

    /// ⌊v⌋ of lanes in 0 ..< 2^23 as integers, in one pass: the low mantissa bits of v + 2^23
    /// (v rounded to nearest), less one where that rounded up (the comparison's lanes are −1).
    /// `floorOfNonNegative.wholeNumbers` without the float select between them.
    @inlinable @inline(__always) package var flooredWholeNumbers: SIMD4<UInt32> {
        let big = self + 8_388_608
        let up = unsafeBitCast((big - 8_388_608) .> self, to: SIMD4<UInt32>.self)
        return (unsafeBitCast(big, to: SIMD4<UInt32>.self) & 0x7F_FFFF) &+ up
    }

    /// Each lane clamped to 0…1 with two selects, NaN to 0: `unitClamped`'s rule, in vector
    /// registers.
    @inlinable @inline(__always) package var clampedToUnit: SIMD4<Float> {
        replacing(with: 0, where: .!(self .> 0)).replacing(with: 1, where: self .> 1)
    }
}

extension SIMD4 where Scalar == UInt32 {
    /// The low byte of each lane as a float (0…255), without a conversion: the byte's bits in
    /// the mantissa of 2^23, less 2^23.
    @inlinable @inline(__always) package var lowByteAsFloat: SIMD4<Float> {
        unsafeBitCast((self & 0xFF) | 0x4B00_0000, to: SIMD4<Float>.self) - 8_388_608
    }
}
