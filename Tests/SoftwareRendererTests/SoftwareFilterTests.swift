import Testing
import Foundation
import CAFrame
import CASoftware

/// Filter passes on the CPU backend (issue 22) against hand-derived values: a colour matrix
/// works on linear, unpremultiplied colour (`FilterOp.color`, Core Image's working space), a
/// filter blur of a step edge follows the Gaussian integral, a backdrop copy moves pixels as a
/// nearest-texel blit, and malformed steps fail by name.
@Suite struct SoftwareFilterTests {
    typealias R = SoftwareRasterTests

    /// Target 0 holds `boxes` (covering the whole `w`×`h` frame), `op` runs from target 0 into
    /// target 1, and target 1 is composited onto the transparent main target.
    static func filtered(_ w: Int, _ h: Int, boxes: [BoxInstance], _ op: FilterOp) -> RenderFrame {
        var f = RenderFrame(width: w, height: h)
        let rect = SIMD4<Float>(0, 0, Float(w), Float(h))
        f.targets = [OffscreenTarget(x: 0, y: 0, width: w, height: h), OffscreenTarget(x: 0, y: 0, width: w, height: h)]
        f.boxes = boxes
        f.composites = [CompositeInstance(dst: rect, src: rect, color: SIMD4(repeating: 1), params: .zero)]
        f.passes = [
            RenderPass(target: .offscreen(0), kind: .draw([Batch(pipeline: .box, range: 0..<boxes.count)])),
            RenderPass(target: .offscreen(1), kind: .filter(source: .offscreen(0), op)),
            RenderPass(target: .main, kind: .draw([Batch(pipeline: .composite(source: .offscreen(1), mask: nil), range: 0..<1)])),
        ]
        return f
    }

    /// IEC 61966-2-1: linear → sRGB.
    static func srgb(_ l: Double) -> Double { l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055 }
    /// sRGB → linear.
    static func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }

    @Test("a colour matrix scales linear light: red × 0.25 is sRGB 0.537 (137), not 64")
    func colorMatrixWorksInLinearLight() throws {
        let quarter = ColorTransform(r: SIMD4(0.25, 0, 0, 0), g: SIMD4(0, 1, 0, 0), b: SIMD4(0, 0, 1, 0), a: SIMD4(0, 0, 0, 1))
        let px = try R.render(Self.filtered(8, 8, boxes: [R.box(SIMD4(0, 0, 8, 8), fill: SIMD4(1, 0, 0.5, 1))], .color(quarter)))
        // Blue 0.5 (128 stored) goes to linear and back unchanged; red 1 → 0.25 linear → sRGB.
        let red = Int((Self.srgb(0.25) * 255).rounded())
        #expect(red == 137)
        let p = R.pixel(px, 8, 4, 4)
        #expect(abs(p[0] - red) <= 1 && p[1] == 0 && abs(p[2] - 128) <= 1 && p[3] == 255, "\(p)")
    }

    @Test("a colour matrix unpremultiplies first: half-transparent red keeps its alpha and scales its colour")
    func colorMatrixUnpremultiplies() throws {
        let quarter = ColorTransform(r: SIMD4(0.25, 0, 0, 0), g: SIMD4(0, 1, 0, 0), b: SIMD4(0, 0, 1, 0), a: SIMD4(0, 0, 0, 1))
        let px = try R.render(Self.filtered(8, 8, boxes: [R.box(SIMD4(0, 0, 8, 8), fill: SIMD4(0.5, 0, 0, 0.5))], .color(quarter)))
        // Stored 128, 0, 0, 128: unpremultiplied red 1 → 0.537 sRGB, times alpha 128/255.
        let want = Int((Self.srgb(0.25) * 128).rounded())
        let p = R.pixel(px, 8, 4, 4)
        #expect(abs(p[0] - want) <= 1 && p[3] == 128, "\(p) vs \(want)")
    }

    @Test("a filter blur of a step edge follows the Gaussian integral Φ(d / σ) within 2/255")
    func blurOfStepEdgeIsTheGaussianIntegral() throws {
        // White over x < 32 of a 64-texel row; σ = 4 texels along x (cut at 3σ: tail 0.27 %).
        let sigma = 4.0
        let px = try R.render(Self.filtered(64, 4, boxes: [R.box(SIMD4(0, 0, 32, 4), fill: SIMD4(1, 1, 1, 1))],
                                            .blur(sigma: Float(sigma), horizontal: true)))
        for x in 16..<48 {
            // Fraction of the Gaussian centred on the texel centre that lies left of the edge.
            let d = (32 - (Double(x) + 0.5)) / sigma
            let want = 255 * 0.5 * erfc(-d / 2.0.squareRoot())
            let p = R.pixel(px, 64, x, 2)
            #expect(abs(Double(p[3]) - want) <= 2 && p[0] == p[3], "x = \(x): \(p) vs \(want)")
        }
        // Far from the edge: untouched.
        #expect(R.pixel(px, 64, 2, 2) == [255, 255, 255, 255])
        #expect(R.pixel(px, 64, 60, 2) == [0, 0, 0, 0])
    }

    @Test("a backdrop copy takes the main target's pixels under its rectangle, as a blit")
    func copyTakesThePixelsUnderItsRectangle() throws {
        // Main: red over x 8…16. The copy covers frame x 8…24; composited back 8 pixels to the
        // right, the red lands on x 16…24 and the copied transparent half adds nothing.
        var f = RenderFrame(width: 32, height: 8)
        f.boxes = [R.box(SIMD4(8, 0, 8, 8), fill: SIMD4(1, 0, 0, 1))]
        f.targets = [OffscreenTarget(x: 8, y: 0, width: 16, height: 8)]
        f.composites = [CompositeInstance(dst: SIMD4(16, 0, 16, 8), src: SIMD4(16, 0, 16, 8), color: SIMD4(repeating: 1), params: .zero)]
        f.passes = [
            RenderPass(target: .main, kind: .draw([Batch(pipeline: .box, range: 0..<1)])),
            RenderPass(target: .offscreen(0), kind: .copy(source: .main)),
            RenderPass(target: .main, kind: .draw([Batch(pipeline: .composite(source: .offscreen(0), mask: nil), range: 0..<1)]), clears: false),
        ]
        let px = try R.render(f)
        for x in 0..<32 {
            let red = (8..<24).contains(x)
            #expect(R.pixel(px, 32, x, 4) == (red ? [255, 0, 0, 255] : [0, 0, 0, 0]), "x = \(x)")
        }
    }

    @Test("CIBloom's sum stays valid premultiplied: alpha at most 1, colour at most alpha")
    func addClampsToValidPremultiplied() throws {
        // Source and glow are the same target: 0.6 + 1 × 0.6 = 1.2 → alpha 1, colour 1.
        var f = Self.filtered(8, 8, boxes: [R.box(SIMD4(0, 0, 8, 8), fill: SIMD4(0.6, 0.3, 0, 0.6))], .add(glow: .offscreen(0), weight: 1))
        f.passes[1] = RenderPass(target: .offscreen(1), kind: .filter(source: .offscreen(0), .add(glow: .offscreen(0), weight: 1)))
        let p = R.pixel(try R.render(f), 8, 4, 4)
        // 153 + 153 → 255 (clamped); 77 + 77 = 154; alpha 255.
        #expect(p == [255, 154, 0, 255], "\(p)")
    }

    @Test("feFlood fills its crop and leaves transparent black outside it")
    func floodFillsItsCrop() throws {
        let step = FilterPrimitiveStep(.flood(SIMD4(0, 0.5, 0, 0.5)), crop: SIMD4(2, 2, 4, 4))
        let px = try R.render(Self.filtered(8, 8, boxes: [R.box(SIMD4(0, 0, 8, 8), fill: SIMD4(1, 0, 0, 1))], .primitive(step)))
        #expect(R.pixel(px, 8, 3, 3) == [0, 128, 0, 128])
        #expect(R.pixel(px, 8, 1, 3) == [0, 0, 0, 0])
        #expect(R.pixel(px, 8, 6, 6) == [0, 0, 0, 0])
    }

    @Test("feOffset moves the source and reads transparent black past the pass")
    func offsetMovesTheSource() throws {
        let step = FilterPrimitiveStep(.offset(SIMD2(3, 0)), crop: SIMD4(0, 0, 16, 4))
        let px = try R.render(Self.filtered(16, 4, boxes: [R.box(SIMD4(0, 0, 4, 4), fill: SIMD4(0, 0, 1, 1))], .primitive(step)))
        for x in 0..<16 {
            #expect(R.pixel(px, 16, x, 1) == ((3..<7).contains(x) ? [0, 0, 255, 255] : [0, 0, 0, 0]), "x = \(x)")
        }
    }

    @Test("feConvolveMatrix with preserveAlpha: a uniform 3×3 kernel at an edge averages the unpremultiplied neighbours")
    func convolvePreserveAlphaAtAnEdge() throws {
        // Opaque white over x < 5 of 8 texels; kernel 0.1 × 9, divisor 0.9, target (1, 1).
        // Texel 4 sees columns 3, 4 (white) and 5 (transparent, unpremultiplied 0): 6/9 of white.
        let step = FilterPrimitiveStep(.convolve(size: SIMD2(3, 3), target: SIMD2(1, 1), params: SIMD4(0.9, 0, 0, 1),
                                                 kernel: Array(repeating: 0.1, count: 9)), crop: SIMD4(0, 0, 8, 4))
        let px = try R.render(Self.filtered(8, 4, boxes: [R.box(SIMD4(0, 0, 5, 4), fill: SIMD4(1, 1, 1, 1))], .primitive(step)))
        #expect(R.pixel(px, 8, 4, 1) == [170, 170, 170, 255], "\(R.pixel(px, 8, 4, 1))")
        #expect(R.pixel(px, 8, 3, 1) == [255, 255, 255, 255])
        #expect(R.pixel(px, 8, 5, 1) == [0, 0, 0, 0])
    }

    @Test("a filter step reading the target it writes fails by name (never a feedback loop)")
    func stepReadingItsOwnTargetFails() throws {
        var f = Self.filtered(8, 8, boxes: [R.box(SIMD4(0, 0, 8, 8), fill: SIMD4(1, 0, 0, 1))], .color(.identity))
        f.passes[1] = RenderPass(target: .offscreen(1), kind: .filter(source: .offscreen(1), .color(.identity)))
        #expect { try R.render(f) } throws: { "\($0)".contains("reads the target it writes") }
        f.passes[1] = RenderPass(target: .offscreen(1), kind: .filter(source: .main, .color(.identity)))
        #expect { try R.render(f) } throws: { "\($0)".contains("not offscreen") }
        f.passes[1] = RenderPass(target: .offscreen(1), kind: .filter(source: .offscreen(7), .color(.identity)))
        #expect { try R.render(f) } throws: { "\($0)".contains("not offscreen") }
    }

    @Test("hostile primitive parameters draw (bounded) instead of trapping: NaN radii, empty kernels, short tables")
    func hostileParametersAreBounded() throws {
        let box = [R.box(SIMD4(0, 0, 8, 8), fill: SIMD4(1, 0, 0, 1))]
        let crop = SIMD4<Float>(0, 0, 8, 8)
        for op: FilterPrimitiveOp in [.morphology(SIMD2(.nan, 0), dilate: true), .morphology(SIMD2(1e9, 0), dilate: false),
                                      .convolve(size: SIMD2(0, 0), target: .zero, params: SIMD4(0, 0, 0, 0), kernel: []),
                                      .convolve(size: SIMD2(3, 3), target: SIMD2(1, 1), params: SIMD4(1, 0, 0, 0), kernel: [1]),
                                      .tile(SIMD4(0, 0, 0, 0)), .displacement(xAxis: SIMD2(.infinity, 0), yAxis: .zero, channels: SIMD2(9, -3)),
                                      .lighting(params: SIMD4(1, 1, 1, 1), light: .zero, spot: .zero, extra: SIMD4(-2, 0, 0, 0), color: SIMD4(repeating: 1))] {
            _ = try R.render(Self.filtered(8, 8, boxes: box, .primitive(FilterPrimitiveStep(op, crop: crop))))
        }
        let short = FilterPrimitiveStep(.transfer(FilterTransferTable(samples: [.zero])), crop: crop)
        #expect { try R.render(Self.filtered(8, 8, boxes: box, .primitive(short))) } throws: { "\($0)".contains("feComponentTransfer") }
    }
}
