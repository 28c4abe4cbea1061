import Testing
import Foundation
import CATestSupport
import CAFrame
import CAOpenGL

/// `box.frag`'s interior early-out (`CA_INTERIOR_EARLY`, `GLRenderer.branchesCheaply`): a pixel
/// more than half a pixel inside every corner zone and the border takes the fill colour without
/// the distance fields. On hardware drivers only (llvmpipe runs both sides of a branch), so this
/// machine forces it on and compares: both fields' coverage is exactly 1 there and the ring 0
/// (the full path computes fill × 1 + border × 0), so the bytes must not change at all.
@Suite struct InteriorEarlyOutTests {
    static let size = CGSize(width: 320, height: 220)

    /// Large boxes of every kind the box program draws under a similarity: plain, bordered,
    /// uniform, masked and continuous corners, group opacity over a border, a rounded clip,
    /// hard edges, a rotated one, a shadow beside them, and one under perspective (which keeps
    /// the full path: its lengths are plane units).
    static func scene() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        root.backgroundColor = CGColor(red: 0.95, green: 0.95, blue: 0.9, alpha: 1)
        func box(_ x: CGFloat, _ y: CGFloat, _ w: CGFloat = 70, _ h: CGFloat = 50, _ configure: (CALayer) -> Void) {
            let l = CALayer()
            l.frame = CGRect(x: x, y: y, width: w, height: h)
            l.backgroundColor = CGColor(red: 0.2, green: 0.5, blue: 0.8, alpha: 0.85)
            configure(l)
            root.addSublayer(l)
        }
        box(5, 5) { _ in }
        box(85, 5) { l in l.cornerRadius = 12; l.borderWidth = 4; l.borderColor = CGColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 1) }
        box(165, 5) { l in l.cornerRadius = 18; l.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]; l.borderWidth = 2 }
        box(245, 5) { l in l.cornerRadius = 16; l.cornerCurve = .continuous; l.borderWidth = 3; l.borderColor = CGColor(gray: 0.1, alpha: 0.6) }
        box(5, 70) { l in
            l.cornerRadius = 10; l.borderWidth = 5; l.opacity = 0.5; l.allowsGroupOpacity = true
            l.borderColor = CGColor(red: 0.1, green: 0.7, blue: 0.2, alpha: 1)
        }
        box(85, 70) { l in
            l.cornerRadius = 20; l.masksToBounds = true
            let inner = CALayer()
            inner.frame = CGRect(x: -10, y: 8, width: 90, height: 30)
            inner.backgroundColor = CGColor(red: 0.9, green: 0.8, blue: 0.1, alpha: 1)
            inner.borderWidth = 2
            l.addSublayer(inner)
        }
        box(165, 70) { l in l.edgeAntialiasingMask = [.layerLeftEdge]; l.cornerRadius = 6 }
        box(245, 70) { l in l.cornerRadius = 8; l.borderWidth = 2; l.transform = CATransform3DMakeRotation(0.4, 0, 0, 1) }
        box(5, 140) { l in
            l.cornerRadius = 9; l.shadowOpacity = 0.7; l.shadowRadius = 6; l.shadowOffset = CGSize(width: 4, height: 5)
        }
        box(85, 140, 120, 70) { l in l.cornerRadius = 14; l.borderWidth = 3 }
        box(225, 140) { l in
            var t = CATransform3DIdentity
            t.m34 = -1 / 300
            l.transform = CATransform3DRotate(t, 0.5, 0, 1, 0)
            l.cornerRadius = 10; l.borderWidth = 2
        }
        return root
    }

    static func render(earlyOut: Bool) throws -> (CGImage, Bool) {
        var o = CARenderer.Options(backend: .openGL)
        o.backend = .openGL
        let r = try CARenderer(offscreenSize: size, scale: 1, options: o)
        r.clearColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        r.layer = scene()
        r.branchesCheaplyForTesting = earlyOut
        let img = try RenderHarness.frame(r, at: 0)
        return (img, r.branchesCheaplyForTesting)
    }

    @Test("the interior early-out draws the same bytes as the full box program")
    func sameBytes() throws {
        let (full, offNow) = try Self.render(earlyOut: false)
        let (early, onNow) = try Self.render(earlyOut: true)
        #expect(!offNow && onNow)
        let same = full.rgba8Bytes == early.rgba8Bytes
        #expect(same, "\(Golden.compare(full, early, threshold: 0))")
        // Not a blank frame: the big boxes' interiors are their fill.
        let (r, g, b, _) = full.pixel(x: 40, y: 30)
        #expect(r < 150 && b > 150 && g > 80, "interior pixel (\(r), \(g), \(b))")
    }

    /// Which batches take the early-out program (`GLBoxPipeline.hasInterior`): one box with an
    /// interior 4 px across beyond its corners, border and half a pixel is enough; the
    /// replicator benchmark's 15 × 8.5 px box (radius 3, border 1) has none, nor has a big box
    /// drawn at a tenth of its size.
    @Test("only batches with a box that has an interior get the early-out program")
    func batchChoice() {
        func box(_ w: Float, _ h: Float, radius: Float, border: Float, scale: Float = 1) -> BoxInstance {
            BoxInstance(h0: SIMD4(scale, 0, 0, 0), h1: SIMD4(0, scale, 0, 0), h2: SIMD4(0, 0, 1, 0),
                        rect: SIMD4(0, 0, w, h), radii: SIMD4(repeating: radius), fill: SIMD4(1, 0, 0, 1),
                        border: SIMD4(0, 0, 1, 1), params: SIMD4(border, 0, 0, 0))
        }
        let tiny = box(15, 8.5, radius: 3, border: 1), big = box(70, 50, radius: 12, border: 4)
        #expect(!GLBoxPipeline.hasInterior([tiny], 0..<1))
        #expect(GLBoxPipeline.hasInterior([big], 0..<1))
        #expect(GLBoxPipeline.hasInterior([tiny, tiny, big], 0..<3))
        #expect(!GLBoxPipeline.hasInterior([tiny, tiny, big], 0..<2))
        #expect(!GLBoxPipeline.hasInterior([box(70, 50, radius: 12, border: 4, scale: 0.1)], 0..<1))
        // Continuous corners reach 1.528665 × radius: a 40 px square with radius 12 has 1.7 px.
        #expect(!GLBoxPipeline.hasInterior([box(40, 40, radius: 12, border: 0)], 0..<1))
        #expect(GLBoxPipeline.hasInterior([box(50, 50, radius: 12, border: 0)], 0..<1))
    }

    /// Automatic: on for a hardware driver, off on a software rasteriser (this machine: llvmpipe).
    @Test("the early-out is chosen from GL_RENDERER")
    func automatic() throws {
        var o = CARenderer.Options(backend: .openGL)
        o.backend = .openGL
        let r = try CARenderer(offscreenSize: Self.size, scale: 1, options: o)
        let name = (r.contextInfo["renderer"] ?? "").lowercased()
        let software = ["llvmpipe", "softpipe", "swrast"].contains { name.contains($0) }
        #expect(r.branchesCheaplyForTesting == !software, "GL_RENDERER \(name)")
        o.softwareGLDrivers = []
        #expect(try CARenderer(offscreenSize: Self.size, scale: 1, options: o).branchesCheaplyForTesting)
    }
}
