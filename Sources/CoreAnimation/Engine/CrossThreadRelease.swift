import Synchronization
#if canImport(Glibc)
import Glibc
internal import CSwiftRuntime
#endif

/// Lets a layer whose animations one thread steps be released on any other thread (issue 17
/// item 3; Apple lets layers be created, changed and released on any thread, K5).
///
/// Each thread steps the animations its own transactions added, walking its animated layers
/// and their superlayer chains (a layer's local time, C1) without retaining them: retaining
/// would give each a reference count the walk has to touch, and keep released layers alive. A
/// layer (or a tree) released elsewhere during that walk would be freed under it. So:
/// - the walk, and every other use of a thread's animated set that reads its layers, holds this
///   lock shared: threads step in parallel;
/// - the `deinit` of a layer that another thread's walk may read (one of that thread's animated
///   layers, or a layer with sublayers or a mask, which may be an ancestor of one) holds it
///   exclusively, from its first line to the end of the teardown it starts, but only while
///   some other thread has animated layers at all (one atomic load otherwise);
/// - such a `deinit` never edits the other thread's set: it queues the removal, and the
///   invalidation of the step blocks of the animated children that lose their superlayer, on
///   that thread's `TransactionStack`, which applies the queue before its next use of the set.
///
/// Between the moment a layer's reference count reaches zero and its `deinit` taking the lock,
/// a walk may still reach it. Its memory is intact until the `deinit` returns (which waits for
/// the walk), so reading it is safe; the walk skips such a layer (`isDeallocating`) and hands
/// out references only through `tryRetain`, which fails for it. `CALayer._superlayer` is
/// `unowned(unsafe)` for the same reason: a checked `unowned` load traps on an object whose
/// `deinit` has begun.
package enum CrossThreadRelease {
    // Allocated once and never freed; every access goes through pthread's own synchronisation.
    nonisolated(unsafe) static let lock: UnsafeMutablePointer<pthread_rwlock_t> = {
        let p = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
        var attr = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attr)
        // A releasing thread must not wait behind an endless stream of overlapping steps.
        pthread_rwlockattr_setkind_np(&attr, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        pthread_rwlock_init(p, &attr)
        pthread_rwlockattr_destroy(&attr)
        return p
    }()

    /// How many threads' stacks have a non-empty animated set or render layer trees
    /// (`noteRendersLayers`): the threads whose walks read layers.
    static let animatingStacks = Atomic<Int>(0)

    @inline(__always) static func lockShared() { pthread_rwlock_rdlock(lock) }
    @inline(__always) static func unlockShared() { pthread_rwlock_unlock(lock) }

    /// Called first in `CALayer.deinit`; returns whether it took the lock exclusively (then
    /// `leaveDeinit` must follow at the end of the `deinit`).
    @inline(__always)
    static func enterDeinit(of layer: CALayer) -> Bool {
        let animating = animatingStacks.load(ordering: .acquiring)
        guard animating > 0, !layer.isPresentationCopy else { return false }
        return enterDeinitSlow(layer, animating: animating)
    }

    @inline(never)
    private static func enterDeinitSlow(_ layer: CALayer, animating: Int) -> Bool {
        // A leaf no thread animates is read by no walk: only trees and animated layers wait.
        guard layer.animationStack != nil || layer._sublayers != nil || layer._mask != nil else { return false }
        let me = TransactionStack.current
        // Already exclusive (a teardown this thread runs), or inside this thread's own use of
        // its set, which cannot wait for the other threads' (see `TimingEngine.step`).
        guard !me.holdsExclusive, me.sharedDepth == 0 else { return false }
        // Only this thread animates: no other walk can be reading.
        guard animating > (me.countedAnimating ? 1 : 0) else { return false }
        pthread_rwlock_wrlock(lock)
        me.holdsExclusive = true
        return true
    }

    static func leaveDeinit() {
        TransactionStack.current.holdsExclusive = false
        pthread_rwlock_unlock(lock)
    }

    /// Whether the object's `deinit` has begun (its reference count reached zero).
    @inline(__always)
    static func isDeallocating(_ p: UnsafeMutableRawPointer) -> Bool { runtime.isDeallocating(p) }

    /// A +1 reference to `p` unless its `deinit` has begun.
    @inline(__always)
    static func tryRetain(_ p: UnsafeMutableRawPointer) -> Bool { runtime.tryRetain(p) != nil }

    /// The Swift runtime's own entry points for these questions (exported C functions of
    /// libswiftCore, which Objective-C's weak references use on Apple platforms):
    /// `bool swift_isDeallocating(HeapObject *)` and `HeapObject *swift_tryRetain(HeapObject *)`
    /// (the object, or null when it is being deallocated). Declared in the CSwiftRuntime header
    /// and bound by the linker, not looked up with `dlsym`: a binary built with
    /// `--static-swift-stdlib` does not export the runtime's symbols dynamically, and the lookup
    /// trapped there (found rendering on a GPU machine with a static `carender`).
    private enum runtime {
        @inline(__always) static func isDeallocating(_ p: UnsafeMutableRawPointer) -> Bool { swift_isDeallocating(p) }
        @inline(__always) static func tryRetain(_ p: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? { swift_tryRetain(p) }
    }
}

/// A change another thread made to this thread's animated set, applied by this thread.
struct ForeignSetChange {
    let layer: ObjectIdentifier
    /// True: the layer was freed (drop its entry without reading it); false: its step block is stale.
    let removes: Bool
}

extension TransactionStack {
    /// Whether this is the calling thread's stack.
    @inline(__always)
    package var isCurrentThread: Bool { self === TransactionStack.currentIfExists }

    /// Starts a use of the animated set that reads its layers: takes the lock shared (unless
    /// this thread holds it already) and applies the changes other threads queued.
    @inline(__always)
    package func beginSetUse() {
        if sharedDepth == 0, !holdsExclusive { CrossThreadRelease.lockShared() }
        sharedDepth += 1
        if hasForeignChanges.load(ordering: .acquiring) { applyForeignChanges() }
    }

    @inline(__always)
    package func endSetUse() {
        sharedDepth -= 1
        updateAnimatingCount()
        if sharedDepth == 0, !holdsExclusive { CrossThreadRelease.unlockShared() }
    }

    /// Keeps `CrossThreadRelease.animatingStacks` true to whether this set is empty.
    @inline(__always)
    func updateAnimatingCount() {
        let animating = animatedLayers.count > 0 || rendersLayers
        guard animating != countedAnimating else { return }
        countedAnimating = animating
        CrossThreadRelease.animatingStacks.add(animating ? 1 : -1, ordering: .releasing)
    }

    /// Queues a change for the thread this stack belongs to (called from other threads).
    func queueForeignChange(_ layer: ObjectIdentifier, removes: Bool) {
        foreignChanges.withLock { q in
            guard !exited else { return }
            q.append(ForeignSetChange(layer: layer, removes: removes))
            hasForeignChanges.store(true, ordering: .releasing)
        }
    }

    @inline(never)
    private func applyForeignChanges() {
        let changes: [ForeignSetChange] = foreignChanges.withLock { q in
            hasForeignChanges.store(false, ordering: .relaxed)
            defer { q = [] }
            return q
        }
        for c in changes {
            if c.removes { animatedLayers.removeFreed(c.layer) } else { animatedLayers.invalidate(c.layer) }
        }
        animatedLayers.compactIfSparse()
    }

    /// `layer`, one of this stack's animated layers, is being freed (from its `deinit`).
    func animatedLayerDied(_ layer: CALayer) {
        let id = ObjectIdentifier(layer)
        if isCurrentThread {
            beginSetUse()
            animatedLayers.remove(id)
            endSetUse()
        } else {
            queueForeignChange(id, removes: true)
        }
    }

    /// The thread is exiting (its stack's pthread key destructor): nothing steps this set any
    /// more, and other threads' changes for it are dropped.
    func threadExited() {
        foreignChanges.withLock { q in exited = true; q = [] }
        if countedAnimating {
            countedAnimating = false
            CrossThreadRelease.animatingStacks.add(-1, ordering: .releasing)
        }
    }
}
