import CAService
import Foundation

/// A child process (ffmpeg) started with `posix_spawn(3)` in a process group of its own
/// (`POSIX_SPAWN_SETPGROUP`, group id = its pid), so a terminal's Ctrl-C, which goes to the
/// foreground process group, reaches carender alone: carender decides when ffmpeg finishes
/// (first signal: input closed, the file completed) or dies (second signal: the whole group
/// killed, `Interrupts`). Signals carender ignores are reset to their defaults in the child
/// (`POSIX_SPAWN_SETSIGDEF`; ignored signals would otherwise survive `exec`), and its signal
/// mask is emptied. Foundation's `Process` offers neither.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    private var status: Int32?

    /// Starts `executable` with `arguments`; `stdin`, `stdout`, `stderr` are descriptors of
    /// this process that become the child's 0, 1, 2.
    init(executable: String, arguments: [String], stdin: Int32, stdout: Int32, stderr: Int32) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        ProcessGroupSpawn.configure(&attr)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        // The pid is registered before any signal handler could look for it: spawn and
        // registration happen under the interrupt lock.
        let rc = Interrupts.whileRegistering {
            let rc = posix_spawn(&child, executable, &actions, &attr, argv, environ)
            if rc == 0 { Interrupts.children.insert(child) }
            return rc
        }
        guard rc == 0 else { throw CLIError("cannot start \(executable): \(String(cString: strerror(rc)))") }
        pid = child
    }

    /// Waits for the child to exit; its exit status, or 128 + the signal that killed it.
    @discardableResult
    func wait() -> (exited: Bool, status: Int32) {
        if let status { return (status < 128, status) }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
        _ = Interrupts.whileRegistering { Interrupts.children.remove(pid) }
        // WIFEXITED / WEXITSTATUS / WTERMSIG (the glibc macros are not imported into Swift).
        let signaled = raw & 0x7f
        let s = signaled == 0 ? (raw >> 8) & 0xff : 128 + signaled
        status = s
        return (signaled == 0, s)
    }

    /// Kills the child's whole process group (ffmpeg and anything it started) and reaps it.
    func kill() {
        guard status == nil else { return }
        _ = Foundation.kill(-pid, SIGKILL)
        wait()
    }
}
