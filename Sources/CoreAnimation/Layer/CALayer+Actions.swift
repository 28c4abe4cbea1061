// Property changes, the action search and implicit animation (docs/BEHAVIOUR.md J1–J5, E7).

/// What a property change implies when no action is found elsewhere (E7, I3).
package enum ImplicitAction: Sendable {
    case none, basic, transition
}

extension CALayer {
    /// Called before a property changes. Records the change in the transaction and, for a
    /// committed layer, snapshots the old presentation value an implied animation starts from.
    /// Returns whether actions should run after the change.
    /// Every call is paired with a `layerDidChange`: from here to there the change holds other
    /// threads' walks off when they may read this layer (`CrossThreadMutation`).
    package func layerWillChange(_ key: String) -> Bool {
        let stack = TransactionStack.current
        if stack.changeDepth == 0 { stack.changeTookLock = CrossThreadRelease.beginMutation(stack) }
        stack.changeDepth += 1
        stack.touch(self)
        guard committedCopy != nil else { return false }  // not yet committed: no animation (D4)
        if implicitFromValues[key] == nil, let binding = PropertyTable.of(type(of: self)).descriptors[key] {
            let source = TimingEngine.hasAnimations(self)
                ? (TimingEngine.evaluatePresentation(of: self, base: committedCopy!, at: CACurrentMediaTime()))
                : committedCopy!
            implicitFromValues[key] = binding.get(source)
        }
        return true
    }

    /// Called after a property changed: redisplay hooks, then the action (J4) unless the
    /// transaction disables actions (J5).
    package func layerDidChange(_ key: String, runAction: Bool) {
        // The step's table caches this layer's timing (its local time, C1).
        if stepIndex >= 0 { invalidateStepBlock() }
        if type(of: self).needsDisplay(forKey: key) { setNeedsDisplay() }
        let stack = TransactionStack.current
        stack.changeDepth -= 1
        if stack.changeDepth == 0, stack.changeTookLock {
            stack.changeTookLock = false
            CrossThreadRelease.endMutation(stack, true)
        }
        guard runAction, !CATransaction.disableActions() else { return }
        if let action = action(forKey: key) {
            action.run(forKey: key, object: self, arguments: nil)
        }
    }

    /// The action for an event key (J1): the delegate, then `actions`, then `style["actions"]`
    /// (following nested `style["style"]` dictionaries), then `defaultAction(forKey:)`, then the
    /// animation implied by the property (J2). `NSNull` anywhere ends the search with nil.
    /// `setDisableActions(true)` does not change the answer (J1).
    package func actionImpl(forKey event: String) -> CAAction? {
        if let d = delegate?.action(for: self, forKey: event) {
            return d is NSNull ? nil : d
        }
        if let a = actions?[event] {
            return a is NSNull ? nil : a
        }
        var style = state.style
        var depth = 0
        while let s = style, depth < 64 {
            if let dict = s["actions"] as? [AnyHashable: Any], let a = dict[event] {
                if a is NSNull { return nil }
                if let action = a as? CAAction { return action }
            }
            style = s["style"] as? [AnyHashable: Any]
            depth += 1
        }
        if let a = type(of: self).defaultAction(forKey: event) {
            return a is NSNull ? nil : a
        }
        return impliedAction(forKey: event)
    }

    /// Nil for every key, as Apple-run tests show (J1/J2, docs/BEHAVIOUR.md O2); the implied
    /// animation is made inside `action(forKey:)` after this returns nil.
    package class func defaultActionImpl(forKey event: String) -> CAAction? { nil }

    /// The implied animation of an animatable property: a `CABasicAnimation` with the
    /// transaction's duration and timing function (J4), or a fade `CATransition` for `hidden`
    /// and `sublayers` (I3, as measured on Apple; docs/BEHAVIOUR.md O1).
    package func impliedAction(forKey event: String) -> CAAction? {
        guard let d = PropertyTable.of(type(of: self)).descriptors[event] else { return nil }
        switch d.implicitAction {
        case .none: return nil
        case .transition:
            let t = CATransition()
            t.duration = CATransaction.animationDuration()
            t.timingFunction = CATransaction.animationTimingFunction()
            return t
        case .basic:
            let a = CABasicAnimation(keyPath: event)
            a.duration = CATransaction.animationDuration()
            a.timingFunction = CATransaction.animationTimingFunction()
            return a
        }
    }
}
