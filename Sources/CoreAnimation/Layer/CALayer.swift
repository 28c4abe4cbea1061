/// Methods a layer's delegate may implement (Apple's `CALayerDelegate`). All have default
/// implementations, as the Objective-C protocol's optional methods do.
public protocol CALayerDelegate: AnyObject {
    /// Supplies the layer's contents; replaces `draw(_:in:)` when implemented.
    func display(_ layer: CALayer)
    /// Draws the layer's contents into a context (the context arrives with the renderer).
    func draw(_ layer: CALayer, in ctx: CGContext)
    func layerWillDraw(_ layer: CALayer)
    func layoutSublayers(of layer: CALayer)
    /// First step of the action search (docs/BEHAVIOUR.md J1). Return `NSNull()` to stop the search.
    func action(for layer: CALayer, forKey event: String) -> CAAction?
}

extension CALayerDelegate {
    public func display(_ layer: CALayer) { layer.delegateDisplayMissing = true }
    public func draw(_ layer: CALayer, in ctx: CGContext) {}
    public func layerWillDraw(_ layer: CALayer) {}
    public func layoutSublayers(of layer: CALayer) { layer.delegateLayoutMissing = true }
    public func action(for layer: CALayer, forKey event: String) -> CAAction? { nil }
}

/// The Core Animation layer: a model object holding geometry, appearance and timing, with
/// animations attached (Apple's `CALayer`).
///
/// Differences from Apple that source code may notice:
/// - `init(layer:)` is `required` (Swift needs that to make presentation copies of any
///   subclass): a subclass that overrides it writes `required init(layer: Any)` where Apple
///   code writes `override init(layer: Any)`.
/// - Key-value coding covers the layer's own keys, Core Animation's structure key paths
///   (docs/BEHAVIOUR.md E6) and arbitrary extra keys; custom animatable properties are declared with
///   `@LayerProperty(key:)` instead of `@NSManaged`.
open class CALayer: NSObject, CAMediaTiming {
    /// Values of keys the class does not declare (Apple's CALayer stores undefined KVC keys).
    package var dynamicValues: [String: Any] = [:]

    // Final and statically checked, like `state`: the render tree reads both for every layer,
    // and as overridable properties of an open class each read was a vtable call plus a
    // dynamic exclusivity check (about 114 instructions, callgrind).
    // Measured: render-benchmark under callgrind, the 114 instructions above per read (d26c2d1).
    @exclusivity(unchecked) package final var _sublayers: [CALayer]? = nil
    @exclusivity(unchecked) package final var _mask: CALayer? = nil
    /// True for a layer that is some other layer's `mask` (its `superlayer` is the masked layer).
    package var isMaskLayer = false

    public weak var delegate: CALayerDelegate?
    /// `[String: CAAction]` as Apple's Swift API types it; `NSNull()` entries stop the search.
    public var actions: [String: CAAction]?

    // MARK: Presentation bookkeeping

    /// Set on presentation copies: they never run actions or join transactions (docs/BEHAVIOUR.md J5).
    // Read by every property setter, the frame step's writes to presentation copies included;
    // set once, when the copy is made: unchecked (see AnimationRecord's flags).
    @exclusivity(unchecked) package var isPresentationCopy = false
    /// For a presentation copy: the model layer it shows.
    /// Cleared by the model's `deinit` (unretained for the same reason as `_superlayer`).
    package unowned var modelRef: CALayer?
    /// The thread stack whose frame step visits this layer while it has animations.
    package var animationStack: TransactionStack?
    /// Set on the root of a tree a `CARenderer` draws: the stack of the thread that rendered it
    /// last, which learns of other threads' commits in the tree through it (`CrossThreadMutation`).
    package weak var renderingStack: TransactionStack?
    /// Old presentation values captured when a property changed in the open transaction; an
    /// implied animation with no from/to values starts from them (docs/BEHAVIOUR.md E1, last row).
    package var implicitFromValues: [String: AnimValue] = [:]
    /// The sublayers as of the last commit, kept from the first change of `sublayers` in the
    /// open transaction until it commits: the "before" picture of a CATransition needs the
    /// tree the screen still shows (docs/BEHAVIOUR.md I2). Meaningful only while
    /// `sublayersChangedInTransaction` is set.
    package var sublayersBeforeChange: [CALayer]? = nil
    package var sublayersChangedInTransaction = false
    /// Identifier of the transaction that last recorded this layer as changed.
    package var touchedInTransaction: UInt64 = 0

    package var needsLayoutFlag = false
    package var needsDisplayFlag = false
    package var delegateDisplayMissing = false
    package var delegateLayoutMissing = false
    /// The part of the layer (its own coordinates) `setNeedsDisplay(_:)` asked to redraw since
    /// the last display; `.infinite` after `setNeedsDisplay()` (the whole layer), `.null` when
    /// nothing asked (see `DisplayPass`).
    package var dirtyRect = CGRect.null
    /// The commit pass that last laid out / displayed this layer: a layer is handled at most once
    /// per pass, so a `layoutSublayers()` or `display()` that marks its own layer again waits for
    /// the next commit instead of looping (see `DisplayPass`).
    package var layoutPassStamp: UInt64 = 0
    package var displayPassStamp: UInt64 = 0
    /// The bitmap the default `display()` last drew and set as `contents` (nil when it never
    /// drew, or `contents` was set by other means since): a dirty-rect redraw starts from its
    /// pixels, and the renderer keeps drawn images out of its shared image atlas.
    package var backingStore: BackingStore?

    /// Animations attached to this layer, in the order they were added (docs/BEHAVIOUR.md E3).
    @exclusivity(unchecked) package var animationRecords: [AnimationRecord] = [] {
        didSet {
            evaluationPlan = nil
            hasTransitionRecord = animationRecords.contains { $0.evaluator is TransitionEvaluator }
        }
    }
    /// Whether one of `animationRecords` is a transition (`CATransition`): the renderer asks
    /// every patched leaf each frame (`runningTransition(atMedia:)`), and a flag spares the
    /// common animated leaf a cast per animation record.
    @exclusivity(unchecked) package private(set) var hasTransitionRecord = false
    /// This layer's position in its thread's `AnimatedLayerSet` (−1: none), so `renderCopy`
    /// finds its block in the `StepTable` without a lookup.
    // Kept (with appliedStep, TransactionStack.animatedLayers): timing-benchmark 1000, callgrind:
    // checked, renderCopy's stores take 38% more instructions (4.19 → 5.77 M), the step 1.8%.
    @exclusivity(unchecked) package var stepIndex = -1
    /// The frame step whose table outputs the presentation copy holds (see `StepTable.store`).
    @exclusivity(unchecked) package var appliedStep: UInt64 = 0
    /// Changes whenever `evaluationPlan`, `committedCopy` or `animatedCopy` is replaced. While
    /// it holds still the presentation copy is written only by the current plan's animations, so
    /// what the render tree's patch read of the copy's other properties stays true
    /// (`PatchRecords.LeafCache`, `TimingEngine.stepPosition`).
    @exclusivity(unchecked) package private(set) var copyGeneration: UInt32 = 0

    // What the frame step reads of every animated layer comes last, next to the start of
    // `state` (whose timing leads it), so one or two adjacent cache lines hold all of it: at
    // 100k animated layers the step is bound by these misses. The fields are marked
    // `@exclusivity(unchecked)`: their dynamic exclusivity checks were an eighth of the step's
    // instructions (callgrind); the engine is per thread and never holds an access across a
    // call, so the static checks suffice.
    // Measured (42fe970): timing-benchmark 1000 under callgrind, the checks were 1/8 of
    // TimingEngine.step's instructions (378.2 M → 124.2 M together with typed tracks).
    /// Not retained (a parent owns its children). Unowned rather than weak: weak references
    /// give the parent a refcount side table, which slows every retain on the frame path; the
    /// parent's `deinit` clears this instead. `unowned(unsafe)`: a frame step on another thread
    /// may read a parent whose reference count has just reached zero on this one, and a checked
    /// `unowned` load traps on such an object even though its `deinit` (which waits for the
    /// step, see `CrossThreadRelease`) has not yet cleared this reference or freed anything.
    @exclusivity(unchecked) package unowned(unsafe) var _superlayer: CALayer? = nil {
        didSet {
            parentAddress = _superlayer.map { Unmanaged.passUnretained($0).toOpaque() }
            invalidateStepBlock()
        }
    }
    /// `_superlayer`'s address: what the frame step follows up the tree. Reading it retains
    /// nothing, so the step can never be left holding the last reference to an ancestor
    /// released on another thread meanwhile (its `deinit` would then run inside the step).
    @exclusivity(unchecked) package final var parentAddress: UnsafeMutableRawPointer? = nil
    /// What a frame does with `animationRecords`, flattened once per change of the list (see
    /// `EvaluationPlan`); nil until the next evaluation rebuilds it.
    @exclusivity(unchecked) package var evaluationPlan: EvaluationPlan? { didSet { copyGeneration &+= 1; invalidateStepBlock() } }
    /// The model state as of the last commit (nil before the first commit, docs/BEHAVIOUR.md L1).
    @exclusivity(unchecked) package var committedCopy: CALayer? { didSet { copyGeneration &+= 1; invalidateStepBlock() } }
    /// Reused object animated values are written into (no allocation per frame).
    @exclusivity(unchecked) package var animatedCopy: CALayer? { didSet { copyGeneration &+= 1; invalidateStepBlock() } }

    /// Last among the stored properties, right after the frame step's other fields (above).
    // Kept (with CAShapeLayer.shape): timing-benchmark 1000, callgrind: checked, the step takes 6%
    // more instructions (49.0 → 52.0 M) and renderCopy's stores 47% more (2.85 → 4.19 M).
    @exclusivity(unchecked) package final var state = LayerState()

    // Reads for the renderer's module. `@exclusivity(unchecked)` holds inside this module only:
    // read from another module, a stored property's every access is checked at run time
    // (`swift_beginAccess`, about 76 instructions, callgrind; the attribute does not cross the
    // module boundary). Through these getters the read is made here, unchecked, for the price
    // of a call (issue 23: the walk reads them for every layer of every frame).
    package final var sublayersUnchecked: [CALayer]? { _sublayers }
    package final var maskUnchecked: CALayer? { _mask }
    package final var stateUnchecked: LayerState { state }
    package final var hasContents: Bool { state.hasContents }
    /// `state.zPosition` without copying the state (the walk reads it of every sublayer to
    /// know whether they need sorting).
    package final var zPositionUnchecked: CGFloat { state.zPosition }

    public override init() {
        super.init()
        TransactionStack.current.touch(self)
    }

    /// Copies `layer`'s state: how presentation copies are made (docs/BEHAVIOUR.md L4). Subclasses
    /// override to copy their own stored properties and must call super.
    public required init(layer: Any) {
        super.init()
        if let other = layer as? CALayer {
            state = other.state
            dynamicValues = other.dynamicValues
            actions = other.actions
            delegate = other.delegate
            backingStore = other.backingStore
        }
    }

    deinit {
        // Another thread's frame step may be reading this layer or its subtree: wait for it, and
        // keep it waiting until the teardown below is done (`CrossThreadRelease`).
        let exclusive = CrossThreadRelease.enterDeinit(of: self)
        defer { if exclusive { CrossThreadRelease.leaveDeinit() } }
        for s in _sublayers ?? [] { s._superlayer = nil }
        if let m = _mask { m._superlayer = nil; m.isMaskLayer = false }
        committedCopy?.modelRef = nil
        animatedCopy?.modelRef = nil
        for r in animationRecords { r.layer = nil }
        animationStack?.animatedLayerDied(self)
        // Last: children are released iteratively (a 100k-deep chain must not overflow the stack).
        if _sublayers != nil || _mask != nil { LayerTeardown.releaseChildren(of: self) }
    }

    /// Archiving is not supported on Linux: always nil (with a logged warning). Declared so
    /// Apple subclasses that implement `required init?(coder:)` compile unchanged.
    public required init?(coder: NSCoder) {
        Diagnostics.warnOnce("CALayer(coder:) is not supported: NSCoding of layers is not implemented")
        return nil
    }

    /// The layer's presentation: the state of the last commit with every active animation
    /// applied at `CACurrentMediaTime()`. Nil until the layer has been committed (docs/BEHAVIOUR.md L1).
    /// A fresh evaluation each call; don't hold on to it (L2).
    open func presentation() -> Self? {
        if isPresentationCopy { return self }
        // Another thread's step may be writing this layer's copies (`CrossThreadMutation`).
        return CrossThreadRelease.excluding {
            guard let base = committedCopy else { return nil }
            return (TimingEngine.evaluatePresentation(of: self, base: base, at: CACurrentMediaTime()) as? Self)
        }
    }

    /// The model layer: itself for a model layer, the model for a presentation (docs/BEHAVIOUR.md L2).
    open func model() -> Self {
        if isPresentationCopy, let m = modelRef as? Self { return m }
        return self
    }

    // MARK: Class-level hooks

    /// Default value of a property key, or nil (docs/BEHAVIOUR.md A2: non-nil for anchorPoint, nil for
    /// bounds, position and frame).
    open class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "anchorPoint": return CGPoint(x: 0.5, y: 0.5)
        case "transform", "sublayerTransform": return CATransform3DIdentity
        case "opacity", "contentsScale", "rasterizationScale", "speed": return NSNumber(value: 1)
        case "contentsRect", "contentsCenter": return CGRect(x: 0, y: 0, width: 1, height: 1)
        case "shadowOffset": return CGSize(width: 0, height: -3)
        case "shadowRadius": return NSNumber(value: 3)
        case "isDoubleSided", "doubleSided", "allowsGroupOpacity", "allowsEdgeAntialiasing": return NSNumber(value: true)
        case "edgeAntialiasingMask", "maskedCorners": return NSNumber(value: 15)
        case "duration": return NSNumber(value: Double.infinity)
        default: return nil
        }
    }

    /// Whether a change of `key` redraws the layer; subclasses return true for custom
    /// properties their `display()`/`draw(in:)` reads.
    open class func needsDisplay(forKey key: String) -> Bool { false }

    /// Whether the layer archives `key`; kept for source compatibility.
    open func shouldArchiveValue(forKey key: String) -> Bool { true }

    open override var description: String {
        let n = state.name.map { " \"\($0)\"" } ?? ""
        return "<\(type(of: self))\(n) frame=\(frame)>"
    }

    // MARK: Overridable entry points (bodies live in the extension files named for them;
    // Swift without Objective-C cannot override members declared in extensions).

    open func action(forKey event: String) -> CAAction? { actionImpl(forKey: event) }
    open class func defaultAction(forKey event: String) -> CAAction? { defaultActionImpl(forKey: event) }
    open func add(_ anim: CAAnimation, forKey key: String?) { addImpl(anim, forKey: key) }
    open func animation(forKey key: String) -> CAAnimation? { animationImpl(forKey: key) }
    open func animationKeys() -> [String]? { animationKeysImpl() }
    open func removeAnimation(forKey key: String) { removeAnimationImpl(forKey: key) }
    open func removeAllAnimations() { removeAllAnimationsImpl() }
    open func layoutSublayers() { layoutSublayersImpl() }
    open func display() { displayImpl() }
    open func draw(in ctx: CGContext) { drawImpl(in: ctx) }
    open func preferredFrameSize() -> CGSize { preferredFrameSizeImpl() }
    open func contains(_ p: CGPoint) -> Bool { containsImpl(p) }
    open func hitTest(_ p: CGPoint) -> CALayer? { hitTestImpl(p) }
    open func value(forKey key: String) -> Any? { valueImpl(forKey: key) }
    open func setValue(_ value: Any?, forKey key: String) { setValueImpl(value, forKey: key) }
    open func value(forKeyPath keyPath: String) -> Any? { valueImpl(forKeyPath: keyPath) }
    open func setValue(_ value: Any?, forKeyPath keyPath: String) { setValueImpl(value, forKeyPath: keyPath) }
    package class func makePropertyTable() -> PropertyTable { makePropertyTableImpl() }
}
