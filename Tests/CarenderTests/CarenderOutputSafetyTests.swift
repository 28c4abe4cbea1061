import XCTest
import Foundation

/// Output files and hostile destinations (issue 17): carender never writes through a link
/// planted beside its output, and a destination it cannot use fails before rendering.
final class CarenderOutputSafetyTests: CarenderTestCase {
    let small = ["--scale", "0.25"]

    func run(_ args: [String], env: [String: String] = [:]) throws -> Carender.Result {
        try Carender.run(args, in: dir, env: env)
    }

    /// Symbolic links under the temporary names the next `count` processes would have used
    /// before the fix (`.NAME.partial-PID`; PIDs are handed out in order, /proc/sys/kernel/
    /// ns_last_pid is the last one), all pointing at `victim`.
    func plantLinks(for name: String, in folder: URL, to victim: URL, count: Int = 1500) throws {
        let last = Int((try? String(contentsOfFile: "/proc/sys/kernel/ns_last_pid", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? Int(getpid())
        let pidMax = Int((try? String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 32768
        for k in 1...count {
            let pid = (last + k) % pidMax
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(".\(name).partial-\(pid)").path,
                                                       withDestinationPath: victim.path)
        }
    }

    func testLinksPlantedAtTheOldTemporaryNamesAreNotWrittenThrough() throws {
        let outside = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: outside) }
        let victim = outside.appendingPathComponent("precious.txt")
        try Data("do not overwrite".utf8).write(to: victim)
        try plantLinks(for: "a.png", in: dir, to: victim)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("seq"), withIntermediateDirectories: true)
        try plantLinks(for: "0001.png", in: dir.appendingPathComponent("seq"), to: victim, count: 500)
        let one = try run(["render", "--time", "1", "-o", "a.png", "--quiet"] + small)
        XCTAssertEqual(one.status, 0, one.stderr)
        let seq = try run(["render", "--frames", "0..<3", "-o", "seq/%04d.png", "--quiet"] + small)
        XCTAssertEqual(seq.status, 0, seq.stderr)
        if Carender.which("ffmpeg") != nil {
            try plantLinks(for: "clip.mp4", in: dir, to: victim, count: 500)
            let video = try run(["render", "--frames", "0..<4", "-o", "clip.mp4", "--quiet"] + small)
            XCTAssertEqual(video.status, 0, video.stderr)
            let attributes = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("clip.mp4").path)
            XCTAssertEqual(attributes[.type] as? FileAttributeType, .typeRegular)
        }
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "do not overwrite")
        for name in ["a.png", "seq/0000.png", "seq/0001.png", "seq/0002.png"] {
            let path = dir.appendingPathComponent(name).path
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            XCTAssertEqual(attributes[.type] as? FileAttributeType, .typeRegular, name)
            XCTAssertNotNil(pngSize(try Data(contentsOf: URL(fileURLWithPath: path))), name)
        }
        // A link at the final name is replaced by the file, never written through.
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("b.png").path, withDestinationPath: victim.path)
        XCTAssertEqual(try run(["render", "-o", "b.png", "--quiet"] + small).status, 0)
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "do not overwrite")
        XCTAssertNotNil(pngSize(try Data(contentsOf: dir.appendingPathComponent("b.png"))))
        // No temporary file stays behind (the planted links are the test's own).
        for n in listing(dir) + listing(dir.appendingPathComponent("seq")) where n.hasPrefix(".") {
            let path = (n.contains("0001.png") ? dir.appendingPathComponent("seq") : dir).appendingPathComponent(n).path
            XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: path))[.type] as? FileAttributeType, .typeSymbolicLink, n)
        }
    }

    func testFileNameAtTheFileSystemLimitIsWritten() throws {
        // 254 bytes: fits NAME_MAX (255). Before the fix its temporary name (longer) did not,
        // and the run failed after rendering.
        let name = String(repeating: "n", count: 250) + ".png"
        let r = try run(["render", "-o", name, "--quiet"] + small)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertNotNil(pngSize(try Data(contentsOf: dir.appendingPathComponent(name))))
        XCTAssertEqual(listing(dir), [name])
    }

    func testFileNameTooLongFailsBeforeRendering() throws {
        let long = String(repeating: "n", count: 252)
        let cases: [([String], String)] = [
            (["-o", long + ".png"], "256 bytes long"),
            (["--frames", "0..<5000", "-o", long + ".mp4"], "256 bytes long"),
            (["--frames", "0..<5000", "-o", "seq/" + String(repeating: "s", count: 248) + "%04d.png"], "256 bytes long"),
            (["--frames", "0..<3", "-o", "ok/%d.png", "--contact-sheet", long + ".png"], "256 bytes long"),
        ]
        for (args, needle) in cases {
            let start = Date()
            let r = try run(["render"] + args + small)
            XCTAssertEqual(r.status, 1, "\(args): \(r.stderr)")
            XCTAssertEqual(r.messages.count, 1, "\(args): one line, got \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(needle) && r.stderr.contains("at most"), "\(args): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("rendering"), "\(args): rendering started: \(r.stderr)")
            // No time bound: that nothing was rendered is checked by the output above (no
            // progress line) and below (no file left); the time is information only.
            print("\(args.prefix(2)): refused in \(String(format: "%.2f", Date().timeIntervalSince(start))) s")
            let left = listing(dir).flatMap { n in
                (try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent(n).path)) ?? [n]
            }
            XCTAssertEqual(left, [], "\(args) left \(left)")
            for n in listing(dir) { try? FileManager.default.removeItem(at: dir.appendingPathComponent(n)) }
        }
    }
}
