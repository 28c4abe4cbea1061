import Foundation
import QuartzCore
import CALottie

// Lottie benchmark (issue 23): ms per 512×512 frame of four of the larger lottie-ios samples,
// 60 frames spread evenly over each animation (frame ip + k × (op − ip) / 60), next to rlottie
// and ThorVG rendering the same files at the same size and frames in the same run
// (peers/rlottie_render.py, peers/thorvg_render.py). Usage:
//   swift run -c release --package-path tools/benchmarks lottie-benchmark [FRAMES] [FILE.json…] [--no-peers]
// A frame is: `currentFrame` set on the LottieAnimationLayer and the transaction committed, the
// frame rendered and read back into memory (`makeImage`), as a peer's frame is its render into
// a pixel buffer. Prints `lottie <name>: X ms/frame (…)` with where the time goes and, unless
// --no-peers, `peer <peer>-<name>: X ms/frame; engine/<peer> = R×` (a peer that is not installed
// is reported as missing). CA_BACKEND picks the backend (docs/CARENDER.md); PYTHON the
// interpreter the peers run in.

var args = Array(CommandLine.arguments.dropFirst())
let withPeers = !args.contains("--no-peers")
args.removeAll { $0 == "--no-peers" }
let frames = max(1, args.first.flatMap(Int.init) ?? 60)
let side = 512

let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let repo = here.deletingLastPathComponent().deletingLastPathComponent()
let corpus: URL = {
    let sibling = repo.deletingLastPathComponent().appendingPathComponent("shared/corpora/lottie-ios/samples")
    if FileManager.default.fileExists(atPath: sibling.path) { return sibling }
    return URL(fileURLWithPath: "/work/shared/corpora/lottie-ios/samples")
}()
/// The four largest animated samples of the corpus that use only vector content (no images).
let defaultFiles = ["9squares_AlBoardman.json", "PinJump.json", "TwitterHeart.json", "LottieFiles/cactus.json"]
var files = args.filter { Int($0) == nil }.map { $0.hasPrefix("/") ? $0 : ($0.contains("/") && FileManager.default.fileExists(atPath: $0) ? $0 : corpus.appendingPathComponent($0).path) }
if files.isEmpty { files = defaultFiles.map { corpus.appendingPathComponent($0).path } }

func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s.isEmpty ? .nan : s[s.count / 2] }
func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) * 1e-6 }
func f2(_ x: Double) -> String { String(format: "%.2f", x) }

/// Where a frame's time goes (medians, ms) and the last frame's renderer statistics.
struct Measured {
    var total = 0.0, mean = 0.0, commit = 0.0, engine = 0.0, build = 0.0, raster = 0.0, gl = 0.0, readback = 0.0
    var stats = RenderStats()
}

/// Median ms per frame over the spread frames, after one warm-up frame: commit (`currentFrame`
/// set, transaction flushed), engine (`beginFrame`: the timing engine's step), render tree build
/// (of which shape rasterising), GL (draw and finish), read-back (`makeImage`).
func run(_ path: String) throws -> Measured {
    let animation = try LottieAnimation(filepath: path)
    let options = try CARenderer.Options(environment: ProcessInfo.processInfo.environment)
    let r = try CARenderer(offscreenSize: CGSize(width: side, height: side), scale: 1, options: options)
    let layer = LottieAnimationLayer(animation: animation)
    layer.anchorPoint = .zero
    layer.position = .zero
    layer.bounds = CGRect(x: 0, y: 0, width: side, height: side)
    layer.contentMode = .scaleAspectFit
    r.layer = layer
    layer.layoutIfNeeded()
    CATransaction.flush()
    var cols: [[Double]] = Array(repeating: [], count: 7)
    let span = animation.endFrame - animation.startFrame
    for k in -1..<frames {
        let frame = animation.startFrame + span * Double(max(k, 0)) / Double(frames)
        let t0 = now()
        layer.currentFrame = CGFloat(frame)
        CATransaction.flush()
        let t1 = now()
        r.beginFrame(atTime: 0)
        let t2 = now()
        try r.renderChecked()
        try r.waitUntilCompleted()
        r.endFrame()
        let t3 = now()
        _ = try r.makeImage()
        let t4 = now()
        guard k >= 0 else { continue }
        let st = r.statistics
        let build = st.buildSeconds * 1000
        for (i, v) in [t4 - t0, t1 - t0, t2 - t1, build, st.shapeRasterSeconds * 1000, t3 - t2 - build, t4 - t3].enumerated() { cols[i].append(v) }
    }
    return Measured(total: median(cols[0]), mean: cols[0].reduce(0, +) / Double(max(cols[0].count, 1)), commit: median(cols[1]), engine: median(cols[2]), build: median(cols[3]),
                    raster: median(cols[4]), gl: median(cols[5]), readback: median(cols[6]), stats: r.statistics)
}

/// One peer script's `peer <name> <median ms> <mean ms>` line for a file; nil (and a note) when
/// it is missing.
func peer(_ name: String, _ path: String) -> (median: Double, mean: Double?)? {
    let script = here.appendingPathComponent("peers/\(name)_render.py")
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = [ProcessInfo.processInfo.environment["PYTHON"] ?? "python3", script.path, path, "\(side)", "\(frames)"]
    let pipe = Pipe(), err = Pipe()
    p.standardOutput = pipe
    p.standardError = err
    do { try p.run() } catch { print("  peer \(name): could not run \(script.path): \(error)"); return nil }
    let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    _ = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    for line in out.split(separator: "\n") where line.hasPrefix("peer \(name) ") {
        let parts = line.split(separator: " ")
        if parts.count >= 3, let ms = Double(parts[2]) { return (ms, parts.count >= 4 ? Double(parts[3]) : nil) }
    }
    let why = out.split(separator: "\n").first { $0.hasPrefix("missing") }.map(String.init) ?? "no result"
    print("  peer \(name): \(why) (peers/\(name)_render.py)")
    return nil
}

print("lottie-benchmark: \(side)×\(side), \(frames) frames spread over each animation; load average \((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?")")
for path in files {
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    let m: Measured
    do { m = try run(path) } catch { print("lottie \(name): \(error)"); continue }
    print("lottie \(name): \(f2(m.total)) ms/frame, mean \(f2(m.mean)) (commit \(f2(m.commit)), engine \(f2(m.engine)), render tree \(f2(m.build)) "
          + "of which rasterising \(f2(m.raster)) [\(m.stats.shapeRasters) paths], GL \(f2(m.gl)), read-back \(f2(m.readback)); "
          + "draw calls \(m.stats.drawCalls), texture uploads \(m.stats.textureUploads), offscreen passes \(m.stats.offscreenPasses), layers drawn \(m.stats.layersDrawn))")
    guard withPeers else { continue }
    for name2 in ["rlottie", "thorvg"] {
        if let ms = peer(name2, path) {
            let means = ms.mean.map { ", mean \(f2($0)); means \(f2(m.mean / $0))×" } ?? ""
            print("  peer \(name2)-\(name): \(f2(ms.median)) ms/frame; engine/\(name2) = \(f2(m.total / ms.median))×\(means)")
        }
    }
}
