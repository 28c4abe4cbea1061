import XCTest
import Foundation

/// Runs the built `carender` binary as a user would: a child process with arguments and
/// environment, its exit status, stdout and stderr. The binary is found next to the test
/// bundle (SwiftPM puts products and the .xctest in one folder), or at `CARENDER_BIN`.
enum Carender {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Lines of stderr without progress lines (the messages a user reads).
        var messages: [String] { stderr.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("rendering") } }
    }

    static let binary: URL = {
        if let forced = ProcessInfo.processInfo.environment["CARENDER_BIN"] { return URL(fileURLWithPath: forced) }
        return product("carender")
    }()

    /// The package's executable `name`, built beside the test bundle.
    static func product(_ name: String) -> URL {
        var candidates: [URL] = []
        let arg0 = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(arg0.deletingLastPathComponent().appendingPathComponent(name))
        for b in Bundle.allBundles { candidates.append(b.bundleURL.deletingLastPathComponent().appendingPathComponent(name)) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/\(name)"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    /// Starts carender (for tests that signal it); output goes to the files given.
    static func start(_ args: [String], in dir: URL, env: [String: String] = [:], stdout: URL, stderr: URL,
                      executable: URL = binary) throws -> Process {
        let p = Process()
        p.executableURL = executable
        p.arguments = args
        p.currentDirectoryURL = dir
        var environment = ProcessInfo.processInfo.environment
        for (k, v) in env { environment[k] = v }
        p.environment = environment
        _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: stdout)
        p.standardError = try FileHandle(forWritingTo: stderr)
        p.standardInput = FileHandle.nullDevice
        try p.run()
        return p
    }

    static func run(_ args: [String], in dir: URL, env: [String: String] = [:], timeout: TimeInterval = 120,
                    executable: URL = binary) throws -> Result {
        let out = dir.appendingPathComponent(".stdout-\(UUID().uuidString)"), err = dir.appendingPathComponent(".stderr-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: err) }
        let p = try start(args, in: dir, env: env, stdout: out, stderr: err, executable: executable)
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning, Date() < deadline { usleep(20_000) }
        if p.isRunning { p.terminate(); p.waitUntilExit(); XCTFail("\(executable.lastPathComponent) \(args) ran past \(timeout) s") }
        p.waitUntilExit()
        return Result(status: p.terminationStatus,
                      stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    static func which(_ tool: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }
}

/// A fresh folder per test, removed afterwards.
func makeTemporaryFolder() throws -> URL {
    let u = FileManager.default.temporaryDirectory.appendingPathComponent("carender-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
    return u
}

/// Names in a folder, without the test harness's own stdout/stderr captures.
func listing(_ dir: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { !$0.hasPrefix(".stdout-") && !$0.hasPrefix(".stderr-") }.sorted()
}

/// Width and height from a PNG's IHDR chunk, nil if the file is not a complete PNG (signature
/// at the start, IEND chunk at the end).
func pngSize(_ data: Data) -> (Int, Int)? {
    let sig: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let bytes = [UInt8](data)
    guard bytes.count > 45, Array(bytes[0..<8]) == sig, Array(bytes[12..<16]) == Array("IHDR".utf8),
          Array(bytes[(bytes.count - 8)..<(bytes.count - 4)]) == Array("IEND".utf8) else { return nil }
    func be(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
    return (be(16), be(20))
}

/// A test case with a fresh folder to run carender in, removed afterwards. `swift test` builds
/// the binary (this target depends on it): its absence is a failure, not a reason to skip.
class CarenderTestCase: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = try makeTemporaryFolder()
        guard FileManager.default.isExecutableFile(atPath: Carender.binary.path) else {
            XCTFail("carender binary not found at \(Carender.binary.path) (swift build --product carender, or set CARENDER_BIN)")
            throw CocoaError(.fileNoSuchFile)
        }
    }

    override func tearDown() {
        if let dir { try? FileManager.default.removeItem(at: dir) }
        super.tearDown()
    }
}
