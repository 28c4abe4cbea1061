/// One thing wrong with a scene file: where (a JSON path such as
/// `root.sublayers[3].animations[0].keyTimes`, plus the line in the file when known) and what.
/// Not Apple API: part of this project's scene-file format (docs/SCENE-FORMAT.md).
public struct SceneProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// Dotted JSON path of the offending value (`transactions[2].changes[0].layer`); empty for
    /// problems of the file as a whole (unreadable, not JSON).
    public var path: String
    /// One sentence saying what is wrong, e.g. `4 values for 3 keyframes`.
    public var message: String
    /// 1-based line of the value in the file, when the problem comes from parsed JSON.
    public var line: Int?
    /// 1-based column (in bytes) of the value on its line, when known; with `line`, what
    /// `carender validate` prints as `file:line:column:` for editors and CI.
    public var column: Int?

    public init(path: String, message: String, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.message = message
        self.line = line
        self.column = column
    }

    /// `path: message` (`path (line N): message` when the line is known).
    public var description: String {
        let at = line.map { " (line \($0))" } ?? ""
        if path.isEmpty { return line.map { "line \($0): \(message)" } ?? message }
        return "\(path)\(at): \(message)"
    }
}

/// Thrown by `SceneFile.load`: every problem found in the file, not only the first.
public struct SceneLoadError: Error, Sendable, CustomStringConvertible {
    public var problems: [SceneProblem]

    public init(problems: [SceneProblem]) { self.problems = problems }

    /// One problem per line.
    public var description: String {
        switch problems.count {
        case 0: return "scene could not be loaded"
        case 1: return problems[0].description
        default: return "\(problems.count) problems:\n" + problems.map { "  \($0)" }.joined(separator: "\n")
        }
    }
}

/// Thrown by `SceneFile.encode` when a live layer tree holds something the format cannot say
/// (a `CATextLayer`, a filter, contents that are not a `CGImage`, a delegate-drawn layer …).
public struct SceneEncodingError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public init(path: String, message: String) { self.path = path; self.message = message }
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
