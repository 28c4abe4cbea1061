import XCTest
import Foundation
import CoreGraphics

/// Templates (issue 25): `--set keyPath=value`, `--values file.json` and `--batch rows.csv`
/// change a scene's properties before rendering; one scene, many variants.
final class CarenderTemplateTests: CarenderTestCase {
    static let scene = ##"{"format": "ca-scene", "version": 1, "size": [40, 20], "duration": 1, "root": {"frame": [0, 0, 40, 20], "backgroundColor": "#000000", "sublayers": [{"name": "card", "frame": [20, 0, 20, 20], "backgroundColor": "#ffffff"}]}}"##

    override func setUpWithError() throws {
        try super.setUpWithError()
        try Data(Self.scene.utf8).write(to: dir.appendingPathComponent("s.json"))
    }

    /// The RGBA of pixel (x, 10) of a PNG carender wrote.
    func pixel(_ name: String, x: Int) throws -> [UInt8] {
        let img = try CGImage(contentsOfPNGFile: dir.appendingPathComponent(name).path)
        let i = (10 * img.width + x) * 4
        return Array(img.rgba8Bytes[i..<i + 4])
    }

    func testSetAndValuesOverrideByLayerNameAndKeyPath() throws {
        let r = try Carender.run(["render", "s.json", "-o", "a.png", "--quiet", "--set", "card.backgroundColor=#00ff00", "--set", "root.backgroundColor=[0, 0, 1]"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try pixel("a.png", x: 30), [0, 255, 0, 255], "the layer named card")
        XCTAssertEqual(try pixel("a.png", x: 5), [0, 0, 255, 255], "root")
        // --values first, then --set on top; numbers stay numbers.
        try Data(#"{"card.backgroundColor": "red", "card.opacity": 0.5, "card.frame": [0, 0, 40, 20]}"#.utf8).write(to: dir.appendingPathComponent("v.json"))
        let v = try Carender.run(["render", "s.json", "-o", "b.png", "--quiet", "--values", "v.json", "--set", "card.opacity=1"], in: dir)
        XCTAssertEqual(v.status, 0, v.stderr)
        XCTAssertEqual(try pixel("b.png", x: 5), [255, 0, 0, 255], "frame and colour from --values, opacity from --set")
        // Array elements and scene members.
        let idx = try Carender.run(["render", "s.json", "-o", "c.png", "--quiet", "--set", "root.sublayers[0].backgroundColor=blue", "--set", "size=[40, 20]"], in: dir)
        XCTAssertEqual(idx.status, 0, idx.stderr)
        XCTAssertEqual(try pixel("c.png", x: 30), [0, 0, 255, 255])
        // Unknown layer: usage error; a value of the wrong type: the loader's problem, status 1.
        let unknown = try Carender.run(["render", "s.json", "-o", "x.png", "--set", "title.string=Hi"], in: dir)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("no layer named title"), unknown.stderr)
        let wrong = try Carender.run(["render", "s.json", "-o", "x.png", "--set", "card.opacity=high"], in: dir)
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.stderr.contains("card") || wrong.stderr.contains("opacity"), wrong.stderr)
        XCTAssertEqual(try Carender.run(["render", "s.json", "-o", "x.png", "--set", "nokey"], in: dir).status, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.png").path))
    }

    /// One output per row, named by its columns; quoted CSV fields keep their commas; a
    /// placeholder that is no column is a usage error.
    func testBatchRendersOneOutputPerRow() throws {
        try Data("name,card.backgroundColor\nred,#ff0000\n\"green, bright\",#00ff00\nblue,\"#0000ff\"\n".utf8).write(to: dir.appendingPathComponent("rows.csv"))
        let r = try Carender.run(["render", "s.json", "--batch", "rows.csv", "-o", "out/{row}-{name}.png", "--quiet"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(listing(dir.appendingPathComponent("out")), ["1-red.png", "2-green, bright.png", "3-blue.png"])
        XCTAssertEqual(try pixel("out/1-red.png", x: 30), [255, 0, 0, 255])
        XCTAssertEqual(try pixel("out/2-green, bright.png", x: 30), [0, 255, 0, 255])
        XCTAssertEqual(try pixel("out/3-blue.png", x: 30), [0, 0, 255, 255])
        let missing = try Carender.run(["render", "s.json", "--batch", "rows.csv", "-o", "out/{title}.png"], in: dir)
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("{title}"), missing.stderr)
        let fixed = try Carender.run(["render", "s.json", "--batch", "rows.csv", "-o", "out/same.png"], in: dir)
        XCTAssertEqual(fixed.status, 2, "every row would overwrite one file")
        try Data("name,card.opacity\n\"unterminated,1\n".utf8).write(to: dir.appendingPathComponent("bad.csv"))
        let bad = try Carender.run(["render", "s.json", "--batch", "bad.csv", "-o", "out/{name}.png"], in: dir)
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("not closed"), bad.stderr)
    }

    /// `--watch` renders again when the scene file changes (the preview's FileWatcher), keeps
    /// watching past a broken save, and ends on SIGINT with status 130.
    func testWatchRendersAgainOnChange() throws {
        let p = try Carender.start(["render", "s.json", "-o", "w.png", "--watch"], in: dir,
                                   stdout: dir.appendingPathComponent(".stdout-w"), stderr: dir.appendingPathComponent(".stderr-w"))
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        func waitFor(_ what: String, _ condition: () -> Bool) {
            let deadline = Date().addingTimeInterval(60)
            while !condition(), Date() < deadline, p.isRunning { usleep(50_000) }
            XCTAssertTrue(condition(), what)
        }
        waitFor("the first render") { (try? pixel("w.png", x: 30)) == [255, 255, 255, 255] }
        usleep(1_100_000)   // a later modification time than the first version's
        try Data("{ broken".utf8).write(to: dir.appendingPathComponent("s.json"))
        waitFor("the broken save is reported") {
            ((try? String(contentsOf: dir.appendingPathComponent(".stderr-w"), encoding: .utf8)) ?? "").contains("malformed JSON")
        }
        XCTAssertTrue(p.isRunning, "a broken save does not end the watch")
        try Data(Self.scene.replacingOccurrences(of: "#ffffff", with: "#ff0000").utf8).write(to: dir.appendingPathComponent("s.json"))
        waitFor("the render after the change") { (try? pixel("w.png", x: 30)) == [255, 0, 0, 255] }
        kill(p.processIdentifier, SIGINT)
        let deadline = Date().addingTimeInterval(20)
        while p.isRunning, Date() < deadline { usleep(20_000) }
        XCTAssertFalse(p.isRunning)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 130)
        XCTAssertFalse(listing(dir).contains { $0.contains(".partial-") })
    }
}
