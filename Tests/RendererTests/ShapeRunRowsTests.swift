import Testing
import Foundation
import CATestSupport
@testable import CARender

/// Issue 23: the CPU backend draws plain shape rasters from their runs (`ShapeCoverageSpans`,
/// `SoftwareShapePipeline.drawRunRows`) where they map one texel per pixel, and writes the
/// texels of the rest into the atlas page when an instance needs them (rotated, clipped,
/// additive). Either way the frame's bytes are those of the dense rasters.
@Suite struct ShapeRunRowsTests {
    /// Translucent and opaque stars and rings, filled, stroked and both, even-odd and
    /// non-zero, at fractional positions; one rotated (its texels written), one under a
    /// rounded clip, one scaled by an animation (a new raster every frame), one shared by two
    /// layers (one raster, two instances).
    static func scene(_ size: CGSize) -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(origin: .zero, size: size)
        root.anchorPoint = .zero
        root.backgroundColor = solid(0.2, 0.3, 0.4)
        let star = ShapeRasterSpanResolveTests.star()
        let ring = ShapeRasterSpanResolveTests.ring(radius: 30, center: CGPoint(x: 50, y: 50))
        let clip = CALayer()
        clip.frame = CGRect(x: 120.5, y: 80.25, width: 70, height: 60)
        clip.cornerRadius = 14
        clip.masksToBounds = true
        root.addSublayer(clip)
        for k in 0..<9 {
            let s = CAShapeLayer()
            s.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
            s.position = CGPoint(x: 40.3 + Double(k % 3) * 61.7, y: 45.6 + Double(k / 3) * 58.1)
            s.path = k % 2 == 0 ? star : ring
            s.fillColor = k % 3 == 1 ? nil : solid(0.9, 0.4 + 0.05 * Double(k), 0.1, k % 2 == 0 ? 0.7 : 1)
            s.strokeColor = k % 3 == 2 ? nil : solid(0.1, 0.8, 0.9 - 0.05 * Double(k), k < 4 ? 0.6 : 1)
            s.lineWidth = 1.5 + Double(k) * 0.7
            s.fillRule = k % 4 == 0 ? .evenOdd : .nonZero
            s.lineJoin = k % 2 == 0 ? .miter : .round
            if k == 4 { s.transform = CATransform3DMakeRotation(0.35, 0, 0, 1) }
            if k == 5 {
                let a = CABasicAnimation(keyPath: "transform.scale")
                a.fromValue = 0.8
                a.toValue = 1.1
                a.duration = 1
                s.add(a, forKey: "scale")
            }
            if k == 7 {
                s.position = CGPoint(x: 35, y: 30)
                clip.addSublayer(s)
            } else {
                root.addSublayer(s)
            }
        }
        // The same path, style and placement again, a whole number of pixels away: one raster.
        let twin = CAShapeLayer()
        twin.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        twin.position = CGPoint(x: 40.3 + 150, y: 45.6 + 170)
        twin.path = star
        twin.fillColor = solid(0.9, 0.4, 0.1, 0.7)
        twin.strokeColor = solid(0.1, 0.8, 0.9, 0.6)
        twin.lineWidth = 1.5
        twin.fillRule = .evenOdd
        root.addSublayer(twin)
        return root
    }

    @Test("frames drawn from runs equal frames drawn from dense rasters, byte for byte")
    func runsEqualDenseRasters() throws {
        let size = CGSize(width: 231, height: 297)
        let root = Self.scene(size)
        var withRuns = CARenderer.Options(backend: .software)
        withRuns.drawsShapesFromRuns = true
        var dense = withRuns
        dense.drawsShapesFromRuns = false
        let a = try CARenderer(offscreenSize: size, scale: 1, options: withRuns)
        let b = try CARenderer(offscreenSize: size, scale: 1, options: dense)
        a.layer = root
        b.layer = root
        #expect(a.builder.makesShapeRuns && !b.builder.makesShapeRuns)
        for t in [0.0, 0.3, 0.71] {
            let ia = try RenderHarness.frame(a, at: t), ib = try RenderHarness.frame(b, at: t)
            #expect(ia.rgba8Bytes == ib.rgba8Bytes, "t = \(t): the frames differ")
            #expect(a.statistics.shapeRasters > 0 || t > 0)
        }
    }

    @Test("the GL backend is never handed runs, and draws a frame of the CPU backend's within the parity rule")
    func glGetsDenseRasters() throws {
        let size = CGSize(width: 231, height: 297)
        let root = Self.scene(size)
        let gl = try CARenderer(offscreenSize: size, scale: 1, options: .init(backend: .openGL))
        gl.layer = root
        #expect(!gl.builder.makesShapeRuns)
        let cpu = try CARenderer(offscreenSize: size, scale: 1, options: .init(backend: .software))
        cpu.layer = root
        let g = try RenderHarness.frame(gl, at: 0.3), c = try RenderHarness.frame(cpu, at: 0.3)
        // The parity rule the render tests hold the backends to (RenderHarness).
        let p = BackendParity(g.rgba8Bytes, c.rgba8Bytes, width: g.width)
        #expect(p.passes(), "GL and the CPU backend differ: \(p)")
    }
}
