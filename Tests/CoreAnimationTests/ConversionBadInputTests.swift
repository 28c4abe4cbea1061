import Testing
@testable import CoreAnimation

/// Issue 17: float → integer conversions of input-derived values saturate instead of trapping
/// (`Int(_:)` of a finite Double beyond ±9.2e18 is a SIGILL).
private final class CountingLayer: CALayer {
    @LayerProperty(key: "count") var count: Int = 0
}

@Suite struct ConversionBadInputTests {
    @Test("A by-value transform scaled by a huge factor (cumulative repeats) saturates, no trap")
    func hugeTransformScale() {
        let m = CATransform3DMakeTranslation(1, 0, 0)
        for k in [1e20, -1e20, 1e300, Double.greatestFiniteMagnitude] {
            guard case .transform(let r) = AnimValue.transform(m).scaled(by: k) else {
                Issue.record("not a transform"); continue
            }
            // Capped at 1,000 repetitions (documented in `scaled(by:)`).
            #expect(abs(abs(r.m41) - 1000) < 1e-6, "k \(k)")
        }
    }

    @Test("An Int layer property set to 1e300 through KVC reads back saturated, no trap")
    func hugeNumberIntoIntProperty() {
        let l = CountingLayer()
        l.setValue(1e300, forKey: "count")
        #expect(l.count == Int.max)
        l.setValue(-1e300, forKey: "count")
        #expect(l.count == Int.min)
        l.setValue(Double.nan, forKey: "count")
        #expect(l.count == 0)
    }
}
