import Testing
import Foundation

/// The main pass's depth pre-pass (issue 4: opaque content front to back with depth testing):
/// opaque box interiors are drawn into depth first, so the pixels they cover are not shaded for
/// the instances below them. It must change no pixel: every frame equals the frame drawn without
/// it, whatever lies under or over the opaque layers — translucent layers, borders, rounded and
/// continuous corners, rotation, images, gradients, shapes, clips and offscreen groups.
@Suite struct DepthPrepassTests {
    static let size = CGSize(width: 160, height: 120)

    /// Opaque cards over an opaque background and under translucent and opaque layers of every
    /// pipeline.
    static func scene() throws -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        root.backgroundColor = solid(0.9, 0.9, 0.85)          // opaque: the whole target's interior
        func card(_ r: CGRect, _ c: CGColor) -> CALayer {
            let l = CALayer()
            l.frame = r
            l.backgroundColor = c
            root.addSublayer(l)
            return l
        }
        let a = card(CGRect(x: 10, y: 10, width: 70, height: 50), solid(1, 0, 0))
        a.cornerRadius = 8
        a.borderWidth = 3
        a.borderColor = solid(0, 0, 0, 0.5)                  // translucent border over the fill
        let b = card(CGRect(x: 40, y: 30, width: 80, height: 60), solid(0, 0.6, 0))
        b.cornerRadius = 12
        b.cornerCurve = .continuous
        b.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        _ = card(CGRect(x: 60, y: 20, width: 50, height: 40), solid(0, 0, 1, 0.5))   // translucent over both
        let grad = CAGradientLayer()
        grad.frame = CGRect(x: 90, y: 60, width: 60, height: 50)
        grad.colors = [solid(1, 1, 0), solid(0, 1, 1)]
        root.addSublayer(grad)
        let top = card(CGRect(x: 100, y: 70, width: 40, height: 30), solid(0.3, 0.2, 0.1))   // opaque over the gradient
        top.cornerRadius = 5
        let shape = CAShapeLayer()
        shape.frame = root.bounds
        shape.path = CGPath(ellipseIn: CGRect(x: 20, y: 60, width: 60, height: 45), transform: nil)
        shape.fillColor = solid(0.5, 0, 0.5, 0.7)
        shape.strokeColor = solid(0, 0, 0)
        shape.lineWidth = 3
        root.addSublayer(shape)
        let clipper = card(CGRect(x: 5, y: 80, width: 50, height: 35), solid(0.2, 0.2, 0.9))
        clipper.masksToBounds = true
        clipper.cornerRadius = 10
        let inside = CALayer()
        inside.frame = CGRect(x: -10, y: 5, width: 40, height: 40)
        inside.backgroundColor = solid(1, 0.5, 0)            // opaque but clipped: not an interior
        clipper.addSublayer(inside)
        let group = card(CGRect(x: 120, y: 5, width: 35, height: 50), solid(0, 0, 0))
        group.opacity = 0.6                                   // a group drawn offscreen
        let child = CALayer()
        child.frame = CGRect(x: 5, y: 5, width: 40, height: 20)
        child.backgroundColor = solid(1, 1, 1)
        group.addSublayer(child)
        return root
    }

    @Test func framesEqualFramesDrawnWithoutIt() throws {
        let root = try Self.scene()
        let r = try CARenderer(offscreenSize: Self.size, scale: 2, options: .init(backend: .openGL))
        r.layer = root
        r.options.usesDepthPrepass = true
        let with = try RenderHarness.frame(r, at: 0)
        let interiors = r.statistics.opaqueInteriors
        // The two red and green cards, the top card and the clipping card; the background,
        // opaque over the whole target, is the pass's clear colour instead (BackgroundClearTests).
        #expect(interiors == 4, "\(r.statistics)")
        #expect(r.statistics.backgroundClears == 1)
        r.options.usesDepthPrepass = false
        let without = try RenderHarness.frame(r, at: 0)
        #expect(r.statistics.opaqueInteriors == 0)
        #expect(Golden.compare(with, without, threshold: 0).fraction == 0)
    }

    /// While layers move over one another (an animated opaque card sliding over the others),
    /// every frame still equals the frame drawn without the pre-pass.
    @Test func animatedFramesEqualFramesDrawnWithoutIt() throws {
        let root = try Self.scene()
        let mover = root.sublayers![1]
        let slide = CABasicAnimation(keyPath: "position.x")
        slide.byValue = 60.0
        slide.duration = 1
        mover.add(slide, forKey: "slide")
        let on = try CARenderer(offscreenSize: Self.size, scale: 1, options: .init(backend: .openGL))
        on.layer = root
        let off = try CARenderer(offscreenSize: Self.size, scale: 1, options: .init(backend: .openGL))
        off.layer = root
        off.options.usesDepthPrepass = false
        for t in [0.0, 0.3, 0.6, 0.9] {
            let a = try RenderHarness.frame(on, at: t), b = try RenderHarness.frame(off, at: t)
            #expect(on.statistics.opaqueInteriors > 0)
            #expect(Golden.compare(a, b, threshold: 0).fraction == 0, "t = \(t)")
        }
    }
}
