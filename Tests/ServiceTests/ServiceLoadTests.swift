import Foundation
import Testing

/// Requests from many clients at once, clients that go away, time limits and shutdown, against a
/// real `carender serve` process (issue 25: "100 concurrent requests", "client disconnect",
/// "nothing left running afterwards").
@Suite(.serialized) struct ServiceLoadTests {
    /// `count` requests at once, each on its own thread and connection; their replies.
    func concurrently(_ count: Int, _ body: @escaping @Sendable () throws -> HTTPReply) -> [Result<HTTPReply, any Error>] {
        let results = Mutexed([Result<HTTPReply, any Error>]())
        let group = DispatchGroup()
        for _ in 0..<count {
            group.enter()
            let t = Thread { results.append(Result { try body() }); group.leave() }
            t.stackSize = 512 << 10
            t.start()
        }
        group.wait()
        return results.value
    }

    @Test func hundredConcurrentRequestsAllSucceed() throws {
        let server = try ServiceProcess(["--slots", "2", "--max-queue", "200"])
        let port = server.port
        let replies = concurrently(100) { try http("POST", port: port, "/render?time=0.25", body: Documents.scene) }
        let statuses = replies.map { (try? $0.get().status) ?? -1 }
        #expect(statuses.filter { $0 == 200 }.count == 100, "\(statuses)")
        #expect(replies.allSatisfy { (try? $0.get().body.starts(with: [0x89, 0x50, 0x4E, 0x47])) == true })
        #expect(server.processesLeft().isEmpty)
        let h = try server.health()
        #expect(h["running"] as? Int == 0)
        #expect(h["queued"] as? Int == 0)
    }

    @Test func aFullQueueAnswers503WithRetryAfter() throws {
        let server = try ServiceProcess(["--slots", "1", "--max-queue", "2"])
        let port = server.port
        let replies = concurrently(100) { try http("POST", port: port, "/render", body: Documents.scene) }
        let ok = replies.filter { (try? $0.get().status) == 200 }.count
        let full = replies.compactMap { try? $0.get() }.filter { $0.status == 503 }
        #expect(ok + full.count == 100, "\(replies.map { (try? $0.get().status) ?? -1 })")
        #expect(ok >= 3)
        #expect(full.count >= 1)
        #expect(full.allSatisfy { Int($0.headers["retry-after"] ?? "") ?? 0 >= 1 })
        let m = try http("GET", port: port, "/metrics")
        #expect(m.text.contains("carender_serve_requests_total{status=\"503\"} \(full.count)"))
    }

    /// A client that disconnects in the middle of a video: the render stops (its carender and
    /// ffmpeg end), the slot is free for the next request, no temporary file is left.
    @Test func clientDisconnectMidVideoFreesTheSlot() throws {
        let server = try ServiceProcess(["--slots", "1"])
        let c = try HTTPConnection(port: server.port)
        try c.send(method: "POST", path: "/render?format=mp4&frames=0..<6000&fps=30", body: Documents.long)
        // Mid-video: the render runs and its ffmpeg has started.
        let started = try eventually(60) { try server.health()["running"] as? Int == 1 && server.processesLeft().count >= 2 }
        #expect(started, "\(server.log)")
        c.close()
        let freed = try eventually(15) { try server.health()["running"] as? Int == 0 && server.processesLeft().isEmpty }
        #expect(freed, "\(server.processesLeft()) \(server.log)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: server.temporaryRoot.path)) ?? []).isEmpty)
        #expect(server.log.contains("status=499"))
        // The slot serves the next request.
        #expect(try server.request("/render", body: Documents.scene).status == 200)
    }

    @Test func aRenderPastTheTimeoutIs504AndStopped() throws {
        let server = try ServiceProcess(["--slots", "1", "--timeout", "1500ms"])
        let r = try server.request("/render?format=mp4&frames=0..<6000&fps=30", body: Documents.long)
        #expect(r.status == 504, "\(r.text)")
        #expect(try eventually(10) { server.processesLeft().isEmpty })
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: server.temporaryRoot.path)) ?? []).isEmpty)
        #expect(try server.request("/render", body: Documents.scene).status == 200)
    }

    /// SIGTERM: the request in flight is answered, then the process exits 0 with nothing left.
    @Test func sigtermFinishesInFlightAndExitsCleanly() throws {
        let server = try ServiceProcess(["--slots", "1"])
        let port = server.port
        let reply = Mutexed([Result<HTTPReply, any Error>]())
        let done = DispatchSemaphore(value: 0)
        Thread { reply.append(Result { try http("POST", port: port, "/render?format=mp4&frames=0..<45&fps=30", body: Documents.long) }); done.signal() }.start()
        #expect(try eventually(60) { try server.health()["running"] as? Int == 1 })
        let status = server.stop(SIGTERM)
        done.wait()
        #expect(status == 0, "\(server.log)")
        let r = try #require(try reply.value.first?.get())
        #expect(r.status == 200, "\(r.text)")
        #expect(r.headers["content-type"] == "video/mp4")
        #expect(Array(r.body[4..<8]) == Array("ftyp".utf8))
        #expect(server.processesLeft().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: server.temporaryRoot.path))
        // No longer accepting connections.
        #expect(throws: (any Error).self) { try HTTPConnection(port: port) }
    }
}

/// A value behind a lock, for results gathered from threads.
final class Mutexed<T>: @unchecked Sendable {
    private var stored: T
    private let lock = NSLock()
    init(_ v: T) { stored = v }
    var value: T { lock.withLock { stored } }
    func append<E>(_ e: E) where T == [E] { lock.withLock { stored.append(e) } }
}
