import Testing
import Foundation

/// Apple's CIFilter API subset (Core Image Filter Reference): names, keys, defaults, the
/// settable `name` Core Animation's key paths use, and bad input (unknown names and keys).
@Suite struct CIFilterTests {
    @Test func unknownNameIsNilWithOneWarningNamingIt() {
        let (f, warnings) = CIDiagnostics.capture { CIFilter(name: "CINoSuchFilter") }
        #expect(f == nil)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("CINoSuchFilter") == true)
    }

    @Test func gaussianBlurHasApplesKeysAndDefault() throws {
        let f = try #require(CIFilter(name: "CIGaussianBlur"))
        #expect(f.name == "CIGaussianBlur")
        #expect(f.inputKeys == [kCIInputImageKey, kCIInputRadiusKey])
        #expect(f.outputKeys == [kCIOutputImageKey])
        #expect((f.value(forKey: kCIInputRadiusKey) as? Double) == 10)
        f.setValue(4.0, forKey: kCIInputRadiusKey)
        #expect(f.number(kCIInputRadiusKey) == 4)
        f.setDefaults()
        #expect(f.number(kCIInputRadiusKey) == 10)
        let a = f.attributes
        #expect(a[kCIAttributeFilterName] as? String == "CIGaussianBlur")
        #expect((a[kCIInputRadiusKey] as? [String: Any])?[kCIAttributeDefault] as? Double == 10)
    }

    /// Core Animation addresses a filter by its `name` ("filters.blur.inputRadius"): settable
    /// on Apple's CIFilter, the filter's kind unchanged.
    @Test func nameIsSettableAndKindStays() throws {
        let f = try #require(CIFilter(name: "CIGaussianBlur"))
        f.name = "blur"
        #expect(f.name == "blur")
        #expect(f.attributes[kCIAttributeFilterName] as? String == "CIGaussianBlur")
        #expect(f.family == .gaussianBlur)
    }

    @Test func everyListedFilterExistsWithApplesDefaults() throws {
        for name in ["CIGaussianBlur", "CIColorMatrix", "CIColorControls", "CIHueAdjust", "CIExposureAdjust",
                     "CIGammaAdjust", "CISepiaTone", "CIColorInvert", "CIColorMonochrome", "CIFalseColor",
                     "CIVignette", "CIPixellate", "CIBloom", "CIMultiplyBlendMode", "CIScreenBlendMode",
                     "CIOverlayBlendMode", "CIDarkenBlendMode", "CILightenBlendMode", "CIColorDodgeBlendMode",
                     "CIColorBurnBlendMode", "CISoftLightBlendMode", "CIHardLightBlendMode", "CIDifferenceBlendMode",
                     "CIExclusionBlendMode", "CIHueBlendMode", "CISaturationBlendMode", "CIColorBlendMode",
                     "CILuminosityBlendMode", "CISourceOverCompositing", "CISourceInCompositing",
                     "CISourceOutCompositing", "CISourceAtopCompositing"] {
            #expect(CIFilter(name: name) != nil, "\(name)")
        }
        let c = try #require(CIFilter(name: "CIColorControls"))
        #expect(c.number(kCIInputSaturationKey) == 1 && c.number(kCIInputBrightnessKey) == 0 && c.number(kCIInputContrastKey) == 1)
        #expect(CIFilter(name: "CIExposureAdjust")?.number(kCIInputEVKey) == 0.5)
        let m = try #require(CIFilter(name: "CIColorMonochrome"))
        #expect(m.color(kCIInputColorKey) == SIMD4(0.6, 0.45, 0.3, 1))
        let p = try #require(CIFilter(name: "CIPixellate"))
        #expect(p.vector(kCIInputCenterKey) == [150, 150] && p.number(kCIInputScaleKey) == 8)
        #expect(CIFilter(name: "CIColorMatrix")?.vector("inputRVector") == [1, 0, 0, 0])
    }

    @Test func unknownKeyWarnsAndIsIgnored() throws {
        let f = try #require(CIFilter(name: "CISepiaTone"))
        let (_, warnings) = CIDiagnostics.capture { f.setValue(3, forKey: "inputBogus") }
        #expect(f.value(forKey: "inputBogus") == nil)
        #expect(warnings.contains { $0.contains("inputBogus") })
    }

    @Test func wrongTypeFallsBackToDefaultWithWarning() throws {
        let f = try #require(CIFilter(name: "CIGaussianBlur"))
        f.setValue("wide", forKey: kCIInputRadiusKey)
        let (r, warnings) = CIDiagnostics.capture { f.number(kCIInputRadiusKey) }
        #expect(r == 10)
        #expect(warnings.contains { $0.contains("inputRadius") })
    }

    @Test func parametersInitAndNumberTypes() throws {
        let f = try #require(CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: NSNumber(value: 3)]))
        #expect(f.number(kCIInputRadiusKey) == 3)
        f.setValue(CGFloat(2.5), forKey: kCIInputRadiusKey)
        #expect(f.number(kCIInputRadiusKey) == 2.5)
        f.setValue(Float(1.5), forKey: kCIInputRadiusKey)
        #expect(f.number(kCIInputRadiusKey) == 1.5)
    }

    @Test func compositingFilterStringsAndFilters() throws {
        #expect(CIBlendMode(compositingFilter: "multiplyBlendMode") == .multiply)
        #expect(CIBlendMode(compositingFilter: "sourceOverCompositing") == .sourceOver)
        #expect(CIBlendMode(compositingFilter: "CIScreenBlendMode") == .screen)
        #expect(CIBlendMode(compositingFilter: "plusL") == .plusLighter)
        #expect(CIBlendMode(compositingFilter: "notABlendMode") == nil)
        #expect(CIBlendMode(compositingFilter: try #require(CIFilter(name: "CIOverlayBlendMode"))) == .overlay)
        #expect(CIBlendMode(compositingFilter: try #require(CIFilter(name: "CIGaussianBlur"))) == nil)
    }

    @Test func vectorAndColor() {
        let v = CIVector(x: 1, y: 2, z: 3, w: 4)
        #expect(v.count == 4 && v.z == 3 && v.value(at: 9) == 0)
        #expect(CIVector(string: "[5 6]").y == 6)
        let c = CIColor(cgColor: CGColor(red: 0.25, green: 0.5, blue: 0.75, alpha: 1))
        #expect(c.red == 0.25 && c.blue == 0.75 && c.alpha == 1)
    }
}
