import Foundation
import Testing

/// One run over cases of the whole resvg test suite (`../shared/corpora/resvg-suite`, or
/// `CA_RESVG_SUITE`) under the corpus README's rule: each case rendered at its reference's size
/// over white passes when at most 1 % of its pixels differ by more than 32 in any channel.
///
/// A list of expected failures (`case<TAB>reason`) keeps the result honest both ways: a case that
/// fails without being listed is a regression, a listed case that passes must be removed from the
/// list. `CA_RECORD_CORPUS=1` rewrites the list instead; `CA_CORPUS_OUT=/dir` writes the renders;
/// `CA_CORPUS_ONLY=prefix` runs only the cases under a prefix.
struct ResvgSuiteRun {
    struct Outcome { var category: String; var passed: Bool; var reason: String }

    static let shared = SVGCorpusTests.repoRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora")

    static var suiteDir: URL? {
        let env = ProcessInfo.processInfo.environment["CA_RESVG_SUITE"]
        let candidates = [env.map { URL(fileURLWithPath: $0) }, shared.appendingPathComponent("resvg-suite"),
                          URL(fileURLWithPath: "/work/shared/corpora/resvg-suite")].compactMap { $0 }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("MANIFEST.tsv").path) }
    }

    static var fontsDir: URL? { TestFontConfiguration.directory }

    static var available: Bool { suiteDir != nil && fontsDir != nil }

    /// The cases whose name starts with one of `prefixes` (`"text/"`, `"filters/"` …).
    let prefixes: [String]
    /// The expected-failures list for these cases.
    let listURL: URL
    /// Names the run in messages ("SVG text corpus").
    let title: String

    /// Renders every selected case, prints the pass count and a table per category (the
    /// manifest's `category` column's first component), and records a test issue for every
    /// difference from the expected-failures list.
    func run() throws {
        let dir = Self.suiteDir!
        TestFontConfiguration.install()
        let manifest = try String(contentsOf: dir.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        var rows = manifest.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let header = rows.removeFirst()
        let (c, s, r) = (header.firstIndex(of: "case")!, header.firstIndex(of: "svg")!, header.firstIndex(of: "ref_png")!)
        // CA_CORPUS_ONLY=filters/feBlend narrows a run to the cases under that prefix (for
        // iterating; the list is checked only for the cases run, and not rewritten).
        let only = ProcessInfo.processInfo.environment["CA_CORPUS_ONLY"]
        let cases = rows.filter { row in
            row.count == header.count && prefixes.contains { row[c].hasPrefix($0) } && (only.map { row[c].hasPrefix($0) } ?? true)
        }
        var expected: [String: String] = [:]
        if let text = try? String(contentsOf: listURL, encoding: .utf8) {
            for line in text.split(separator: "\n").dropFirst() {
                let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
                if let name = parts.first { expected[name] = parts.count > 1 ? parts[1] : "" }
            }
        }
        let env = ProcessInfo.processInfo.environment
        let outDir = env["CA_CORPUS_OUT"].map { URL(fileURLWithPath: $0) }
        if let outDir { try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true) }
        let cache = SVGRenderCache()
        var outcomes: [(String, Outcome)] = []
        for row in cases {
            let name = row[c]
            let category = String(name.split(separator: "/").first ?? "")
            var reason = ""
            do {
                let ref = try CGImage(contentsOfPNGFile: dir.appendingPathComponent(row[r]).path)
                let doc = try SVGDocument(contentsOf: dir.appendingPathComponent(row[s]))
                let img = try cache.render(doc, pixelWidth: ref.width, pixelHeight: ref.height)
                if let outDir { try img.pngData()?.write(to: outDir.appendingPathComponent(name.replacingOccurrences(of: "/", with: "__") + ".png")) }
                let frac = SVGImageDiff.differingFraction(img, ref)
                if frac <= 0.01 { outcomes.append((name, Outcome(category: category, passed: true, reason: ""))); continue }
                let notes = doc.issues.filter { $0.kind != .invalidValue }.map(\.feature)
                reason = String(format: "%.1f%% of pixels differ", frac * 100) + (notes.isEmpty ? "" : "; reported: " + Array(Set(notes)).sorted().joined(separator: ", "))
            } catch {
                reason = "error: \(error)"
            }
            outcomes.append((name, Outcome(category: category, passed: false, reason: reason)))
        }
        print(Self.table(outcomes.map(\.1), title: title))
        let failures = outcomes.filter { !$0.1.passed }
        if env["CA_RECORD_CORPUS"] == "1", only == nil {
            var text = "case\treason\n"
            for (name, o) in failures.sorted(by: { $0.0 < $1.0 }) { text += "\(name)\t\(o.reason)\n" }
            try text.write(to: listURL, atomically: true, encoding: .utf8)
            return
        }
        let failing = Set(failures.map(\.0))
        for (name, o) in failures.sorted(by: { $0.0 < $1.0 }) where expected[name] == nil {
            Issue.record("\(title) regression: \(name) fails (\(o.reason))")
        }
        for name in expected.keys.sorted() where !failing.contains(name) && cases.contains(where: { $0[c] == name }) {
            Issue.record("\(title): \(name) now passes; remove it from \(listURL.lastPathComponent)")
        }
    }

    /// "category  passed/total  percent" per category and overall, as docs/SVG.md keeps it.
    static func table(_ outcomes: [Outcome], title: String) -> String {
        var byCategory: [String: (Int, Int)] = [:]
        for o in outcomes { byCategory[o.category, default: (0, 0)].0 += o.passed ? 1 : 0; byCategory[o.category, default: (0, 0)].1 += 1 }
        func row(_ name: String, _ p: Int, _ t: Int) -> String {
            name.padding(toLength: 16, withPad: " ", startingAt: 0) + String(format: "%4d/%-4d %5.1f%%", p, t, Double(p) / Double(max(1, t)) * 100)
        }
        var lines = ["\(title): cases passing per category"]
        for (name, pt) in byCategory.sorted(by: { $0.key < $1.key }) { lines.append(row(name, pt.0, pt.1)) }
        let passed = outcomes.filter(\.passed).count
        lines.append(row("all", passed, outcomes.count))
        return lines.joined(separator: "\n")
    }
}
