import Foundation
import CoreGraphics

/// How a `LottieAnimationLayer` places the composition in its bounds (lottie-ios uses
/// UIKit's `contentMode`; these are its cases that apply). An extension beyond Apple's API.
public enum LottieContentMode: Sendable, Equatable {
    /// The whole composition, aspect kept, centred (lottie-ios's default).
    case scaleAspectFit
    /// The bounds covered, aspect kept, centred (cropped by `masksToBounds`).
    case scaleAspectFill
    /// Stretched to the bounds.
    case scaleToFill
    /// At its own size, centred.
    case center
    /// At its own size, at the top-left corner.
    case topLeft
}

/// How playback continues at the end of the range (lottie-ios's `LottieLoopMode`).
/// An extension beyond Apple's API.
public enum LottieLoopMode: Sendable, Equatable {
    case playOnce
    case loop
    case autoReverse
    case `repeat`(Float)
    case repeatBackwards(Float)
}

/// A layer that shows and plays a `LottieAnimation` — an extension beyond Apple's API, named as
/// lottie-ios's `LottieAnimationLayer`. The animation's tree is a sublayer driven by its own
/// keyframe animations; this layer only maps time: paused, the tree's `speed` is 0 and its
/// `timeOffset` the frame shown (Apple's pausing recipe, docs/BEHAVIOUR.md C10); playing, its
/// `beginTime`/`speed`/`timeOffset` start the range now.
///
/// Only `.playOnce` is reproduced: the other loop modes play the range once and log a warning
/// (layer time does not repeat in the timing engine; lottie-ios sets `repeatCount` on every
/// animation instead, not done yet).
open class LottieAnimationLayer: CALayer {
    /// The animation shown; setting it builds a new tree at its first frame.
    public var animation: LottieAnimation? {
        get { storedAnimation }
        set { storedAnimation = newValue; rebuild() }
    }
    /// Copies (`init(layer:)`, the presentation layer) share it without building a tree.
    private var storedAnimation: LottieAnimation?
    /// How the composition is placed in `bounds` (fit and centred by default).
    public var contentMode: LottieContentMode = .scaleAspectFit {
        didSet { setNeedsLayout() }
    }
    /// Playback speed; 1 plays at the animation's frame rate.
    public var animationSpeed: CGFloat = 1
    /// The loop mode `play()` uses.
    public var loopMode: LottieLoopMode = .playOnce

    /// Holds the composition's tree and maps this layer's time to the composition's.
    private let timeLayer = CALayer()
    private var content: CALayer?
    private var playing: (startFrame: Double, endFrame: Double, begin: CFTimeInterval, speed: Double)?

    public override init() {
        super.init()
        setUpTimeLayer()
    }

    public convenience init(animation: LottieAnimation?) {
        self.init()
        self.animation = animation
    }

    public required init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? LottieAnimationLayer {
            storedAnimation = other.storedAnimation
            contentMode = other.contentMode
            animationSpeed = other.animationSpeed
            loopMode = other.loopMode
        }
    }

    public required init?(coder: NSCoder) { super.init(coder: coder); setUpTimeLayer() }

    private func setUpTimeLayer() {
        timeLayer.anchorPoint = .zero
        timeLayer.position = .zero
        timeLayer.speed = 0
        addSublayer(timeLayer)
    }

    private func rebuild() {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        defer { CATransaction.commit() }
        content?.removeFromSuperlayer()
        content = nil
        playing = nil
        guard let animation else { return }
        let tree = animation.makeLayer()
        timeLayer.bounds = CGRect(origin: .zero, size: animation.size)
        timeLayer.addSublayer(tree)
        content = tree
        timeLayer.speed = 0
        timeLayer.timeOffset = animation.startFrame / animation.framerate
        layoutContent()
    }

    open override func layoutSublayers() {
        super.layoutSublayers()
        layoutContent()
    }

    private func layoutContent() {
        guard let animation else { return }
        let s = animation.size, b = bounds.size
        guard s.width > 0, s.height > 0 else { return }
        var sx = 1.0, sy = 1.0
        switch contentMode {
        case .scaleAspectFit: sx = min(b.width / s.width, b.height / s.height); sy = sx
        case .scaleAspectFill: sx = max(b.width / s.width, b.height / s.height); sy = sx
        case .scaleToFill: sx = b.width / s.width; sy = b.height / s.height
        case .center, .topLeft: break
        }
        if !sx.isFinite || !sy.isFinite { sx = 1; sy = 1 }
        let origin = contentMode == .topLeft ? bounds.origin
            : CGPoint(x: bounds.minX + (b.width - s.width * sx) / 2, y: bounds.minY + (b.height - s.height * sy) / 2)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        timeLayer.position = origin
        timeLayer.transform = CATransform3DMakeScale(sx, sy, 1)
        CATransaction.commit()
    }

    // MARK: Time

    /// The frame shown. Setting it pauses there.
    public var currentFrame: CGFloat {
        get {
            guard let animation else { return 0 }
            if let p = playing {
                let now = CACurrentMediaTime()
                let f = p.startFrame + (now - p.begin) * p.speed * animation.framerate
                return CGFloat(p.speed >= 0 ? min(f, p.endFrame) : max(f, p.endFrame))
            }
            return CGFloat(timeLayer.timeOffset * animation.framerate)
        }
        set {
            guard let animation else { return }
            let f = min(max(Double(newValue), -1e9), 1e9)
            playing = nil
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            timeLayer.speed = 0
            timeLayer.beginTime = 0
            timeLayer.timeOffset = f / animation.framerate
            CATransaction.commit()
        }
    }

    /// The position in the animation, 0 at `startFrame`, 1 at `endFrame`. Setting it pauses.
    public var currentProgress: CGFloat {
        get {
            guard let a = animation else { return 0 }
            return (currentFrame - a.startFrame) / (a.endFrame - a.startFrame)
        }
        set {
            guard let a = animation, newValue.isFinite else { return }
            currentFrame = a.startFrame + newValue * (a.endFrame - a.startFrame)
        }
    }

    /// Seconds from `startFrame`. Setting it pauses.
    public var currentTime: TimeInterval {
        get { guard let a = animation else { return 0 }; return (currentFrame - a.startFrame) / a.framerate }
        set { guard let a = animation, newValue.isFinite else { return }; currentFrame = a.startFrame + newValue * a.framerate }
    }

    /// Whether `play` started playback that has not reached its end.
    public var isAnimationPlaying: Bool {
        guard let a = animation, let p = playing else { return false }
        let elapsed = (CACurrentMediaTime() - p.begin) * abs(p.speed) * a.framerate
        return elapsed < abs(p.endFrame - p.startFrame)
    }

    /// Plays from `fromProgress` (default: where it is) towards `toProgress` (default 1) with
    /// `loopMode` (default: `self.loopMode`): the tree's time runs from now at `animationSpeed`.
    /// The tree's time is not stopped at `toProgress` (nothing runs per frame here to stop it):
    /// `currentFrame` reads at most the end frame and `isAnimationPlaying` turns false there;
    /// call `pause()` or set a frame to hold it.
    public func play(fromProgress: CGFloat? = nil, toProgress: CGFloat = 1, loopMode: LottieLoopMode? = nil) {
        guard let a = animation else { return }
        let mode = loopMode ?? self.loopMode
        if mode != .playOnce {
            Diagnostics.warnOnce("LottieAnimationLayer: loop mode \(mode) is not reproduced; the range plays once")
        }
        let from = a.startFrame + Double(fromProgress ?? currentProgress) * (a.endFrame - a.startFrame)
        let to = a.startFrame + Double(toProgress) * (a.endFrame - a.startFrame)
        let direction = to >= from ? 1.0 : -1.0
        let speed = Double(animationSpeed) * direction
        let now = CACurrentMediaTime()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        timeLayer.speed = Float(speed)
        timeLayer.beginTime = convertTime(now, from: nil)
        timeLayer.timeOffset = from / a.framerate
        CATransaction.commit()
        playing = (from, to, now, speed)
    }

    /// Pauses at the frame shown now.
    public func pause() {
        let f = currentFrame
        currentFrame = f
    }

    /// Stops and shows the first frame.
    public func stop() {
        guard let a = animation else { return }
        currentFrame = a.startFrame
    }
}
