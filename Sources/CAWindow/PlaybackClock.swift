import QuartzCore

/// Playback control of a layer subtree through the layer's own timing, as Apple's Core
/// Animation Programming Guide does it ("Pausing and Resuming Animations", docs/BEHAVIOUR.md C10):
///
/// - pause: `p = layer.convertTime(now, from: nil); layer.speed = 0; layer.timeOffset = p`
/// - resume: `p = layer.timeOffset; layer.speed = rate; layer.timeOffset = 0;
///   layer.beginTime = 0; layer.beginTime = parentTime(now) − p / rate`
///
/// Apple's resume sets `beginTime = convertTime(now) − p`, which is the same at rate 1; with a
/// playback rate other than 1 the begin time is `parentTime − p / rate` so playback continues
/// from `p` (C11: speeds multiply). Seeking while paused moves `timeOffset`; while playing it
/// moves `beginTime`. Everything below the layer (animations, sublayers) follows. Extension
/// beyond Apple's API: a helper around the documented recipe, used by `ScenePreview` and the
/// interactive demo.
public struct PlaybackClock {
    /// The layer whose timing is controlled.
    public let layer: CALayer
    /// Playback rate while playing (the layer's speed); positive.
    public private(set) var rate: Float = 1
    public var isPaused: Bool { layer.speed == 0 }

    public init(layer: CALayer) { self.layer = layer }

    /// The layer's local time at media time `now`: the playback position.
    public func time(at now: CFTimeInterval) -> CFTimeInterval {
        layer.convertTime(now, from: nil)
    }

    /// The layer's parent's time at media time `now` (media time for a root layer).
    private func parentTime(_ now: CFTimeInterval) -> CFTimeInterval {
        layer.superlayer?.convertTime(now, from: nil) ?? now
    }

    /// Pauses at the current position (Apple's recipe). No effect when already paused.
    public func pause(at now: CFTimeInterval) {
        guard !isPaused else { return }
        let p = time(at: now)
        layer.speed = 0
        layer.timeOffset = p
    }

    /// Resumes from the paused position (Apple's recipe). No effect when playing.
    public func resume(at now: CFTimeInterval) {
        guard isPaused else { return }
        let p = layer.timeOffset
        layer.speed = rate
        layer.timeOffset = 0
        layer.beginTime = 0
        layer.beginTime = parentTime(now) - p / Double(rate)
    }

    public func toggle(at now: CFTimeInterval) {
        if isPaused { resume(at: now) } else { pause(at: now) }
    }

    /// Moves the position to `p` at media time `now`, paused or playing as before.
    public func seek(to p: CFTimeInterval, at now: CFTimeInterval) {
        guard p.isFinite else { return }
        if isPaused {
            layer.timeOffset = p
        } else {
            layer.timeOffset = 0
            layer.beginTime = parentTime(now) - p / Double(rate)
        }
    }

    /// Changes the playback rate, keeping the position. Rates are clamped to 1/64…64;
    /// non-finite or non-positive rates are ignored (play backwards by seeking).
    public mutating func setRate(_ r: Float, at now: CFTimeInterval) {
        guard r.isFinite, r > 0 else { return }
        let p = time(at: now)
        rate = min(max(r, 1 / 64), 64)
        if !isPaused {
            layer.speed = rate
            seek(to: p, at: now)
        }
    }

    /// Puts the layer at position 0, paused, with no offsets: the state a freshly loaded
    /// scene is committed in, so its animations are stamped with begin time 0 in scene time.
    public func reset() {
        layer.speed = 0
        layer.beginTime = 0
        layer.timeOffset = 0
    }
}
