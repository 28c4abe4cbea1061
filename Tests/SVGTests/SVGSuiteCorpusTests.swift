import Testing
import Foundation

/// Every non-text case of the whole resvg test suite (`../shared/corpora/resvg-suite`: filters,
/// masking, paint-servers, painting, shapes, structure; text has `SVGTextCorpusTests`), under the
/// corpus README's rule (at most 1 % of pixels differ by more than 32 over white). The run prints
/// the pass table per category that docs/SVG.md keeps (`tools/svg-suite.sh` prints it for all
/// seven categories). `suite-corpus-expected-failures.tsv` lists the cases that still fail, each
/// with its measured difference and what the import reported; the test fails when another case
/// fails or a listed one passes (`CA_RECORD_CORPUS=1` rewrites the list).
@Suite struct SVGSuiteCorpusTests {
    static let listURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("suite-corpus-expected-failures.tsv")

    @Test(.enabled(if: ResvgSuiteRun.available, "resvg suite or its fonts not found (../shared/corpora/resvg-suite, fonts)"))
    func nonTextCasesMatchReferences() throws {
        try ResvgSuiteRun(prefixes: ["filters/", "masking/", "paint-servers/", "painting/", "shapes/", "structure/"],
                          listURL: Self.listURL, title: "SVG suite corpus").run()
    }
}
