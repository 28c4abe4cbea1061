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
    static var fontsDir: URL? { ResvgSuiteRun.fontsDir }
    static var available: Bool { ResvgSuiteRun.available }

    @Test(.enabled(if: available, "resvg suite or its fonts not found (../shared/corpora/resvg-suite, fonts)"))
    func textCasesMatchReferences() throws {
        try ResvgSuiteRun(prefixes: ["text/"], listURL: Self.listURL, title: "SVG text corpus").run()
    }
}
