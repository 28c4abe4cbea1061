/// Where a timing element is at a parent time (docs/BEHAVIOUR.md C1–C8): whether it contributes, its
/// basic time within the current iteration, and the iteration index (for `cumulative`).
package struct TimingSample {
    package var basicTime: Double
    package var iteration: Int
    /// `basicTime / duration`, before any timing function.
    package var fraction: Double
}

package enum TimingPhase { case before, active, after }

extension MediaTimingValues {
    /// One cycle: the duration, twice when autoreversing (C3).
    package var cycle: Double { duration * (autoreverses ? 2 : 1) }

    /// The active duration (C3): repeatDuration if set, else repeatCount cycles (fractional
    /// allowed, ∞ forever; 0 means one), else one cycle.
    package var activeDuration: Double {
        if repeatDuration > 0 { return repeatDuration }
        if repeatCount > 0 { return Double(repeatCount) * cycle }
        return cycle
    }

    /// Time since the start, in the element's own units, without timeOffset (C4). A negative
    /// speed runs the active duration backwards from its end [INFERRED; Apple does not
    /// document the window for negative speeds].
    @inline(__always)
    package func elapsed(_ parentTime: Double) -> Double {
        (parentTime - beginTime) * Double(abs(speed))
    }

    package func phase(_ parentTime: Double) -> TimingPhase {
        let a = elapsed(parentTime)
        if a < 0 { return .before }
        return a < activeDuration ? .active : .after
    }

    /// The sample at `parentTime`, or nil when the element contributes nothing (C5 fill rules).
    /// `removedOnCompletion` makes the after-fill vanish, as the removed animation would (C5).
    package func sample(_ parentTime: Double, removedOnCompletion: Bool = false) -> TimingSample? {
        let d = duration
        guard d > 0 else { return nil }
        let ad = activeDuration
        var a = elapsed(parentTime)
        var atEnd = false
        if a < 0 {
            guard fillsBackwards else { return nil }
            a = 0
        } else if a >= ad {
            guard !removedOnCompletion, fillsForwards, ad.isFinite else { return nil }
            a = ad
            atEnd = true
        }
        if speed < 0 { a = ad - a; atEnd = a >= ad }
        return Self.sample(u: a + timeOffset, duration: d, cycle: cycle, atEnd: atEnd)
    }

    /// C4: k = ⌊u/c⌋, p = u − k·c, basic = p (≤ d) else 2d − p; at the exact end of the active
    /// interval the end of the last cycle is used (p = c), so a finished forward animation holds
    /// its end value and an autoreversed one its start (C4, C6, C7).
    package static func sample(u: Double, duration d: Double, cycle c: Double, atEnd: Bool) -> TimingSample {
        guard d.isFinite else { return TimingSample(basicTime: u, iteration: 0, fraction: 0) }
        var k = (u / c).rounded(.down)
        if atEnd && u > 0 { k = (u / c).rounded(.up) - 1 }
        var p = u - k * c
        if p < 0 { p = 0 }
        let basic = p <= d ? p : 2 * d - p
        let ik = k.isFinite ? Int(max(min(k, 1e9), -1e9)) : 0
        return TimingSample(basicTime: basic, iteration: ik, fraction: basic / d)
    }

    /// The parent time at which the active duration ends (∞ when it never does).
    package var endTimeInParent: Double {
        let s = Double(abs(speed))
        guard s > 0 else { return .infinity }
        return beginTime + activeDuration / s
    }
}
