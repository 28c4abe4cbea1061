import Testing
import Foundation

/// `CAReplicatorLayer` (docs/BEHAVIOUR.md R1–R7). Apple's documentation: `instanceCount` "The
/// number of copies to create, including the source layers"; `instanceTransform` "is applied to
/// instance k-1 to produce instance k. The matrix is applied relative to the center of this
/// layer"; `instanceDelay` "Specifies the delay, in seconds, between replicated copies";
/// `instanceColor` "The color used to multiply the source object"; the offsets are "added to
/// the … component of each replicated instance". Expected pixels are derived by hand in each
/// test: white clear colour, boxes 10 × 10 points at scale 1.
@Suite struct ReplicatorTests {
    static let size = CGSize(width: 100, height: 80)

    /// A replicator covering the canvas with one 10 × 10 box of `color` at (x, y).
    func scene(box x: CGFloat = 5, _ y: CGFloat = 5, color: CGColor = solid(1, 0, 0),
               _ configure: (CAReplicatorLayer, CALayer) -> Void) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let r = CAReplicatorLayer()
        r.frame = root.bounds
        let box = CALayer()
        box.frame = CGRect(x: x, y: y, width: 10, height: 10)
        box.backgroundColor = color
        r.addSublayer(box)
        root.addSublayer(r)
        configure(r, box)
        return root
    }

    func render(_ root: CALayer, time: CFTimeInterval = 0) throws -> (CGImage, RenderStats) {
        let r = try CARenderer(offscreenSize: Self.size, scale: 1, options: .init(backend: .openGL))
        r.clearColor = solid(1, 1, 1)
        r.layer = root
        let img = try RenderHarness.frame(r, at: time)
        return (img, r.statistics)
    }

    static let red = RGBA(255, 0, 0), white = RGBA(255, 255, 255)

    @Test("R1: copy k is instanceTransform^k of copy 0 (translation): four boxes 20 pt apart")
    func copiesAtTheirPlaces() throws {
        let (img, _) = try render(scene { r, _ in
            r.instanceCount = 4
            r.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
        })
        for k in 0..<4 { #expect(img.rgba(10 + 20 * k, 10) == Self.red, "copy \(k)") }
        #expect(img.rgba(90, 10) == Self.white, "no fifth copy")
        #expect(img.rgba(20, 10) == Self.white, "the gap between copies 0 and 1")
    }

    @Test("R1: the transform is applied about the replicator's centre (rotation by a quarter turn)")
    func rotationAboutTheCentre() throws {
        // Replicator 60 × 60 (centre (30, 30)); the box's centre (30, 5) is 25 above it. A quarter
        // turn at a time puts copies at right (55, 30), bottom (30, 55) and left (5, 30).
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let r = CAReplicatorLayer()
        r.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
        r.instanceCount = 4
        r.instanceTransform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let box = CALayer()
        box.frame = CGRect(x: 25, y: 0, width: 10, height: 10)
        box.backgroundColor = solid(1, 0, 0)
        r.addSublayer(box)
        root.addSublayer(r)
        let (img, _) = try render(root)
        for (x, y) in [(30, 5), (55, 30), (30, 55), (5, 30)] { #expect(img.rgba(x, y) == Self.red, "(\(x), \(y))") }
        #expect(img.rgba(30, 30) == Self.white)
    }

    @Test("R3: instanceColor multiplies, offsets add k × offset per copy, clamped to 0…1",
          arguments: [false, true])
    func coloursWithOffsets(walkPerCopy: Bool) throws {
        // White box; instanceColor (0.2, 1, 1); red +0.4 and blue −0.4 per copy:
        // red 0.2, 0.6, 1.0, 1.4 → 1; blue 1, 0.6, 0.2, −0.2 → 0.
        // preservesDepth (with a flat transform: same picture) takes the walk per copy.
        let (img, _) = try render(scene(color: solid(1, 1, 1)) { r, _ in
            r.instanceCount = 4
            r.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
            r.instanceColor = solid(0.2, 1, 1)
            r.instanceRedOffset = 0.4
            r.instanceBlueOffset = -0.4
            r.preservesDepth = walkPerCopy
        })
        let expected = [RGBA(51, 255, 255), RGBA(153, 255, 153), RGBA(255, 255, 51), RGBA(255, 255, 0)]
        for k in 0..<4 {
            let p = img.rgba(10 + 20 * k, 10)
            #expect(p.isClose(to: expected[k]), "copy \(k): \(p)")
        }
    }

    @Test("R3: an alpha offset fades later copies (1, 0.5, 0 over white)")
    func alphaOffset() throws {
        let (img, _) = try render(scene { r, _ in
            r.instanceCount = 3
            r.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
            r.instanceAlphaOffset = -0.5
        })
        #expect(img.rgba(10, 10) == Self.red)
        // Red at alpha 0.5 over white: (255, 127.5, 127.5).
        #expect(img.rgba(30, 10).isClose(to: RGBA(255, 128, 128)), "\(img.rgba(30, 10))")
        #expect(img.rgba(50, 10) == Self.white)
    }

    @Test("R2: copy k shows its subtree k × instanceDelay earlier; before the animation began, the model value")
    func delays() throws {
        // position.x animates 10 → 50 over 2 s from t = 10 (linear); the model value is 80.
        // Rows 15 pt apart; delay 0.5 s. At t = 11.5: copy 0 at 1.5 s → 40, copy 1 at 1.0 → 30,
        // copy 2 at 0.5 → 20, copy 3 at 0 → 10, copy 4 at −0.5 (not begun) → the model's 80.
        let root = scene(box: 75, 0) { r, _ in
            r.instanceCount = 5
            r.instanceTransform = CATransform3DMakeTranslation(0, 15, 0)
            r.instanceDelay = 0.5
        }
        let box = root.sublayers![0].sublayers![0]
        box.add(basic("position.x", from: 10, to: 50, duration: 2), forKey: "slide")
        let frames = try RenderHarness.renderFrames(root, size: Self.size, times: [10, 11.5])
        let img = frames[1]
        for (k, x) in [40, 30, 20, 10, 80].enumerated() {
            #expect(img.rgba(x, 5 + 15 * k) == Self.red, "copy \(k) centred at x = \(x)")
            #expect(img.rgba(x + 8, 5 + 15 * k) == Self.white, "copy \(k) ends at x = \(x + 5)")
        }
    }

    @Test("R4: nested replicators multiply: 3 × 2 copies, instance colours multiplied")
    func nestedReplicators() throws {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let outer = CAReplicatorLayer()
        outer.frame = root.bounds
        outer.instanceCount = 2
        outer.instanceTransform = CATransform3DMakeTranslation(0, 20, 0)
        outer.instanceColor = solid(1, 1, 0.5)
        let inner = CAReplicatorLayer()
        inner.frame = root.bounds
        inner.instanceCount = 3
        inner.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
        inner.instanceColor = solid(1, 0.5, 1)
        let box = CALayer()
        box.frame = CGRect(x: 5, y: 5, width: 10, height: 10)
        box.backgroundColor = solid(1, 1, 1)
        inner.addSublayer(box)
        outer.addSublayer(inner)
        root.addSublayer(outer)
        let (img, _) = try render(root)
        for y in [10, 30] {
            for x in [10, 30, 50] {
                #expect(img.rgba(x, y).isClose(to: RGBA(255, 128, 128)), "(\(x), \(y)): \(img.rgba(x, y))")
            }
        }
        #expect(img.rgba(70, 10) == Self.white)
        #expect(img.rgba(10, 50) == Self.white)
    }

    @Test("R1: instanceCount 0 draws nothing, 1 draws the sublayers once")
    func countZeroAndOne() throws {
        for count in [0, 1] {
            let (img, _) = try render(scene { r, _ in
                r.instanceCount = count
                r.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
            })
            #expect(img.rgba(10, 10) == (count == 0 ? Self.white : Self.red), "count \(count)")
            #expect(img.rgba(30, 10) == Self.white, "count \(count)")
        }
    }

    @Test("R5: a static subtree is walked once: 1,000 copies are instances of one recorded copy")
    func staticCopiesAreInstances() throws {
        let (img, stats) = try render(scene { r, _ in
            r.instanceCount = 1000
            r.instanceTransform = CATransform3DMakeTranslation(0.05, 0.05, 0)
        })
        #expect(img.rgba(10, 10) == Self.red)
        #expect(img.rgba(60, 60) == Self.red, "copy 999 at (5 + 49.95, 5 + 49.95)")
        #expect(stats.layersVisited == 3, "root, replicator, box: \(stats.layersVisited)")
        #expect(stats.instances == 1000)
        #expect(stats.batches == 1)
    }

    @Test("R6: instanceCount 1e9 is clamped to the per-frame replicated-instance limit, with a warning")
    func hugeCountIsClamped() throws {
        let root = scene { r, _ in
            r.instanceCount = 1_000_000_000
            r.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
        }
        let ((img, stats), warnings) = try RenderDiagnostics.capture { try render(root) }
        #expect(img.rgba(10, 10) == Self.red)
        #expect(img.rgba(90, 10) == Self.red, "copy 4 is within the limit")
        #expect(stats.instances <= RenderTreeBuilder.maxReplicatedInstances + 1)
        #expect(warnings.contains { $0.contains("replicated instances in one frame") }, "\(warnings)")
    }

    @Test("R6: copies whose transform overflows are skipped with a warning; copy 0 still draws",
          arguments: [false, true])
    func overflowingTransformSkipsCopies(walkPerCopy: Bool) throws {
        let root = scene { r, _ in
            r.instanceCount = 5
            r.instanceTransform = CATransform3DMakeScale(1e200, 1e200, 1)
            r.preservesDepth = walkPerCopy
        }
        let ((img, _), warnings) = try RenderDiagnostics.capture { try render(root) }
        #expect(img.rgba(10, 10) == Self.red)
        #expect(img.rgba(50, 40) == Self.white, "no copy fills the canvas")
        #expect(!warnings.isEmpty)
    }

    @Test("R6: the model refuses a NaN instanceTransform and a negative instanceCount (Apple draws nothing for them)")
    func modelRefusesBadValues() throws {
        let r = CAReplicatorLayer()
        r.instanceCount = 3
        r.instanceCount = -5
        #expect(r.instanceCount == 3)
        var m = CATransform3DIdentity
        m.m11 = .nan
        r.instanceTransform = m
        #expect(CATransform3DIsIdentity(r.instanceTransform))
    }

    @Test("R7: preservesDepth keeps a copy's 3D: a copy turned about y is foreshortened only with perspective kept")
    func preservesDepthKeepsThreeD() throws {
        // Copy 1 is turned 45° about the vertical axis through the replicator's centre, and the
        // root's sublayerTransform adds perspective (m34 = −1/100) above the replicator.
        // Flattened (the default) the copy is squeezed into the replicator's plane before the
        // perspective; kept, its near side grows and its far side shrinks. Copy 0 is flat in
        // both.
        func render(preserves: Bool) throws -> CGImage {
            let root = CALayer()
            root.frame = CGRect(origin: .zero, size: Self.size)
            let r = CAReplicatorLayer()
            r.frame = root.bounds
            r.instanceCount = 2
            r.instanceTransform = CATransform3DMakeRotation(.pi / 4, 0, 1, 0)
            r.preservesDepth = preserves
            var p = CATransform3DIdentity
            p.m34 = -1.0 / 100
            root.sublayerTransform = p
            let bar = CALayer()
            bar.frame = CGRect(x: 10, y: 30, width: 80, height: 20)
            bar.backgroundColor = solid(1, 0, 0, 0.5)
            r.addSublayer(bar)
            root.addSublayer(r)
            return try self.render(root).0
        }
        let flat = try render(preserves: false), deep = try render(preserves: true)
        var differ = 0
        for y in 0..<80 { for x in 0..<100 where flat.rgba(x, y) != deep.rgba(x, y) { differ += 1 } }
        #expect(differ > 50, "\(differ) pixels differ")
    }

    @Test("R3: gradients and contents take the colour too (red × (0, 1, 1) is black)", arguments: [false, true])
    func gradientsAndContentsAreTinted(walkPerCopy: Bool) throws {
        // A red gradient (two red stops) over x 5…15 and a red image over x 5…15 one row lower;
        // copy 1 (20 pt right) has red offset −1: (1, 1, 1) + (−1, 0, 0) = (0, 1, 1).
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let r = CAReplicatorLayer()
        r.frame = root.bounds
        r.instanceCount = 2
        r.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
        r.instanceRedOffset = -1
        r.preservesDepth = walkPerCopy
        let g = CAGradientLayer()
        g.frame = CGRect(x: 5, y: 5, width: 10, height: 10)
        g.colors = [solid(1, 0, 0), solid(1, 0, 0)]
        let image = CALayer()
        image.frame = CGRect(x: 5, y: 25, width: 10, height: 10)
        var bytes: [UInt8] = []
        for _ in 0..<16 { bytes += [255, 0, 0, 255] }
        image.contents = CGImage(width: 4, height: 4, rgba8Bytes: bytes, premultiplied: true)
        r.addSublayer(g)
        r.addSublayer(image)
        root.addSublayer(r)
        let (img, _) = try render(root)
        #expect(img.rgba(10, 10).isClose(to: Self.red), "gradient copy 0: \(img.rgba(10, 10))")
        #expect(img.rgba(30, 10).isClose(to: RGBA(0, 0, 0)), "gradient copy 1: \(img.rgba(30, 10))")
        #expect(img.rgba(10, 30).isClose(to: Self.red), "image copy 0: \(img.rgba(10, 30))")
        #expect(img.rgba(30, 30).isClose(to: RGBA(0, 0, 0)), "image copy 1: \(img.rgba(30, 30))")
    }

    @Test("R1: shape layers and clipped sublayers are copied by walking each copy")
    func shapesAndClipsWalkPerCopy() throws {
        // A 10 × 10 square path filled red in a shape layer, and a box cut by its parent's
        // masksToBounds to its left half: both appear in each of 3 copies 20 pt apart.
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let r = CAReplicatorLayer()
        r.frame = root.bounds
        r.instanceCount = 3
        r.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 5, y: 5, width: 10, height: 10)
        shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
        shape.fillColor = solid(1, 0, 0)
        let clip = CALayer()
        clip.frame = CGRect(x: 5, y: 25, width: 5, height: 10)
        clip.masksToBounds = true
        let inner = CALayer()
        inner.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        inner.backgroundColor = solid(0, 0, 1)
        clip.addSublayer(inner)
        r.addSublayer(shape)
        r.addSublayer(clip)
        root.addSublayer(r)
        let (img, stats) = try render(root)
        for k in 0..<3 {
            #expect(img.rgba(10 + 20 * k, 10) == Self.red, "shape copy \(k)")
            #expect(img.rgba(7 + 20 * k, 30) == RGBA(0, 0, 255), "clipped copy \(k), inside")
            #expect(img.rgba(12 + 20 * k, 30) == Self.white, "clipped copy \(k), cut")
        }
        #expect(stats.layersVisited > 6, "walked per copy: \(stats.layersVisited)")
    }

    @Test("R7: an animated replicator is patched in place; each frame equals a whole build at its time")
    func patchedFramesEqualWholeBuilds() throws {
        func makeScene() -> CALayer {
            scene(color: solid(1, 1, 1)) { r, _ in
                r.instanceCount = 4
                r.instanceTransform = CATransform3DMakeTranslation(15, 0, 0)
                r.instanceColor = solid(1, 0, 1)
                r.add(basic("instanceTransform", from: NSValue(caTransform3D: CATransform3DMakeTranslation(15, 0, 0)),
                            to: NSValue(caTransform3D: CATransform3DMakeTranslation(22, 3, 0))), forKey: "spread")
                r.add(basic("instanceGreenOffset", from: 0, to: 0.3), forKey: "tint")
            }
        }
        func frames(patching: Bool, _ times: [CFTimeInterval]) throws -> ([CGImage], [RenderStats]) {
            var options = CARenderer.Options(backend: .openGL)
            options.patchesSubtrees = patching
            let r = try CARenderer(offscreenSize: Self.size, scale: 1, options: options)
            r.clearColor = solid(1, 1, 1)
            r.layer = makeScene()
            var images: [CGImage] = [], stats: [RenderStats] = []
            for t in times { images.append(try RenderHarness.frame(r, at: t)); stats.append(r.statistics) }
            return (images, stats)
        }
        let times: [CFTimeInterval] = [20, 20.25, 20.5, 20.75]
        let (patched, stats) = try frames(patching: true, times)
        let (whole, _) = try frames(patching: false, times)
        #expect(stats.dropFirst().allSatisfy { $0.patchedSubtrees > 0 }, "the replicator's subtree is patched")
        for i in times.indices {
            var differ = 0
            for y in 0..<Int(Self.size.height) { for x in 0..<Int(Self.size.width) where patched[i].rgba(x, y) != whole[i].rgba(x, y) { differ += 1 } }
            #expect(differ == 0, "frame at \(times[i]): \(differ) pixels differ")
        }
        // Copy 3 at t = 20.5: translation 3 × (18.5, 1.5) puts the box at x 60.5…70.5,
        // y 9.5…19.5; green 0 + 3 × 0.15 = 0.45 of a white box: (255, 115, 255).
        #expect(patched[2].rgba(65, 14).isClose(to: RGBA(255, 115, 255)), "\(patched[2].rgba(65, 14))")
    }
}
