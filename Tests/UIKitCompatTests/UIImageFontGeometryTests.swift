import Testing
import Foundation

/// `UIImage`: size in points (pixels / scale, orientation), PNG in and out, file look-up.
@Suite struct UIImageTests {
    /// A 4 × 2 opaque image, red on the left half, blue on the right.
    private func bitmap() -> CGImage {
        var bytes: [UInt8] = []
        for _ in 0..<2 { for x in 0..<4 { bytes += x < 2 ? [255, 0, 0, 255] : [0, 0, 255, 255] } }
        return CGImage(width: 4, height: 2, rgba8Bytes: bytes, premultiplied: true)!
    }

    private func temporaryFolder() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("uikitcompat-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.path
    }

    @Test("size is pixels / scale; left and right orientations swap width and height")
    func sizeAndScale() {
        let cg = bitmap()
        let one = UIImage(cgImage: cg)
        #expect(one.size == CGSize(width: 4, height: 2) && one.scale == 1 && one.imageOrientation == .up)
        #expect(one.cgImage === cg)
        let two = UIImage(cgImage: cg, scale: 2, orientation: .up)
        #expect(two.size == CGSize(width: 2, height: 1) && two.scale == 2)
        #expect(UIImage(cgImage: cg, scale: 2, orientation: .left).size == CGSize(width: 1, height: 2))
        #expect(UIImage(cgImage: cg, scale: 1, orientation: .rightMirrored).size == CGSize(width: 2, height: 4))
        #expect(UIImage(cgImage: cg, scale: 1, orientation: .down).size == CGSize(width: 4, height: 2))
        #expect(UIImage(cgImage: cg, scale: 0, orientation: .up).scale == 1, "a bad scale is 1")
        #expect(UIImage().size == .zero && UIImage().cgImage == nil)
        #expect(UIImage.Orientation.rightMirrored.rawValue == 7 && UIImage.Orientation.left.rawValue == 2)
    }

    @Test("pngData() and init?(data:) round-trip the pixels; non-PNG data is nil with a warning")
    func pngRoundTrip() throws {
        let data = try #require(UIImage(cgImage: bitmap()).pngData())
        let back = try #require(UIImage(data: data))
        #expect(back.size == CGSize(width: 4, height: 2) && back.scale == 1)
        #expect(back.cgImage!.width == 4)
        #expect(UIImage(data: data, scale: 2)?.size == CGSize(width: 2, height: 1))
        let (jpeg, warnings) = CompatDiagnostics.capture { UIImage(data: Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3])) }
        #expect(jpeg == nil, "JPEG is not decoded")
        #expect(warnings.contains { $0.contains("UIImage(data:) decodes PNG only") })
        #expect(UIImage(data: Data()) == nil)
        #expect(UIImage(cgImage: bitmap()).jpegData(compressionQuality: 0.8) == nil)
    }

    @Test("init?(contentsOfFile:) reads @2x/@3x scale from the name; init?(named:) finds name.png")
    func files() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let png = try #require(UIImage(cgImage: bitmap()).pngData())
        try png.write(to: URL(fileURLWithPath: dir + "/icon.png"))
        try png.write(to: URL(fileURLWithPath: dir + "/badge@2x.png"))
        try png.write(to: URL(fileURLWithPath: dir + "/logo@3x.png"))
        #expect(UIImage(contentsOfFile: dir + "/icon.png")?.scale == 1)
        #expect(UIImage(contentsOfFile: dir + "/badge@2x.png")?.size == CGSize(width: 2, height: 1))
        #expect(UIImage(contentsOfFile: dir + "/logo@3x.png")?.scale == 3)
        #expect(UIImage(contentsOfFile: dir + "/missing.png") == nil)
        #expect(UIImage(named: dir + "/icon")?.size == CGSize(width: 4, height: 2))
        #expect(UIImage(named: dir + "/icon.png")?.scale == 1)
        #expect(UIImage(named: dir + "/badge")?.scale == 2)
        #expect(UIImage(named: dir + "/nothing") == nil)
        #expect(UIImage(named: "") == nil)
    }
}

/// `UIFont`: names, sizes, and the warning when a font is used for text layout.
@Suite struct UIFontTests {
    @Test("System and named fonts keep their name, family and size")
    func fonts() throws {
        let system = UIFont.systemFont(ofSize: 17)
        #expect(system.pointSize == 17 && system.familyName == ".AppleSystemUIFont" && system.fontName == ".SFUI-Regular")
        #expect(UIFont.boldSystemFont(ofSize: 12).fontName == ".SFUI-Semibold")
        #expect(UIFont.systemFont(ofSize: 20, weight: .heavy).fontName == ".SFUI-Heavy")
        #expect(UIFont.Weight.bold.rawValue == 0.4)
        let avenir = try #require(UIFont(name: "Avenir-Heavy", size: 14))
        #expect(avenir.fontName == "Avenir-Heavy" && avenir.familyName == "Avenir" && avenir.pointSize == 14)
        #expect(avenir.withSize(30).pointSize == 30 && avenir.withSize(30).fontName == "Avenir-Heavy")
        #expect(UIFont(name: "", size: 10) == nil)
        #expect(UIFont(name: "Helvetica", size: 10) == UIFont(name: "Helvetica", size: 10))
    }

    @Test("Using a font for text layout logs one warning naming it")
    func layoutWarns() throws {
        let (font, before) = CompatDiagnostics.capture { UIFont(name: "Menlo-Regular-Test", size: 13) }
        #expect(before.isEmpty, "holding a font is silent")
        let (_, after) = CompatDiagnostics.capture {
            #expect(font!.lineHeight > 13 && font!.ascender > 0 && font!.descender < 0)
        }
        #expect(after.count == 1, "one warning, naming the first use: \(after)")
        #expect(after.first?.contains("UIFont \"Menlo-Regular-Test\" 13.0 pt") == true)
        #expect(after.first?.contains("lineHeight") == true)
    }

    @Test("String measuring and drawing: estimates, the font's warning, draw says it draws nothing")
    func stringMeasuringAndDrawing() throws {
        let font = try #require(UIFont(name: "Courier-Test", size: 20))
        let ((size, two), measured) = CompatDiagnostics.capture {
            ("Loading…".size(withAttributes: [.font: font, .foregroundColor: UIColor.label]),
             ("a\nbb" as NSString).size(withAttributes: [.font: font]))
        }
        #expect(size.width > 60 && size.height >= 20)
        #expect(two.height == 2 * size.height)
        #expect(measured.filter { $0.contains("\"Courier-Test\" 20.0 pt") }.count == 1, "\(measured)")
        let (_, drawn) = CompatDiagnostics.capture { "x".draw(at: .zero, withAttributes: nil) }
        #expect(drawn.contains { $0.contains("String.draw(at:withAttributes:) draws nothing") })
        #expect(drawn.contains { $0.contains("\"Helvetica\" 12.0 pt") }, "UIKit's default font")
        #expect(NSAttributedString.Key.font.rawValue == "NSFont" && NSAttributedString.Key.foregroundColor.rawValue == "NSColor")
    }
}

/// `UIEdgeInsets`, `UIRectCorner`, `UIOffset`.
@Suite struct UIGeometryTests {
    @Test("UIEdgeInsets: zero, equality, CGRect.inset(by:)")
    func edgeInsets() {
        let i = UIEdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
        #expect(UIEdgeInsets.zero == UIEdgeInsets() && i != .zero)
        #expect(CGRect(x: 0, y: 0, width: 100, height: 50).inset(by: i) == CGRect(x: 2, y: 1, width: 94, height: 46))
        #expect(CGRect(x: 5, y: 5, width: 10, height: 10).inset(by: .zero) == CGRect(x: 5, y: 5, width: 10, height: 10))
        #expect("\(i)" == "{1.0, 2.0, 3.0, 4.0}")
    }

    @Test("UIRectCorner has UIKit's raw values; allCorners holds every corner")
    func rectCorner() {
        #expect(UIRectCorner.topLeft.rawValue == 1 && UIRectCorner.topRight.rawValue == 2)
        #expect(UIRectCorner.bottomLeft.rawValue == 4 && UIRectCorner.bottomRight.rawValue == 8)
        #expect(UIRectCorner.allCorners.rawValue == UInt.max)
        #expect(UIRectCorner.allCorners.isSuperset(of: [.topLeft, .topRight, .bottomLeft, .bottomRight]))
    }

    @Test("UIOffset")
    func offset() {
        #expect(UIOffset.zero == UIOffset(horizontal: 0, vertical: 0))
        #expect(UIOffset(horizontal: 3, vertical: -2).vertical == -2)
    }
}
