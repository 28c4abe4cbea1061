import Foundation
import CoreGraphics

/// What lottie-ios calls the completion of a play call: true when the range played to its end,
/// false when it was interrupted (`pause()`, `stop()`, another `play`, a new animation).
/// An extension beyond Apple's API, named as in lottie-ios.
public typealias LottieCompletionBlock = (Bool) -> Void

/// One play call: the range in composition frames and its CAMediaTiming.
struct LottiePlayback {
    var fromFrame: Double
    var toFrame: Double
    var loopMode: LottieLoopMode
    var completion: LottieCompletionBlock?
    /// Set when the range (all its repeats) has played.
    var finished = false
    /// Which play call this is (`LottieAnimationLayer.playSerial`), so a stale delegate is ignored.
    var token = 0
    /// Whether the tree's animations were wrapped (every play but the fast case).
    var wrapped = false
}

extension LottieLoopMode {
    /// lottie-ios's `caAnimationConfiguration`: each loop mode as CAMediaTiming. `repeatCount`
    /// 0 is one cycle (docs/BEHAVIOUR.md C3); ∞ repeats forever.
    var timing: (autoreverses: Bool, repeatCount: Float) {
        switch self {
        case .playOnce: return (false, 1)
        case .loop: return (false, .infinity)
        case .autoReverse: return (true, .infinity)
        case .repeat(let n): return (false, n.isFinite ? max(n, 0) : .infinity)
        case .repeatBackwards(let n): return (true, n.isFinite ? max(n, 0) : .infinity)
        }
    }
}

/// Reports the progress animation's end to the play call that started it.
private final class LottieCompletionDelegate: CAAnimationDelegate {
    weak var layer: LottieAnimationLayer?
    let token: Int
    init(layer: LottieAnimationLayer, token: Int) { self.layer = layer; self.token = token }
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        layer?.progressAnimationStopped(token: token, finished: flag)
    }
}

extension LottieAnimationLayer {
    static let progressKey = "lottie.progress"

    // MARK: Time

    /// The frame shown. Setting it pauses there (completion of a running play: false).
    public var currentFrame: CGFloat {
        get {
            guard let a = animation else { return 0 }
            if let p = playback {
                let progress = Double(progressLayer.presentation()?.zPosition ?? progressLayer.zPosition)
                return CGFloat(p.fromFrame + progress * (p.toFrame - p.fromFrame))
            }
            return CGFloat(timeLayer.timeOffset * a.framerate)
        }
        set {
            guard animation != nil, newValue.isFinite else { return }
            endPlayback()
            showFrame(min(max(Double(newValue), -1e9), 1e9))
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

    /// Whether a play call is running and has not played its whole range (all its repeats).
    public var isAnimationPlaying: Bool {
        guard let p = playback else { return false }
        return !p.finished
    }

    /// Plays from the frame shown to `endFrame` with `loopMode` (lottie-ios's `play(completion:)`);
    /// from the start when the end is shown.
    public func play(completion: LottieCompletionBlock? = nil) {
        play(fromProgress: currentProgress >= 1 ? 0 : nil, toProgress: 1, loopMode: nil, completion: completion)
    }

    /// Plays from `fromProgress` (default: the progress shown) to `toProgress` with `loopMode`
    /// (default: `self.loopMode`) at `animationSpeed`, as lottie-ios does. `toProgress` below
    /// `fromProgress` plays backwards. `.playOnce` and `.repeat(n)` stop at `toProgress` and
    /// hold it; `.loop` starts over at `fromProgress`; `.autoReverse` and `.repeatBackwards(n)`
    /// play forwards then backwards (each way counts as one cycle in lottie-ios's `n`, as in
    /// `CAMediaTiming.repeatCount` with `autoreverses`). `completion` hears true at the end of a
    /// finite play, false when interrupted.
    public func play(fromProgress: CGFloat? = nil, toProgress: CGFloat, loopMode: LottieLoopMode? = nil,
                     completion: LottieCompletionBlock? = nil) {
        guard let a = animation else { completion?(false); return }
        let from = fromProgress.map { a.startFrame + Double($0) * (a.endFrame - a.startFrame) } ?? Double(currentFrame)
        let to = a.startFrame + Double(toProgress) * (a.endFrame - a.startFrame)
        play(fromFrame: CGFloat(from), toFrame: CGFloat(to), loopMode: loopMode, completion: completion)
    }

    /// Plays from frame `fromFrame` (default: the frame shown) to `toFrame` (lottie-ios's
    /// `play(fromFrame:toFrame:loopMode:completion:)`); as `play(fromProgress:...)` otherwise.
    public func play(fromFrame: CGFloat? = nil, toFrame: CGFloat, loopMode: LottieLoopMode? = nil,
                     completion: LottieCompletionBlock? = nil) {
        guard animation != nil else { completion?(false); return }
        let from = Double(fromFrame ?? currentFrame), to = Double(toFrame)
        guard from.isFinite, to.isFinite, animationSpeed.isFinite else { completion?(false); return }
        endPlayback()
        let mode = loopMode ?? self.loopMode
        let span = abs(to - from)
        // An empty range or speed 0 shows `from` and ends at once.
        guard span > 0, animationSpeed != 0 else {
            showFrame(from)
            completion?(true)
            return
        }
        startPlayback(LottiePlayback(fromFrame: min(max(from, -1e9), 1e9), toFrame: min(max(to, -1e9), 1e9),
                                     loopMode: mode, completion: completion))
    }

    /// Pauses at the frame shown now (completion of the running play: false).
    public func pause() {
        guard playback != nil else { return }
        let f = Double(currentFrame)
        endPlayback()
        showFrame(f)
    }

    /// Stops and shows the first frame.
    public func stop() {
        guard let a = animation else { return }
        currentFrame = a.startFrame
    }

    // MARK: Machinery

    /// Paused: the tree's built animations, the tree's time frozen at `frame` (Apple's pausing
    /// recipe, docs/BEHAVIOUR.md C10).
    func showFrame(_ frame: Double) {
        guard let a = animation else { return }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        timeLayer.speed = 0
        timeLayer.beginTime = 0
        timeLayer.timeOffset = frame / a.framerate
        CATransaction.commit()
    }

    /// Every animation of the tree wrapped in a group whose window is the range in the
    /// animation's layer's time, with the loop mode's repeatCount/autoreverses and
    /// `animationSpeed` (negative for a backward range): lottie-ios's `CAMediaTimingConfiguration`.
    /// The tree's own time runs at 1 from now (its time 0 = the start of the play).
    ///
    /// One case is left unwrapped, on the timing engine's fast path (carender and the
    /// benchmark play so): `.playOnce` forwards to `endFrame` or beyond, where the tree's time
    /// simply runs from `fromFrame` at `animationSpeed` and the built animations hold their
    /// last keyframes after the end (a file with keyframes after `op` would show them there).
    private func startPlayback(_ p: LottiePlayback) {
        guard let a = animation else { return }
        let lo = min(p.fromFrame, p.toFrame) / a.framerate
        let cycle = abs(p.toFrame - p.fromFrame) / a.framerate
        let backwards = p.toFrame < p.fromFrame
        let speed = Float(animationSpeed) * (backwards ? -1 : 1)
        let (autoreverses, repeatCount) = p.loopMode.timing
        let fast = p.loopMode.timing == (false, 1) && !backwards && p.toFrame >= a.endFrame && animationSpeed > 0
        var record = p
        record.wrapped = !fast
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        defer { CATransaction.commit() }
        timeLayer.speed = fast ? Float(animationSpeed) : 1
        timeLayer.timeOffset = fast ? p.fromFrame / a.framerate : 0
        timeLayer.beginTime = convertTime(CACurrentMediaTime(), from: nil)
        for (layer, key, original) in fast ? [] : builtAnimations {
            let (alpha, beta) = linearTime(of: layer)
            let child = original.copy() as! CAAnimation
            child.beginTime = original.beginTime - (alpha * lo + beta)
            let group = CAAnimationGroup()
            group.animations = [child]
            // beginTime 0 would mean "now" when added (C9): the tiny constant keeps it literal.
            group.beginTime = beta == 0 ? 1e-100 : beta
            group.duration = alpha * cycle
            group.speed = speed
            group.autoreverses = autoreverses
            group.repeatCount = repeatCount
            group.fillMode = .both
            group.isRemovedOnCompletion = false
            layer.add(group, forKey: key)
        }
        // The progress from 0 (fromFrame) to 1 (toFrame) with the same timing, read back by
        // `currentFrame` and reporting completion.
        let progress = CABasicAnimation(keyPath: "zPosition")
        progress.fromValue = NSNumber(value: backwards ? 1.0 : 0.0)
        progress.toValue = NSNumber(value: backwards ? 0.0 : 1.0)
        progress.beginTime = progressLayer.convertTime(CACurrentMediaTime(), from: nil)
        progress.duration = cycle
        progress.speed = speed
        progress.autoreverses = autoreverses
        progress.repeatCount = repeatCount
        progress.fillMode = .both
        progress.isRemovedOnCompletion = false
        playSerial &+= 1
        record.token = playSerial
        progress.delegate = LottieCompletionDelegate(layer: self, token: playSerial)
        playback = record
        progressLayer.add(progress, forKey: Self.progressKey)
    }

    /// The end of a play call: completion false if it had not finished, the built animations
    /// back in place.
    func endPlayback() {
        guard let p = playback else { return }
        playback = nil
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        progressLayer.removeAnimation(forKey: Self.progressKey)
        for (layer, key, original) in p.wrapped ? builtAnimations : [] { layer.add(original, forKey: key) }
        CATransaction.commit()
        if !p.finished { p.completion?(false) }
    }

    func progressAnimationStopped(token: Int, finished: Bool) {
        guard finished, var p = playback, p.token == token, !p.finished else { return }
        p.finished = true
        playback = p
        p.completion?(true)
    }

    func speedChanged(from old: CGFloat) {
        guard let p = playback, !p.finished, old != animationSpeed else { return }
        let completion = p.completion
        playback?.completion = nil
        play(fromFrame: currentFrame, toFrame: CGFloat(p.toFrame), loopMode: p.loopMode, completion: completion)
    }

    /// The layer's local time as α·t + β of the tree's time t (the time layer's): C1 composed
    /// from the tree's root down to `layer`. Lottie trees are linear in time (precompositions'
    /// `beginTime`/`speed`; time remaps are sampled), so one pair describes each layer.
    private func linearTime(of layer: CALayer) -> (Double, Double) {
        var chain: [CALayer] = []
        var l: CALayer? = layer
        while let x = l, x !== timeLayer { chain.append(x); l = x.superlayer }
        var alpha = 1.0, beta = 0.0
        for x in chain.reversed() {
            let s = Double(x.speed)
            alpha *= s
            beta = (beta - x.beginTime) * s + x.timeOffset
        }
        return (alpha, beta)
    }

    /// Every animation in the tree (masks included), as built.
    static func collectAnimations(in root: CALayer) -> [(layer: CALayer, key: String, animation: CAAnimation)] {
        var out: [(layer: CALayer, key: String, animation: CAAnimation)] = []
        var stack = [root]
        while let l = stack.popLast() {
            for key in l.animationKeys() ?? [] {
                if let a = l.animation(forKey: key) { out.append((l, key, a)) }
            }
            stack += l.sublayers ?? []
            if let m = l.mask { stack.append(m) }
        }
        return out
    }
}
