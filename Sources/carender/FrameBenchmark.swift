import QuartzCore
import Foundation

/// `carender bench`: per-frame timing of a scene, as the renderer benchmark measures it
/// (tools/benchmarks render-benchmark), with percentiles and GPU timer queries.
struct FrameBenchmark {
    var scene: SceneSource
    var size: CGSize
    var frames: Int
    static let warmup = 3

    /// The `--json` document (schema "carender-bench/1"; documented in docs/CARENDER.md).
    struct Report: Codable {
        var schema = "carender-bench/1"
        var scene: String
        var width: Int, height: Int, scale: Double
        var frames: Int, warmupFrames: Int
        var device: [String: String]
        var msPerFrame: Percentiles
        var fps: Double
        var cpuMsPerFrame: CPUSplit
        var gpuMsPerFrame: Percentiles?
        var gpuTimer: String
        var perFrame: Counts
        /// Each timed frame's ms, in order (frame `warmupFrames + i` of the scene for entry i).
        var frameMs: [Double]
        /// The process's peak resident memory at the end (getrusage `ru_maxrss`): comparing a short
        /// and a long run shows whether frames leave memory behind (tools/soak.sh, issue 17).
        var peakResidentBytes: Int
    }

    /// The peak resident set size of this process so far, in bytes.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return usage.ru_maxrss * 1024   // Linux reports KiB
    }
    struct Percentiles: Codable { var p50, p95, p99, mean, min, max: Double }
    struct CPUSplit: Codable { var engine, renderTree, gl: Double }
    struct Counts: Codable { var drawCalls, batches, offscreenPasses, instances, layersDrawn, textureUploads: Int }

    func run(sceneName: String, json: Bool, quiet: Bool) throws {
        let renderer: CARenderer
        let options = try CARenderer.Options.fromCarenderEnvironment()
        do { renderer = try CARenderer(offscreenSize: size, scale: scene.scale, options: options) } catch { throw CLIError("\(error)") }
        renderer.layer = scene.rootLayer
        let timer = CARendererGPUTimer(renderer: renderer)
        scene.applyScheduledChanges(0)
        renderer.beginFrame(atTime: 0)
        renderer.endFrame()
        var total: [Double] = [], engine: [Double] = [], build: [Double] = [], gl: [Double] = [], gpu: [Double] = []
        var counts: [Counts] = []
        let progress = Progress(total: frames + Self.warmup, label: "bench", quiet: quiet || json)
        for f in 0..<(frames + Self.warmup) {
            try Interrupts.checkpoint()
            let t = Double(f) / scene.framesPerSecond
            let t0 = DispatchTime.now().uptimeNanoseconds
            scene.applyScheduledChanges(t)
            renderer.beginFrame(atTime: t)
            let t1 = DispatchTime.now().uptimeNanoseconds
            do {
                if let timer { try timer.measure { try renderer.renderChecked() } } else { try renderer.renderChecked() }
                try renderer.waitUntilCompleted()
            } catch { throw CLIError("rendering failed: \(error)") }
            renderer.endFrame()
            let t2 = DispatchTime.now().uptimeNanoseconds
            let s = renderer.statistics
            let measured = timer?.collect(wait: true) ?? []
            progress.frameDone()
            guard f >= Self.warmup else { continue }
            total.append(Double(t2 - t0) * 1e-9)
            engine.append(Double(t1 - t0) * 1e-9)
            build.append(s.buildSeconds)
            gl.append(Double(t2 - t1) * 1e-9 - s.buildSeconds)
            gpu.append(contentsOf: measured)
            counts.append(Counts(drawCalls: s.drawCalls, batches: s.batches, offscreenPasses: s.offscreenPasses,
                                 instances: s.instances, layersDrawn: s.layersDrawn, textureUploads: s.textureUploads))
        }
        progress.finish()
        let (w, h) = renderer.pixelSize
        let mid = counts[counts.count / 2]
        let report = Report(
            scene: sceneName, width: w, height: h, scale: Double(scene.scale), frames: frames, warmupFrames: Self.warmup,
            device: renderer.contextInfo, msPerFrame: Self.percentiles(total), fps: Self.round3(Double(total.count) / total.reduce(0, +)),
            cpuMsPerFrame: CPUSplit(engine: Self.round3(Self.median(engine) * 1000), renderTree: Self.round3(Self.median(build) * 1000),
                                   gl: Self.round3(Self.median(gl) * 1000)),
            gpuMsPerFrame: gpu.isEmpty ? nil : Self.percentiles(gpu),
            gpuTimer: timer == nil ? "unavailable (no GL_TIME_ELAPSED counter)" : "GL_TIME_ELAPSED",
            perFrame: mid, frameMs: total.map { Self.round3($0 * 1000) }, peakResidentBytes: Self.peakResidentBytes())
        if json {
            let enc = JSONEncoder()
            enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try enc.encode(report), as: UTF8.self))
        } else {
            print(Self.text(report))
        }
    }

    /// Milliseconds to the microsecond (JSON stays readable; timings are not more precise).
    static func round3(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }

    static func median(_ xs: [Double]) -> Double { xs.isEmpty ? 0 : xs.sorted()[xs.count / 2] }

    /// Nearest-rank percentiles in milliseconds.
    static func percentiles(_ seconds: [Double]) -> Percentiles {
        let s = seconds.sorted().map { $0 * 1000 }
        guard !s.isEmpty else { return Percentiles(p50: 0, p95: 0, p99: 0, mean: 0, min: 0, max: 0) }
        func p(_ q: Double) -> Double { s[min(s.count - 1, max(0, Int((q * Double(s.count)).rounded(.up)) - 1))] }
        return Percentiles(p50: round3(p(0.5)), p95: round3(p(0.95)), p99: round3(p(0.99)),
                           mean: round3(s.reduce(0, +) / Double(s.count)), min: round3(s.first!), max: round3(s.last!))
    }

    static func text(_ r: Report) -> String {
        func f(_ x: Double) -> String { String(format: "%.2f", x) }
        var lines = [
            "\(r.scene) at \(r.width)×\(r.height), \(r.frames) frames on \(r.device["renderer"] ?? "?") (\(r.device["platform"] ?? "?"))",
            "  ms/frame   p50 \(f(r.msPerFrame.p50))  p95 \(f(r.msPerFrame.p95))  p99 \(f(r.msPerFrame.p99))  (mean \(f(r.msPerFrame.mean)), \(String(format: "%.1f", r.fps)) fps)",
            "  CPU        engine \(f(r.cpuMsPerFrame.engine)) ms, render tree \(f(r.cpuMsPerFrame.renderTree)) ms, GL \(f(r.cpuMsPerFrame.gl)) ms (medians; GL includes waiting for the GPU)",
        ]
        if let g = r.gpuMsPerFrame {
            lines.append("  GPU        p50 \(f(g.p50))  p95 \(f(g.p95))  p99 \(f(g.p99)) ms (GL_TIME_ELAPSED)")
        } else {
            lines.append("  GPU        \(r.gpuTimer)")
        }
        let c = r.perFrame
        lines.append("  per frame  draw calls \(c.drawCalls), batches \(c.batches), offscreen passes \(c.offscreenPasses), instances \(c.instances), layers drawn \(c.layersDrawn)")
        return lines.joined(separator: "\n")
    }
}
