/// What a timing element does outside its active duration (docs/BEHAVIOUR.md C5).
public struct CAMediaTimingFillMode: CAStringConstant {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let removed = Self(rawValue: "removed")
    public static let forwards = Self(rawValue: "forwards")
    public static let backwards = Self(rawValue: "backwards")
    public static let both = Self(rawValue: "both")
}

/// Apple's hierarchical timing protocol, adopted by `CALayer` and `CAAnimation`
/// (CAMediaTiming.h). Times nest: `t = (tp − beginTime) · speed + timeOffset` (docs/BEHAVIOUR.md C1).
public protocol CAMediaTiming: AnyObject {
    var beginTime: CFTimeInterval { get set }
    var duration: CFTimeInterval { get set }
    var speed: Float { get set }
    var timeOffset: CFTimeInterval { get set }
    var repeatCount: Float { get set }
    var repeatDuration: CFTimeInterval { get set }
    var autoreverses: Bool { get set }
    var fillMode: CAMediaTimingFillMode { get set }
}
