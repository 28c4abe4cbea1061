import Foundation

/// How a composition's frames become the time of the layer tree its animations run in.
///
/// Linear (the usual case): a composition's layers and animations run in that composition's
/// own time, seconds = frame / fps; a precomposition's start time `st` and stretch `sr` become
/// its content layer's `beginTime` and `speed` (CAMediaTiming, docs/BEHAVIOUR.md C1), so the
/// engine maps parent time to child time. Time-remapped (`tm`): the map is not linear, and
/// lottie-ios's Core Animation engine answers it the same way: every animation inside is
/// sampled at each frame of the outer (un-remapped) timeline.
struct LottieTime {
    var fps: Double
    /// Non-nil inside a time-remapped precomposition: the outer frames to sample (in the time
    /// space the animations run in) and the map from such a frame to this composition's frame.
    var remapped: (frames: [Double], toComp: (Double) -> Double)?
    /// The names of the precomposition layers this composition is inside, outermost first:
    /// the start of its layers' key paths (`AnimationKeypath`).
    var names: [String] = []
}

/// One Lottie layer's time: its frames are `(compFrame − st) / sr`.
struct LottieLayerTime {
    var comp: LottieTime
    var startTime: Double
    var stretch: Double
    init(comp: LottieTime, startTime: Double = 0, stretch: Double = 1) {
        self.comp = comp; self.startTime = startTime; self.stretch = stretch == 0 ? 1 : stretch
    }
    func compFrame(_ layerFrame: Double) -> Double { layerFrame * stretch + startTime }
    func layerFrame(_ compFrame: Double) -> Double { (compFrame - startTime) / stretch }
}
