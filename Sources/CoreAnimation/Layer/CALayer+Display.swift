// Layout and display hooks (Apple's CALayer "Laying Out" and "Updating Layer Display"), served
// at commit by `DisplayPass` (docs/BEHAVIOUR.md P1–P6).

extension CALayer {
    /// Marks the layer for layout: its `layoutSublayers()` runs at the next commit (explicit or
    /// implicit, a `CARenderer` frame, a window frame), or earlier through `layoutIfNeeded()`.
    /// Apple: [setNeedsLayout()](https://developer.apple.com/documentation/quartzcore/calayer/setneedslayout()).
    public func setNeedsLayout() {
        guard !needsLayoutFlag else { return }
        needsLayoutFlag = true
        if !isPresentationCopy { DisplayPass.enqueueLayout(self) }
    }

    public func needsLayout() -> Bool { needsLayoutFlag }

    /// Apple's [layoutIfNeeded()](https://developer.apple.com/documentation/quartzcore/calayer/layoutifneeded()):
    /// "the layer's super layers are traversed until an ancestor layer is found that does not
    /// require layout. Then layout is performed on the entire layer-tree beneath that
    /// ancestor": every layer there that needs layout is laid out, parents before children
    /// (a walk with its own stack: deep trees do not overflow the thread's).
    public func layoutIfNeeded() {
        var top: CALayer = self
        var hops = 0
        while let p = top._superlayer, p.needsLayoutFlag, hops < 1 << 20 { top = p; hops += 1 }
        var pending: [CALayer] = [top]
        while let l = pending.popLast() {
            if l.needsLayoutFlag {
                l.needsLayoutFlag = false
                l.layoutSublayers()
            }
            // Reversed onto the stack so siblings are laid out back to front, as listed.
            if let subs = l._sublayers { pending.append(contentsOf: subs.reversed()) }
        }
    }

    /// The default `layoutSublayers()`: asks the delegate (`layoutSublayers(of:)`). Subclasses
    /// override to position their sublayers (Apple: "Subclasses can override this method and
    /// use it to implement their own layout algorithm").
    package func layoutSublayersImpl() {
        delegate?.layoutSublayers(of: self)
    }

    /// Marks the whole layer for redisplay at the next commit.
    /// Apple: [setNeedsDisplay()](https://developer.apple.com/documentation/quartzcore/calayer/setneedsdisplay()).
    public func setNeedsDisplay() {
        dirtyRect = .infinite
        (self as? CATiledLayer)?.invalidateTiles(in: .infinite)
        markNeedsDisplay()
    }

    /// Marks `r` (the layer's own coordinates) for redisplay: the default `display()` then
    /// redraws only that part, clipped to it, and keeps the pixels outside it (P3). Several
    /// calls before a display redraw their union. An empty or non-finite rectangle asks for
    /// nothing (Apple ignores an empty rectangle; a non-finite one is ignored with a warning).
    /// Apple: [setNeedsDisplay(_:)](https://developer.apple.com/documentation/quartzcore/calayer/setneedsdisplay(_:)).
    public func setNeedsDisplay(_ r: CGRect) {
        guard r.isFiniteRect || r.isInfinite else {
            return Diagnostics.warnOnce("CALayer.setNeedsDisplay(_:): ignored non-finite rectangle \(r)")
        }
        let rect = r.standardized
        guard !rect.isEmpty else { return }
        dirtyRect = dirtyRect.union(rect)
        (self as? CATiledLayer)?.invalidateTiles(in: rect)
        markNeedsDisplay()
    }

    private func markNeedsDisplay() {
        guard !needsDisplayFlag else { return }
        needsDisplayFlag = true
        if !isPresentationCopy { DisplayPass.enqueueDisplay(self) }
    }

    public func needsDisplay() -> Bool { needsDisplayFlag }

    /// Displays the layer now if it is marked (`display()`), clearing the mark.
    public func displayIfNeeded() {
        guard needsDisplayFlag else { return }
        needsDisplayFlag = false
        display()
    }

    /// The default `display()` (P2): the delegate's `display(_:)` when the delegate implements
    /// it; otherwise the layer draws itself into a new backing store through `draw(in:)`
    /// (`CALayer+BackingStore.swift`) and the image becomes `contents`.
    /// Apple: [display()](https://developer.apple.com/documentation/quartzcore/calayer/display()).
    package func displayImpl() {
        if let d = delegate {
            delegateDisplayMissing = false
            d.display(self)
            if !delegateDisplayMissing { dirtyRect = .null; return }
        }
        drawIntoBackingStore()
    }

    /// The default `draw(in:)`: asks the delegate (`draw(_:in:)`); draws nothing without one.
    package func drawImpl(in ctx: CGContext) {
        delegate?.draw(self, in: ctx)
    }

    /// True when the contents are drawn flipped (geometry flipped an odd number of times up the
    /// tree, this layer included: Apple's header, "from the receiver up to and including the
    /// implicit container of the root layer"). The default `display()` then gives `draw(in:)`
    /// a context whose y axis runs the other way (P4).
    public func contentsAreFlipped() -> Bool {
        var flipped = false
        var l: CALayer? = self
        while let x = l { if x.state.isGeometryFlipped { flipped.toggle() }; l = x._superlayer }
        return flipped
    }
}

extension CALayer {
    /// The layer as a renderer draws it at the engine's last frame step: the animated copy
    /// while animations run, else the state of the last commit, else (never committed) the
    /// model itself. Package API for the render module (docs/BEHAVIOUR.md L1: the render tree shows
    /// committed values with animations applied).
    package var renderCopy: CALayer {
        // An animated copy exists only after a commit (it is made from the committed copy).
        if let out = animatedCopy {
            // The step may have left this frame's values in its table (`StepTable`); a current
            // block also means the layer has animations, without reading their list.
            if stepIndex >= 0, TimingEngine.storeStepOutputs(of: self) { return out }
            if !animationRecords.isEmpty { return out }
        }
        if !animationRecords.isEmpty, let base = committedCopy {
            return TimingEngine.evaluatePresentation(of: self, base: base, at: CACurrentMediaTime())
        }
        return committedCopy ?? self
    }
}

extension CALayer {
    /// For `tools/benchmarks` only (SPI, not API): `renderCopy`, what a renderer reads of this
    /// layer after a frame step, so the timing benchmark can time the stores apart.
    @_spi(Benchmark) public var renderCopyForBenchmark: CALayer { renderCopy }
}
