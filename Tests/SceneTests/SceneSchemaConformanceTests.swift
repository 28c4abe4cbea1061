import Testing
import Foundation

/// Every scene shipped in Scenes/ validates against the published JSON Schema
/// (docs/scene.schema.json, draft 2020-12), checked by a small validator of the keywords the
/// schema uses (Support/MiniJSONSchema.swift), and documents may name the schema with `$schema`.
@Suite struct SceneSchemaConformanceTests {
    static let schemaText = try! String(contentsOf: Repo.root.appendingPathComponent("docs/scene.schema.json"), encoding: .utf8)

    static var sceneFiles: [URL] {
        let base = Repo.root.appendingPathComponent("Scenes")
        let e = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
        return (e?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
    }

    @Test func everySceneInScenesValidatesAgainstTheSchema() throws {
        let schema = try MiniJSONSchema(Self.schemaText)
        let files = Self.sceneFiles
        #expect(files.count >= 10, "Scenes/ holds the examples, the demo and the bench scenes")
        for url in files {
            let doc = try JSONParser.parse([UInt8](try Data(contentsOf: url)), maxDepth: 512).value
            let v = schema.violations(of: doc)
            #expect(v.isEmpty, "\(url.lastPathComponent): \(v.prefix(5))")
        }
    }

    /// The validator is not vacuous: a member the format lacks, a wrong type and a missing
    /// required member are each found.
    @Test func theSchemaRejectsWhatTheFormatRejects() throws {
        let schema = try MiniJSONSchema(Self.schemaText)
        func violations(_ json: String) throws -> [String] { schema.violations(of: try JSONParser.parse(Array(json.utf8), maxDepth: 64).value) }
        #expect(try violations(doc()).isEmpty)
        #expect(try !violations(doc(extra: #""sizee": [1, 1]"#)).isEmpty)
        #expect(try !violations(doc(root: #"{"bounds": [0, 0, 100, 100], "opacity": "half"}"#)).isEmpty)
        #expect(try !violations(#"{"format": "ca-scene", "version": 1, "duration": 1, "root": {}}"#).isEmpty)
    }

    /// `$schema` (how editors find the schema) is accepted by the schema and by the reader.
    @Test func schemaMemberIsAccepted() throws {
        let json = doc(extra: #""$schema": "https://github.com/core-animation-linux/scene.schema.json""#)
        let schema = try MiniJSONSchema(Self.schemaText)
        #expect(schema.violations(of: try JSONParser.parse(Array(json.utf8), maxDepth: 64).value).isEmpty)
        #expect(problems(json).isEmpty)
        #expect(problems(doc(extra: #""$schema": 3"#)).map(\.path) == ["$schema"])
    }
}
