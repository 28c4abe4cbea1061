import Testing
import Foundation

/// Colour and vector parameters of Core Image filters animate by key path through the filter's
/// name, as numbers do (Apple's CALayer `filters` doc: "you can animate a filter's parameters by
/// key path"; issue 24: "Filter parameters are animatable by key path"). Colours interpolate as
/// layer colours do (component-wise), vectors component by component.
@Suite struct FilterColorVectorKeyPathTests {
    static let size = CGSize(width: 20, height: 20)

    /// A white layer filling the frame with one named filter.
    func scene(_ f: CIFilter) -> (CALayer, CALayer) {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let l = CALayer()
        l.frame = root.frame
        l.backgroundColor = solid(1, 1, 1)
        l.filters = [f]
        root.addSublayer(l)
        return (root, l)
    }

    /// CIFalseColor maps luminance 1 (white) to `inputColor1`: animating it from red to blue
    /// moves the pixel from red through a mix to blue.
    @Test func animatingFiltersFalseColorInputColor1() throws {
        let f = try #require(CIFilter(name: "CIFalseColor"))
        f.name = "tint"
        f.setValue(CIColor(red: 1, green: 0, blue: 0), forKey: "inputColor1")
        let (root, l) = scene(f)
        l.add(basic("filters.tint.inputColor1", from: CIColor(red: 1, green: 0, blue: 0), to: CIColor(red: 0, green: 0, blue: 1)), forKey: "tint")
        let frames = try RenderHarness.renderFrames(root, size: Self.size, times: [0, 0.5, 0.999])
        let px = frames.map { $0.rgba(10, 10) }
        #expect(px[0].r >= 250 && px[0].b <= 5, "\(px)")
        #expect(px[2].b >= 250 && px[2].r <= 5, "\(px)")
        #expect(px[1].r > 40 && px[1].r < 215 && px[1].b > 40 && px[1].b < 215, "\(px)")
        // The model's filter keeps its colour; KVC answers the filter's own CIColor.
        let model = try #require(l.value(forKeyPath: "filters.tint.inputColor1") as? CIColor)
        #expect(model.red == 1 && model.blue == 0)
    }

    /// CIColorMatrix's `inputRVector` as a `CIVector`, a number array or through
    /// `setValue(_:forKeyPath:)`: red × (1 → 0) takes a red layer to black.
    @Test func animatingFiltersColorMatrixInputRVector() throws {
        let f = try #require(CIFilter(name: "CIColorMatrix"))
        f.name = "m"
        let (root, l) = scene(f)
        l.backgroundColor = solid(1, 0, 0)
        l.add(basic("filters.m.inputRVector", from: CIVector(x: 1, y: 0, z: 0, w: 0), to: [0, 0, 0, 0] as [CGFloat]), forKey: "m")
        let frames = try RenderHarness.renderFrames(root, size: Self.size, times: [0, 0.5, 0.999])
        let r = frames.map { $0.rgba(10, 10).r }
        #expect(r[0] >= 250 && r[2] <= 5 && r[1] < r[0] && r[1] > r[2], "\(r)")
        let v = try #require(l.value(forKeyPath: "filters.m.inputRVector") as? CIVector)
        #expect(v.count == 4 && v.x == 1)
    }

    /// A write through the key path on a committed layer animates implicitly (J4), and the
    /// model's new filter holds a CIVector.
    @Test func settingAVectorByKeyPathAnimatesImplicitly() throws {
        let f = try #require(CIFilter(name: "CIColorMatrix"))
        f.name = "m"
        let (root, l) = scene(f)
        l.backgroundColor = solid(1, 0, 0)
        let r = try CARenderer(offscreenSize: Self.size, options: .init(backend: .openGL))
        r.layer = root
        let before = try RenderHarness.frame(r, at: 0).rgba(10, 10).r
        l.setValue(CIVector(x: 0, y: 0, z: 0, w: 0), forKeyPath: "filters.m.inputRVector")
        let v = try #require(l.value(forKeyPath: "filters.m.inputRVector") as? CIVector)
        #expect(v.x == 0)
        let start = try RenderHarness.frame(r, at: 1).rgba(10, 10).r
        let mid = try RenderHarness.frame(r, at: 1.125).rgba(10, 10).r
        let end = try RenderHarness.frame(r, at: 2).rgba(10, 10).r
        #expect(before >= 250 && start >= 250, "\(before) \(start)")
        #expect(mid < start && end <= 5 && mid > end, "\(mid) \(end)")
    }

    /// A value of the wrong type for a colour parameter is refused with a warning; the filter
    /// keeps its colour.
    @Test func wrongTypeForAColourParameterIsRefused() throws {
        let f = try #require(CIFilter(name: "CIFalseColor"))
        f.name = "tint"
        let (_, l) = scene(f)
        let (_, warnings) = Diagnostics.capture { l.setValue("blue", forKeyPath: "filters.tint.inputColor0") }
        #expect(warnings.contains { $0.contains("filters.tint.inputColor0") }, "\(warnings)")
        let c = try #require(l.value(forKeyPath: "filters.tint.inputColor0") as? CIColor)
        #expect(abs(c.red - 0.3) < 1e-6)
    }
}
