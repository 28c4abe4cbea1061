import Testing

/// `FixedWidthInteger.clamped` (issue 17): saturates where `Int(_:)` would trap.
struct ClampedConversionTests {
    @Test("Out-of-range, infinite and NaN values saturate; in-range values convert as Int(_:)")
    func saturates() {
        #expect(Int.clamped(1e20) == Int.max && Int.clamped(-1e20) == Int.min)
        #expect(Int.clamped(Double.infinity) == Int.max && Int.clamped(-Double.infinity) == Int.min)
        #expect(Int.clamped(Double.nan) == 0 && Int.clamped(Double.nan, nan: -1) == -1)
        #expect(Int.clamped(9_223_372_036_854_775_808.0) == Int.max)   // 2⁶³, the first value out
        #expect(Int.clamped(-9_223_372_036_854_775_808.0) == Int.min)  // −2⁶³ is representable
        #expect(Int.clamped(-2.7) == -2 && Int.clamped(2.7) == 2)
        #expect(Int32.clamped(Float(3e9)) == Int32.max && UInt32.clamped(-1.0) == 0)
        #expect(UInt8.clamped(255.9) == 255 && UInt8.clamped(256.0) == 255)
    }
}
