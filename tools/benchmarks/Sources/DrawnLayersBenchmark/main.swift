import Foundation
import QuartzCore

// Drawn-layers benchmark (issue 19 "Benchmarks": "1,000 drawn layers of which 10 % call
// setNeedsDisplay each frame: ms per frame and bytes uploaded"). 1,000 layers of 100×60 points
// whose `draw(in:)` override draws a small dashboard card with CGContext (a rounded panel, eight
// bars, a stroked line chart, a gauge arc with its needle), laid out over a 1920×1080 target as a
// 40 × 25 grid of overlapping cards; each frame 100 of them (a rotating set: frame f redraws
// layers 100·(f mod 10) … +99, with new values) call `setNeedsDisplay()`. A frame is: the
// setNeedsDisplay calls and `CATransaction.flush()` (the commit, whose display pass runs the 100
// `draw(in:)`s), then the render, then the read-back (`makeImage`). Usage:
//   swift run -c release --package-path tools/benchmarks drawn-layers-benchmark [FRAMES] [--scale S]
// Prints ms per frame (median; commit+display, render and read-back apart), the draw(in:) calls
// and texture uploads per frame with their bytes (`RenderStats.textureUploadBytes`), and the same
// for a frame where nothing redraws. CA_BACKEND picks the backend (docs/CARENDER.md). No peer:
// the issue names none for this workload.

var args = Array(CommandLine.arguments.dropFirst())
var scale: CGFloat = 1
if let i = args.firstIndex(of: "--scale"), i + 1 < args.count, let s = Double(args[i + 1]), s > 0, s <= 4 {
    scale = CGFloat(s)
    args.removeSubrange(i...(i + 1))
}
let frames = max(1, args.first.flatMap(Int.init) ?? 60)
let width = 1920, height = 1080
let layerCount = 1000, redrawnPerFrame = 100
let cardSize = CGSize(width: 100, height: 60)
let columns = 40, rows = 25

nonisolated(unsafe) var drawCalls = 0

/// A dashboard card: what a chart or gauge layer in an app draws.
final class Card: CALayer {
    var seed = 0

    /// A value in 0…1 from the card's seed and `k` (integer hash; the same in every run).
    func value(_ k: Int) -> CGFloat {
        var h = UInt32(truncatingIfNeeded: seed &* 0x9E37_79B9 &+ k &* 0x85EB_CA6B)
        h ^= h >> 15; h = h &* 0x2C1B_3C6D; h ^= h >> 12
        return CGFloat(h % 1000) / 999
    }

    override func draw(in ctx: CGContext) {
        drawCalls += 1
        let b = bounds
        // Panel.
        ctx.setFillColor(CGColor(red: 0.12, green: 0.14, blue: 0.18, alpha: 1))
        ctx.addPath(CGPath(roundedRect: b.insetBy(dx: 1, dy: 1), cornerWidth: 6, cornerHeight: 6, transform: nil))
        ctx.fillPath()
        // Bars.
        ctx.setFillColor(CGColor(red: 0.25, green: 0.6, blue: 0.95, alpha: 1))
        for i in 0..<8 {
            let h = 6 + value(i) * 30
            ctx.fill(CGRect(x: 6 + CGFloat(i) * 6, y: b.height - 6 - h, width: 4, height: h))
        }
        // Line chart.
        ctx.setStrokeColor(CGColor(red: 0.95, green: 0.7, blue: 0.2, alpha: 1))
        ctx.setLineWidth(1.5)
        ctx.setLineJoin(.round)
        ctx.move(to: CGPoint(x: 6, y: 20 - value(10) * 14))
        for i in 1..<10 { ctx.addLine(to: CGPoint(x: 6 + CGFloat(i) * 5, y: 20 - value(10 + i) * 14)) }
        ctx.strokePath()
        // Gauge: track, value arc, needle.
        let c = CGPoint(x: 78, y: 34), r: CGFloat = 15
        ctx.setLineWidth(4)
        ctx.setLineCap(.round)
        ctx.setStrokeColor(CGColor(red: 0.3, green: 0.32, blue: 0.36, alpha: 1))
        ctx.addArc(center: c, radius: r, startAngle: .pi * 0.75, endAngle: .pi * 2.25, clockwise: false)
        ctx.strokePath()
        let v = value(30)
        ctx.setStrokeColor(CGColor(red: 0.3, green: 0.85, blue: 0.45, alpha: 1))
        ctx.addArc(center: c, radius: r, startAngle: .pi * 0.75, endAngle: .pi * (0.75 + 1.5 * v), clockwise: false)
        ctx.strokePath()
        ctx.setLineWidth(1.5)
        ctx.setStrokeColor(CGColor(red: 1, green: 1, blue: 1, alpha: 1))
        ctx.move(to: c)
        let a = CGFloat.pi * (0.75 + 1.5 * v)
        ctx.addLine(to: CGPoint(x: c.x + cos(a) * (r - 4), y: c.y + sin(a) * (r - 4)))
        ctx.strokePath()
    }
}

func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[s.count / 2] }
func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) * 1e-6 }

let options = try CARenderer.Options(environment: ProcessInfo.processInfo.environment)
let renderer = try CARenderer(offscreenSize: CGSize(width: width, height: height), scale: scale, options: options)
let root = CALayer()
root.anchorPoint = .zero
root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
root.backgroundColor = CGColor(red: 0.05, green: 0.05, blue: 0.07, alpha: 1)
var cards: [Card] = []
for i in 0..<layerCount {
    let l = Card()
    l.seed = i
    l.contentsScale = scale
    let col = i % columns, row = i / columns
    l.frame = CGRect(x: CGFloat(col) * (CGFloat(width) - cardSize.width) / CGFloat(columns - 1),
                     y: CGFloat(row) * (CGFloat(height) - cardSize.height) / CGFloat(rows - 1),
                     width: cardSize.width, height: cardSize.height)
    l.setNeedsDisplay()
    root.addSublayer(l)
    cards.append(l)
}
renderer.layer = root

struct Sample { var commit = 0.0, render = 0.0, readback = 0.0, draws = 0, uploads = 0, bytes = 0 }

/// One frame: `redraw` layers call setNeedsDisplay (with new values), commit, render, read back.
@MainActor func frame(_ f: Int, redraw: Range<Int>) throws -> Sample {
    var s = Sample()
    drawCalls = 0
    let t0 = now()
    for i in redraw { cards[i].seed = i + 1000 * f; cards[i].setNeedsDisplay() }
    CATransaction.flush()
    let t1 = now()
    renderer.beginFrame(atTime: Double(f) / 60)
    try renderer.renderChecked()
    renderer.endFrame()
    let t2 = now()
    _ = try renderer.makeImage()
    let t3 = now()
    s.commit = t1 - t0; s.render = t2 - t1; s.readback = t3 - t2
    s.draws = drawCalls
    s.uploads = renderer.statistics.textureUploads
    s.bytes = renderer.statistics.textureUploadBytes
    return s
}

// The first frame draws all 1,000 and uploads them.
let first = try frame(0, redraw: 0..<0)
var samples: [Sample] = []
for f in 1...frames {
    let start = (f % (layerCount / redrawnPerFrame)) * redrawnPerFrame
    samples.append(try frame(f, redraw: start..<(start + redrawnPerFrame)))
}
var still: [Sample] = []
for f in 0..<max(3, frames / 4) { still.append(try frame(frames + 1 + f, redraw: 0..<0)) }

func report(_ name: String, _ xs: [Sample]) {
    let total = median(xs.map { $0.commit + $0.render + $0.readback })
    let f = { (v: Double) in String(format: "%.2f", v) }
    print("\(name): \(f(total)) ms/frame (commit+display \(f(median(xs.map(\.commit)))), render \(f(median(xs.map(\.render)))), "
          + "read-back \(f(median(xs.map(\.readback))))); draw(in:) \(median(xs.map { Double($0.draws) }).formatted()) a frame, "
          + "\(median(xs.map { Double($0.uploads) }).formatted()) texture uploads, \(Int(median(xs.map { Double($0.bytes) }))) bytes uploaded a frame")
}

let info = renderer.contextInfo
print("drawn-layers-benchmark: \(layerCount) layers of \(Int(cardSize.width))×\(Int(cardSize.height)) pt, \(redrawnPerFrame) redrawn a frame, "
      + "\(width)×\(height) at scale \(scale), \(frames) frames, \(info["renderer"] ?? "?")")
print("first frame (all \(layerCount) drawn): \(String(format: "%.2f", first.commit + first.render + first.readback)) ms, "
      + "draw(in:) \(first.draws), \(first.uploads) uploads, \(first.bytes) bytes")
report("drawn-layers 10 % redrawn", samples)
report("drawn-layers none redrawn", still)
let expected = redrawnPerFrame * Int(cardSize.width * scale) * Int(cardSize.height * scale) * 4
print("  (\(redrawnPerFrame) backing stores of \(Int(cardSize.width * scale))×\(Int(cardSize.height * scale)) RGBA8 = \(expected) bytes)")
