import Testing
import Foundation

/// Issue 23: an isolated layer's offscreen target follows what its subtree paints, so a faded
/// group whose shapes change size needs a new target size in most frames. The GL backend's pool
/// of targets (kept by size) frees sizes no frame has taken for 30 frames, so it holds what
/// recent frames use, not one target for every size the animation ever had.
@Suite struct TargetPoolTests {
    @Test("a faded group whose shapes grow every frame: 100 target sizes, at most 31 pooled")
    func poolFreesIdleSizes() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 160, height: 160)
        let (a, b) = Self.fadedPair(in: root, frame: root.bounds, opacity: 0.5)
        let r = try RenderHarness.glRenderer(root, size: CGSize(width: 160, height: 160))
        for i in 0..<100 {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            a.path = CGPath(rect: CGRect(x: 10, y: 10, width: 20 + Double(i), height: 20), transform: nil)
            b.path = CGPath(rect: CGRect(x: 15, y: 15, width: 10, height: 10 + Double(i) / 2), transform: nil)
            CATransaction.commit()
            let img = try RenderHarness.frame(r, at: Double(i) / 60)
            // The group's target follows the squares as they grow (each frame's commit rebuilds
            // the frame: a patch would keep the last target's size and cut the grown square).
            if i % 10 == 0 || i == 99 {
                #expect(img.rgba(28 + i, 12).isClose(to: RGBA(128, 0, 0, 128), tolerance: 1), "frame \(i): \(img.rgba(28 + i, 12))")
                #expect(img.rgba(31 + i, 12).a == 0, "frame \(i): \(img.rgba(31 + i, 12))")
            }
        }
        #expect(r.pooledTargetCount > 0)
        #expect(r.pooledTargetCount <= 31, "\(r.pooledTargetCount) pooled targets")
    }

    /// A group at `frame` faded to `opacity` (so isolated: drawn into a target) in `root`,
    /// holding a red and a blue shape layer whose paths the caller sets.
    static func fadedPair(in root: CALayer, frame: CGRect, opacity: Float) -> (CAShapeLayer, CAShapeLayer) {
        let group = CALayer()
        group.frame = frame
        group.opacity = opacity
        let a = CAShapeLayer(), b = CAShapeLayer()
        a.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        b.fillColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        group.addSublayer(a)
        group.addSublayer(b)
        root.addSublayer(group)
        return (a, b)
    }

    /// A group of `groupWidth` × 60 points, opaque blue at opacity 0.5 (isolated, without
    /// masksToBounds: its target is sized by what it paints), holding a red 20-point child at
    /// (10, 10); the root is 160 points square, rendered on GL.
    static func fadedGroup(groupWidth: Double) throws -> (CARenderer, CALayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 160, height: 160)
        let group = CALayer()
        group.frame = CGRect(x: 0, y: 0, width: groupWidth, height: 60)
        group.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        group.opacity = 0.5
        let child = CALayer()
        child.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        child.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        group.addSublayer(child)
        root.addSublayer(group)
        let r = try RenderHarness.glRenderer(root, size: CGSize(width: 160, height: 160))
        return (r, child)
    }

    /// Moves `child` to x = 20 + 20·i by a commit without actions.
    static func move(_ child: CALayer, step i: Int) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        child.position = CGPoint(x: 20 + Double(i) * 20, y: 20)
        CATransaction.commit()
    }

    @Test("a sublayer moved by commits past its faded parent's bounds is drawn there (the target is sized again, not patched)")
    func movedSublayerOfAFadedGroupIsNotCut() throws {
        let (r, child) = try Self.fadedGroup(groupWidth: 60)
        for i in 0..<6 {
            Self.move(child, step: i)
            let img = try RenderHarness.frame(r, at: Double(i) / 60)
            // Opaque red faded to one half, wherever the child is (inside the group or past it).
            #expect(img.rgba(20 + i * 20, 20).isClose(to: RGBA(128, 0, 0, 128), tolerance: 1), "frame \(i): \(img.rgba(20 + i * 20, 20))")
        }
    }

    @Test("a sublayer moving inside its faded parent's painted extent is patched in place, and drawn right")
    func sublayerMovingInsideAFadedGroupIsPatched() throws {
        // The child's box stays inside the group's bounds (which the group paints), so the
        // target the first build sized holds it at every position.
        let (r, child) = try Self.fadedGroup(groupWidth: 120)
        for i in 0..<5 {
            Self.move(child, step: i)
            let img = try RenderHarness.frame(r, at: Double(i) / 60)
            if i > 0 { #expect(r.statistics.patchedLayers == 1, "frame \(i): \(r.statistics)") }
            // Red over blue faded as a group to one half: (128, 0, 0, 128) where the child is,
            // (0, 0, 128, 128) where it was.
            #expect(img.rgba(20 + i * 20, 20).isClose(to: RGBA(128, 0, 0, 128), tolerance: 1), "frame \(i): \(img.rgba(20 + i * 20, 20))")
            if i > 0 {
                #expect(img.rgba(20 + (i - 1) * 20 - 6, 20).isClose(to: RGBA(0, 0, 128, 128), tolerance: 1),
                        "frame \(i): \(img.rgba(20 + (i - 1) * 20 - 6, 20))")
            }
        }
    }

    /// The CPU backend keeps its offscreen targets' memory from frame to frame
    /// (`SoftwareTargetPool`). A kept block holds the last frame's pixels: every frame must
    /// equal the same frame drawn by a fresh renderer, byte for byte, with faded groups whose
    /// targets change size, a shadow cast from a layer's pixels (blurred from one target into
    /// another: a pass that does not clear first) and a mask.
    @Test("CPU backend: frames drawn into kept offscreen targets equal frames drawn into new ones")
    func cpuKeptTargetsEqualNewOnes() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 160, height: 120)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let (a, b) = Self.fadedPair(in: root, frame: CGRect(x: 10, y: 10, width: 80, height: 60), opacity: 0.6)
        let caster = CAShapeLayer()
        caster.frame = CGRect(x: 90, y: 20, width: 60, height: 60)
        caster.fillColor = CGColor(red: 0.2, green: 0.7, blue: 0.3, alpha: 1)
        caster.shadowOpacity = 0.8
        caster.shadowRadius = 4
        caster.shadowOffset = CGSize(width: 3, height: 5)
        root.addSublayer(caster)
        let masked = CALayer()
        masked.frame = CGRect(x: 20, y: 75, width: 100, height: 40)
        masked.backgroundColor = CGColor(red: 0.9, green: 0.6, blue: 0.1, alpha: 1)
        let mask = CAShapeLayer()
        mask.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        masked.mask = mask
        root.addSublayer(masked)
        func set(_ i: Int) {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            a.path = CGPath(rect: CGRect(x: 5, y: 5, width: 20 + Double(i) * 3, height: 20), transform: nil)
            b.path = CGPath(ellipseIn: CGRect(x: 15, y: 12, width: 14, height: 10 + Double(i) * 2), transform: nil)
            caster.path = CGPath(ellipseIn: CGRect(x: 5, y: 5, width: 30 + Double(i) * 2, height: 40 - Double(i)), transform: nil)
            mask.path = CGPath(ellipseIn: CGRect(x: Double(i) * 6, y: 2, width: 40, height: 36), transform: nil)
            CATransaction.commit()
        }
        let size = CGSize(width: 160, height: 120)
        let kept = try CARenderer(offscreenSize: size, scale: 1, options: .init(backend: .software))
        kept.layer = root
        for i in 0..<8 {
            set(i)
            let img = try RenderHarness.frame(kept, at: Double(i) / 60)
            if i > 0 { #expect(kept.pooledTargetCount > 0) }
            let fresh = try CARenderer(offscreenSize: size, scale: 1, options: .init(backend: .software))
            fresh.layer = root
            let want = try RenderHarness.frame(fresh, at: Double(i) / 60)
            #expect(img.rgba8Bytes == want.rgba8Bytes, "frame \(i) differs from a fresh renderer's")
        }
    }
}
