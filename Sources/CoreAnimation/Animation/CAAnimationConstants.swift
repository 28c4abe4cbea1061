/// How keyframe values are interpolated (docs/BEHAVIOUR.md A1, F).
public struct CAAnimationCalculationMode: CAStringConstant {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let linear = Self(rawValue: "linear")
    public static let discrete = Self(rawValue: "discrete")
    public static let paced = Self(rawValue: "paced")
    public static let cubic = Self(rawValue: "cubic")
    public static let cubicPaced = Self(rawValue: "cubicPaced")
}

/// Whether a layer turns to follow a keyframe path (docs/BEHAVIOUR.md F8).
public struct CAAnimationRotationMode: CAStringConstant {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let rotateAuto = Self(rawValue: "auto")
    public static let rotateAutoReverse = Self(rawValue: "autoReverse")
}

public struct CATransitionType: CAStringConstant {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let fade = Self(rawValue: "fade")
    public static let moveIn = Self(rawValue: "moveIn")
    public static let push = Self(rawValue: "push")
    public static let reveal = Self(rawValue: "reveal")
}

public struct CATransitionSubtype: CAStringConstant {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let fromLeft = Self(rawValue: "fromLeft")
    public static let fromRight = Self(rawValue: "fromRight")
    public static let fromTop = Self(rawValue: "fromTop")
    public static let fromBottom = Self(rawValue: "fromBottom")
}

public struct CAValueFunctionName: CAStringConstant {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let rotateX = Self(rawValue: "rotateX")
    public static let rotateY = Self(rawValue: "rotateY")
    public static let rotateZ = Self(rawValue: "rotateZ")
    public static let scale = Self(rawValue: "scale")
    public static let scaleX = Self(rawValue: "scaleX")
    public static let scaleY = Self(rawValue: "scaleY")
    public static let scaleZ = Self(rawValue: "scaleZ")
    public static let translate = Self(rawValue: "translate")
    public static let translateX = Self(rawValue: "translateX")
    public static let translateY = Self(rawValue: "translateY")
    public static let translateZ = Self(rawValue: "translateZ")
    static let all: Set<Self> = [.rotateX, .rotateY, .rotateZ, .scale, .scaleX, .scaleY, .scaleZ,
                                 .translate, .translateX, .translateY, .translateZ]
}

/// Builds a transform from interpolated scalars (docs/BEHAVIOUR.md E5). Apple returns one shared object
/// per name; Swift initializers cannot, so equality (`==`, `isEqual`) is by name instead.
public final class CAValueFunction: NSObject, @unchecked Sendable {
    public let name: CAValueFunctionName

    /// Nil for an unknown or empty name (docs/BEHAVIOUR.md A1).
    public init?(name: CAValueFunctionName) {
        guard CAValueFunctionName.all.contains(name) else { return nil }
        self.name = name
    }

    public override func isEqual(_ object: Any?) -> Bool { (object as? CAValueFunction)?.name == name }
    public override var hash: Int { name.hashValue }
}
