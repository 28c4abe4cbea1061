import CoreImage
/// The static type of an animatable property; decides how `Any` input is read and how two
/// values interpolate (docs/BEHAVIOUR.md E2).
package enum ValueKind: Sendable, Equatable {
    case number, point, size, rect, transform, color, path, bool
    /// Several numbers interpolated component-wise: a Core Image filter's `CIVector` parameter
    /// (`filters.<name>.inputCenter`), given as a `CIVector`, a number array or a `CGPoint`.
    case vector
    /// Anything else (contents, filters, arrays): switches discretely at the half-way point.
    case object
}

/// A property value in typed form. Animations are compiled into operations on these, so a
/// frame never inspects `Any` or parses a key path.
package enum AnimValue {
    case null
    case number(Double)
    case point(CGPoint)
    case size(CGSize)
    case rect(CGRect)
    case transform(CATransform3D)
    case color(CGColor)
    case path(CGPath)
    case bool(Bool)
    /// Several numbers: the `[x, y, z]` arrays value functions take (E5).
    case vector([Double])
    case object(Any)

    // MARK: Reading user input

    /// `any` with an NSValue-wrapped geometry value (`NSValue(cgPoint:)`,
    /// `NSValue(caTransform3D:)`, …) replaced by the Swift value it boxes: Apple's key-value
    /// coding unwraps them for every animatable property, and iOS code wraps keyframe values
    /// this way as a matter of habit. NSNumber stays as it is (read as a number).
    @inline(__always)
    package static func unboxed(_ any: Any?) -> Any? {
        // The metatype test first: `as? NSValue` on a Swift number would bridge it to a new
        // NSNumber just to find it is not a wrapped geometry value.
        guard let any, type(of: any) is NSValue.Type, let inner = (any as! NSValue).coreAnimationUnboxed else { return any }
        return inner
    }

    /// Reads a number given as any of Double, Float, CGFloat, Int (any width), NSNumber or Bool.
    package static func number(from any: Any?) -> Double? {
        switch any {
        case let v as Double: return v
        case let v as CGFloat: return Double(v)
        case let v as Float: return Double(v)
        case let v as Int: return Double(v)
        case let v as Int32: return Double(v)
        case let v as Int64: return Double(v)
        case let v as UInt: return Double(v)
        case let v as UInt32: return Double(v)
        case let v as Bool: return v ? 1 : 0
        case let v as NSNumber: return v.doubleValue
        default: return nil
        }
    }

    /// Converts user input (`fromValue`, `values`, `setValue(_:forKey:)`) for a property of
    /// `kind`; nil when the value has the wrong type. A nil input is `.null`.
    package static func from(_ given: Any?, kind: ValueKind) -> AnimValue? {
        guard let any = unboxed(given) else { return .null }
        if any is NSNull { return .null }
        switch kind {
        case .number: return number(from: any).map { .number($0) }
        case .point: return (any as? CGPoint).map { .point($0) }
        case .size: return (any as? CGSize).map { .size($0) }
        case .rect: return (any as? CGRect).map { .rect($0) }
        case .transform:
            if let t = any as? CATransform3D { return .transform(t) }
            if let a = any as? CGAffineTransform { return .transform(CATransform3DMakeAffineTransform(a)) }
            return nil
        case .color:
            if let c = any as? CGColor { return .color(c) }
            // A Core Image filter's colour parameter (`filters.<name>.inputColor`) takes CIColors.
            if let c = any as? CIColor { return .color(CGColor(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)) }
            return nil
        case .path: return (any as? CGPath).map { .path($0) }
        case .bool:
            if let b = any as? Bool { return .bool(b) }
            return number(from: any).map { .bool($0 != 0) }
        case .vector:
            switch any {
            case let v as CIVector: return .vector((0..<v.count).map { Double(v.value(at: $0)) })
            case let p as CGPoint: return .vector([Double(p.x), Double(p.y)])
            default:
                if case .vector(let v)? = vector(from: any) { return .vector(v) }
                return nil
            }
        case .object: return .object(any)
        }
    }

    /// Reads a number or an array of numbers (value-function animations, E5).
    package static func vector(from given: Any?) -> AnimValue? {
        let any = unboxed(given)
        if let n = number(from: any) { return .number(n) }
        if let arr = any as? [Any] {
            let ns = arr.compactMap { number(from: $0) }
            return ns.count == arr.count ? .vector(ns) : nil
        }
        return nil
    }

    /// Infers the kind of a value given for a key the model does not know (custom properties).
    package static func inferredKind(of any: Any?) -> ValueKind {
        switch unboxed(any) {
        case is Bool: return .bool
        case is CGPoint: return .point
        case is CGSize: return .size
        case is CGRect: return .rect
        case is CATransform3D: return .transform
        case is CGColor: return .color
        case is CGPath: return .path
        default: return number(from: any) != nil ? .number : .object
        }
    }

    /// The value as the public API hands it out for key-path components and custom keys:
    /// numbers as `CGFloat` (Core Animation's scalar type; `NSNumber` does not cast to
    /// `CGFloat` on Linux), booleans as `Bool`.
    package var anyValue: Any? {
        switch self {
        case .null: return nil
        case .number(let v): return CGFloat(v)
        case .point(let v): return v
        case .size(let v): return v
        case .rect(let v): return v
        case .transform(let v): return v
        case .color(let v): return v
        case .path(let v): return v
        case .bool(let v): return v
        case .vector(let v): return v.map { CGFloat($0) }
        case .object(let v): return v
        }
    }

    // MARK: Typed access (no Any)

    @inline(__always) package var double: Double {
        switch self {
        case .number(let v): return v
        case .bool(let b): return b ? 1 : 0
        default: return 0
        }
    }
    @inline(__always) package var cgPoint: CGPoint { if case .point(let p) = self { return p }; return .zero }
    @inline(__always) package var cgSize: CGSize { if case .size(let s) = self { return s }; return .zero }
    @inline(__always) package var cgRect: CGRect { if case .rect(let r) = self { return r }; return .zero }
    @inline(__always) package var transform3D: CATransform3D {
        if case .transform(let t) = self { return t }; return CATransform3DIdentity
    }
    @inline(__always) package var bool: Bool {
        switch self {
        case .bool(let b): return b
        case .number(let v): return v != 0
        default: return false
        }
    }
    @inline(__always) package var cgColor: CGColor? { if case .color(let c) = self { return c }; return nil }
    @inline(__always) package var cgPath: CGPath? { if case .path(let p) = self { return p }; return nil }
    package var object: Any? {
        switch self {
        case .null: return nil
        case .object(let o): return o
        default: return anyValue
        }
    }
}
