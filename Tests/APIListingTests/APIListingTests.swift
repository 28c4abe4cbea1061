import Foundation
import Testing

/// The checked-in listing of the public API (issue 16, docs/API.md): `api/<Module>.txt`, one
/// line per public symbol, regenerated here from the built modules with the toolchain's
/// `swift-symbolgraph-extract` (`-minimum-access-level public`). A difference fails the test
/// with the lines added and removed; `CA_WRITE_API_LISTING=1 swift test --filter
/// APIListingTests` rewrites the listing instead, to be reviewed and committed with the change.
///
/// Each module is listed by what it declares itself (re-exported modules have their own file),
/// so the files together are everything `import QuartzCore` and the other library products
/// bring, and the modules that hold only `package` machinery list nothing.
@Suite struct APIListingTests {
    /// The modules a library product's user can see: the products and what they re-export
    /// or depend on.
    static let modules = [
        "CoreGraphics", "CoreText", "CoreAnimation", "CAFrame", "CARender", "CAOpenGL", "CASurfaces", "QuartzCore",
        "CASVG", "CAScene", "CAWindow", "UIKitCompat", "CADemoScenes", "ImageIO", "CoreImage",
        "CALottie",
    ]

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("api/*.txt matches the public symbols of the built modules")
    func listingMatchesBuiltModules() throws {
        let env = ProcessInfo.processInfo.environment
        let rewrite = env["CA_WRITE_API_LISTING"] == "1"
        let build = try BuildLocation.find(packageRoot: Self.packageRoot)
        let listings = try SymbolGraphExtractor(build: build, packageRoot: Self.packageRoot).listings(of: Self.modules)
        let apiDirectory = Self.packageRoot.appendingPathComponent("api")

        for module in Self.modules {
            let file = apiDirectory.appendingPathComponent("\(module).txt")
            let actual = listings[module] ?? []
            if rewrite {
                try FileManager.default.createDirectory(at: apiDirectory, withIntermediateDirectories: true)
                try APIListing.render(module: module, lines: actual).write(to: file, atomically: true, encoding: .utf8)
                continue
            }
            let recorded = (try? String(contentsOf: file, encoding: .utf8)).map(APIListing.parse) ?? []
            let diff = APIListing.diff(recorded: recorded, actual: actual)
            if !diff.isEmpty {
                Issue.record("""
                    The public API of \(module) differs from api/\(module).txt \
                    (\(diff.count) line\(diff.count == 1 ? "" : "s"); - recorded, + built):
                    \(diff.prefix(200).joined(separator: "\n"))\(diff.count > 200 ? "\n… \(diff.count - 200) more" : "")
                    If the change is intended, run `CA_WRITE_API_LISTING=1 swift test --filter APIListingTests` \
                    and commit api/ with it (docs/API.md).
                    """)
            }
        }
    }
}

/// Reading and comparing the listing files.
enum APIListing {
    static func header(_ module: String) -> String {
        "# Public API of \(module): generated from its symbol graph by Tests/APIListingTests; do not edit.\n"
            + "# Rewrite with `CA_WRITE_API_LISTING=1 swift test --filter APIListingTests` (docs/API.md).\n"
    }

    static func render(module: String, lines: [String]) -> String {
        header(module) + lines.map { $0 + "\n" }.joined()
    }

    static func parse(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init).filter { !$0.hasPrefix("#") }
    }

    /// The lines only in the recorded listing ("- …") and only in the built one ("+ …"), in order.
    static func diff(recorded: [String], actual: [String]) -> [String] {
        let old = Set(recorded), new = Set(actual)
        let removed = old.subtracting(new).map { ($0, "- ") }
        let added = new.subtracting(old).map { ($0, "+ ") }
        return (removed + added).sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }.map { $0.1 + $0.0 }
    }
}

/// Where the built modules are: next to the running test binary (`.build/<triple>/debug`), or
/// `.build/debug` under the package root.
struct BuildLocation {
    var directory: URL
    var triple: String

    var modules: URL { directory.appendingPathComponent("Modules") }

    static func find(packageRoot: URL) throws -> BuildLocation {
        let fm = FileManager.default
        var candidates: [URL] = []
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        candidates.append(exe.deletingLastPathComponent())
        candidates.append(packageRoot.appendingPathComponent(".build/debug").resolvingSymlinksInPath())
        guard let dir = candidates.first(where: {
            fm.fileExists(atPath: $0.appendingPathComponent("Modules/QuartzCore.swiftmodule").path)
        }) else {
            throw ListingError("no built modules (Modules/QuartzCore.swiftmodule) in \(candidates.map(\.path)): build first")
        }
        let parent = dir.deletingLastPathComponent().lastPathComponent
        #if arch(arm64)
        let fallback = "aarch64-unknown-linux-gnu"
        #else
        let fallback = "x86_64-unknown-linux-gnu"
        #endif
        return BuildLocation(directory: dir, triple: parent.contains("-linux") ? parent : fallback)
    }
}

struct ListingError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs `swift-symbolgraph-extract` on each module (concurrently) and turns its symbol graphs
/// into listing lines.
struct SymbolGraphExtractor {
    var build: BuildLocation
    var packageRoot: URL

    static func tool() throws -> URL {
        let env = ProcessInfo.processInfo.environment
        let fm = FileManager.default
        if let given = env["CA_SYMBOLGRAPH_EXTRACT"] { return URL(fileURLWithPath: given) }
        let dirs = (env["PATH"] ?? "").split(separator: ":").map(String.init) + ["/opt/swift/usr/bin", "/usr/bin"]
        for dir in dirs {
            let candidate = URL(fileURLWithPath: dir).appendingPathComponent("swift-symbolgraph-extract")
            if fm.isExecutableFile(atPath: candidate.path) { return candidate }
            // Next to `swift` (PATH may name a symlink to the toolchain's driver).
            let swift = URL(fileURLWithPath: dir).appendingPathComponent("swift")
            if fm.isExecutableFile(atPath: swift.path) {
                let sibling = swift.resolvingSymlinksInPath().deletingLastPathComponent()
                    .appendingPathComponent("swift-symbolgraph-extract")
                if fm.isExecutableFile(atPath: sibling.path) { return sibling }
            }
        }
        throw ListingError("swift-symbolgraph-extract not found next to swift in PATH (set CA_SYMBOLGRAPH_EXTRACT)")
    }

    /// The C modules the Swift modules import: the package's system-library shims and the
    /// module maps SwiftPM generated for its C targets.
    func moduleMapArguments() -> [String] {
        let fm = FileManager.default
        var maps: [URL] = []
        let sources = packageRoot.appendingPathComponent("Sources")
        for dir in (try? fm.contentsOfDirectory(atPath: sources.path)) ?? [] {
            let map = sources.appendingPathComponent(dir).appendingPathComponent("module.modulemap")
            if fm.fileExists(atPath: map.path) { maps.append(map) }
        }
        for dir in (try? fm.contentsOfDirectory(atPath: build.directory.path)) ?? [] where dir.hasSuffix(".build") {
            let map = build.directory.appendingPathComponent(dir).appendingPathComponent("module.modulemap")
            if fm.fileExists(atPath: map.path) { maps.append(map) }
        }
        // C modules of package dependencies (ZIPFoundation's CZLib, for CALottie).
        let checkouts = packageRoot.appendingPathComponent(".build/checkouts")
        for dep in (try? fm.contentsOfDirectory(atPath: checkouts.path)) ?? [] {
            let depSources = checkouts.appendingPathComponent(dep).appendingPathComponent("Sources")
            for dir in (try? fm.contentsOfDirectory(atPath: depSources.path)) ?? [] {
                let map = depSources.appendingPathComponent(dir).appendingPathComponent("module.modulemap")
                if fm.fileExists(atPath: map.path) { maps.append(map) }
            }
        }
        // The package's C targets' public header folders, as SwiftPM passes them to a module that
        // depends on them: a header may include a dependency's header by name
        // (CPixelKernels' GradientLanes.h includes CFloatLanes.h).
        var includes: [String] = []
        for dir in (try? fm.contentsOfDirectory(atPath: sources.path)) ?? [] {
            let include = sources.appendingPathComponent(dir).appendingPathComponent("include")
            if fm.fileExists(atPath: include.path) { includes.append(include.path) }
        }
        return maps.sorted { $0.path < $1.path }.flatMap { ["-Xcc", "-fmodule-map-file=\($0.path)"] }
            + includes.sorted().flatMap { ["-Xcc", "-I\($0)"] } + pkgConfigIncludes()
    }

    /// The header directories of the shims' system libraries (`pkgConfig:` names in
    /// Package.swift, through `pkg-config --cflags-only-I`): FreeType and HarfBuzz keep their
    /// headers in subdirectories that the shims' `#include`s need.
    func pkgConfigIncludes() -> [String] {
        guard let manifest = try? String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8) else { return [] }
        var names: [String] = []
        var rest = Substring(manifest)
        while let r = rest.range(of: "pkgConfig: \"") {
            rest = rest[r.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { break }
            names.append(String(rest[..<end]))
            rest = rest[end...]
        }
        guard !names.isEmpty else { return [] }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["pkg-config", "--cflags-only-I"] + names
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return [] }
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return out.split(whereSeparator: { $0 == " " || $0 == "\n" }).filter { $0.hasPrefix("-I") }.flatMap { ["-Xcc", String($0)] }
    }

    func listings(of modules: [String]) throws -> [String: [String]] {
        let tool = try Self.tool()
        let fm = FileManager.default
        let scratch = fm.temporaryDirectory.appendingPathComponent("ca-api-listing-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: scratch) }
        let maps = moduleMapArguments()

        var running: [(module: String, process: Process, output: URL, log: URL)] = []
        for module in modules {
            let output = scratch.appendingPathComponent(module)
            try fm.createDirectory(at: output, withIntermediateDirectories: true)
            let log = scratch.appendingPathComponent("\(module).log")
            fm.createFile(atPath: log.path, contents: nil)
            let p = Process()
            p.executableURL = tool
            p.arguments = [
                "-module-name", module, "-target", build.triple, "-I", build.modules.path,
                "-output-dir", output.path, "-minimum-access-level", "public", "-skip-synthesized-members",
            ] + maps
            p.standardOutput = try FileHandle(forWritingTo: log)
            p.standardError = try FileHandle(forWritingTo: log)
            try p.run()
            running.append((module, p, output, log))
        }

        var result: [String: [String]] = [:]
        for (module, p, output, log) in running {
            p.waitUntilExit()
            guard p.terminationStatus == 0 else {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                throw ListingError("swift-symbolgraph-extract failed for \(module) (\(p.terminationStatus)):\n\(text)")
            }
            var graphs: [SymbolGraph] = []
            for file in try fm.contentsOfDirectory(atPath: output.path).sorted() where file.hasSuffix(".symbols.json") {
                let data = try Data(contentsOf: output.appendingPathComponent(file))
                graphs.append(try JSONDecoder().decode(SymbolGraph.self, from: data))
            }
            result[module] = Self.lines(of: graphs)
        }
        return result
    }

    static let kindNames: [String: String] = [
        "swift.class": "class", "swift.struct": "struct", "swift.enum": "enum", "swift.enum.case": "case",
        "swift.protocol": "protocol", "swift.init": "init", "swift.deinit": "deinit",
        "swift.method": "func", "swift.func": "func", "swift.func.op": "operator",
        "swift.type.method": "static func", "swift.property": "var", "swift.var": "var",
        "swift.type.property": "static var", "swift.subscript": "subscript",
        "swift.type.subscript": "static subscript", "swift.typealias": "typealias",
        "swift.associatedtype": "associatedtype", "swift.macro": "macro", "swift.extension": "extension",
    ]

    static let impliedProtocols: Set<String> = ["Swift.SendableMetatype", "Swift.Copyable", "Swift.Escapable"]

    /// One line per symbol (`kind Path.to.name | declaration`) and per conformance or
    /// superclass of a listed type, sorted, without duplicates.
    static func lines(of graphs: [SymbolGraph]) -> [String] {
        var paths: [String: String] = [:]
        for g in graphs { for s in g.symbols { paths[s.identifier.precise] = s.pathComponents.joined(separator: ".") } }
        var lines = Set<String>()
        for g in graphs {
            for s in g.symbols {
                let kind = kindNames[s.kind.identifier] ?? s.kind.identifier
                let declaration = (s.declarationFragments ?? []).map(\.spelling).joined()
                    .split(whereSeparator: \.isWhitespace).joined(separator: " ")
                lines.insert("\(kind) \(s.pathComponents.joined(separator: ".")) | \(declaration)")
            }
            for r in g.relationships where r.kind == "conformsTo" || r.kind == "inheritsFrom" {
                guard let source = paths[r.source] else { continue }
                let target = paths[r.target] ?? r.targetFallback ?? r.target
                // Implied by Sendable, and listed or not depending on the toolchain's version.
                guard !Self.impliedProtocols.contains(target) else { continue }
                lines.insert("\(r.kind == "conformsTo" ? "conformance" : "superclass") \(source): \(target)")
            }
        }
        return lines.sorted()
    }
}

/// The parts of a symbol graph file the listing reads.
struct SymbolGraph: Decodable {
    struct Symbol: Decodable {
        struct Kind: Decodable { var identifier: String }
        struct Identifier: Decodable { var precise: String }
        struct Fragment: Decodable { var spelling: String }
        var kind: Kind
        var identifier: Identifier
        var pathComponents: [String]
        var declarationFragments: [Fragment]?
    }
    struct Relationship: Decodable {
        var kind: String
        var source: String
        var target: String
        var targetFallback: String?
    }
    var symbols: [Symbol]
    var relationships: [Relationship]
}
