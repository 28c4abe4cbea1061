import Testing
@testable import CoreAnimation

/// Counts the layout and display hooks Core Animation calls, and what the layer looked like then.
final class HookCountingLayer: CALayer {
    var layouts = 0
    var displays = 0
    /// The first sublayer's frame when `display()` ran (layout comes first, P1).
    var sublayerFrameAtDisplay: CGRect?
    var layout: ((HookCountingLayer) -> Void)?

    override init() { super.init() }
    required init(layer: Any) { super.init(layer: layer) }
    required init?(coder: NSCoder) { nil }

    override func layoutSublayers() {
        layouts += 1
        layout?(self)
        super.layoutSublayers()
    }

    override func display() {
        displays += 1
        sublayerFrameAtDisplay = sublayers?.first?.frame
    }
}

final class LayoutDelegate: CALayerDelegate {
    var laidOut: [CALayer] = []
    func layoutSublayers(of layer: CALayer) { laidOut.append(layer) }
}

/// A delegate that supplies contents itself (`display(_:)`), so `draw(_:in:)` is never asked.
final class ContentsSupplyingDelegate: CALayerDelegate {
    var displayed = 0
    var drawn = 0
    func display(_ layer: CALayer) { displayed += 1 }
    func draw(_ layer: CALayer, in ctx: CGContext) { drawn += 1 }
}

@Suite struct LayoutAndDisplayPassTests {
    @Test("P1: setNeedsLayout → layoutSublayers once at the next commit, not before; needsLayout() says so")
    func layoutAtCommit() {
        let l = HookCountingLayer()
        CATransaction.flush()
        l.layouts = 0
        l.setNeedsLayout()
        l.setNeedsLayout()
        #expect(l.needsLayout())
        #expect(l.layouts == 0, "marking lays nothing out")
        CATransaction.begin()
        CATransaction.commit()
        #expect(l.layouts == 1, "one layout per commit however often it was marked")
        #expect(!l.needsLayout())
        CATransaction.flush()
        #expect(l.layouts == 1, "a later commit with nothing marked lays out nothing")
    }

    @Test("P1: a lone setNeedsLayout is served by the next flush (a renderer's or window's frame) with no transaction open")
    func flushServesMarks() {
        let l = HookCountingLayer()
        CATransaction.flush()
        l.layouts = 0
        l.setNeedsLayout()
        #expect(TransactionStack.current.topIfOpen == nil, "marking opens no transaction")
        CATransaction.flush()
        #expect(l.layouts == 1)
    }

    @Test("P1: the delegate's layoutSublayers(of:) is the default layoutSublayers()")
    func delegateLayout() {
        let d = LayoutDelegate()
        let l = CALayer()
        l.delegate = d
        l.setNeedsLayout()
        CATransaction.flush()
        #expect(d.laidOut.count == 1 && d.laidOut.first === l)
    }

    @Test("P1: layout before display in the same commit; sublayer frames set in layoutSublayers are committed with it")
    func layoutBeforeDisplay() {
        let parent = HookCountingLayer()
        let child = CALayer()
        parent.addSublayer(child)
        parent.layout = { p in p.sublayers?.first?.frame = CGRect(x: 0, y: 0, width: p.bounds.width / 2, height: p.bounds.height) }
        CATransaction.flush()
        parent.layouts = 0
        parent.bounds = CGRect(x: 0, y: 0, width: 100, height: 40)   // marks layout (P5)
        parent.setNeedsDisplay()
        CATransaction.flush()
        #expect(parent.layouts == 1 && parent.displays == 1)
        #expect(parent.sublayerFrameAtDisplay == CGRect(x: 0, y: 0, width: 50, height: 40))
        #expect(child.committedCopy?.frame == CGRect(x: 0, y: 0, width: 50, height: 40), "part of the same commit")
    }

    @Test("P1: a parent that resizes a child in layoutSublayers lays the child out in the same pass, parent first")
    func cascadingLayout() {
        var order: [String] = []
        let parent = HookCountingLayer(), child = HookCountingLayer()
        parent.name = "parent"; child.name = "child"
        parent.addSublayer(child)
        parent.layout = { p in order.append("parent"); (p.sublayers?.first)?.bounds = CGRect(x: 0, y: 0, width: p.bounds.width, height: 10) }
        child.layout = { _ in order.append("child") }
        CATransaction.flush()
        order = []
        child.setNeedsLayout()           // queued first …
        parent.bounds = CGRect(x: 0, y: 0, width: 80, height: 80)
        CATransaction.flush()
        #expect(order == ["parent", "child"], "… but laid out after its parent, once")
        #expect(child.bounds.width == 80)
    }

    @Test("P1: a layoutSublayers that marks its own layer again waits for the next commit (no endless loop)")
    func selfMarkingLayout() {
        let l = HookCountingLayer()
        l.layout = { $0.setNeedsLayout() }
        CATransaction.flush()
        l.layouts = 0
        l.setNeedsLayout()
        CATransaction.flush()
        #expect(l.layouts == 1 && l.needsLayout())
        CATransaction.flush()
        #expect(l.layouts == 2)
        l.layout = nil
        CATransaction.flush()
        #expect(!l.needsLayout())
    }

    @Test("layoutIfNeeded(): lays out now, from the topmost ancestor that needs it down")
    func layoutIfNeededOrder() {
        var order: [String] = []
        let root = HookCountingLayer(), mid = HookCountingLayer(), leaf = HookCountingLayer()
        root.addSublayer(mid); mid.addSublayer(leaf)
        root.layout = { _ in order.append("root") }
        mid.layout = { _ in order.append("mid") }
        leaf.layout = { _ in order.append("leaf") }
        CATransaction.flush()
        order = []
        leaf.setNeedsLayout(); mid.setNeedsLayout()
        leaf.layoutIfNeeded()
        #expect(order == ["mid", "leaf"], "root did not need layout; mid did, so it goes first")
        CATransaction.flush()
        #expect(order == ["mid", "leaf"], "nothing left for the commit")
    }

    @Test("P1: setNeedsDisplay → display() once at the next commit; needsDisplay() until then; displayIfNeeded() now")
    func displayAtCommit() {
        let l = HookCountingLayer()
        CATransaction.flush()
        l.displays = 0
        l.setNeedsDisplay()
        l.setNeedsDisplay(CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(l.needsDisplay() && l.displays == 0)
        CATransaction.flush()
        #expect(l.displays == 1 && !l.needsDisplay())
        l.setNeedsDisplay()
        l.displayIfNeeded()
        #expect(l.displays == 2 && !l.needsDisplay())
        CATransaction.flush()
        #expect(l.displays == 2, "already displayed")
        l.displayIfNeeded()
        #expect(l.displays == 2, "displayIfNeeded on an unmarked layer does nothing")
    }

    @Test("P1: an explicit outermost commit displays too; a nested one does not")
    func explicitCommitDisplays() {
        let l = HookCountingLayer()
        CATransaction.flush()
        l.displays = 0
        CATransaction.begin()
        CATransaction.begin()
        l.setNeedsDisplay()
        CATransaction.commit()
        #expect(l.displays == 0, "nested commit: nothing reaches the render tree (K2)")
        CATransaction.commit()
        #expect(l.displays == 1)
    }

    @Test("P5: needsDisplayOnBoundsChange marks display when the bounds change, not otherwise")
    func displayOnBoundsChange() {
        let l = HookCountingLayer()
        l.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        CATransaction.flush()
        l.displays = 0
        l.bounds = CGRect(x: 0, y: 0, width: 20, height: 10)
        #expect(!l.needsDisplay(), "off by default")
        l.needsDisplayOnBoundsChange = true
        l.position = CGPoint(x: 50, y: 50)
        #expect(!l.needsDisplay(), "moving the layer is not a bounds change")
        l.bounds = CGRect(x: 0, y: 0, width: 30, height: 10)
        #expect(l.needsDisplay())
        CATransaction.flush()
        #expect(l.displays == 1)
        l.bounds = CGRect(x: 0, y: 0, width: 30, height: 10)
        #expect(!l.needsDisplay(), "setting the same bounds is no change")
    }

    @Test("P1: needsDisplay(forKey:) true → changing that key marks display")
    func needsDisplayForKey() {
        final class Gauge: CALayer {
            @LayerProperty(key: "level") var level: CGFloat = 0
            var shown: [CGFloat] = []
            override class func needsDisplay(forKey key: String) -> Bool { key == "level" || super.needsDisplay(forKey: key) }
            override func display() { shown.append(level) }
        }
        let l = Gauge()
        CATransaction.flush()
        l.level = 3
        #expect(l.needsDisplay())
        l.opacity = 0.5
        CATransaction.flush()
        #expect(l.shown == [3], "the model is displayed at commit with its new value")
        l.opacity = 0.25
        #expect(!l.needsDisplay(), "opacity does not need display")
    }

    @Test("P2: a delegate implementing display(_:) replaces drawing: draw(_:in:) is not called")
    func delegateDisplayPrecedence() {
        let d = ContentsSupplyingDelegate()
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        l.delegate = d
        l.setNeedsDisplay()
        CATransaction.flush()
        #expect(d.displayed == 1 && d.drawn == 0)
        #expect(l.contents == nil, "the delegate set no contents; none were drawn")
    }

    @Test("P1: a presentation copy's marks are its own: they queue nothing for commit")
    func presentationMarksAreLocal() {
        let l = HookCountingLayer()
        CATransaction.flush()
        let p = try! #require(l.presentation())
        p.setNeedsLayout()
        #expect(p.needsLayout())
        #expect(!l.needsLayout())
        #expect(TransactionStack.current.displayQueues.layout.allSatisfy { $0 !== p })
    }

    @Test("P1: a commit from inside display() is ignored with a warning; the pass finishes")
    func commitInsideDisplay() {
        final class Committing: CALayer {
            var ran = 0
            override func display() { ran += 1; CATransaction.flush(); CATransaction.commit() }
        }
        let l = Committing()
        CATransaction.flush()
        l.setNeedsDisplay()
        let (_, warnings) = Diagnostics.capture { CATransaction.flush() }
        #expect(l.ran == 1)
        #expect(warnings.contains { $0.contains("CATransaction.commit() inside") })
        #expect(TransactionStack.current.topIfOpen == nil, "the transaction was committed once, at the end")
    }
}
