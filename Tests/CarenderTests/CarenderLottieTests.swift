import XCTest
import Foundation
import CoreGraphics

/// `carender render anim.json` (issue 23), run as a user would: a Lottie file is recognised by
/// its bodymovin keys, `--time` counts from its first frame, and the composition is fitted into
/// `--size` with its aspect kept, centred.
final class CarenderLottieTests: CarenderTestCase {
    /// A 100×100 composition at 10 fps, ip 10: a 20×20 red square moving from x = 20 (frame 10)
    /// to x = 80 (frame 20), linear. `--time 0.5` is frame 15 → x = 50; fitted into 200×100
    /// points, the composition is drawn at scale 1 offset by 50 → the square's centre at (100, 50).
    func testLottieRendersAtTimeFittedIntoTheSize() throws {
        let json = #"""
        {"v":"5.7.0","fr":10,"ip":10,"op":30,"w":100,"h":100,"layers":[
         {"ty":4,"ind":1,"ip":0,"op":30,"st":0,
          "ks":{"p":{"a":1,"k":[{"t":10,"s":[20,50],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":20,"s":[80,50]}]}},
          "shapes":[{"ty":"rc","p":{"k":[0,0]},"s":{"k":[20,20]},"r":{"k":0}},{"ty":"fl","c":{"k":[1,0,0,1]},"o":{"k":100}}]},
         {"ty":5,"ind":2,"ip":0,"op":30,"st":0,"ks":{}}]}
        """#
        try Data(json.utf8).write(to: dir.appendingPathComponent("anim.json"))
        let r = try Carender.run(["render", "anim.json", "--time", "0.5", "--size", "200x100", "-o", "a.png"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.messages.contains { $0.contains("text") }, "the skipped text layer is named: \(r.stderr)")
        let image = try XCTUnwrap(CGImage(pngData: Data(contentsOf: dir.appendingPathComponent("a.png"))))
        XCTAssertEqual([image.width, image.height], [200, 100])
        let bytes = image.rgba8Bytes
        func px(_ x: Int, _ y: Int) -> [UInt8] { Array(bytes[(y * 200 + x) * 4..<(y * 200 + x) * 4 + 4]) }
        XCTAssertEqual(px(100, 50), [255, 0, 0, 255])
        XCTAssertEqual(px(85, 50)[3], 0)
        XCTAssertEqual(px(115, 50)[3], 0)
    }

    func testMalformedLottieIsAOneLineErrorWithLineAndColumn() throws {
        try Data("{\"v\":\"5\",\"fr\":30,\"ip\":0,\"op\":10,\n\"layers\":[,]}".utf8).write(to: dir.appendingPathComponent("bad.json"))
        let r = try Carender.run(["render", "bad.json", "-o", "b.png"], in: dir)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(r.messages.count, 1, r.stderr)
        XCTAssertTrue(r.messages[0].contains("line 2, column 11"), r.stderr)
    }
}
