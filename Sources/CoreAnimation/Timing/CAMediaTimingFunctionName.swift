/// The name of one of Core Animation's predefined timing curves
/// (Apple: `CAMediaTimingFunctionName`, bridged from the `kCAMediaTimingFunction…` strings).
///
/// The raw values are the exact strings Apple's constants hold, verified by running
/// GNUstep's `constants.m` against Apple's QuartzCore (docs/BEHAVIOUR.md A1). They matter beyond
/// cosmetics: archived animations and code that builds names from strings use them.
public struct CAMediaTimingFunctionName: RawRepresentable, Hashable, Sendable {
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Apple's Swift overlay also offers an unlabelled initialiser for these string wrappers.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Constant speed: control points (0,0) and (1,1) (docs/BEHAVIOUR.md B1).
    public static let linear = CAMediaTimingFunctionName(rawValue: "linear")
    /// Slow start: control points (0.42,0) and (1,1), CSS `ease-in` (B1).
    public static let easeIn = CAMediaTimingFunctionName(rawValue: "easeIn")
    /// Slow finish: control points (0,0) and (0.58,1), CSS `ease-out` (B1).
    public static let easeOut = CAMediaTimingFunctionName(rawValue: "easeOut")
    /// Slow start and finish: control points (0.42,0) and (0.58,1), CSS `ease-in-out` (B1).
    public static let easeInEaseOut = CAMediaTimingFunctionName(rawValue: "easeInEaseOut")
    /// The system default curve: control points (0.25,0.1) and (0.25,1), CSS `ease` (B1;
    /// older Apple documentation misstated these points).
    public static let `default` = CAMediaTimingFunctionName(rawValue: "default")
}
