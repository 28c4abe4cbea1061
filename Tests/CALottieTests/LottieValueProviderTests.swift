import Testing
import Foundation

/// Value providers by key path (lottie-ios's `setValueProvider(_:keypath:)`): the built layers'
/// values change, checked on rendered pixels.
@Suite struct LottieValueProviderTests {
    /// A 20×20 square at (50, 50) in group "Group 1" of layer "Box", filled red by "Fill 1",
    /// its layer's x animated from 30 to 70 over frames 0…10.
    static func animation() throws -> LottieAnimation {
        let ks = #"{"p":{"a":1,"k":[{"t":0,"s":[30,50],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":10,"s":[70,50]}]}}"#
        let group = #"{"ty":"gr","nm":"Group 1","it":[{"ty":"rc","nm":"Rect","p":{"k":[0,0]},"s":{"k":[20,20]},"r":{"k":0}},{"ty":"fl","nm":"Fill 1","c":{"a":1,"k":[{"t":0,"s":[1,0,0,1]},{"t":10,"s":[1,1,0,1]}]},"o":{"k":100}},{"ty":"tr","p":{"k":[0,0]}}]}"#
        return try LottieAnimation(data: lottie(layers: #"{"ty":4,"ind":1,"nm":"Box","ip":0,"op":100,"st":0,"ks":\#(ks),"shapes":[\#(group)]}"#))
    }

    static func render(_ layer: LottieAnimationLayer, frame: Double) throws -> CGImage {
        layer.anchorPoint = .zero
        layer.position = .zero
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.layoutIfNeeded()
        layer.currentFrame = frame
        let r = try CARenderer(offscreenSize: CGSize(width: 100, height: 100), scale: 1, options: .init(backend: .openGL))
        r.layer = layer
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        r.endFrame()
        return try r.makeImage()
    }

    @Test func keypathsMatchWithWildcards() {
        // `*` is one key, `**` any number (lottie-ios's AnimationKeypath).
        func m(_ p: String, _ k: String) -> Bool {
            LottieValueTargets.matches(AnimationKeypath(keypath: p).keys[...], AnimationKeypath(keypath: k).keys[...])
        }
        #expect(m("**.Fill 1.Color", "Box.Group 1.Fill 1.Color"))
        #expect(m("**.Fill 1.Color", "Fill 1.Color"))
        #expect(m("Box.*.Fill 1.Color", "Box.Group 1.Fill 1.Color"))
        #expect(!m("Box.*.Fill 1.Color", "Box.Fill 1.Color"))
        #expect(!m("**.Fill 2.Color", "Box.Group 1.Fill 1.Color"))
        #expect(m("**", "Box.Transform.Position"))
        let lit: AnimationKeypath = "Box.Transform.Position"
        #expect(lit.keys == ["Box", "Transform", "Position"])
    }

    @Test func colorProviderReplacesTheAnimatedFill() throws {
        // The fill animates red → yellow; the provider makes it blue at every frame.
        let l = LottieAnimationLayer(animation: try Self.animation())
        l.setValueProvider(ColorValueProvider(LottieColor(r: 0, g: 0, b: 1, a: 1)), keypath: "**.Fill 1.Color")
        #expect(pixel(try Self.render(l, frame: 0), 30, 50) == [0, 0, 255, 255])
        #expect(pixel(try Self.render(l, frame: 10), 70, 50) == [0, 0, 255, 255])
    }

    @Test func opacityAndPositionProviders() throws {
        // Position pinned at (50, 50) whatever the frame; fill opacity 0 hides the square.
        let l = LottieAnimationLayer(animation: try Self.animation())
        l.setValueProvider(PointValueProvider(CGPoint(x: 50, y: 50)), keypath: "Box.Transform.Position")
        let img = try Self.render(l, frame: 0)
        #expect(pixel(img, 50, 50) == [255, 0, 0, 255])
        #expect(pixel(img, 30, 50)[3] == 0)
        l.setValueProvider(FloatValueProvider(0), keypath: "Box.Group 1.Fill 1.Opacity")
        #expect(pixel(try Self.render(l, frame: 5), 50, 50)[3] == 0)
    }

    @Test func providersSurviveANewAnimationAndPlayback() throws {
        let l = LottieAnimationLayer(animation: try Self.animation())
        l.setValueProvider(ColorValueProvider(LottieColor(r: 0, g: 1, b: 0, a: 1)), keypath: "**.Color")
        l.animation = try Self.animation()
        l.play(fromProgress: 0, toProgress: 0.05, loopMode: .loop)
        l.pause()
        #expect(pixel(try Self.render(l, frame: 10), 70, 50) == [0, 255, 0, 255])
    }

    @Test func mismatchedProviderChangesNothing() throws {
        // A colour for a position, and a key path naming nothing: the file's values stay.
        let l = LottieAnimationLayer(animation: try Self.animation())
        l.setValueProvider(ColorValueProvider(LottieColor(r: 0, g: 0, b: 1, a: 1)), keypath: "Box.Transform.Position")
        l.setValueProvider(FloatValueProvider(.nan), keypath: "Nothing.Here")
        #expect(pixel(try Self.render(l, frame: 0), 30, 50) == [255, 0, 0, 255])
    }
}
