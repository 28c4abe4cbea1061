import Testing
import Foundation

/// The GL backend clears to the root's opaque background instead of drawing it when it covers
/// the whole frame (issue 21's replicator floor; `GLRenderer+BackgroundClear.swift`): the same
/// pixels, one box fewer to shade.
@Suite struct BackgroundClearTests {
    func scene(_ configure: (CALayer) -> Void = { _ in }) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 30)
        root.backgroundColor = solid(0.2, 0.4, 0.6)
        let child = CALayer()
        child.frame = CGRect(x: 10, y: 10, width: 10, height: 10)
        child.backgroundColor = solid(1, 0, 0, 0.5)
        root.addSublayer(child)
        configure(root)
        return root
    }

    @Test("an opaque root background over the whole frame is the clear colour; the pixels are its colour")
    func opaqueRootIsTheClearColour() throws {
        let (img, stats, _) = try GeometryProbe.render(scene(), size: CGSize(width: 40, height: 30))
        #expect(stats.backgroundClears == 1, "\(stats)")
        // (0.2, 0.4, 0.6) → (51, 102, 153) everywhere but the child; the child's red at 0.5 over it.
        GeometryProbe.expectRegion(img, 0...39, 0...9, RGBA(51, 102, 153))
        GeometryProbe.expectRegion(img, 0...9, 10...19, RGBA(51, 102, 153))
        #expect(img.rgba(15, 15).isClose(to: RGBA(153, 51, 77), tolerance: 1), "\(img.rgba(15, 15))")
    }

    @Test("a translucent, rounded or smaller root background is drawn as a box, over the clear colour")
    func otherRootsAreDrawn() throws {
        let translucent = try GeometryProbe.render(scene { $0.backgroundColor = solid(0.2, 0.4, 0.6, 0.5) }, size: CGSize(width: 40, height: 30))
        #expect(translucent.stats.backgroundClears == 0)
        // Half of (51, 102, 153) over the white clear colour.
        #expect(translucent.image.rgba(2, 2).isClose(to: RGBA(153, 179, 204), tolerance: 1), "\(translucent.image.rgba(2, 2))")
        let rounded = try GeometryProbe.render(scene { $0.cornerRadius = 8 }, size: CGSize(width: 40, height: 30))
        #expect(rounded.stats.backgroundClears == 0)
        #expect(rounded.image.rgba(0, 0) == RGBA(255, 255, 255), "the corner outside the rounding keeps the clear colour")
        let smaller = try GeometryProbe.render(scene { $0.frame = CGRect(x: 0, y: 0, width: 39, height: 30) }, size: CGSize(width: 40, height: 30))
        #expect(smaller.stats.backgroundClears == 0)
        #expect(smaller.image.rgba(39, 5) == RGBA(255, 255, 255))
    }
}
