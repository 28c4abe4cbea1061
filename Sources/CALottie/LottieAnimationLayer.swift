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
/// Playing (`LottieAnimationLayer+Playback.swift`) does what lottie-ios's Core Animation engine
/// does: every keyframe animation of the tree runs inside a `CAAnimationGroup` whose window is the
/// played range and whose `repeatCount`, `autoreverses` and `speed` are the loop mode's, so the
/// timing engine loops, reverses and stops at `toProgress` with no per-frame code.
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
    /// Playback speed; 1 plays at the animation's frame rate, negative values play backwards.
    /// Changed while playing, the range continues from the frame shown at the new speed.
    public var animationSpeed: CGFloat = 1 {
        didSet { speedChanged(from: oldValue) }
    }
    /// The loop mode `play()` uses.
    public var loopMode: LottieLoopMode = .playOnce

    /// Holds the composition's tree and maps this layer's time to the composition's.
    let timeLayer = CALayer()
    /// Carries the progress animation whose presentation value is `currentProgress` while
    /// playing, and whose delegate reports completion (lottie-ios animates a progress property
    /// the same way).
    let progressLayer = CALayer()
    var content: CALayer?
    /// The tree's keyframe animations as built (layer, key, animation): play wraps them, pause
    /// puts them back.
    var builtAnimations: [(layer: CALayer, key: String, animation: CAAnimation)] = []
    /// The running play call, nil while paused.
    var playback: LottiePlayback?
    /// Counts play calls.
    var playSerial = 0
    /// What value providers can change in the current tree.
    var valueTargets: LottieValueTargets?
    /// The providers set, in order, applied again to each new tree.
    var valueProviders: [(keypath: AnimationKeypath, provider: AnyValueProvider)] = []

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
        progressLayer.bounds = .zero
        progressLayer.isHidden = true
        addSublayer(progressLayer)
    }

    private func rebuild() {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        defer { CATransaction.commit() }
        content?.removeFromSuperlayer()
        content = nil
        valueTargets = nil
        endPlayback()
        builtAnimations = []
        guard let animation else { return }
        let targets = LottieValueTargets()
        let tree = animation.makeLayer(targets: targets)
        valueTargets = targets
        timeLayer.bounds = CGRect(origin: .zero, size: animation.size)
        timeLayer.addSublayer(tree)
        content = tree
        builtAnimations = Self.collectAnimations(in: tree)
        for (keypath, provider) in valueProviders { applyValueProvider(provider, keypath: keypath) }
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

}
