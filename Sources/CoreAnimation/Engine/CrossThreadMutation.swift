#if canImport(Glibc)
import Glibc
#endif

/// Lets a layer be changed on one thread while another thread steps its animations or renders
/// the tree it is in (issue 17 item 3).
///
/// Apple's promise, in the discussion of `CATransaction.lock()`: Core Animation "uses a data
/// model that promises not to corrupt the internal data structures when called from multiple
/// threads concurrently, but not that data returned is still valid if the property was valid on
/// another thread"; `CATransaction.lock()` is the recursive lock that makes a read-modify-write
/// atomic. Here the structures another thread reads are the model state, the sublayer lists,
/// the animation records and the committed and presentation copies: a thread's frame step and a
/// renderer's build read them holding `CrossThreadRelease`'s lock shared (threads step and build
/// in parallel), so a change made on a thread *other* than those holds the same lock exclusively:
/// - a property change, from `layerWillChange` to just before its action runs (the action's own
///   `add(_:forKey:)` takes it again);
/// - a sublayer or mask change, an added or removed animation, an outermost commit, and a
///   `presentation()` read of a layer whose copy another thread's step writes;
/// - everything between `CATransaction.lock()` and `unlock()`.
///
/// It is taken only while some *other* thread animates or renders (`animatingStacks` counts the
/// stacks whose walks read layers): one atomic load otherwise, so a program that drives its trees
/// from one thread, the usual case, pays nothing more. It is re-entrant per thread
/// (`holdsExclusive`), and is not taken inside this thread's own walk (`sharedDepth > 0`: a
/// read lock cannot be upgraded, and nothing else can be reading then).
extension CrossThreadRelease {
    /// Takes the lock exclusively when another thread may be reading layers; returns whether it
    /// did (then `endMutation` must follow on this thread).
    @inline(__always)
    package static func beginMutation(_ me: TransactionStack) -> Bool {
        guard animatingStacks.load(ordering: .acquiring) > 0 else { return false }
        return beginMutationSlow(me)
    }

    @inline(never)
    private static func beginMutationSlow(_ me: TransactionStack) -> Bool {
        guard !me.holdsExclusive, me.sharedDepth == 0 else { return false }
        guard animatingStacks.load(ordering: .acquiring) > (me.countedAnimating ? 1 : 0) else { return false }
        pthread_rwlock_wrlock(lock)
        me.holdsExclusive = true
        return true
    }

    @inline(__always)
    package static func endMutation(_ me: TransactionStack, _ locked: Bool) {
        guard locked else { return }
        me.holdsExclusive = false
        pthread_rwlock_unlock(lock)
    }

    /// `body` with other threads' walks excluded when they might read what it changes.
    @inline(__always)
    package static func excluding<R>(_ body: () throws -> R) rethrows -> R {
        let me = TransactionStack.current
        let locked = beginMutation(me)
        defer { endMutation(me, locked) }
        return try body()
    }

    /// `CATransaction.lock()`: recursive per thread. Taken exclusively whatever the other
    /// threads do, since the caller means to read values they may be about to change.
    static func lockTransaction() {
        let me = TransactionStack.current
        me.transactionLockDepth += 1
        guard me.transactionLockDepth == 1, !me.holdsExclusive, me.sharedDepth == 0 else { return }
        // Counted as a reader while it holds the lock, so that the threads that animate or
        // render alone (and so skip the lock for their own changes) take it and wait.
        animatingStacks.add(1, ordering: .releasing)
        pthread_rwlock_wrlock(lock)
        me.holdsExclusive = true
        me.transactionLockTook = true
    }

    /// `CATransaction.unlock()`; one without a matching `lock()` is ignored (Apple's never raises, K3).
    static func unlockTransaction() {
        let me = TransactionStack.current
        guard me.transactionLockDepth > 0 else { return }
        me.transactionLockDepth -= 1
        guard me.transactionLockDepth == 0, me.transactionLockTook else { return }
        me.transactionLockTook = false
        me.holdsExclusive = false
        pthread_rwlock_unlock(lock)
        animatingStacks.add(-1, ordering: .releasing)
    }
}

extension CrossThreadRelease {
    /// Whether a thread other than `me` animates or renders.
    @inline(__always)
    static func otherThreadsReadLayers(_ me: TransactionStack) -> Bool {
        animatingStacks.load(ordering: .acquiring) > (me.countedAnimating ? 1 : 0)
    }

    /// After a commit on this thread: tells the threads that render the trees of the committed
    /// layers (the nearest `renderingStack` up each layer's superlayer chain) which layers
    /// changed, so their next frame draws them (their own commit logs know only their commits).
    /// Only walked while other threads read layers.
    /// Each ancestor is looked at once per commit (the answer is remembered for every layer on
    /// the way up): a commit of a whole deep chain, each layer of which is touched, stays linear.
    static func forwardCommits(_ layers: [CALayer], from me: TransactionStack) {
        guard otherThreadsReadLayers(me) else { return }
        // The rendering stack found above each layer seen so far (nil: none).
        var known: [ObjectIdentifier: TransactionStack?] = [:]
        var path: [ObjectIdentifier] = []
        for layer in layers where !layer.isPresentationCopy {
            path.removeAll(keepingCapacity: true)
            var p: CALayer? = layer
            var found: TransactionStack? = nil
            while let l = p {
                let id = ObjectIdentifier(l)
                if let k = known[id] { found = k; break }
                path.append(id)
                if let s = l.renderingStack { found = s; break }
                p = l._superlayer
            }
            for id in path { known[id] = .some(found) }
            if let s = found, s !== me { s.queueForeignCommit(ObjectIdentifier(layer)) }
        }
    }
}

extension TransactionStack {
    /// At most this many forwarded layers wait for a renderer that has not drawn since; past
    /// it the renderer rebuilds its whole frame instead (memory stays bounded).
    static let foreignCommitCapacity = 8192

    func queueForeignCommit(_ layer: ObjectIdentifier) {
        foreignCommits.withLock { q in
            guard !exited else { return }
            if q.count < Self.foreignCommitCapacity { q.append(layer) } else { foreignCommitsOverflowed = true }
            hasForeignCommits.store(true, ordering: .releasing)
        }
    }

    /// Moves the layers other threads committed in the trees this thread renders into its own
    /// commit log, as one commit (called by a renderer before it compares generations).
    package func absorbForeignCommits() {
        guard hasForeignCommits.load(ordering: .acquiring) else { return }
        let (ids, overflowed): ([ObjectIdentifier], Bool) = foreignCommits.withLock { q in
            hasForeignCommits.store(false, ordering: .relaxed)
            defer { q = []; foreignCommitsOverflowed = false }
            return (q, foreignCommitsOverflowed)
        }
        commitGeneration &+= 1
        if overflowed {
            commitLog.dropAll(through: commitGeneration)
        } else {
            for id in ids { commitLog.append(id, generation: commitGeneration) }
        }
    }

    /// Counts this thread as one that reads layer trees (a `CARenderer` frame builds here), so
    /// other threads' changes exclude its builds from then on. Cheap to call every frame.
    package func noteRendersLayers() {
        guard !rendersLayers else { return }
        rendersLayers = true
        updateAnimatingCount()
    }
}
