import Testing
import Foundation

/// Decoding the bodymovin schema (issue 23): top-level fields, animated properties in their
/// forms (static `k`, keyframes, the 4.x `e` form, split position), malformed input.
@Suite struct LottieDecodingTests {
    static let minimal = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":50,"layers":[],"markers":[{"cm":"intro","tm":10,"dr":5}]}"#

    @Test func topLevelFields() throws {
        let a = try LottieAnimation(data: Data(Self.minimal.utf8))
        #expect(a.framerate == 30)
        #expect(a.startFrame == 0)
        #expect(a.endFrame == 60)
        #expect(a.duration == 2)
        #expect(a.size == CGSize(width: 100, height: 50))
        #expect(a.markers == [LottieAnimation.Marker(name: "intro", frameTime: 10, durationFrameTime: 5)])
    }

    @Test func malformedJSONReportsLineAndColumn() {
        let text = "{\n  \"v\": \"5.7.0\",\n  \"fr\": 30,,\n}"
        // Line 3 is `  "fr": 30,,`: the second comma, column 12, is where a key should be.
        #expect(throws: LottieError.malformedJSON(line: 3, column: 12, reason: "expected a string key")) {
            try LottieAnimation(data: Data(text.utf8))
        }
        #expect(throws: LottieError.malformedJSON(line: 1, column: 9, reason: "unexpected end of input in an array")) {
            try LottieAnimation(data: Data(#"{"v": [1"#.utf8))
        }
    }

    @Test func jsonThatIsNotLottieIsRejected() {
        #expect(throws: LottieError.self) { try LottieAnimation(data: Data(#"{"format":"ca-scene"}"#.utf8)) }
        #expect(throws: LottieError.self) { try LottieAnimation(data: Data(#"[1, 2]"#.utf8)) }
    }

    @Test func staticAndKeyframedValues() {
        #expect(propertyKeyframeCount(#"{"a":0,"k":[1,2]}"#) == 1)
        #expect(propertyValue(#"{"a":0,"k":[1,2]}"#, at: 50) == [1, 2])
        // Two keyframes with linear handles: halfway is the mean; before and after, the ends.
        let k = #"{"a":1,"k":[{"t":0,"s":[0],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":10,"s":[100]}]}"#
        #expect(propertyValue(k, at: 5) == [50])
        #expect(propertyValue(k, at: -3) == [0])
        #expect(propertyValue(k, at: 30) == [100])
    }

    @Test func oldFormEndValuesAndHolds() {
        // bodymovin 4.x: each keyframe's segment ends at `e`; the last keyframe has only `t`.
        let k = #"{"k":[{"t":0,"s":[10],"e":[20]},{"t":10,"s":[20],"e":[40],"h":1},{"t":20}]}"#
        #expect(propertyKeyframeCount(k) == 3)
        #expect(propertyValue(k, at: 5) == [15])       // no handles: linear
        #expect(propertyValue(k, at: 15) == [20])      // hold
        #expect(propertyValue(k, at: 20) == [40])      // the last keyframe's value is the previous e
    }

    @Test func easingHandlesFollowTheCubicBezier() {
        // ease-in-out (0.42, 0, 0.58, 1) at half time is exactly half (symmetry), and the
        // standard ease-in (0.42, 0, 1, 1) at half time is 0.315357 (docs/BEHAVIOUR.md B6).
        #expect(abs(easedProgress(0.5, out: CGPoint(x: 0.42, y: 0), in: CGPoint(x: 0.58, y: 1)) - 0.5) < 1e-6)
        #expect(abs(easedProgress(0.5, out: CGPoint(x: 0.42, y: 0), in: CGPoint(x: 1, y: 1)) - 0.315357) < 1e-5)
    }

    @Test func splitPositionAndSpatialTangents() {
        let (whole, x, y) = splitPosition(#"{"p":{"s":true,"x":{"k":5},"y":{"k":7}}}"#)
        #expect(!whole)
        #expect(x == 5)
        #expect(y == 7)
        // A curved segment from (0,0) to (100,0) bulging up by the tangents: at half progress
        // (by arc length, symmetric curve) the point is the curve's middle, (50, −75).
        let mid = propertyValue(#"{"k":[{"t":0,"s":[0,0],"to":[0,-100],"ti":[0,-100]},{"t":10,"s":[100,0]}]}"#, at: 5) ?? []
        #expect(mid.count == 2)
        #expect(abs((mid.first ?? 0) - 50) < 0.01)
        #expect(abs((mid.last ?? 0) + 75) < 0.01)
    }

    @Test func singleComponentVectorHasZeroY() {
        // lottie-ios reads an anchor of [9.688] as (9.688, 0): the corpus's pr_1599 sample.
        #expect(propertyValue(#"{"k":[9.688]}"#, at: 0) == [9.688])
    }
}
