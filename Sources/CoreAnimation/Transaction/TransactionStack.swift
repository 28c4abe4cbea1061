import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One open transaction: its settings, the layers changed in it and the animations added in it.
package final class TransactionFrame {
    package let id: UInt64
    package let isImplicit: Bool
    package var values: [String: Any] = [:]
    package var completionBlocks: [() -> Void] = []
    package var touchedLayers: [CALayer] = []
    /// Animations added while this frame was open: stamped with their begin time at the
    /// outermost commit (docs/BEHAVIOUR.md C9) and counted for the completion block (K4).
    package var addedAnimations: [AnimationRecord] = []

    init(id: UInt64, isImplicit: Bool, inheriting parent: TransactionFrame?) {
        self.id = id
        self.isImplicit = isImplicit
        // Nested transactions read the enclosing values until they set their own (K1, K2).
        if let parent { values = parent.values }
    }
}

/// The per-thread transaction stack (docs/BEHAVIOUR.md K5: "per-thread transaction property").
package final class TransactionStack {
    package var frames: [TransactionFrame] = []
    /// Layers with attached animations that this thread's frame step visits. Layer trees are
    /// driven from one thread, as Core Animation expects; each thread steps its own.
    /// Per thread, never accessed across a call that could reach it again: exclusivity is
    /// checked statically (the frame step and every `renderCopy` go through it).
    // Kept, measured with CALayer.stepIndex (see there): renderCopy's stores +38% when checked.
    @exclusivity(unchecked) package var animatedLayers = AnimatedLayerSet()
    /// Bumped by every commit that changed a layer or added an animation (and by the commits
    /// of other threads to the trees this thread renders, `absorbForeignCommits`): a renderer
    /// whose last frame saw the same generation, with nothing animating, can reuse that frame.
    package var commitGeneration: UInt64 = 0
    /// Which layers each recent commit changed, so a renderer can re-emit just those when they
    /// are leaves of its last frame instead of rebuilding the tree (`CommitLog`).
    package var commitLog = CommitLog()
    /// Callbacks due at the next frame step (completion blocks of transactions without
    /// animations, stop messages of removed animations), with their media times.
    package var pendingEvents: [(time: Double, run: () -> Void)] = []
    /// Layers that asked for layout or display, served by the next commit (`DisplayPass`).
    package var displayQueues = DisplayQueues()
    private var implicitCommitScheduled = false

    // Releases on other threads (`CrossThreadRelease`). Only this thread reads or writes the
    // plain fields; other threads use the queue, under its lock.
    /// How deep this thread is in uses of `animatedLayers` that hold the shared lock.
    var sharedDepth = 0
    /// Set while this thread runs a `deinit` (and its teardown) holding the lock exclusively.
    var holdsExclusive = false
    /// Whether this stack is counted in `CrossThreadRelease.animatingStacks`.
    var countedAnimating = false
    /// Set once a renderer has built a frame on this thread (`noteRendersLayers`).
    var rendersLayers = false
    /// How deep this thread is in `layerWillChange`…`layerDidChange` pairs, and whether the
    /// outermost one took the lock (`CrossThreadMutation`).
    var changeDepth = 0
    var changeTookLock = false
    /// `CATransaction.lock()` nesting, and whether the outermost lock took the rwlock.
    var transactionLockDepth = 0
    var transactionLockTook = false
    /// Layers of the trees this thread renders that other threads committed, for its commit
    /// log (`absorbForeignCommits`).
    let foreignCommits = Locked<[ObjectIdentifier]>([])
    let hasForeignCommits = Atomic<Bool>(false)
    /// Set (under `foreignCommits`' lock) when more arrived than are kept.
    var foreignCommitsOverflowed = false
    /// Changes other threads made to `animatedLayers`, applied at this thread's next use of it.
    let foreignChanges = Locked<[ForeignSetChange]>([])
    let hasForeignChanges = Atomic<Bool>(false)
    /// Set (under `foreignChanges`' lock) when the thread has exited.
    var exited = false

    private static let nextID = Atomic<UInt64>(1)

    /// Thread-local storage through a pthread key: cheap enough for every property set.
    // Unmanaged: not a speed choice; pthread's slot is a void*, so the stack goes in retained
    // and the key's destructor releases it (the C API's ownership, no benchmark involved).
    private static let key: pthread_key_t = {
        var k = pthread_key_t()
        pthread_key_create(&k) { ptr in
            guard let ptr else { return }
            let stack = Unmanaged<TransactionStack>.fromOpaque(ptr)
            stack._withUnsafeGuaranteedRef { $0.threadExited() }
            stack.release()
        }
        return k
    }()

    /// This thread's stack, or nil when it has none yet (without making one).
    @inline(__always)
    package static var currentIfExists: TransactionStack? {
        guard let p = pthread_getspecific(key) else { return nil }
        return Unmanaged<TransactionStack>.fromOpaque(p).takeUnretainedValue()
    }

    package static var current: TransactionStack {
        if let p = pthread_getspecific(key) {
            return Unmanaged<TransactionStack>.fromOpaque(p).takeUnretainedValue()
        }
        let s = TransactionStack()
        pthread_setspecific(key, Unmanaged.passRetained(s).toOpaque())
        return s
    }

    /// The innermost open frame, opening the implicit transaction if none is open (K3).
    package var top: TransactionFrame {
        if let f = frames.last { return f }
        return openImplicit()
    }

    package var topIfOpen: TransactionFrame? { frames.last }

    package func begin() {
        frames.append(TransactionFrame(id: Self.nextID.add(1, ordering: .relaxed).oldValue,
                                       isImplicit: false, inheriting: frames.last))
    }

    private func openImplicit() -> TransactionFrame {
        let f = TransactionFrame(id: Self.nextID.add(1, ordering: .relaxed).oldValue, isImplicit: true, inheriting: nil)
        frames.append(f)
        scheduleFlushIfRunLoop()
        return f
    }

    /// Committed at the end of the current run-loop turn (K3) where a run loop runs; a tool
    /// without one commits through `CATransaction.flush()` or the renderer's frame.
    /// `currentMode` is non-nil only while the run loop runs: no block piles up in a loop that
    /// never turns. Also how a `setNeedsDisplay()` alone reaches a commit (P1).
    func scheduleFlushIfRunLoop() {
        if !implicitCommitScheduled, RunLoop.current.currentMode != nil {
            implicitCommitScheduled = true
            RunLoop.current.perform { CATransaction.flush() }
        }
    }

    /// Records that `layer` changed in the open transaction (opening the implicit one).
    @inline(__always)
    package func touch(_ layer: CALayer) {
        let f = top
        if layer.touchedInTransaction == f.id { return }
        layer.touchedInTransaction = f.id
        f.touchedLayers.append(layer)
    }

    /// Pops the innermost frame; at the outermost level the whole transaction is committed.
    /// A commit with nothing open is ignored (K3: Apple does not raise).
    package func commit() {
        guard !frames.isEmpty else { return }
        if frames.count == 1 {
            // The outermost commit lays out and displays the layers that asked first (P1), with
            // the transaction still open so what they change is part of it. A commit of this
            // same transaction from inside that pass (user code in `layoutSublayers()`,
            // `display()` or `draw(in:)`) would commit it half-done: ignored, with a warning.
            if displayQueues.isRunning {
                Diagnostics.warnOnce("CATransaction.commit() inside layoutSublayers()/display()/draw(in:) of the committing transaction: ignored (the transaction commits when that pass ends)")
                return
            }
            DisplayPass.run(on: self)
        }
        let f = frames.removeLast()
        if let parent = frames.last {
            // Changes join the enclosing transaction; nothing reaches the render tree yet (K2).
            for l in f.touchedLayers where l.touchedInTransaction != parent.id {
                l.touchedInTransaction = parent.id
                parent.touchedLayers.append(l)
            }
            parent.addedAnimations += f.addedAnimations
            parent.completionBlocks += f.completionBlocks
            return
        }
        if f.isImplicit { implicitCommitScheduled = false }
        // New copies and begin times, read by other threads' steps and builds.
        CrossThreadRelease.excluding { TimingEngine.commit(f) }
    }

    /// Commits the implicit transaction if it is the only one open (CATransaction.flush).
    /// Also commits layers that asked for layout or display when no transaction is open, so
    /// a renderer's or a window's frame serves a lone `setNeedsDisplay()` (P1). Ignored while
    /// this thread's layout-and-display pass runs (it is part of a commit already).
    package func flush() {
        guard !displayQueues.isRunning else { return }
        if frames.isEmpty, !displayQueues.isEmpty { _ = openImplicit() }
        if frames.count == 1, frames[0].isImplicit { commit() }
        implicitCommitScheduled = false
    }
}

/// The layers changed by this thread's recent commits, each with its commit generation. A
/// renderer asks for the layers committed since the generation of its last frame; the log keeps
/// the most recent `capacity` entries and answers nil once it has dropped ones the caller
/// needs (the caller then rebuilds its whole frame). Identifiers only: the log must not keep
/// layers alive, and a renderer resolves them against the layers of its own last frame.
package struct CommitLog {
    package static let capacity = 8192
    private var entries: [(generation: UInt64, layer: ObjectIdentifier)] = []
    /// The newest generation whose entries were dropped (0: none yet).
    private var droppedThrough: UInt64 = 0

    mutating func append(_ layer: CALayer, generation: UInt64) {
        append(ObjectIdentifier(layer), generation: generation)
    }

    /// Forgets every entry up to `generation`: a renderer asking about them rebuilds.
    mutating func dropAll(through generation: UInt64) {
        entries.removeAll()
        droppedThrough = generation
    }

    mutating func append(_ layer: ObjectIdentifier, generation: UInt64) {
        if entries.count >= Self.capacity {
            let drop = entries.count / 2
            droppedThrough = entries[drop - 1].generation
            entries.removeFirst(drop)
        }
        entries.append((generation, layer))
    }

    /// The layers committed after `generation`, or nil when the log no longer covers them all.
    package func layers(since generation: UInt64) -> [ObjectIdentifier]? {
        guard droppedThrough <= generation else { return nil }
        var out: [ObjectIdentifier] = []
        for e in entries.reversed() {
            guard e.generation > generation else { break }
            out.append(e.layer)
        }
        return out
    }
}

/// The animated layers a thread steps, in the order they first got an animation. Held
/// unretained: a weak reference would give every layer a refcount side table and make each
/// retain of it several times slower on the frame path; instead a layer removes itself here in
/// its `deinit` (through a queue when it dies on another thread, see `CrossThreadRelease`). Insertion order (not hash order) makes the frame step walk layers roughly in
/// the order their objects were allocated, which the memory system rewards (the step is bound
/// by cache misses at 100k layers), and makes callbacks at equal times come in a stable order.
package struct AnimatedLayerSet {
    /// One member, with its compiled block when it has one (see `StepTable`).
    package struct Entry {
        var layer: Unmanaged<CALayer>?
        var block: StepBlock?
    }

    /// Members in insertion order; removed ones leave a nil until the next compaction. A
    /// member's position is also kept in the layer (`stepIndex`) for `renderCopy`.
    var entries: [Entry] = []
    private var index: [ObjectIdentifier: Int] = [:]
    package var table = StepTable()
    /// Set while the frame step walks `entries` by position: removals leave holes and
    /// compaction waits until the walk ends.
    var isWalking = false

    package mutating func insert(_ l: CALayer) {
        let id = ObjectIdentifier(l)
        guard index[id] == nil else { return }
        index[id] = entries.count
        l.stepIndex = entries.count
        entries.append(Entry(layer: Unmanaged.passUnretained(l)))
    }

    package mutating func remove(_ id: ObjectIdentifier) {
        guard let i = index.removeValue(forKey: id) else { return }
        if let b = entries[i].block { table.retire(b) }
        entries[i].layer?._withUnsafeGuaranteedRef { $0.stepIndex = -1; $0.animationStack = nil }
        entries[i] = Entry(layer: nil)
        compactIfSparse()
    }

    /// `remove` for a layer freed on another thread: its entry goes without the layer being read
    /// (`CrossThreadRelease`). Compaction is left to the caller, once per batch.
    mutating func removeFreed(_ id: ObjectIdentifier) {
        guard let i = index.removeValue(forKey: id) else { return }
        if let b = entries[i].block { table.retire(b) }
        entries[i] = Entry(layer: nil)
    }

    /// `invalidate(at:)` by identity, for a change another thread made.
    mutating func invalidate(_ id: ObjectIdentifier) {
        if let i = index[id] { invalidate(at: i) }
    }

    /// Compacts once half the slots are holes (amortised O(1) per removal), and the table once
    /// its dead tracks outnumber the live ones.
    mutating func compactIfSparse() {
        guard !isWalking else { return }
        if entries.count > 32, index.count * 2 < entries.count {
            entries.removeAll { $0.layer == nil }
            for (i, e) in entries.enumerated() {
                e.layer!._withUnsafeGuaranteedRef { l in index[ObjectIdentifier(l)] = i; l.stepIndex = i }
            }
        }
        if table.wantsCompaction { table.compact(&entries) }
    }

    /// Gives the member at `i` a new block (or none), retiring the old one.
    mutating func setBlock(_ block: StepBlock?, at i: Int) {
        if let old = entries[i].block { table.retire(old) }
        entries[i].block = block
    }

    /// The members, retained for the duration of the caller's use; none whose `deinit` has
    /// begun on another thread (`CrossThreadRelease`). Call between `beginSetUse`/`endSetUse`.
    package func members() -> [CALayer] {
        var out: [CALayer] = []
        out.reserveCapacity(index.count)
        for e in entries {
            guard let u = e.layer, CrossThreadRelease.tryRetain(u.toOpaque()) else { continue }
            out.append(u.takeRetainedValue())
        }
        return out
    }

    package var count: Int { index.count }
}
