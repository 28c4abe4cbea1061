import Foundation
import QuartzCore
import CADemoScenes

// Filter benchmark (issue 24 "Must show"): ms per 1920×1080 frame of `StressScenes.filters()` —
// 20 layers each blurred by a 16-point CIGaussianBlur and 10 layers compositing with a blend mode
// each, sliding so every frame is drawn — next to Skia drawing the same scene in the same run
// (peers/skia_filters.py: ImageFilters.Blur(16, 16) and the same blend modes, skia-python's CPU
// raster backend). Usage:
//   swift run -c release --package-path tools/benchmarks filter-benchmark [FRAMES] [--no-peers]
// A frame is: the frame rendered at t = frame/60 s and read back into memory (`makeImage`).
// Prints `filters: X ms/frame (p95 Y)` and, unless --no-peers,
// `peer skia-filters: X ms/frame; engine/skia = R×`. CA_BACKEND picks the backend.

var args = Array(CommandLine.arguments.dropFirst())
let withPeers = !args.contains("--no-peers")
args.removeAll { $0 == "--no-peers" }
let frames = args.first.flatMap(Int.init) ?? 10

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) * 1e-6 }

func run() throws -> (p50: Double, p95: Double) {
    let options = try CARenderer.Options(environment: ProcessInfo.processInfo.environment)
    let r = try CARenderer(offscreenSize: StressScenes.size, scale: 1, options: options)
    r.layer = StressScenes.filters()
    CATransaction.flush()
    var times: [Double] = []
    for f in 0...frames {
        let t0 = now()
        r.beginFrame(atTime: Double(f) / 60)
        try r.renderChecked()
        r.endFrame()
        _ = try r.makeImage()
        if f > 0 { times.append(now() - t0) }
    }
    times.sort()
    return (times[times.count / 2], times[min(times.count - 1, Int(Double(times.count) * 0.95))])
}

func skia() -> Double? {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("peers/skia_filters.py")
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = [ProcessInfo.processInfo.environment["PYTHON"] ?? "python3", script.path, "\(max(3, frames))"]
    let pipe = Pipe()
    p.standardOutput = pipe
    do { try p.run() } catch { print("  peer skia: could not run \(script.path): \(error)"); return nil }
    let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    for line in out.split(separator: "\n") where line.hasPrefix("peer skia-filters") {
        let parts = line.split(separator: " ")
        if parts.count >= 3, let ms = Double(parts[2]) { return ms }
    }
    print("  peer skia: no result (pip install skia-python; peers/skia_filters.py)")
    return nil
}

print("filter-benchmark: 1920×1080, 20 blurs (σ = 16 px) and 10 blend modes, \(frames) frames")
let peer = withPeers ? skia() : nil
let m = try run()
print("filters: \(String(format: "%.2f", m.p50)) ms/frame (p95 \(String(format: "%.2f", m.p95)))")
if let peer {
    print("  peer skia-filters: \(String(format: "%.2f", peer)) ms/frame; engine/skia = \(String(format: "%.2f", m.p50 / peer))×")
}
