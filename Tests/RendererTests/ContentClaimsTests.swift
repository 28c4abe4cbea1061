import Testing
import Foundation
@testable import CARender

/// `ContentClaims` (RenderTreeBuilder+Claims.swift): the walk's answer to which kinds of content
/// claim a layer, kept per class where an emitter claims by class, must equal asking every
/// emitter, for every class, whether `contents` is set or not, and after the glyph emitter is
/// switched off.
@Suite struct ContentClaimsTests {
    final class TintedGradient: CAGradientLayer {}
    final class RoundShape: CAShapeLayer {}

    static func asked(_ builder: RenderTreeBuilder, _ l: CALayer) -> UInt32 {
        var bits: UInt32 = 0
        for (i, e) in builder.contentEmitters.enumerated() where e.claims(l) { bits |= 1 << UInt32(i) }
        return bits
    }

    static func anImage() -> CGImage {
        let ctx = CGContext(data: nil, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 8,
                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: 2, height: 2))
        return ctx.makeImage()!
    }

    @Test("kept answers equal asking every emitter, for each class, with and without contents")
    func keptAnswersEqualAsking() {
        let builder = RenderTreeBuilder()
        let image = Self.anImage()
        let withContents = CALayer()
        withContents.contents = image
        let shapeWithContents = RoundShape()
        shapeWithContents.contents = image
        let layers: [CALayer] = [CALayer(), withContents, CAShapeLayer(), RoundShape(), shapeWithContents, TintedGradient(),
                                 CAGradientLayer(), CATextLayer(), CAEmitterLayer(), CATiledLayer(), CAReplicatorLayer(),
                                 CATransformLayer(), CALayer()]
        // Twice: the second round answers from the kept list.
        for _ in 0..<2 {
            for l in layers { #expect(builder.contentClaims.mask(l) == Self.asked(builder, l), "\(type(of: l))") }
        }
        // Contents set on a layer whose class was answered without them: claimed now.
        let plain = layers[0]
        let before = builder.contentClaims.mask(plain)
        plain.contents = image
        let after = builder.contentClaims.mask(plain)
        #expect(after == Self.asked(builder, plain))
        #expect(after != before, "contents claim the layer once they are set")
        plain.contents = nil
        #expect(builder.contentClaims.mask(plain) == before)
    }

    @Test("switching the glyph atlas off changes the text layer's answer")
    func glyphSwitchForgetsKeptAnswers() {
        let builder = RenderTreeBuilder()
        let text = CATextLayer()
        let on = builder.contentClaims.mask(text)
        #expect(on == Self.asked(builder, text))
        builder.usesGlyphAtlas = false
        let off = builder.contentClaims.mask(text)
        #expect(off == Self.asked(builder, text))
        #expect(off != on, "the glyph emitter no longer claims text layers")
    }
}
