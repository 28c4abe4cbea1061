import QuartzCore
import CADemoScenes
import GLBaseline
import Foundation

// Renderer benchmark (issue 4). Usage:
//   swift run -c release --package-path tools/benchmarks render-benchmark [FRAMES] [SCENE...]
// SCENE: rects opaque-rects images gradients shadows static-rects mostly-static-rects committed-rects shapes
// shapes-animated shapes-linewidth groups emitter replicator (default: all but the shape scenes, committed-rects and
// groups). Prints per scene the
// median ms per frame (engine step + render-tree build + GL, with glFinish), fps, draw calls,
// batches, offscreen passes and the split; for the rect scene also the hand-written baseline
// and the engine/baseline ratio. Readback + PNG encode of one 1080p frame is reported apart.
// --peers also runs the CPU peers (Cairo, Blend2D: peers/run-peers.sh, which installs them on
// first use) on the same rect scene and prints the engine/peer ratios.
var args = Array(CommandLine.arguments.dropFirst())
let withPeers = args.contains("--peers")
args.removeAll { $0 == "--peers" }
// --backend gl|cpu|auto (issue 22): which backend draws; every renderer here takes its options
// from the environment, so the flag is handed on as CA_BACKEND.
if let i = args.firstIndex(of: "--backend"), i + 1 < args.count {
    setenv("CA_BACKEND", args[i + 1], 1)
    args.removeSubrange(i...(i + 1))
}
/// `--engine-only`: the rect scene without the baseline, peers and readback (for profilers such as
/// callgrind, where only the engine's frames matter).
let engineOnly = args.contains("--engine-only")
args.removeAll { $0 == "--engine-only" }
// `--runs N`: the emitter and replicator scenes (issue 21's floors) and the rect scene's
// baseline (issue 22) time the engine and then the floor N times in this one process and print
// each pair and the median ratio.
let runs: Int = {
    guard let i = args.firstIndex(of: "--runs") else { return 1 }
    guard i + 1 < args.count, let v = Int(args[i + 1]), v >= 1, v <= 100 else {
        FileHandle.standardError.write("--runs needs a number from 1 to 100\n".data(using: .utf8)!); exit(2)
    }
    args.removeSubrange(i...i + 1)
    return v
}()
/// `--max-size N`: the rect scenes' largest side (canonical 200; 20 gives rects of 20×20 only,
/// the regime whose floor matches the figures quoted in issue 4 and PERFORMANCE.md).
let maxSize: Int32 = {
    guard let i = args.firstIndex(of: "--max-size") else { return GLB_SCENE_MAX_SIZE }
    guard i + 1 < args.count, let v = Int32(args[i + 1]), v >= GLB_SCENE_MIN_SIZE else {
        FileHandle.standardError.write("--max-size needs a number ≥ \(GLB_SCENE_MIN_SIZE)\n".data(using: .utf8)!); exit(2)
    }
    args.removeSubrange(i...i + 1)
    return v
}()
/// Rect `i` of the benchmark scene, as the baseline and the peers draw it.
func sceneRect(_ i: Int) -> [Float] {
    var out = [Float](repeating: 0, count: 12)
    glb_scene_rect_ex(Int32(i), GLB_SCENE_SEED, 1920, 1080, maxSize, &out)
    return out
}
// `--gpu-path-check`: the GPU evaluation path of replicas against the CPU one on
// this machine's driver (PathParityCheck.swift), then exit.
if args.contains("--gpu-path-check") {
    do { try PathParityCheck.run() } catch { print("gpu-path-check failed: \(error)"); exit(1) }
    exit(0)
}
// `--backend-check`: the default backend's choice, gl against cpu, and the lineWidth rasters
// (BackendCheck.swift), then exit.
if args.contains("--backend-check") {
    do { try BackendCheck.run() } catch { print("backend-check failed: \(error)"); exit(1) }
    exit(0)
}
let frames = args.first.flatMap(Int.init) ?? 30
var scenes = args.filter { Int($0) == nil }
if scenes.isEmpty { scenes = ["rects", "static-rects", "mostly-static-rects", "images", "gradients", "shadows"] }

func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[s.count / 2] }
func ms(_ x: Double) -> String { String(format: "%.2f", x * 1000) }

struct Result {
    var total: Double; var engine: Double; var build: Double; var gl: Double; var stats: RenderStats
    /// The GL share split: issuing the frame's commands (CPU) and waiting for the GPU
    /// (`waitUntilCompleted`), medians in seconds.
    var submit: Double = 0, wait: Double = 0
    /// Median GPU time of a frame from GL_TIME_ELAPSED (`glb_gpu_timer_begin`), nil where the
    /// driver counts none.
    var gpu: Double?
}

/// `beforeFrame` runs before each frame (model changes a display link would make).
func run(_ root: CALayer, frames: Int, options: CARenderer.Options? = nil, beforeFrame: ((Int) -> Void)? = nil) throws -> (Result, CARenderer) {
    let r = try CARenderer(offscreenSize: StressScenes.size, options: options ?? CARenderer.Options(environment: ProcessInfo.processInfo.environment))
    r.layer = root
    r.clearColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0)
    var totals: [Double] = [], engine: [Double] = [], build: [Double] = [], gl: [Double] = []
    var submit: [Double] = [], wait: [Double] = [], gpu: [Double] = []
    for f in 0..<(frames + 2) {
        beforeFrame?(f)
        let t0 = DispatchTime.now().uptimeNanoseconds
        r.beginFrame(atTime: Double(f) / 60)
        let t1 = DispatchTime.now().uptimeNanoseconds
        // The engine's context is current from `beginFrame` on; the query brackets its commands.
        let timed = r.activeBackend.backend == .openGL && glb_gpu_timer_begin() == 0
        try r.renderChecked()
        let tr = DispatchTime.now().uptimeNanoseconds
        try r.waitUntilCompleted()
        r.endFrame()
        let t2 = DispatchTime.now().uptimeNanoseconds
        let gpuMs = timed ? glb_gpu_timer_end_ms() : -1   // after the clock stops
        guard f >= 2 else { continue }   // warm-up: first upload, program warm
        totals.append(Double(t2 - t0) * 1e-9)
        engine.append(Double(t1 - t0) * 1e-9)
        build.append(r.statistics.buildSeconds)
        gl.append(Double(t2 - t1) * 1e-9 - r.statistics.buildSeconds)
        submit.append(Double(tr - t1) * 1e-9 - r.statistics.buildSeconds)
        wait.append(Double(t2 - tr) * 1e-9)
        if gpuMs >= 0 { gpu.append(gpuMs / 1000) }
    }
    return (Result(total: median(totals), engine: median(engine), build: median(build), gl: median(gl), stats: r.statistics,
                   submit: median(submit), wait: median(wait), gpu: gpu.count == totals.count ? median(gpu) : nil), r)
}

/// 100 groups of 100 rounded rects (10 × 10 each) over 1920×1080, 1 group in 10 moving (a
/// position animation on the group): frames patch the moving groups' subtrees.
func groupsScene() -> CALayer {
    let root = CALayer()
    root.frame = CGRect(origin: .zero, size: StressScenes.size)
    for g in 0..<100 {
        let group = CALayer()
        group.frame = CGRect(x: CGFloat(g % 10) * 190 + 5, y: CGFloat(g / 10) * 106 + 5, width: 180, height: 100)
        group.backgroundColor = CGColor(red: 0.2, green: 0.2, blue: 0.25, alpha: 1)
        group.cornerRadius = 6
        for c in 0..<100 {
            let l = CALayer()
            l.frame = CGRect(x: CGFloat(c % 10) * 18 + 1, y: CGFloat(c / 10) * 10 + 1, width: 16, height: 8)
            l.backgroundColor = CGColor(red: CGFloat(c % 10) / 10, green: CGFloat(g % 10) / 10, blue: CGFloat(c / 10) / 10, alpha: 1)
            l.cornerRadius = 2
            group.addSublayer(l)
        }
        if g % 10 == 0 { group.add(StressScenes.drift(g), forKey: "drift") }
        root.addSublayer(group)
    }
    return root
}

func report(_ name: String, _ res: Result) {
    print("\(name): \(ms(res.total)) ms/frame (\(String(format: "%.1f", 1 / res.total)) fps) — engine step \(ms(res.engine)) ms, "
          + "render tree \(ms(res.build)) ms, GL \(ms(res.gl)) ms; draw calls \(res.stats.drawCalls), batches \(res.stats.batches), "
          + "offscreen passes \(res.stats.offscreenPasses), instances \(res.stats.instances)"
          + (res.stats.patchedLayers > 0 ? "; patched \(res.stats.patchedLayers) layers (\(res.stats.patchedSubtrees) subtrees)" : ""))
    print("  GL split: issuing \(ms(res.submit)) ms, waiting for the GPU \(ms(res.wait)) ms"
          + (res.gpu.map { "; GPU time \(ms($0)) ms (GL_TIME_ELAPSED)" } ?? ""))
}

/// ` (GPU time X ms)` of the last floor run, where the driver counts it.
func floorGPU() -> String {
    let g = glb_last_gpu_ms()
    return g >= 0 ? String(format: " (GPU time %.2f ms)", g) : ""
}

/// Runs peers/run-peers.sh on the same scene and prints engine/peer ratios.
func runPeers(engineSeconds: Double, frames: Int, scene: String = "rects") {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("peers/run-peers.sh")
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/bash")
    p.arguments = scene == "rects" ? [script.path, "\(GLB_SCENE_COUNT)", "1920", "1080", "\(frames)", "--max-size", "\(maxSize)"]
                                   : [script.path, "\(frames)"]
    var env = ProcessInfo.processInfo.environment
    env["PEER_SCENE"] = scene
    p.environment = env
    let pipe = Pipe()
    p.standardOutput = pipe
    do { try p.run() } catch { print("  peers: could not run \(script.path): \(error)"); return }
    let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    for line in out.split(separator: "\n") where line.hasPrefix("peer ") {
        let parts = line.split(separator: " ")
        guard parts.count >= 3, let ms = Double(parts[2]) else { continue }
        print("  peer \(parts[1]): \(String(format: "%.2f", ms)) ms/frame; engine/\(parts[1]) = \(String(format: "%.2f", engineSeconds * 1000 / ms))×")
    }
}

do {
    for name in scenes {
        CAMediaClock.freeze(at: 0)
        switch name {
        case "committed-rects":
            // The static rects with 1 in 100 moved by a commit every frame, as a display link
            // setting model values would: the commit's leaves are patched, not the whole tree.
            let n = Int(GLB_SCENE_COUNT)
            let root = StressScenes.rects(count: n, animatedEvery: 0, rect: sceneRect)
            let movers = stride(from: 0, to: n, by: 100).map { root.sublayers![$0] }
            let (res, _) = try run(root, frames: frames) { f in
                CATransaction.begin()
                CATransaction.setDisableActions(true)
                for l in movers { l.position.x += f % 2 == 0 ? 6 : -6 }
                CATransaction.commit()
            }
            report("\(n) rounded rects 1920×1080, 1 in 100 moved by a commit each frame", res)
        case "opaque-rects":
            // The animated rect scene with every fill and border opaque: the depth pre-pass
            // (opaque interiors first, CA_DEPTH_PREPASS=0 turns it off) skips what later rects cover.
            let n = Int(GLB_SCENE_COUNT)
            let root = StressScenes.rects(count: n, animatedEvery: 1) { i in
                var r = sceneRect(i)
                r[7] = 1; r[11] = 1
                return r
            }
            let (res, r) = try run(root, frames: frames)
            report("\(n) animated opaque rounded rects 1920×1080 (sides 20…\(maxSize))", res)
            print("  opaque interiors drawn into depth first: \(r.statistics.opaqueInteriors)")
        case "rects", "static-rects", "mostly-static-rects":
            let n = Int(GLB_SCENE_COUNT)
            let every = name == "rects" ? 1 : name == "static-rects" ? 0 : 100
            let root = StressScenes.rects(count: n, animatedEvery: every, rect: sceneRect)
            let (res, r) = try run(root, frames: frames)
            let kind = every == 1 ? "animated" : every == 0 ? "static" : "(1 in \(every) animated)"
            report("\(n) \(kind) rounded rects 1920×1080 (sides 20…\(maxSize))", res)
            if name == "rects", !engineOnly {
                var err = [CChar](repeating: 0, count: 256)
                if glb_init(&err, 256) == 0 {
                    let base = glb_rects_ms_ex(Int32(n), 1920, 1080, Int32(frames), GLB_SCENE_SEED, maxSize) / 1000
                    print("  baseline (one instanced draw, no engine): \(ms(base)) ms/frame\(floorGPU()); engine/baseline = \(String(format: "%.2f", res.total / base))×")
                    // With --runs N, N − 1 more pairs, engine then floor, one after the other, so
                    // that the machine's drift between the two halves of a pair is short, and
                    // the median of the pairs' ratios.
                    if runs > 1 {
                        var ratios = [res.total / base]
                        for k in 2...runs {
                            let (again, _) = try run(root, frames: frames)
                            // The engine's renderer made its own context current: the floor's again.
                            guard glb_init(&err, 256) == 0 else { print("  pair \(k): the baseline's context is lost"); break }
                            let floor = glb_rects_ms_ex(Int32(n), 1920, 1080, Int32(frames), GLB_SCENE_SEED, maxSize) / 1000
                            ratios.append(again.total / floor)
                            print("  pair \(k): engine \(ms(again.total)) ms/frame, baseline \(ms(floor)) ms/frame; engine/baseline = \(String(format: "%.2f", again.total / floor))×")
                        }
                        let sorted = ratios.sorted()
                        print("  engine/baseline over \(runs) pairs: median \(String(format: "%.2f", sorted[sorted.count / 2]))× (\(sorted.map { String(format: "%.2f", $0) }.joined(separator: ", ")))")
                    }
                } else {
                    print("  baseline unavailable: \(String(decoding: err.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
                }
                if withPeers { runPeers(engineSeconds: res.total, frames: max(3, frames / 3)) }
                let t0 = DispatchTime.now().uptimeNanoseconds
                let img = try r.makeImage()
                let t1 = DispatchTime.now().uptimeNanoseconds
                let png = img.pngData()!
                let t2 = DispatchTime.now().uptimeNanoseconds
                print("  readback 1080p: \(ms(Double(t1 - t0) * 1e-9)) ms; PNG encode: \(ms(Double(t2 - t1) * 1e-9)) ms (\(png.count / 1024) KiB)")
            }
        case "shapes", "shapes-animated", "shapes-linewidth":
            let animated = name != "shapes"
            let widths = name == "shapes-linewidth"
            // First frame on a fresh renderer: every star is rasterised (the cache's cold cost).
            let first = try CARenderer(offscreenSize: StressScenes.size, options: CARenderer.Options(environment: ProcessInfo.processInfo.environment))
            first.layer = ShapeScene.make(animated: animated, widths: widths)
            first.beginFrame(atTime: 0.3)
            try first.renderChecked()
            first.endFrame()
            let st = first.statistics
            let root = ShapeScene.make(animated: animated, widths: widths)
            // One 1-pixel layer animates in the static scene, so every frame is drawn (a scene with
            // nothing animating reuses its last frame and costs nothing).
            let tick = CALayer()
            tick.frame = CGRect(x: 0, y: 0, width: 1, height: 1)
            tick.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0.01)
            let move = CABasicAnimation(keyPath: "position.x")
            move.byValue = 1.0; move.duration = 1; move.repeatCount = .infinity
            tick.add(move, forKey: "tick")
            root.addSublayer(tick)
            let (res, _) = try run(root, frames: frames)
            let what = widths ? "animated (strokeEnd + fillColor + lineWidth)" : animated ? "animated (strokeEnd + fillColor)" : "static"
            report("\(ShapeScene.count) \(what) Bézier stars, fill + stroke 1920×1080", res)
            print(String(format: "  first frame: %d rasters, %.1f µs per path (%d flattened segments), build %.2f ms, GL %.2f ms; steady frames rasterise %d",
                         st.shapeRasters, st.shapeRasterSeconds / Double(max(st.shapeRasters, 1)) * 1e6, st.shapeSegments,
                         st.buildSeconds * 1000, st.glSeconds * 1000, res.stats.shapeRasters))
            if withPeers { runPeers(engineSeconds: res.total, frames: max(3, frames / 3), scene: "shapes") }
        case "groups":
            var whole = try CARenderer.Options(environment: ProcessInfo.processInfo.environment)
            whole.patchesSubtrees = false
            report("100 groups of 100 rects, 1 group in 10 moving, whole builds", try run(groupsScene(), frames: frames, options: whole).0)
            whole.patchesSubtrees = true
            report("100 groups of 100 rects, 1 group in 10 moving, subtrees patched", try run(groupsScene(), frames: frames, options: whole).0)
        case "images": report("1000 image layers", try run(StressScenes.images(count: 1000), frames: frames).0)
        case "gradients":
            let res = try run(StressScenes.gradients(count: 200), frames: frames).0
            report("200 gradient layers", res)
            // Peers: peers/layers_scene.py draws the same layers (a snapshot at t = 0.1 s).
            if withPeers { runPeers(engineSeconds: res.total, frames: max(3, frames / 3), scene: "gradients") }
        case "shadows":
            let res = try run(StressScenes.shadows(count: 100), frames: frames).0
            report("100 shadowed layers", res)
            // Peers: shadow sprites blurred once, untimed (a 2D library has no blur; see
            // peers/layers_scene.py), where the engine blurs its animated shadows every frame.
            if withPeers { runPeers(engineSeconds: res.total, frames: max(3, frames / 3), scene: "shadows") }
        case "growth": try growthTable(frames: frames)   // GrowthScene.swift (issue 22 part 3)
        case "emitter":
            var ratios: [Double] = []
            for k in 1...runs {
                let res = try run(emitterScene(), frames: frames).0
                report("CAEmitterLayer, 100,000 live particles" + (runs > 1 ? " (run \(k) of \(runs))" : ""), res)
                reportParticles(res)
                if !engineOnly, let floor = particleFloor(res.stats.particles, frames: frames) {
                    ratios.append(res.total / floor)
                    print("  floor (\(res.stats.particles) textured 8×8 quads, AA fringe, instances uploaded each frame, one instanced draw, no engine): \(ms(floor)) ms/frame\(floorGPU()); engine/floor = \(String(format: "%.2f", res.total / floor))×")
                }
            }
            if !engineOnly {
                if ratios.count > 1 { print("  median engine/floor over \(ratios.count) runs: \(String(format: "%.2f", median(ratios)))×") }
                if let check = try FloorCheck.particles() { print("  check: \(check)") }
            }
        case "replicator":
            var ratios: [Double] = []
            for k in 1...runs {
                let res = try run(ReplicatorScene.make(), frames: frames).0
                report("CAReplicatorLayer 100 × 100 copies (instanceColor animating)" + (runs > 1 ? " (run \(k) of \(runs))" : ""), res)
                if res.stats.backgroundClears > 0 { print("  root background drawn as the clear colour") }
                if !engineOnly, let floor = ReplicatorScene.floor(frames: frames) {
                    ratios.append(res.total / floor)
                    print("  floor (10,000 rounded bordered rects over a cleared background, one instanced draw, no engine): \(ms(floor)) ms/frame\(floorGPU()); engine/floor = \(String(format: "%.2f", res.total / floor))×")
                }
            }
            if !engineOnly {
                if ratios.count > 1 { print("  median engine/floor over \(ratios.count) runs: \(String(format: "%.2f", median(ratios)))×") }
                if let check = try FloorCheck.replicator() { print("  check (time 0): \(check)") }
            }
        default: print("unknown scene \(name)")
        }
        CAMediaClock.unfreeze()
    }
} catch {
    print("render-benchmark: \(error)")
    exit(1)
}
