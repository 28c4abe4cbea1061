import CoreGraphics

/// The filters this Core Image implements, with Apple's parameter names and defaults (Core Image
/// Filter Reference; each filter's `attributes` on Apple platforms). Package API: the renderer
/// (CARender) reads a filter's kind and parameters through it.
package enum CIFilterCatalogue {
    /// A parameter's default value.
    package enum Default {
        case number(Double)
        case vector([CGFloat])
        case color(CGFloat, CGFloat, CGFloat, CGFloat)
        /// An image input (`inputImage`, `inputBackgroundImage`): no default, supplied by the layer.
        case image

        var value: Any? {
            switch self {
            case .number(let v): return v
            case .vector(let v): return CIVector(array: v)
            case .color(let r, let g, let b, let a): return CIColor(red: r, green: g, blue: b, alpha: a)
            case .image: return nil
            }
        }
    }

    /// How a filter works, as the renderer groups them.
    package enum Family: Sendable, Equatable {
        case gaussianBlur, colorMatrix, colorControls, hueAdjust, exposureAdjust, gammaAdjust, sepiaTone,
             colorInvert, colorMonochrome, falseColor, vignette, pixellate, bloom
        /// A `CI…BlendMode` or `CI…Compositing` filter: a layer's `compositingFilter`.
        case blend(CIBlendMode)
    }

    package struct Entry {
        package let family: Family
        package let parameters: [(key: String, value: Default)]
        package let categories: [String]
    }

    static let image: (key: String, value: Default) = ("inputImage", .image)
    static let background: (key: String, value: Default) = ("inputBackgroundImage", .image)

    /// Every filter by its Core Image name.
    package static let entries: [String: Entry] = {
        var e: [String: Entry] = [
            "CIGaussianBlur": Entry(family: .gaussianBlur, parameters: [image, ("inputRadius", .number(10))],
                                    categories: ["CICategoryBlur"]),
            "CIColorMatrix": Entry(family: .colorMatrix, parameters: [
                image, ("inputRVector", .vector([1, 0, 0, 0])), ("inputGVector", .vector([0, 1, 0, 0])),
                ("inputBVector", .vector([0, 0, 1, 0])), ("inputAVector", .vector([0, 0, 0, 1])),
                ("inputBiasVector", .vector([0, 0, 0, 0]))], categories: ["CICategoryColorAdjustment"]),
            "CIColorControls": Entry(family: .colorControls, parameters: [
                image, ("inputSaturation", .number(1)), ("inputBrightness", .number(0)), ("inputContrast", .number(1))],
                                     categories: ["CICategoryColorAdjustment"]),
            "CIHueAdjust": Entry(family: .hueAdjust, parameters: [image, ("inputAngle", .number(0))],
                                 categories: ["CICategoryColorAdjustment"]),
            "CIExposureAdjust": Entry(family: .exposureAdjust, parameters: [image, ("inputEV", .number(0.5))],
                                      categories: ["CICategoryColorAdjustment"]),
            "CIGammaAdjust": Entry(family: .gammaAdjust, parameters: [image, ("inputPower", .number(1))],
                                   categories: ["CICategoryColorAdjustment"]),
            "CISepiaTone": Entry(family: .sepiaTone, parameters: [image, ("inputIntensity", .number(1))],
                                 categories: ["CICategoryColorEffect"]),
            "CIColorInvert": Entry(family: .colorInvert, parameters: [image], categories: ["CICategoryColorEffect"]),
            "CIColorMonochrome": Entry(family: .colorMonochrome, parameters: [
                image, ("inputColor", .color(0.6, 0.45, 0.3, 1)), ("inputIntensity", .number(1))],
                                       categories: ["CICategoryColorEffect"]),
            "CIFalseColor": Entry(family: .falseColor, parameters: [
                image, ("inputColor0", .color(0.3, 0, 0, 1)), ("inputColor1", .color(1, 0.9, 0.8, 1))],
                                  categories: ["CICategoryColorEffect"]),
            "CIVignette": Entry(family: .vignette, parameters: [image, ("inputIntensity", .number(0)), ("inputRadius", .number(1))],
                                categories: ["CICategoryColorEffect"]),
            "CIPixellate": Entry(family: .pixellate, parameters: [image, ("inputCenter", .vector([150, 150])), ("inputScale", .number(8))],
                                 categories: ["CICategoryStylize"]),
            "CIBloom": Entry(family: .bloom, parameters: [image, ("inputRadius", .number(10)), ("inputIntensity", .number(0.5))],
                             categories: ["CICategoryStylize"]),
        ]
        for mode in CIBlendMode.allCases {
            e[mode.filterName] = Entry(family: .blend(mode), parameters: [image, background],
                                       categories: [mode.isPorterDuff ? "CICategoryCompositeOperation" : "CICategoryCompositeOperation"])
        }
        return e
    }()
}

/// The blend and compositing filters (`CI…BlendMode`, `CI…Compositing`) and the string
/// shortcuts Core Animation's `compositingFilter` accepts ("multiplyBlendMode" …). Raw values
/// are the blend shader's mode numbers (`Shaders/filter.frag`), shared with the frame format.
package enum CIBlendMode: Int32, CaseIterable, Sendable {
    case sourceOver = 0, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight,
         difference, exclusion, hue, saturation, color, luminosity, sourceIn, sourceOut, sourceAtop,
         plusLighter, plusDarker

    /// The Core Image filter name.
    package var filterName: String {
        switch self {
        case .sourceOver: return "CISourceOverCompositing"
        case .sourceIn: return "CISourceInCompositing"
        case .sourceOut: return "CISourceOutCompositing"
        case .sourceAtop: return "CISourceAtopCompositing"
        case .plusLighter: return "CIAdditionCompositing"
        case .plusDarker: return "CILinearBurnBlendMode"
        case .multiply: return "CIMultiplyBlendMode"
        case .screen: return "CIScreenBlendMode"
        case .overlay: return "CIOverlayBlendMode"
        case .darken: return "CIDarkenBlendMode"
        case .lighten: return "CILightenBlendMode"
        case .colorDodge: return "CIColorDodgeBlendMode"
        case .colorBurn: return "CIColorBurnBlendMode"
        case .softLight: return "CISoftLightBlendMode"
        case .hardLight: return "CIHardLightBlendMode"
        case .difference: return "CIDifferenceBlendMode"
        case .exclusion: return "CIExclusionBlendMode"
        case .hue: return "CIHueBlendMode"
        case .saturation: return "CISaturationBlendMode"
        case .color: return "CIColorBlendMode"
        case .luminosity: return "CILuminosityBlendMode"
        }
    }

    /// Porter-Duff operators (W3C Compositing §9.1): they change the backdrop where the source
    /// does not cover it, unlike the blend modes, which composite source-over.
    package var isPorterDuff: Bool { self == .sourceIn || self == .sourceOut || self == .sourceAtop }

    /// The mode a `compositingFilter` value names: a `CIFilter` of a blend or compositing kind,
    /// its Core Image name, or Apple's shortcut strings ("multiplyBlendMode",
    /// "sourceOverCompositing", and Core Animation's "plusL"/"plusD"). Nil for anything else.
    package init?(compositingFilter value: Any) {
        if let f = value as? CIFilter {
            guard case .blend(let m) = f.family else { return nil }
            self = m
            return
        }
        guard let s = value as? String else { return nil }
        switch s {
        case "plusL", "plusLighter", "additionCompositing": self = .plusLighter; return
        case "plusD", "plusDarker", "linearBurnBlendMode": self = .plusDarker; return
        default: break
        }
        let name = s.hasPrefix("CI") ? s : "CI" + s.prefix(1).uppercased() + s.dropFirst()
        guard let m = CIBlendMode.allCases.first(where: { $0.filterName == name }) else { return nil }
        self = m
    }
}

extension CIFilterCatalogue {
    /// A parameter's type across the catalogue: Core Image names a key the same way in every
    /// filter that has it (`inputColor` is always a colour, `inputCenter` always a vector), so a
    /// key path such as `filters.tint.inputColor` knows how to interpolate before it finds the
    /// filter. Nil for a key no filter has (and for image inputs).
    package static func parameterType(forKey key: String) -> ParameterType? { parameterTypes[key] }

    package enum ParameterType: Sendable { case number, vector, color }

    private static let parameterTypes: [String: ParameterType] = {
        var m: [String: ParameterType] = [:]
        for entry in entries.values {
            for p in entry.parameters {
                switch p.value {
                case .number: m[p.key] = .number
                case .vector: m[p.key] = .vector
                case .color: m[p.key] = .color
                case .image: break
                }
            }
        }
        return m
    }()
}
