import Testing
import Foundation

/// A frame must not depend on GL state that earlier work in the same frame left behind. The
/// clip table lives on texture unit 0; uploading gradient ramps and making textures or
/// offscreen targets bind their own textures there, and clip lookups then read those
/// (`GLRenderer.execute` rebinds the table before drawing).
@Suite struct GLStateTests {
    /// A gradient layer under `masksToBounds`: the ramp upload used to leave the ramp texture
    /// where the clip table belongs, on every frame.
    @Test func gradientUnderAClipIsClippedToTheBounds() throws {
        let parent = CALayer()
        parent.frame = CGRect(x: 10, y: 10, width: 40, height: 20)
        parent.masksToBounds = true
        let g = CAGradientLayer()
        g.frame = CGRect(x: -10, y: 0, width: 60, height: 20)
        g.colors = [solid(0, 0, 1), solid(0, 0, 1)]
        parent.addSublayer(g)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 60, height: 40)
        root.addSublayer(parent)
        for img in try RenderHarness.renderFrames(root, size: CGSize(width: 60, height: 40), times: [0, 1]) {
            #expect(img.rgba(30, 20) == RGBA(0, 0, 255))
            #expect(img.rgba(10, 10) == RGBA(0, 0, 255))
            #expect(img.rgba(5, 20) == RGBA(255, 255, 255))    // cut by the parent's bounds
            #expect(img.rgba(55, 20) == RGBA(255, 255, 255))
        }
    }

    /// A clipped sublayer with a blurred shadow needs offscreen targets; on the first frame
    /// they are made during the frame, which used to leave a target where the clip table
    /// belongs (the centre came out 223 instead of 255 blue).
    @Test func firstFrameWithNewOffscreenTargetsClipsCorrectly() throws {
        let parent = CALayer()
        parent.frame = CGRect(x: 35, y: 10, width: 20, height: 20)
        parent.masksToBounds = true
        parent.backgroundColor = solid(0, 0, 1)
        let child = CALayer()
        child.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        child.shadowOpacity = 0.5
        child.shadowRadius = 1
        child.backgroundColor = solid(0, 0, 1)
        parent.addSublayer(child)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 60, height: 40)
        root.addSublayer(parent)
        let frames = try RenderHarness.renderFrames(root, size: CGSize(width: 60, height: 40), times: [0, 1])
        for img in frames {
            #expect(img.rgba(45, 20) == RGBA(0, 0, 255))
            #expect(img.rgba(34, 20) == RGBA(255, 255, 255))   // the shadow is cut by the clip
        }
    }
}
