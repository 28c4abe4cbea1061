#if canImport(Glibc)
import Glibc
#endif
import CStackPointer

/// The calling thread's stack, so the builder's recursive walk stops short of overflowing it.
///
/// The walk recurses once per tree level (a level costs several kilobytes of stack, about 18 KiB
/// in a debug build), so the depth cap (`RenderTreeBuilder.maxDepth`) alone needs megabytes: a
/// deep tree rendered on a thread with a small stack (a 512 KiB worker, say) would crash. The
/// guard reads the thread's stack bounds once (`pthread_getattr_np`) and the walk asks it, per
/// level, whether less than `reserve` bytes are left; then deeper layers are not drawn and a
/// warning says so, as for the depth cap.
struct StackGuard {
    /// The lowest address the walk may use (stacks grow down on every platform Swift runs on
    /// Linux); 0 when the bounds are unknown (the guard then never trips).
    let limit: UInt
    let thread: pthread_t

    /// Bytes kept free below the walk for what runs under its deepest level.
    static let reserve = 192 * 1024

    /// glibc's `pthread_getattr_np`, which Swift's Glibc module does not import (it is declared
    /// under `_GNU_SOURCE`): looked up once by name.
    private typealias GetAttr = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
    nonisolated(unsafe) private static let getattr: GetAttr? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np")
        .map { unsafeBitCast($0, to: GetAttr.self) }

    static func forCurrentThread() -> StackGuard {
        let me = pthread_self()
        var attr = pthread_attr_t()
        guard let getattr, getattr(me, &attr) == 0 else { return StackGuard(limit: 0, thread: me) }
        defer { pthread_attr_destroy(&attr) }
        var base: UnsafeMutableRawPointer? = nil
        var size = 0
        guard pthread_attr_getstack(&attr, &base, &size) == 0, let base else { return StackGuard(limit: 0, thread: me) }
        let low = UInt(bitPattern: base)
        return StackGuard(limit: low + UInt(min(reserve, size / 2)), thread: me)
    }

    /// Whether the stack at the caller is already below the limit. The position comes from C
    /// (`ca_current_frame_address`), not from a local's address: under AddressSanitizer's fake
    /// stacks a local lives off the thread's stack, and the guard then tripped on every render.
    @inline(__always)
    func isLow() -> Bool {
        UInt(ca_current_frame_address()) < limit
    }

    func isFor(_ t: pthread_t) -> Bool { pthread_equal(thread, t) != 0 }
}
