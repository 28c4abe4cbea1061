// Four-lane float helpers shared by the CPU loops that work four pixels at a time (CGContext's
// gradient spans, CASoftware's interiors). Swift's generic SIMD float ↔ integer conversions are
// a library call per lane and baseline x86-64 has no SSE4.1 rounding, so the conversions are
// CFloatLanes' (SSE2's truncating cvttps2dq, cvtdq2ps, maxps/minps; NEON's equivalents) and
// the rest stays in vector registers. They are `@inlinable`: without it another module
// (CASoftware) calls each one, and the call was 15 % of the CPU backend's shadow rows.
import CFloatLanes

extension SIMD4 where Scalar == Float {
    /// ⌊v⌋ of lanes in 0 ..< 2^23: truncated (for a non-negative lane, its floor) and back.
    /// (It was v + 2^23 − 2^23 corrected down by a compare: four operations for two.)
    @inlinable @inline(__always) package var floorOfNonNegative: SIMD4<Float> {
        ca_float_of4(ca_truncate4(self))
    }

    /// Whole-number lanes in 0 ..< 2^23 as integers (one truncating conversion).
    @inlinable @inline(__always) package var wholeNumbers: SIMD4<Int32> {
        ca_truncate4(self)
    }

    /// ⌊v⌋ of lanes in 0 ..< 2^23 as integers: one truncating conversion (for a
    /// non-negative lane, its floor; cvttps2dq on x86). It was the low mantissa bits of v + 2^23
    /// less one where that rounded up, five operations; the values are the same.
    @inlinable @inline(__always) package var flooredWholeNumbers: SIMD4<UInt32> {
        unsafeBitCast(ca_truncate4(self), to: SIMD4<UInt32>.self)
    }

    /// The larger of each lane and `other`'s (maxps on x86): `pointwiseMax`'s value for numbers
    /// (that generic function was a call per use in the CPU loops), `other` where a lane is NaN.
    @inlinable @inline(__always) package func lanesMax(_ other: SIMD4<Float>) -> SIMD4<Float> {
        ca_max4(self, other)
    }

    /// The smaller of each lane and `other`'s (minps on x86), `other` where a lane is NaN.
    @inlinable @inline(__always) package func lanesMin(_ other: SIMD4<Float>) -> SIMD4<Float> {
        ca_min4(self, other)
    }

    /// Each lane held to lo…hi, NaN to lo (maxps then minps on x86).
    @inlinable @inline(__always) package func clamped(_ lo: Float, _ hi: Float) -> SIMD4<Float> {
        ca_clamp4(self, lo, hi)
    }

    /// Each lane clamped to 0…1, NaN to 0: `unitClamped`'s rule, in vector registers.
    @inlinable @inline(__always) package var clampedToUnit: SIMD4<Float> {
        ca_clamp4(self, 0, 1)
    }
}

extension SIMD4 where Scalar == UInt32 {
    /// The low byte of each lane as a float (0…255), without a conversion: the byte's bits in
    /// the mantissa of 2^23, less 2^23.
    @inlinable @inline(__always) package var lowByteAsFloat: SIMD4<Float> {
        unsafeBitCast((self & 0xFF) | 0x4B00_0000, to: SIMD4<Float>.self) - 8_388_608
    }
}
