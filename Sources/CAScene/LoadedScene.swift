/// A scene ready to render: the layer tree (committed at scene time 0), the frame it is
/// rendered into, and the transactions it schedules. Not Apple API.
///
/// Load, apply scheduled changes and render on one thread: Core Animation's transactions and
/// the timing engine's frame step are per thread (docs/BEHAVIOUR.md K5).
public final class LoadedScene {
    public let rootLayer: CALayer
    /// The frame in points; pixels are `size × scale`.
    public let size: CGSize
    public let scale: CGFloat
    /// Seconds.
    public let duration: CFTimeInterval
    public let framesPerSecond: Double
    /// The scheduled transactions, sorted by time (equal times keep their order).
    public let transactions: [SceneTransaction]
    private var nextTransaction = 0
    /// Layers by name for the changes (the first layer with a name, in tree order).
    let namedLayers: [String: CALayer]

    /// A scene from a layer tree built in Swift. Commits the tree at scene time 0 (so its
    /// animations with `beginTime` 0 begin at 0, as in a loaded file) unless it was committed
    /// before. Layers named by changes are looked up in `rootLayer`'s tree and among the
    /// sublayers the changes add.
    public convenience init(rootLayer: CALayer, size: CGSize, scale: CGFloat = 1, duration: CFTimeInterval,
                            framesPerSecond: Double, transactions: [SceneTransaction] = []) {
        var names: [String: CALayer] = [:]
        func index(_ l: CALayer, depth: Int) {
            guard depth < 10_000 else { return }
            if let n = l.name, names[n] == nil { names[n] = l }
            if let m = l.mask { index(m, depth: depth + 1) }
            for s in l.sublayers ?? [] { index(s, depth: depth + 1) }
        }
        index(rootLayer, depth: 0)
        for t in transactions {
            for c in t.changes { if case .addSublayer(_, let s) = c { index(s, depth: 0) } }
        }
        self.init(rootLayer: rootLayer, size: size, scale: scale, duration: duration, framesPerSecond: framesPerSecond,
                  transactions: transactions, namedLayers: names)
        CAMediaClock.withFrameTime(0) { CATransaction.flush() }
    }

    /// Used by the loader, which has resolved (and checked) the names already. Transactions
    /// run in time order; equal times keep the order given.
    init(rootLayer: CALayer, size: CGSize, scale: CGFloat, duration: CFTimeInterval, framesPerSecond: Double,
         transactions: [SceneTransaction], namedLayers: [String: CALayer]) {
        self.rootLayer = rootLayer
        self.size = size
        self.scale = scale
        self.duration = duration
        self.framesPerSecond = framesPerSecond
        self.transactions = transactions.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        self.namedLayers = namedLayers
    }

    /// Frames in the scene: ⌈duration × framesPerSecond⌉ (at least 1); frame i shows time
    /// i / framesPerSecond.
    public var frameCount: Int {
        let n = (duration * framesPerSecond - 1e-9).rounded(.up)
        return n.isFinite ? max(1, Int(min(n, 1e12))) : 1
    }

    /// Applies the scene's scheduled transactions (property changes that run implicit
    /// animations) whose time ≤ t, in order, each committed at its own time (so the implicit
    /// animation's beginTime is that time). Callers pass non-decreasing t before
    /// CARenderer.beginFrame(atTime: t); a renderer that starts mid-range (a shard) gets all
    /// earlier changes applied at their own times.
    public func applyScheduledChanges(upTo t: CFTimeInterval) {
        while nextTransaction < transactions.count, transactions[nextTransaction].time <= t {
            apply(transactions[nextTransaction])
            nextTransaction += 1
        }
    }

    private func apply(_ tx: SceneTransaction) {
        CAMediaClock.withFrameTime(tx.time) {
            // Whatever the caller changed before is committed first, and the engine is at the
            // transaction's time, so implicit animations start from what the screen shows then.
            CATransaction.flush()
            TimingEngine.step(to: tx.time)
            CATransaction.begin()
            if let d = tx.animationDuration { CATransaction.setAnimationDuration(d) }
            if let f = tx.animationTimingFunction { CATransaction.setAnimationTimingFunction(f) }
            CATransaction.setDisableActions(tx.disableActions)
            for change in tx.changes { apply(change) }
            CATransaction.commit()
        }
    }

    private func apply(_ change: SceneChange) {
        guard let layer = namedLayers[change.layerName] else {
            Diagnostics.warnOnce("LoadedScene: no layer named \"\(change.layerName)\"; change skipped")
            return
        }
        switch change {
        case .set(_, let property, let value):
            if property == "frame", let r = AnimValue.unboxed(value) as? CGRect { layer.frame = r; return }
            let key = SceneSchema.property(property, of: type(of: layer))?.key ?? property
            layer.setValue(value, forKey: key)
        case .addAnimation(_, let animation, let key): layer.add(animation, forKey: key)
        case .removeAnimation(_, let key): layer.removeAnimation(forKey: key)
        case .removeAllAnimations: layer.removeAllAnimations()
        case .addSublayer(_, let sublayer): layer.addSublayer(sublayer)
        case .removeFromSuperlayer: layer.removeFromSuperlayer()
        }
    }
}
