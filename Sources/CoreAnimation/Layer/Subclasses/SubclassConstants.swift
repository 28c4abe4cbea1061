// String constants of the CALayer subclasses, Apple's Swift names and raw values.
// Apple imports them as `struct X: RawRepresentable` string wrappers; so do we (CAStringConstant).

/// How CAShapeLayer decides the inside of its path (`kCAFillRuleNonZero` = "non-zero", `kCAFillRuleEvenOdd` = "even-odd", docs/BEHAVIOUR.md A1).
public struct CAShapeLayerFillRule: CAStringConstant {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let nonZero = Self(rawValue: "non-zero")
    public static let evenOdd = Self(rawValue: "even-odd")
}

/// Stroke end caps of CAShapeLayer (`kCALineCap*`, docs/BEHAVIOUR.md A1).
public struct CAShapeLayerLineCap: CAStringConstant {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let butt = Self(rawValue: "butt")
    public static let round = Self(rawValue: "round")
    public static let square = Self(rawValue: "square")
}

/// Stroke joins of CAShapeLayer (`kCALineJoin*`, docs/BEHAVIOUR.md A1).
public struct CAShapeLayerLineJoin: CAStringConstant {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let miter = Self(rawValue: "miter")
    public static let round = Self(rawValue: "round")
    public static let bevel = Self(rawValue: "bevel")
}

/// CAGradientLayer's gradient kinds (`kCAGradientLayer*`, docs/BEHAVIOUR.md A1). Unknown strings are kept as given (A3).
public struct CAGradientLayerType: CAStringConstant {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let axial = Self(rawValue: "axial")
    public static let radial = Self(rawValue: "radial")
    public static let conic = Self(rawValue: "conic")
}

/// CATextLayer horizontal alignment (`kCAAlignment*`, docs/BEHAVIOUR.md A1).
public struct CATextLayerAlignmentMode: CAStringConstant {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let natural = Self(rawValue: "natural")
    public static let left = Self(rawValue: "left")
    public static let right = Self(rawValue: "right")
    public static let center = Self(rawValue: "center")
    public static let justified = Self(rawValue: "justified")
}

/// CATextLayer truncation (`kCATruncation*`, docs/BEHAVIOUR.md A1).
public struct CATextLayerTruncationMode: CAStringConstant {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let none = Self(rawValue: "none")
    public static let start = Self(rawValue: "start")
    public static let end = Self(rawValue: "end")
    public static let middle = Self(rawValue: "middle")
}

/// Axes along which a CAScrollLayer scrolls (`kCAScroll*`, docs/BEHAVIOUR.md A1).
public struct CAScrollLayerScrollMode: CAStringConstant {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let none = Self(rawValue: "none")
    public static let vertically = Self(rawValue: "vertically")
    public static let horizontally = Self(rawValue: "horizontally")
    public static let both = Self(rawValue: "both")
}

/// Shape of a CAEmitterLayer's emitter (`kCAEmitterLayerPoint` …, CAEmitterLayer.h).
public struct CAEmitterLayerEmitterShape: CAStringConstant {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let point = Self(rawValue: "point")
    public static let line = Self(rawValue: "line")
    public static let rectangle = Self(rawValue: "rectangle")
    public static let cuboid = Self(rawValue: "cuboid")
    public static let circle = Self(rawValue: "circle")
    public static let sphere = Self(rawValue: "sphere")
}

/// Where on the emitter shape particles are born (`kCAEmitterLayerPoints` …, CAEmitterLayer.h).
public struct CAEmitterLayerEmitterMode: CAStringConstant {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let points = Self(rawValue: "points")
    public static let outline = Self(rawValue: "outline")
    public static let surface = Self(rawValue: "surface")
    public static let volume = Self(rawValue: "volume")
}

/// Particle compositing order (`kCAEmitterLayerUnordered` …, CAEmitterLayer.h).
public struct CAEmitterLayerRenderMode: CAStringConstant {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let unordered = Self(rawValue: "unordered")
    public static let oldestFirst = Self(rawValue: "oldestFirst")
    public static let oldestLast = Self(rawValue: "oldestLast")
    public static let backToFront = Self(rawValue: "backToFront")
    public static let additive = Self(rawValue: "additive")
}
