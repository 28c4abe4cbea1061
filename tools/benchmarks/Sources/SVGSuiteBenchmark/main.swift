import Foundation
import QuartzCore
import CASVG

// The resvg suite's render time (issue 24 "Must show": "the whole resvg suite's render time next
// to resvg"): every case of ../shared/corpora/resvg-suite (MANIFEST.tsv) read, imported
// (`SVGDocument`), rendered at its reference PNG's size over white, read back and written as a
// PNG — what `carender` does for one SVG, all in one process (one renderer per size, as the
// corpus tests keep them) — timed as a whole; then the `resvg` CLI (the resvg-cli wheel) on the
// same files, one process per file as its CLI works, in the same run. Usage:
//   swift run -c release --package-path tools/benchmarks svg-suite-benchmark [SUITE_DIR] [--no-peers]
// SUITE_DIR defaults to $CA_RESVG_SUITE, else ../shared/corpora/resvg-suite beside the repo, else
// /work/shared/corpora/resvg-suite. Text cases need the corpus fonts: run with FONTCONFIG_FILE
// naming a configuration of ../shared/corpora/fonts (docs/SVG.md), and resvg gets
// --use-fonts-dir on that folder with --skip-system-fonts. PNGs go to a temporary folder.
// Prints `svg-suite carender: N files in X s (Y ms/file)`, `svg-suite resvg: …` and the ratio.

var args = Array(CommandLine.arguments.dropFirst())
let withPeers = !args.contains("--no-peers")
args.removeAll { $0 == "--no-peers" }
let env = ProcessInfo.processInfo.environment
let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let suite: URL = {
    if let a = args.first { return URL(fileURLWithPath: a) }
    if let e = env["CA_RESVG_SUITE"] { return URL(fileURLWithPath: e) }
    let beside = repo.deletingLastPathComponent().appendingPathComponent("shared/corpora/resvg-suite")
    if FileManager.default.fileExists(atPath: beside.path) { return beside }
    return URL(fileURLWithPath: "/work/shared/corpora/resvg-suite")
}()
let fonts = suite.deletingLastPathComponent().appendingPathComponent("fonts")

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) * 1e-9 }

guard let manifest = try? String(contentsOf: suite.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8) else {
    FileHandle.standardError.write("svg-suite-benchmark: no MANIFEST.tsv in \(suite.path)\n".data(using: .utf8)!)
    exit(1)
}
let rows = manifest.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
guard let header = rows.first, let sCol = header.firstIndex(of: "svg"), let rCol = header.firstIndex(of: "ref_png") else { exit(1) }
let cases = rows.dropFirst().filter { $0.count == header.count }.map { (svg: $0[sCol], ref: $0[rCol]) }
let out = FileManager.default.temporaryDirectory.appendingPathComponent("svg-suite-benchmark-\(getpid())")
try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: out) }

// Reference sizes first (not timed): both sides render at the same pixel size.
var sizes: [(Int, Int)] = []
for c in cases {
    let ref = try? CGImage(contentsOfPNGFile: suite.appendingPathComponent(c.ref).path)
    sizes.append((ref?.width ?? 200, ref?.height ?? 200))
}

var renderers: [String: CARenderer] = [:]
var failed = 0
let t0 = now()
for (i, c) in cases.enumerated() {
    do {
        let doc = try SVGDocument(contentsOf: suite.appendingPathComponent(c.svg))
        let (pw, ph) = sizes[i]
        let scale = CGFloat(pw) / doc.size.width
        let size = CGSize(width: doc.size.width, height: CGFloat(ph) / scale)
        let key = "\(size.width)x\(size.height)@\(scale)"
        let r: CARenderer
        if let cached = renderers[key] { r = cached } else {
            r = try CARenderer(offscreenSize: size, scale: scale)
            r.clearColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            renderers[key] = r
        }
        r.layer = doc.layer
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        r.endFrame()
        r.layer = nil
        let img = try r.makeImage()
        try img.pngData()?.write(to: out.appendingPathComponent("ca-\(i).png"))
    } catch { failed += 1 }
}
let ours = now() - t0
print("svg-suite-benchmark: \(cases.count) files of \(suite.path)")
print("svg-suite carender: \(cases.count) files in \(String(format: "%.2f", ours)) s (\(String(format: "%.2f", ours * 1000 / Double(cases.count))) ms/file, \(failed) failed)")

if withPeers {
    let resvg = env["RESVG"] ?? "resvg"
    var peerFailed = 0
    func resvgRun(_ a: [String]) -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [resvg] + a
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return -1 }
        p.waitUntilExit()
        return p.terminationStatus
    }
    if resvgRun(["--version"]) != 0 {
        print("  peer resvg: not found (pip install --break-system-packages resvg_cli-*.whl, or RESVG=path)")
    } else {
        // One process per file: the spawn's own cost, measured on `--version`, reported apart.
        let s0 = now()
        for _ in 0..<20 { _ = resvgRun(["--version"]) }
        let spawn = (now() - s0) / 20
        let t1 = now()
        for (i, c) in cases.enumerated() {
            let (pw, ph) = sizes[i]
            var a = [suite.appendingPathComponent(c.svg).path, out.appendingPathComponent("resvg-\(i).png").path,
                     "-w", "\(pw)", "-h", "\(ph)", "--background", "white",
                     "--resources-dir", suite.appendingPathComponent(c.svg).deletingLastPathComponent().path]
            if FileManager.default.fileExists(atPath: fonts.path) { a += ["--use-fonts-dir", fonts.path, "--skip-system-fonts"] }
            if resvgRun(a) != 0 { peerFailed += 1 }
        }
        let theirs = now() - t1
        let net = theirs - spawn * Double(cases.count)
        print("  peer resvg: \(cases.count) files in \(String(format: "%.2f", theirs)) s (\(String(format: "%.2f", theirs * 1000 / Double(cases.count))) ms/file, \(peerFailed) failed); less \(String(format: "%.1f", spawn * 1000)) ms of process start per file: \(String(format: "%.2f", net)) s")
        print("  carender/resvg = \(String(format: "%.2f", ours / theirs))× (with resvg's process starts), \(String(format: "%.2f", ours / max(net, 1e-9)))× (without)")
    }
}
