import Foundation

/// A value behind a POSIX mutex, for the process-wide caches and registries the modules share.
///
/// Why not `Synchronization.Mutex`: on Linux its contended path runs inside the uninstrumented
/// Synchronization library (a futex wait), so ThreadSanitizer never sees the acquire that pairs
/// with the releasing thread's unlock and reports the guarded accesses as races (issue 17:
/// `PropertyTable.cache` was reported in 2 of 11 runs while both accesses were inside
/// `withLock`). TSan intercepts `pthread_mutex_lock`/`unlock`, so with this lock a clean TSan run
/// means what it says. Uncontended, a pthread mutex is one atomic exchange each way, as `Mutex`
/// is; none of these locks is on a per-layer or per-pixel path.
///
/// The body must not call back into code that takes the same lock (it is not recursive).
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
