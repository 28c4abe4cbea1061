import Testing
import CAFrame
@testable import CASoftware

/// Issue 23: an isolated layer's offscreen targets cover what can show — the mask's painted
/// bounds (CALayer.mask: "the layer's content is only visible where the mask's alpha is
/// non-zero", docs/BEHAVIOUR.md M8), and only what the subtree paints, not the bounds of
/// layers that paint nothing themselves (a Lottie layer is as large as its composition) — and
/// the CPU backend puts such a target back texel for texel (`drawAligned`), skipping empty texels.
@Suite struct IsolatedTargetBoundsTests {
    static func filledShape(_ rect: CGRect, red: CGFloat = 1) -> CAShapeLayer {
        let s = CAShapeLayer()
        s.path = CGPath(rect: rect, transform: nil)
        s.fillColor = CGColor(red: red, green: 0, blue: 0, alpha: 1)
        return s
    }

    /// A 100×100 layer that paints nothing itself, holding an opaque red square from 10 to 90,
    /// masked by a black 20×20 square at (40, 40).
    static func maskedScene() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let content = CALayer()
        content.frame = root.bounds
        content.addSublayer(filledShape(CGRect(x: 10, y: 10, width: 80, height: 80)))
        let mask = CAShapeLayer()
        mask.path = CGPath(rect: CGRect(x: 40, y: 40, width: 20, height: 20), transform: nil)
        mask.fillColor = CGColor(gray: 0, alpha: 1)
        content.mask = mask
        root.addSublayer(content)
        return root
    }

    static func pixels(_ frame: RenderFrame, rowPaths: Bool) throws -> [UInt8] {
        let r = SoftwareRenderer(threads: 1)
        r.usesRowPaths = rowPaths
        var stats = RenderStats()
        try r.render(frame, stats: &stats)
        return r.readPixels()
    }

    static func pixel(_ p: [UInt8], _ x: Int, _ y: Int, width: Int = 100) -> [Int] {
        (0..<4).map { Int(p[(y * width + x) * 4 + $0]) }
    }

    @Test("a masked layer's content and mask targets are no larger than the mask (20 px and a margin, not the layer's 100)")
    func maskedTargetsFollowTheMask() throws {
        let (frame, stats) = RenderTreeBuilder().build(root: Self.maskedScene(), width: 100, height: 100, scale: 1)
        #expect(stats.offscreenPasses == 2, "content and mask: \(stats.offscreenPasses)")
        #expect(frame.targets.count == 2)
        for t in frame.targets {
            #expect(t.width <= 26 && t.height <= 26, "\(t.width)×\(t.height) at (\(t.x), \(t.y))")
            #expect(t.x <= 40 && t.y <= 40 && t.x + t.width >= 60 && t.y + t.height >= 60, "the mask's square is inside")
        }
        // The pixels: red under the mask, nothing around it (the content's red square reaches
        // from 10 to 90, the mask keeps 40…60).
        let p = try Self.pixels(frame, rowPaths: true)
        #expect(Self.pixel(p, 50, 50) == [255, 0, 0, 255])
        #expect(Self.pixel(p, 41, 58) == [255, 0, 0, 255])
        #expect(Self.pixel(p, 20, 20) == [0, 0, 0, 0])
        #expect(Self.pixel(p, 70, 50) == [0, 0, 0, 0])
        #expect(Self.pixel(p, 38, 50) == [0, 0, 0, 0])
    }

    @Test("the texel-aligned composite matches the per-texel port of composite.frag")
    func alignedCompositeMatchesTheShaderPort() throws {
        let root = Self.maskedScene()
        // A translucent mask and a second, group-faded subtree exercise the alpha products.
        (root.sublayers![0].mask as! CAShapeLayer).fillColor = CGColor(gray: 0, alpha: 0.6)
        let group = CALayer()
        group.frame = root.bounds
        group.opacity = 0.5
        group.addSublayer(Self.filledShape(CGRect(x: 5, y: 60, width: 30, height: 30), red: 0.8))
        group.addSublayer(Self.filledShape(CGRect(x: 20, y: 70, width: 30, height: 25), red: 0.3))
        root.addSublayer(group)
        let (frame, _) = RenderTreeBuilder().build(root: root, width: 100, height: 100, scale: 1)
        let fast = try Self.pixels(frame, rowPaths: true), reference = try Self.pixels(frame, rowPaths: false)
        let diff = zip(fast, reference).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
        #expect(diff <= 1, "largest channel difference \(diff)")
        // 0.6 × opaque red through the mask: 153.
        #expect(Self.pixel(fast, 50, 50) == [153, 0, 0, 153])
        // The group's later square (0.3 red, opaque) faded to one half: 38 or 39 of red, 128 alpha.
        let g = Self.pixel(fast, 45, 80)
        #expect((38...39).contains(g[0]) && g[1] == 0 && (127...128).contains(g[3]), "\(g)")
    }

    @Test("a group-faded layer that paints nothing itself gets a target the size of its sublayers' paint, not of its bounds")
    func groupTargetFollowsWhatIsPainted() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let group = CALayer()
        group.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        group.opacity = 0.5
        group.addSublayer(Self.filledShape(CGRect(x: 10, y: 10, width: 20, height: 20)))
        group.addSublayer(Self.filledShape(CGRect(x: 20, y: 20, width: 20, height: 20)))
        root.addSublayer(group)
        let (frame, _) = RenderTreeBuilder().build(root: root, width: 100, height: 100, scale: 1)
        #expect(frame.targets.count == 1)
        if let t = frame.targets.first {
            #expect(t.width <= 36 && t.height <= 36, "\(t.width)×\(t.height): the squares span 10…40")
        }
        // With a background the layer paints its whole bounds, and the target covers them.
        group.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 0.2)
        let (withBackground, _) = RenderTreeBuilder().build(root: root, width: 100, height: 100, scale: 1)
        #expect(withBackground.targets.first.map { $0.width >= 100 && $0.height >= 100 } ?? false)
    }
}
