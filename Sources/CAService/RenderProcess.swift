import Foundation
import Synchronization

/// One `carender` child process: started with `posix_spawn(3)` in a process group of its own
/// (so a terminal's Ctrl-C reaches the server alone, which decides), standard input
/// `/dev/null`, standard output and error into files of the request's folder, and `TMPDIR` set
/// to that folder, so everything it (and its ffmpeg) writes goes where the request's cleanup
/// removes it. The same spawn attributes as carender's own `ChildProcess` (which is tied to
/// carender's signal handling, so not shared).
///
/// Stopping (`stop()`): SIGTERM, which carender answers by finishing the frame in hand and
/// closing its output; 50 ms later a second SIGTERM, which makes it kill ffmpeg's group,
/// remove its temporary files and exit at once (docs/CARENDER.md, "Signals"); a process still
/// there 5 s later is killed (SIGKILL, its group). Signals are sent only while the child is
/// unreaped (`waitid(WNOWAIT)` first, then the reap under the same lock), so a reused pid is
/// never signalled.
package final class RenderProcess: Sendable {
    package let pid: pid_t
    private let reaped = Mutex(false)

    package struct SpawnError: Error, CustomStringConvertible {
        package var description: String
    }

    package init(executable: String, arguments: [String], environment: [String: String], stdout: String, stderr: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Nothing else of the server's: its listening and client sockets (not all close on
        // exec) would otherwise stay open in the child and its ffmpeg, keeping connections up.
        Self.closeFrom3(&actions)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        ProcessGroupSpawn.configure(&attr)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, &attr, argv, envp)
        guard rc == 0 else { throw SpawnError(description: "cannot start \(executable): \(String(cString: strerror(rc)))") }
        pid = child
    }

    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    /// glibc 2.34's `posix_spawn_file_actions_addclosefrom_np` (spawn.h declares it only under
    /// _GNU_SOURCE, which Swift's Glibc module does not see), looked up once.
    static let addCloseFrom: AddCloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: AddCloseFrom.self) }

    /// Closes every descriptor from 3 up in the child: with closefrom when glibc has it, else
    /// each descriptor open now (listed in /proc/self/fd).
    static func closeFrom3(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>) {
        if let addCloseFrom, addCloseFrom(actions, 3) == 0 { return }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            if let fd = Int32(name), fd > 2 { posix_spawn_file_actions_addclose(actions, fd) }
        }
    }

    /// Waits (on a thread of its own, not the concurrency pool) for the child to exit; its exit
    /// status, or 128 + the signal that ended it. Cancelling the task stops the child (`stop()`)
    /// and still waits for it, so no process outlives the request.
    package func exitStatus() async -> Int32 {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Int32, Never>) in
                let thread = Thread { [self] in c.resume(returning: self.waitBlocking()) }
                thread.stackSize = 256 << 10
                thread.start()
            }
        } onCancel: {
            stop()
        }
    }

    private func waitBlocking() -> Int32 {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0, errno == EINTR {}
        return reaped.withLock { done -> Int32 in
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
            done = true
            let signaled = raw & 0x7f
            return signaled == 0 ? (raw >> 8) & 0xff : 128 + signaled
        }
    }

    /// Sends `signal` to the child's process group unless it has been reaped.
    package func signal(_ signal: Int32) {
        reaped.withLock { done in if !done { _ = kill(-pid, signal) } }
    }

    /// Asks the child to stop now (see the type's comment): SIGTERM twice, then SIGKILL.
    package func stop() {
        signal(SIGTERM)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { [self] in signal(SIGTERM) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(5)) { [self] in signal(SIGKILL) }
    }
}
