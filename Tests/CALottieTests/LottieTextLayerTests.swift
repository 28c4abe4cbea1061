import Testing
import Foundation

/// Text layers (`ty` 5, issue 23): the text document keyframes drawn from the file's glyph
/// outlines (`chars`) or through Core Text; positions by hand from bodymovin's text rules (the
/// first line's baseline at the layer's origin, lines `lh` apart, justified about x = 0).
@Suite struct LottieTextLayerTests {
    /// A font "TestFont" whose only glyph "I" is a 20×70 bar on the baseline (y up is negative in
    /// glyph space, as bodymovin exports) with an advance of 40, in a 100-unit em.
    static let fonts = #""fonts":{"list":[{"fName":"TestFont","fFamily":"Test","fStyle":"Regular","ascent":70}]},"#
        + #""chars":[{"ch":"I","size":100,"style":"Regular","fFamily":"Test","w":40,"data":{"shapes":[{"ty":"gr","it":["#
        + #"{"ty":"sh","ks":{"k":{"c":true,"v":[[0,0],[0,-70],[20,-70],[20,0]],"i":[[0,0],[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0],[0,0]]}}},"#
        + #"{"ty":"tr"}]}]}}],"#

    static func document(_ text: String, j: Int = 0, size: Double = 50, font: String = "TestFont", extra: String = "") -> String {
        #"{"s":\#(size),"f":"\#(font)","t":"\#(text)","j":\#(j),"tr":0,"lh":40,"ls":0,"fc":[0,0,1]\#(extra)}"#
    }

    static func textLayer(p: (Double, Double), docs: [(Double, String)], animators: String = "[]") -> String {
        let k = docs.map { #"{"s":\#($0.1),"t":\#($0.0)}"# }.joined(separator: ",")
        return #"{"ty":5,"ind":1,"ip":0,"op":100,"st":0,"ks":{"p":{"k":[\#(p.0),\#(p.1)]}},"t":{"d":{"k":[\#(k)]},"a":\#(animators),"p":{},"m":{"g":1}}}"#
    }

    static func animation(_ layer: String, glyphs: Bool = true) throws -> LottieAnimation {
        var data = lottie(layers: layer)
        if glyphs {
            var s = String(decoding: data, as: UTF8.self)
            s.insert(contentsOf: fonts, at: s.index(after: s.startIndex))
            data = Data(s.utf8)
        } else {
            var s = String(decoding: data, as: UTF8.self)
            s.insert(contentsOf: #""fonts":{"list":[{"fName":"DejaVuSans","fFamily":"DejaVu Sans","fStyle":"Book"}]},"#, at: s.index(after: s.startIndex))
            data = Data(s.utf8)
        }
        return try LottieAnimation(data: data)
    }

    static let blue = [0, 0, 255, 255]

    @Test func glyphOutlinesAreDrawnFromTheBaseline() throws {
        // Size 50: the bar is 10×35 with an advance of 20. Layer at (20, 60): "II" draws bars
        // x 20…30 and 40…50, y 25…60.
        let a = try Self.animation(Self.textLayer(p: (20, 60), docs: [(0, Self.document("II"))]))
        let img = try render(a, frame: 0)
        #expect(pixel(img, 25, 40) == Self.blue)
        #expect(pixel(img, 45, 40) == Self.blue)
        #expect(pixel(img, 35, 40)[3] == 0)      // between the bars
        #expect(pixel(img, 25, 22)[3] == 0)      // above the bar's top (y 25)
        #expect(pixel(img, 25, 62)[3] == 0)      // below the baseline
        #expect(!a.issues.contains { $0.feature.contains("text") })
    }

    @Test func justificationAlignsAboutTheOrigin() throws {
        // The line is 40 wide. Right (j 1) at x 60: bars 20…30 and 40…50; centred (j 2) at x 50:
        // bars 30…40 and 50…60.
        let right = try render(Self.animation(Self.textLayer(p: (60, 60), docs: [(0, Self.document("II", j: 1))])), frame: 0)
        #expect(pixel(right, 25, 40) == Self.blue)
        #expect(pixel(right, 45, 40) == Self.blue)
        #expect(pixel(right, 55, 40)[3] == 0)
        let centre = try render(Self.animation(Self.textLayer(p: (50, 60), docs: [(0, Self.document("II", j: 2))])), frame: 0)
        #expect(pixel(centre, 35, 40) == Self.blue)
        #expect(pixel(centre, 55, 40) == Self.blue)
        #expect(pixel(centre, 25, 40)[3] == 0)
    }

    @Test func linesAreLineHeightApart() throws {
        // "I\rI" with lh 40 at (20, 40): bars y 5…40 and 45…80.
        let a = try Self.animation(Self.textLayer(p: (20, 40), docs: [(0, Self.document(#"I\rI"#))]))
        let img = try render(a, frame: 0)
        #expect(pixel(img, 25, 20) == Self.blue)
        #expect(pixel(img, 25, 60) == Self.blue)
        #expect(pixel(img, 25, 42)[3] == 0)
    }

    @Test func documentKeyframesSwitchTheText() throws {
        // "I" from frame 0, "II" from frame 10 (documents hold until the next).
        let a = try Self.animation(Self.textLayer(p: (20, 60), docs: [(0, Self.document("I")), (10, Self.document("II"))]))
        #expect(try pixel(render(a, frame: 5), 45, 40)[3] == 0)
        #expect(try pixel(render(a, frame: 5), 25, 40) == Self.blue)
        #expect(try pixel(render(a, frame: 15), 45, 40) == Self.blue)
    }

    @Test func coreTextDrawsWithoutGlyphOutlines() throws {
        // No `chars`: DejaVu Sans through Core Text. "H" at size 40 from (10, 60): its ink lies
        // between the cap height (≈ 29 px above the baseline) and the baseline, right of x 10.
        let a = try Self.animation(Self.textLayer(p: (10, 60), docs: [(0, Self.document("H", size: 40, font: "DejaVuSans"))]), glyphs: false)
        let img = try render(a, frame: 0)
        var inside = 0, outside = 0
        for y in 0..<100 { for x in 0..<100 where pixel(img, x, y)[3] > 128 {
            if (10..<45).contains(x) && (28..<61).contains(y) { inside += 1 } else { outside += 1 }
        } }
        #expect(inside > 150)
        #expect(outside == 0)
        // Right justified at x 90: the ink lies left of 90.
        let r = try render(Self.animation(Self.textLayer(p: (90, 60), docs: [(0, Self.document("H", j: 1, size: 40, font: "DejaVuSans"))]), glyphs: false), frame: 0)
        var left = 0, right = 0
        for y in 0..<100 { for x in 0..<100 where pixel(r, x, y)[3] > 128 { if x < 90 { left += 1 } else { right += 1 } } }
        #expect(left > 150)
        #expect(right == 0)
    }

    @Test func animatorsAndPathsWarnByName() throws {
        let a = try Self.animation(Self.textLayer(p: (20, 60), docs: [(0, Self.document("I"))], animators: #"[{"nm":"Animator 1","s":{},"a":{}}]"#))
        _ = a.makeLayer()
        #expect(a.issues.filter { $0.feature == "text animators (t.a)" && $0.kind == .unsupported }.count == 1)
    }

    @Test func hugeTextIsClamped() throws {
        // Bad input: 20,000 characters and 1,000 document keyframes: cut with issues, in bounded time.
        let long = String(repeating: "I", count: 20_000)
        let docs = (0..<1000).map { (Double($0), Self.document($0 == 0 ? long : "I")) }
        let a = try Self.animation(Self.textLayer(p: (20, 60), docs: docs))
        _ = a.makeLayer()
        #expect(a.issues.contains { $0.kind == .limitReached && $0.feature == "text document keyframes" })
        #expect(a.issues.contains { $0.kind == .limitReached && $0.feature.hasPrefix("text longer than") })
    }
}
