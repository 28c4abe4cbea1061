import Testing
@testable import CoreAnimation

private func named(_ n: String) -> CALayer { let l = CALayer(); l.name = n; return l }
private func names(_ l: CALayer) -> [String] { (l.sublayers ?? []).map { $0.name ?? "?" } }

@Suite struct LayerTreeTests {
    // MARK: Tree operations

    @Test("tree addSublayer appends and sets superlayer")
    func add() {
        let p = CALayer(), a = named("a"), b = named("b")
        p.addSublayer(a)
        p.addSublayer(b)
        #expect(names(p) == ["a", "b"])
        #expect(a.superlayer === p && b.superlayer === p)
    }

    @Test("tree insertSublayer at index; index past the end appends")
    func insertAt() {
        let p = CALayer()
        p.addSublayer(named("a")); p.addSublayer(named("b"))
        p.insertSublayer(named("x"), at: 1)
        #expect(names(p) == ["a", "x", "b"])
        p.insertSublayer(named("y"), at: 0)
        #expect(names(p) == ["y", "a", "x", "b"])
        p.insertSublayer(named("z"), at: 99)
        #expect(names(p) == ["y", "a", "x", "b", "z"])
    }

    @Test("tree insertSublayer above and below a sibling")
    func insertAboveBelow() {
        let p = CALayer(), a = named("a"), b = named("b")
        p.addSublayer(a); p.addSublayer(b)
        p.insertSublayer(named("above-a"), above: a)
        #expect(names(p) == ["a", "above-a", "b"])
        p.insertSublayer(named("below-a"), below: a)
        #expect(names(p) == ["below-a", "a", "above-a", "b"])
        p.insertSublayer(named("above-b"), above: b)
        #expect(names(p) == ["below-a", "a", "above-a", "b", "above-b"])
    }

    @Test("tree reordering an existing sublayer with insertSublayer(above:) keeps one copy")
    func reorder() {
        let p = CALayer(), a = named("a"), b = named("b"), c = named("c")
        p.sublayers = [a, b, c]
        p.insertSublayer(a, above: c)
        #expect(names(p) == ["b", "c", "a"])
        p.insertSublayer(a, below: b)
        #expect(names(p) == ["a", "b", "c"])
        p.insertSublayer(c, at: 0)
        #expect(names(p) == ["c", "a", "b"])
    }

    @Test("tree replaceSublayer puts the new layer at the old one's index")
    func replace() {
        let p = CALayer(), a = named("a"), b = named("b"), c = named("c"), n = named("n")
        p.sublayers = [a, b, c]
        p.replaceSublayer(b, with: n)
        #expect(names(p) == ["a", "n", "c"])
        #expect(b.superlayer == nil)
        #expect(n.superlayer === p)
    }

    @Test("tree replaceSublayer with a layer from another parent moves it")
    func replaceMoves() {
        let p = CALayer(), q = CALayer(), a = named("a"), n = named("n")
        p.addSublayer(a)
        q.addSublayer(n)
        p.replaceSublayer(a, with: n)
        #expect(names(p) == ["n"])
        #expect(q.sublayers?.isEmpty ?? true)
        #expect(n.superlayer === p)
    }

    @Test("tree removeFromSuperlayer detaches; removing a root does nothing")
    func remove() {
        let p = CALayer(), a = named("a"), b = named("b")
        p.sublayers = [a, b]
        a.removeFromSuperlayer()
        #expect(names(p) == ["b"])
        #expect(a.superlayer == nil)
        a.removeFromSuperlayer()
        #expect(a.superlayer == nil)
        #expect(names(p) == ["b"])
    }

    @Test("tree moving a layer to a new parent removes it from the old one")
    func move() {
        let p = CALayer(), q = CALayer(), a = named("a")
        p.addSublayer(a)
        q.addSublayer(a)
        #expect(p.sublayers?.contains { $0 === a } != true)
        #expect(names(q) == ["a"])
        #expect(a.superlayer === q)
    }

    @Test("tree adding a sublayer twice to the same parent keeps one entry, at the end")
    func addTwice() {
        let p = CALayer(), a = named("a"), b = named("b")
        p.addSublayer(a); p.addSublayer(b)
        p.addSublayer(a)
        #expect(names(p) == ["b", "a"])
    }

    @Test("tree sublayers = [...] replaces all, detaching the old ones and adopting the new")
    func setSublayers() {
        let p = CALayer(), q = CALayer(), a = named("a"), b = named("b"), c = named("c")
        p.sublayers = [a, b]
        q.addSublayer(c)
        p.sublayers = [c, a]
        #expect(names(p) == ["c", "a"])
        #expect(b.superlayer == nil)
        #expect(c.superlayer === p && a.superlayer === p)
        #expect(q.sublayers?.isEmpty ?? true)
        p.sublayers = nil
        #expect(p.sublayers == nil || p.sublayers!.isEmpty)
        #expect(a.superlayer == nil && c.superlayer == nil)
    }

    // MARK: M8 mask

    @Test("M8 setting mask makes the masked layer its superlayer without listing it in sublayers")
    func maskSuperlayer() {
        let l = CALayer(), m = CALayer()
        l.mask = m
        #expect(l.mask === m)
        #expect(m.superlayer === l)
        #expect(l.sublayers == nil || !(l.sublayers!.contains { $0 === m }))
    }

    @Test("M8 setting mask removes the mask from the tree it was in")
    func maskLeavesTree() {
        let p = CALayer(), l = CALayer(), m = CALayer()
        p.addSublayer(m)
        l.mask = m
        #expect(p.sublayers?.contains { $0 === m } != true)
        #expect(m.superlayer === l)
    }

    @Test("M8 clearing mask leaves the old mask with no superlayer")
    func maskClear() {
        let l = CALayer(), m = CALayer()
        l.mask = m
        l.mask = nil
        #expect(l.mask == nil)
        #expect(m.superlayer == nil)
    }

    @Test("M8 replacing the mask detaches the old one")
    func maskReplace() {
        let l = CALayer(), m1 = CALayer(), m2 = CALayer()
        l.mask = m1
        l.mask = m2
        #expect(m1.superlayer == nil)
        #expect(m2.superlayer === l)
    }

    @Test("M8 a mask moved to another layer leaves the first one")
    func maskMoved() {
        let l1 = CALayer(), l2 = CALayer(), m = CALayer()
        l1.mask = m
        l2.mask = m
        #expect(l2.mask === m && m.superlayer === l2)
        #expect(l1.mask == nil)
    }

    @Test("M8 mask removeFromSuperlayer clears the mask")
    func maskRemove() {
        let l = CALayer(), m = CALayer()
        l.mask = m
        m.removeFromSuperlayer()
        #expect(l.mask == nil)
        #expect(m.superlayer == nil)
    }

    @Test("M8 a mask with sublayers is supported")
    func maskWithSublayers() {
        let l = CALayer(), m = CALayer(), s = CALayer()
        m.addSublayer(s)
        l.mask = m
        #expect(m.sublayers?.first === s && s.superlayer === m)
        #expect(l.mask === m)
    }

    @Test("M8 mask does not use the masked layer's sublayerTransform in conversion")
    func maskGeometry() {
        let l = CALayer(), m = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        l.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
        m.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        l.mask = m
        #expect(m.convert(CGPoint(x: 10, y: 10), to: l) == CGPoint(x: 10, y: 10))
    }

    // MARK: contains / hitTest

    @Test("contains: inside the bounds, in the layer's own coordinates")
    func contains() {
        let l = CALayer()
        l.bounds = CGRect(x: 10, y: 10, width: 50, height: 50)
        l.position = CGPoint(x: 500, y: 500)
        #expect(l.contains(CGPoint(x: 10, y: 10)))
        #expect(l.contains(CGPoint(x: 30, y: 59)))
        #expect(!l.contains(CGPoint(x: 5, y: 30)))
        #expect(!l.contains(CGPoint(x: 500, y: 500)))
    }

    /// root (0,0,200,200) at (100,100) with child 50×50 at (100,50): child covers (75..125, 25..75).
    private func hitTree() -> (root: CALayer, child: CALayer) {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        root.position = CGPoint(x: 100, y: 100)
        let child = CALayer()
        child.bounds = CGRect(x: 0, y: 0, width: 50, height: 50)
        child.position = CGPoint(x: 100, y: 50)
        root.addSublayer(child)
        return (root, child)
    }

    @Test("hitTest returns the deepest layer containing the point; nil outside")
    func hitTest() {
        let (root, child) = hitTree()
        #expect(root.hitTest(CGPoint(x: 100, y: 50)) === child)
        #expect(root.hitTest(CGPoint(x: 10, y: 10)) === root)
        #expect(root.hitTest(CGPoint(x: 300, y: 300)) == nil)
    }

    @Test("hitTest takes the point in the superlayer's coordinates")
    func hitTestSuperlayerSpace() {
        let (root, child) = hitTree()
        // child's own (0,0) is (75,25) in root space; in child space (10,10) is root (85,35).
        #expect(child.hitTest(CGPoint(x: 85, y: 35)) === child)
        #expect(child.hitTest(CGPoint(x: 10, y: 10)) == nil)
        _ = root
    }

    @Test("hitTest prefers the front-most (last) sibling")
    func hitTestFront() {
        let (root, child) = hitTree()
        let front = CALayer()
        front.frame = child.frame
        root.addSublayer(front)
        #expect(root.hitTest(CGPoint(x: 100, y: 50)) === front)
    }

    @Test("hitTest skips hidden layers")
    func hitTestHidden() {
        let (root, child) = hitTree()
        child.isHidden = true
        #expect(root.hitTest(CGPoint(x: 100, y: 50)) === root)
    }

    @Test("hitTest follows the child's transform")
    func hitTestTransform() {
        let (root, child) = hitTree()
        child.transform = CATransform3DMakeScale(2, 2, 1)   // now covers (50..150, 0..100)
        #expect(root.hitTest(CGPoint(x: 55, y: 95)) === child)
        child.transform = CATransform3DIdentity
        #expect(root.hitTest(CGPoint(x: 55, y: 95)) === root)
    }

    @Test("hitTest: a sublayer outside the bounds is hit unless masksToBounds")
    func hitTestMasksToBounds() {
        let (root, child) = hitTree()
        child.position = CGPoint(x: 210, y: 100)   // covers (185..235, 75..125)
        #expect(root.hitTest(CGPoint(x: 220, y: 100)) === child)
        root.masksToBounds = true
        #expect(root.hitTest(CGPoint(x: 220, y: 100)) == nil)
        #expect(root.hitTest(CGPoint(x: 190, y: 100)) === child)
    }
}
