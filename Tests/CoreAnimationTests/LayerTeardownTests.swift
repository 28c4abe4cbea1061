import Foundation
import Testing
@testable import CoreAnimation

/// Releasing deep trees: a layer owns its sublayers and its mask, so the last release of a
/// chain's root used to run one nested `deinit` per level and overflow the stack (a
/// 100,000-deep chain crashed the process). `LayerTeardown` releases them iteratively.
@Suite struct LayerTeardownTests {
    /// A chain `depth` layers deep, built from the leaf up (each `addSublayer` then checks for
    /// a cycle from a parentless layer, O(1)). Returns the root and the leaf.
    static func chain(depth: Int) -> (root: CALayer, leaf: CALayer) {
        let leaf = CALayer()
        var top = leaf
        for _ in 1..<depth {
            let parent = CALayer()
            parent.addSublayer(top)
            top = parent
        }
        return (top, leaf)
    }

    @Test("bad input: releasing a 100,000-deep chain of sublayers does not overflow the stack")
    func releasingDeepChain() {
        weak var leaf: CALayer?
        weak var root: CALayer?
        do {
            let c = Self.chain(depth: 100_000)
            leaf = c.leaf
            root = c.root
            #expect(leaf != nil)
            // The implicit transaction holds every layer it saw change until it commits.
            CATransaction.flush()
        }
        #expect(root == nil)
        #expect(leaf == nil)
    }

    @Test("bad input: releasing a 100,000-deep chain of masks does not overflow the stack")
    func releasingDeepMaskChain() {
        weak var last: CALayer?
        weak var first: CALayer?
        do {
            // From the last mask up: `mask`'s cycle check walks up from the masked layer, which
            // is parentless this way.
            var top = CALayer()
            last = top
            for _ in 1..<100_000 {
                let l = CALayer()
                l.mask = top
                top = l
            }
            first = top
            CATransaction.flush()
        }
        #expect(first == nil)
        #expect(last == nil)
    }

    @Test("a subtree still referenced elsewhere survives its parent's release, detached and intact")
    func heldSubtreeSurvives() throws {
        var middle: CALayer?
        weak var leaf: CALayer?
        do {
            let c = Self.chain(depth: 1_000)
            leaf = c.leaf
            var l = c.root
            for _ in 0..<500 { l = try #require(l._sublayers?.first) }
            middle = l
            CATransaction.flush()
        }
        do {
            let m = try #require(middle)
            #expect(m.superlayer == nil)
            #expect(leaf != nil)
            var depth = 1, l = m
            while let s = l.sublayers?.first {
                #expect(s.superlayer === l)
                l = s
                depth += 1
            }
            #expect(depth == 500)
            #expect(l === leaf)
        }
        middle = nil
        #expect(leaf == nil)
    }

    @Test("deep trees released on several threads at once are all released")
    func teardownOnSeveralThreads() async {
        // Each thread keeps its own work list: trees released at once on several threads
        // neither overflow nor interfere.
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    weak var leaf: CALayer?
                    do {
                        let c = Self.chain(depth: 20_000)
                        leaf = c.leaf
                        CATransaction.flush()
                    }
                    return leaf == nil
                }
            }
            for await released in group { #expect(released) }
        }
    }
}
