// The layer tree: one parent per layer, moving a layer detaches it first, and no cycles.

extension CALayer {
    /// The sublayers, back to front. Setting the array replaces them all (each new one leaves
    /// its old parent first).
    public var sublayers: [CALayer]? {
        get {
            if isPresentationCopy, let m = modelRef { return m._sublayers?.map { $0.presentation() ?? $0 } }
            return _sublayers
        }
        set {
            guard !isPresentationCopy else { return }
            CrossThreadRelease.excluding {
                keepSublayersBeforeChange()
                // Detach all at once (one pass, not a search per layer).
                let old = _sublayers ?? []
                _sublayers = nil
                for l in old {
                    l.noteOrdered(in: false)
                    l._superlayer = nil
                    TransactionStack.current.touch(l)
                }
                for l in newValue ?? [] { insertSublayer(l, at: UInt32(_sublayers?.count ?? 0)) }
                if newValue == nil { noteSublayersChanged() }
            }
        }
    }

    /// The parent (for a mask: the layer it masks, docs/BEHAVIOUR.md M8).
    public var superlayer: CALayer? {
        if isPresentationCopy, let m = modelRef { return m._superlayer?.presentation() ?? m._superlayer }
        return _superlayer
    }

    public func addSublayer(_ layer: CALayer) {
        insertSublayer(layer, at: UInt32(_sublayers?.count ?? 0))
    }

    /// Inserts at `idx`, clamped to the end. Adding an ancestor (a cycle) or the layer itself is
    /// ignored with a warning.
    public func insertSublayer(_ layer: CALayer, at idx: UInt32) {
        CrossThreadRelease.excluding {
            guard canAdopt(layer) else { return }
            layer.removeFromSuperlayer()
            keepSublayersBeforeChange()
            // Mutated in place: building a tree of n layers stays O(n), not O(n²) copies.
            if _sublayers == nil { _sublayers = [] }
            _sublayers!.insert(layer, at: min(Int(idx), _sublayers!.count))
            layer._superlayer = self
            layer.noteOrdered(in: true)
            noteSublayersChanged()
        }
    }

    /// Inserts below `sibling`; a sibling that is not a sublayer puts the layer at the back.
    public func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        CrossThreadRelease.excluding {
            guard canAdopt(layer) else { return }
            layer.removeFromSuperlayer()
            let i = sibling.flatMap { s in _sublayers?.firstIndex { $0 === s } } ?? 0
            insertSublayer(layer, at: UInt32(i))
        }
    }

    /// Inserts above `sibling`; a sibling that is not a sublayer puts the layer at the front.
    public func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        CrossThreadRelease.excluding {
            guard canAdopt(layer) else { return }
            layer.removeFromSuperlayer()
            let i = sibling.flatMap { s in _sublayers?.firstIndex { $0 === s } }.map { $0 + 1 } ?? (_sublayers?.count ?? 0)
            insertSublayer(layer, at: UInt32(i))
        }
    }

    /// Replaces `oldLayer` (which must be a sublayer; otherwise nothing happens) with `newLayer`.
    public func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) {
        CrossThreadRelease.excluding {
            guard oldLayer !== newLayer, let i = _sublayers?.firstIndex(where: { $0 === oldLayer }) else { return }
            guard canAdopt(newLayer) else { return }
            oldLayer.removeFromSuperlayer()
            insertSublayer(newLayer, at: UInt32(i))
        }
    }

    public func removeFromSuperlayer() {
        CrossThreadRelease.excluding {
            guard !isPresentationCopy, let parent = _superlayer else { return }
            if isMaskLayer {
                parent.mask = nil
                return
            }
            detachFromParent()
            parent.noteSublayersChanged()
        }
    }

    /// The mask layer, whose rendered alpha decides what of this layer shows (M8). Setting it
    /// makes this layer the mask's superlayer without listing it in `sublayers`, and takes the
    /// mask out of any tree it was in. A layer cannot mask itself or an ancestor.
    public var mask: CALayer? {
        get { _mask }
        set {
            guard !isPresentationCopy else { _mask = newValue; return }
            if newValue === _mask { return }
            if let m = newValue {
                guard m !== self, !m.isAncestor(of: self) else {
                    Diagnostics.warnOnce("CALayer.mask: a layer cannot be its own mask or an ancestor's mask; ignored")
                    return
                }
            }
            let run = layerWillChange("mask")
            if let old = _mask {
                old._superlayer = nil
                old.isMaskLayer = false
            }
            if let m = newValue {
                m.removeFromSuperlayer()
                m._superlayer = self
                m.isMaskLayer = true
                TransactionStack.current.touch(m)
            }
            _mask = newValue
            layerDidChange("mask", runAction: run)
        }
    }

    // MARK: Helpers

    /// True when `self` is `layer` or one of its ancestors (through superlayers and masks).
    package func isAncestor(of layer: CALayer) -> Bool {
        var p: CALayer? = layer
        while let l = p {
            if l === self { return true }
            p = l._superlayer
        }
        return false
    }

    private func canAdopt(_ layer: CALayer) -> Bool {
        if isPresentationCopy || layer.isPresentationCopy { return false }
        if layer.isAncestor(of: self) {
            Diagnostics.warnOnce("CALayer.addSublayer: adding a layer to itself or to its own descendant would make a cycle; ignored")
            return false
        }
        return true
    }

    private func detachFromParent() {
        guard let parent = _superlayer else { return }
        noteOrdered(in: false)
        parent.keepSublayersBeforeChange()
        parent._sublayers?.removeAll { $0 === self }
        _superlayer = nil
        TransactionStack.current.touch(self)
    }

    /// Keeps the committed sublayer list before the first change of it in this transaction
    /// (for a CATransition's "before" picture, I2). Nothing to keep for a layer never
    /// committed (it is not on screen), and no copy is made: the list is copied on write by
    /// the change that follows.
    private func keepSublayersBeforeChange() {
        guard committedCopy != nil, !sublayersChangedInTransaction else { return }
        sublayersChangedInTransaction = true
        sublayersBeforeChange = _sublayers
        // Touched, so the commit that ends this transaction lets go of the list.
        TransactionStack.current.touch(self)
    }

    /// Posts the `sublayers` change (its implied action is a fade transition, E7/I3).
    private func noteSublayersChanged() {
        let run = layerWillChange("sublayers")
        layerDidChange("sublayers", runAction: run)
    }

    /// Runs the `onOrderIn`/`onOrderOut` action of a layer entering or leaving a tree.
    private func noteOrdered(in entering: Bool) {
        TransactionStack.current.touch(self)
        guard committedCopy != nil, !CATransaction.disableActions() else { return }
        let key = entering ? kCAOnOrderIn : kCAOnOrderOut
        action(forKey: key)?.run(forKey: key, object: self, arguments: nil)
    }
}
