import Testing
import Foundation

/// The `text/` cases of the whole resvg test suite (`../shared/corpora/resvg-suite`, or
/// `CA_RESVG_SUITE`), with the suite's fonts (`../shared/corpora/fonts`) as the only fonts
/// fontconfig sees and the suite's generic families (serif Noto Serif, sans-serif Noto Sans,
/// monospace Noto Mono, cursive Yellowtail, fantasy Sedgwick Ave Display). Each case is rendered
/// at its reference's size over white; it passes when at most 1 % of its pixels differ by more
/// than 32 in any channel (the corpus README's rule, as `SVGCorpusTests`).
///
/// `text-corpus-expected-failures.tsv` lists the cases that still fail; the test fails when
/// another case fails or a listed one passes. `CA_RECORD_CORPUS=1` rewrites the list;
/// `CA_CORPUS_OUT=/dir` writes the renderings. Skipped without the corpus or the fonts.
@Suite struct SVGTextCorpusTests {
    static let listURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("text-corpus-expected-failures.tsv")
    static let shared = SVGCorpusTests.repoRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora")

    static var suiteDir: URL? {
        let env = ProcessInfo.processInfo.environment["CA_RESVG_SUITE"]
        let candidates = [env.map { URL(fileURLWithPath: $0) }, shared.appendingPathComponent("resvg-suite"),
                          URL(fileURLWithPath: "/work/shared/corpora/resvg-suite")].compactMap { $0 }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("MANIFEST.tsv").path) }
    }

    static var fontsDir: URL? {
        [shared.appendingPathComponent("fonts"), URL(fileURLWithPath: "/work/shared/corpora/fonts")]
            .first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("NotoSans-Regular.ttf").path) }
    }

    static var available: Bool { suiteDir != nil && fontsDir != nil }

    @Test(.enabled(if: available, "resvg suite or its fonts not found (../shared/corpora/resvg-suite, fonts)"))
    func textCasesMatchReferences() throws {
        let dir = Self.suiteDir!
        SVGTestFonts.useSuiteFonts(Self.fontsDir!)
        let manifest = try String(contentsOf: dir.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        var rows = manifest.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let header = rows.removeFirst()
        let (c, s, r) = (header.firstIndex(of: "case")!, header.firstIndex(of: "svg")!, header.firstIndex(of: "ref_png")!)
        let cases = rows.filter { $0.count == header.count && $0[c].hasPrefix("text/") }
        var expected: [String: String] = [:]
        if let text = try? String(contentsOf: Self.listURL, encoding: .utf8) {
            for line in text.split(separator: "\n").dropFirst() {
                let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
                if let name = parts.first { expected[name] = parts.count > 1 ? parts[1] : "" }
            }
        }
        let env = ProcessInfo.processInfo.environment
        let outDir = env["CA_CORPUS_OUT"].map { URL(fileURLWithPath: $0) }
        if let outDir { try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true) }
        let cache = SVGRenderCache()
        var failures: [(String, String)] = []
        var passed = 0
        for row in cases {
            let name = row[c]
            var reason = ""
            do {
                let ref = try CGImage(contentsOfPNGFile: dir.appendingPathComponent(row[r]).path)
                let doc = try SVGDocument(data: try Data(contentsOf: dir.appendingPathComponent(row[s])))
                let img = try cache.render(doc, pixelWidth: ref.width, pixelHeight: ref.height)
                if let outDir { try img.pngData()?.write(to: outDir.appendingPathComponent(name.replacingOccurrences(of: "/", with: "__") + ".png")) }
                let frac = SVGImageDiff.differingFraction(img, ref)
                if frac <= 0.01 { passed += 1; continue }
                let notes = doc.issues.filter { $0.kind != .invalidValue }.map(\.feature)
                reason = String(format: "%.1f%% of pixels differ", frac * 100) + (notes.isEmpty ? "" : "; reported: " + notes.joined(separator: ", "))
            } catch {
                reason = "error: \(error)"
            }
            failures.append((name, reason))
        }
        print(String(format: "SVG text corpus: %d/%d cases pass (%.1f%%)", passed, cases.count, Double(passed) / Double(max(1, cases.count)) * 100))
        if env["CA_RECORD_CORPUS"] == "1" {
            var text = "case\treason\n"
            for (name, reason) in failures.sorted(by: { $0.0 < $1.0 }) { text += "\(name)\t\(reason)\n" }
            try text.write(to: Self.listURL, atomically: true, encoding: .utf8)
            return
        }
        let failing = Set(failures.map(\.0))
        for (name, reason) in failures.sorted(by: { $0.0 < $1.0 }) where expected[name] == nil {
            Issue.record("SVG text corpus regression: \(name) fails (\(reason))")
        }
        for name in expected.keys.sorted() where !failing.contains(name) && cases.contains(where: { $0[c] == name }) {
            Issue.record("SVG text corpus: \(name) now passes; remove it from text-corpus-expected-failures.tsv")
        }
    }
}
