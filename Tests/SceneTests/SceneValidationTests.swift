import Testing
import Foundation

/// Every problem names its JSON path and what is wrong; all problems are collected; bad input
/// is a `SceneLoadError`, never a crash (issue 5, "Scene files" and "Bad input").
@Suite struct SceneValidationTests {
    func descriptions(_ json: String, options: SceneLoadOptions = .init()) -> [String] {
        problems(json, options: options).map { "\($0.path): \($0.message)" }
    }

    /// The issue's own example: a keyframe animation with 4 key times for 3 values.
    @Test func keyTimesCountNamesPathAndCounts() {
        let root = #"{"sublayers": [{}, {}, {}, {"animations": [{"class": "CAKeyframeAnimation", "keyPath": "opacity", "values": [0, 1, 0], "keyTimes": [0, 0.2, 0.5, 1]}]}]}"#
        #expect(descriptions(doc(root: root)) == ["root.sublayers[3].animations[0].keyTimes: 4 values for 3 keyframes"])
    }

    @Test func everyProblemIsCollectedNotJustTheFirst() {
        let root = ##"{"opacity": "half", "bounds": [0, 0, 10], "sublayers": [{"backgroundColor": "#12345"}, {"cornerRadius": true, "colour": 1}]}"##
        let got = problems(doc(root: root))
        #expect(got.map(\.path) == ["root.bounds", "root.opacity", "root.sublayers[0].backgroundColor",
                                    "root.sublayers[1].cornerRadius", "root.sublayers[1].colour"])
        #expect(got[1].message == "expected a number, found a string")
        #expect(got[0].message == "expected a rect [x, y, width, height], found an array of 3 values")
        #expect(got[4].message.hasPrefix("unknown field for a CALayer"))
        #expect(got.allSatisfy { $0.line == 1 })
    }

    @Test func problemsCarryTheirLine() {
        let json = "{\n\"format\": \"ca-scene\", \"version\": 1, \"size\": [10, 10], \"duration\": 1,\n\"root\": {\n  \"opacity\": null\n}}"
        let p = problems(json)
        #expect(p.count == 1)
        #expect(p.first?.line == 4)
        #expect(p.first?.description == "root.opacity (line 4): expected a number, found null")
    }

    @Test func unknownFieldsAreErrorsUnlessExtensions() {
        #expect(descriptions(doc(root: #"{"x-editor": {"anything": [1, 2]}, "name": "a"}"#, extra: #""x-tool": "mine""#)) == [])
        #expect(descriptions(doc(root: #"{"opacty": 0.5}"#)) ==
                ["root.opacty: unknown field for a CALayer (extensions must start with \"x-\")"])
        #expect(descriptions(doc(extra: #""sizee": [1, 1]"#)).first?.hasPrefix("sizee: unknown field for a scene") == true)
        #expect(descriptions(doc(root: #"{"name": "a", "name": "b"}"#)) == ["root.name: given more than once"])
    }

    @Test func malformedJSONIsOneProblemWithItsLine() {
        let p = problems("{\n  \"version\": 1,\n  \"size\": [10 10]\n}")
        #expect(p.count == 1)
        #expect(p.first?.line == 3)
        #expect(p.first?.message == "malformed JSON at column 15: expected ',' or ']' after an array element, found '1'")
        for bad in ["", "   ", "[", "{\"a\":", "nul", "\"\\q\"", "{\"a\" 1}", "01", "1e999", "\"\u{01}\"", "{} {}", "\u{FEFF}"] {
            let q = problems(bad)
            #expect(q.count == 1 && q[0].message.hasPrefix("malformed JSON"), "\(bad.debugDescription): \(q)")
        }
        // Deep nesting is refused, not a stack overflow.
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(problems(deep).first?.message.contains("nested deeper than") == true)
    }

    @Test func wrongTypesAtTheTopLevel() {
        #expect(descriptions("[]") == [": expected a scene object, found an array"])
        #expect(descriptions(#"{"format": "ca-scene", "version": 2, "size": "big", "duration": "long", "root": []}"#) == [
            "version: version 2 is newer than this reader (version 1)",
            "size: expected a size [width, height], found a string",
            "duration: expected a number, found a string",
            "root: expected a layer object, found an array",
        ])
        #expect(descriptions(#"{"version": 1}"#) == [
            "size: missing (the frame in points, [width, height])", "duration: missing (seconds)",
            "root: missing (the root layer object)",
        ])
    }

    @Test func layerClassesTheRendererDoesNotDrawAreClearErrors() {
        #expect(descriptions(doc(root: #"{"class": "CATiledLayer"}"#)).first?.contains("CATiledLayer is not supported in scene files") == true)
        #expect(descriptions(doc(root: #"{"class": "UIView"}"#)).first?.hasPrefix("root.class: unknown layer class \"UIView\"") == true)
        #expect(descriptions(doc(root: #"{"style": {}}"#)).first?.hasPrefix("root.style: the style dictionary is not part of the scene format") == true)
    }

    @Test func propertiesOfTheWrongClassAreUnknown() {
        #expect(descriptions(doc(root: ##"{"colors": ["#ff0000"]}"##)).first?.hasPrefix("root.colors: unknown field for a CALayer") == true)
        #expect(descriptions(doc(root: ##"{"class": "CAGradientLayer", "colors": ["#ff0000", [0, 0, 1]], "type": "diamond"}"##)) ==
                ["root.type: \"diamond\" is not one of \"axial\", \"radial\", \"conic\""])
    }

    @Test func animationProblemsNameTheirPaths() {
        let root = #"""
        {"animations": [
          {"class": "CABasicAnimation", "keyPath": "positon", "toValue": [1, 2]},
          {"class": "CABasicAnimation", "keyPath": "position", "toValue": 5},
          {"class": "CAKeyframeAnimation", "keyPath": "opacity", "values": [0, 1], "path": "M 0 0 L 1 1"},
          {"class": "CAKeyframeAnimation", "keyPath": "position", "values": [[0, 0], [1, 1], [2, 2]], "timingFunctions": ["easeIn"], "keyTimes": [0, 0.7, 0.5]},
          {"class": "CASpringAnimation", "keyPath": "opacity", "mass": 0, "damping": -1},
          {"class": "CAAnimationGroup", "animations": [{"class": "CATransition", "type": "cube"}]},
          {"class": "CAMagicAnimation"},
          {"keyPath": "opacity"},
          {"class": "CABasicAnimation", "keyPath": "transform.rotation.z", "duration": "infinity", "repeatCount": "infinity", "fillMode": "both", "timingFunction": [0.1, 0.2, 0.3, 1.5]}
        ]}
        """#
        #expect(descriptions(doc(root: root)) == [
            "root.animations[0].keyPath: unknown key path \"positon\" for a CALayer",
            "root.animations[1].toValue: expected a point [x, y], found a number",
            "root.animations[2].path: a keyframe path animates point properties only (this key path takes a number)",
            "root.animations[3].keyTimes: key times must not decrease",
            "root.animations[3].timingFunctions: 1 timing functions for 3 keyframes (one per segment: 2)",
            "root.animations[4].mass: must be greater than 0",
            "root.animations[4].damping: must be at least 0",
            "root.animations[5].animations[0].type: \"cube\" is not one of \"fade\", \"moveIn\", \"push\", \"reveal\"",
            "root.animations[6].class: unknown animation class \"CAMagicAnimation\" (one of CABasicAnimation, CAKeyframeAnimation, CASpringAnimation, CAAnimationGroup, CATransition)",
            "root.animations[7]: missing \"class\" (one of CABasicAnimation, CAKeyframeAnimation, CASpringAnimation, CAAnimationGroup, CATransition)",
        ])
    }

    @Test func transactionProblemsNameTheirPaths() {
        let root = #"{"sublayers": [{"name": "a"}, {"name": "twin"}, {"name": "twin"}]}"#
        let tx = #"""
        "transactions": [
          {"time": -1, "changes": []},
          {"time": 1, "changes": [
            {"layer": "nobody", "set": {"opacity": 0}},
            {"layer": "twin", "set": {"opacity": 0}},
            {"layer": "a", "set": {"opacity": "0"}, "removeFromSuperlayer": true},
            {"layer": "a", "set": {"opacityy": 0}},
            {"layer": "a"}
          ]}
        ]
        """#
        #expect(descriptions(doc(root: root, extra: tx)) == [
            "transactions[0].time: must be between 0 and 3600 seconds",
            "transactions[1].changes[2]: a change does one thing; found set and removeFromSuperlayer",
            "transactions[1].changes[3].set.opacityy: unknown property \"opacityy\" for a CALayer",
            "transactions[1].changes[4]: a change needs one of set, addAnimation, removeAnimation, removeAllAnimations, addSublayer, removeFromSuperlayer",
            "transactions[1].changes[0].layer: no layer is named \"nobody\"",
            "transactions[1].changes[1].layer: 2 layers are named \"twin\"; a layer that changes refer to needs a unique name",
        ])
    }

    @Test func valuesInEveryDocumentedForm() throws {
        let root = ##"""
        {"sublayers": [
          {"name": "a", "backgroundColor": "#336699", "borderColor": "#33669980", "shadowColor": "#fff",
           "position": {"x": 1, "y": 2}, "bounds": {"x": 0, "y": 0, "width": 4, "height": 5}, "shadowOffset": {"width": 1, "height": -1},
           "transform": {"rotateZ": 0.5, "translate": [10, 20]}, "sublayerTransform": {"perspective": 500},
           "maskedCorners": ["layerMinXMinYCorner", "layerMaxXMaxYCorner"], "shadowPath": {"roundedRect": [0, 0, 4, 5], "cornerRadius": 2}},
          {"name": "b", "backgroundColor": {"gray": 0.5}, "borderColor": {"red": 1, "green": 0, "blue": 0, "alpha": 0.5},
           "transform": [{"translate": [10, 20]}, {"rotateZ": 0.5}], "maskedCorners": 3, "shadowPath": "M 0 0 h 10 v 10 H 0 z m 1 1 l 2 0 c 1 1 1 1 0 2 q 1 1 2 2 Z"},
          {"name": "c", "transform": [1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 5, 6, 0, 1], "frame": [10, 20, 30, 40],
           "shadowPath": [{"move": [0, 0]}, {"line": [1, 0]}, {"quad": [1, 1, 0, 1]}, {"curve": [0, 0, 1, 1, 2, 2]}, {"close": true}]}
        ]}
        """##
        let s = try loadScene(doc(root: root))
        let (a, b, c) = (s.rootLayer.sublayers![0], s.rootLayer.sublayers![1], s.rootLayer.sublayers![2])
        #expect(a.backgroundColor == CGColor(red: 0x33 / 255.0, green: 0x66 / 255.0, blue: 0x99 / 255.0, alpha: 1))
        #expect(a.borderColor?.alpha == 0x80 / 255.0)
        #expect(a.shadowColor == CGColor(red: 1, green: 1, blue: 1, alpha: 1))
        #expect(a.position == CGPoint(x: 1, y: 2) && a.bounds.size == CGSize(width: 4, height: 5))
        #expect(a.shadowOffset == CGSize(width: 1, height: -1))
        // Readable form: rotate first, then translate (fixed order), as CATransform3DConcat(R, T).
        let rt = CATransform3DConcat(CATransform3DMakeRotation(0.5, 0, 0, 1), CATransform3DMakeTranslation(10, 20, 0))
        #expect(a.transform == rt)
        #expect(a.sublayerTransform.m34 == -1.0 / 500)
        #expect(a.maskedCorners == [.layerMinXMinYCorner, .layerMaxXMaxYCorner])
        #expect(a.shadowPath == CGPath(roundedRect: CGRect(x: 0, y: 0, width: 4, height: 5), cornerWidth: 2, cornerHeight: 2, transform: nil))
        #expect(b.backgroundColor == CGColor(gray: 0.5, alpha: 1))
        #expect(b.borderColor == CGColor(red: 1, green: 0, blue: 0, alpha: 0.5))
        // Steps apply first to last: translate, then rotate.
        #expect(b.transform == CATransform3DConcat(CATransform3DMakeTranslation(10, 20, 0), CATransform3DMakeRotation(0.5, 0, 0, 1)))
        #expect(b.maskedCorners == [.layerMinXMinYCorner, .layerMaxXMinYCorner])
        let e = b.shadowPath!.elements
        #expect(e.count == 10)
        #expect(e[0] == .move(.zero) && e[1] == .line(CGPoint(x: 10, y: 0)) && e[2] == .line(CGPoint(x: 10, y: 10)))
        #expect(e[3] == .line(CGPoint(x: 0, y: 10)) && e[4] == .close && e[5] == .move(CGPoint(x: 1, y: 1)))
        #expect(e[6] == .line(CGPoint(x: 3, y: 1)))
        #expect(e[7] == .cubic(CGPoint(x: 4, y: 2), CGPoint(x: 4, y: 2), CGPoint(x: 3, y: 3)))
        #expect(e[8] == .quad(CGPoint(x: 4, y: 4), CGPoint(x: 5, y: 5)))
        #expect(c.transform.m22 == 2 && c.transform.m41 == 5 && c.transform.m42 == 6)
        #expect(c.frame == CGRect(x: 10, y: 20, width: 30, height: 40))
        #expect(c.shadowPath?.elements.count == 5)
    }

    @Test("Path data takes every SVG command: smooth curves reflect their control point, arcs become ≤ 90° cubics")
    func svgPathDataSmoothCurvesAndArcs() throws {
        let s = try loadScene(doc(root: #"{"sublayers": [{"shadowPath": "M 0 0 Q 5 10 10 0 T 20 0"}, {"shadowPath": "M 0 0 A 10 10 0 0 1 20 0"}]}"#))
        let smooth = s.rootLayer.sublayers![0].shadowPath!.elements
        #expect(smooth == [.move(.zero), .quad(CGPoint(x: 5, y: 10), CGPoint(x: 10, y: 0)),
                           .quad(CGPoint(x: 15, y: -10), CGPoint(x: 20, y: 0))])
        let arc = s.rootLayer.sublayers![1].shadowPath!.elements
        // A half circle of radius 10 from (0, 0) to (20, 0): two quarter-circle cubics.
        #expect(arc.count == 3 && arc[0] == .move(.zero))
        if case .cubic(_, _, let mid) = arc[1], case .cubic(_, _, let end) = arc[2] {
            #expect(abs(mid.x - 10) < 1e-9 && abs(abs(mid.y) - 10) < 1e-9)
            #expect(abs(end.x - 20) < 1e-9 && abs(end.y) < 1e-9)
        } else {
            Issue.record("arc is not two cubics: \(arc)")
        }
    }

    @Test func badValueFormsAreClearProblems() {
        #expect(descriptions(doc(root: #"{"shadowPath": "M 0 0 X 1 1"}"#)) ==
                ["root.shadowPath: path data: unknown command 'X' at offset 6"])
        #expect(descriptions(doc(root: #"{"shadowPath": "0 0 L 1 1"}"#)) == ["root.shadowPath: path data: path data must start with a moveto"])
        #expect(descriptions(doc(root: #"{"shadowPath": "M 0 0 C 1 1 2"}"#)).first?.hasPrefix("root.shadowPath: path data: incomplete 'C' command") == true)
        #expect(descriptions(doc(root: #"{"shadowPath": "M 0 0 L 1e30 0"}"#)) ==
                ["root.shadowPath: path data: a coordinate is not a finite number within ±1e9"])
        #expect(descriptions(doc(root: #"{"transform": {"spin": 1}}"#)).first?.hasPrefix("root.transform.spin: unknown field for a transform") == true)
        #expect(descriptions(doc(root: #"{"transform": [1, 2, 3]}"#)) == ["root.transform: expected 16 numbers (m11 … m44), found an array of 3 values"])
        // CSS names are colours now (issue 25); a name CSS lacks is not.
        #expect(descriptions(doc(root: #"{"backgroundColor": "rebeccapurpel"}"#)).first?.contains("is not a colour") == true)
        #expect(descriptions(doc(root: #"{"maskedCorners": ["topLeft"]}"#)).first?.hasPrefix("root.maskedCorners[0]: \"topLeft\" is not one of") == true)
    }
}
