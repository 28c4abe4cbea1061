import Foundation
import Dispatch
import Synchronization

/// SIGINT (Ctrl-C) and SIGTERM (what `kill` and job systems send) ask the current run to stop
/// after the frame in hand: frames already written stay, a video is closed cleanly with the
/// frames rendered (a shorter, playable file), and the exit status is 128 + the signal. A
/// second signal exits at once: the child processes' groups (ffmpeg) are killed, every
/// temporary file is removed, and the status is 128 + that signal. Either way nothing is left
/// behind but complete files.
enum Interrupts {
    static let received = Atomic<Int32>(0)
    nonisolated(unsafe) static var sources: [DispatchSourceSignal] = []
    private static let lock = NSLock()
    /// Children to kill on the second signal (their process group ids), under `lock`.
    nonisolated(unsafe) static var children = Set<pid_t>()
    /// Temporary files to remove on the second signal, under `lock`.
    nonisolated(unsafe) static var temporaries = Set<String>()

    static func whileRegistering<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    static func track(temporary path: String) { whileRegistering { _ = temporaries.insert(path) } }
    static func untrack(temporary path: String) { whileRegistering { _ = temporaries.remove(path) } }

    static func install() {
        // A write to an ffmpeg that exited must fail with EPIPE (reported), not kill us.
        signal(SIGPIPE, SIG_IGN)
        guard sources.isEmpty else { return }
        for s in [SIGINT, SIGTERM] {
            signal(s, SIG_IGN)
            let src = DispatchSource.makeSignalSource(signal: s, queue: .global())
            src.setEventHandler {
                if received.exchange(s, ordering: .relaxed) != 0 { abortNow(s) }
            }
            src.resume()
            sources.append(src)
        }
    }

    /// The second signal: kill the children's groups, remove temporary files, exit.
    static func abortNow(_ s: Int32) -> Never {
        lock.lock()   // held to the end: no new child or file appears meanwhile
        for pid in children {
            _ = kill(-pid, SIGKILL)
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
        }
        for path in temporaries { unlink(path) }
        FileHandle.standardError.write(Data("\ncarender: interrupted again, exiting now\n".utf8))
        _exit(128 + s)
    }

    /// The signal that asked to stop, if any.
    static var pending: Int32? {
        let s = received.load(ordering: .relaxed)
        return s == 0 ? nil : s
    }

    static func name(_ s: Int32) -> String { s == SIGINT ? "SIGINT" : "SIGTERM" }

    static func checkpoint() throws {
        if let s = pending { throw CLIError("interrupted by \(name(s))", code: 128 + s) }
    }
}
