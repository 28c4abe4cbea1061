import Foundation
import CoreGraphics

/// A Lottie animation (bodymovin JSON), decoded — an extension beyond Apple's API, named as in
/// lottie-ios so its users recognise it. `makeLayer()` builds the live layer tree: one
/// `CALayer` per Lottie layer, shapes as `CAShapeLayer`s and `CAGradientLayer`s, keyframes as
/// `CAKeyframeAnimation`s that the timing engine plays (nothing is drawn per frame here).
///
/// ```swift
/// let animation = try LottieAnimation(data: Data(contentsOf: url))
/// let layer = LottieAnimationLayer(animation: animation)
/// layer.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
/// layer.currentProgress = 0.5
/// ```
///
/// Malformed or hostile input throws `LottieError` (line and column for bad JSON; limits in
/// `LottieLimits`); what cannot be reproduced is listed in `issues`.
public final class LottieAnimation: @unchecked Sendable {
    let model: LottieAnimationModel
    let images: [String: CGImage]
    let limits: LottieLimits
    private let decodeIssues: [LottieIssue]

    /// The first frame (`ip`).
    public var startFrame: Double { model.inPoint }
    /// The frame where the animation ends (`op`).
    public var endFrame: Double { model.outPoint }
    /// Frames per second (`fr`).
    public var framerate: Double { model.frameRate }
    /// Seconds from `startFrame` to `endFrame`.
    public var duration: TimeInterval { (endFrame - startFrame) / framerate }
    /// The composition's size in points (`w`, `h`).
    public var size: CGSize { CGSize(width: model.width, height: model.height) }
    /// The bodymovin version that wrote the file (`v`).
    public var version: String { model.version }
    /// Named time ranges (`markers`).
    public var markers: [Marker] { model.markers.map { Marker(name: $0.name, frameTime: $0.frame, durationFrameTime: $0.duration) } }
    /// The number of Lottie layers at the top level.
    public var layerCount: Int { model.layers.count }

    /// A named marker: its start frame and length in frames (lottie-ios's `Marker`).
    public struct Marker: Sendable, Equatable {
        public var name: String
        public var frameTime: Double
        public var durationFrameTime: Double
        public init(name: String, frameTime: Double, durationFrameTime: Double) {
            self.name = name; self.frameTime = frameTime; self.durationFrameTime = durationFrameTime
        }
    }

    /// Everything the file uses that the import does not reproduce exactly, each listed once:
    /// found while decoding and while building a layer tree (build one with `makeLayer()` first
    /// to see them all).
    public var issues: [LottieIssue] {
        var all = decodeIssues
        let seen = Set(all)
        all += buildLog.issues.filter { !seen.contains($0) }
        return all
    }
    private let buildLog = LottieIssueLog()

    /// Decodes Lottie JSON. `baseDirectory` is where image files named by the animation are
    /// read from (embedded `data:` images need none).
    public convenience init(data: Data, baseDirectory: URL? = nil, limits: LottieLimits = LottieLimits()) throws {
        try self.init(data: data, baseDirectory: baseDirectory, archiveImages: [:], limits: limits)
    }

    init(data: Data, baseDirectory: URL?, archiveImages: [String: Data], limits: LottieLimits) throws {
        guard data.count <= limits.maxInputBytes else {
            throw LottieError.limitExceeded("\(data.count) bytes of JSON (limit \(limits.maxInputBytes))")
        }
        if let f = JSONSyntaxLocator.locate(data) {
            throw LottieError.malformedJSON(line: f.line, column: f.column, reason: f.reason)
        }
        // The layer count is checked before the typed decoding, which costs far more per layer:
        // a file of 100,000 layers fails here in a fraction of the time.
        if let top = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            var count = (top["layers"] as? [Any])?.count ?? 0
            for a in top["assets"] as? [[String: Any]] ?? [] { count += (a["layers"] as? [Any])?.count ?? 0 }
            guard count <= limits.maxLayers else {
                throw LottieError.limitExceeded("more than \(limits.maxLayers) layers (precomposition uses counted each time)")
            }
        }
        let model: LottieAnimationModel
        do {
            model = try JSONDecoder().decode(LottieAnimationModel.self, from: data)
        } catch let e as LottieError {
            throw e
        } catch {
            throw LottieError.notLottie("\(error)".prefix(200).description)
        }
        guard model.frameRate > 0, model.frameRate <= 1000 else {
            throw LottieError.notLottie("frame rate fr = \(model.frameRate) (must be more than 0 and at most 1000)")
        }
        guard model.outPoint > model.inPoint else { throw LottieError.notLottie("op (\(model.outPoint)) is not after ip (\(model.inPoint))") }
        guard model.outPoint - model.inPoint <= limits.maxFrames else {
            throw LottieError.limitExceeded("\(model.outPoint - model.inPoint) frames (limit \(Int.clamped(limits.maxFrames)))")
        }
        guard model.width > 0, model.height > 0, model.width <= 1e5, model.height <= 1e5 else {
            throw LottieError.notLottie("size \(model.width) × \(model.height) (each side must be more than 0 and at most 100,000)")
        }
        let log = LottieIssueLog()
        self.model = model
        self.limits = limits
        self.images = LottieImages.load(model.assets, baseDirectory: baseDirectory, archiveImages: archiveImages, limits: limits, log: log)
        self.decodeIssues = log.issues
        // Build once now, so structural errors (cycles, limits) surface from init.
        _ = try makeLayerTree(log: buildLog)
    }

    /// Reads a Lottie JSON file (or a dotLottie archive, by its `.lottie` extension).
    public convenience init(filepath: String, limits: LottieLimits = LottieLimits()) throws {
        let url = URL(fileURLWithPath: filepath)
        if url.pathExtension.lowercased() == "lottie" {
            let archive = try DotLottieFile(url: url, limits: limits)
            try self.init(data: archive.animationData, baseDirectory: nil, archiveImages: archive.images, limits: limits)
            return
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)
        guard (attributes?[.type] as? FileAttributeType) == .typeRegular else { throw LottieError.unreadable("\(filepath) is not a regular file") }
        let bytes = (attributes?[.size] as? NSNumber)?.intValue ?? 0
        guard bytes <= limits.maxInputBytes else { throw LottieError.limitExceeded("\(bytes) bytes of JSON (limit \(limits.maxInputBytes))") }
        guard let data = try? Data(contentsOf: url) else { throw LottieError.unreadable("\(filepath) could not be read") }
        try self.init(data: data, baseDirectory: url.deletingLastPathComponent(), archiveImages: [:], limits: limits)
    }

    /// Reads `name`.json from `bundle`'s resources (lottie-ios's `LottieAnimation.named`).
    /// Nil when there is no such file or it does not import.
    public static func named(_ name: String, bundle: Bundle = .main, subdirectory: String? = nil) -> LottieAnimation? {
        let file = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        guard let url = bundle.url(forResource: file, withExtension: "json", subdirectory: subdirectory) else { return nil }
        return try? LottieAnimation(filepath: url.path)
    }

    /// A new layer tree of the composition at its size (origin top-left), in the composition's
    /// time: a layer time of t seconds shows frame t × framerate. `LottieAnimationLayer` plays it.
    public func makeLayer() -> CALayer {
        makeLayer(targets: nil)
    }

    /// `makeLayer()`, listing in `targets` what value providers can change.
    func makeLayer(targets: LottieValueTargets?) -> CALayer {
        (try? makeLayerTree(log: buildLog, targets: targets)) ?? CALayer()
    }

    func makeLayerTree(log: LottieIssueLog, targets: LottieValueTargets? = nil) throws -> CALayer {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        defer { CATransaction.commit() }
        return try LottieLayerBuilder(model: model, log: log, limits: limits, images: images, targets: targets).buildRoot()
    }
}
