import Foundation

/// Bounds on what one import may use, so hostile files fail with `LottieError.limitExceeded`
/// (or a documented clamp, listed as a `LottieIssue`) instead of exhausting memory or time.
/// An extension beyond Apple's API.
public struct LottieLimits: Sendable, Equatable {
    /// Bytes of JSON read (a file, or one animation inside a dotLottie).
    public var maxInputBytes = 64 << 20
    /// Lottie layers built in all, precomposition instances counted each time they are used
    /// (a precomp used 100 times with 100 layers is 10,000).
    public var maxLayers = 20_000
    /// Shape items built in all.
    public var maxShapeItems = 200_000
    /// Nesting of precompositions.
    public var maxPrecompDepth = 32
    /// `op − ip`, the animation's length in frames. Longer files are refused: nothing in the
    /// import is per frame, but players and exporters are (a 1e9-frame file is not an animation).
    public var maxFrames: Double = 1_000_000
    /// Width or height of an image asset in pixels; larger images are skipped with an issue.
    public var maxImageSide = 16_384
    /// Keyframes in one property.
    public var maxKeyframes = 100_000
    /// Samples per curved (spatial Bézier) position segment.
    public var spatialSamples = 12
    /// dotLottie: total uncompressed bytes of the entries read.
    public var maxArchiveBytes = 256 << 20
    /// dotLottie: number of entries in the archive.
    public var maxArchiveEntries = 10_000

    public init() {}
}
