import Testing
import Foundation
import CATestSupport
@testable import QuartzCore
@testable import CARender

/// Masked shape layers on the CPU backend (issue 23): the layer and its mask are drawn into
/// targets whose written columns are noted row by row — a shape drawn from its runs notes the
/// runs' columns (`drawRunRows`) — and the composite that puts them back reads those columns
/// alone (`SoftwareRowExtents.swift`). The frames must be the bytes of a renderer that reads
/// every texel.
@Suite struct MaskedShapeExtentsTests {
    static let size = CGSize(width: 180, height: 150)

    /// Stars and rings with shape masks (one inverted by a ring), scaling, one inside a group
    /// with a shadow (a blurred target) and one faded as a group.
    static func scene() -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(origin: .zero, size: size)
        root.anchorPoint = .zero
        root.backgroundColor = solid(0.9, 0.9, 0.85)
        for k in 0..<6 {
            let s = CAShapeLayer()
            s.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
            s.position = CGPoint(x: 35.5 + Double(k % 3) * 55.25, y: 40.4 + Double(k / 3) * 62.1)
            s.path = k % 2 == 0 ? ShapeRasterSpanResolveTests.star()
                : ShapeRasterSpanResolveTests.ring(radius: 22 + Double(k), center: CGPoint(x: 50, y: 50))
            s.fillColor = solid(0.8, 0.2 + 0.1 * Double(k), 0.1, k == 3 ? 0.7 : 1)
            s.strokeColor = k % 3 == 0 ? solid(0.1, 0.3, 0.9) : nil
            s.lineWidth = 2.5
            let m = CAShapeLayer()
            m.frame = s.bounds
            m.path = k == 4 ? ShapeRasterSpanResolveTests.ring(radius: 30, center: CGPoint(x: 50, y: 50))
                : CGPath(ellipseIn: CGRect(x: 10 + Double(k) * 3, y: 5, width: 60, height: 45 + Double(k) * 4), transform: nil)
            m.fillColor = solid(0, 0, 0, k == 1 ? 0.6 : 1)
            s.mask = m
            let a = basic("transform.scale", from: 0.6, to: 1.1)
            a.beginTime = 0.001
            s.add(a, forKey: "scale")
            if k == 2 {
                let group = CALayer()
                group.frame = root.bounds
                group.shadowOpacity = 0.6
                group.shadowRadius = 3
                group.addSublayer(s)
                root.addSublayer(group)
            } else if k == 5 {
                let group = CALayer()
                group.frame = root.bounds
                group.opacity = 0.7
                group.allowsGroupOpacity = true
                group.addSublayer(s)
                group.addSublayer(CALayer())
                root.addSublayer(group)
            } else {
                root.addSublayer(s)
            }
        }
        return root
    }

    @Test("masked shapes put back within their targets' extents: the bytes of a renderer that reads every texel")
    func extentsChangeNoByte() throws {
        let root = Self.scene()
        let a = try CARenderer(offscreenSize: Self.size, scale: 1, options: CARenderer.Options(backend: .software))
        let b = try CARenderer(offscreenSize: Self.size, scale: 1, options: CARenderer.Options(backend: .software))
        a.layer = root
        b.layer = root
        let sa = try #require(a.software), sb = try #require(b.software)
        sb.usesRowExtents = false
        #expect(sa.usesRowExtents)
        for t in [0.05, 0.3, 0.55, 0.8] {
            let ia = try RenderHarness.frame(a, at: t), ib = try RenderHarness.frame(b, at: t)
            #expect(a.statistics.offscreenPasses >= 6, "t = \(t): \(a.statistics.offscreenPasses) offscreen passes")
            #expect(ia.rgba8Bytes == ib.rgba8Bytes, "t = \(t): the frames differ")
        }
    }
}
