import Foundation
import Hummingbird
import HTTPTypes
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// `carender serve`: the render service (issue 25; docs/CARENDER.md, "Render service").
///
/// - `POST /render`: the body is a document (scene JSON, SVG, Lottie JSON or dotLottie), the
///   query says what to make (`RenderParameters`); the answer is the image or video.
/// - `GET /healthz`: 200 and a JSON object (slots, running, queued, pid, RSS, uptime).
/// - `GET /metrics`: Prometheus text (`ServiceMetrics`).
///
/// Renders run as `carender render` child processes (`RenderRunner`), at most `slots` at once
/// (`RenderQueue`). Every request is held to the body limit (413), the queue limit (503 with
/// Retry-After), the timeout (504; the render is stopped), and is stopped when its client
/// disconnects. SIGINT/SIGTERM stop accepting connections; requests already accepted, running
/// or queued, finish (each within the timeout); any still running 10 s past the timeout are
/// cancelled, their renders stopped; then the process exits 0.
package final class RenderServer: Sendable {
    package let configuration: ServiceConfiguration
    package let metrics = ServiceMetrics()
    let queue: RenderQueue
    let runner: RenderRunner
    let logger: Logger
    let started = ContinuousClock.now
    let requestCounter = Atomic<UInt64>(0)
    /// Mean seconds of recent renders (exponentially weighted), for Retry-After.
    let meanRenderSeconds = Mutex(1.0)

    package init(configuration: ServiceConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        let metrics = metrics
        queue = RenderQueue(slots: configuration.slots, maxQueue: configuration.maxQueue) { metrics.record($0) }
        runner = RenderRunner(executable: configuration.renderExecutable, backend: configuration.backend,
                              temporaryRoot: configuration.temporaryRoot)
    }

    /// Runs until SIGINT or SIGTERM, then shuts down as the type's comment says. `onListening`
    /// receives the bound port (the one chosen when the configuration's port is 0).
    package func run(onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        try FileManager.default.createDirectory(at: configuration.temporaryRoot, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: configuration.temporaryRoot) }
        let router = Router(context: ServiceRequestContext.self)
        router.post("render") { request, context in await self.render(request, context: context) }
        router.get("healthz") { _, _ in self.health() }
        router.get("metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(string: self.metrics.text())))
        }
        let host = configuration.host
        let log = logger
        let app = Application(
            router: router,
            server: .http1(configuration: .init(idleTimeout: .seconds(75))),
            configuration: .init(address: .hostname(host, port: configuration.port), serverName: "carender"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                log.info("listening on http://\(host):\(port)", metadata: ["slots": "\(self.queue.slots)", "max_queue": "\(self.queue.maxQueue)"])
                onListening(port)
            },
            logger: logger)
        var groupConfiguration = ServiceGroupConfiguration(services: [.init(service: app)],
                                                           gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = configuration.timeout + .seconds(10)
        try await ServiceGroup(configuration: groupConfiguration).run()
        logger.info("stopped")
    }

    // MARK: /healthz

    func health() -> Response {
        let counts = queue.counts
        let up = ContinuousClock.now - started
        let object: [String: Any] = [
            "status": "ok", "slots": queue.slots, "running": counts.running, "queued": counts.waiting,
            "maxQueue": queue.maxQueue, "pid": Int(getpid()), "rssBytes": Self.residentBytes(),
            "uptimeSeconds": Double(up.components.seconds) + Double(up.components.attoseconds) * 1e-18,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The process's resident set size (VmRSS in /proc/self/status), bytes; 0 if unreadable.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    // MARK: POST /render

    enum StopReason { case timeout, clientGone }

    func render(_ request: Request, context: ServiceRequestContext) async -> Response {
        let id = String(requestCounter.add(1, ordering: .relaxed).newValue)
        let start = ContinuousClock.now
        var kind = "-", format = "-"
        let response: Response
        do {
            let (document, parameters) = try await read(request)
            format = parameters.format.rawValue
            let (k, fileName) = try DocumentKind.classify(kind: parameters.kind, contentType: request.headers[.contentType],
                                                          head: Array(document.prefix(1 << 16)))
            kind = k.rawValue
            let output = try await renderWatched(document: document, fileName: fileName, parameters: parameters, id: id,
                                                 start: start, channel: context.channel)
            response = Response(status: .ok,
                                headers: [.contentType: parameters.format.contentType, HTTPField.Name("X-Request-Id")!: id],
                                body: .init(byteBuffer: ByteBuffer(bytes: output.bytes)))
        } catch let e as ServiceError {
            var headers: HTTPFields = [.contentType: "text/plain; charset=utf-8", HTTPField.Name("X-Request-Id")!: id]
            if let r = e.retryAfter { headers[.retryAfter] = String(r) }
            response = Response(status: e.status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: e.message + "\n")))
        } catch {
            response = Response(status: .internalServerError, headers: [.contentType: "text/plain; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(string: "\(error)\n")))
        }
        let bytes = response.status == .ok ? response.body.contentLength ?? 0 : 0
        let ms = (ContinuousClock.now - start) / .milliseconds(1)
        metrics.requests(status: response.status.code).increment()
        if bytes > 0 { metrics.recordBytes(bytes) }
        logger.info("request", metadata: ["id": "\(id)", "kind": "\(kind)", "format": "\(format)",
                                          "status": .stringConvertible(response.status.code),
                                          "ms": .stringConvertible(Int(ms.rounded())), "bytes": .stringConvertible(bytes)])
        return response
    }

    /// The body (at most the limit: 413 past it) and the query's parameters (400 when wrong).
    func read(_ request: Request) async throws -> ([UInt8], RenderParameters) {
        let limit = configuration.maxBodyBytes
        let tooLarge = ServiceError(.contentTooLarge, "the document is larger than the limit of \(limit) bytes (--max-body)")
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit { throw tooLarge }
        var request = request
        let body: ByteBuffer
        do { body = try await request.collectBody(upTo: limit) } catch is NIOTooManyBytesError { throw tooLarge }
        guard body.readableBytes > 0 else { throw ServiceError.badRequest("the request has no body: send a scene (JSON), SVG or Lottie document") }
        let pairs = request.uri.queryParameters.map { (String($0.key), String($0.value)) }
        return (Array(body.readableBytesView), try RenderParameters(query: pairs))
    }

    /// The render, in a task of its own that is cancelled when the request's time is up (504)
    /// or its connection is gone (the client disconnected or half-closed: `ConnectionWatch`);
    /// cancelling stops a waiting request or the carender process. Checked every 100 ms.
    func renderWatched(document: [UInt8], fileName: String, parameters: RenderParameters, id: String,
                       start: ContinuousClock.Instant, channel: any Channel) async throws -> RenderRunner.Output {
        let work = Task {
            do { try await queue.acquire() } catch is RenderQueue.Full {
                throw ServiceError(.serviceUnavailable, "the render queue is full (\(queue.maxQueue) waiting); retry later", retryAfter: retryAfter())
            }
            defer { queue.release() }
            let t0 = ContinuousClock.now
            let out = try await runner.render(document: document, fileName: fileName, parameters: parameters, requestID: id)
            let d = ContinuousClock.now - t0
            metrics.recordRender(d)
            meanRenderSeconds.withLock { $0 = 0.8 * $0 + 0.2 * (d / .seconds(1)) }
            return out
        }
        let reason = Mutex<StopReason?>(nil)
        let deadline = start + configuration.timeout
        let watch = ConnectionWatch()
        try? await channel.pipeline.addHandler(watch, position: .first).get()
        defer { channel.pipeline.removeHandler(watch, promise: nil) }
        let watchdog = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                let stop: StopReason? = watch.clientGone || !channel.isActive ? .clientGone : ContinuousClock.now >= deadline ? .timeout : nil
                if let stop { reason.withLock { $0 = stop }; work.cancel(); return }
            }
        }
        defer { watchdog.cancel() }
        let result = await withTaskCancellationHandler { await work.result } onCancel: { work.cancel() }
        switch result {
        case .success(let out): return out
        case .failure(let error as ServiceError): throw error
        case .failure(is CancellationError):
            switch reason.withLock({ $0 }) {
            case .timeout?: throw ServiceError(.gatewayTimeout, "the render took longer than the limit of \(configuration.timeout) (--timeout); stopped")
            case .clientGone?: throw ServiceError(HTTPResponse.Status(code: 499, reasonPhrase: "Client Closed Request"), "the client went away; render stopped")
            case nil: throw ServiceError(.serviceUnavailable, "the server is shutting down; render stopped", retryAfter: 1)
            }
        case .failure(let error): throw ServiceError(.internalServerError, "\(error)")
        }
    }

    /// Seconds until a slot is likely free: the queue ahead times the mean render, per slot.
    func retryAfter() -> Int {
        let c = queue.counts
        let mean = meanRenderSeconds.withLock { $0 }
        return max(1, Int((mean * Double(c.waiting + c.running) / Double(queue.slots)).rounded(.up)))
    }
}
