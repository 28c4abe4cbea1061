import Testing
import Foundation

/// Merge paths (`mm`, issue 23), After Effects' modes as LottieMergePaths.swift draws them:
/// two 40×40 squares, A centred at (40, 50) drawn clockwise and B at (60, 50) drawn the other
/// way (`"d":3`), overlapping in x 40…60, then the merge paths item, then a red fill. Expected
/// pixels by hand: A alone at (30, 50), B alone at (70, 50), the overlap at (50, 50).
@Suite struct LottieMergePathsTests {
    static func squares(mode: Int) -> String {
        shapeLayer(shapes: #"{"ty":"gr","it":[{"ty":"rc","p":{"k":[40,50]},"s":{"k":[40,40]},"r":{"k":0}},"#
                   + #"{"ty":"rc","d":3,"p":{"k":[60,50]},"s":{"k":[40,40]},"r":{"k":0}},"#
                   + #"{"ty":"mm","mm":\#(mode)},{"ty":"fl","c":{"k":[1,0,0,1]},"o":{"k":100}},{"ty":"tr"}]}"#)
    }

    @Test func mergeModeIsOnePathWithTheFillRule() throws {
        // Mode 1 (merge): the paths become one path, filled non-zero: opposite windings cancel
        // in the overlap (a hole), as in After Effects.
        let a = try LottieAnimation(data: lottie(layers: Self.squares(mode: 1)))
        let img = try render(a, frame: 0)
        #expect(pixel(img, 30, 50) == [255, 0, 0, 255])
        #expect(pixel(img, 70, 50) == [255, 0, 0, 255])
        #expect(pixel(img, 50, 50)[3] == 0)
        #expect(!a.issues.contains { $0.feature.contains("merge paths") })
    }

    @Test func addModeIsTheUnion() throws {
        // Mode 2 (add): the union of the filled areas, whatever each path's direction.
        let a = try LottieAnimation(data: lottie(layers: Self.squares(mode: 2)))
        let img = try render(a, frame: 0)
        #expect(pixel(img, 30, 50) == [255, 0, 0, 255])
        #expect(pixel(img, 50, 50) == [255, 0, 0, 255])
        #expect(pixel(img, 70, 50) == [255, 0, 0, 255])
        #expect(pixel(img, 85, 50)[3] == 0)
        #expect(!a.issues.contains { $0.feature.contains("merge paths") })
    }

    @Test func excludeIntersectionsKeepsWhatOnePathCovers() throws {
        // Mode 5: covered by exactly one path → filled; by both → empty.
        let a = try LottieAnimation(data: lottie(layers: Self.squares(mode: 5)))
        let img = try render(a, frame: 0)
        #expect(pixel(img, 30, 50) == [255, 0, 0, 255])
        #expect(pixel(img, 70, 50) == [255, 0, 0, 255])
        #expect(pixel(img, 50, 50)[3] == 0)
    }

    @Test func subtractAndIntersectWarnByNameAndDrawUnmerged() throws {
        for (mode, name) in [(3, "merge paths mode 3 (subtract)"), (4, "merge paths mode 4 (intersect)")] {
            let a = try LottieAnimation(data: lottie(layers: Self.squares(mode: mode)))
            let img = try render(a, frame: 0)
            #expect(a.issues.filter { $0.feature == name && $0.kind == .unsupported }.count == 1)
            // Unmerged, as lottie-ios draws it: one non-zero fill of both, the overlap a hole.
            #expect(pixel(img, 30, 50) == [255, 0, 0, 255])
            #expect(pixel(img, 50, 50)[3] == 0)
        }
    }

    @Test func aBadModeIsReportedAndDrawnAsMerge() throws {
        let a = try LottieAnimation(data: lottie(layers: Self.squares(mode: 99)))
        let img = try render(a, frame: 0)
        #expect(a.issues.contains { $0.kind == .invalidValue && $0.feature == "merge paths mode 99" })
        #expect(pixel(img, 50, 50)[3] == 0)
    }

    @Test func orientationHelpersFollowTheShoelaceSign() {
        // A square drawn (0,0) → (10,0) → (10,10) → (0,10): area +100 in y-down coordinates
        // (x·y' − x'·y summed); reversed, −100; turned positive, +100 again.
        let p = CGMutablePath()
        p.move(to: .zero); p.addLine(to: CGPoint(x: 10, y: 0)); p.addLine(to: CGPoint(x: 10, y: 10)); p.addLine(to: CGPoint(x: 0, y: 10))
        p.closeSubpath()
        #expect(abs(mergeSignedArea(p) - 100) < 1e-9)
        #expect(abs(mergeSignedArea(mergeReversed(p)) + 100) < 1e-9)
        #expect(abs(mergeSignedArea(mergeOrientedPositive(mergeReversed(p))) - 100) < 1e-9)
        #expect(mergeReversed(p).boundingBox == p.boundingBox)
    }
}
