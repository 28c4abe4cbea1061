import Prometheus

/// The service's Prometheus metrics (swift-prometheus; served as text at `GET /metrics`,
/// exposition format 0.0.4). Names are listed in docs/CARENDER.md, "Render service".
package final class ServiceMetrics: Sendable {
    package let registry = PrometheusCollectorRegistry()
    private let renderSeconds: DurationHistogram
    private let queueDepth: Gauge
    private let inFlight: Gauge
    private let bytesOut: Counter

    static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "carender", subsystem: "serve", metricName: metric, unitName: unit, helpText: help)
    }

    package init() {
        renderSeconds = registry.makeDurationHistogram(
            descriptor: Self.name("render", "seconds", "Time from a slot being granted to the render's end, successful renders"),
            buckets: [.milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
                      .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30), .seconds(60), .seconds(120)])
        queueDepth = registry.makeGauge(descriptor: Self.name("queue", "depth", "Requests waiting for a render slot"))
        inFlight = registry.makeGauge(descriptor: Self.name("renders", "in_flight", "Renders running now"))
        bytesOut = registry.makeCounter(descriptor: Self.name("response_bytes", "total", "Bytes of images and videos sent"))
        // Present from the start, so a scrape before the first request sees the series.
        _ = requests(status: 200)
    }

    /// `carender_serve_requests_total{status="…"}`: answered /render requests by HTTP status.
    package func requests(status: Int) -> Counter {
        registry.makeCounter(descriptor: Self.name("requests", "total", "Requests to /render answered, by HTTP status"),
                             labels: [("status", String(status))])
    }

    package func recordRender(_ d: Duration) { renderSeconds.record(d) }
    package func recordBytes(_ n: Int) { bytesOut.increment(by: Int64(n)) }
    package func record(_ counts: RenderQueue.Counts) {
        queueDepth.set(Double(counts.waiting))
        inFlight.set(Double(counts.running))
    }

    package func text() -> String { registry.emitToString() }
}
