import Testing
import Foundation

/// Text layers in scene files (docs/SCENE-FORMAT.md, "Text layers"): `CATextLayer` with a plain
/// or attributed `string`, a font by name or by file relative to the scene, and `fontSize` /
/// `foregroundColor` animations, rendered with the test fonts (`../shared/corpora/fonts`,
/// through the test font configuration every suite installs; skipped without them).
private let sceneTestFonts: URL? = TestFontConfiguration.install()

@Suite(.enabled(if: sceneTestFonts != nil, "test fonts not found (../shared/corpora/fonts)"))
struct SceneTextTests {
    /// Pixels in rows `rows`, columns `cols` whose red exceeds `min` (the text is white, yellow
    /// or light grey on a bar whose red stays below 20).
    func bright(_ img: CGImage, cols: Range<Int>, rows: Range<Int>, min: Int = 160) -> Int {
        var n = 0
        for y in rows { for x in cols where pixel(img, x, y)[0] > min { n += 1 } }
        return n
    }

    @Test("A text layer reads string, font, fontSize, foregroundColor, isWrapped, truncationMode and alignmentMode")
    func propertiesLoad() throws {
        _ = sceneTestFonts
        let scene = try loadScene(doc(root: ##"""
        {"sublayers": [{"class": "CATextLayer", "frame": [0, 0, 100, 40], "string": "Hello", "font": "NotoSans-Bold",
          "fontSize": 18, "foregroundColor": "#ff0000", "isWrapped": true, "truncationMode": "end",
          "alignmentMode": "center", "contentsScale": 2}]}
        """##))
        let t = try #require(scene.rootLayer.sublayers?.first as? CATextLayer)
        #expect(t.string as? String == "Hello")
        #expect((t.font as? NSString) == "NotoSans-Bold")
        #expect(t.fontSize == 18)
        #expect(t.foregroundColor?.components == [1, 0, 0, 1])
        #expect(t.isWrapped && t.truncationMode == .end && t.alignmentMode == .center && t.contentsScale == 2)
    }

    @Test("Attributed runs: font, size, colour, kern, underline per run; runs without a font keep the layer's")
    func attributedRuns() throws {
        _ = sceneTestFonts
        let scene = try loadScene(doc(root: ##"""
        {"sublayers": [{"class": "CATextLayer", "fontSize": 20, "string": [
          {"text": "Big ", "font": "NotoSans-Bold", "fontSize": 30, "foregroundColor": "#00ff00", "kern": 2, "underline": "double"},
          {"text": "plain"}]}]}
        """##))
        let t = try #require(scene.rootLayer.sublayers?.first as? CATextLayer)
        let a = try #require(t.string as? NSAttributedString)
        #expect(a.string == "Big plain")
        let first = a.attributes(at: 0, effectiveRange: nil)
        let font = try #require(first[NSAttributedString.Key(kCTFontAttributeName)] as? CTFont)
        #expect(CTFontCopyPostScriptName(font) as String == "NotoSans-Bold" && CTFontGetSize(font) == 30)
        #expect((first[NSAttributedString.Key(kCTForegroundColorAttributeName)] as! CGColor).components == [0, 1, 0, 1])
        #expect((first[NSAttributedString.Key(kCTKernAttributeName)] as? NSNumber)?.doubleValue == 2)
        #expect((first[NSAttributedString.Key(kCTUnderlineStyleAttributeName)] as? NSNumber)?.int32Value == CTUnderlineStyle.double.rawValue)
        #expect(a.attributes(at: 5, effectiveRange: nil).isEmpty)
    }

    @Test("A font file relative to the scene loads as a CGFont; missing, outside and corrupt files are problems")
    func fontFiles() throws {
        guard let fonts = sceneTestFonts else { return }
        let dir = try makeTempDir("text-font")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("fonts"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fonts.appendingPathComponent("Yellowtail-Regular.ttf"),
                                         to: dir.appendingPathComponent("fonts/Yellowtail.ttf"))
        try Data("not a font".utf8).write(to: dir.appendingPathComponent("fonts/bad.ttf"))
        let scene = try loadScene(doc(root: ##"{"sublayers": [{"class": "CATextLayer", "string": "Hi", "font": {"file": "fonts/Yellowtail.ttf"}}]}"##), base: dir)
        let t = try #require(scene.rootLayer.sublayers?.first as? CATextLayer)
        let cg = try #require(t.font as? CGFont)
        #expect(cg.postScriptName as String? == "Yellowtail-Regular")
        let p = problems(doc(root: ##"""
        {"sublayers": [{"class": "CATextLayer", "font": {"file": "fonts/missing.ttf"}},
                       {"class": "CATextLayer", "font": {"file": "../x.ttf"}},
                       {"class": "CATextLayer", "font": {"file": "fonts/bad.ttf"}},
                       {"class": "CATextLayer", "font": 3, "fontSize": -1, "string": [{"text": "a", "underline": "wavy"}, {"txt": "b"}]}]}
        """##), base: dir).map { "\($0.path): \($0.message)" }
        #expect(p.contains { $0.hasPrefix("root.sublayers[0].font.file: font file \"fonts/missing.ttf\" not found") }, "\(p)")
        #expect(p.contains { $0.hasPrefix("root.sublayers[1].font.file: font path \"../x.ttf\" leaves the scene's folder") }, "\(p)")
        #expect(p.contains { $0.hasPrefix("root.sublayers[2].font.file: font file \"fonts/bad.ttf\" is not a readable font") }, "\(p)")
        #expect(p.contains { $0.hasPrefix("root.sublayers[3].font: expected a font name or {\"file\": path}") }, "\(p)")
        #expect(p.contains { $0.hasPrefix("root.sublayers[3].fontSize: fontSize -1") }, "\(p)")
        #expect(p.contains { $0.hasPrefix("root.sublayers[3].string[0].underline: \"wavy\" is not one of") }, "\(p)")
        #expect(p.contains { $0.hasPrefix("root.sublayers[3].string[1]: a run needs \"text\"") }, "\(p)")
        #expect(p.contains { $0.hasPrefix("root.sublayers[3].string[1].txt: unknown field") }, "\(p)")
    }

    @Test("A text layer writes back to the same JSON members (string, runs, font name, plain properties)")
    func roundTrip() throws {
        _ = sceneTestFonts
        let json = doc(root: ##"""
        {"sublayers": [{"class": "CATextLayer", "string": [{"text": "A", "font": "NotoSans-Bold", "fontSize": 30, "kern": 1.5}, {"text": "b"}],
          "font": "NotoSans-Regular", "fontSize": 12, "alignmentMode": "right", "truncationMode": "middle"}]}
        """##)
        let scene = try loadScene(json)
        let data = try SceneFile.encode(scene, imageDirectory: nil)
        let back = try SceneFile.load(data: data, baseDirectory: FileManager.default.temporaryDirectory)
        let t = try #require(back.rootLayer.sublayers?.first as? CATextLayer)
        #expect((t.font as? NSString) == "NotoSans-Regular" && t.fontSize == 12)
        #expect(t.alignmentMode == .right && t.truncationMode == .middle)
        let a = try #require(t.string as? NSAttributedString)
        #expect(a.string == "Ab")
        let f = try #require(a.attributes(at: 0, effectiveRange: nil)[NSAttributedString.Key(kCTFontAttributeName)] as? CTFont)
        #expect(CTFontGetSize(f) == 30 && (a.attributes(at: 0, effectiveRange: nil)[NSAttributedString.Key(kCTKernAttributeName)] as? NSNumber)?.doubleValue == 1.5)
    }

    /// Scenes/examples/lower-third.json. Title: runs in white and yellow without a font, so
    /// both take the layer's font at its animated size; Noto Sans Bold (ascent 1069, cap height 714
    /// units) in a layer whose top is at y = 258. At 28 pt its baseline is 258 + 29.9 = 287.9 and
    /// capitals rise 20.0 px above it (rows ≈ 268…288); at the animation's start (20 pt) the
    /// baseline is 258 + 21.4 = 279.4 (capitals ≈ 265…279), so rows 282…287 hold no ink yet.
    /// Caption (a plain string): its colour animates from alpha 0, so at t = 0 it draws nothing in its rows
    /// (298…322) and at the end light grey text.
    @Test("lower-third.json renders: the title grows from 20 to 28 pt (fontSize animation), the caption fades in (foregroundColor)")
    func lowerThirdRenders() throws {
        _ = sceneTestFonts
        let scene = try SceneFile.load(contentsOf: Repo.scenes.appendingPathComponent("examples/lower-third.json"))
        let frames = try renderFrames(scene, times: [0, 2])
        let (start, end) = (frames[0], frames[1])
        #expect(start.width == 640 && start.height == 360)
        // Title at 28 pt: ink between the cap top and the baseline, none well above it.
        #expect(bright(end, cols: 56..<456, rows: 270..<287) > 300)
        #expect(bright(end, cols: 56..<456, rows: 282..<287) > 30)
        #expect(bright(end, cols: 56..<456, rows: 250..<262) == 0)
        // Title at 20 pt (t = 0): ink above 279, none in rows 282…287.
        #expect(bright(start, cols: 56..<456, rows: 266..<279) > 100)
        #expect(bright(start, cols: 56..<456, rows: 282..<287) == 0)
        // Caption: invisible at the start, light at the end.
        #expect(bright(start, cols: 56..<456, rows: 298..<322, min: 60) == 0)
        #expect(bright(end, cols: 56..<456, rows: 298..<322) > 100)
        // Left of the text layers only the bar (dark) shows.
        #expect(bright(end, cols: 40..<54, rows: 250..<330, min: 60) == 0)
    }

    /// docs/scene.schema.json (generated from the reader's tables, `SceneJSONSchemaTests`) and
    /// the reader agree on CATextLayer's members and a run's fields: each member the schema names
    /// loads without a problem, and a sample is given here for each (a member added to the
    /// schema alone fails this test).
    @Test("The JSON Schema's text layer and run members are exactly those the reader accepts")
    func schemaMatchesReader() throws {
        _ = sceneTestFonts
        let url = Repo.root.appendingPathComponent("docs/scene.schema.json")
        let schema = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let defs = try #require(schema["$defs"] as? [String: Any])
        func names(_ def: String) throws -> Set<String> {
            let d = try #require(defs[def] as? [String: Any])
            return Set(try #require(d["properties"] as? [String: Any]).keys)
        }
        let layerSamples: [String: String] = [
            "string": #""Hi""#, "font": #"{"file": "f.ttf"}"#, "fontSize": "12", "foregroundColor": ##""#ffffff""##,
            "isWrapped": "true", "truncationMode": #""middle""#, "alignmentMode": #""justified""#,
            "allowsFontSubpixelQuantization": "true",
        ]
        let runSamples: [String: String] = [
            "text": #""a""#, "font": #""NotoSans-Bold""#, "fontSize": "10", "foregroundColor": "[1, 0, 0, 1]", "kern": "1",
            "tracking": "2", "ligature": "2", "underline": #""thick""#, "underlineColor": ##""#00ff00""##, "strokeWidth": "-3",
            "strokeColor": ##""#0000ff""##, "baselineOffset": "4",
        ]
        // The text layer's own members are among the layer's (the schema allows them only with
        // `"class": "CATextLayer"`); a run's fields are exactly the reader's.
        #expect(try names("layer").isSuperset(of: layerSamples.keys))
        #expect(try names("textRun") == Set(runSamples.keys))
        let dir = try makeTempDir("schema")
        if let fonts = sceneTestFonts {
            try FileManager.default.copyItem(at: fonts.appendingPathComponent("NotoSans-Regular.ttf"), to: dir.appendingPathComponent("f.ttf"))
        }
        for (k, v) in layerSamples {
            #expect(problems(doc(root: #"{"class": "CATextLayer", "\#(k)": \#(v)}"#), base: dir) == [], "\(k)")
        }
        for (k, v) in runSamples where k != "text" {
            #expect(problems(doc(root: #"{"class": "CATextLayer", "string": [{"text": "a", "\#(k)": \#(v)}]}"#), base: dir) == [], "\(k)")
        }
    }
}
