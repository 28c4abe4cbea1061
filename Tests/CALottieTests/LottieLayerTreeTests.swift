import Testing
import Foundation

/// The layer tree (issue 23): shapes as CAShapeLayers, keyframes as CAKeyframeAnimations,
/// in/out points, precompositions with their own time, masks; checked on rendered pixels whose
/// values follow from the file by hand.
@Suite struct LottieLayerTreeTests {
    static let red = #"{"ty":"fl","c":{"k":[1,0,0,1]},"o":{"k":100}}"#

    @Test func rectangleFillIsDrawnAtItsPlace() throws {
        // A 20×20 red square centred at (50, 50): pixels inside red, outside transparent.
        let a = try LottieAnimation(data: lottie(layers: shapeLayer(ks: #"{"p":{"k":[50,50]}}"#,
            shapes: #"{"ty":"rc","p":{"k":[0,0]},"s":{"k":[20,20]},"r":{"k":0}},"# + Self.red)))
        let img = try render(a, frame: 0)
        #expect(pixel(img, 50, 50) == [255, 0, 0, 255])
        #expect(pixel(img, 41, 41) == [255, 0, 0, 255])
        #expect(pixel(img, 38, 50)[3] == 0)
        #expect(pixel(img, 62, 50)[3] == 0)
    }

    @Test func keyframesBecomeKeyframeAnimations() throws {
        // Position x from 10 to 90 over frames 0…10 at 10 fps, linear: frame 5 → x = 50.
        let ks = #"{"p":{"a":1,"k":[{"t":0,"s":[10,50],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":10,"s":[90,50]}]}}"#
        let a = try LottieAnimation(data: lottie(layers: shapeLayer(ks: ks,
            shapes: #"{"ty":"rc","p":{"k":[0,0]},"s":{"k":[10,10]},"r":{"k":0}},"# + Self.red)))
        let tree = a.makeLayer()
        var found: [CAKeyframeAnimation] = []
        func walk(_ l: CALayer) {
            for k in l.animationKeys() ?? [] { if let k = l.animation(forKey: k) as? CAKeyframeAnimation { found.append(k) } }
            for s in l.sublayers ?? [] { walk(s) }
        }
        walk(tree)
        let pos = try #require(found.first { $0.keyPath == "position" })
        #expect(pos.keyTimes == [0, 1])
        #expect(pos.duration == 1)
        let img = try render(a, frame: 5)
        #expect(pixel(img, 50, 50) == [255, 0, 0, 255])
        #expect(pixel(img, 44, 50)[3] == 0)
        #expect(pixel(img, 56, 50)[3] == 0)
    }

    @Test func inAndOutPointsHideTheLayer() throws {
        // Visible for frames [5, 10) only (lottie-ios hides with `isHidden` keyframes).
        let layer = #"{"ty":4,"ind":1,"ip":5,"op":10,"st":0,"ks":{"p":{"k":[50,50]}},"shapes":[{"ty":"rc","p":{"k":[0,0]},"s":{"k":[20,20]},"r":{"k":0}},"# + Self.red + "]}"
        let a = try LottieAnimation(data: lottie(layers: layer))
        #expect(try pixel(render(a, frame: 2), 50, 50)[3] == 0)
        #expect(try pixel(render(a, frame: 7), 50, 50) == [255, 0, 0, 255])
        #expect(try pixel(render(a, frame: 12), 50, 50)[3] == 0)
    }

    @Test func precompStartTimeShiftsItsContent() throws {
        // The precomp's content shows a square whose opacity steps from 0 to 100 at child
        // frame 10 (a hold); with the precomp layer's st = 20 the step is at frame 30.
        let inner = shapeLayer(shapes: #"{"ty":"rc","p":{"k":[50,50]},"s":{"k":[20,20]},"r":{"k":0}},{"ty":"fl","c":{"k":[0,0,1,1]},"o":{"a":1,"k":[{"t":0,"s":[0],"h":1},{"t":10,"s":[100]}]}}"#)
        let asset = #"{"id":"pc","layers":[\#(inner)]}"#
        let pre = #"{"ty":0,"ind":1,"refId":"pc","w":100,"h":100,"ip":0,"op":100,"st":20,"ks":{}}"#
        let a = try LottieAnimation(data: lottie(layers: pre, assets: asset))
        #expect(try pixel(render(a, frame: 25), 50, 50)[3] == 0)
        #expect(try pixel(render(a, frame: 35), 50, 50) == [0, 0, 255, 255])
    }

    @Test func parentTransformsChain() throws {
        // A null at (30, 0) scaled 200 % parents a layer at (10, 25): the 10×10 square at the
        // child's origin lands at 30 + 2·10 = 50, 2·25 = 50, 20×20 pixels.
        let null = #"{"ty":3,"ind":7,"ip":0,"op":100,"st":0,"ks":{"p":{"k":[30,0]},"s":{"k":[200,200]}}}"#
        let child = shapeLayer(ind: 1, ks: #"{"p":{"k":[10,25]}}"#,
            shapes: #"{"ty":"rc","p":{"k":[0,0]},"s":{"k":[10,10]},"r":{"k":0}},"# + Self.red, extra: #""parent":7"#)
        let a = try LottieAnimation(data: lottie(layers: child + "," + null))
        let img = try render(a, frame: 0)
        #expect(pixel(img, 41, 41) == [255, 0, 0, 255])
        #expect(pixel(img, 58, 58) == [255, 0, 0, 255])
        #expect(pixel(img, 38, 50)[3] == 0)
        #expect(pixel(img, 62, 50)[3] == 0)
    }

    @Test func subtractMaskCutsAHole() throws {
        // A 60×60 square with a subtract mask of the 20×20 square at its centre.
        let mask = #""masksProperties":[{"mode":"s","inv":false,"o":{"k":100},"pt":{"k":{"c":true,"i":[[0,0],[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0],[0,0]],"v":[[40,40],[60,40],[60,60],[40,60]]}}}]"#
        let a = try LottieAnimation(data: lottie(layers: shapeLayer(
            shapes: #"{"ty":"rc","p":{"k":[50,50]},"s":{"k":[60,60]},"r":{"k":0}},"# + Self.red, extra: mask)))
        let img = try render(a, frame: 0)
        #expect(pixel(img, 50, 50)[3] == 0)
        #expect(pixel(img, 25, 25) == [255, 0, 0, 255])
    }

    @Test func strokeTrimDrawsPartOfThePath() throws {
        // A stroked 80×80 square path from (10,10) clockwise, trimmed to its first quarter:
        // only the top edge is drawn.
        let path = #"{"ty":"sh","ks":{"k":{"c":true,"i":[[0,0],[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0],[0,0]],"v":[[10,10],[90,10],[90,90],[10,90]]}}}"#
        let stroke = #"{"ty":"st","c":{"k":[0,0,0,1]},"o":{"k":100},"w":{"k":4},"lc":1,"lj":1}"#
        let trim = #"{"ty":"tm","s":{"k":0},"e":{"k":25},"o":{"k":0},"m":1}"#
        let a = try LottieAnimation(data: lottie(layers: shapeLayer(shapes: [path, stroke, trim].joined(separator: ","))))
        let img = try render(a, frame: 0)
        #expect(pixel(img, 50, 10)[3] == 255)
        #expect(pixel(img, 90, 50)[3] == 0)
        #expect(pixel(img, 50, 90)[3] == 0)
    }

    @Test func contentModeFitsAndCentres() throws {
        // A 100×100 composition in a 200×100 layer: scale 1, centred → x offset 50.
        let a = try LottieAnimation(data: lottie(layers: shapeLayer(ks: #"{"p":{"k":[50,50]}}"#,
            shapes: #"{"ty":"rc","p":{"k":[0,0]},"s":{"k":[20,20]},"r":{"k":0}},"# + Self.red)))
        let img = try render(a, frame: 0, size: CGSize(width: 200, height: 100))
        #expect(pixel(img, 100, 50) == [255, 0, 0, 255])
        #expect(pixel(img, 50, 50)[3] == 0)
    }

    @Test func progressFrameAndTimeAgree() throws {
        let a = try LottieAnimation(data: lottie(fr: 10, ip: 10, op: 30, layers: ""))
        let l = LottieAnimationLayer(animation: a)
        l.currentProgress = 0.5
        #expect(l.currentFrame == 20)
        #expect(l.currentTime == 1)
        l.currentTime = 0.5
        #expect(l.currentFrame == 15)
    }

    @Test func unsupportedItemsAreReportedOnce() throws {
        let text = #"{"ty":5,"ind":2,"ip":0,"op":100,"st":0,"ks":{}}"#
        let merge = #"{"ty":"mm","mm":1}"#
        let a = try LottieAnimation(data: lottie(layers: [text, text, shapeLayer(shapes: merge + "," + merge)].joined(separator: ",")))
        _ = a.makeLayer()
        // A text layer without its text data `t` (text layers are built: LottieTextLayerTests).
        #expect(a.issues.filter { $0.feature == "text layer without a text document" }.count == 1)
        #expect(a.issues.contains { $0.feature.contains("merge paths") })
    }

    @Test func expressionsWarnAndUseTheStaticValue() throws {
        let ks = #"{"p":{"k":[50,50],"x":"wiggle(2, 10)"}}"#
        let a = try LottieAnimation(data: lottie(layers: shapeLayer(ks: ks,
            shapes: #"{"ty":"rc","p":{"k":[0,0]},"s":{"k":[20,20]},"r":{"k":0}},"# + Self.red)))
        #expect(a.issues.contains { $0.kind == .expression && $0.feature.contains("position") })
        #expect(try pixel(render(a, frame: 0), 50, 50) == [255, 0, 0, 255])
    }
}
