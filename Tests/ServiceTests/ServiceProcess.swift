import Foundation
import Testing

/// A `carender serve` process for a test: started on a free port (`--port 0`, the port read from
/// its "listening on" log line) with a temporary folder of its own as TMPDIR, which every
/// render process and ffmpeg inherits (so `processesLeft()` finds any of them still running).
final class ServiceProcess {
    let process: Process
    let port: Int
    let folder: URL
    let logURL: URL

    static var binary: URL {
        let env = ProcessInfo.processInfo.environment
        if let forced = env["CARENDER_BIN"] { return URL(fileURLWithPath: forced) }
        let arg0 = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var candidates = [arg0.deletingLastPathComponent().appendingPathComponent("carender")]
        for b in Bundle.allBundles { candidates.append(b.bundleURL.deletingLastPathComponent().appendingPathComponent("carender")) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/carender"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    init(_ arguments: [String] = []) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("carender-serve-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        logURL = folder.appendingPathComponent("serve.log")
        FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process = Process()
        process.executableURL = Self.binary
        process.arguments = ["serve", "--port", "0"] + arguments
        var env = ProcessInfo.processInfo.environment
        env["TMPDIR"] = folder.path
        process.environment = env
        process.standardError = try FileHandle(forWritingTo: logURL)
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var found: Int?
        for _ in 0..<600 where found == nil {
            usleep(50_000)
            let log = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
            if let r = log.range(of: "listening on http://127.0.0.1:") {
                found = Int(log[r.upperBound...].prefix { $0.isNumber })
            }
            if !process.isRunning { break }
        }
        guard let found else {
            process.terminate()
            throw ServiceTestError("carender serve did not start: \((try? String(contentsOf: logURL, encoding: .utf8)) ?? "")")
        }
        port = found
    }

    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// The server's own temporary root (its requests' folders are made in it).
    var temporaryRoot: URL { folder.appendingPathComponent("carender-serve-\(process.processIdentifier)") }

    func request(_ path: String, body: [UInt8], headers: [String: String] = [:]) throws -> HTTPReply {
        try http("POST", port: port, path, headers: headers, body: body)
    }

    func health() throws -> [String: Any] {
        let r = try http("GET", port: port, "/healthz")
        return (try JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any] ?? [:]
    }

    /// Processes (other than the server) whose environment names this test's folder: render
    /// processes and their ffmpeg.
    func processesLeft() -> [Int32] {
        let marker = Array("TMPDIR=\(folder.path)".utf8)
        let me = process.isRunning ? process.processIdentifier : -1
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init).filter { pid in
            guard pid != me, let env = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
            return [UInt8](env).firstRange(of: marker) != nil
        }
    }

    /// Sends `signal` and waits (at most `seconds`) for the exit; the exit status.
    func stop(_ signal: Int32 = SIGTERM, seconds: Double = 60) -> Int32? {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { process.interrupt(); kill(process.processIdentifier, SIGKILL); process.waitUntilExit(); return nil }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        for pid in processesLeft() { kill(-pid, SIGKILL); kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(at: folder)
    }
}

struct ServiceTestError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// Waits up to `seconds` for `condition`.
func eventually(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    repeat {
        if try condition() { return true }
        usleep(50_000)
    } while Date() < deadline
    return try condition()
}
