import Testing
import Foundation

/// docs/ARCHITECTURE.md's module table must name exactly the package's modules: a target added
/// to Package.swift without a row, or a row left behind for a module that is gone, fails here.
/// Both files are read in place (#filePath), as text: no build of the package is needed.
@Suite struct ArchitectureTableTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ relative: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    }

    /// The names of Package.swift's targets other than test targets:
    /// `.target(name:`, `.executableTarget(name:`, `.systemLibrary(name:` and the like.
    static func packageModules(_ manifest: String) -> Set<String> {
        var names: Set<String> = []
        let pattern = /\.(\w+)\(\s*name:\s*"([^"]+)"/
        for match in manifest.matches(of: pattern) {
            let kind = String(match.1)
            guard kind.hasSuffix("arget") || kind == "systemLibrary" || kind == "binaryTarget" || kind == "plugin",
                  kind != "testTarget" else { continue }
            names.insert(String(match.2))
        }
        return names
    }

    /// The module names in the first column of the table under "## Modules" (each in
    /// backticks; one row may name several).
    static func tableModules(_ architecture: String) -> Set<String> {
        var names: Set<String> = []
        var inSection = false
        for line in architecture.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { inSection = line == "## Modules"; continue }
            guard inSection, line.hasPrefix("|") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            guard cells.count > 2 else { continue }
            let first = cells[1]
            for match in first.matches(of: /`([^`]+)`/) { names.insert(String(match.1)) }
        }
        return names
    }

    @Test func theParsersSeeWhatTheyShould() {
        let manifest = """
            .target(name: "A", dependencies: ["B"]),
            .systemLibrary(name: "CB", path: "x"),
            .executableTarget(
                name: "tool", dependencies: []),
            .testTarget(name: "ATests"),
            .library(name: "A", targets: ["A"]),
            """
        #expect(Self.packageModules(manifest) == ["A", "CB", "tool"])
        let doc = """
            ## Modules

            | module | holds | depends on |
            |---|---|---|
            | `A` | the `Thing` | `B` |
            | `CB`, `tool` | shims | — |

            ## Next
            | `Other` | not the table | |
            """
        #expect(Self.tableModules(doc) == ["A", "CB", "tool"])
    }

    @Test func everyTargetHasARowAndEveryRowATarget() throws {
        let targets = Self.packageModules(try Self.text("Package.swift"))
        let rows = Self.tableModules(try Self.text("docs/ARCHITECTURE.md"))
        #expect(targets.count >= 10, "Package.swift's targets were not found: \(targets)")
        let missing = targets.subtracting(rows).sorted()
        let stale = rows.subtracting(targets).sorted()
        #expect(missing.isEmpty, "targets in Package.swift without a row in docs/ARCHITECTURE.md's module table: \(missing)")
        #expect(stale.isEmpty, "rows in docs/ARCHITECTURE.md's module table naming no target of Package.swift: \(stale)")
    }
}
