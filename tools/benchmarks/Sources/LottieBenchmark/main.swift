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
// a pixel buffer. Prints `lottie <name>: X ms/frame (commit C, render+readback R)` and, unless
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

/// Median ms per frame (and its commit and render+readback parts) over the spread frames,
/// after one warm-up frame.
func run(_ path: String) throws -> (total: Double, commit: Double, render: Double, frames: Int) {
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
    var totals: [Double] = [], commits: [Double] = [], renders: [Double] = []
    let span = animation.endFrame - animation.startFrame
    for k in -1..<frames {
        let frame = animation.startFrame + span * Double(max(k, 0)) / Double(frames)
        let t0 = now()
        layer.currentFrame = CGFloat(frame)
        CATransaction.flush()
        let t1 = now()
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        r.endFrame()
        _ = try r.makeImage()
        let t2 = now()
        if k >= 0 { totals.append(t2 - t0); commits.append(t1 - t0); renders.append(t2 - t1) }
    }
    return (median(totals), median(commits), median(renders), frames)
}

/// One peer script's `peer <name> <ms>` line for a file; nil (and a note) when it is missing.
func peer(_ name: String, _ path: String) -> Double? {
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
        if parts.count >= 3, let ms = Double(parts[2]) { return ms }
    }
    let why = out.split(separator: "\n").first { $0.hasPrefix("missing") }.map(String.init) ?? "no result"
    print("  peer \(name): \(why) (peers/\(name)_render.py)")
    return nil
}

print("lottie-benchmark: \(side)×\(side), \(frames) frames spread over each animation; load average \((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?")")
for path in files {
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    let m: (total: Double, commit: Double, render: Double, frames: Int)
    do { m = try run(path) } catch { print("lottie \(name): \(error)"); continue }
    print("lottie \(name): \(f2(m.total)) ms/frame (commit \(f2(m.commit)), render+readback \(f2(m.render)))")
    guard withPeers else { continue }
    for name2 in ["rlottie", "thorvg"] {
        if let ms = peer(name2, path) {
            print("  peer \(name2)-\(name): \(f2(ms)) ms/frame; engine/\(name2) = \(f2(m.total / ms))×")
        }
    }
}
