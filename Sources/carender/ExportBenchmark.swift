import QuartzCore
import Foundation

/// `carender bench --export`: export throughput of a scene at a size, in frames per second,
/// for render only, render + readback (pipelined pixel-pack buffers; also synchronous
/// `glReadPixels` for comparison), render + PNG (encoded on other threads, written to a
/// temporary folder) and render + MP4 (ffmpeg fed on a pipe). Each mode draws the same frames
/// with a fresh renderer; the renderer's set-up (context, shader compile) is not counted.
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
        var width: Int, height: Int, frames: Int
        var device: [String: String]
        var modes: [Mode]
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
        let modes = ["render only", "render + readback (synchronous)", "render + readback (pipelined PBO)", "render + PNG", "render + MP4"]
        for mode in modes {
            if mode == "render + MP4", !hasFFmpeg { if !quiet { CLI.note("render + MP4 skipped: ffmpeg not found") }; continue }
            try Interrupts.checkpoint()
            // A fresh tree per mode (animations begin at 0 again).
            let fresh = SceneSource(name: scene.name, rootLayer: try rebuild(), size: scene.size, scale: scene.scale,
                                    duration: scene.duration, framesPerSecond: scene.framesPerSecond)
            let readback: ReadbackMode = mode == "render only" ? .none : mode.contains("synchronous") ? .synchronous : .pipelined
            let exporter = Exporter(scene: fresh, size: size, scale: scene.scale, readback: readback)
            let renderer = try exporter.makeRenderer()
            device = renderer.contextInfo
            pixel = renderer.pixelSize
            let (w, h) = pixel
            var queue: EncoderQueue?
            var video: FFmpegWriter?
            switch mode {
            case "render + PNG":
                let workers = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount - 1))
                queue = EncoderQueue(workers: workers, capacity: workers + 2) { f in
                    try FileWriting.writeAtomically(try FileWriting.pngData(f.pixels, width: w, height: h),
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
            let start = DispatchTime.now().uptimeNanoseconds
            do {
                try exporter.run(renderer, jobs: jobs, consumer: queue, progress: progress)
                try queue?.finish()
                try video?.finish()
            } catch {
                queue?.cancel()
                video?.abort()
                throw error
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
            progress.finish()
            results.append((mode, Double(frames) / seconds))
        }
        let base = results.first?.1 ?? 1
        let report = Report(scene: sceneName, width: pixel.0, height: pixel.1, frames: frames, device: device,
                            modes: results.map { Mode(mode: $0.0, fps: $0.1, msPerFrame: 1000 / $0.1, ratioToRenderOnly: $0.1 / base) })
        if json {
            let enc = JSONEncoder()
            enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try enc.encode(report), as: UTF8.self))
        } else {
            print("export throughput, \(sceneName) at \(pixel.0)×\(pixel.1), \(frames) frames on \(device["renderer"] ?? "?"):")
            for m in report.modes {
                print("  " + m.mode.padding(toLength: 34, withPad: " ", startingAt: 0)
                      + String(format: "%7.1f fps  %8.2f ms/frame  %5.2f× render only", m.fps, m.msPerFrame, m.ratioToRenderOnly))
            }
        }
    }

    /// The same scene built again (scene files are re-read; built-ins re-made).
    var rebuild: () throws -> CALayer
}
