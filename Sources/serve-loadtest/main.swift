// serve-loadtest: a bounded load generator for `carender serve` (docs/CARENDER.md, "Load test").
// N clients POST the same document to /render over loopback, each waiting for its answer before
// sending the next, for a fixed duration; then it prints sustained requests per second, latency
// percentiles, failed requests and the server's resident memory (from /healthz) at the start,
// every minute, and at the end. Not run by CI.
//
//   serve-loadtest --port 8080 --document Scenes/examples/minimal.json --query 'time=0.5' \
//                  --clients 4 --duration 600
import Foundation

struct Options {
    var host = "127.0.0.1"
    var port = 8080
    var document = ""
    var query = ""
    var contentType = "application/json"
    var clients = 4
    var duration = 60.0

    static let usage = "usage: serve-loadtest --document FILE [--port 8080] [--host 127.0.0.1] [--query 'time=0.5&format=png'] [--content-type T] [--clients 4] [--duration SECONDS (≤ 3600)]"

    init(_ args: [String]) throws {
        var i = 0
        func value() throws -> String {
            i += 1
            guard i < args.count else { throw Failure(Self.usage) }
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--host": host = try value()
            case "--port": guard let p = Int(try value()), (1...65535).contains(p) else { throw Failure("--port: 1...65535") }; port = p
            case "--document": document = try value()
            case "--query": query = try value()
            case "--content-type": contentType = try value()
            case "--clients": guard let c = Int(try value()), (1...256).contains(c) else { throw Failure("--clients: 1...256") }; clients = c
            case "--duration": guard let d = Double(try value()), d > 0, d <= 3600 else { throw Failure("--duration: seconds, at most 3600") }; duration = d
            case "-h", "--help": print(Self.usage); exit(0)
            default: throw Failure("unknown argument \(args[i])\n\(Self.usage)")
            }
            i += 1
        }
        guard !document.isEmpty else { throw Failure(Self.usage) }
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// One request on a new connection (`Connection: close`); the status, or nil when the
/// connection failed.
func request(host: String, port: Int, method: String, path: String, contentType: String, body: [UInt8]) -> (status: Int, body: [UInt8])? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var tv = timeval(tv_sec: 300, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = in_port_t(UInt16(port).bigEndian)
    addr.sin_addr.s_addr = inet_addr(host)
    let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    guard rc == 0 else { return nil }
    let head = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n\r\n"
    let bytes = Array(head.utf8) + body
    var sent = 0
    while sent < bytes.count {
        let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if n < 0 { if errno == EINTR { continue }; return nil }
        sent += n
    }
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = recv(fd, &buffer, buffer.count, 0)
        if n == 0 { break }
        if n < 0 { if errno == EINTR { continue }; return nil }
        data += buffer[0..<n]
    }
    guard let split = data.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
    let statusLine = String(decoding: data[..<split.lowerBound], as: UTF8.self).prefix { $0 != "\r" }
    let parts = statusLine.split(separator: " ")
    guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
    return (status, Array(data[split.upperBound...]))
}

func serverRSS(_ o: Options) -> Int? {
    guard let r = request(host: o.host, port: o.port, method: "GET", path: "/healthz", contentType: "text/plain", body: []),
          let object = try? JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any] else { return nil }
    return object["rssBytes"] as? Int
}

final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    var latencies: [Double] = []
    var statuses: [Int: Int] = [:]
    var failed = 0
    func add(_ ms: Double, _ status: Int?) {
        lock.withLock {
            latencies.append(ms)
            if let status { statuses[status, default: 0] += 1; if status != 200 { failed += 1 } } else { failed += 1; statuses[0, default: 0] += 1 }
        }
    }
    var snapshot: (count: Int, failed: Int) { lock.withLock { (latencies.count, failed) } }
}

func mib(_ b: Int?) -> String { b.map { String(format: "%.1f MiB", Double($0) / 1048576) } ?? "?" }

do {
    let o = try Options(Array(CommandLine.arguments.dropFirst()))
    guard let doc = FileManager.default.contents(atPath: o.document) else { throw Failure("\(o.document): cannot be read") }
    let body = [UInt8](doc)
    let path = "/render" + (o.query.isEmpty ? "" : "?" + o.query)
    guard let probe = request(host: o.host, port: o.port, method: "POST", path: path, contentType: o.contentType, body: body) else {
        throw Failure("no answer from http://\(o.host):\(o.port) (is carender serve running?)")
    }
    guard probe.status == 200 else { throw Failure("the first request was answered \(probe.status): \(String(decoding: probe.body, as: UTF8.self))") }
    let rssStart = serverRSS(o)
    print("serve-loadtest: \(o.clients) clients, \(Int(o.duration)) s, POST \(path) (\(body.count) bytes, answer \(probe.body.count) bytes); server RSS at start \(mib(rssStart))")
    let tally = Tally()
    let start = Date()
    let deadline = start.addingTimeInterval(o.duration)
    let group = DispatchGroup()
    for _ in 0..<o.clients {
        group.enter()
        Thread {
            while Date() < deadline {
                let t0 = DispatchTime.now().uptimeNanoseconds
                let r = request(host: o.host, port: o.port, method: "POST", path: path, contentType: o.contentType, body: body)
                tally.add(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6, r?.status)
            }
            group.leave()
        }.start()
    }
    var rssSamples: [Int] = rssStart.map { [$0] } ?? []
    var nextReport = start.addingTimeInterval(60)
    while group.wait(timeout: .now() + 1) == .timedOut {
        if Date() >= nextReport {
            nextReport = nextReport.addingTimeInterval(60)
            let rss = serverRSS(o)
            if let rss { rssSamples.append(rss) }
            let s = tally.snapshot
            print(String(format: "  %4.0f s: %d requests, %d failed, server RSS %@", Date().timeIntervalSince(start), s.count, s.failed, mib(rss)))
        }
    }
    let elapsed = Date().timeIntervalSince(start)
    let rssEnd = serverRSS(o)
    if let rssEnd { rssSamples.append(rssEnd) }
    let sorted = tally.latencies.sorted()
    func pct(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1)] }
    print(String(format: "requests: %d in %.1f s = %.2f requests/s sustained", sorted.count, elapsed, Double(sorted.count) / elapsed))
    print(String(format: "latency: p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms", pct(0.5), pct(0.9), pct(0.99), sorted.last ?? 0))
    print("failed: \(tally.failed) (statuses: \(tally.statuses.sorted { $0.key < $1.key }.map { "\($0.key == 0 ? "no answer" : String($0.key)): \($0.value)" }.joined(separator: ", ")))")
    print("server RSS: start \(mib(rssStart)), end \(mib(rssEnd)), min \(mib(rssSamples.min())), max \(mib(rssSamples.max()))")
    exit(tally.failed == 0 ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("serve-loadtest: \(error)\n".utf8))
    exit(2)
}
