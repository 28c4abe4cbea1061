import ArgumentParser
import CAService
import Foundation
import Logging

/// `carender serve` (issue 25): the render service, CAService's `RenderServer`, rendering
/// through this same binary (`carender render` child processes). docs/CARENDER.md, "Render
/// service", documents the endpoints, parameters, limits and metrics.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve renders over HTTP: POST a scene, SVG or Lottie document, get a PNG or video back.",
        discussion: """
        Endpoints:
          POST /render?format=png&time=1.5   body: a scene (JSON), SVG or Lottie (JSON or dotLottie)
          GET  /healthz                      200 and a JSON status
          GET  /metrics                      Prometheus text

        /render's query: format (png, jpeg, webp, mp4, mov, mkv, webm, gif, apng; default png), kind (scene, svg, lottie; default: Content-Type, else sniffed), and carender render's time, frames, fps, size, scale, quality, codec, crf, bitrate, pix-fmt, color, set (repeatable: set=title.string=Hi).

        Answers: 200 with the image or video; 400 a bad parameter or document (validate's LINE:COLUMN: error: message lines); 413 a body over --max-body; 503 with Retry-After when --max-queue requests already wait; 504 past --timeout (the render is stopped). A client that disconnects stops its render at the next frame.

        Each render is a `carender render` process; --slots of them run at once (default: one per CPU core). SIGINT/SIGTERM stop accepting connections, let accepted requests finish (each within --timeout), then exit 0.

        Examples:
          carender serve --port 8080
          curl --data-binary @scene.json -o out.png 'http://127.0.0.1:8080/render?time=1'
          curl --data-binary @icon.svg -H 'Content-Type: image/svg+xml' -o icon.png 'http://127.0.0.1:8080/render?scale=4'
          curl --data-binary @scene.json -o out.mp4 'http://127.0.0.1:8080/render?format=mp4&set=title.string=Hello'
        """)

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0: any free port; the one chosen is logged).")
    var port = 8080

    @Option(help: "Renders at once. Default: the number of CPU cores.")
    var slots: Int?

    @Option(help: ArgumentHelp("Largest request body: bytes, or with KB, MB, GB (×1024).", valueName: "size"))
    var maxBody = "32MB"

    @Option(help: ArgumentHelp("Longest time a request may take, waiting included: seconds, or with ms, s, m.", valueName: "duration"))
    var timeout = "120s"

    @Option(help: "Requests that may wait for a slot; more are answered 503.")
    var maxQueue = 64

    @OptionGroup var backendChoice: BackendOption

    @Option(help: ArgumentHelp("Log lines on stderr: text or json (one object per line).", valueName: "text|json"))
    var logFormat = "text"

    func run() throws {
        try CLI.run {
            try backendChoice.apply()
            guard (0...65535).contains(port) else { throw CLIError.usage("--port \(port): 0...65535") }
            if let slots, !(1...1024).contains(slots) { throw CLIError.usage("--slots \(slots): 1...1024") }
            guard (0...100_000).contains(maxQueue) else { throw CLIError.usage("--max-queue \(maxQueue): 0...100000") }
            guard let format = ServiceLogHandler.Format(rawValue: logFormat) else { throw CLIError.usage("--log-format \(logFormat): text or json") }
            let executable = try Self.ownExecutable()
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("carender-serve-\(getpid())")
            var configuration = ServiceConfiguration(renderExecutable: executable, temporaryRoot: root)
            configuration.host = host
            configuration.port = port
            if let slots { configuration.slots = slots }
            configuration.maxQueue = maxQueue
            configuration.maxBodyBytes = try Self.parseSize(maxBody, option: "--max-body")
            configuration.timeout = try Self.parseDuration(timeout, option: "--timeout")
            configuration.backend = backendChoice.backend
            LoggingSystem.bootstrap { ServiceLogHandler(label: $0, format: format) }
            let server = RenderServer(configuration: configuration, logger: Logger(label: "carender.serve"))
            // The command line is synchronous (main.swift); the server is async: run it on the
            // concurrency pool and wait.
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var failure: (any Error)?
            Task {
                do { try await server.run() } catch { failure = error }
                done.signal()
            }
            done.wait()
            if let failure { throw CLIError("serve: \(failure)") }
        }
    }

    /// This binary's path (/proc/self/exe), which the renders run.
    static func ownExecutable() throws -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { throw CLIError("serve: cannot find carender's own executable (/proc/self/exe)") }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `32MB`, `512KB`, `1GB`, `1048576`: bytes (K, M, G are 1024-based), 1 B ... 16 GiB.
    static func parseSize(_ text: String, option: String) throws -> Int {
        let t = text.uppercased().replacingOccurrences(of: "IB", with: "B")
        let units: [(String, Int)] = [("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10), ("B", 1)]
        var number = t, factor = 1
        for (suffix, f) in units where t.hasSuffix(suffix) { number = String(t.dropLast(suffix.count)); factor = f; break }
        guard let v = Double(number.trimmingCharacters(in: .whitespaces)), v.isFinite, v >= 1 / Double(factor), v * Double(factor) <= Double(16 << 30) else {
            throw CLIError.usage("\(option) \(text): a size such as 32MB, 512KB or 1048576 (bytes), at most 16GB")
        }
        return Int(v * Double(factor))
    }

    /// `120s`, `2m`, `500ms`, `90`: a duration (plain numbers are seconds), 1 ms ... 24 h.
    static func parseDuration(_ text: String, option: String) throws -> Duration {
        let t = text.lowercased()
        var number = t, factor = 1.0
        for (suffix, f) in [("ms", 0.001), ("s", 1.0), ("m", 60.0), ("h", 3600.0)] where t.hasSuffix(suffix) {
            number = String(t.dropLast(suffix.count)); factor = f; break
        }
        guard let v = Double(number), v.isFinite, v * factor >= 0.001, v * factor <= 86_400 else {
            throw CLIError.usage("\(option) \(text): a duration such as 120s, 2m or 500ms, at most 24h")
        }
        return .milliseconds(Int((v * factor * 1000).rounded()))
    }
}
