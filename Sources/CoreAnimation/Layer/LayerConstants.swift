// String-valued constants with Apple's raw values (docs/BEHAVIOUR.md A1). Apple imports these as
// `struct X: RawRepresentable` ("swift_wrapper" string enums); so do we.

/// Shared shape of Apple's string-wrapper constants: `init(rawValue:)` and `init(_:)`.
/// `Codable` as their raw value (the standard library's coding of String-backed
/// `RawRepresentable` types), which is how scene files spell them (docs/SCENE-FORMAT.md):
/// `"resizeAspect"`, `"both"`. Decoding accepts any string, as Apple's wrappers hold any raw
/// value; the scene reader checks names against the format's lists.
public protocol CAStringConstant: RawRepresentable, Hashable, Sendable, Codable where RawValue == String {
    init(rawValue: String)
}

extension CAStringConstant {
    public init(_ rawValue: String) { self.init(rawValue: rawValue) }
}

public struct CALayerContentsGravity: CAStringConstant {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let center = Self(rawValue: "center")
    public static let top = Self(rawValue: "top")
    public static let bottom = Self(rawValue: "bottom")
    public static let left = Self(rawValue: "left")
    public static let right = Self(rawValue: "right")
    public static let topLeft = Self(rawValue: "topLeft")
    public static let topRight = Self(rawValue: "topRight")
    public static let bottomLeft = Self(rawValue: "bottomLeft")
    public static let bottomRight = Self(rawValue: "bottomRight")
    public static let resize = Self(rawValue: "resize")
    public static let resizeAspect = Self(rawValue: "resizeAspect")
    public static let resizeAspectFill = Self(rawValue: "resizeAspectFill")
    static let all: Set<Self> = [.center, .top, .bottom, .left, .right, .topLeft, .topRight,
                                 .bottomLeft, .bottomRight, .resize, .resizeAspect, .resizeAspectFill]
}

public struct CALayerContentsFilter: CAStringConstant {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let linear = Self(rawValue: "linear")
    public static let nearest = Self(rawValue: "nearest")
    public static let trilinear = Self(rawValue: "trilinear")
}

public struct CALayerContentsFormat: CAStringConstant {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let RGBA8Uint = Self(rawValue: "RGBA8")
    public static let RGBA16Float = Self(rawValue: "RGBAh")
    public static let gray8Uint = Self(rawValue: "Gray8")
    public static let automatic = Self(rawValue: "Automatic")
}

public struct CALayerCornerCurve: CAStringConstant {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let circular = Self(rawValue: "circular")
    public static let continuous = Self(rawValue: "continuous")
}

/// Which corners `cornerRadius` rounds (docs/BEHAVIOUR.md A2: all four, raw 15, by default).
public struct CACornerMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let layerMinXMinYCorner = CACornerMask(rawValue: 1)
    public static let layerMaxXMinYCorner = CACornerMask(rawValue: 2)
    public static let layerMinXMaxYCorner = CACornerMask(rawValue: 4)
    public static let layerMaxXMaxYCorner = CACornerMask(rawValue: 8)
    static let all: CACornerMask = [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner]
}

/// Which edges are antialiased (docs/BEHAVIOUR.md N5: left 1, right 2, bottom 4, top 8).
public struct CAEdgeAntialiasingMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let layerLeftEdge = CAEdgeAntialiasingMask(rawValue: 1)
    public static let layerRightEdge = CAEdgeAntialiasingMask(rawValue: 2)
    public static let layerBottomEdge = CAEdgeAntialiasingMask(rawValue: 4)
    public static let layerTopEdge = CAEdgeAntialiasingMask(rawValue: 8)
    static let all: CAEdgeAntialiasingMask = [.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge]
}

/// Event keys with special meaning to `action(forKey:)` (CALayer.h).
public let kCAOnOrderIn = "onOrderIn"
public let kCAOnOrderOut = "onOrderOut"
/// The key transitions are stored under (docs/BEHAVIOUR.md D3, I1).
public let kCATransition = "transition"
