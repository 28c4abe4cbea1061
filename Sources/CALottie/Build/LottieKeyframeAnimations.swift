import Foundation
import CoreGraphics

/// Which frames an animation's keyframes sit at.
enum LottieKeyTrack {
    /// The keyframes of one property, with their easing, holds and spatial tangents.
    case keys([LottieKeyInfo])
    /// A value derived from several animated properties: sampled at every frame in the range.
    case sampled(ClosedRange<Double>)
    case none

    /// The track of a value derived from `tracks`: the one animated input's keyframes, or
    /// every frame between the earliest and latest keyframe when several are animated.
    static func combined(_ tracks: [LottieKeyTrack]) -> LottieKeyTrack {
        let animated = tracks.filter { if case .none = $0 { return false }; return true }
        if animated.isEmpty { return .none }
        if animated.count == 1 { return animated[0] }
        var lo = Double.infinity, hi = -Double.infinity
        for t in animated {
            switch t {
            case .keys(let k): lo = min(lo, k.first!.time); hi = max(hi, k.last!.time)
            case .sampled(let r): lo = min(lo, r.lowerBound); hi = max(hi, r.upperBound)
            case .none: break
            }
        }
        return lo < hi ? .sampled(lo...hi) : .none
    }
}

struct LottieKeyInfo {
    var time: Double
    var hold: Bool
    var out: CGPoint?
    var inn: CGPoint?
    var spatial: Bool
}

extension LottieProperty {
    var track: LottieKeyTrack {
        guard keyframes.count > 1 else { return .none }
        return .keys(keyframes.map { k in
            let spatial = (k.spatialOut?.contains { $0 != 0 } ?? false) || (k.spatialIn?.contains { $0 != 0 } ?? false)
            return LottieKeyInfo(time: k.time, hold: k.hold, out: k.outTangent, inn: k.inTangent, spatial: spatial)
        })
    }
}

extension Optional {
    func track<V>() -> LottieKeyTrack where Wrapped == LottieProperty<V> { self?.track ?? .none }
}

/// Builds `CAKeyframeAnimation`s from keyframe tracks (lottie-ios's Core Animation engine's
/// approach): values at the keyframes, `keyTimes` from their frames, one
/// `CAMediaTimingFunction` per segment from the bezier handles, an extra keyframe just before
/// the next one for hold keyframes, and sampled points along curved motion paths.
struct LottieAnimationFactory {
    var limits: LottieLimits
    /// Where the layers a value provider can change are listed (nil: not collected).
    var targets: LottieValueTargets? = nil

    /// Adds to `layer` an animation of `keyPath` following `track`; `value(layerFrame)` gives
    /// the value in the layer property's type. Returns false when nothing animates (the caller
    /// has set the static value).
    @discardableResult
    func add(to layer: CALayer, keyPath: String, track: LottieKeyTrack, time: LottieLayerTime,
             discrete: Bool = false, value: (Double) -> Any?) -> Bool {
        var frames: [Double] = []       // times in the animation's time space, seconds
        var values: [Any] = []
        var functions: [CAMediaTimingFunction] = []
        let linear = CAMediaTimingFunction(name: .linear)
        if let remap = time.comp.remapped {
            if case .none = track { return false }
            return sampleRemapped(layer, keyPath, remap, time, discrete, value)
        }
        let fps = time.comp.fps
        func seconds(_ layerFrame: Double) -> Double { time.compFrame(layerFrame) / fps }
        switch track {
        case .none:
            return false
        case .sampled(let range):
            let span = range.upperBound - range.lowerBound
            let n = max(1, min(Int.clamped(span.rounded(.up)), 2000))
            for k in 0...n {
                let f = range.lowerBound + span * Double(k) / Double(n)
                guard let v = value(f) else { return false }
                frames.append(seconds(f)); values.append(v)
                if k > 0 { functions.append(linear) }
            }
        case .keys(let keys):
            for (i, k) in keys.enumerated() {
                guard let v = value(k.time) else { return false }
                if i > 0 {
                    let prev = keys[i - 1]
                    let span = k.time - prev.time
                    if prev.hold && !discrete {
                        // Hold: the previous value until just before this keyframe.
                        let eps = min(span * 0.5, 1e-3)
                        if let pv = values.last {
                            frames.append(seconds(k.time - eps)); values.append(pv); functions.append(linear)
                        }
                        functions.append(linear)
                    } else if prev.spatial && span > 0 {
                        // A curved motion path: sampled along the curve (eased as the keyframe says).
                        let n = max(2, limits.spatialSamples)
                        for j in 1..<n {
                            let f = prev.time + span * Double(j) / Double(n)
                            guard let sv = value(f) else { return false }
                            frames.append(seconds(f)); values.append(sv); functions.append(linear)
                        }
                        functions.append(linear)
                    } else {
                        functions.append(Self.timingFunction(prev.out, prev.inn) ?? linear)
                    }
                }
                frames.append(seconds(k.time)); values.append(v)
            }
        }
        return install(layer, keyPath, frames, values, functions, discrete)
    }

    private func sampleRemapped(_ layer: CALayer, _ keyPath: String, _ remap: (frames: [Double], toComp: (Double) -> Double),
                                _ time: LottieLayerTime, _ discrete: Bool, _ value: (Double) -> Any?) -> Bool {
        var frames: [Double] = [], values: [Any] = [], functions: [CAMediaTimingFunction] = []
        let linear = CAMediaTimingFunction(name: .linear)
        for f in remap.frames {
            guard let v = value(time.layerFrame(remap.toComp(f))) else { return false }
            if !frames.isEmpty { functions.append(linear) }
            frames.append(f / time.comp.fps); values.append(v)
        }
        return install(layer, keyPath, frames, values, functions, discrete)
    }

    private func install(_ layer: CALayer, _ keyPath: String, _ frames: [Double], _ values: [Any],
                         _ functions: [CAMediaTimingFunction], _ discrete: Bool) -> Bool {
        guard frames.count > 1, let t0 = frames.first, let t1 = frames.last, t1 > t0 else {
            return false
        }
        let a = CAKeyframeAnimation(keyPath: keyPath)
        a.values = values
        let d = t1 - t0
        var last = 0.0
        var keyTimes = frames.map { t in
            let k = max(last, min(1, (t - t0) / d)); last = k
            return NSNumber(value: k)
        }
        // Discrete mode takes one key time more than values (docs/BEHAVIOUR.md F2).
        if discrete { keyTimes.append(NSNumber(value: 1.0)) }
        a.keyTimes = keyTimes
        if discrete {
            a.calculationMode = .discrete
        } else {
            a.timingFunctions = functions
        }
        // beginTime 0 would mean "now" (docs/BEHAVIOUR.md C9): the tiny constant keeps it literal.
        a.beginTime = t0 == 0 ? 1e-100 : t0
        a.duration = d
        a.fillMode = .both
        a.isRemovedOnCompletion = false
        layer.add(a, forKey: keyPath)
        return true
    }

    static func timingFunction(_ o: CGPoint?, _ i: CGPoint?) -> CAMediaTimingFunction? {
        guard let o, let i else { return nil }
        let x1 = Float(min(max(o.x, 0), 1)), x2 = Float(min(max(i.x, 0), 1))
        let y1 = Float(max(min(o.y, 100), -100)), y2 = Float(max(min(i.y, 100), -100))
        guard x1.isFinite, x2.isFinite, y1.isFinite, y2.isFinite else { return nil }
        return CAMediaTimingFunction(controlPoints: x1, y1, x2, y2)
    }
}
