import Foundation
import QuartzCore

// Text benchmark (issue 20 "Must show"): ms per 1920×1080 frame of
//   glyphs:   10,000 glyphs (50 CATextLayers of 200 characters at 14 px, 21 px apart) whose text
//             changes every frame;
//   fontsize: 100 CATextLayers ("Label 00"…"Label 99", a 10×10 grid of 192×108 cells), each
//             animating fontSize 10 → 40 (duration 2 s + 0.01 s × index, autoreversed, repeating);
// each drawn through the backing store (`CARenderer.Options.usesGlyphAtlas` off) and through the
// glyph atlas (the default), next to Skia drawing the same text in the same run
// (peers/skia_text.py, skia-python's CPU raster backend). Usage:
//   swift run -c release --package-path tools/benchmarks text-benchmark [FRAMES] [glyphs|fontsize…] [--no-peers]
// A frame is: the strings changed (glyphs) and the transaction committed (the layers'
// `display()` runs there), the frame rendered and read back into memory (`makeImage`).
// Prints `text <scene> <path>: X ms/frame (commit C, render+readback R)` and, unless
// --no-peers, `peer skia-<scene>: X ms/frame; engine/skia = R×` for each path.
// CA_BACKEND picks the backend (docs/CARENDER.md); FONT_FILE the font (default: the test
// corpus's Noto Sans, else Liberation Sans).

var args = Array(CommandLine.arguments.dropFirst())
let withPeers = !args.contains("--no-peers")
args.removeAll { $0 == "--no-peers" }
let frames = args.first.flatMap(Int.init) ?? 10
var scenes = args.filter { Int($0) == nil }
if scenes.isEmpty { scenes = ["glyphs", "fontsize"] }
let width = 1920, height = 1080

let fontFile: String = {
    if let f = ProcessInfo.processInfo.environment["FONT_FILE"] { return f }
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let candidates = [repo.deletingLastPathComponent().appendingPathComponent("shared/corpora/fonts/NotoSans-Regular.ttf").path,
                      "/work/shared/corpora/fonts/NotoSans-Regular.ttf",
                      "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
                      "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"]
    return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? candidates[2]
}()
guard let data = FileManager.default.contents(atPath: fontFile),
      let cgFont = CGFont(CGDataProvider(data: data as CFData)!) else {
    FileHandle.standardError.write("text-benchmark: cannot read the font \(fontFile)\n".data(using: .utf8)!)
    exit(1)
}

// The text, as peers/skia_text.py makes it.
let words = ["Core", "Animation", "renders", "text", "with", "glyph", "quads", "from", "an", "atlas",
             "every", "frame", "changes", "the", "string", "0123456789"]
let source = Array((words.joined(separator: " ") + " ").utf8)
let lines = 50, chars = 200
/// Characters [start, start + 200) of the word list repeated, start = (frame × 7 + line × 13)
/// mod its length.
func textLine(_ frame: Int, _ line: Int) -> String {
    let start = (frame * 7 + line * 13) % source.count
    var out = [UInt8]()
    out.reserveCapacity(chars)
    for k in 0..<chars { out.append(source[(start + k) % source.count]) }
    return String(decoding: out, as: UTF8.self)
}

func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[s.count / 2] }
func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) * 1e-6 }

func textLayer(_ string: String, size: CGFloat, frame: CGRect) -> CATextLayer {
    let l = CATextLayer()
    l.anchorPoint = .zero
    l.position = frame.origin
    l.bounds = CGRect(origin: .zero, size: frame.size)
    l.font = cgFont
    l.fontSize = size
    l.foregroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    l.string = string
    return l
}

/// Median ms per frame (and its commit and render+readback parts) of `frames` frames after
/// one warm-up frame.
func run(scene: String, glyphAtlas: Bool) throws -> (total: Double, commit: Double, render: Double) {
    var options = try CARenderer.Options(environment: ProcessInfo.processInfo.environment)
    options.usesGlyphAtlas = glyphAtlas
    let r = try CARenderer(offscreenSize: CGSize(width: width, height: height), scale: 1, options: options)
    let root = CALayer()
    root.anchorPoint = .zero
    root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
    var textLayers: [CATextLayer] = []
    if scene == "glyphs" {
        for i in 0..<lines {
            let l = textLayer(textLine(0, i), size: 14, frame: CGRect(x: 0, y: Double(i) * 21, width: Double(width), height: 21))
            root.addSublayer(l)
            textLayers.append(l)
        }
    } else {
        for k in 0..<100 {
            let l = textLayer(String(format: "Label %02d", k), size: 10,
                              frame: CGRect(x: Double(k % 10) * 192, y: Double(k / 10) * 108, width: 192, height: 108))
            let a = CABasicAnimation(keyPath: "fontSize")
            a.fromValue = 10
            a.toValue = 40
            a.duration = 2 + 0.01 * Double(k)
            a.autoreverses = true
            a.repeatCount = .infinity
            l.add(a, forKey: "size")
            root.addSublayer(l)
        }
    }
    r.layer = root
    CATransaction.flush()
    var totals: [Double] = [], commits: [Double] = [], renders: [Double] = []
    for f in 0...frames {
        let t0 = now()
        if scene == "glyphs" { for (i, l) in textLayers.enumerated() { l.string = textLine(f, i) } }
        CATransaction.flush()
        let t1 = now()
        r.beginFrame(atTime: Double(f) / 60)
        try r.renderChecked()
        r.endFrame()
        _ = try r.makeImage()
        let t2 = now()
        if f > 0 { totals.append(t2 - t0); commits.append(t1 - t0); renders.append(t2 - t1) }
    }
    return (median(totals), median(commits), median(renders))
}

func skia(_ scene: String) -> Double? {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("peers/skia_text.py")
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = [ProcessInfo.processInfo.environment["PYTHON"] ?? "python3", script.path, fontFile, "\(max(3, frames))", scene]
    let pipe = Pipe()
    p.standardOutput = pipe
    do { try p.run() } catch { print("  peer skia: could not run \(script.path): \(error)"); return nil }
    let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    for line in out.split(separator: "\n") where line.hasPrefix("peer skia-") {
        let parts = line.split(separator: " ")
        if parts.count >= 3, let ms = Double(parts[2]) { return ms }
    }
    print("  peer skia: no result (pip install skia-python; peers/skia_text.py)")
    return nil
}

print("text-benchmark: \(width)×\(height), \(frames) frames, font \(fontFile)")
for scene in scenes {
    let peer = withPeers ? skia(scene) : nil
    for atlas in [false, true] {
        let m = try run(scene: scene, glyphAtlas: atlas)
        let path = atlas ? "glyph-atlas" : "backing-store"
        print("text \(scene) \(path): \(String(format: "%.2f", m.total)) ms/frame (commit \(String(format: "%.2f", m.commit)), render+readback \(String(format: "%.2f", m.render)))")
        if let peer {
            print("  peer skia-\(scene): \(String(format: "%.2f", peer)) ms/frame; engine/skia = \(String(format: "%.2f", m.total / peer))×")
        }
    }
}
