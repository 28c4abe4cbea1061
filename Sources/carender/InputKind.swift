import Foundation
import CAScene
import CASVG

/// The kinds of input file carender reads, told by extension and, for `.json`, by content: a
/// Lottie animation is JSON too (its top level has `v`, `fr`/`op` and `layers`).
enum InputKind: String, CaseIterable {
    case scene, svg, lottie

    static func of(path: String) -> InputKind {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "svg": return .svg
        case "lottie": return .lottie
        case "json": return looksLikeLottie(path) ? .lottie : .scene
        default: return .scene
        }
    }

    /// Lottie's required top-level members (bodymovin's schema: `v` version, `fr` frame rate,
    /// `ip`/`op` in and out points, `w`/`h`, `layers`); a scene has `format: "ca-scene"`.
    static func looksLikeLottie(_ path: String) -> Bool {
        guard let h = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? h.close() }
        let head = String(decoding: (try? h.read(upToCount: 1 << 16)) ?? Data(), as: UTF8.self)
        if head.contains("\"ca-scene\"") { return false }
        return head.contains("\"layers\"") && head.contains("\"v\"") && (head.contains("\"fr\"") || head.contains("\"op\""))
    }
}

/// One thing `validate` reports, printed `file:line:column: error|warning: message` (the
/// form compilers use, which editors and CI annotate); line and column are 1 when unknown.
struct Finding: Equatable {
    enum Severity: String, Comparable {
        case warning, error
        static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
    }
    var file: String
    var line: Int?
    var column: Int?
    var severity: Severity
    var message: String

    var text: String { "\(file):\(line ?? 1):\(column ?? 1): \(severity.rawValue): \(message)" }
}

/// How each kind of file is checked: one entry per `InputKind`. A kind without an entry is
/// reported as not supported by this build. (Lottie import plugs in here with one line:
/// `.lottie: { path, options in … }`.)
enum Validators {
    struct Options { var allowOutsideImages: Bool }
    typealias Check = (_ path: String, _ options: Options) -> [Finding]

    nonisolated(unsafe) static var table: [InputKind: Check] = [
        .scene: sceneFindings,
        .svg: svgFindings,
        .lottie: LottieInput.findings,
    ]

    static func findings(for path: String, options: Options) -> [Finding] {
        let kind = InputKind.of(path: path)
        guard let check = table[kind] else {
            return [Finding(file: path, severity: .error, message: "\(kind.rawValue) files are not supported by this build of carender")]
        }
        return check(path, options)
    }

    /// A scene file: every problem (error) with its line and column, then, when it loads,
    /// everything the renderer does not reproduce (warnings).
    static func sceneFindings(_ path: String, _ options: Options) -> [Finding] {
        let problems = (try? SceneInput.validateProblems(path, allowOutsideImages: options.allowOutsideImages)) ?? []
        if !problems.isEmpty {
            return problems.map { p in
                Finding(file: path, line: p.line, column: p.column, severity: .error,
                        message: p.path.isEmpty ? p.message : "\(p.path): \(p.message)")
            }
        }
        let source: SceneSource
        do { source = try SceneInput.load(path: path, allowOutsideImages: options.allowOutsideImages) } catch {
            let message = "\(error)"
            return [Finding(file: path, severity: .error, message: message.hasPrefix(path + ": ") ? String(message.dropFirst(path.count + 2)) : message)]
        }
        return SceneGaps.list(source).map { Finding(file: path, severity: .warning, message: "not reproduced: \($0)") }
    }

    /// An SVG file: a document that cannot be imported is an error (at the XML parser's line
    /// and column when malformed); every feature imported inexactly is a warning.
    static func svgFindings(_ path: String, _ options: Options) -> [Finding] {
        do {
            let doc = try SVGDocument(contentsOf: URL(fileURLWithPath: path))
            return doc.issues.map { Finding(file: path, severity: .warning, message: "\($0)") }
        } catch let SVGError.malformedXML(message, line, column) {
            return [Finding(file: path, line: line, column: column, severity: .error, message: "malformed XML: \(message)")]
        } catch {
            return [Finding(file: path, severity: .error, message: "\(error)")]
        }
    }
}
