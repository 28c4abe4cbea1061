// NSValue boxing of the Core Graphics geometry types, in UIKit/Foundation's Swift spelling
// (`NSValue(cgPoint:)`, `cgPointValue`, …), so Core Animation code that wraps keyframe values
// in NSValue compiles and animates here.
//
// swift-corelibs-foundation has `NSValue(point:)`, `NSValue(size:)` and `NSValue(rect:)` (the
// Objective-C type encodings `{CGPoint=dd}`, `{CGSize=dd}`, `{CGRect=…}`) but not the `cg…`
// spellings Apple code uses, and its `init(bytes:objCType:)` cannot encode structures — it
// traps. Types without a Foundation initialiser are therefore boxed as C arrays of doubles
// (`[2d]` for CGVector, `[6d]` for CGAffineTransform, `[16d]` for CATransform3D): a different
// `objCType` string from Apple's structure encodings, the same bytes and the same behaviour.

extension NSValue {
    /// Creates a value that boxes a point (UIKit's `NSValue(cgPoint:)`).
    public convenience init(cgPoint point: CGPoint) { self.init(point: point) }

    /// Creates a value that boxes a size (UIKit's `NSValue(cgSize:)`).
    public convenience init(cgSize size: CGSize) { self.init(size: size) }

    /// Creates a value that boxes a rectangle (UIKit's `NSValue(cgRect:)`).
    public convenience init(cgRect rect: CGRect) { self.init(rect: rect) }

    /// Creates a value that boxes a vector (UIKit's `NSValue(cgVector:)`).
    public convenience init(cgVector vector: CGVector) {
        self.init(boxingDoubles: [Double(vector.dx), Double(vector.dy)])
    }

    /// Creates a value that boxes an affine transform (UIKit's `NSValue(cgAffineTransform:)`).
    public convenience init(cgAffineTransform t: CGAffineTransform) {
        self.init(boxingDoubles: [t.a, t.b, t.c, t.d, t.tx, t.ty].map(Double.init))
    }

    /// The boxed point; `.zero` when the value holds something else (Apple reads whatever
    /// bytes are there; a defined answer is kinder).
    public var cgPointValue: CGPoint {
        objCTypeString == NSValue.pointEncoding ? pointValue : .zero
    }

    /// The boxed size; `.zero` when the value holds something else.
    public var cgSizeValue: CGSize {
        objCTypeString == NSValue.sizeEncoding ? sizeValue : .zero
    }

    /// The boxed rectangle; `.zero` when the value holds something else.
    public var cgRectValue: CGRect {
        objCTypeString == NSValue.rectEncoding ? rectValue : .zero
    }

    /// The boxed vector; `.zero` when the value holds something else.
    public var cgVectorValue: CGVector {
        guard let d = unboxedDoubles(count: 2) else { return .zero }
        return CGVector(dx: d[0], dy: d[1])
    }

    /// The boxed affine transform; `.identity` when the value holds something else.
    public var cgAffineTransformValue: CGAffineTransform {
        guard let d = unboxedDoubles(count: 6) else { return .identity }
        return CGAffineTransform(a: d[0], b: d[1], c: d[2], d: d[3], tx: d[4], ty: d[5])
    }
}

extension NSValue {
    package static let pointEncoding = "{CGPoint=dd}"
    package static let sizeEncoding = "{CGSize=dd}"
    package static let rectEncoding = "{CGRect={CGPoint=dd}{CGSize=dd}}"

    package var objCTypeString: String { String(cString: objCType) }

    /// Boxes `doubles` as a C array `[Nd]`, the encoding Foundation on Linux can store.
    package convenience init(boxingDoubles doubles: [Double]) {
        let type = "[\(doubles.count)d]"
        self.init(bytes: doubles, objCType: type)
    }

    /// The doubles boxed by `init(boxingDoubles:)`, when the value is a `[count d]` array.
    package func unboxedDoubles(count: Int) -> [Double]? {
        guard !(self is NSNumber), objCTypeString == "[\(count)d]" else { return nil }
        var out = [Double](repeating: 0, count: count)
        out.withUnsafeMutableBytes { getValue($0.baseAddress!) }
        return out
    }
}
