import Testing
import Foundation

/// docs/scene.schema.json is the JSON Schema the reader's own tables generate
/// (`SceneFile.jsonSchemaText`), and every example scene keeps to it.
@Suite struct SceneJSONSchemaTests {
    static let url = Repo.root.appendingPathComponent("docs/scene.schema.json")

    /// With `CA_WRITE_SCENE_SCHEMA=1` the test (re)writes the file instead.
    @Test func committedSchemaIsTheGeneratedOne() throws {
        let text = SceneFile.jsonSchemaText
        if ProcessInfo.processInfo.environment["CA_WRITE_SCENE_SCHEMA"] == "1" {
            try Data(text.utf8).write(to: Self.url)
        }
        let committed = try String(contentsOf: Self.url, encoding: .utf8)
        #expect(committed == text, "docs/scene.schema.json is stale: run CA_WRITE_SCENE_SCHEMA=1 swift test --filter SceneJSONSchemaTests")
        // It is JSON, and names every layer class and class-only member it should.
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let layer = try #require((schema["$defs"] as? [String: Any])?["layer"] as? [String: Any])
        let props = try #require(layer["properties"] as? [String: Any])
        let classes = try #require((props["class"] as? [String: Any])?["enum"] as? [String])
        #expect(Set(classes).isSuperset(of: ["CALayer", "CAGradientLayer", "CAShapeLayer", "CATransformLayer", "CAScrollLayer"]))
        for member in ["scrollMode", "colors", "path", "shouldRasterize", "rasterizationScale", "sublayers"] {
            #expect(props[member] != nil, "schema lacks \(member)")
        }
    }

    /// The layer members of every example (and the demo) are in the schema, and each class-only
    /// member appears only on a layer of its class.
    @Test func examplesKeepToTheSchema() throws {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(SceneFile.jsonSchemaText.utf8)) as? [String: Any])
        let layer = try #require((schema["$defs"] as? [String: Any])?["layer"] as? [String: Any])
        let props = Set(try #require(layer["properties"] as? [String: Any]).keys)
        var classOf: [String: String] = [:]
        for rule in layer["allOf"] as? [[String: Any]] ?? [] {
            if let field = ((rule["if"] as? [String: Any])?["required"] as? [String])?.first,
               let cls = ((((rule["then"] as? [String: Any])?["properties"] as? [String: Any])?["class"]) as? [String: Any])?["const"] as? String {
                classOf[field] = cls
            }
        }
        #expect(classOf["scrollMode"] == "CAScrollLayer" && classOf["colors"] == "CAGradientLayer")
        func check(_ l: [String: Any], _ where_: String) {
            let cls = l["class"] as? String ?? "CALayer"
            for key in l.keys where !key.hasPrefix("x-") {
                #expect(props.contains(key), "\(where_): \(key) not in the schema")
                if let only = classOf[key] { #expect(only == cls, "\(where_): \(key) on a \(cls)") }
            }
            for (i, s) in (l["sublayers"] as? [[String: Any]] ?? []).enumerated() { check(s, "\(where_).sublayers[\(i)]") }
            if let m = l["mask"] as? [String: Any] { check(m, "\(where_).mask") }
        }
        var checked = 0
        for url in SceneExamplesTests.exampleFiles + [Repo.scenes.appendingPathComponent("demo/scene.json")] {
            let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            let root = try #require(doc["root"] as? [String: Any])
            check(root, url.lastPathComponent)
            checked += 1
        }
        #expect(checked >= 6)
    }
}
