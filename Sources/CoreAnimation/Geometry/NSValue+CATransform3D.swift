// `NSValue(caTransform3D:)` and `caTransform3DValue`, Core Animation's own NSValue additions
// (Apple's "NSValue Core Animation Additions"), so keyframe arrays of wrapped transforms —
// the way most iOS code writes them — animate here. Boxed as a C array of 16 doubles (`[16d]`);
// see NSValue+CoreGraphics.swift for why not Apple's structure encoding.

extension NSValue {
    /// Creates a value that boxes a 3D transform (Apple's `NSValue(caTransform3D:)`).
    public convenience init(caTransform3D t: CATransform3D) {
        self.init(boxingDoubles: [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
                                  t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44].map(Double.init))
    }

    /// The boxed 3D transform; the identity when the value holds something else.
    public var caTransform3DValue: CATransform3D {
        guard let m = unboxedDoubles(count: 16) else { return CATransform3DIdentity }
        return CATransform3D(m11: m[0], m12: m[1], m13: m[2], m14: m[3],
                             m21: m[4], m22: m[5], m23: m[6], m24: m[7],
                             m31: m[8], m32: m[9], m33: m[10], m34: m[11],
                             m41: m[12], m42: m[13], m43: m[14], m44: m[15])
    }

    /// The Swift value an NSValue boxes (CGPoint, CGSize, CGRect, CGVector, CGAffineTransform,
    /// CATransform3D), or nil for anything else (NSNumber included: it is read as a number).
    /// Everywhere Core Animation accepts `Any` (animation values, `setValue(_:forKey:)`, scene
    /// writing) reads wrapped values through this, as Apple's KVC unwraps them.
    package var coreAnimationUnboxed: Any? {
        if self is NSNumber { return nil }
        switch objCTypeString {
        case NSValue.pointEncoding: return cgPointValue
        case NSValue.sizeEncoding: return cgSizeValue
        case NSValue.rectEncoding: return cgRectValue
        case "[2d]": return cgVectorValue
        case "[6d]": return cgAffineTransformValue
        case "[16d]": return caTransform3DValue
        default: return nil
        }
    }
}
