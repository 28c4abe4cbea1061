import QuartzCore

/// What a preview plays: a layer tree and its timing. The scene-file loader's `LoadedScene`
/// (module CAScene: `rootLayer`, `size`, `scale`, `duration`, `framesPerSecond`,
/// `applyScheduledChanges(upTo:)`) maps onto it field by field, so this module does not depend
/// on the scene format. Extension beyond Apple's API.
public struct PreviewScene {
    /// The scene's root; its frame should be (0, 0, size).
    public var rootLayer: CALayer
    /// The scene's size in points.
    public var size: CGSize
    /// Pixels per point of the headless output (PNG frames saved with S).
    public var scale: CGFloat
    /// Seconds of scene time after which playback loops to 0; 0 or infinite: never loops.
    public var duration: CFTimeInterval
    /// Frame rate of the scene's output; one arrow-key step is one frame at this rate.
    public var framesPerSecond: Double
    /// Applies the model changes the scene schedules at scene times up to and including the
    /// argument (called with increasing times; a scene is rebuilt to go back in time).
    public var applyScheduledChanges: (CFTimeInterval) -> Void

    public init(rootLayer: CALayer, size: CGSize, scale: CGFloat = 1, duration: CFTimeInterval = 0,
                framesPerSecond: Double = 60, applyScheduledChanges: @escaping (CFTimeInterval) -> Void = { _ in }) {
        self.rootLayer = rootLayer
        self.size = size
        self.scale = scale
        self.duration = duration
        self.framesPerSecond = framesPerSecond
        self.applyScheduledChanges = applyScheduledChanges
    }
}

/// Why a preview could not start. Extension beyond Apple's API.
public enum PreviewError: Error, CustomStringConvertible, Equatable {
    /// The scene failed to load (the message has the loader's error).
    case loadFailed(String)
    /// The scene loaded but cannot be shown (an empty or non-finite size).
    case invalidScene(String)

    public var description: String {
        switch self {
        case .loadFailed(let s): return "the scene failed to load: \(s)"
        case .invalidScene(let s): return "the scene cannot be previewed: \(s)"
        }
    }
}
