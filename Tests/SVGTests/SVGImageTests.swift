import Testing
import Foundation

/// `<image>` (SVG 1.1 §5.7; issue 24): rasters and SVG documents as layers, placed by
/// preserveAspectRatio, read from data: URLs or files beside the document, never from the
/// network or outside the document's tree; hostile references are reported, never followed.
@Suite struct SVGImageTests {
    /// A PNG of `w` × `h` pixels filled column by column with `colors` (left to right, equal parts).
    static func png(_ w: Int, _ h: Int, _ colors: [(CGFloat, CGFloat, CGFloat)]) -> Data {
        let ctx = CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        for (i, c) in colors.enumerated() {
            ctx.setFillColor(CGColor(red: c.0, green: c.1, blue: c.2, alpha: 1))
            let x0 = w * i / colors.count, x1 = w * (i + 1) / colors.count
            ctx.fill(CGRect(x: x0, y: 0, width: x1 - x0, height: h))
        }
        return ctx.makeImage()!.pngData()!
    }

    static func dataURL(_ png: Data) -> String { "data:image/png;base64," + png.base64EncodedString() }

    /// RGB of pixel (x, y) of a render over white (y from the top).
    static func pixel(_ img: CGImage, _ x: Int, _ y: Int) -> [Int] {
        let b = img.rgba8Bytes
        let i = (y * img.width + x) * 4
        let inv = 255 - Int(b[i + 3])
        return [Int(b[i]) + inv, Int(b[i + 1]) + inv, Int(b[i + 2]) + inv]
    }

    static func near(_ a: [Int], _ b: [Int], _ tol: Int = 8) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) <= tol } }

    @Test func dataURLPNGFillsItsViewport() throws {
        let url = Self.dataURL(Self.png(2, 1, [(1, 0, 0), (0, 0, 1)]))
        let doc = try SVGDocument(string: """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10" width="20" height="10">
            <image x="0" y="0" width="20" height="10" preserveAspectRatio="none" href="\(url)"/></svg>
            """)
        #expect(doc.issues.isEmpty, "\(doc.issues)")
        let img = try SVGRenderCache().render(doc, pixelWidth: 20, pixelHeight: 10)
        // Linear filtering blends the two texels only near the middle column.
        #expect(Self.near(Self.pixel(img, 2, 5), [255, 0, 0]))
        #expect(Self.near(Self.pixel(img, 17, 5), [0, 0, 255]))
    }

    @Test func preserveAspectRatioMeetLetterboxesAndSliceCrops() throws {
        // A 2:1 image in a square viewport: meet leaves 5 px bands above and below (SVG 1.1 §7.8).
        let url = Self.dataURL(Self.png(2, 1, [(1, 0, 0), (1, 0, 0)]))
        let meet = try SVGDocument(string: """
            <svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">
            <image width="20" height="20" href="\(url)"/></svg>
            """)
        let a = try SVGRenderCache().render(meet, pixelWidth: 20, pixelHeight: 20)
        #expect(Self.near(Self.pixel(a, 10, 2), [255, 255, 255]))
        #expect(Self.near(Self.pixel(a, 10, 10), [255, 0, 0]))
        // slice fills the square and is clipped to it: nothing outside (x 20…30 is off the image).
        let slice = try SVGDocument(string: """
            <svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">
            <image width="20" height="20" preserveAspectRatio="xMinYMin slice" href="\(url)"/></svg>
            """)
        let b = try SVGRenderCache().render(slice, pixelWidth: 40, pixelHeight: 20)
        #expect(Self.near(Self.pixel(b, 10, 2), [255, 0, 0]))
        #expect(Self.near(Self.pixel(b, 25, 10), [255, 255, 255]))
    }

    @Test func missingHeightFollowsTheImageAspectRatio() throws {
        let url = Self.dataURL(Self.png(4, 2, [(0, 0, 1)]))
        let doc = try SVGDocument(string: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\"><image width=\"40\" href=\"\(url)\"/></svg>")
        let clip = try #require(doc.layer.sublayers?.first.flatMap { allLayers($0).first { $0.masksToBounds } })
        #expect(clip.bounds.size == CGSize(width: 40, height: 20))
    }

    /// A temporary folder tree, removed afterwards.
    static func withFolder(_ body: (URL) throws -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("svgimage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try body(dir)
    }

    @Test func filesBesideTheDocumentAreReadThroughContentsOf() throws {
        try Self.withFolder { dir in
            let sub = dir.appendingPathComponent("a/b")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            try Self.png(2, 2, [(0, 1, 0)]).write(to: dir.appendingPathComponent("a/green.png"))
            let svgText = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><image width=\"10\" height=\"10\" href=\"../green.png\"/></svg>"
            try svgText.write(to: sub.appendingPathComponent("doc.svg"), atomically: true, encoding: .utf8)
            let doc = try SVGDocument(contentsOf: sub.appendingPathComponent("doc.svg"))
            #expect(doc.issues.isEmpty, "\(doc.issues)")
            #expect(allLayers(doc.layer).contains { $0.contents != nil })
            // The same text as data has no folder: reported, nothing read.
            let fromData = try SVGDocument(string: svgText)
            #expect(!allLayers(fromData.layer).contains { $0.contents != nil })
            #expect(fromData.issues.contains { $0.kind == .externalReference })
        }
    }

    @Test func pathEscapesAbsolutePathsAndNetworkURLsAreRefused() throws {
        try Self.withFolder { dir in
            let deep = dir.appendingPathComponent("a/b/c/d")
            try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
            for href in ["../../../../../../../../etc/passwd", "/etc/passwd", "file:///etc/passwd", "http://example.com/x.png",
                         "%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd"] {
                let text = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><image width=\"10\" height=\"10\" href=\"\(href)\"/></svg>"
                try text.write(to: deep.appendingPathComponent("doc.svg"), atomically: true, encoding: .utf8)
                let doc = try SVGDocument(contentsOf: deep.appendingPathComponent("doc.svg"))
                #expect(doc.issues.contains { $0.kind == .externalReference }, "\(href): \(doc.issues)")
                #expect(!allLayers(doc.layer).contains { $0.contents != nil })
            }
        }
    }

    @Test func aDocumentReferringToItselfIsCut() throws {
        try Self.withFolder { dir in
            let a = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><image width=\"10\" height=\"10\" href=\"a.svg\"/><rect width=\"2\" height=\"2\"/></svg>"
            try a.write(to: dir.appendingPathComponent("a.svg"), atomically: true, encoding: .utf8)
            let doc = try SVGDocument(contentsOf: dir.appendingPathComponent("a.svg"))
            // Drawn once inside itself (as resvg's structure/image/recursive-2); that copy reads no file.
            #expect(doc.issues.contains { $0.kind == .externalReference && $0.feature.contains("a.svg") }, "\(doc.issues)")
            #expect(shapeLayers(doc.layer).count == 2)
        }
    }

    @Test func recursiveSVGImagesAreCut() throws {
        try Self.withFolder { dir in
            let a = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><image width=\"10\" height=\"10\" href=\"b.svg\"/><rect width=\"2\" height=\"2\"/></svg>"
            let b = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><image width=\"10\" height=\"10\" href=\"a.svg\"/><rect width=\"3\" height=\"3\"/></svg>"
            try a.write(to: dir.appendingPathComponent("a.svg"), atomically: true, encoding: .utf8)
            try b.write(to: dir.appendingPathComponent("b.svg"), atomically: true, encoding: .utf8)
            let doc = try SVGDocument(contentsOf: dir.appendingPathComponent("a.svg"))
            // An SVG image reads no files of its own (as resvg): b's reference to a is reported.
            #expect(doc.issues.contains { $0.kind == .externalReference && $0.feature.contains("a.svg") }, "\(doc.issues)")
            // a's rect and b's rect: b is drawn once inside a, a not again inside b.
            #expect(shapeLayers(doc.layer).count == 2)
        }
    }

    @Test func nestedDataSVGImagesStopAtTheDepthLimit() throws {
        var inner = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><rect width=\"1\" height=\"1\"/></svg>"
        for _ in 0..<8 {
            inner = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><image width=\"10\" height=\"10\" href=\"data:image/svg+xml;base64,\(Data(inner.utf8).base64EncodedString())\"/></svg>"
        }
        let doc = try SVGDocument(string: inner)
        #expect(doc.issues.contains { $0.kind == .limitReached })
        #expect(shapeLayers(doc.layer).isEmpty)
    }

    /// A PNG header declaring 100,000 × 100,000 pixels and no pixel data.
    static func hugePNGHeader() -> Data {
        func crc(_ bytes: [UInt8]) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for b in bytes {
                c ^= UInt32(b)
                for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            return c ^ 0xFFFF_FFFF
        }
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let ihdr: [UInt8] = Array("IHDR".utf8) + be(100_000) + be(100_000) + [8, 6, 0, 0, 0]
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += be(13) + ihdr + be(crc(ihdr))
        let iend: [UInt8] = Array("IEND".utf8)
        out += be(0) + iend + be(crc(iend))
        return Data(out)
    }

    @Test func aHundredThousandPixelSidePNGIsRefusedWithAnIssue() throws {
        let url = Self.dataURL(Self.hugePNGHeader())
        let doc = try SVGDocument(string: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><image width=\"10\" height=\"10\" href=\"\(url)\"/></svg>")
        #expect(doc.issues.contains { $0.feature.hasPrefix("<image") }, "\(doc.issues)")
        #expect(!allLayers(doc.layer).contains { $0.contents != nil })
    }

    @Test func aDataURLOverTheLimitIsNotDecoded() throws {
        // 9 MB of base64 (6.75 MiB decoded, over the 6 MiB data: URL limit, under libxml2's
        // 10 MB attribute limit): refused on the payload's length, before any decoding.
        let payload = String(repeating: "A", count: 9_000_000)
        let text = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><image width=\"10\" height=\"10\" href=\"data:image/png;base64,\(payload)\"/></svg>"
        do {
            let doc = try SVGDocument(string: text)
            #expect(doc.issues.contains { $0.kind == .limitReached && $0.feature.contains("data: URL") }, "\(doc.issues)")
        } catch let e as SVGError {
            // libxml2 may refuse an attribute this long first: also a clear error.
            #expect(!e.description.isEmpty)
        }
    }
}
