import CAService
import Foundation
import Testing

/// The parts of the service that are plain Swift: parameters, document kinds, the slot queue.
@Suite struct ServiceUnitTests {
    @Test func parametersBecomeSingleCarenderArguments() throws {
        let p = try RenderParameters(query: [("format", "MP4"), ("frames", "0..<30"), ("set", "title.string=-o /etc/x"), ("set", "a.b=1")])
        #expect(p.format == .mp4)
        #expect(p.arguments(document: "/d/document.json", output: "/d/output.mp4", backend: "cpu") ==
                ["render", "/d/document.json", "-o", "/d/output.mp4", "--quiet", "--backend=cpu",
                 "--frames=0..<30", "--set=title.string=-o /etc/x", "--set=a.b=1"])
        #expect(try RenderParameters(query: [("format", "jpg")]).format == .jpeg)
    }

    @Test func badParametersAre400() {
        for query in [[("format", "bmp")], [("tmie", "1")], [("time", "")], [("set", "a.b=1\n")],
                      [("time", "1"), ("format", "mp4")], [("frames", "0..<3")]] {
            #expect(throws: ServiceError.self) { try RenderParameters(query: query) }
            do { _ = try RenderParameters(query: query) } catch { #expect(error.status == .badRequest) }
        }
    }

    @Test func documentKindFromTypeOrContent() throws {
        func kind(_ k: String?, _ type: String?, _ text: String) throws -> String { try DocumentKind.classify(kind: k, contentType: type, head: Array(text.utf8)).1 }
        #expect(try kind(nil, "image/svg+xml; charset=utf-8", "<svg/>") == "document.svg")
        #expect(try kind(nil, nil, "  \n<svg/>") == "document.svg")
        #expect(try kind(nil, "application/json", #"{"format":"ca-scene"}"#) == "document.json")
        #expect(try DocumentKind.classify(kind: nil, contentType: nil, head: [0x50, 0x4B, 0x03, 0x04, 0]).1 == "document.lottie")
        #expect(try DocumentKind.classify(kind: nil, contentType: nil, head: Array(#"{"v":"5","fr":30,"layers":[]}"#.utf8)).0 == .lottie)
        #expect(try kind("svg", "application/json", "<svg/>") == "document.svg")
        #expect(throws: ServiceError.self) { try kind("pdf", nil, "") }
    }

    @Test func queueRunsSlotsAtOnceAndRefusesPastItsLimit() async throws {
        let queue = RenderQueue(slots: 2, maxQueue: 1)
        try await queue.acquire()
        try await queue.acquire()
        #expect(queue.counts == .init(running: 2, waiting: 0))
        let waiter = Task { try await queue.acquire() }
        while queue.counts.waiting == 0 { await Task.yield() }
        await #expect(throws: RenderQueue.Full.self) { try await queue.acquire() }
        queue.release()   // the waiter takes the slot
        try await waiter.value
        #expect(queue.counts == .init(running: 2, waiting: 0))
        queue.release()
        queue.release()
        #expect(queue.counts == .init(running: 0, waiting: 0))
    }

    @Test func aCancelledWaiterLeavesTheQueue() async throws {
        let queue = RenderQueue(slots: 1, maxQueue: 4)
        try await queue.acquire()
        let waiter = Task { try await queue.acquire() }
        while queue.counts.waiting == 0 { await Task.yield() }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(queue.counts == .init(running: 1, waiting: 0))
        queue.release()
        #expect(queue.counts == .init(running: 0, waiting: 0))
    }
}
