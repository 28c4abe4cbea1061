import Testing
import Foundation

/// Issue 23: `makeImage()` reads each frame into the array of the image it returned last once
/// that image is gone (no fresh megabyte a frame), and never changes an image that lives.
@Suite struct ReadBackReuseTests {
    static func frame(_ r: CARenderer, _ root: CALayer, color: CGColor) throws -> CGImage {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        root.backgroundColor = color
        CATransaction.commit()
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        r.endFrame()
        return try r.makeImage()
    }

    static func address(_ img: CGImage) -> UInt {
        img.withUnsafeRGBA8Bytes { UInt(bitPattern: $0.baseAddress) }
    }

    @Test("a live image keeps its pixels; a released image's array takes the next frame", arguments: [CARenderer.Backend.openGL, .software])
    func liveImagesKeepTheirBytes(_ backend: CARenderer.Backend) throws {
        let r = try CARenderer(offscreenSize: CGSize(width: 64, height: 48), scale: 1, options: .init(backend: backend))
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        r.layer = root
        let red = try Self.frame(r, root, color: CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        // The red image lives while the next frames are read back: it stays red.
        var green: CGImage? = try Self.frame(r, root, color: CGColor(red: 0, green: 1, blue: 0, alpha: 1))
        #expect(red.pixel(x: 10, y: 10) == (255, 0, 0, 255))
        #expect(green!.pixel(x: 10, y: 10) == (0, 255, 0, 255))
        #expect(Self.address(red) != Self.address(green!))
        let greenAddress = Self.address(green!)
        green = nil
        // The green image is gone: the blue frame is read into its array.
        let blue = try Self.frame(r, root, color: CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        #expect(blue.pixel(x: 10, y: 10) == (0, 0, 255, 255))
        #expect(Self.address(blue) == greenAddress, "the released image's array was not reused")
        #expect(red.pixel(x: 10, y: 10) == (255, 0, 0, 255))
        // Bytes taken out of an image and kept after it is gone are not overwritten either.
        var white: CGImage? = try Self.frame(r, root, color: CGColor(red: 1, green: 1, blue: 1, alpha: 1))
        let kept = white!.rgba8Bytes
        white = nil
        _ = try Self.frame(r, root, color: CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        #expect(Array(kept[0..<4]) == [255, 255, 255, 255])
        _ = blue
    }

    @Test("the CPU backend hands its frame out without copying it, and draws the next one elsewhere while the image lives")
    func softwareFrameIsNotCopied() throws {
        let r = try CARenderer(offscreenSize: CGSize(width: 64, height: 48), scale: 1, options: .init(backend: .software))
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        r.layer = root
        let red = try Self.frame(r, root, color: CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        // Two images of one frame share one array: the frame's own.
        let again = try r.makeImage()
        #expect(Self.address(again) == Self.address(red))
        let green = try Self.frame(r, root, color: CGColor(red: 0, green: 1, blue: 0, alpha: 1))
        #expect(Self.address(green) != Self.address(red))
        #expect(red.pixel(x: 5, y: 5) == (255, 0, 0, 255) && again.pixel(x: 5, y: 5) == (255, 0, 0, 255))
        #expect(green.pixel(x: 5, y: 5) == (0, 255, 0, 255))
    }
}
