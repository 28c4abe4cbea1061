import Testing
import Foundation

/// docs/BEHAVIOUR.md N5b (render.m): background, border inside the bounds over the background, corner
/// radius removing background only in the corners, hidden / opacity-0 painting nothing,
/// opacity 0.5 painting the same area at partial strength.
@Suite struct BackgroundAndBorderTests {
    func scene(_ configure: (CALayer) -> Void) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 80)
        let l = CALayer()
        l.frame = CGRect(x: 10, y: 10, width: 80, height: 60)
        l.backgroundColor = solid(0, 0, 1)
        configure(l)
        root.addSublayer(l)
        return root
    }

    @Test func N5b_backgroundFillsExactlyTheBounds() throws {
        let img = try RenderHarness.render(scene { _ in }, size: CGSize(width: 100, height: 80))
        #expect(img.rgba(10, 10) == RGBA(0, 0, 255))
        #expect(img.rgba(89, 69) == RGBA(0, 0, 255))
        #expect(img.rgba(9, 10) == RGBA(255, 255, 255))
        #expect(img.rgba(90, 40) == RGBA(255, 255, 255))
        #expect(img.rgba(50, 70) == RGBA(255, 255, 255))
        Golden.expectMatches(img, named: "background")
    }

    @Test func N5b_borderIsInsideTheBoundsOverTheBackground() throws {
        let img = try RenderHarness.render(scene { $0.borderWidth = 4; $0.borderColor = solid(1, 0, 0) },
                                           size: CGSize(width: 100, height: 80))
        #expect(img.rgba(10, 40) == RGBA(255, 0, 0))   // edge pixel takes the border colour
        #expect(img.rgba(13, 40) == RGBA(255, 0, 0))
        #expect(img.rgba(14, 40) == RGBA(0, 0, 255))
        #expect(img.rgba(9, 40) == RGBA(255, 255, 255))  // nothing outside the bounds
        Golden.expectMatches(img, named: "border")
    }

    @Test func N5b_cornerRadiusRemovesBackgroundOnlyInTheCorners() throws {
        let img = try RenderHarness.render(scene { $0.cornerRadius = 20 }, size: CGSize(width: 100, height: 80))
        #expect(img.rgba(11, 11) == RGBA(255, 255, 255))
        #expect(img.rgba(88, 68) == RGBA(255, 255, 255))
        #expect(img.rgba(50, 10) == RGBA(0, 0, 255))
        #expect(img.rgba(10, 40) == RGBA(0, 0, 255))
        // Antialiased: some pixel on the arc is between the two colours.
        var partial = 0
        for y in 10..<30 { for x in 10..<30 { let p = img.rgba(x, y); if p.b == 255 && p.r > 20 && p.r < 235 { partial += 1 } } }
        #expect(partial >= 15)
        Golden.expectMatches(img, named: "corner-radius")
    }

    @Test func maskedCornersRoundOnlyTheChosenCorners() throws {
        let img = try RenderHarness.render(scene { $0.cornerRadius = 20; $0.maskedCorners = [.layerMaxXMaxYCorner] },
                                           size: CGSize(width: 100, height: 80))
        #expect(img.rgba(10, 10) == RGBA(0, 0, 255))
        #expect(img.rgba(89, 10) == RGBA(0, 0, 255))
        #expect(img.rgba(10, 69) == RGBA(0, 0, 255))
        #expect(img.rgba(88, 68) == RGBA(255, 255, 255))
        Golden.expectMatches(img, named: "masked-corners")
    }

    @Test func N6_continuousCornersCutLessAtTheDiagonalEndsButReachFurtherAlongEdges() throws {
        let circ = try RenderHarness.render(scene { $0.cornerRadius = 20 }, size: CGSize(width: 100, height: 80))
        let cont = try RenderHarness.render(scene { $0.cornerRadius = 20; $0.cornerCurve = .continuous },
                                            size: CGSize(width: 100, height: 80))
        // Along the top edge the continuous curve starts 1.528665·r from the corner: at
        // x = 10 + 24 a circular corner has reached the edge, the continuous one has not.
        #expect(circ.rgba(34, 10) == RGBA(0, 0, 255))
        #expect(cont.rgba(34, 10).r > 0)
        Golden.expectMatches(cont, named: "continuous-corners")
    }

    @Test func N5b_hiddenAndZeroOpacityPaintNothing() throws {
        for configure in [{ (l: CALayer) in l.isHidden = true }, { (l: CALayer) in l.opacity = 0 }] {
            let img = try RenderHarness.render(scene(configure), size: CGSize(width: 100, height: 80))
            #expect(img.rgba(50, 40) == RGBA(255, 255, 255))
        }
    }

    @Test func N5b_halfOpacityPaintsTheSameAreaAtPartialStrength() throws {
        let img = try RenderHarness.render(scene { $0.opacity = 0.5 }, size: CGSize(width: 100, height: 80))
        #expect(img.rgba(50, 40).isClose(to: RGBA(127, 127, 255), tolerance: 2))
        #expect(img.rgba(9, 40) == RGBA(255, 255, 255))
    }

    @Test func N5_edgeAntialiasingMaskTurnsSmoothingOffPerEdge() throws {
        func rotated(_ mask: CAEdgeAntialiasingMask) throws -> CGImage {
            try RenderHarness.render(scene {
                $0.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
                $0.edgeAntialiasingMask = mask
            }, size: CGSize(width: 100, height: 80))
        }
        func partialPixels(_ img: CGImage) -> Int {
            var n = 0
            for y in 0..<80 { for x in 0..<100 { let p = img.rgba(x, y); if p.r > 10 && p.r < 245 { n += 1 } } }
            return n
        }
        let all = partialPixels(try rotated([.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge]))
        let none = partialPixels(try rotated([]))
        let some = partialPixels(try rotated([.layerLeftEdge, .layerRightEdge]))
        #expect(all > 100)
        #expect(none == 0)
        #expect(some > 10 && some < all)
    }
}
