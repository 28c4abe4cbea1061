import Testing
import Foundation
@testable import CALottie

@Suite struct LottieDecodingTests {
    static let minimal = #"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":50,"layers":[]}"#

    @Test func topLevelFields() throws {
        let a = try LottieAnimation(data: Data(Self.minimal.utf8))
        #expect(a.framerate == 30)
        #expect(a.startFrame == 0)
        #expect(a.endFrame == 60)
        #expect(a.duration == 2)
        #expect(a.size == CGSize(width: 100, height: 50))
    }

    @Test func malformedJSONReportsLineAndColumn() {
        let text = "{\n  \"v\": \"5.7.0\",\n  \"fr\": 30,,\n}"
        #expect(throws: LottieError.malformedJSON(line: 3, column: 12, reason: "expected a string key")) {
            try LottieAnimation(data: Data(text.utf8))
        }
    }
}
