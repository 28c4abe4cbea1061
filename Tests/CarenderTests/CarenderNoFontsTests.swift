import XCTest
import Foundation
import CoreGraphics

/// A machine without fonts (fontconfig finds none: here `FONTCONFIG_FILE` names an empty
/// configuration) renders a scene with text without stopping: the text layer draws nothing,
/// everything else draws, and one warning names the font asked for (docs/TEXT.md, "Clamps and
/// bad input"; the built-in last-resort font).
final class CarenderNoFontsTests: CarenderTestCase {
    func testTextWithNoFontsInstalledRendersWithOneWarning() throws {
        try #"<?xml version="1.0"?><fontconfig></fontconfig>"#.write(to: dir.appendingPathComponent("empty.conf"), atomically: true, encoding: .utf8)
        let scene = #"""
        {"format": "ca-scene", "version": 1, "size": [64, 32], "duration": 1,
         "root": {"frame": [0, 0, 64, 32], "backgroundColor": "#336699",
                  "sublayers": [{"class": "CATextLayer", "frame": [0, 0, 64, 32], "string": "Hello",
                                 "font": "Helvetica", "fontSize": 20, "foregroundColor": "#ffffff"}]}}
        """#
        try scene.write(to: dir.appendingPathComponent("text.json"), atomically: true, encoding: .utf8)
        let env = ["FONTCONFIG_FILE": dir.appendingPathComponent("empty.conf").path,
                   "FONTCONFIG_PATH": dir.path, "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path]
        let r = try Carender.run(["render", "text.json", "--time", "0", "-o", "out.png"], in: dir, env: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        let warnings = r.stderr.split(separator: "\n").filter { $0.contains("no font is installed") }
        XCTAssertEqual(warnings.count, 1, r.stderr)
        XCTAssertTrue(warnings.first?.contains("\"Helvetica\"") ?? false, r.stderr)
        // The frame is the background alone: the text drew nothing.
        let data = try Data(contentsOf: dir.appendingPathComponent("out.png"))
        XCTAssertEqual(pngSize(data).map { [$0.0, $0.1] }, [64, 32])
        let image = try CGImage(contentsOfPNGFile: dir.appendingPathComponent("out.png").path)
        let bytes = image.rgba8Bytes
        let background: [UInt8] = [0x33, 0x66, 0x99, 255]
        XCTAssertTrue(stride(from: 0, to: bytes.count, by: 4).allSatisfy { Array(bytes[$0..<($0 + 4)]) == background })
    }
}
