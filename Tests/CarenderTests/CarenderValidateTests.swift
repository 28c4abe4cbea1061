import XCTest
import Foundation

/// `carender validate` (issue 25): many files and globs, every kind of input, findings as
/// `file:line:column: error|warning: message`, exit status by the worst finding.
final class CarenderValidateTests: CarenderTestCase {
    func write(_ text: String, _ name: String) throws {
        let u = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: u.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: u)
    }

    static let good = #"{"format": "ca-scene", "version": 1, "size": [20, 20], "duration": 1, "root": {"frame": [0, 0, 20, 20], "backgroundColor": "tomato"}}"#

    func testManyFilesAndGlobsWithFileLineColumnFindings() throws {
        try write(Self.good, "scenes/a.json")
        try write(Self.good, "scenes/b.json")
        try write("{\"format\": \"ca-scene\", \"version\": 1, \"size\": [20, 20], \"duration\": 1,\n  \"root\": {\"frame\": [0, 0, 20, 20], \"backgroundColor\": [255, 128, 0]}}", "scenes/bad.json")
        try write(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/><foreignObject width="5" height="5"/></svg>"#, "icon.svg")
        try write("<svg xmlns=\"http://www.w3.org/2000/svg\">\n<rect></svg>", "broken.svg")
        let r = try Carender.run(["validate", "scenes/*.json", "icon.svg", "broken.svg"], in: dir)
        XCTAssertEqual(r.status, 1, "an error anywhere: status 1")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("scenes/a.json: valid"), r.stdout)
        XCTAssertTrue(lines.contains("scenes/b.json: valid"), r.stdout)
        // The colour array starts at line 2, column 56.
        XCTAssertTrue(lines.contains { $0.hasPrefix("scenes/bad.json:2:56: error: root.backgroundColor: colour components are 0…1") && $0.contains("#ff8000") }, r.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("icon.svg:1:1: warning: ") && $0.contains("foreignObject") }, r.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("broken.svg:2:") && $0.contains(": error: malformed XML") }, r.stdout)
        // Every finding line has the compiler form.
        let pattern = #"^[^:]+:[0-9]+:[0-9]+: (error|warning): .+$"#
        for l in lines where !l.hasSuffix(": valid") {
            XCTAssertNotNil(l.range(of: pattern, options: .regularExpression), l)
        }
        XCTAssertTrue(r.stderr.contains("2 errors"), r.stderr)
    }

    /// Exit status by the worst finding: 0 for valid files and for warnings only (1 with
    /// --strict), 1 for an error, 2 for a usage error; an unmatched pattern is an error.
    func testExitStatusFollowsTheWorstFinding() throws {
        try write(Self.good, "a.json")
        try write(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><foreignObject width="5" height="5"/></svg>"#, "warn.svg")
        XCTAssertEqual(try Carender.run(["validate", "a.json"], in: dir).status, 0)
        let quiet = try Carender.run(["validate", "--quiet", "a.json"], in: dir)
        XCTAssertEqual(quiet.stdout, "")
        XCTAssertEqual(try Carender.run(["validate", "a.json", "warn.svg"], in: dir).status, 0)
        XCTAssertEqual(try Carender.run(["validate", "--strict", "a.json", "warn.svg"], in: dir).status, 1)
        let none = try Carender.run(["validate", "nothing-*.json"], in: dir)
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stdout.contains("nothing-*.json:1:1: error: no file matches"), none.stdout)
        XCTAssertEqual(try Carender.run(["validate"], in: dir).status, 2)
    }

    /// The kind of a file is told by extension and content: Lottie JSON (top-level v, fr, op,
    /// layers) and .lottie go to the Lottie entry of the table (issue 23): a valid animation is
    /// valid, a malformed one is an error at its line and column, what the import does not
    /// reproduce is a warning.
    func testLottieFilesAreRecognised() throws {
        try write(#"{"v": "5.7.4", "fr": 30, "ip": 0, "op": 60, "w": 100, "h": 100, "layers": []}"#, "anim.json")
        let r = try Carender.run(["validate", "anim.json"], in: dir)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertEqual(r.stdout, "anim.json: valid\n")
        try write("{\"v\": \"5.7.4\", \"fr\": 30, \"ip\": 0, \"op\": 60,\n \"layers\": [}", "bad.json")
        let bad = try Carender.run(["validate", "bad.json"], in: dir)
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stdout.hasPrefix("bad.json:2:13: error: malformed JSON"), bad.stdout)
        // Text layers are built now (LottieTextLayerTests); their animators are not reproduced.
        try write(#"{"v": "5.7.4", "fr": 30, "ip": 0, "op": 60, "w": 100, "h": 100, "layers": [{"ty": 5, "ip": 0, "op": 60, "st": 0, "ks": {}, "t": {"d": {"k": [{"t": 0, "s": {"s": 20, "f": "DejaVuSans", "t": "Hi", "j": 0, "fc": [0, 0, 0]}}]}, "a": [{"nm": "Animator 1", "s": {}, "a": {}}]}}]}"#, "text.json")
        let text = try Carender.run(["validate", "text.json"], in: dir)
        XCTAssertEqual(text.status, 0)
        XCTAssertTrue(text.stdout.contains("text.json:1:1: warning: unsupported: text animators (t.a)"), text.stdout)
    }

    /// A root layer without a size renders nothing: validate and render say so and name the fix.
    func testRootWithoutASizeIsAnErrorNamingTheFix() throws {
        try write(#"{"format": "ca-scene", "version": 1, "size": [40, 20], "duration": 1, "root": {"backgroundColor": "red"}}"#, "nosize.json")
        let v = try Carender.run(["validate", "nosize.json"], in: dir)
        XCTAssertEqual(v.status, 1)
        XCTAssertTrue(v.stdout.contains(#"error: root: the root layer has no size"#) && v.stdout.contains(#""frame": [0, 0, 40, 20]"#), v.stdout)
        let r = try Carender.run(["render", "nosize.json", "-o", "x.png"], in: dir)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains(#""frame": [0, 0, 40, 20]"#), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.png").path))
    }
}
