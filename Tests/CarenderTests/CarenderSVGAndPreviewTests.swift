import XCTest
import Foundation
import CoreGraphics

/// `carender render file.svg` (issue 6) and `carender preview` (issue 7), run as a user would.
final class CarenderSVGAndPreviewTests: CarenderTestCase {
    func write(_ text: String, to name: String) throws {
        try Data(text.utf8).write(to: dir.appendingPathComponent(name))
    }

    /// An SVG renders at its size × --scale: a red square on white at (10,10)–(30,30) of a
    /// 40×40 document, drawn at scale 2 into 80×80 pixels; unsupported content is named on
    /// stderr (and silenced by --quiet).
    func testSVGRendersAtItsSizeAndReportsWhatItCannotDraw() throws {
        try write("""
        <svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">
          <rect width="40" height="40" fill="white"/>
          <rect x="10" y="10" width="20" height="20" fill="#ff0000"/>
          <image x="2" y="30" width="8" height="8" href="missing.png"/>
        </svg>
        """, to: "icon.svg")
        let r = try Carender.run(["render", "icon.svg", "--scale", "2", "-o", "icon.png"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.messages.contains { $0.hasPrefix("carender: icon.svg: ") && $0.contains("image") }, r.stderr)
        let png = try Data(contentsOf: dir.appendingPathComponent("icon.png"))
        let image = try XCTUnwrap(CGImage(pngData: png))
        XCTAssertEqual([image.width, image.height], [80, 80])
        let bytes = image.rgba8Bytes
        func px(_ x: Int, _ y: Int) -> [UInt8] { Array(bytes[(y * 80 + x) * 4..<(y * 80 + x) * 4 + 4]) }
        XCTAssertEqual(px(40, 40), [255, 0, 0, 255], "inside the square")
        XCTAssertEqual(px(5, 5), [255, 255, 255, 255], "outside it")
        let quiet = try Carender.run(["render", "icon.svg", "-o", "q.png", "--quiet"], in: dir)
        XCTAssertEqual(quiet.status, 0)
        XCTAssertEqual(quiet.stderr, "")
    }

    func testBadSVGIsAOneLineErrorAndWritesNothing() throws {
        try write("<svg xmlns=\"http://www.w3.org/2000/svg\"><g></svg>", to: "broken.svg")
        for (args, fragment) in [(["render", "broken.svg", "-o", "b.png"], "malformed XML"),
                                 (["render", "missing.svg", "-o", "m.png"], "not found"),
                                 (["render", "/dev/zero", "-o", "z.png"], "not a regular file")] {
            let r = try Carender.run(args, in: dir)
            XCTAssertEqual(r.status, 1, "\(args): \(r.stderr)")
            XCTAssertEqual(r.messages.count, 1, r.stderr)
            XCTAssertTrue(r.messages[0].hasPrefix("carender: ") && r.messages[0].contains(fragment), r.stderr)
        }
        XCTAssertEqual(listing(dir), ["broken.svg"])
    }

    /// Without a display, preview says so in one line and fails; with Xvfb (xvfb-run) it plays
    /// the demo, a scene file and an SVG for a few frames and prints frame statistics.
    func testPreviewNeedsADisplayAndPlaysUnderXvfb() throws {
        let none = try Carender.run(["preview", "--frames", "2"], in: dir, env: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        XCTAssertEqual(none.status, 1, none.stderr)
        XCTAssertEqual(none.messages.count, 1, none.stderr)
        XCTAssertTrue(none.messages[0].contains("display"), none.stderr)
        let bad = try Carender.run(["preview", "--frames", "0"], in: dir)
        XCTAssertEqual(bad.status, 2, bad.stderr)

        guard let xvfbRun = Carender.which("xvfb-run") else { throw XCTSkip("xvfb-run is not installed") }
        let scene = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scenes/demo/scene.json").path
        try write("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"64\" height=\"64\"><circle cx=\"32\" cy=\"32\" r=\"20\"/></svg>", to: "dot.svg")
        for extra in [[], [scene], ["dot.svg"]] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: xvfbRun)
            p.arguments = ["-a", Carender.binary.path, "preview"] + extra + ["--frames", "4"]
            p.currentDirectoryURL = dir
            let err = Pipe()   // statistics go to stdout, notes to stderr: read both
            p.standardError = err
            p.standardOutput = err
            try p.run()
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0, "preview \(extra): \(text)")
            XCTAssertTrue(text.contains("4 frames"), "preview \(extra) prints its frame statistics: \(text)")
        }
    }
}
