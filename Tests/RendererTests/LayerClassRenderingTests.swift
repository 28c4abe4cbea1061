import Testing
import Foundation

/// Scroll layers, gradient animation and transform-layer planes, as drawn (issue 21; docs/BEHAVIOUR.md
/// N7, N8, N9, E8).
@Suite struct LayerClassRenderingTests {
    /// A 100×100 scroll layer at (0, 0) cutting to its bounds, over a 300×300 content layer of
    /// nine 100×100 tiles: row r, column c has colour `tile(r, c)`.
    func scrollScene() -> (CALayer, CAScrollLayer, CALayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let scroll = CAScrollLayer()
        scroll.frame = root.bounds
        scroll.masksToBounds = true
        let content = CALayer()
        content.frame = CGRect(x: 0, y: 0, width: 300, height: 300)
        for r in 0..<3 {
            for c in 0..<3 {
                let t = CALayer()
                t.frame = CGRect(x: 100 * c, y: 100 * r, width: 100, height: 100)
                t.backgroundColor = Self.tile(r, c)
                content.addSublayer(t)
            }
        }
        scroll.addSublayer(content)
        root.addSublayer(scroll)
        return (root, scroll, content)
    }

    static func tile(_ r: Int, _ c: Int) -> CGColor { solid(CGFloat(r) / 2, CGFloat(c) / 2, 1) }
    static func rgba(_ r: Int, _ c: Int) -> RGBA { RGBA(r * 255 / 2 + (r == 1 ? 1 : 0), c * 255 / 2 + (c == 1 ? 1 : 0), 255) }

    func withoutActions(_ body: () -> Void) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        body()
        CATransaction.commit()
    }

    @Test("CAScrollLayer.scroll(to:) moves bounds.origin, and the frame shows the content scrolled by it (M7)")
    func scrollOffsets() throws {
        let (root, scroll, _) = scrollScene()
        let size = CGSize(width: 100, height: 100)
        var img = try RenderHarness.render(root, size: size)
        #expect(img.rgba(50, 50).isClose(to: Self.rgba(0, 0)))
        withoutActions { scroll.scroll(to: CGPoint(x: 100, y: 200)) }
        img = try RenderHarness.render(root, size: size)
        #expect(img.rgba(50, 50).isClose(to: Self.rgba(2, 1)), "\(img.rgba(50, 50))")
        // Half a tile: the left half of the frame shows column 1, the right half column 2.
        withoutActions { scroll.scroll(to: CGPoint(x: 150, y: 0)) }
        img = try RenderHarness.render(root, size: size)
        #expect(img.rgba(25, 50).isClose(to: Self.rgba(0, 1)) && img.rgba(75, 50).isClose(to: Self.rgba(0, 2)))
        #expect(img.rgba(49, 50).isClose(to: Self.rgba(0, 1)) && img.rgba(50, 50).isClose(to: Self.rgba(0, 2)))
        // scrollMode .vertically keeps x: scrolling to (0, 100) from (150, 0) lands at (150, 100).
        withoutActions { scroll.scrollMode = .vertically; scroll.scroll(to: CGPoint(x: 0, y: 100)) }
        img = try RenderHarness.render(root, size: size)
        #expect(scroll.bounds.origin == CGPoint(x: 150, y: 100))
        #expect(img.rgba(25, 50).isClose(to: Self.rgba(1, 1)) && img.rgba(75, 50).isClose(to: Self.rgba(1, 2)))
    }

    @Test("CALayer.scrollRectToVisible(_:) scrolls the enclosing scroll layer the least distance")
    func scrollRectToVisible() throws {
        let (root, scroll, content) = scrollScene()
        // The bottom-right tile (200…300 both ways) from origin (0, 0): scrolled to (200, 200).
        withoutActions { content.sublayers![8].scrollRectToVisible(CGRect(x: 0, y: 0, width: 100, height: 100)) }
        #expect(scroll.bounds.origin == CGPoint(x: 200, y: 200))
        let img = try RenderHarness.render(root, size: CGSize(width: 100, height: 100))
        #expect(img.rgba(50, 50).isClose(to: Self.rgba(2, 2)))
        #expect(content.sublayers![8].visibleRect == CGRect(x: 0, y: 0, width: 100, height: 100))
        #expect(content.sublayers![0].visibleRect.isNull)
    }

    @Test("E8: a colors animation draws the interpolated stops (red→blue half-way: (128, 0, 128) each stop)")
    func gradientColorsAnimationDraws() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        let g = CAGradientLayer()
        g.frame = root.bounds
        g.colors = [solid(1, 0, 0), solid(1, 0, 0)]
        g.add(basic("colors", from: [solid(1, 0, 0), solid(1, 0, 0)], to: [solid(0, 0, 1), solid(0, 0, 1)], duration: 1), forKey: "tint")
        root.addSublayer(g)
        let frames = try RenderHarness.renderFrames(root, size: CGSize(width: 40, height: 40), times: [0, 0.5])
        #expect(frames[0].rgba(20, 20).isClose(to: RGBA(255, 0, 0)))
        #expect(frames[1].rgba(20, 20).isClose(to: RGBA(128, 0, 128), tolerance: 3), "\(frames[1].rgba(20, 20))")
    }

    @Test("E8: axial, radial and conic gradients all draw animated stops (red,green → blue,blue: half-way first stop (128, 0, 128))")
    func gradientTypesAnimate() throws {
        for type in [CAGradientLayerType.axial, .radial, .conic] {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
            let g = CAGradientLayer()
            g.frame = root.bounds
            g.type = type
            // Axial: top to bottom, so row 0 shows the first stop. Radial and conic: from the
            // centre, so the centre shows the first stop.
            if type != .axial { g.startPoint = CGPoint(x: 0.5, y: 0.5); g.endPoint = CGPoint(x: 1, y: 1) }
            g.colors = [solid(0, 0, 1), solid(0, 0, 1)]
            g.add(basic("colors", from: [solid(1, 0, 0), solid(0, 1, 0)], to: [solid(0, 0, 1), solid(0, 0, 1)], duration: 1), forKey: "tint")
            root.addSublayer(g)
            let frames = try RenderHarness.renderFrames(root, size: CGSize(width: 40, height: 40), times: [0, 0.5])
            let (x, y) = type == .axial ? (20, 0) : (20, 20)
            if type != .conic {
                #expect(frames[0].rgba(x, y).isClose(to: RGBA(255, 0, 0), tolerance: 12), "\(type.rawValue) t 0: \(frames[0].rgba(x, y))")
                #expect(frames[1].rgba(x, y).isClose(to: RGBA(128, 0, 128), tolerance: 12), "\(type.rawValue) t 0.5: \(frames[1].rgba(x, y))")
            }
            // Every pixel is a mix of the two half-way stops: blue 128, red + green 128.
            for (px, py) in [(5, 5), (35, 5), (5, 35), (35, 35), (20, 30)] {
                let p = frames[1].rgba(px, py)
                #expect(abs(p.b - 128) <= 3 && abs(p.r + p.g - 128) <= 4, "\(type.rawValue) at (\(px), \(py)): \(p)")
            }
        }
    }

    @Test("N8: many planes crossing one line (a fan of 40) draw in bounded time: split or warned, never hung")
    func planeFanIsBounded() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.sublayerTransform.m34 = -1 / 400
        let t = CATransformLayer()
        t.frame = root.bounds
        for k in 0..<40 {
            let p = CALayer()
            p.frame = CGRect(x: 20, y: 20, width: 60, height: 60)
            p.backgroundColor = solid(CGFloat(k) / 40, 0, 1 - CGFloat(k) / 40)
            p.transform = CATransform3DMakeRotation(CGFloat(k) * .pi / 40, 0, 1, 0)
            t.addSublayer(p)
        }
        root.addSublayer(t)
        // (No CPU-backend comparison: it splits planes, and past `maxPlanePieces` it draws each
        // whole in its centre's depth order with a warning, where GL's depth buffer orders every
        // pixel; 20 % of the pixels differ, as documented in N8.)
        let (img, warnings) = try RenderDiagnostics.capture { try RenderHarness.render(root, size: CGSize(width: 100, height: 100), parity: false) }
        #expect(img.rgba(50, 50).a == 255)
        #expect(warnings.allSatisfy { !$0.contains("intersect") } || warnings.contains { $0.contains("256 pieces") })
    }

    /// Two 60×60 planes in a transform layer, the second turned `angle` about y.
    func planes(angle: CGFloat, offsetZ: CGFloat = 0) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.sublayerTransform.m34 = -1 / 400
        let t = CATransformLayer()
        t.frame = root.bounds
        for (i, color) in [solid(1, 0, 0), solid(0, 0, 1)].enumerated() {
            let p = CALayer()
            p.frame = CGRect(x: 20, y: 20, width: 60, height: 60)
            p.backgroundColor = color
            if i == 1 { p.transform = CATransform3DConcat(CATransform3DMakeTranslation(0, 0, offsetZ), CATransform3DMakeRotation(angle, 0, 1, 0)) }
            t.addSublayer(p)
        }
        root.addSublayer(t)
        return root
    }

    /// Red faces the viewer; blue, the second sublayer, is turned 0.8 rad about y through the same
    /// centre line x = 50. CATransform3DMakeRotation about y maps (x, 0, 0) to z = −x·sin 0.8
    /// (row vectors), so blue's left half (x < 0 about its centre) comes towards the viewer
    /// (z > 0, magnified by the m34 perspective) and its right half goes behind red. Split as
    /// planes intersecting: blue in front left of the centre line, red in front right of it.
    @Test("N8: two intersecting planes each show in front on their own side of the line where they meet")
    func intersectingPlanesSplit() throws {
        let (img, warnings) = try RenderDiagnostics.capture { try RenderHarness.render(planes(angle: 0.8), size: CGSize(width: 100, height: 100)) }
        for y in [30, 50, 70] {
            #expect(img.rgba(35, y).isClose(to: RGBA(0, 0, 255)), "left of the cut at y \(y): \(img.rgba(35, y))")
            #expect(img.rgba(65, y).isClose(to: RGBA(255, 0, 0)), "right of the cut at y \(y): \(img.rgba(65, y))")
        }
        #expect(!warnings.contains { $0.contains("intersect") })
        // Swapping the sublayers' order changes nothing (depth decides, not the array).
        let root = planes(angle: 0.8)
        let t = root.sublayers![0]
        let first = t.sublayers![0]
        first.removeFromSuperlayer()
        t.addSublayer(first)
        // The CPU backend (splitting) and GL (depth) agree in this order too: GL draws every
        // plane's opaque pixels first, writing depth, then the fringes, so the farther red
        // plane no longer covers the nearer blue one's edge (a 1–3 px red frame inside blue's
        // near half before, which the parity harness found).
        let swapped = try RenderHarness.render(root, size: CGSize(width: 100, height: 100))
        for y in [21, 50, 78] {
            #expect(swapped.rgba(34, y).b > 200 && swapped.rgba(34, y).r < 40, "blue's near edge at y \(y): \(swapped.rgba(34, y))")
        }
        #expect(swapped.rgba(35, 50).isClose(to: RGBA(0, 0, 255)) && swapped.rgba(65, 50).isClose(to: RGBA(255, 0, 0)))
    }

    @Test("N8: a plane cut twice (a third plane crossing both) still shows each part in front where it is nearest")
    func threePlanes() throws {
        // Red faces the viewer; blue turned +0.8 and green turned −0.8 about y, all through x = 50.
        let root = planes(angle: 0.8)
        let g = CALayer()
        g.frame = CGRect(x: 20, y: 20, width: 60, height: 60)
        g.backgroundColor = solid(0, 1, 0)
        g.transform = CATransform3DMakeRotation(-0.8, 0, 1, 0)
        root.sublayers![0].addSublayer(g)
        let img = try RenderHarness.render(root, size: CGSize(width: 100, height: 100))
        // Left of the line blue comes forward (z = −x·sin 0.8 > 0), right of it green does.
        #expect(img.rgba(35, 50).isClose(to: RGBA(0, 0, 255)), "\(img.rgba(35, 50))")
        #expect(img.rgba(65, 50).isClose(to: RGBA(0, 255, 0)), "\(img.rgba(65, 50))")
    }

    @Test("N8: intersecting planes a transform layer cannot split (a nested transform layer among them) warn; apart, nothing warns")
    func unsplittablePlanesWarn() throws {
        let root = planes(angle: 0.8)
        root.sublayers![0].addSublayer(CATransformLayer())
        let nested = try RenderDiagnostics.capture { try RenderHarness.render(root, size: CGSize(width: 100, height: 100)) }.1
        #expect(nested.contains { $0.contains("CATransformLayer") && $0.contains("not split") })
        // More sublayers than are tested pairwise (48): the crossing pair warns, nothing hangs.
        let crowded = planes(angle: 0.8)
        for k in 0..<60 {
            let p = CALayer()
            p.frame = CGRect(x: k % 10, y: k / 10, width: 4, height: 4)
            p.zPosition = -200
            crowded.sublayers![0].addSublayer(p)
        }
        let many = try RenderDiagnostics.capture { try RenderHarness.render(crowded, size: CGSize(width: 100, height: 100)) }.1
        #expect(many.contains { $0.contains("more than 48 sublayers") })
        let apart = try RenderDiagnostics.capture { try RenderHarness.render(planes(angle: 0.3, offsetZ: -100), size: CGSize(width: 100, height: 100)) }.1
        #expect(!apart.contains { $0.contains("intersect") })
        let parallel = try RenderDiagnostics.capture { try RenderHarness.render(planes(angle: 0, offsetZ: -20), size: CGSize(width: 100, height: 100)) }.1
        #expect(!parallel.contains { $0.contains("intersect") })
    }

    @Test("N8: the nearer of two non-intersecting planes covers the farther, whatever the sublayer order")
    func depthOrderedPlanes() throws {
        // The blue plane is the second sublayer but 50 behind the red one: red covers the middle.
        let img = try RenderHarness.render(planes(angle: 0, offsetZ: -50), size: CGSize(width: 100, height: 100))
        #expect(img.rgba(50, 50).isClose(to: RGBA(255, 0, 0)))
    }

    /// A 40×40 layer at (10, 10) of white with black stripes one point wide at even x, the
    /// stripes as sublayers (so the subtree has several pieces).
    func stripes(_ configure: (CALayer) -> Void = { _ in }) -> (CALayer, CALayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
        let l = CALayer()
        l.frame = CGRect(x: 10, y: 10, width: 40, height: 40)
        l.backgroundColor = solid(1, 1, 1)
        for k in 0..<20 {
            let s = CALayer()
            s.frame = CGRect(x: 2 * k, y: 0, width: 1, height: 40)
            s.backgroundColor = solid(0, 0, 0)
            l.addSublayer(s)
        }
        configure(l)
        root.addSublayer(l)
        return (root, l)
    }

    /// Pixels of row y, x in `xs`, whose red channel is neither near black nor near white.
    func greys(_ img: CGImage, _ xs: Range<Int>, y: Int) -> Int { xs.filter { (40...215).contains(img.rgba($0, y).r) }.count }

    @Test("N9: a rasterised subtree draws like the plain one, is reused while static and redrawn when a sublayer changes (RenderStats)")
    func rasterCacheReuse() throws {
        let size = CGSize(width: 60, height: 60)
        let (plainRoot, _) = stripes()
        let plain = try RenderHarness.render(plainRoot, size: size)
        let (root, l) = stripes { $0.shouldRasterize = true }
        // A sibling that animates, so every frame is drawn (a frame with nothing new is reused whole).
        let blinker = CALayer()
        blinker.frame = CGRect(x: 0, y: 0, width: 5, height: 5)
        blinker.backgroundColor = solid(1, 0, 0)
        blinker.add(basic("opacity", from: 1.0, to: 0.2, duration: 10), forKey: "blink")
        root.addSublayer(blinker)
        let r = try CARenderer(offscreenSize: size, scale: 1, options: .init(backend: .openGL))
        r.layer = root
        let first = try RenderHarness.frame(r, at: 0)
        #expect(r.statistics.rasterCacheMisses == 1 && r.statistics.rasterCacheHits == 0, "\(r.statistics)")
        #expect(differing(first, plain, xs: 10..<50, ys: 10..<50) == 0)
        let second = try RenderHarness.frame(r, at: 0.5)
        #expect(r.statistics.rasterCacheHits == 1 && r.statistics.rasterCacheMisses == 0, "\(r.statistics)")
        #expect(differing(second, plain, xs: 10..<50, ys: 10..<50) == 0)
        #expect(second.rgba(2, 2) != first.rgba(2, 2), "the sibling animated")
        // A sublayer turns red: the kept texture is stale, the subtree is drawn again.
        withoutActions { l.sublayers![0].backgroundColor = solid(1, 0, 0) }
        let third = try RenderHarness.frame(r, at: 1)
        #expect(r.statistics.rasterCacheMisses == 1 && r.statistics.rasterCacheHits == 0, "\(r.statistics)")
        #expect(third.rgba(10, 30).isClose(to: RGBA(255, 0, 0)))
        _ = try RenderHarness.frame(r, at: 1.5)
        #expect(r.statistics.rasterCacheHits == 1, "\(r.statistics)")
        // An animation inside the subtree changes it every frame: every frame is a miss.
        l.sublayers![1].add(basic("opacity", from: 1.0, to: 0.0, duration: 10), forKey: "fade")
        _ = try RenderHarness.frame(r, at: 2)
        _ = try RenderHarness.frame(r, at: 2.5)
        #expect(r.statistics.rasterCacheMisses == 1 && r.statistics.rasterCacheHits == 0, "\(r.statistics)")
    }

    @Test("N8/N9: a rasterised plane split in two keeps a texture per piece: both reused on the next frame")
    func rasterisedSplitPlane() throws {
        let root = planes(angle: 0.8)
        let blue = root.sublayers![0].sublayers![1]
        blue.shouldRasterize = true
        let blinker = CALayer()
        blinker.frame = CGRect(x: 0, y: 0, width: 5, height: 5)
        blinker.backgroundColor = solid(0, 1, 0)
        blinker.add(basic("opacity", from: 1.0, to: 0.2, duration: 10), forKey: "blink")
        root.addSublayer(blinker)
        let r = try CARenderer(offscreenSize: CGSize(width: 100, height: 100), scale: 1, options: .init(backend: .openGL))
        r.layer = root
        let first = try RenderHarness.frame(r, at: 0)
        #expect(r.statistics.rasterCacheMisses == 2 && r.statistics.rasterCacheHits == 0, "\(r.statistics)")
        let second = try RenderHarness.frame(r, at: 0.5)
        #expect(r.statistics.rasterCacheHits == 2 && r.statistics.rasterCacheMisses == 0, "\(r.statistics)")
        #expect(second.rgba(35, 50).isClose(to: RGBA(0, 0, 255)) && second.rgba(65, 50).isClose(to: RGBA(255, 0, 0)))
        #expect(differing(first, second, xs: 10..<90, ys: 10..<90) == 0)
    }

    @Test("N9: fading a rasterised layer composites the kept bitmap at each opacity (hits, no redraw)")
    func rasterisedFade() throws {
        let (root, l) = stripes { $0.shouldRasterize = true }
        l.add(basic("opacity", from: 1.0, to: 0.0, duration: 1), forKey: "fade")
        let r = try CARenderer(offscreenSize: CGSize(width: 60, height: 60), scale: 1, options: .init(backend: .openGL))
        r.clearColor = solid(1, 1, 1)
        r.layer = root
        _ = try RenderHarness.frame(r, at: 0)
        #expect(r.statistics.rasterCacheMisses == 1, "\(r.statistics)")
        let half = try RenderHarness.frame(r, at: 0.5)
        #expect(r.statistics.rasterCacheHits == 1 && r.statistics.rasterCacheMisses == 0, "\(r.statistics)")
        // Half-faded over the white frame: a black stripe shows (128, 128, 128), the white
        // between stays white.
        #expect(half.rgba(10, 30).isClose(to: RGBA(128, 128, 128), tolerance: 3), "\(half.rgba(10, 30))")
        #expect(half.rgba(11, 30).isClose(to: RGBA(255, 255, 255)))
    }

    @Test("N9: a reused rasterised layer also skips the passes of what it holds (a masked sublayer): fewer draw calls, same pixels")
    func reusedRasterSkipsNestedPasses() throws {
        let (root, l) = stripes { $0.shouldRasterize = true }
        let masked = CALayer()
        masked.frame = CGRect(x: 5, y: 5, width: 20, height: 20)
        masked.backgroundColor = solid(1, 0, 0)
        let m = CALayer()
        m.frame = CGRect(x: 0, y: 0, width: 10, height: 20)
        m.backgroundColor = solid(0, 0, 0)
        masked.mask = m
        l.addSublayer(masked)
        let blinker = CALayer()
        blinker.frame = CGRect(x: 0, y: 0, width: 5, height: 5)
        blinker.backgroundColor = solid(0, 1, 0)
        blinker.add(basic("opacity", from: 1.0, to: 0.2, duration: 10), forKey: "blink")
        root.addSublayer(blinker)
        let r = try CARenderer(offscreenSize: CGSize(width: 60, height: 60), scale: 1, options: .init(backend: .openGL))
        r.clearColor = solid(1, 1, 1)
        r.layer = root
        let first = try RenderHarness.frame(r, at: 0)
        let missCalls = r.statistics.drawCalls
        let second = try RenderHarness.frame(r, at: 0.5)
        #expect(r.statistics.rasterCacheHits == 1, "\(r.statistics)")
        #expect(r.statistics.drawCalls < missCalls - 2, "\(missCalls) then \(r.statistics.drawCalls)")
        #expect(differing(first, second, xs: 10..<50, ys: 10..<50) == 0)
        // The mask keeps the left half of the red square (x 15…25 in the frame).
        #expect(second.rgba(20, 25).isClose(to: RGBA(255, 0, 0)) && second.rgba(30, 25) != RGBA(255, 0, 0))
    }

    func differing(_ a: CGImage, _ b: CGImage, xs: Range<Int>, ys: Range<Int>) -> Int {
        var n = 0
        for y in ys { for x in xs where a.rgba(x, y) != b.rgba(x, y) { n += 1 } }
        return n
    }

    @Test("N9: rasterizationScale 0.5 rasterises at half the resolution: one-point stripes blur to grey")
    func lowerResolution() throws {
        let size = CGSize(width: 60, height: 60)
        let crisp = try RenderHarness.render(stripes().0, size: size)
        #expect(crisp.rgba(10, 30).isClose(to: RGBA(0, 0, 0)) && crisp.rgba(11, 30).isClose(to: RGBA(255, 255, 255)))
        #expect(greys(crisp, 10..<50, y: 30) == 0)
        let soft = try RenderHarness.render(stripes { $0.shouldRasterize = true; $0.rasterizationScale = 0.5 }.0, size: size)
        #expect(greys(soft, 12..<48, y: 30) == 36, "every pixel between the stripes' colours")
        // Full resolution (scale 1 on a 1× target) keeps them crisp.
        let full = try RenderHarness.render(stripes { $0.shouldRasterize = true }.0, size: size)
        #expect(greys(full, 10..<50, y: 30) == 0)
    }

    @Test("N9: scaled up ×4 after rasterising at scale 1, the stripes show the bitmap's texels magnified (soft edges)")
    func scaledUpIsSoft() throws {
        let size = CGSize(width: 200, height: 200)
        func scene(_ rasterize: Bool) -> CALayer {
            let (root, l) = stripes { l in
                l.shouldRasterize = rasterize
                l.transform = CATransform3DMakeScale(4, 4, 1)
            }
            root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
            l.position = CGPoint(x: 100, y: 100)
            return root
        }
        let sharp = try RenderHarness.render(scene(false), size: size)
        let soft = try RenderHarness.render(scene(true), size: size)
        // Unrasterised: 4-pixel black and white bands with no grey between. Rasterised at one
        // texel per point, the magnified texels blend across each band.
        #expect(greys(sharp, 40..<160, y: 100) == 0)
        #expect(greys(soft, 40..<160, y: 100) >= 40, "\(greys(soft, 40..<160, y: 100))")
    }

    @Test("N9: on a 2× target the default rasterizationScale 1 draws at half the pixels; 2 keeps them")
    func retinaScale() throws {
        let size = CGSize(width: 60, height: 60)
        let half = try RenderHarness.render(stripes { $0.shouldRasterize = true }.0, size: size, scale: 2)
        let full = try RenderHarness.render(stripes { $0.shouldRasterize = true; $0.rasterizationScale = 2 }.0, size: size, scale: 2)
        let plain = try RenderHarness.render(stripes().0, size: size, scale: 2)
        #expect(differing(full, plain, xs: 20..<100, ys: 20..<100) == 0)
        #expect(greys(plain, 20..<100, y: 60) == 0)
        #expect(greys(half, 24..<96, y: 60) >= 60, "\(greys(half, 24..<96, y: 60))")
    }

    @Test("N9: hostile rasterizationScale values (0, negative, NaN, huge) draw, bounded (at most 64× smaller)")
    func hostileScales() throws {
        for scale in [0, -3, CGFloat.nan, 1e-30, 1e30] as [CGFloat] {
            let (root, l) = stripes { $0.shouldRasterize = true }
            l.setValue(scale, forKey: "rasterizationScale")
            let img = try RenderHarness.render(root, size: CGSize(width: 60, height: 60))
            #expect(img.rgba(5, 5).isClose(to: RGBA(255, 255, 255)), "scale \(scale)")
        }
    }
}
