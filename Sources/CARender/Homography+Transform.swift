import CAFrame
import CoreAnimation

extension Homography {
    /// The plane z = 0 of a 4×4 world matrix: every layer is flat in its own space, so the rows
    /// and columns that touch z drop out and the 3×3 map is exact, perspective included.
    @inline(__always)
    package init(_ m: CATransform3D) {
        // SIMD3(_:_:_:), not array literals: a literal allocates an array per call in debug
        // builds, and this runs once per layer per frame.
        self.init(r0: SIMD3(Double(m.m11), Double(m.m12), Double(m.m14)),
                  r1: SIMD3(Double(m.m21), Double(m.m22), Double(m.m24)),
                  r2: SIMD3(Double(m.m41), Double(m.m42), Double(m.m44)))
    }
}
