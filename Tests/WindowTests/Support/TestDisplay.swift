import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Gives the window tests a display, so plain `swift test` (CI: no DISPLAY) exercises them.
///
/// - `DISPLAY` set: that display is used (a desktop, or `xvfb-run -a swift test`).
/// - Else, when `Xvfb` is on the PATH, one private Xvfb is started for this test process with
///   `-displayfd`, which makes Xvfb itself pick a free display number (lock files in /tmp, so
///   parallel test processes never collide), and `DISPLAY` is set to it before GLFW starts.
///   A watchdog shell stops Xvfb within a second of the test process exiting, even if it
///   crashes, and an `atexit` handler stops it at once on a normal exit. Start-up waits at
///   most 10 s.
/// - `CA_WINDOW_TESTS=off` skips the window tests; `CA_WINDOW_TESTS=no-xvfb` never starts Xvfb.
///
/// Without a display the tests skip with one line naming the reason. Setting `DISPLAY` happens
/// once, before any window exists; other tests do not read it.
enum TestDisplay {
    private static let state = Mutex<String??>(nil)   // nil: not tried; .some(nil): available

    /// nil when a display is available; else why not (one line).
    static func unavailableReason() -> String? {
        state.withLock { s in
            if let known = s { return known }
            let reason = prepare()
            if let reason { FileHandle.standardError.write(Data("WindowTests skipped: \(reason)\n".utf8)) }
            s = .some(reason)
            return reason
        }
    }

    static var isAvailable: Bool { unavailableReason() == nil }

    private static func prepare() -> String? {
        let env = ProcessInfo.processInfo.environment
        if env["CA_WINDOW_TESTS"] == "off" { return "CA_WINDOW_TESTS=off" }
        if let d = env["DISPLAY"], !d.isEmpty { return nil }
        if env["CA_WINDOW_TESTS"] == "no-xvfb" { return "no DISPLAY, and CA_WINDOW_TESTS=no-xvfb" }
        guard let xvfb = findExecutable("Xvfb") else {
            return "no DISPLAY and no Xvfb on the PATH (apt-get install -y xvfb, or run under xvfb-run -a)"
        }
        switch launchXvfb(xvfb) {
        case .failure(let why): return why.text
        case .success(let x):
            watchdogPID = x.watchdog
            atexit {
                if TestDisplay.watchdogPID > 0 { kill(TestDisplay.watchdogPID, SIGTERM) }
            }
            setenv("DISPLAY", ":\(x.display)", 1)
            return nil
        }
    }

    struct Reason: Error { var text: String }

    static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let p = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }

    nonisolated(unsafe) private static var watchdogPID: pid_t = 0

    /// Starts an Xvfb (with `extraArguments`, e.g. `-extension GLX`) under a watchdog that
    /// stops it when this process exits; returns its display number and the watchdog's pid
    /// (SIGTERM to it stops the server).
    static func launchXvfb(_ xvfb: String, extraArguments: [String] = []) -> Result<(display: Int, watchdog: pid_t), Reason> {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("ca-window-tests-xvfb-\(getpid())-\(UUID().uuidString.prefix(8)).log")
        // The shell starts Xvfb (which prints its display number on fd 1, the pipe), then
        // watches the test process and Xvfb, and stops Xvfb when the test process is gone.
        let script = """
        "$1" -displayfd 1 -screen 0 1280x800x24 -nolisten tcp $4 2>"$3" &
        x=$!
        stop() { kill $x 2>/dev/null; sleep 0.3; kill -9 $x 2>/dev/null; exit 0; }
        trap stop TERM INT HUP
        while kill -0 "$2" 2>/dev/null && kill -0 $x 2>/dev/null; do sleep 0.5; done
        stop
        """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script, "sh", xvfb, String(getpid()), log.path, extraArguments.joined(separator: " ")]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        // The child inherits this thread's signal mask, and Swift's runtime threads block most
        // signals: unblocked while spawning, so SIGTERM stops the watchdog and Xvfb. (The
        // watchdog falls back to SIGKILL; X servers clear a dead server's stale lock file.)
        var all = sigset_t(), old = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_UNBLOCK, &all, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        do { try p.run() } catch { return .failure(Reason(text: "could not start Xvfb: \(error)")) }
        // Read "N\n" with a deadline.
        let fd = out.fileHandleForReading.fileDescriptor
        var text = ""
        let deadline = Date().addingTimeInterval(10)
        while !text.contains("\n") {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { break }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&pfd, 1, Int32(left * 1000))
            if r <= 0 { break }
            var buf = [UInt8](repeating: 0, count: 64)
            let n = read(fd, &buf, 64)
            if n <= 0 { break }
            text += String(decoding: buf[0..<n], as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first, let number = Int(line.trimmingCharacters(in: .whitespaces)) else {
            kill(p.processIdentifier, SIGTERM)
            let why = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").last.map(String.init) ?? "no output"
            return .failure(Reason(text: "Xvfb did not start within 10 s (\(why))"))
        }
        return .success((number, p.processIdentifier))
    }
}
