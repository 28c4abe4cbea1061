import XCTest
import Foundation

/// Progress on a terminal sized to its width, nothing for one frame, and `--json` events for
/// wrappers (issue 25).
final class CarenderProgressTests: CarenderTestCase {
    let small = ["--scale", "0.25"]

    /// `--json`: one JSON object per line on stderr: start, progress (the last one at
    /// done == total), done; an error is an event too, with its status.
    func testJSONProgressEvents() throws {
        let r = try Carender.run(["render", "--frames", "0..<12", "-o", "j/%02d.png", "--json"] + small, in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        let events = try r.stderr.split(separator: "\n").map { line -> [String: Any] in
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
        }
        XCTAssertEqual(events.first?["event"] as? String, "start")
        XCTAssertEqual(events.first?["frames"] as? Int, 12)
        XCTAssertEqual(events.first?["width"] as? Int, 160)
        XCTAssertEqual(events.first?["output"] as? String, "j/%02d.png")
        let progress = events.filter { $0["event"] as? String == "progress" }
        XCTAssertFalse(progress.isEmpty)
        XCTAssertEqual(progress.last?["done"] as? Int, 12)
        XCTAssertEqual(progress.last?["total"] as? Int, 12)
        XCTAssertNotNil(progress.last?["fps"] as? Double)
        XCTAssertEqual(events.last?["event"] as? String, "done")
        XCTAssertEqual(events.last?["frames"] as? Int, 12)
        let bad = try Carender.run(["render", "missing.json", "-o", "x.png", "--json"], in: dir)
        XCTAssertEqual(bad.status, 1)
        let last = bad.stderr.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.last
        XCTAssertEqual(last?["event"] as? String, "error")
        XCTAssertEqual(last?["status"] as? Int, 1)
    }

    /// On a terminal (a pseudo-terminal from script(1), 60 columns): every redraw fits the
    /// width and the bar reaches full; a single frame draws no bar.
    func testBarFitsTheTerminalWidthAndSingleFramesHaveNone() throws {
        guard let script = Carender.which("script") else { throw XCTSkip("script(1) is not installed") }
        func onTerminal(_ args: [String], columns: Int) throws -> String {
            let cmd = "stty cols \(columns); '\(Carender.binary.path)' " + args.map { "'\($0)'" }.joined(separator: " ")
            let r = try Tools.run(script, ["-qec", cmd, "/dev/null"])
            XCTAssertEqual(r.status, 0)
            return String(decoding: r.out, as: UTF8.self)
        }
        let out = try onTerminal(["render", "--frames", "0..<30", "-o", dir.appendingPathComponent("t/%02d.png").path] + small, columns: 60)
        // Each redraw: the text after a carriage return up to the end of that line.
        func redraws(_ s: String) -> [String] {
            // The terminal turns "\n" into "\r\n", one Character in Swift: make it "\n" first.
            s.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\r").map { String($0.replacingOccurrences(of: "\u{1B}[K", with: "").split(separator: "\n").first ?? "") }
                .filter { $0.hasPrefix("rendering") }
        }
        let draws = redraws(out)
        XCTAssertFalse(draws.isEmpty, out)
        for d in draws { XCTAssertLessThanOrEqual(d.count, 59, d) }
        XCTAssertTrue(draws.last?.contains("30/30 frames") == true, out)
        XCTAssertFalse(draws.last?.contains("░") ?? true, "the last draw is full")
        let narrow = try onTerminal(["render", "--frames", "0..<5", "-o", dir.appendingPathComponent("n/%02d.png").path] + small, columns: 30)
        for d in redraws(narrow) { XCTAssertLessThanOrEqual(d.count, 29, d) }
        let single = try onTerminal(["render", "--time", "1", "-o", dir.appendingPathComponent("one.png").path] + small, columns: 60)
        XCTAssertFalse(single.contains("rendering"), single)
    }
}
