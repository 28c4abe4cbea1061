import Testing
import Foundation

/// Seeded property-based mutation of SVG documents and path strings (issue 6 "Bad input":
/// fuzz the SVG and path-data parsers). Properties: every input imports or throws `SVGError`
/// (no crash, no hang), path output has only finite coordinates, and no import takes long.
/// Short by default for CI; see Fuzz/README.md for a longer run.
@Suite struct SVGFuzzTests {
    typealias Rng = SplitMix64

    static let env = ProcessInfo.processInfo.environment
    static let iterations = Int(env["CA_SVG_FUZZ_ITERATIONS"] ?? "") ?? 150
    static let seed = UInt64(env["CA_SVG_FUZZ_SEED"] ?? "") ?? 0x5EED_5EED
    static let seedDir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fuzz")

    static let tokens: [String] = [
        "<", ">", "/>", "</g>", "<g>", "\"", "'", "&", "&amp;", "&lol;", "=", " ", "-", ".", "e", "E", "1e999", "-1e-999",
        "NaN", "inf", "0", "9", ",", "#", "url(#a)", "url(#", "href=\"#g\"", "<use href=\"#g\"/>", "<!ENTITY x \"y\">",
        "<![CDATA[", "]]>", "<!--", "-->", "transform=\"rotate(", ")", "(", "d=\"M", "A", "a1 1 0 1 1", "z", "Z", "%",
        "viewBox=\"0 0 0 0\"", "style=\"", ";", ":", "fill=\"url(#c)\"", "mask=\"url(#m)\"", "clip-path=\"url(#c)\"",
        "\u{0}", "\u{FFFF}", "é", "<svg>", "<mask id=\"m\">", "</mask>", "stroke-dasharray=\"", "1 -1",
    ]

    static func mutate(_ input: [UInt8], _ rng: inout Rng) -> [UInt8] {
        var b = input
        for _ in 0..<(1 + rng.int(4)) {
            switch rng.int(9) {
            case 0 where !b.isEmpty:          // any byte (often not UTF-8)
                b[rng.int(b.count)] = UInt8(truncatingIfNeeded: rng.next())
            case 4 where !b.isEmpty:          // a printable ASCII byte
                b[rng.int(b.count)] = UInt8(0x20 + rng.int(95))
            case 5, 6, 7:                     // a token, most often
                b.insert(contentsOf: Array(tokens[rng.int(tokens.count)].utf8), at: rng.int(b.count + 1))
            case 1:                           // insert a token
                b.insert(contentsOf: Array(tokens[rng.int(tokens.count)].utf8), at: rng.int(b.count + 1))
            case 2 where b.count > 2:         // delete a range
                let s = rng.int(b.count), n = min(1 + rng.int(32), b.count - s)
                b.removeSubrange(s..<(s + n))
            case 3 where b.count > 2:         // duplicate a range (nesting, repeated attributes)
                let s = rng.int(b.count), n = min(1 + rng.int(64), b.count - s)
                b.insert(contentsOf: b[s..<(s + n)], at: rng.int(b.count + 1))
            default:                          // truncate
                if b.count > 1 { b.removeLast(rng.int(b.count / 4 + 1)) }
            }
        }
        return b
    }

    @Test func svgDocumentsSurviveMutation() throws {
        let files = try FileManager.default.contentsOfDirectory(at: Self.seedDir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "svg" }.sorted { $0.path < $1.path }
        let seeds = try files.map { try [UInt8](Data(contentsOf: $0)) }
        #expect(seeds.count >= 5)
        // The seeds themselves import cleanly.
        for (f, s) in zip(files, seeds) {
            let doc = try SVGDocument(data: Data(s))
            #expect(!(doc.layer.sublayers ?? []).isEmpty, "\(f.lastPathComponent) draws something")
        }
        var rng = Rng(state: Self.seed)
        var imported = 0, rejected = 0
        // Smaller than the defaults, so that a mutant that multiplies its elements is cut early;
        // the same code enforces any limit.
        var limits = SVGImportLimits()
        limits.maxElements = 50_000
        limits.maxPathSegments = 100_000
        let start = Date()
        for i in 0..<Self.iterations {
            let mutant = Self.mutate(seeds[rng.int(seeds.count)], &rng)
            // A crash leaves the input that caused it behind.
            if let last = Self.env["CA_SVG_FUZZ_LAST"] { try Data(mutant).write(to: URL(fileURLWithPath: last)) }
            do {
                let doc = try SVGDocument(data: Data(mutant), limits: limits)
                // The work an import may do is bounded by the limits it enforces, whatever the
                // input (duplicated <use> chains, long path data): checked here instead of a
                // per-input time, which a slow machine could exceed.
                let layers = allLayers(doc.layer)
                // (An element may become up to a container, a gradient layer and a mask shape.)
                #expect(layers.count <= 4 * limits.maxElements + 1, "seed \(Self.seed) iteration \(i): \(layers.count) layers")
                for case let shape as CAShapeLayer in layers {
                    var elements = 0
                    shape.path?.applyWithBlock { _ in elements += 1 }
                    // (An arc is up to four cubics.)
                    #expect(elements <= 4 * limits.maxPathSegments + 1, "seed \(Self.seed) iteration \(i): a path of \(elements) elements")
                }
                imported += 1
            } catch is SVGError {
                rejected += 1
            } catch {
                Issue.record("seed \(Self.seed) iteration \(i): not an SVGError: \(error)")
            }
        }
        print("SVG fuzz: \(Self.iterations) mutants, \(imported) imported, \(rejected) rejected with SVGError, \(String(format: "%.2f", Date().timeIntervalSince(start))) s")
        #expect(imported + rejected == Self.iterations)
    }

    @Test func pathDataSurvivesRandomStrings() {
        var rng = Rng(state: Self.seed ^ 0xA5A5)
        let alphabet = Array("MmLlHhVvCcSsQqTtAaZz0123456789.,-+eE \n\t01".utf8)
        for i in 0..<(Self.iterations * 20) {
            let n = rng.int(80)
            let bytes = (0..<n).map { _ in alphabet[rng.int(alphabet.count)] }
            let s = String(decoding: bytes, as: UTF8.self)
            let r = SVGPathParser.parse(s)
            var finite = true
            r.path.applyWithBlock { p in
                let e = p.pointee
                let count = e.type == .addCurveToPoint ? 3 : e.type == .addQuadCurveToPoint ? 2 : e.type == .closeSubpath ? 0 : 1
                for k in 0..<count where !e.points[k].x.isFinite || !e.points[k].y.isFinite || abs(e.points[k].x) > 1e10 {
                    finite = false
                }
            }
            #expect(finite, "seed \(Self.seed) iteration \(i): non-finite or unclamped coordinate from \"\(s)\"")
        }
    }
}
