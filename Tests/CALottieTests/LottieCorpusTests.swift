import Testing
import Foundation

/// The lottie-ios corpus (`../shared/corpora/lottie-ios`, or `CA_LOTTIE_CORPUS`) inside
/// `swift test`, with the rule of `tools/lottie-corpus.sh` (docs/LOTTIE.md): every
/// `coreAnimation` snapshot of its MANIFEST rendered at the snapshot's pixel size and frame
/// (the composition fitted and centred, scale 1), both images composited on white and blurred
/// (Gaussian σ = 2 px, as Pillow's `GaussianBlur(2)`: three extended box passes), passing when
/// at most 1.5 % of pixels differ by more than 32 in any channel.
///
/// By default one snapshot per sample runs (27 of 127: the whole set takes more than ten
/// minutes in a debug build on two cores); `CA_LOTTIE_CORPUS_ALL=1` runs all of them.
/// `lottie-corpus-expected-failures.tsv` lists the snapshots that fail; the test fails when
/// another fails or a listed one passes. `CA_RECORD_CORPUS=1` rewrites the list;
/// `CA_CORPUS_OUT=/dir` writes the renderings. Skipped when the corpus is absent.
@Suite struct LottieCorpusTests {
    static let listURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("lottie-corpus-expected-failures.tsv")

    static var corpusDir: URL? {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [ProcessInfo.processInfo.environment["CA_LOTTIE_CORPUS"].map { URL(fileURLWithPath: $0) },
                          repo.deletingLastPathComponent().appendingPathComponent("shared/corpora/lottie-ios"),
                          URL(fileURLWithPath: "/work/shared/corpora/lottie-ios")].compactMap { $0 }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("MANIFEST.tsv").path) }
    }

    @Test(.enabled(if: corpusDir != nil, "lottie-ios corpus not found (../shared/corpora/lottie-ios or CA_LOTTIE_CORPUS)"))
    func coreAnimationSnapshotsMatch() throws {
        let dir = try #require(Self.corpusDir)
        let manifest = try String(contentsOf: dir.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        var rows = manifest.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let header = rows.removeFirst()
        let env = ProcessInfo.processInfo.environment
        func col(_ name: String) throws -> Int { try #require(header.firstIndex(of: name)) }
        let (sample, snapshot, engine, frame, pw, ph) = (try col("sample"), try col("snapshot"), try col("engine"),
                                                         try col("frame"), try col("px_w"), try col("px_h"))
        let all = rows.filter { $0.count == header.count && $0[engine] == "coreAnimation" }
        // The whole set (127 snapshots) takes more than ten minutes in a debug build on two
        // cores; by default one snapshot per sample (its half-way one, else its first) runs,
        // CA_LOTTIE_CORPUS_ALL=1 runs them all (tools/lottie-corpus.sh always does).
        let cases: [[String]]
        if env["CA_LOTTIE_CORPUS_ALL"] == "1" {
            cases = all
        } else {
            var bySample: [String: [String]] = [:]
            for row in all {
                if bySample[row[sample]] == nil || row[snapshot].hasSuffix("-50.png") { bySample[row[sample]] = row }
            }
            cases = bySample.values.sorted { $0[snapshot] < $1[snapshot] }
        }
        var expected: [String: String] = [:]
        if let text = try? String(contentsOf: Self.listURL, encoding: .utf8) {
            for line in text.split(separator: "\n").dropFirst() {
                let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
                if let name = parts.first { expected[name] = parts.count > 1 ? parts[1] : "" }
            }
        }
        let outDir = env["CA_CORPUS_OUT"].map { URL(fileURLWithPath: $0) }
        if let outDir { try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true) }
        var animations: [String: LottieAnimation] = [:]
        var failures: [(String, String)] = []
        for row in cases {
            let name = String(URL(fileURLWithPath: row[snapshot]).deletingPathExtension().lastPathComponent
                .dropFirst("testCoreAnimationRenderingEngine.".count))
            do {
                let ref = try CGImage(contentsOfPNGFile: dir.appendingPathComponent(row[snapshot]).path)
                let w = Int(row[pw]) ?? 0, h = Int(row[ph]) ?? 0
                let anim = try animations[row[sample]] ?? LottieAnimation(filepath: dir.appendingPathComponent(row[sample]).path)
                animations[row[sample]] = anim
                let img = try render(anim, frame: Double(row[frame]) ?? 0, size: CGSize(width: w, height: h))
                if let outDir { try img.pngData()?.write(to: outDir.appendingPathComponent(name + ".png")) }
                let frac = LottieImageDiff.blurredDifferingFraction(img, ref)
                if frac > 0.015 { failures.append((name, String(format: "%.1f%% of pixels differ", frac * 100))) }
            } catch {
                failures.append((name, "error: \(error)"))
            }
        }
        print("lottie corpus (swift test): \(cases.count - failures.count) of \(cases.count) coreAnimation snapshots pass")
        if env["CA_RECORD_CORPUS"] == "1" {
            var text = "snapshot\treason\n"
            for (name, reason) in failures.sorted(by: { $0.0 < $1.0 }) { text += "\(name)\t\(reason)\n" }
            try text.write(to: Self.listURL, atomically: true, encoding: .utf8)
            return
        }
        let failing = Set(failures.map(\.0))
        for (name, reason) in failures.sorted(by: { $0.0 < $1.0 }) where expected[name] == nil {
            Issue.record("Lottie corpus regression: \(name) fails (\(reason))")
        }
        let ran = Set(cases.map { String(URL(fileURLWithPath: $0[snapshot]).deletingPathExtension().lastPathComponent
            .dropFirst("testCoreAnimationRenderingEngine.".count)) })
        for name in expected.keys.sorted() where !failing.contains(name) && ran.contains(name) {
            Issue.record("Lottie corpus: \(name) now passes; remove it from \(Self.listURL.lastPathComponent)")
        }
    }
}

/// The corpus comparison of `tools/lottie-corpus.py`, in Swift.
enum LottieImageDiff {
    /// The fraction of pixels differing by more than 32 in any channel after both images are
    /// composited on white and blurred with σ = 2 px; 1 when the sizes differ.
    static func blurredDifferingFraction(_ a: CGImage, _ b: CGImage) -> Double {
        guard a.width == b.width, a.height == b.height, a.width > 0, a.height > 0 else { return 1 }
        let x = blur(onWhite(a), a.width, a.height), y = blur(onWhite(b), b.width, b.height)
        var bad = 0
        for i in stride(from: 0, to: x.count, by: 3) where abs(Int(x[i]) - Int(y[i])) > 32
            || abs(Int(x[i + 1]) - Int(y[i + 1])) > 32 || abs(Int(x[i + 2]) - Int(y[i + 2])) > 32 { bad += 1 }
        return Double(bad) / Double(a.width * a.height)
    }

    /// Premultiplied RGBA8 over white → RGB8.
    static func onWhite(_ img: CGImage) -> [UInt8] {
        let s = img.rgba8Bytes
        var out = [UInt8](repeating: 255, count: img.width * img.height * 3)
        var j = 0
        for i in stride(from: 0, to: s.count, by: 4) {
            let inv = 255 - Int(s[i + 3])
            out[j] = UInt8(min(255, Int(s[i]) + inv))
            out[j + 1] = UInt8(min(255, Int(s[i + 1]) + inv))
            out[j + 2] = UInt8(min(255, Int(s[i + 2]) + inv))
            j += 3
        }
        return out
    }

    /// Pillow's Gaussian blur: three passes of a box blur whose fractional radius gives the
    /// variance σ² / 3 each (Gwosdek et al., "Theoretical foundations of Gaussian convolution
    /// by extended box filtering"), edges extended, horizontally then vertically.
    static func blur(_ rgb: [UInt8], _ w: Int, _ h: Int, sigma: Double = 2, passes: Int = 3) -> [UInt8] {
        let s2 = sigma * sigma / Double(passes)
        let L = (12 * s2 + 1).squareRoot()
        let l = ((L - 1) / 2).rounded(.down)
        let a = (2 * l + 1) * (l * (l + 1) - 3 * s2) / (6 * (s2 - (l + 1) * (l + 1)))
        let r = Int(l), frac = a, norm = 1 / (2 * (l + a) + 1)
        var buf = rgb.map(Float.init)
        var tmp = buf
        // One line (`length` values `step` apart from `base`) through the sliding box, read from
        // a scratch copy padded by r + 1 edge values on each side, so the loop has no clamps
        // (this runs on a million values per image in a debug build).
        let pad = r + 1
        var line = [Float](repeating: 0, count: max(w, h) + 2 * pad)
        let fa = Float(frac), fn = Float(norm)
        func pass(_ src: UnsafePointer<Float>, _ dst: UnsafeMutablePointer<Float>, _ scratch: UnsafeMutablePointer<Float>,
                  base: Int, step: Int, length: Int) {
            var i = 0
            while i < length { scratch[pad + i] = src[base + i * step]; i += 1 }
            let first = scratch[pad], last = scratch[pad + length - 1]
            i = 0
            while i < pad { scratch[i] = first; scratch[pad + length + i] = last; i += 1 }
            var sum: Float = 0
            var k = pad - r
            while k <= pad + r { sum += scratch[k]; k += 1 }
            i = 0
            while i < length {
                let c = pad + i
                dst[base + i * step] = (sum + fa * (scratch[c - r - 1] + scratch[c + r + 1])) * fn
                if i + 1 < length { sum += scratch[c + r + 1] - scratch[c - r] }
                i += 1
            }
        }
        func run(count: Int, base: (Int) -> Int, step: Int, length: Int) {
            buf.withUnsafeBufferPointer { src in
                tmp.withUnsafeMutableBufferPointer { dst in
                    line.withUnsafeMutableBufferPointer { scratch in
                        for l in 0..<count {
                            for c in 0..<3 {
                                pass(src.baseAddress!, dst.baseAddress!, scratch.baseAddress!, base: base(l) + c, step: step, length: length)
                            }
                        }
                    }
                }
            }
            swap(&buf, &tmp)
        }
        for _ in 0..<passes { run(count: h, base: { $0 * w * 3 }, step: 3, length: w) }
        for _ in 0..<passes { run(count: w, base: { $0 * 3 }, step: w * 3, length: h) }
        return buf.map { UInt8(min(max($0.rounded(), 0), 255)) }
    }
}
