// The "before" picture of a CATransition (docs/BEHAVIOUR.md I2: "the layer is captured before and
// after the change committed in the same transaction").

extension CALayer {
    /// A frozen copy of this layer and its subtree as the screen shows them at media time `t`:
    /// each layer's last committed state with its running animations applied, and the
    /// sublayer lists of the last commit (`sublayersBeforeChange`), so changes made in the open
    /// transaction — before or after the transition is added — are not in it. Layers never
    /// committed were not on screen and are left out; nil when this layer itself was not.
    ///
    /// The copies are presentation copies linked to each other through `_sublayers`/`_mask`
    /// only (no model reference), so the renderer walks them like any tree and they run no
    /// actions. Running animations in the picture stop where they were: the old picture is
    /// still, as Apple's transitions show a captured image of it.
    package func transitionSnapshot(at t: CFTimeInterval) -> CALayer? {
        snapshot(at: t, depth: 0)
    }

    /// Deeper trees than the renderer draws (256 levels) are cut there too.
    private func snapshot(at t: CFTimeInterval, depth: Int) -> CALayer? {
        guard depth < 256, let base = committedCopy else { return nil }
        let source = animationRecords.isEmpty ? base : TimingEngine.evaluatePresentation(of: self, base: base, at: t)
        let copy = TimingEngine.makeCopy(of: source)
        copy.modelRef = nil
        let sublayers = sublayersChangedInTransaction ? sublayersBeforeChange : _sublayers
        var children: [CALayer] = []
        for child in sublayers ?? [] {
            guard let c = child.snapshot(at: t, depth: depth + 1) else { continue }
            c._superlayer = copy
            children.append(c)
        }
        copy._sublayers = children.isEmpty ? nil : children
        if let m = _mask?.snapshot(at: t, depth: depth + 1) {
            m._superlayer = copy
            m.isMaskLayer = true
            copy._mask = m
        }
        return copy
    }
}
