import CAScene
import Foundation

/// Template values (`--set keyPath=value`, `--values file.json`, a `--batch` row) applied to a
/// scene's JSON before it is loaded, so one scene renders many variants and every property the
/// format knows can be changed; the loader then checks the result like any scene file.
///
/// A key path is `NAME.member…`: NAME is a layer's `name` (the first in depth-first order,
/// through sublayers, masks and replicated instances alike), `root` for the root layer, or a
/// member of the document itself (`duration`, `framesPerSecond`, `size`); members are dotted,
/// array elements `[i]` (`card.sublayers[0].opacity`). The last member is replaced or added.
/// A value is JSON when it parses as JSON (`0.5`, `[10, 20]`, `true`, `"text"`), else the
/// text itself (`#ff0000`, `Hello`).
struct SceneOverrides: Equatable {
    var entries: [(keyPath: String, value: JSONValue)] = []

    static func == (a: SceneOverrides, b: SceneOverrides) -> Bool { a.entries.map(\.keyPath) == b.entries.map(\.keyPath) }

    var isEmpty: Bool { entries.isEmpty }

    /// `keyPath=value` from `--set`.
    mutating func add(assignment: String) throws {
        guard let eq = assignment.firstIndex(of: "="), eq != assignment.startIndex else {
            throw CLIError.usage("--set \(assignment): expected keyPath=value, e.g. title.string=Hello or card.backgroundColor=#ff0000")
        }
        add(keyPath: String(assignment[..<eq]), text: String(assignment[assignment.index(after: eq)...]))
    }

    mutating func add(keyPath: String, text: String) {
        let value = (try? JSONParser.parse(Array(text.utf8), maxDepth: 64).value) ?? .string(text)
        entries.append((keyPath, value))
    }

    /// `--values file.json`: an object of key paths and JSON values.
    mutating func add(valuesFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("--values \(path): cannot be read") }
        guard data.count <= 16 << 20 else { throw CLIError("--values \(path): more than 16 MiB") }
        let node: JSONNode
        do { node = try JSONParser.parse([UInt8](data), maxDepth: 64) } catch {
            throw CLIError("--values \(path):\(error.line):\(error.column): malformed JSON: \(error.message)")
        }
        guard case .object(let members) = node.value else {
            throw CLIError("--values \(path): expected an object of key paths and values, e.g. {\"title.string\": \"Hello\"}")
        }
        for m in members { entries.append((m.key, m.value.value)) }
    }

    /// The scene JSON with every entry applied in order.
    func apply(to data: Data, source: String) throws -> Data {
        var doc: JSONValue
        do { doc = try JSONParser.parse([UInt8](data), maxDepth: 512).value } catch {
            throw CLIError("\(source):\(error.line):\(error.column): malformed JSON: \(error.message)")
        }
        for (keyPath, value) in entries {
            let steps = try Self.steps(keyPath)
            guard let first = steps.first, case .member(let head) = first else {
                throw CLIError.usage("--set \(keyPath): a key path starts with a layer name, root, or a scene member")
            }
            var applied = false
            if head != "root", case .object(let top) = doc, top.contains(where: { $0.key == head }) {
                applied = Self.set(&doc, steps[...], to: value)
            } else if case .object(var top) = doc, let i = top.firstIndex(where: { $0.key == "root" }) {
                var root = top[i].value.value
                if head == "root" {
                    applied = Self.set(&root, steps.dropFirst(), to: value)
                } else {
                    applied = Self.setInLayer(named: head, &root, steps.dropFirst(), to: value)
                }
                top[i].value.value = root
                doc = .object(top)
            }
            guard applied else {
                throw CLIError.usage("--set \(keyPath): no layer named \(head) (and no such scene member); key paths start with a layer's name, root, or duration/size/framesPerSecond")
            }
        }
        return Data(JSONWriter.write(doc).utf8)
    }

    enum Step: Equatable { case member(String), index(Int) }

    static func steps(_ keyPath: String) throws -> [Step] {
        var out: [Step] = []
        for part in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
            var p = Substring(part)
            var name = p.prefix { $0 != "[" }
            p = p.dropFirst(name.count)
            if !name.isEmpty { out.append(.member(String(name))) }
            while p.hasPrefix("[") {
                guard let close = p.firstIndex(of: "]"), let i = Int(p[p.index(after: p.startIndex)..<close]), i >= 0 else {
                    throw CLIError.usage("--set \(keyPath): an index is [0], [1], …")
                }
                out.append(.index(i))
                p = p[p.index(after: close)...]
            }
            guard p.isEmpty, !(name.isEmpty && out.isEmpty) else { throw CLIError.usage("--set \(keyPath): not a key path (e.g. title.string)") }
            name = ""
        }
        guard !out.isEmpty else { throw CLIError.usage("--set \(keyPath): empty key path") }
        return out
    }

    /// Sets the value at `steps` inside `v`; false when a step does not exist (an index out of
    /// range, a member of a non-object). The last member is created when missing.
    static func set(_ v: inout JSONValue, _ steps: ArraySlice<Step>, to value: JSONValue) -> Bool {
        guard let step = steps.first else { v = value; return true }
        switch (step, v) {
        case (.member(let k), .object(var members)):
            if let i = members.firstIndex(where: { $0.key == k }) {
                var child = members[i].value.value
                guard set(&child, steps.dropFirst(), to: value) else { return false }
                members[i].value.value = child
            } else {
                guard steps.count == 1 else { return false }
                members.append((key: k, value: JSONNode(value)))
            }
            v = .object(members)
            return true
        case (.index(let i), .array(var items)):
            guard i < items.count else { return false }
            var child = items[i].value
            guard set(&child, steps.dropFirst(), to: value) else { return false }
            items[i].value = child
            v = .array(items)
            return true
        default:
            return false
        }
    }

    /// Finds the first layer object named `name` under `layer` (depth first through every
    /// member that holds layers) and sets `steps` in it.
    static func setInLayer(named name: String, _ layer: inout JSONValue, _ steps: ArraySlice<Step>, to value: JSONValue) -> Bool {
        guard case .object(var members) = layer else { return false }
        if members.contains(where: { $0.key == "name" && { if case .string(name) = $0.value.value { true } else { false } }($0) }) {
            return set(&layer, steps, to: value)
        }
        for i in members.indices {
            var child = members[i].value.value
            var found = false
            switch child {
            case .object: found = setInLayer(named: name, &child, steps, to: value)
            case .array(var items):
                for j in items.indices where !found {
                    var item = items[j].value
                    if setInLayer(named: name, &item, steps, to: value) { items[j].value = item; found = true }
                }
                child = .array(items)
            default: break
            }
            if found {
                members[i].value.value = child
                layer = .object(members)
                return true
            }
        }
        return false
    }
}
