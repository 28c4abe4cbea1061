import Testing
import Foundation

/// Colours as CSS writes them and angles with units (issue 25), and the problems that name
/// their fix (docs/SCENE-FORMAT.md, "Values").
@Suite struct SceneColorAndAngleTests {
    func color(_ value: String) throws -> [Double] {
        let scene = try loadScene(doc(root: #"{"bounds": [0, 0, 10, 10], "backgroundColor": \#(value)}"#))
        return try #require(scene.rootLayer.backgroundColor?.components).map { Double($0) }
    }

    func close(_ a: [Double], _ b: [Double], _ eps: Double = 0.002) -> Bool { a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= eps } }

    /// CSS Color 4 §6.1: all 148 named colours, e.g. tomato = #ff6347, rebeccapurple = #663399,
    /// and both spellings of grey; `transparent` is clear.
    @Test func cssNamedColors() throws {
        #expect(SceneCSSColor.names.count == 148)
        #expect(close(try color(#""tomato""#), [1, 99.0 / 255, 71.0 / 255, 1]))
        #expect(close(try color(#""RebeccaPurple""#), [0x66 / 255.0, 0x33 / 255.0, 0x99 / 255.0, 1]))
        #expect(try color(#""slategrey""#) == (try color(#""slategray""#)))
        #expect(close(try color(#""transparent""#), [0, 0, 0, 0]))
    }

    /// CSS Color 4 §5.1 and §7: rgb()/rgba() with numbers, percentages, commas or spaces and
    /// `/ alpha`; hsl()/hsla() with hue in degrees or a unit.
    @Test func cssFunctionalColors() throws {
        let coral = [242.0 / 255, 107.0 / 255, 82.0 / 255, 1]
        #expect(close(try color(#""rgb(242, 107, 82)""#), coral))
        #expect(close(try color(#""rgb(242 107 82)""#), coral))
        #expect(close(try color(#""rgba(242, 107, 82, 0.5)""#), [coral[0], coral[1], coral[2], 0.5]))
        #expect(close(try color(#""rgb(242 107 82 / 50%)""#), [coral[0], coral[1], coral[2], 0.5]))
        #expect(close(try color(#""rgb(100%, 0%, 0%)""#), [1, 0, 0, 1]))
        #expect(close(try color(#""hsl(120, 100%, 50%)""#), [0, 1, 0, 1]))
        #expect(close(try color(#""hsl(0.5turn 100% 50%)""#), [0, 1, 1, 1]))
        #expect(close(try color(#""hsla(240deg, 100%, 25%, 0.25)""#), [0, 0, 0.5, 0.25]))
        // hsl(0, 0%, 50%) is mid grey; saturation without % is not CSS.
        #expect(close(try color(#""hsl(0, 0%, 50%)""#), [0.5, 0.5, 0.5, 1]))
        #expect(problems(doc(root: #"{"bounds": [0, 0, 1, 1], "backgroundColor": "hsl(0, 50, 50)"}"#)).count == 1)
        #expect(problems(doc(root: #"{"bounds": [0, 0, 1, 1], "backgroundColor": "rgb(1, 2)"}"#)).count == 1)
        #expect(problems(doc(root: #"{"bounds": [0, 0, 1, 1], "backgroundColor": "notacolour"}"#)).first?.message.contains("CSS name") == true)
    }

    /// Core Graphics' components are 0…1; [255, 128, 0] is 8-bit and the problem says how to
    /// write it (the issue's example), while 0…1 arrays are accepted as before.
    @Test func eightBitArraysAreAnErrorNamingTheFix() throws {
        let p = problems(doc(root: #"{"bounds": [0, 0, 1, 1], "backgroundColor": [255, 128, 0]}"#))
        #expect(p.count == 1)
        #expect(p.first?.path == "root.backgroundColor")
        #expect(p.first?.message.contains("[1, 0.502, 0]") == true)
        #expect(p.first?.message.contains("#ff8000") == true)
        #expect(close(try color("[1, 0.5, 0]"), [1, 0.5, 0, 1]))
        #expect(close(try color("[1, 0.5, 0, 0.25]"), [1, 0.5, 0, 0.25]))
    }

    /// Angles: numbers are radians (Apple's unit); strings carry CSS units (deg, turn, rad,
    /// grad). rotateZ "90deg" is the same transform as rotateZ π/2.
    @Test func anglesWithUnits() throws {
        #expect(SceneAngle.radians("90deg") == .pi / 2)
        #expect(SceneAngle.radians("0.25turn") == .pi / 2)
        #expect(SceneAngle.radians("1.2rad") == 1.2)
        #expect(SceneAngle.radians("100grad") == .pi / 2)
        #expect(SceneAngle.radians("ninety") == nil)
        func transform(_ v: String) throws -> CATransform3D {
            try loadScene(doc(root: #"{"bounds": [0, 0, 10, 10], "transform": {"rotateZ": \#(v)}}"#)).rootLayer.transform
        }
        let a = try transform(#""90deg""#), b = try transform("1.5707963267948966")
        #expect(abs(a.m11 - b.m11) < 1e-12 && abs(a.m12 - b.m12) < 1e-12 && abs(a.m21 - b.m21) < 1e-12)
        #expect(problems(doc(root: #"{"bounds": [0, 0, 1, 1], "transform": {"rotateZ": "quarter"}}"#)).first?.message.contains("90deg") == true)
        // Animation values of transform.rotation key paths.
        #expect(problems(doc(root: #"{"bounds": [0, 0, 10, 10], "animations": [{"class": "CABasicAnimation", "keyPath": "transform.rotation.z", "fromValue": "0deg", "toValue": "0.5turn", "duration": 1}]}"#)).isEmpty)
        #expect(problems(doc(root: #"{"bounds": [0, 0, 10, 10], "animations": [{"class": "CABasicAnimation", "keyPath": "transform.rotation.z", "toValue": "half", "duration": 1}]}"#)).first?.message.contains("0.25turn") == true)
        // Only angles take units: opacity "90deg" stays a problem.
        #expect(problems(doc(root: #"{"bounds": [0, 0, 10, 10], "animations": [{"class": "CABasicAnimation", "keyPath": "opacity", "toValue": "90deg", "duration": 1}]}"#)).count == 1)
    }

    /// Problems carry the column of the value, for `file:line:column` output.
    @Test func problemsCarryTheirColumn() {
        let json = "{\"format\": \"ca-scene\", \"version\": 1, \"size\": [10, 10], \"duration\": 1,\n\"root\": {\"bounds\": [0, 0, 1, 1], \"opacity\": true}}"
        let p = problems(json)
        #expect(p.count == 1)
        #expect(p.first?.line == 2)
        #expect(p.first?.column == 45)
    }
}
