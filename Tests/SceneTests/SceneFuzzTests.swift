import Testing
import Foundation

/// Property-based fuzzing of the scene loader: seeded mutations of the corpus
/// (Tests/SceneTests/Corpus, Scenes/examples, the demo). Whatever the input, loading returns a
/// scene or throws a `SceneLoadError` whose problems all have a message and a location; it
/// never crashes or hangs. CI runs a few hundred inputs; set CA_SCENE_FUZZ_ITERATIONS (and
/// CA_SCENE_FUZZ_SEED) for a longer session. A failing input is saved to
/// .build/scene-fuzz-failure.json.
@Suite struct SceneFuzzTests {
    typealias SeededGenerator = SplitMix64

    static var seeds: [[UInt8]] {
        var urls: [URL] = []
        for dir in [Repo.corpus, Repo.scenes.appendingPathComponent("examples")] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            urls += names.filter { $0.hasSuffix(".json") }.sorted().map { dir.appendingPathComponent($0) }
        }
        urls.append(Repo.scenes.appendingPathComponent("demo/scene.json"))
        return urls.compactMap { try? [UInt8](Data(contentsOf: $0)) }
    }

    static let tokens: [String] = ["{", "}", "[", "]", ",", ":", "\"", "null", "true", "-", "0", "1e308", "-1e308", "1e-320",
                                   "4294967297", "\"infinity\"", "\"../x.png\"", "\"/etc/passwd\"", "\"\\ud800\"", "\"x-\"",
                                   "{\"class\": \"CATextLayer\"}", "[[[[[[", "]]]]]]", "\"sublayers\": [{}]", "\u{FEFF}"]
    static let keys: [String] = ["class", "name", "bounds", "position", "frame", "transform", "opacity", "backgroundColor",
                                 "sublayers", "mask", "animations", "keyPath", "values", "keyTimes", "path", "fromValue",
                                 "toValue", "duration", "repeatCount", "speed", "contents", "colors", "locations", "shadowPath",
                                 "transactions", "changes", "layer", "set", "addAnimation", "addSublayer", "time", "size",
                                 "scale", "framesPerSecond", "version", "timingFunctions", "timingFunction", "type", "subtype",
                                 "maskedCorners", "mass", "stiffness", "damping", "valueFunction", "calculationMode", "filters",
                                 "backgroundFilters", "compositingFilter", "filter", "inputRadius", "inputColor"]

    func randomValue(_ g: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0..<10, using: &g) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &g))
        case 2: return .number([0, -1, 1, 0.5, 1e308, -1e308, 5e-324, 4294967296, 1e15, 16384, 100000, 3600.5].randomElement(using: &g)!)
        case 3: return .number(Double.random(in: -1000...1000, using: &g))
        case 4: return .string(["", "infinity", "#fff", "#12345678", "M 0 0 L 1 1 Z", "M 1e308 1e308 C 0 0 0 0 0 0", "../x.png",
                                "checker.png", "easeIn", "CAGradientLayer", "CASpringAnimation", "position", "transform.rotation.z",
                                "discrete", "push", String(repeating: "x", count: 300)].randomElement(using: &g)!)
        case 5, 6:
            guard depth < 4 else { return .number(1) }
            return .array((0..<Int.random(in: 0..<5, using: &g)).map { _ in JSONNode(randomValue(&g, depth: depth + 1)) })
        default:
            guard depth < 4 else { return .string("leaf") }
            return .object((0..<Int.random(in: 0..<4, using: &g)).map { _ in
                (Self.keys.randomElement(using: &g)!, JSONNode(randomValue(&g, depth: depth + 1)))
            })
        }
    }

    /// Replaces, deletes, renames or duplicates a random node of the tree.
    func mutateTree(_ v: JSONValue, _ g: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        let stop = depth > 12 || Int.random(in: 0..<4, using: &g) == 0
        switch v {
        case .array(var items) where !items.isEmpty && !stop:
            let i = Int.random(in: 0..<items.count, using: &g)
            switch Int.random(in: 0..<4, using: &g) {
            case 0: items.remove(at: i)
            case 1: items.append(items[i])
            default: items[i].value = mutateTree(items[i].value, &g, depth: depth + 1)
            }
            return .array(items)
        case .object(var members) where !members.isEmpty && !stop:
            let i = Int.random(in: 0..<members.count, using: &g)
            switch Int.random(in: 0..<5, using: &g) {
            case 0: members.remove(at: i)
            case 1: members[i].key = Self.keys.randomElement(using: &g)!
            case 2: members.append((Self.keys.randomElement(using: &g)!, JSONNode(randomValue(&g))))
            default: members[i].value.value = mutateTree(members[i].value.value, &g, depth: depth + 1)
            }
            return .object(members)
        case .number(let d) where Bool.random(using: &g):
            // Same type, other value: explores the valid space as well as the invalid one.
            return .number([d * 2, -d, d + 1, 0, d / 3, d * 1e6].randomElement(using: &g)!)
        case .bool(let b) where Bool.random(using: &g):
            return .bool(!b)
        default:
            return randomValue(&g)
        }
    }

    func mutateBytes(_ b: [UInt8], _ g: inout SeededGenerator) -> [UInt8] {
        var b = b
        for _ in 0..<Int.random(in: 1...4, using: &g) {
            let i = b.isEmpty ? 0 : Int.random(in: 0..<b.count, using: &g)
            switch Int.random(in: 0..<5, using: &g) {
            case 0 where !b.isEmpty: b[i] = UInt8.random(in: 0...255, using: &g)
            case 1: b.insert(contentsOf: Array(Self.tokens.randomElement(using: &g)!.utf8), at: i)
            case 2 where !b.isEmpty: b.removeSubrange(i..<min(b.count, i + Int.random(in: 1...16, using: &g)))
            case 3 where !b.isEmpty: b = Array(b.prefix(i))
            default:
                let j = b.isEmpty ? 0 : Int.random(in: 0..<b.count, using: &g)
                b.insert(contentsOf: b[min(i, j)..<max(i, j)].prefix(256), at: i)
            }
        }
        return b
    }

    @Test func mutatedScenesNeverCrashAndAlwaysExplain() throws {
        let env = ProcessInfo.processInfo.environment
        let iterations = Int(env["CA_SCENE_FUZZ_ITERATIONS"] ?? "") ?? 400
        let seed = UInt64(env["CA_SCENE_FUZZ_SEED"] ?? "") ?? 1
        var g = SeededGenerator(state: seed)
        let seeds = Self.seeds
        try #require(seeds.count >= 5)
        // Images referenced by the corpus resolve here.
        let base = Repo.scenes.appendingPathComponent("examples")
        var loaded = 0, rejected = 0
        let start = Date()
        for n in 0..<iterations {
            let original = seeds[Int.random(in: 0..<seeds.count, using: &g)]
            var input: [UInt8]
            if Bool.random(using: &g), let tree = try? JSONParser.parse(original, maxDepth: 1000) {
                var v = tree.value
                for _ in 0..<Int.random(in: 1...3, using: &g) { v = mutateTree(v, &g) }
                input = Array(JSONWriter.write(v).utf8)
            } else {
                input = mutateBytes(original, &g)
            }
            do {
                _ = try SceneFile.load(data: Data(input), baseDirectory: base)
                loaded += 1
            } catch let e as SceneLoadError {
                rejected += 1
                let bad = e.problems.isEmpty || e.problems.contains { $0.message.isEmpty || ($0.path.isEmpty && $0.line == nil && !$0.message.contains("limit") && !$0.message.contains("more than")) }
                if bad {
                    try? Data(input).write(to: Repo.root.appendingPathComponent(".build/scene-fuzz-failure.json"))
                    Issue.record("seed \(seed), input \(n): a problem without message or location: \(e.problems.prefix(3))")
                }
            } catch {
                try? Data(input).write(to: Repo.root.appendingPathComponent(".build/scene-fuzz-failure.json"))
                Issue.record("seed \(seed), input \(n): threw \(type(of: error)), not SceneLoadError: \(error)")
            }
        }
        let seconds = Date().timeIntervalSince(start)
        print("scene fuzz: \(iterations) inputs (seed \(seed)): \(loaded) loaded, \(rejected) rejected, \(String(format: "%.2f", seconds)) s")
        #expect(rejected > 0)
        #expect(loaded > 0)
    }
}
