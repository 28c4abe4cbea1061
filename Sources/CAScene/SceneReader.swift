import CoreText

/// Shared state of one load: the problems found so far, the options, counters for the limits.
/// Readers report a problem and return nil instead of throwing, so one pass collects every
/// problem in the file.
final class SceneReader {
    let options: SceneLoadOptions
    var limits: SceneLimits { options.limits }
    /// The folder image paths are relative to; nil when there is none (a scene decoded
    /// without `CodingUserInfoKey.sceneDirectory`): image contents are then a problem.
    let baseDirectory: URL?
    private(set) var problems: [SceneProblem] = []
    /// Problems beyond this are dropped (a hostile file could otherwise produce millions).
    static let maxProblems = 1000
    var layerCount = 0
    var animationCount = 0
    var changeCount = 0
    /// Named layers, for scheduled changes to find (several layers may share a name).
    var layersByName: [String: [CALayer]] = [:]
    /// Decoded images by resolved file path.
    var images: [String: CGImage] = [:]
    /// Loaded font files by resolved path (`SceneReader+Text.swift`).
    var fonts: [String: CGFont] = [:]
    /// Limits already reported once (so a 200 000-layer file gives one "too many layers").
    var reportedLimits: Set<String> = []
    /// What the file has spent of each whole-file budget (`SceneLimits.maxTotal…`).
    var imagePixelTotal = 0
    var keyframeTotal = 0
    var pathElementTotal = 0

    init(options: SceneLoadOptions, baseDirectory: URL?) {
        self.options = options
        self.baseDirectory = baseDirectory
    }

    func problem(_ path: String, _ message: String, line: Int? = nil, column: Int? = nil) {
        guard problems.count < Self.maxProblems else { return }
        // Line 0: the JSON came through a `Decoder`, which knows no lines.
        problems.append(SceneProblem(path: path, message: message, line: line.flatMap { $0 > 0 ? $0 : nil },
                                     column: column.flatMap { $0 > 0 ? $0 : nil }))
        if problems.count == Self.maxProblems {
            problems.append(SceneProblem(path: "", message: "more than \(Self.maxProblems) problems; the rest are not listed"))
        }
    }

    func problem(_ path: String, _ node: JSONNode, _ message: String) {
        problem(path, message, line: node.line, column: node.column)
    }

    /// Reports a limit once per load (a 200 000-layer file gives one problem, not 100 000);
    /// returns false when `value` exceeds `limit`.
    @discardableResult
    func within(_ value: Int, _ limit: Int, _ what: String, limitName: String, _ path: String, line: Int?) -> Bool {
        guard value > limit else { return true }
        if reportedLimits.insert(limitName + what).inserted {
            problem(path, "more than \(limit) \(what) (limit \(limitName))", line: line)
        }
        return false
    }

    /// Adds `amount` to a whole-file budget; false (reported once) when the sum goes over it.
    func spend(_ amount: Int, from total: inout Int, _ limit: Int, _ what: String, limitName: String, _ path: String, line: Int?) -> Bool {
        let (sum, overflow) = total.addingReportingOverflow(max(0, amount))
        total = overflow ? .max : sum
        return within(total, limit, what, limitName: limitName, path, line: line)
    }
}

/// Reads an object's members by name, remembering which were read so that `finish()` can
/// report unknown members (anything not read and not an `x-` extension) and duplicates.
final class ObjectReader {
    let path: String
    let node: JSONNode
    let members: [(key: String, value: JSONNode)]
    private var used: Set<String> = []
    private unowned let reader: SceneReader

    /// Nil (with a problem reported) when `node` is not an object.
    init?(_ node: JSONNode, path: String, _ reader: SceneReader, what: String = "an object") {
        guard case .object(let m) = node.value else {
            reader.problem(path, node, "expected \(what), found \(node.value.typeName)")
            return nil
        }
        self.node = node
        self.path = path
        self.members = m
        self.reader = reader
    }

    /// Marks every member read: for an object whose own problem makes its members moot.
    func markAllUsed() { for m in members { used.insert(m.key) } }

    func has(_ key: String) -> Bool { members.contains { $0.key == key } }

    /// The member's value (nil when absent), marking it read.
    subscript(_ key: String) -> JSONNode? {
        used.insert(key)
        return members.first { $0.key == key }?.value
    }

    /// `path.key` for problems about a member.
    func at(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Reports members that were not read (unknown names) unless they start with `x-`, and
    /// members given twice. `allowed` lists valid names for the message.
    func finish(_ context: String) {
        var seen: Set<String> = []
        for (k, v) in members {
            if !seen.insert(k).inserted {
                reader.problem(at(k), v, "given more than once")
                continue
            }
            if used.contains(k) || k.hasPrefix("x-") { continue }
            reader.problem(at(k), v, "unknown field for \(context) (extensions must start with \"x-\")")
        }
    }
}

/// `path[i]`.
func indexPath(_ path: String, _ i: Int) -> String { "\(path)[\(i)]" }
