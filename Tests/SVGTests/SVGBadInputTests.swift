import Testing
import Foundation

/// Hostile and malformed input (issue 6 "Bad input"): a clear `SVGError` or a documented clamp
/// listed in `issues`, never a crash or a hang.
@Suite struct SVGBadInputTests {
    /// Runs `body` and returns its seconds, for printing only: hostile input is bounded by the
    /// limits the importer enforces (and the errors they produce), never by the clock.
    func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let t0 = Date()
        let r = try body()
        return (r, Date().timeIntervalSince(t0))
    }

    @Test func truncatedAndMalformedXML() {
        for text in ["<svg xmlns=\"http://www.w3.org/2000/svg\"><rect", "<svg><g></svg>", "", "not xml", "<svg><rect x=\"1></svg>"] {
            #expect(throws: SVGError.self) { try SVGDocument(string: text) }
        }
        do {
            _ = try SVGDocument(string: "<svg><g></svg>")
        } catch let e as SVGError {
            guard case .malformedXML(_, let line, _) = e else { Issue.record("wrong error \(e)"); return }
            #expect(line >= 1)
            #expect(e.description.hasPrefix("SVG: malformed XML at line"))
        } catch { Issue.record("\(error)") }
    }

    @Test func invalidUTF8IsAnErrorAndOtherEncodingsAreTranscoded() throws {
        // This input crashes Foundation's XMLParser on Linux (measured); it must be an error.
        let crasher = Data([UInt8]("<t x=\"\" y=\"\" ".utf8) + [0xD5] + [UInt8]("x=\"".utf8))
        #expect(throws: SVGError.self) { try SVGDocument(data: crasher) }
        let latin1 = Data([UInt8]("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><svg xmlns=\"http://www.w3.org/2000/svg\"><title>caf".utf8) + [0xE9] + [UInt8]("</title><rect width=\"1\" height=\"1\"/></svg>".utf8))
        #expect(shapeLayers(try SVGDocument(data: latin1).layer).count == 1)
        let utf16 = "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect width=\"1\" height=\"1\"/></svg>".data(using: .utf16)!
        #expect(shapeLayers(try SVGDocument(data: utf16).layer).count == 1)
    }

    @Test func rootMustBeSVG() {
        #expect(throws: SVGError.notSVG(rootElement: "html")) { try SVGDocument(string: "<html/>") }
    }

    @Test func billionLaughsIsRejectedBeforeParsing() throws {
        var dtd = "<!DOCTYPE svg [<!ENTITY l0 \"lol\">"
        for i in 1...9 { dtd += "<!ENTITY l\(i) \"" + String(repeating: "&l\(i - 1);", count: 10) + "\">" }
        dtd += "]>"
        let result = Result { try SVGDocument(string: "<?xml version=\"1.0\"?>" + dtd + "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"&l9;\"/>") }
        // The expansion is measured from the declarations and refused before any parsing: the
        // limit's error is the bound on the work.
        guard case .failure(let e as SVGError) = result, case .entityExpansionLimit = e else {
            Issue.record("expected entityExpansionLimit, got \(result)"); return
        }
        // A modest build-up below the XML library's own amplification guard (3 × 10³ characters)
        // is still rejected by ours when the limit is lower.
        var small = "<!DOCTYPE svg [<!ENTITY a \"0123456789\"><!ENTITY b \"" + String(repeating: "&a;", count: 300) + "\">]>"
        small += "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"&b;\"/>"
        var limits = SVGImportLimits()
        limits.maxEntityExpansion = 1000
        #expect(throws: SVGError.self) { try SVGDocument(string: small, limits: limits) }
        // Self reference and parameter entities.
        #expect(throws: SVGError.self) { try SVGDocument(string: "<!DOCTYPE svg [<!ENTITY a \"&a;\">]><svg/>") }
        #expect(throws: SVGError.self) { try SVGDocument(string: "<!DOCTYPE svg [<!ENTITY % p \"x\">]><svg/>") }
    }

    @Test func harmlessEntitiesStillWork() throws {
        // Illustrator-style namespace entities expand (within the limits).
        let doc = try SVGDocument(string: "<!DOCTYPE svg [<!ENTITY ns \"http://www.w3.org/2000/svg\"><!ENTITY c \"lime\">]><svg xmlns=\"&ns;\" viewBox=\"0 0 10 10\"><rect width=\"5\" height=\"5\" fill=\"&c;\"/></svg>")
        #expect(rgba(shapeLayers(doc.layer).first?.fillColor) == [0, 1, 0, 1])
    }

    /// Issue 17: each of these killed the process with SIGSEGV inside Foundation's `XMLParser`
    /// on Linux (libxml2 passes a NULL string, Foundation calls strlen on it; measured with a
    /// bare XMLParser and this toolchain). Now each imports, or fails with an `SVGError`.
    @Test func markupThatCrashedXMLParserIsBlankedOrRejected() throws {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\">"
        let rect = "<rect width=\"5\" height=\"5\"/>"
        let imports = [
            svg + "<?foo?>" + rect + "</svg>",                       // empty PI in content
            "<?foo?>" + svg + rect + "</svg>",                       // … in the prolog
            svg + rect + "</svg><?foo?>",                            // … after the root
            "<?xml version=\"1.0\"?><?xml-stylesheet?>" + svg + rect + "</svg>",
            "<?xml-foo?>" + svg + rect + "</svg>",
            "<?xml?>" + svg + rect + "</svg>",                       // not a declaration (no space)
            svg + "<?foo bar?><?a?><?b ?>" + rect + "</svg>",         // with and without data
            "<!DOCTYPE svg [<?foo?>]>" + svg + rect + "</svg>",      // … in the internal subset
            "<!DOCTYPE svg [<!NOTATION n SYSTEM \"s\">]>" + svg + rect + "</svg>",
            "<!DOCTYPE svg [<!NOTATION n PUBLIC \"p\">]>" + svg + rect + "</svg>",
            "<!DOCTYPE svg [<!ENTITY e SYSTEM \"x\" NDATA n>]>" + svg + rect + "</svg>",
            "<!DOCTYPE svg [<!ATTLIST svg a CDATA #IMPLIED>]>" + svg + rect + "</svg>",
            "<!DOCTYPE svg [<!ATTLIST rect a ENTITY #IMPLIED>]>" + svg + "<rect a=\"x\" width=\"5\" height=\"5\"/></svg>",
            // A PI-looking text inside a comment, a CDATA section or a quoted value is not a PI.
            svg + "<!-- <?foo?> --><style><![CDATA[ /* <?x?> */ ]]></style><title>a ?> b</title>" + rect + "</svg>",
        ]
        for text in imports {
            let doc = try SVGDocument(string: text)
            #expect(shapeLayers(doc.layer).count == 1, "\(text)")
        }
        let errors = [
            svg + "<?foo",                                           // unterminated
            "<!DOCTYPE svg [<!ENTITY e \"<?foo?>\">]>" + svg + "<g>&e;</g>" + rect + "</svg>",
            "<!DOCTYPE svg [<!ENTITY e \"&#60;?foo?>\">]>" + svg + "<g>&e;</g>" + rect + "</svg>",
            "<!DOCTYPE svg [<!ENTITY e \"&#x3c;&#x3F;foo?>\">]>" + svg + "<g>&e;</g>" + rect + "</svg>",
        ]
        for text in errors {
            #expect(throws: SVGError.self, "\(text)") { try SVGDocument(string: text) }
        }
        // Blanking keeps line numbers: an error after a removed multi-line PI is on its own line.
        do {
            _ = try SVGDocument(string: "<?foo\n\n?>" + svg + "\n\n<g></svg>")
            Issue.record("expected an error")
        } catch let e as SVGError {
            guard case .malformedXML(_, let line, _) = e else { Issue.record("wrong error \(e)"); return }
            #expect(line == 5)
        }
    }

    /// Issue 17: a repeating gradient over a tiny axis or radius made the number of periods
    /// any size, and `Int(_:)` of it trapped (SIGILL). Now it saturates and the gradient is
    /// padded, with the limit reported.
    @Test func repeatingGradientOverATinyAxisIsPadded() throws {
        for gradient in [
            "<linearGradient id=\"g\" gradientUnits=\"userSpaceOnUse\" x1=\"0\" y1=\"0\" x2=\"1e-150\" y2=\"0\" spreadMethod=\"repeat\">",
            "<linearGradient id=\"g\" gradientUnits=\"userSpaceOnUse\" x1=\"0\" y1=\"0\" x2=\"1e-150\" y2=\"0\" spreadMethod=\"reflect\">",
            "<radialGradient id=\"g\" gradientUnits=\"userSpaceOnUse\" cx=\"5\" cy=\"5\" r=\"1e-150\" spreadMethod=\"repeat\">",
        ] {
            let doc = try SVGDocument(string: """
                <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs>\(gradient)
                <stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/></\(gradient.hasPrefix("<linear") ? "linearGradient" : "radialGradient")></defs>
                <rect width="10" height="10" fill="url(#g)"/></svg>
                """)
            #expect(allLayers(doc.layer).count > 1, "\(gradient)")
        }
    }

    @Test func externalEntitiesAndReferencesAreNeverFetched() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("casvg-secret-\(getpid()).txt")
        try "red".write(to: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secret) }
        // (An external entity may not appear in an attribute value at all — XML 1.0 WFC "No
        // External Entity References" — so it is used in a style sheet's text.)
        let doc = try SVGDocument(string: """
            <!DOCTYPE svg [<!ENTITY x SYSTEM "\(secret.absoluteString)">]>
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><style>rect { fill: &x; }</style><rect width="5" height="5"/>
            <use href="\(secret.absoluteString)#a"/><rect width="1" height="1" fill="url(http://example.com/p.svg#g) blue"/></svg>
            """)
        // The entity expands to nothing: the rule's value is empty, so the default black stays.
        #expect(rgba(shapeLayers(doc.layer).first?.fillColor) == [0, 0, 0, 1])
        #expect(doc.issues.contains { $0.kind == .externalReference && $0.feature.contains("ENTITY x") })
        #expect(doc.issues.contains { $0.kind == .externalReference && $0.feature.hasPrefix("<use") })
        #expect(doc.issues.contains { $0.kind == .externalReference && $0.feature.hasPrefix("fill=url(http") })
        #expect(rgba(shapeLayers(doc.layer).last?.fillColor) == [0, 0, 1, 1])
        // A standard external DTD reference parses offline without loading anything.
        let dtd = try SVGDocument(string: "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\"><svg xmlns=\"http://www.w3.org/2000/svg\"/>")
        #expect(dtd.size == CGSize(width: 100, height: 100))
        #expect(throws: SVGError.self) { try SVGDocument(contentsOf: URL(string: "http://example.com/a.svg")!) }
    }

    @Test("A device, a pipe or an oversized file is refused before it is read (no endless read of /dev/zero)")
    func filesThatMustNotBeRead() throws {
        #expect(throws: SVGError.unreadableFile("/dev/zero is not a regular file")) { try SVGDocument(contentsOf: URL(fileURLWithPath: "/dev/zero")) }
        #expect(throws: SVGError.unreadableFile("/nonexistent/a.svg not found")) { try SVGDocument(contentsOf: URL(fileURLWithPath: "/nonexistent/a.svg")) }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("svg-size-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("big.svg")
        try Data(("<svg xmlns=\"http://www.w3.org/2000/svg\">" + String(repeating: " ", count: 4096) + "</svg>").utf8).write(to: file)
        var small = SVGImportLimits()
        small.maxInputBytes = 1024
        #expect {
            try SVGDocument(contentsOf: file, limits: small)
        } throws: { error in
            guard case SVGError.inputTooLarge(let bytes, let limit)? = error as? SVGError else { return false }
            return bytes > 4096 && limit == 1024
        }
        #expect(try SVGDocument(contentsOf: file).size == CGSize(width: 100, height: 100))
    }

    @Test func deepNestingHitsTheLimit() throws {
        let deep = "<svg xmlns=\"http://www.w3.org/2000/svg\">" + String(repeating: "<g>", count: 100_000) + String(repeating: "</g>", count: 100_000) + "</svg>"
        let result = Result { try SVGDocument(string: deep) }
        // Refused at depth 256 (the limit's error), not after walking 100,000 levels.
        guard case .failure(let e as SVGError) = result, case .nestingTooDeep(256) = e else {
            Issue.record("expected nestingTooDeep, got \(result)"); return
        }
        // Within the limit: fine.
        let ok = "<svg xmlns=\"http://www.w3.org/2000/svg\">" + String(repeating: "<g>", count: 200) + "<rect width=\"1\" height=\"1\"/>" + String(repeating: "</g>", count: 200) + "</svg>"
        #expect(shapeLayers(try SVGDocument(string: ok).layer).count == 1)
    }

    @Test func hugeNumbersAreClampedOrRejected() throws {
        let doc = try svg("<rect width=\"1e300\" height=\"1e999\" x=\"-1e40\"/><circle r=\"99999999999999999999999999999\"/><path d=\"M0 0 L1e308 1e308\" stroke=\"black\" stroke-width=\"1e300\"/><g transform=\"scale(1e300)\"><rect width=\"1\" height=\"1\"/></g>")
        #expect(doc.issues.contains { $0.kind == .limitReached })
        for s in shapeLayers(doc.layer) {
            let b = s.path!.boundingBoxOfPath
            #expect(b.maxX.isFinite && abs(b.maxX) <= 1e9 && abs(b.minX) <= 1e9)
        }
        // A 10⁶-digit number.
        let digits = String(repeating: "9", count: 1_000_000)
        let (d2, dt) = try timed { try svg("<rect width=\"\(digits)\" height=\"1\"/>") }
        print("SVG bad input: a 10⁶-digit number imported in \(String(format: "%.2f", dt)) s")
        // One rectangle, its size clamped to the coordinate limit.
        let rects = shapeLayers(d2.layer)
        #expect(rects.count <= 1)
        for s in rects {
            let b = try #require(s.path).boundingBoxOfPath
            #expect(b.width.isFinite && b.width <= SVGImportLimits().maxCoordinate, "\(b)")
        }
    }

    @Test func millionPathCommandsInBoundedTime() throws {
        let d = "M0 0" + String(repeating: " L1 1 l-1 -1", count: 499_999) + " L1 1"
        let (r, dt) = timed { SVGPathParser.parse(d) }
        print("SVG bad input: 1,000,000 path segments parsed in \(String(format: "%.2f", dt)) s")
        #expect(r.error == nil)
        #expect(r.segments == 1_000_000)
        // Past the limit: truncated and reported.
        var limits = SVGImportLimits()
        limits.maxPathSegments = 1000
        let doc = try SVGDocument(string: "<svg xmlns=\"http://www.w3.org/2000/svg\"><path d=\"\(d.prefix(40_000))\"/></svg>", limits: limits)
        #expect(doc.issues.contains { $0.kind == .limitReached && $0.feature == "path data" })
        #expect(dump(shapeLayers(doc.layer).first?.path).count == 1000)
    }

    @Test func exponentialUseExpansionIsBounded() throws {
        // Each level uses the previous one ten times: 10^12 rectangles if expanded naively.
        var body = "<defs><rect id=\"u0\" width=\"1\" height=\"1\"/>"
        for i in 1...12 { body += "<g id=\"u\(i)\">" + String(repeating: "<use href=\"#u\(i - 1)\"/>", count: 10) + "</g>" }
        body += "</defs><use href=\"#u12\"/>"
        var limits = SVGImportLimits()
        limits.maxElements = 20_000
        let (doc, dt) = try timed { try SVGDocument(string: "<svg xmlns=\"http://www.w3.org/2000/svg\">\(body)</svg>", limits: limits) }
        print("SVG bad input: 10¹² <use> rectangles cut to the element limit in \(String(format: "%.2f", dt)) s")
        #expect(doc.issues.contains { $0.kind == .limitReached && $0.feature == "element count" })
        // Expansion stops at the limit: the layer tree is bounded by it, not by 10¹².
        let layers = allLayers(doc.layer).count
        // (An element may become up to a container, a gradient layer and a mask shape.)
        #expect(layers <= 4 * limits.maxElements + 1, "\(layers) layers for a limit of \(limits.maxElements) elements")
    }

    @Test func tooManyElementsAndTooLargeInput() {
        var limits = SVGImportLimits()
        limits.maxElements = 100
        let many = "<svg xmlns=\"http://www.w3.org/2000/svg\">" + String(repeating: "<rect/>", count: 200) + "</svg>"
        #expect(throws: SVGError.tooManyElements(limit: 100)) { try SVGDocument(string: many, limits: limits) }
        limits.maxInputBytes = 10
        #expect(throws: SVGError.inputTooLarge(bytes: many.utf8.count, limit: 10)) { try SVGDocument(string: many, limits: limits) }
    }

    @Test func brokenReferences() throws {
        let doc = try svg("<rect width=\"10\" height=\"10\" clip-path=\"url(#missing)\"/><rect width=\"10\" height=\"10\" mask=\"url(#gone)\"/><use href=\"#nothing\"/>")
        // CSS Masking 1: a missing clipPath is no clip; a mask reference to no element is no
        // mask either (as the browsers and resvg draw it; masking/mask/invalid-FuncIRI).
        #expect(shapeLayers(doc.layer).count == 2)
        #expect(doc.layer.sublayers?.first.map(allLayers)?.contains { $0.mask != nil } == false)
        #expect(doc.issues.filter { $0.kind == .brokenReference }.count == 3)
        // clip-path and mask cycles.
        let cyc = try svg("<clipPath id=\"a\" clip-path=\"url(#b)\"><rect width=\"5\" height=\"5\"/></clipPath><clipPath id=\"b\" clip-path=\"url(#a)\"><rect width=\"5\" height=\"5\"/></clipPath><rect width=\"10\" height=\"10\" clip-path=\"url(#a)\"/><mask id=\"m\"><rect width=\"5\" height=\"5\" mask=\"url(#m)\" fill=\"white\"/></mask><rect width=\"10\" height=\"10\" mask=\"url(#m)\"/>")
        #expect(cyc.issues.contains { $0.detail.contains("cycle") })
    }
}

/// Issue 17.4: nested clip-path and mask references fan out (each reference builds its target
/// again, nested ones multiply): a few kilobytes asked for gigabytes. The references' total
/// expansion is now a budget (`SVGImportLimits.maxReferenceExpansion`).
@Suite struct SVGReferenceFanOutTests {
    /// clipPath c0 is one rect; c(k) holds `fan` rects each clipped by c(k−1); the drawn rect
    /// uses c(levels−1): fan^levels instantiations (8^9 ≈ 134 million) without the budget.
    static func fanOut(_ kind: String, levels: Int = 9, fan: Int = 8) -> String {
        var defs = ""
        for k in 0..<levels {
            let attr = kind == "clipPath" ? "clip-path" : "mask"
            let body = k == 0 ? "<rect width=\"10\" height=\"10\" fill=\"white\"/>"
                : (0..<fan).map { i in "<rect x=\"\(i)\" width=\"10\" height=\"10\" fill=\"white\" \(attr)=\"url(#r\(k - 1))\"/>" }.joined()
            defs += "<\(kind) id=\"r\(k)\">\(body)</\(kind)>"
        }
        let attr = kind == "clipPath" ? "clip-path" : "mask"
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"20\"><defs>\(defs)</defs>"
            + "<rect width=\"20\" height=\"20\" fill=\"red\" \(attr)=\"url(#r\(levels - 1))\"/></svg>"
    }

    static func layerCount(_ root: CALayer) -> Int {
        var n = 0
        var stack = [root]
        while let l = stack.popLast() {
            n += 1
            stack.append(contentsOf: l.sublayers ?? [])
            if let m = l.mask { stack.append(m) }
        }
        return n
    }

    @Test(arguments: ["clipPath", "mask"])
    func nestedReferencesStopAtTheBudget(kind: String) throws {
        let text = Self.fanOut(kind)
        #expect(text.utf8.count < 8_000)
        #expect(SVGImportLimits().maxReferenceExpansion == 100_000)
        // A lower budget than the default keeps the test quick; the bound is the same rule.
        var limits = SVGImportLimits()
        limits.maxReferenceExpansion = 5_000
        let doc = try SVGDocument(data: Data(text.utf8), limits: limits)
        #expect(doc.issues.contains { $0.description.contains("instantiated through clip-path and mask references") }, "\(doc.issues)")
        // Bounded by the budget, not 8^9.
        #expect(Self.layerCount(doc.layer) <= 2 * limits.maxReferenceExpansion)
        var small = SVGImportLimits()
        small.maxReferenceExpansion = 50
        let tight = try SVGDocument(data: Data(text.utf8), limits: small)
        #expect(Self.layerCount(tight.layer) <= 200)
    }

    @Test func aFewReferencesAreUnaffected() throws {
        let doc = try SVGDocument(string: Self.fanOut("clipPath", levels: 2, fan: 3))
        #expect(!doc.issues.contains { $0.description.contains("references") })
        #expect(Self.layerCount(doc.layer) > 3)
    }
}

/// Issue 17 item 5: `<use>` fan-out stays under `maxElements` and still asks for gigabytes (ten
/// levels of groups of ten uses of the level below: 4.67 GB); repeating a long path through
/// `<use>` multiplies its segments. `maxUseExpansion` and `maxTotalPathSegments` bound both;
/// the counts are work done, never time.
@Suite struct SVGUseFanOutTests {
    /// g0 is one rect (or `leaf`); g(k) holds `fan` uses of g(k−1); the document draws g(levels−1).
    static func fanOut(levels: Int, fan: Int, leaf: String = "<rect width=\"1\" height=\"1\"/>") -> String {
        var defs = "<g id=\"g0\">\(leaf)</g>"
        for k in 1..<levels {
            defs += "<g id=\"g\(k)\">" + (0..<fan).map { i in "<use href=\"#g\(k - 1)\" x=\"\(i)\"/>" }.joined() + "</g>"
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"20\"><defs>\(defs)</defs><use href=\"#g\(levels - 1)\"/></svg>"
    }

    @Test func defaults() {
        #expect(SVGImportLimits().maxUseExpansion == 100_000)
        #expect(SVGImportLimits().maxTotalPathSegments == 4_000_000)
    }

    @Test("nested <use> fan-out stops at maxUseExpansion (10^8 instances asked for by 2 KB)")
    func useFanOutStopsAtTheBudget() throws {
        let text = Self.fanOut(levels: 9, fan: 10)
        #expect(text.utf8.count < 2_500)
        var limits = SVGImportLimits()
        limits.maxUseExpansion = 2_000
        let doc = try SVGDocument(data: Data(text.utf8), limits: limits)
        #expect(doc.issues.contains { $0.description.contains("instantiated through <use>") }, "\(doc.issues)")
        // Bounded by the budget (each instance builds at most its subtree's layers), not 10^8.
        #expect(SVGReferenceFanOutTests.layerCount(doc.layer) <= 2 * limits.maxUseExpansion + 50)
        // A few uses are unaffected.
        let few = try SVGDocument(string: Self.fanOut(levels: 3, fan: 3))
        #expect(!few.issues.contains { $0.description.contains("<use>") })
        #expect(SVGReferenceFanOutTests.layerCount(few.layer) >= 9)
    }

    @Test("a long path repeated through <use> stops at maxTotalPathSegments, before parsing more")
    func repeatedPathStopsAtTheSegmentBudget() throws {
        let d = "M0 0" + String(repeating: " L1 1", count: 999)      // 1,000 segments
        let text = Self.fanOut(levels: 3, fan: 10, leaf: "<path d=\"\(d)\"/>")   // 100 instances
        var limits = SVGImportLimits()
        limits.maxTotalPathSegments = 20_500
        let doc = try SVGDocument(data: Data(text.utf8), limits: limits)
        #expect(doc.issues.contains { $0.description.contains("more than 20500 path segments") }, "\(doc.issues)")
        var shapes = 0
        var stack = [doc.layer]
        while let l = stack.popLast() {
            if let s = l as? CAShapeLayer, s.path != nil { shapes += 1 }
            stack.append(contentsOf: l.sublayers ?? [])
        }
        #expect(shapes == 20)
        limits.maxTotalPathSegments = 100_000
        let all = try SVGDocument(data: Data(text.utf8), limits: limits)
        #expect(!all.issues.contains { $0.description.contains("path segments") })
    }
}
