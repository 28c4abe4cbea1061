import Testing
import Foundation

/// A replicator that `preservesDepth` "behaves like CATransformLayer" (Apple's
/// `CAReplicatorLayer.preservesDepth` doc): its copies are drawn in the order of their depth,
/// farthest first, not in copy order (docs/BEHAVIOUR.md R7). Copy 0 is a red 10 × 10 box at
/// (5, 5); copy 1 is moved 5 pt right and `dz` along z, and tinted to black (red offset −1:
/// red × (0, 1, 1)). No perspective, so z moves no pixel: only the order shows, in the
/// overlap x 10…15.
@Suite struct ReplicatorDepthOrderTests {
    func overlapAndCopy1(dz: CGFloat, preservesDepth: Bool) throws -> (RGBA, RGBA) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
        let r = CAReplicatorLayer()
        r.frame = root.bounds
        r.instanceCount = 2
        r.instanceTransform = CATransform3DMakeTranslation(5, 0, dz)
        r.instanceRedOffset = -1
        r.preservesDepth = preservesDepth
        let box = CALayer()
        box.frame = CGRect(x: 5, y: 5, width: 10, height: 10)
        box.backgroundColor = solid(1, 0, 0)
        r.addSublayer(box)
        root.addSublayer(r)
        let renderer = try CARenderer(offscreenSize: root.bounds.size, scale: 1, options: .init(backend: .openGL))
        renderer.clearColor = solid(1, 1, 1)
        renderer.layer = root
        let img = try RenderHarness.frame(renderer, at: 0)
        return (img.rgba(12, 10), img.rgba(17, 10))
    }

    @Test("R7: a copy behind copy 0 (z −10) is drawn first when depth is preserved")
    func fartherCopyIsDrawnFirst() throws {
        let (overlap, copy1) = try overlapAndCopy1(dz: -10, preservesDepth: true)
        #expect(overlap.isClose(to: RGBA(255, 0, 0)), "copy 0 in front: \(overlap)")
        #expect(copy1.isClose(to: RGBA(0, 0, 0)), "copy 1 still drawn: \(copy1)")
    }

    @Test("R7: a copy in front of copy 0 (z +10) is drawn last")
    func nearerCopyIsDrawnLast() throws {
        let (overlap, _) = try overlapAndCopy1(dz: 10, preservesDepth: true)
        #expect(overlap.isClose(to: RGBA(0, 0, 0)), "copy 1 in front: \(overlap)")
    }

    @Test("R1: flattened (preservesDepth false), later copies are drawn over earlier ones whatever their z")
    func flattenedCopiesKeepCopyOrder() throws {
        let (overlap, _) = try overlapAndCopy1(dz: -10, preservesDepth: false)
        #expect(overlap.isClose(to: RGBA(0, 0, 0)), "copy 1 over copy 0: \(overlap)")
    }
}
