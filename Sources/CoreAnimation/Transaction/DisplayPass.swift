// The layout-and-display pass Core Animation runs when a transaction commits (Apple's "Core
// Animation Programming Guide", "Changing a layer's content": layers marked with
// `setNeedsLayout()`/`setNeedsDisplay()` are laid out and redisplayed "during the next update
// cycle"; CALayer's `layoutIfNeeded()`, `displayIfNeeded()`). docs/BEHAVIOUR.md P1–P3.

/// The layers of one thread that asked for layout or display since its last commit, and the
/// pass that serves them. Marking a layer appends it here once (its flag says it is queued),
/// so a commit visits only the layers that asked, never the whole tree.
///
/// The queues hold their layers strongly until the pass, as Apple's transaction does: a layer
/// released right after `setNeedsDisplay()` is drawn (for nobody) and then released.
package struct DisplayQueues {
    var layout: [CALayer] = []
    var display: [CALayer] = []
    /// Bumped at the start of every pass; layers remember the pass that served them.
    var pass: UInt64 = 0
    /// True while a pass runs on this thread (a flush or the outermost commit from inside a
    /// `layoutSublayers()`, `display()` or `draw(in:)` is then ignored, see `DisplayPass.run`).
    package var isRunning = false

    package var isEmpty: Bool { layout.isEmpty && display.isEmpty }
}

package enum DisplayPass {
    /// Queues `layer` for layout at the next commit of this thread.
    /// The first layer queued since the last pass also asks the run loop, if one runs, for a
    /// flush at the end of its turn (as a property change opens the implicit transaction, K3).
    static func enqueueLayout(_ layer: CALayer) {
        let stack = TransactionStack.current
        if stack.displayQueues.isEmpty, stack.topIfOpen == nil { stack.scheduleFlushIfRunLoop() }
        stack.displayQueues.layout.append(layer)
    }

    /// Queues `layer` for display at the next commit of this thread.
    static func enqueueDisplay(_ layer: CALayer) {
        let stack = TransactionStack.current
        if stack.displayQueues.isEmpty, stack.topIfOpen == nil { stack.scheduleFlushIfRunLoop() }
        stack.displayQueues.display.append(layer)
    }

    /// Lays out, then displays, the layers queued on `stack` (P1): layout first and to a fixed
    /// point (a `layoutSublayers()` that resizes sublayers marks them, and they are laid out in
    /// the same pass, parents before children), then display. Runs inside the outermost
    /// transaction before it is committed, so the `contents` that `display()` sets, and the
    /// frames `layoutSublayers()` sets, are part of that commit.
    ///
    /// Each layer is laid out and displayed at most once per pass; one marked again by its own
    /// `layoutSublayers()`/`display()` stays queued for the next commit (no endless loop).
    package static func run(on stack: TransactionStack) {
        guard !stack.displayQueues.isEmpty, !stack.displayQueues.isRunning else { return }
        stack.displayQueues.isRunning = true
        defer { stack.displayQueues.isRunning = false }
        stack.displayQueues.pass &+= 1
        let pass = stack.displayQueues.pass
        var deferred: [CALayer] = []
        while !stack.displayQueues.layout.isEmpty {
            let batch = stack.displayQueues.layout
            stack.displayQueues.layout = []
            for layer in batch {
                guard layer.needsLayoutFlag else { continue }
                if layer.layoutPassStamp == pass { deferred.append(layer); continue }
                layOutChain(from: layer, pass: pass)
            }
        }
        stack.displayQueues.layout = deferred
        let batch = stack.displayQueues.display
        stack.displayQueues.display = []
        for layer in batch {
            guard layer.needsDisplayFlag else { continue }
            if layer.displayPassStamp == pass { stack.displayQueues.display.append(layer); continue }
            layer.displayPassStamp = pass
            layer.displayIfNeeded()
        }
    }

    /// Apple's `layoutIfNeeded()` order for one queued layer: its ancestors that also need
    /// layout first, from the top down ("the layer's super layers are traversed until an
    /// ancestor layer is found that does not require layout"), so a parent positions a child
    /// before the child lays out its own sublayers.
    private static func layOutChain(from layer: CALayer, pass: UInt64) {
        var chain = [layer]
        var up = layer._superlayer
        while let p = up, p.needsLayoutFlag, p.layoutPassStamp != pass, chain.count < 4096 {
            chain.append(p)
            up = p._superlayer
        }
        for l in chain.reversed() where l.needsLayoutFlag {
            l.layoutPassStamp = pass
            l.needsLayoutFlag = false
            l.layoutSublayers()
        }
    }
}
