import QuartzCore
import Foundation

/// `carender bench --export`: export throughput of a scene at a size, in frames per second,
/// for render only, render + readback (pipelined pixel-pack buffers; also synchronous
/// `glReadPixels` for comparison), render + PNG (encoded on other threads, written to a
/// temporary folder) and render + MP4 (ffmpeg fed on a pipe). Each mode draws the same frames
/// with a fresh renderer; the renderer's set-up (context, shader compile) and the first
/// `warmup` frames are not counted (fps = frames after the warm-up / the time they took, up to
/// the last file or the video being finished).
struct ExportBenchmark {
    var scene: SceneSource
    var size: CGSize
    var frames: Int
    var json: Bool
    var quiet: Bool

    struct Mode: Codable { var mode: String; var fps: Double; var msPerFrame: Double; var ratioToRenderOnly: Double }
    struct Report: Codable {
        var schema = "carender-bench-export/1"
        var scene: String
        var width: Int, height: Int, frames: Int, warmupFrames: Int, rounds: Int
        var device: [String: String]
        var modes: [Mode]
        /// CPU milliseconds of the encoding thread to encode one frame as PNG (best of 3; CPU
        /// time, so other work on the machine hardly changes it), by compression.
        var encodeMsPerFrame: [String: Double]
        /// Bytes of that frame's PNG, by compression.
        var pngBytesPerFrame: [String: Int]
    }

    func run(sceneName: String) throws {
        let jobs = (0..<frames).map { FrameJob(index: $0, time: Double($0) / scene.framesPerSecond) }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("carender-bench-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var results: [(String, Double)] = []
        var device: [String: String] = [:]
        var pixel = (0, 0)
        let hasFFmpeg = (try? FFmpegWriter.locate()) != nil
        let modes = ["render only", "render + readback (synchronous)", "render + readback (pipelined PBO)", "render + PNG",
                     "render + PNG (libpng, small)", "render + MP4"]
        if !hasFFmpeg, !quiet { CLI.note("render + MP4 skipped: ffmpeg not found") }
        // Rounds interleave the modes and each mode keeps its best round, so a burst of other
        // work on the machine does not decide the comparison.
        for _ in 0..<rounds { for mode in modes {
            if mode == "render + MP4", !hasFFmpeg { continue }
            try Interrupts.checkpoint()
            // A fresh tree per mode (animations begin at 0 again).
            var fresh = try rebuild()
            fresh.scale = scene.scale
            let readback: ReadbackMode = mode == "render only" ? .none : mode.contains("synchronous") ? .synchronous : .pipelined
            let exporter = Exporter(scene: fresh, size: size, scale: scene.scale, readback: readback)
            let renderer = try exporter.makeRenderer()
            device = renderer.contextInfo
            pixel = renderer.pixelSize
            let (w, h) = pixel
            var queue: EncoderQueue?
            var video: FFmpegWriter?
            switch mode {
            case "render + PNG", "render + PNG (libpng, small)":
                let compression: PNGCompression = mode == "render + PNG" ? .fast : .small
                let workers = EncoderQueue.sequenceWorkers
                queue = EncoderQueue(workers: workers, capacity: workers + 2) { f in
                    try FileWriting.writeAtomically(try FileWriting.pngData(f.pixels, width: w, height: h, compression: compression),
                                                    to: dir.appendingPathComponent(String(format: "%05d.png", f.index)))
                }
            case "render + MP4":
                let v = try FFmpegWriter(url: dir.appendingPathComponent("bench.mp4"), format: .mp4, width: w, height: h,
                                         framesPerSecond: scene.framesPerSecond)
                video = v
                queue = EncoderQueue(workers: 1, capacity: 3) { f in try v.write(f) }
            default:
                queue = readback == .none ? nil : EncoderQueue(workers: 1, capacity: 3) { _ in }
            }
            let progress = Progress(total: frames, label: mode, quiet: quiet || json)
            // The first frames are not timed: llvmpipe compiles each shader variant on first use.
            var start = DispatchTime.now().uptimeNanoseconds
            var frameIndex = 0
            do {
                try exporter.run(renderer, jobs: jobs, consumer: queue, progress: progress) { _ in
                    frameIndex += 1
                    if frameIndex == Self.warmup { start = DispatchTime.now().uptimeNanoseconds }
                }
                try queue?.finish()
                try video?.finish()
            } catch {
                queue?.cancel()
                video?.abort()
                throw error
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
            progress.finish()
            let fps = Double(frames - Self.warmup) / seconds
            if let i = results.firstIndex(where: { $0.0 == mode }) { results[i].1 = max(results[i].1, fps) } else { results.append((mode, fps)) }
        } }
        // Encoder cost alone, on one core: one frame of the run encoded a few times.
        var encodeMs: [String: Double] = [:]
        var pngBytes: [String: Int] = [:]
        do {
            let exporter = Exporter(scene: try rebuild(), size: size, scale: scene.scale, readback: .synchronous)
            let r = try exporter.makeRenderer()
            try exporter.run(r, jobs: [jobs[jobs.count / 2]], consumer: nil, progress: nil)
            let pixels = try r.makeImage().rgba8Bytes
            let (w, h) = r.pixelSize
            for c in PNGCompression.allCases {
                var best = Double.infinity
                for _ in 0..<3 {
                    let t0 = Self.threadCPUMilliseconds()
                    pngBytes["png-\(c.rawValue)"] = try FileWriting.pngData(pixels, width: w, height: h, compression: c).count
                    best = min(best, Self.threadCPUMilliseconds() - t0)
                }
                encodeMs["png-\(c.rawValue)"] = best
            }
        }
        let base = results.first?.1 ?? 1
        let report = Report(scene: sceneName, width: pixel.0, height: pixel.1, frames: frames, warmupFrames: Self.warmup,
                            rounds: rounds, device: device,
                            modes: results.map { Mode(mode: $0.0, fps: $0.1, msPerFrame: 1000 / $0.1, ratioToRenderOnly: $0.1 / base) },
                            encodeMsPerFrame: encodeMs, pngBytesPerFrame: pngBytes)
        if json {
            let enc = JSONEncoder()
            enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try enc.encode(report), as: UTF8.self))
        } else {
            print("export throughput, \(sceneName) at \(pixel.0)×\(pixel.1), \(frames) frames (\(Self.warmup) untimed), best of \(rounds) rounds, on \(device["renderer"] ?? (device["backend"] == "software" ? "the CPU backend (\(ProcessInfo.processInfo.activeProcessorCount) cores)" : "?")):")
            for m in report.modes {
                print("  " + m.mode.padding(toLength: 36, withPad: " ", startingAt: 0)
                      + String(format: "%7.1f fps  %8.2f ms/frame  %5.2f× render only", m.fps, m.msPerFrame, m.ratioToRenderOnly))
            }
            print("  PNG encode alone, CPU time of one thread: " + encodeMs.sorted { $0.key < $1.key }
                .map { "\($0.key) " + String(format: "%.1f ms (%d bytes)", $0.value, pngBytes[$0.key] ?? 0) }.joined(separator: ", "))
        }
    }

    /// The same scene built again (scene files are re-read; built-ins re-made).
    var rounds: Int
    var rebuild: () throws -> SceneSource

    /// CPU time the calling thread has used, in milliseconds.
    static func threadCPUMilliseconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) * 1e-6
    }

    /// Frames rendered before the clock starts, in every mode.
    static let warmup = 5
}
