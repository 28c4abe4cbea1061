import ArgumentParser
import Foundation

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check scene and SVG files and print every problem with its location.",
        discussion: """
        Takes any number of files and glob patterns (quoted patterns are expanded by carender: 'Scenes/**/*.json' is not, 'Scenes/*/*.json' is). The kind of each file is told by its extension and content: a scene (.json, docs/SCENE-FORMAT.md), an SVG (.svg), a Lottie animation (.lottie, or .json with Lottie's top-level members).

        Prints one line per finding on stdout, in the form compilers use, which editors and CI annotate:
          FILE:LINE:COLUMN: error: json.path: message
          FILE:LINE:COLUMN: warning: not reproduced: message
        (line and column 1 when the finding has no place in the file). Errors are problems that stop the file from loading; warnings are what the renderer does not reproduce as Apple does (found by building the frames at five times across the scene) and what an SVG import approximates. A file without findings prints "FILE: valid" unless --quiet.

        Exit status by the worst finding: 0 none or only warnings (1 with --strict), 1 an error, 2 a usage error.

        Examples:
          carender validate scene.json
          carender validate 'Scenes/examples/*.json' icon.svg
          carender validate --strict --quiet scenes/*.json
        """)

    @Argument(help: "Files or glob patterns: scenes (.json), SVGs (.svg), Lottie (.lottie / .json).")
    var files: [String] = []

    @Flag(help: "Let scenes use images outside their folder.")
    var allowOutsideImages = false

    @Flag(help: "Print nothing for a valid file.")
    var quiet = false

    @Flag(help: "Warnings fail too (exit status 1).")
    var strict = false

    func run() throws {
        try CLI.run {
            guard !files.isEmpty else { throw CLIError.usage("validate: give one or more files or glob patterns") }
            var errors = 0, warnings = 0
            for file in Self.expand(files) {
                let findings: [Finding]
                if let pattern = file.unmatched {
                    findings = [Finding(file: pattern, severity: .error, message: "no file matches this pattern")]
                } else {
                    findings = Validators.findings(for: file.path, options: .init(allowOutsideImages: allowOutsideImages))
                }
                if findings.isEmpty, !quiet { print("\(file.path): valid") }
                for f in findings {
                    print(f.text)
                    if f.severity == .error { errors += 1 } else { warnings += 1 }
                }
            }
            if errors > 0 || (strict && warnings > 0) {
                throw CLIError("\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
            }
        }
    }

    struct Expanded { var path: String; var unmatched: String? = nil }

    /// Each argument as given, or, when it holds glob characters (`*`, `?`, `[`) and names no
    /// file as it is, the files it matches (glob(3), sorted), or itself as unmatched.
    static func expand(_ arguments: [String]) -> [Expanded] {
        var out: [Expanded] = []
        for a in arguments {
            guard a.contains(where: { "*?[".contains($0) }), !FileManager.default.fileExists(atPath: a) else {
                out.append(Expanded(path: a)); continue
            }
            var g = glob_t()
            defer { globfree(&g) }
            guard glob(a, 0, nil, &g) == 0, g.gl_pathc > 0 else { out.append(Expanded(path: a, unmatched: a)); continue }
            for i in 0..<Int(g.gl_pathc) { if let p = g.gl_pathv[i] { out.append(Expanded(path: String(cString: p))) } }
        }
        return out
    }
}
