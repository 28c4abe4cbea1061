import Testing
import Foundation

/// Intersecting opaque planes of a `CATransformLayer` through the depth buffer (issue 21:
/// "translucent planes are depth-sorted, intersecting planes split, opaque ones use the depth
/// buffer"; docs/BEHAVIOUR.md N8).
///
/// The scene (as `LayerClassRenderingTests.planes`): perspective m34 = −1/400 about the root's
/// centre (50, 50); red, a 60×60 plane at (20, 20) facing the viewer at z = 0; blue, the same
/// square turned 0.8 rad about y through its centre. CATransform3DMakeRotation about y maps a
/// point u to the right of blue's centre line to x = u·cos 0.8, z = −u·sin 0.8 (row vectors),
/// then w = 1 − z/400 and the screen x = 50 + x/w. The planes meet on x = 50 (u = 0). Left of
/// it blue is nearer (z > 0): u = −20 lands at x = 50 − 13.93/0.964 = 35.6 with z = +14.3; right
/// of it blue is behind red (u = +20: x = 63.4, z = −14.3), so red shows. Red covers 20…80 on
/// both axes; at x = 35.6 blue spans y = 50 ± 30/0.964, beyond red.
@Suite struct TransformLayerPlaneDepthTests {
    func planes(blueAlpha: CGFloat = 1, blueFirst: Bool = false) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.sublayerTransform.m34 = -1 / 400
        let t = CATransformLayer()
        t.frame = root.bounds
        let red = CALayer()
        red.frame = CGRect(x: 20, y: 20, width: 60, height: 60)
        red.backgroundColor = solid(1, 0, 0)
        let blue = CALayer()
        blue.frame = red.frame
        blue.backgroundColor = solid(0, 0, 1, blueAlpha)
        blue.transform = CATransform3DMakeRotation(0.8, 0, 1, 0)
        for l in blueFirst ? [blue, red] : [red, blue] { t.addSublayer(l) }
        root.addSublayer(t)
        return root
    }

    func render(_ root: CALayer, backend: CARenderer.Backend = .openGL) throws -> (CGImage, RenderStats, RenderFrame) {
        var options = CARenderer.Options(backend: .openGL)
        options.backend = backend
        let r = try CARenderer(offscreenSize: CGSize(width: 100, height: 100), options: options)
        r.clearColor = solid(1, 1, 1)
        r.layer = root
        let img = try RenderHarness.frame(r, at: 0)
        return (img, r.statistics, try #require(r.lastFrame))
    }

    @Test("N8: intersecting opaque planes go through the depth buffer: drawn whole, each in front on its own side of the line")
    func opaqueIntersectingPlanesUseDepth() throws {
        for blueFirst in [false, true] {
            let (img, stats, frame) = try render(planes(blueFirst: blueFirst))
            // The path: both planes' interiors written at their 3D depth, no split (no half-plane
            // clips, no offscreen pieces), two depth planes in one group.
            #expect(stats.depthTestedPlanes == 2, "\(stats)")
            #expect(frame.depthPlanes.count == 2 && Set(frame.depthPlanes.map(\.group)) == [0])
            #expect(frame.clips.count == 1, "no half-plane clips: \(frame.clips.count)")
            #expect(stats.offscreenPasses == 0)
            for y in [30, 50, 70] {
                // Left of x = 50: blue nearer; right: red nearer.
                #expect(img.rgba(35, y) == RGBA(0, 0, 255), "blueFirst \(blueFirst) y \(y): \(img.rgba(35, y))")
                #expect(img.rgba(65, y) == RGBA(255, 0, 0), "blueFirst \(blueFirst) y \(y): \(img.rgba(65, y))")
            }
            // Right beside the crossing line, both sides (pixel centres 47.5 and 52.5).
            #expect(img.rgba(47, 50) == RGBA(0, 0, 255), "\(img.rgba(47, 50))")
            #expect(img.rgba(52, 50) == RGBA(255, 0, 0), "\(img.rgba(52, 50))")
            // Outside both planes the clear colour.
            #expect(img.rgba(5, 50) == RGBA(255, 255, 255))
        }
    }

    @Test("N8: the depth path and the split path give the same picture away from the crossing line")
    func depthMatchesSplit() throws {
        let (gl, _, _) = try render(planes())
        let (cpu, cpuStats, cpuFrame) = try render(planes(), backend: .software)
        // The CPU backend has no depth buffer: there the planes are split with half-plane clips.
        #expect(cpuStats.depthTestedPlanes == 0)
        #expect(cpuFrame.clips.count > 1)
        var differing = 0
        for y in 0..<100 { for x in 0..<100 where abs(x - 50) > 2 && gl.rgba(x, y) != cpu.rgba(x, y) {
            if !gl.rgba(x, y).isClose(to: cpu.rgba(x, y), tolerance: 3) { differing += 1 }
        } }
        // Only antialiased plane edges may differ by more than a few levels between backends.
        #expect(differing < 60, "\(differing) pixels differ")
    }

    @Test("N8: a translucent plane among them: split and depth-sorted, no depth planes; blends on its near side")
    func translucentPlanesAreSplit() throws {
        let (img, stats, frame) = try render(planes(blueAlpha: 0.5))
        #expect(stats.depthTestedPlanes == 0)
        #expect(frame.depthPlanes.isEmpty)
        #expect(frame.clips.count > 1, "split with half-plane clips")
        // Left: blue at 0.5 over red = (127.5, 0, 127.5); right: red in front, opaque.
        #expect(img.rgba(35, 50).isClose(to: RGBA(128, 0, 128)), "\(img.rgba(35, 50))")
        #expect(img.rgba(65, 50) == RGBA(255, 0, 0), "\(img.rgba(65, 50))")
    }

    @Test("N8: a rounded or bordered-translucent plane is not a plain opaque plane: split instead")
    func composedPlanesAreSplit() throws {
        let root = planes()
        root.sublayers![0].sublayers![0].cornerRadius = 6
        let (img, stats, _) = try render(root)
        #expect(stats.depthTestedPlanes == 0)
        #expect(img.rgba(35, 50) == RGBA(0, 0, 255) && img.rgba(65, 50) == RGBA(255, 0, 0))
    }
}
