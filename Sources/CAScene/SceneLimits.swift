/// Upper bounds a scene file must stay within, so that a server rendering files it did not
/// write cannot be made to allocate, loop or render without end (issue 5, "Bad input").
/// Every limit is checked while loading; going over one is a `SceneProblem` naming the limit.
/// Not Apple API. The defaults are documented in docs/SCENE-FORMAT.md ("Limits").
public struct SceneLimits: Sendable, Equatable {
    /// Layers in the file, counting masks and layers added by scheduled transactions.
    public var maxLayers: Int
    /// Nesting depth of the layer tree (the root is depth 1; a mask counts as one level).
    public var maxDepth: Int
    /// Largest width or height of the rendered frame in pixels (`size × scale`).
    public var maxSize: Int
    /// Longest scene duration, in seconds.
    public var maxDuration: Double
    /// Highest frames per second.
    public var maxFramesPerSecond: Double
    /// Most frames a scene may have (`duration × framesPerSecond`).
    public var maxFrameCount: Int
    /// Most values in one keyframe list (values, keyTimes, timingFunctions, tension …).
    public var maxKeyframes: Int
    /// Most elements in one path.
    public var maxPathElements: Int
    /// Animations in the file, group members included.
    public var maxAnimations: Int
    /// Nesting depth of animation groups.
    public var maxGroupDepth: Int
    /// Scheduled transactions, and changes in all of them together.
    public var maxTransactions: Int
    /// Largest image file, in bytes.
    public var maxImageBytes: Int
    /// Largest image, in pixels (width × height), checked from the PNG header before decoding.
    public var maxImagePixels: Int
    /// Distinct image files.
    public var maxImages: Int
    /// Largest scene file, in bytes.
    public var maxFileBytes: Int

    // Budgets for the whole file (issue 17 item 5): a file can keep within every limit above
    // and still ask for gigabytes by repeating what each allows (ten 8192² images, 600
    // animations of 10,000 keyframes). Going over one is a `SceneProblem` naming it.

    /// Pixels of all the distinct images together (width × height, from their headers, before
    /// any is decoded; 4 bytes each once decoded).
    public var maxTotalImagePixels: Int
    /// Keyframe entries of all animations together (`values`, `keyTimes`, `timingFunctions`).
    public var maxTotalKeyframes: Int
    /// Elements of all paths together (layer paths, shape paths, keyframe paths).
    public var maxTotalPathElements: Int
    /// Offscreen pixels the frame may need: each layer the renderer draws through an offscreen
    /// target (one with a mask — counted twice, for its mask's target —, group opacity over
    /// sublayers, or a shadow without `shadowPath`) counts its bounds in frame pixels, at most
    /// the frame's own size, as each target is cut to the frame.
    public var maxOffscreenPixels: Int

    public init(maxLayers: Int = 100_000, maxDepth: Int = 128, maxSize: Int = 16384,
                maxDuration: Double = 3600, maxFramesPerSecond: Double = 240, maxFrameCount: Int = 1_000_000,
                maxKeyframes: Int = 10_000, maxPathElements: Int = 100_000, maxAnimations: Int = 100_000,
                maxGroupDepth: Int = 16, maxTransactions: Int = 100_000, maxImageBytes: Int = 64 << 20,
                maxImagePixels: Int = 8192 * 8192, maxImages: Int = 1000, maxFileBytes: Int = 64 << 20,
                maxTotalImagePixels: Int = 128 << 20, maxTotalKeyframes: Int = 1_000_000,
                maxTotalPathElements: Int = 1_000_000, maxOffscreenPixels: Int = 256 << 20) {
        self.maxLayers = maxLayers
        self.maxDepth = maxDepth
        self.maxSize = maxSize
        self.maxDuration = maxDuration
        self.maxFramesPerSecond = maxFramesPerSecond
        self.maxFrameCount = maxFrameCount
        self.maxKeyframes = maxKeyframes
        self.maxPathElements = maxPathElements
        self.maxAnimations = maxAnimations
        self.maxGroupDepth = maxGroupDepth
        self.maxTransactions = maxTransactions
        self.maxImageBytes = maxImageBytes
        self.maxImagePixels = maxImagePixels
        self.maxImages = maxImages
        self.maxFileBytes = maxFileBytes
        self.maxTotalImagePixels = maxTotalImagePixels
        self.maxTotalKeyframes = maxTotalKeyframes
        self.maxTotalPathElements = maxTotalPathElements
        self.maxOffscreenPixels = maxOffscreenPixels
    }

    public static let `default` = SceneLimits()

    /// JSON nesting allowed by the parser: two levels per layer (object + `sublayers` array)
    /// plus room for values, groups and transactions.
    var maxJSONDepth: Int { 2 * maxDepth + 2 * maxGroupDepth + 16 }
}

/// How `SceneFile` loads a file. Not Apple API.
public struct SceneLoadOptions: Sendable, Equatable {
    /// Lets image paths be absolute or climb out of the scene's folder (`..`, symlinks that
    /// point elsewhere). Off by default: a server rendering uploaded scenes must not let them
    /// read arbitrary files.
    public var allowImagesOutsideSceneFolder = false
    public var limits = SceneLimits.default

    public init(allowImagesOutsideSceneFolder: Bool = false, limits: SceneLimits = .default) {
        self.allowImagesOutsideSceneFolder = allowImagesOutsideSceneFolder
        self.limits = limits
    }
}
