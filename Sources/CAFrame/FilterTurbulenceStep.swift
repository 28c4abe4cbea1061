import CoreGraphics

/// feTurbulence as a filter-graph pass (`FilterPrimitiveOp.turbulence`; Filter Effects 1 §
/// feTurbulence): the noise is a function of the filter's user space, so the pass maps each
/// frame pixel back through `inverse` (the layer plane's homography inverted, rows as the
/// shader multiplies them) and sums the octaves there with `lattice`.
package struct FilterTurbulenceStep: Sendable, Equatable {
    /// At most this many octaves are summed. Octave k adds at most 2^−k of the first one's
    /// amplitude, so octaves past 16 change an 8-bit channel by less than 1/100 of a level;
    /// the clamp keeps `numOctaves` 1e6 from running a million lattice look-ups per pixel.
    package static let maxOctaves = 16

    package var lattice: TurbulenceLattice
    /// Frame pixel → user space: q = x·r0 + y·r1 + r2, point = q.xy / q.z.
    package var inverse: [SIMD4<Float>]
    /// The base frequencies (already moved for stitching).
    package var frequency: SIMD2<Float>
    package var octaves: Int
    package var fractal: Bool
    /// Stitching state at the first octave; nil without `stitchTiles="stitch"`.
    package var stitch: TurbulenceLattice.Stitch?

    package init(lattice: TurbulenceLattice, inverse: [SIMD4<Float>], frequency: SIMD2<Float>, octaves: Int, fractal: Bool,
                 stitch: TurbulenceLattice.Stitch?) {
        self.lattice = lattice; self.inverse = inverse; self.frequency = frequency
        self.octaves = min(max(octaves, 0), Self.maxOctaves); self.fractal = fractal; self.stitch = stitch
    }
}
