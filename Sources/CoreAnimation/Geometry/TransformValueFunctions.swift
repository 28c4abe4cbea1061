// CAValueFunction matrices (docs/BEHAVIOUR.md E5).
//
// Apple, CAValueFunction / "Value Function Names": a value function turns the interpolated
// scalar (or 3-vector) of a `transform` animation into a matrix *after* interpolation, so
// rotateZ from 0 to 2π spins a full turn instead of interpolating two equal matrices.
// kCAValueFunctionRotateX/Y/Z take one angle in radians; kCAValueFunctionScale and
// kCAValueFunctionTranslate take three values; ScaleX/Y/Z and TranslateX/Y/Z take one.

/// The 11 value-function names Apple defines (the string values of kCAValueFunction…).
package let valueFunctionNames: [String] = [
    "rotateX", "rotateY", "rotateZ",
    "scale", "scaleX", "scaleY", "scaleZ",
    "translate", "translateX", "translateY", "translateZ",
]

/// The matrix the value function `name` builds from `values`; nil for an unknown name, the
/// wrong number of values (3 for `scale`/`translate`, 1 for the others), or a non-finite value.
/// Single-axis scales leave the other axes at 1; rotations use CATransform3DMakeRotation,
/// so the angle is not reduced.
package func valueFunctionTransform(name: String, values: [CGFloat]) -> CATransform3D? {
    guard values.allSatisfy({ $0.isFinite }) else { return nil }
    switch name {
    case "scale", "translate":
        guard values.count == 3 else { return nil }
        return name == "scale"
            ? CATransform3DMakeScale(values[0], values[1], values[2])
            : CATransform3DMakeTranslation(values[0], values[1], values[2])
    default:
        guard values.count == 1 else { return nil }
        let v = values[0]
        switch name {
        case "rotateX": return CATransform3DMakeRotation(v, 1, 0, 0)
        case "rotateY": return CATransform3DMakeRotation(v, 0, 1, 0)
        case "rotateZ": return CATransform3DMakeRotation(v, 0, 0, 1)
        case "scaleX": return CATransform3DMakeScale(v, 1, 1)
        case "scaleY": return CATransform3DMakeScale(1, v, 1)
        case "scaleZ": return CATransform3DMakeScale(1, 1, v)
        case "translateX": return CATransform3DMakeTranslation(v, 0, 0)
        case "translateY": return CATransform3DMakeTranslation(0, v, 0)
        case "translateZ": return CATransform3DMakeTranslation(0, 0, v)
        default: return nil
        }
    }
}
