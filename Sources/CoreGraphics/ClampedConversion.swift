/// Float → integer conversions that cannot trap.
///
/// `Int(x)` for a floating-point `x` traps (SIGILL) when `x` is NaN, infinite or outside
/// `Int.min...Int.max` (Swift standard library, `Int.init(_: Double)`: "the value must be
/// representable"). Values derived from input — line widths, dash lengths, coordinates,
/// keyframe counts — can be any finite Double, e.g. a `lineWidth` of 1e20 (issue 17), so such
/// conversions go through `clamped` instead: the result saturates at the type's bounds and NaN
/// gives `nan` (0 unless told). Callers then clamp to the range they can use (a raster's
/// width, a count limit) as before.
///
/// `@inlinable` so other modules specialise it: called across a module boundary unspecialised,
/// each conversion went through the standard library's generic witnesses (a third of the time of
/// rasterising a star's arc-length field, issue 22).
extension FixedWidthInteger {
    /// `x` rounded toward zero (as `Self(x)`), saturated to `Self.min...Self.max`; NaN → `nan`.
    @inlinable @inline(__always)
    package static func clamped<F: BinaryFloatingPoint>(_ x: F, nan: Self = 0) -> Self {
        if x.isNaN { return nan }
        // `F(Self.max)` rounds up to a power of two for 64-bit types (2⁶³ as a Double), so
        // `x < upper` is exactly the representable range's top; the bottom `F(Self.min)` is
        // exact (−2⁶³, or 0 for unsigned types).
        let upper = F(Self.max)
        if x >= upper { return Self.max }
        if x <= F(Self.min) { return Self.min }
        return Self(x)
    }
}
