import Foundation

/// How carender starts its children (ffmpeg under `render`, `carender render` under `serve`):
/// in a process group of their own (`POSIX_SPAWN_SETPGROUP`, group id = the child's pid), so a
/// terminal's Ctrl-C reaches the parent alone and the parent can kill the whole group; with the
/// signals the parent handles or ignores reset to their defaults (ignored signals would otherwise
/// survive `exec`) and an empty signal mask. Foundation's `Process` offers neither.
package enum ProcessGroupSpawn {
    /// Sets those attributes on `attr` (initialised by the caller).
    package static func configure(_ attr: inout posix_spawnattr_t) {
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attr, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attr, &mask)
    }
}
