// Layout and display hooks (Apple's CALayer "Laying Out" and "Updating Layer Display").

extension CALayer {
    public func setNeedsLayout() { needsLayoutFlag = true }
    public func needsLayout() -> Bool { needsLayoutFlag }

    /// Lays out this layer if it needs it, then its sublayers, top-down.
    public func layoutIfNeeded() {
        if needsLayoutFlag {
            needsLayoutFlag = false
            layoutSublayers()
        }
        for s in _sublayers ?? [] { s.layoutIfNeeded() }
    }

    /// Asks the delegate to lay out the sublayers; subclasses override.
    package func layoutSublayersImpl() {
        delegate?.layoutSublayers(of: self)
    }

    public func setNeedsDisplay() { needsDisplayFlag = true }
    /// Marks the layer for redisplay; the whole layer is redrawn (no partial invalidation yet).
    public func setNeedsDisplay(_ r: CGRect) { needsDisplayFlag = true }
    public func needsDisplay() -> Bool { needsDisplayFlag }

    public func displayIfNeeded() {
        guard needsDisplayFlag else { return }
        needsDisplayFlag = false
        display()
    }

    /// Updates the contents: the delegate's `display(_:)` when it implements it. Drawing
    /// through `draw(in:)` needs a bitmap `CGContext`, which comes with the renderer; until then
    /// a layer without a displaying delegate keeps its contents, and a warning says so once.
    package func displayImpl() {
        if let d = delegate {
            delegateDisplayMissing = false
            d.display(self)
            if !delegateDisplayMissing { return }
        }
        Diagnostics.warnOnce("CALayer.display(): drawing with draw(in:) needs the renderer's CGContext (not implemented yet); contents unchanged")
    }

    /// Draws the layer's contents; the default asks the delegate.
    package func drawImpl(in ctx: CGContext) {
        delegate?.draw(self, in: ctx)
    }

    /// True when the contents are drawn flipped (geometry flipped an odd number of times up
    /// the tree, as Apple's `contentsAreFlipped()`).
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
