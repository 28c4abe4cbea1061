import Testing
import Foundation

/// Core Image filters in scene files (docs/SCENE-FORMAT.md, "Filters"; issue 24): `filters` and
/// `backgroundFilters` as filter objects with Apple's names and keys, `compositingFilter` as
/// Apple's string or a filter object, filter parameters animated by key path, and the writer
/// giving the same objects back.
@Suite struct FilterSceneTests {
    static let root = ##"""
    {"bounds": [0, 0, 100, 100], "sublayers": [
      {"name": "card", "frame": [0, 0, 50, 100], "backgroundColor": "#000000",
       "filters": [{"filter": "CIGaussianBlur", "name": "blur", "inputRadius": 4},
                   {"filter": "CIColorMatrix", "name": "m", "inputBiasVector": [0, 0, 0.5, 0]}],
       "backgroundFilters": [{"filter": "CIColorMonochrome", "inputColor": "#ff0000", "inputIntensity": 0.5}],
       "compositingFilter": "multiplyBlendMode",
       "animations": [
         {"key": "b", "class": "CABasicAnimation", "keyPath": "filters.blur.inputRadius", "fromValue": 0, "toValue": 8, "duration": 1},
         {"key": "v", "class": "CABasicAnimation", "keyPath": "filters.m.inputBiasVector", "toValue": [0.5, 0, 0, 0], "duration": 1}]},
      {"frame": [50, 0, 50, 100], "backgroundColor": "#ffffff",
       "compositingFilter": {"filter": "CIScreenBlendMode"}}]}
    """##

    @Test func filtersLoadWithTheirNamesAndParameters() throws {
        let s = try loadScene(doc(root: Self.root))
        let card = try #require(s.rootLayer.sublayers?.first)
        let filters = try #require(card.filters as? [CIFilter])
        #expect(filters.map(\.name) == ["blur", "m"])
        #expect(card.value(forKeyPath: "filters.blur.inputRadius") as? CGFloat == 4)
        let bias = try #require(card.value(forKeyPath: "filters.m.inputBiasVector") as? CIVector)
        #expect(bias.count == 4 && bias.z == 0.5)
        let mono = try #require(card.backgroundFilters?.first as? CIFilter)
        let color = try #require(mono.value(forKey: "inputColor") as? CIColor)
        #expect(color.red == 1 && color.green == 0 && (mono.value(forKey: "inputIntensity") as? Double) == 0.5)
        #expect(card.compositingFilter as? String == "multiplyBlendMode")
        let other = try #require(s.rootLayer.sublayers?.last?.compositingFilter as? CIFilter)
        #expect(other.name == "CIScreenBlendMode")
        // The animations are typed by the filter's parameter: a number and a vector.
        let b = try #require(card.animation(forKey: "b") as? CABasicAnimation)
        #expect((b.toValue as? Double) == 8)
        #expect(card.animation(forKey: "v") is CABasicAnimation)
    }

    /// The animated blur draws: the black half's edge softens as inputRadius goes 0 → 8.
    @Test func anAnimatedBlurInASceneChangesItsPixels() throws {
        let root = ##"""
        {"frame": [0, 0, 100, 100], "backgroundColor": "#ffffff", "sublayers": [
          {"frame": [0, 0, 100, 100], "sublayers": [{"frame": [0, 0, 50, 100], "backgroundColor": "#000000"}],
           "filters": [{"filter": "CIGaussianBlur", "name": "blur", "inputRadius": 0}],
           "animations": [{"class": "CABasicAnimation", "keyPath": "filters.blur.inputRadius", "fromValue": 0, "toValue": 8, "duration": 1}]}]}
        """##
        let s = try loadScene(doc(root: root))
        let frames = try renderFrames(s, times: [0, 0.9])
        // Three points right of the edge: white while sharp, grey once blurred.
        #expect(pixel(frames[0], 53, 50)[0] == 255, "\(pixel(frames[0], 53, 50))")
        #expect(pixel(frames[1], 53, 50)[0] < 230, "\(pixel(frames[1], 53, 50))")
    }

    @Test func filterProblemsNameTheirPaths() {
        let root = ##"""
        {"filters": [{"filter": "CIBogus"}, {"name": "x"}, {"filter": "CIMultiplyBlendMode"},
                     {"filter": "CIColorMatrix", "inputRVector": [1, 0]}, {"filter": "CIGaussianBlur", "inputRaduis": 3},
                     {"filter": "CIGaussianBlur", "inputImage": 1}, 7],
         "backgroundFilters": "CIGaussianBlur",
         "compositingFilter": "bogusBlendMode"}
        """##
        let p = problems(doc(root: root)).map { "\($0.path): \($0.message)" }
        #expect(p.contains { $0.hasPrefix("root.filters[0].filter: unknown Core Image filter \"CIBogus\"") }, "\(p)")
        #expect(p.contains { $0.hasPrefix("root.filters[1]: a filter object needs \"filter\"") }, "\(p)")
        #expect(p.contains { $0.hasPrefix("root.filters[2]: CIMultiplyBlendMode is a blend or compositing filter") }, "\(p)")
        #expect(p.contains { $0.hasPrefix("root.filters[3].inputRVector: inputRVector is a vector of 4 numbers, found 2") }, "\(p)")
        #expect(p.contains { $0.hasPrefix("root.filters[4].inputRaduis: unknown field for a CIGaussianBlur filter") }, "\(p)")
        #expect(p.contains { $0.hasPrefix("root.filters[5].inputImage: inputImage is the layer's own image") }, "\(p)")
        #expect(p.contains { $0.hasPrefix("root.filters[6]: expected a filter object") }, "\(p)")
        #expect(p.contains { $0.hasPrefix("root.backgroundFilters: expected an array of filter objects") }, "\(p)")
        #expect(p.contains { $0.hasPrefix("root.compositingFilter: \"bogusBlendMode\" is not a blend or compositing filter") }, "\(p)")
    }

    /// 10,000 filters in one list are refused by the limit, not built.
    @Test func aHugeFilterListIsRefusedByItsLimit() {
        let list = Array(repeating: #"{"filter": "CIColorInvert"}"#, count: 10_000).joined(separator: ",")
        let p = problems(doc(root: #"{"filters": [\#(list)]}"#)).map(\.message)
        #expect(p.contains { $0.contains("more than 256 filters in one list (limit maxFiltersPerList)") }, "\(p.prefix(3))")
    }

    /// The writer gives the filter objects back (only parameters off their defaults), and the
    /// written scene reads back to the same filters and writes the same JSON again.
    @Test func filtersRoundTripThroughTheWriter() throws {
        let s = try loadScene(doc(root: Self.root))
        let data = try SceneFile.encode(s, imageDirectory: try makeTempDir("filters"))
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"CIGaussianBlur\"") && text.contains("\"inputRadius\": 4") && text.contains("\"multiplyBlendMode\""), "\(text)")
        #expect(!text.contains("inputIntensity\": 1"), "defaults are left out")
        let again = try loadScene(String(decoding: data, as: UTF8.self))
        let card = try #require(again.rootLayer.sublayers?.first)
        #expect((card.filters as? [CIFilter])?.map(\.name) == ["blur", "m"])
        #expect((card.value(forKeyPath: "filters.m.inputBiasVector") as? CIVector)?.z == 0.5)
        #expect(try SceneFile.encode(again, imageDirectory: try makeTempDir("filters2")) == data)
    }
}
