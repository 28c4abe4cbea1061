import Testing
import Foundation

/// Every example in the repository and every JSON example in docs/SCENE-FORMAT.md loads.
@Suite struct SceneExamplesTests {
    static var exampleFiles: [URL] {
        let dir = Repo.scenes.appendingPathComponent("examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { dir.appendingPathComponent($0) }
    }

    @Test func exampleFilesLoad() throws {
        #expect(Self.exampleFiles.count >= 4)
        for url in Self.exampleFiles + [Repo.scenes.appendingPathComponent("demo/scene.json")] {
            #expect(SceneFile.validate(contentsOf: url) == [], "\(url.lastPathComponent)")
        }
        let tx = try SceneFile.load(contentsOf: Repo.scenes.appendingPathComponent("examples/transactions.json"))
        #expect(tx.transactions.count == 3 && tx.frameCount == 90)
        let layers = try SceneFile.load(contentsOf: Repo.scenes.appendingPathComponent("examples/layers.json"))
        #expect(layers.rootLayer.sublayers?.last?.contents is CGImage)
    }

    /// The ```json blocks of the format document: whole documents load as they are; the
    /// `transactions` and animation fragments load inside a small document; blocks with "…"
    /// (elided) are skipped.
    @Test func documentationExamplesLoad() throws {
        let text = try String(contentsOf: Repo.root.appendingPathComponent("docs/SCENE-FORMAT.md"), encoding: .utf8)
        let blocks = text.components(separatedBy: "```json\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        var checked = 0
        for block in blocks where !block.contains("…") {
            let trimmed = block.trimmingCharacters(in: .whitespacesAndNewlines)
            let json: String
            if trimmed.contains("\"format\"") {
                json = trimmed
            } else if trimmed.hasPrefix("\"transactions\"") {
                json = doc(root: #"{"sublayers": [{"name": "box"}, {"name": "panel"}]}"#, extra: trimmed)
            } else if trimmed.hasPrefix("{\"class\"") {
                json = doc(root: #"{"sublayers": [\#(trimmed)]}"#)
            } else if trimmed.hasPrefix("{\"key\"") {
                json = doc(root: #"{"animations": [\#(trimmed)]}"#)
            } else {
                Issue.record("unrecognised example block: \(trimmed.prefix(60))")
                continue
            }
            #expect(problems(json) == [], "\(trimmed.prefix(80))")
            checked += 1
        }
        #expect(checked >= 3)
    }

    /// The fuzz corpus: `invalid*.json` files fail with problems, the others load (images
    /// resolve against Scenes/examples, as in the fuzz test).
    @Test func corpusFilesLoadOrFailAsNamed() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Repo.corpus.path).filter { $0.hasSuffix(".json") }
        #expect(names.count >= 3)
        for name in names {
            let data = try String(contentsOf: Repo.corpus.appendingPathComponent(name), encoding: .utf8)
            let p = problems(data, base: Repo.scenes.appendingPathComponent("examples"))
            if name.hasPrefix("invalid") { #expect(p.count >= 8, "\(name): \(p)") } else { #expect(p == [], "\(name)") }
        }
    }
}
