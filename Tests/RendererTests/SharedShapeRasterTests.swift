import Testing
import Foundation
import CATestSupport
@testable import CARender

/// Shape rasters shared between layers (issue 23): a small path is keyed by its elements, not
/// its object (`ShapeCache.canonicalPath`), and a path that is its own half turn by the map or
/// its negation, whichever comes first (`CGPath.pointSymmetryError`). Shared or not, the frame
/// is the frame each layer draws alone.
@Suite struct SharedShapeRasterTests {
    /// A ring of radius 20 centred at the layer's origin, as a new path each call.
    static func ring() -> CGPath { CGPath(ellipseIn: CGRect(x: -20, y: -20, width: 40, height: 40), transform: nil) }

    /// A shape layer at `position` (whole pixels: the two layers' rasters fall on the same
    /// sub-texel offset), turned by `angle`.
    static func layer(_ path: CGPath, at position: CGPoint, angle: Double, strokeEnd: CGFloat = 1) -> CAShapeLayer {
        let s = CAShapeLayer()
        s.bounds = .zero
        s.position = position
        s.path = path
        s.fillColor = nil
        s.strokeColor = solid(0.9, 0.2, 0.1)
        s.lineWidth = 5
        s.strokeEnd = strokeEnd
        s.transform = CATransform3DMakeRotation(angle, 0, 0, 1)
        return s
    }

    static func root(_ layers: [CALayer]) -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 160, height: 80)
        root.anchorPoint = .zero
        for l in layers { root.addSublayer(l) }
        return root
    }

    static func render(_ root: CALayer) throws -> (bytes: [UInt8], rasters: Int) {
        let r = try CARenderer(offscreenSize: CGSize(width: 160, height: 80), scale: 1, options: .init(backend: .software))
        r.clearColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        r.layer = root
        let image = try RenderHarness.frame(r, at: 0)
        return (image.rgba8Bytes, r.statistics.shapeRasters)
    }

    @Test("equal paths in two layers, one turned by 180°, make one raster and draw what each draws alone",
          arguments: [0.0, Double.pi, -Double.pi])
    func equalPathsShareARaster(angle: Double) throws {
        let a = Self.layer(Self.ring(), at: CGPoint(x: 40, y: 40), angle: 0)
        let b = Self.layer(Self.ring(), at: CGPoint(x: 120, y: 40), angle: angle)
        let both = try Self.render(Self.root([a, b]))
        #expect(both.rasters == 1, "\(both.rasters) rasters for one ring drawn twice")
        // Each alone, in a renderer of its own.
        let left = try Self.render(Self.root([Self.layer(Self.ring(), at: CGPoint(x: 40, y: 40), angle: 0)]))
        let right = try Self.render(Self.root([Self.layer(Self.ring(), at: CGPoint(x: 120, y: 40), angle: angle)]))
        var worst = 0
        for y in 0..<80 {
            for x in 0..<160 {
                let alone = x < 80 ? left.bytes : right.bytes
                for c in 0..<4 { worst = max(worst, abs(Int(both.bytes[(y * 160 + x) * 4 + c]) - Int(alone[(y * 160 + x) * 4 + c]))) }
            }
        }
        #expect(worst <= 1, "shared, the frame differs from the layers drawn alone by \(worst)/255")
    }

    @Test("a stroke trimmed along its length is not shared with its half turn: it starts elsewhere")
    func trimmedStrokesAreNotTurned() throws {
        let a = Self.layer(Self.ring(), at: CGPoint(x: 40, y: 40), angle: 0, strokeEnd: 0.3)
        let b = Self.layer(Self.ring(), at: CGPoint(x: 120, y: 40), angle: .pi, strokeEnd: 0.3)
        let both = try Self.render(Self.root([a, b]))
        #expect(both.rasters == 2)
        // The turned layer's visible arc is its own: its pixels are the left one's turned by 180°.
        var worst = 0
        for y in 0..<80 {
            for x in 0..<80 {
                let p = (y * 160 + x) * 4, q = ((79 - y) * 160 + (159 - x)) * 4
                for c in 0..<4 { worst = max(worst, abs(Int(both.bytes[p + c]) - Int(both.bytes[q + c]))) }
            }
        }
        #expect(worst <= 2, "the turned trimmed ring is not the other turned: \(worst)/255")
    }
}
