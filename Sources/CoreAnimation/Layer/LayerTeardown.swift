#if canImport(Glibc)
import Glibc
#endif

/// Releases the sublayers (and mask) of a dying layer iteratively.
///
/// A layer owns its sublayers, so the last release of the root of a chain n layers deep would
/// run n nested `deinit`s and overflow the stack for a deep enough tree (a 100,000-deep chain
/// crashed the test process before this existed). Instead the outermost dying layer on a
/// thread drains a per-thread work list: each `deinit` moves its children into the list and
/// returns, and the drain releases them one at a time, so the stack depth stays constant
/// whatever the tree's depth. Layers without sublayers or mask never touch the list.
enum LayerTeardown {
    /// Thread-local, as a layer's last release can happen on any thread.
    final class Queue {
        var layers: [CALayer] = []
        var draining = false
    }

    // Unmanaged: not a speed choice; pthread's slot is a void*, so the queue goes in retained
    // and the key's destructor releases it (the C API's ownership, no benchmark involved).
    private static let key: pthread_key_t = {
        var k = pthread_key_t()
        pthread_key_create(&k) { ptr in if let ptr { Unmanaged<Queue>.fromOpaque(ptr).release() } }
        return k
    }()

    private static var current: Queue {
        if let p = pthread_getspecific(key) { return Unmanaged<Queue>.fromOpaque(p).takeUnretainedValue() }
        let q = Queue()
        pthread_setspecific(key, Unmanaged.passRetained(q).toOpaque())
        return q
    }

    /// Called from `CALayer.deinit`: takes `layer`'s sublayers and mask into the work list and,
    /// unless a drain is already running further up this thread's stack, releases the list.
    static func releaseChildren(of layer: CALayer) {
        let q = current
        move(from: layer, into: q)
        guard !q.draining else { return }
        q.draining = true
        // Each popped layer is released at the end of its iteration; its own deinit appends its
        // children here instead of releasing them recursively.
        while let next = q.layers.popLast() { _ = next }
        q.draining = false
    }

    /// Kept out of line so no local of the caller still retains the children while they drain.
    @inline(never)
    private static func move(from layer: CALayer, into q: Queue) {
        if let subs = layer._sublayers {
            q.layers.append(contentsOf: subs)
            layer._sublayers = nil
        }
        if let m = layer._mask {
            q.layers.append(m)
            layer._mask = nil
        }
    }
}
