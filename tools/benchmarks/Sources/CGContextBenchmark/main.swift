import CoreGraphics
import GLBaseline
import Foundation

// CGContext drawing benchmark (issue 19 "Benchmarks"): the CPU peers' workloads drawn through
// `CGContext` into a 1920×1080 premultiplied RGBA8 bitmap, one thread, paths built once (as the
// peers build theirs), each frame cleared first. Usage:
//   swift run -c release --package-path tools/benchmarks cgcontext-benchmark [FRAMES] [rects|shapes|gradients|radial|clipped-rects…] [--peers] [--checksum]
// rects: the renderer benchmark's 10,000 rounded rects (GLBaseline.h's scene: fill, then the
//        border ring as an even-odd fill, source-over), as peers/cairo_rects.py and blend2d_rects.py;
// shapes: the 1,000 Bézier stars of peers/shapes_scene.py, filled (alpha 0.8) then stroked (width 3,
//        round joins), as peers/cairo_shapes.py and blend2d_shapes.py;
// (Only CoreGraphics is linked, so a release build after a rasteriser change rebuilds one module,
// not the whole stack; the stars below are ShapeScene's, computed the same way.)
// gradients: 200 rounded rects (radius 10) clipped and filled with a three-stop axial gradient
//        (StressScenes.gradients' rects and, at t = 0.1 s, axes, as the peers of the renderer
//        benchmark's gradients scene draw them);
// radial: the same rects with a three-stop radial gradient from each centre (no peers; only when
//        named).
// clipped-rects: the rects scene inside a rounded-rect clip 20 px in from the edges (fills under a
//        clip; no peers; only when named).
// Prints `cgcontext <scene>: X ms/frame` (with --checksum, a hash of the frame's bytes, to show a
// change leaves the pixels as they were) and, with --peers, one `peer <name>: X ms/frame;
// engine/<name> = R×` line per peer (peers/run-peers.sh, the same scripts the renderer benchmark runs).
// With DUMP=PREFIX in the environment, each scene's last frame's bytes go to PREFIX.<scene> (to
// count the pixels a change moves where the checksum only says that some did).
var args = Array(CommandLine.arguments.dropFirst())
let withPeers = args.contains("--peers")
let withChecksum = args.contains("--checksum")
args.removeAll { $0 == "--peers" || $0 == "--checksum" }
let frames = args.first.flatMap(Int.init) ?? 10
var scenes = args.filter { Int($0) == nil }
if scenes.isEmpty { scenes = ["rects", "shapes", "gradients"] }
let width = 1920, height = 1080

func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[s.count / 2] }

/// A fresh bitmap context, flipped so that y grows down as in the peers' scenes.
func makeContext() -> CGContext {
    guard let ctx = CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: width * 4,
                              space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) else {
        FileHandle.standardError.write("cgcontext-benchmark: no bitmap context\n".data(using: .utf8)!)
        exit(1)
    }
    ctx.translateBy(x: 0, y: CGFloat(height))
    ctx.scaleBy(x: 1, y: -1)
    return ctx
}

/// Median ms of `frames` frames of `draw` after one warm-up frame.
func time(_ draw: () -> Void) -> Double {
    draw()
    var t: [Double] = []
    for _ in 0..<frames {
        let t0 = DispatchTime.now().uptimeNanoseconds
        draw()
        t.append(Double(DispatchTime.now().uptimeNanoseconds - t0) * 1e-6)
    }
    return median(t)
}

func runPeers(_ ms: Double, scene: String) {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("peers/run-peers.sh")
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/bash")
    let peerFrames = max(3, frames)
    p.arguments = scene == "rects" ? [script.path, "\(GLB_SCENE_COUNT)", "1920", "1080", "\(peerFrames)"] : [script.path, "\(peerFrames)"]
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
        guard parts.count >= 3, let peer = Double(parts[2]) else { continue }
        print("  peer \(parts[1]): \(String(format: "%.2f", peer)) ms/frame; engine/\(parts[1]) = \(String(format: "%.2f", ms / peer))×")
    }
}

/// The gradients scenes: StressScenes.gradients' 200 rects (the same xorshift32 generator, seed
/// 11, as peers/layers_scene.py), each clipped to a rounded rect (radius 10) and filled by `fill`
/// with its three-stop gradient; the median ms of a frame, cleared first.
func drawGradientRects(_ ctx: CGContext, _ full: CGRect, _ fill: (CGContext, CGGradient, CGRect) -> Void) -> Double {
    var seed: UInt32 = 11
    func unit() -> CGFloat { seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5; return CGFloat(seed % 10_000) / 10_000 }
    let space = CGColorSpaceCreateDeviceRGB()
    var items: [(CGPath, CGGradient, CGRect)] = []
    for _ in 0..<200 {
        let w = 80 + unit() * 160, h = 60 + unit() * 120
        let rect = CGRect(x: unit() * (CGFloat(width) - w), y: unit() * (CGFloat(height) - h), width: w, height: h)
        let colors = (0..<3).map { _ in CGColor(red: unit(), green: unit(), blue: unit(), alpha: 1) }
        guard let g = CGGradient(colorsSpace: space, colors: colors as CFArray, locations: nil) else { continue }
        items.append((CGPath(roundedRect: rect, cornerWidth: 10, cornerHeight: 10, transform: nil), g, rect))
    }
    return time {
        ctx.clear(full)
        for (shape, g, rect) in items {
            ctx.saveGState()
            ctx.addPath(shape); ctx.clip()
            fill(ctx, g, rect)
            ctx.restoreGState()
        }
    }
}

/// The rects scene's paths and colours (GLBaseline.h: radius 8, border 2 inside the bounds,
/// straight alpha 0.8): each rect's rounded rect, its fill, its border ring (outer and inner
/// rounded rects, filled even-odd) and the border's colour.
func rectItems() -> [(CGPath, CGColor, CGPath, CGColor)] {
    var items: [(CGPath, CGColor, CGPath, CGColor)] = []
    for i in 0..<Int(GLB_SCENE_COUNT) {
        var r = [Float](repeating: 0, count: 12)
        glb_scene_rect(Int32(i), GLB_SCENE_SEED, &r)
        let rect = CGRect(x: CGFloat(r[0]), y: CGFloat(r[1]), width: CGFloat(r[2]), height: CGFloat(r[3]))
        let outer = CGPath(roundedRect: rect, cornerWidth: 8, cornerHeight: 8, transform: nil)
        let ring = CGMutablePath()
        ring.addPath(outer)
        ring.addPath(CGPath(roundedRect: rect.insetBy(dx: 2, dy: 2), cornerWidth: 6, cornerHeight: 6, transform: nil))
        items.append((outer, CGColor(red: CGFloat(r[4]), green: CGFloat(r[5]), blue: CGFloat(r[6]), alpha: CGFloat(r[7])),
                      ring, CGColor(red: CGFloat(r[8]), green: CGFloat(r[9]), blue: CGFloat(r[10]), alpha: CGFloat(r[11]))))
    }
    return items
}

/// Each rect filled, then its border ring filled even-odd over it.
func drawRects(_ ctx: CGContext, _ items: [(CGPath, CGColor, CGPath, CGColor)]) {
    for (outer, fill, ring, border) in items {
        ctx.addPath(outer); ctx.setFillColor(fill); ctx.fillPath()
        ctx.addPath(ring); ctx.setFillColor(border); ctx.fillPath(using: .evenOdd)
    }
}

for scene in scenes {
    let ctx = makeContext()
    let full = CGRect(x: 0, y: 0, width: width, height: height)
    let ms: Double
    switch scene {
    case "rects":
        let items = rectItems()
        ms = time {
            ctx.clear(full)
            drawRects(ctx, items)
        }
    case "clipped-rects":
        // The rects scene drawn inside a rounded-rect clip 20 px in from the edges (a chart
        // inside a card: fills under a clip; no peer draws it).
        let items = rectItems()
        let card = CGPath(roundedRect: full.insetBy(dx: 20.5, dy: 20.5), cornerWidth: 24, cornerHeight: 24, transform: nil)
        ms = time {
            ctx.clear(full)
            ctx.saveGState()
            ctx.addPath(card); ctx.clip()
            drawRects(ctx, items)
            ctx.restoreGState()
        }
    case "shapes":
        // The stars of the renderer benchmark's shape scene (CADemoScenes' ShapeScene, the same
        // xorshift32 generator, seed 12345, as peers/shapes_scene.py).
        var seed: UInt32 = 12345
        func unit() -> CGFloat { seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5; return CGFloat(seed % 10_000) / 10_000 }
        var items: [(CGPath, CGColor, CGColor)] = []
        for _ in 0..<1000 {
            let cx = unit() * 1920, cy = unit() * 1080
            let r = 20 + unit() * 40
            let rot = unit() * 2 * Double.pi
            let fill = CGColor(red: unit(), green: unit(), blue: unit(), alpha: 0.8)
            let stroke = CGColor(red: unit(), green: unit(), blue: unit(), alpha: 1)
            let pts = (0..<10).map { k -> CGPoint in
                let a = rot + Double(k) * Double.pi / 5, rr = k % 2 == 0 ? r : 0.45 * r
                return CGPoint(x: cx + rr * cos(a), y: cy + rr * sin(a))
            }
            let path = CGMutablePath()
            path.move(to: pts[0])
            for k in 0..<10 {
                let p = pts[k], q = pts[(k + 1) % 10]
                let mx = (p.x + q.x) / 2 - cx, my = (p.y + q.y) / 2 - cy
                let ml = max((mx * mx + my * my).squareRoot(), 1e-300)
                let nx = mx / ml * 0.15 * r, ny = my / ml * 0.15 * r
                path.addCurve(to: q, control1: CGPoint(x: p.x + (q.x - p.x) / 3 + nx, y: p.y + (q.y - p.y) / 3 + ny),
                              control2: CGPoint(x: p.x + 2 * (q.x - p.x) / 3 + nx, y: p.y + 2 * (q.y - p.y) / 3 + ny))
            }
            path.closeSubpath()
            items.append((path, fill, stroke))
        }
        ctx.setLineWidth(3)
        ctx.setLineJoin(.round)
        ms = time {
            ctx.clear(full)
            for (path, fill, stroke) in items {
                ctx.addPath(path); ctx.setFillColor(fill); ctx.fillPath()
                ctx.addPath(path); ctx.setStrokeColor(stroke); ctx.strokePath()
            }
        }
    case "gradients":
        // The peers' axis (peers/layers_scene.py): from the top centre to the layer scene's
        // endPoint at t = 0.1 s, (0.5 + 0.1/3, 1 − 0.08/1.5) of the rect, a few degrees off the
        // vertical, so that t changes along every row as in a general gradient.
        let ex = 0.5 + 0.5 * 0.1 / 1.5, ey = 1 - 0.8 * 0.1 / 1.5
        ms = drawGradientRects(ctx, full) { ctx, g, rect in
            ctx.drawLinearGradient(g, start: CGPoint(x: rect.midX, y: rect.minY),
                                   end: CGPoint(x: rect.minX + ex * rect.width, y: rect.minY + ey * rect.height), options: [])
        }
    case "radial":
        // The gradients scene's rects filled with a radial gradient instead: from the rect's
        // centre (radius 0) to a circle through its corners, three stops (no peer draws it;
        // it measures `drawRadialGradient`'s own loop).
        ms = drawGradientRects(ctx, full) { ctx, g, rect in
            let c = CGPoint(x: rect.midX, y: rect.midY), r = (rect.width * rect.width + rect.height * rect.height).squareRoot() / 2
            ctx.drawRadialGradient(g, startCenter: c, startRadius: 0, endCenter: c, endRadius: r, options: [])
        }
    default:
        print("unknown scene \(scene)"); continue
    }
    print("cgcontext \(scene): \(String(format: "%.2f", ms)) ms/frame (\(frames) frames, median)")
    if let dump = ProcessInfo.processInfo.environment["DUMP"], let data = ctx.data {
        FileManager.default.createFile(atPath: dump + "." + scene, contents: Data(bytes: data, count: ctx.bytesPerRow * height))
    }
    if withChecksum, let data = ctx.data {
        // FNV-1a of the last frame's bytes: equal before and after a change = the same pixels.
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        let bytes = data.assumingMemoryBound(to: UInt8.self)
        for i in 0..<(ctx.bytesPerRow * height) { h = (h ^ UInt64(bytes[i])) &* 0x100_0000_01b3 }
        print("  checksum \(String(h, radix: 16))")
    }
    // The gradients' peers (peers/layers_scene.py) draw the same rects with the same axes.
    if withPeers, scene != "radial", scene != "clipped-rects" { runPeers(ms, scene: scene) }
}
