// Enumerations and option sets of Core Graphics' drawing API, with Apple's names and raw
// values (CoreGraphics/CGContext.h, CGGradient.h).

/// How the current path is painted (Apple's `CGPathDrawingMode`, same raw values).
public enum CGPathDrawingMode: Int32, Sendable, Hashable {
    /// Fill with the non-zero winding rule.
    case fill = 0
    /// Fill with the even-odd rule.
    case eoFill = 1
    /// Stroke.
    case stroke = 2
    /// Fill (non-zero), then stroke.
    case fillStroke = 3
    /// Fill (even-odd), then stroke.
    case eoFillStroke = 4
}

/// How images are resampled when drawn scaled (Apple's `CGInterpolationQuality`, same raw
/// values). Here `.none` samples the nearest pixel; every other level interpolates bilinearly
/// (`.high` does not use a wider filter: documented in docs/DRAWING.md).
public enum CGInterpolationQuality: Int32, Sendable, Hashable {
    case `default` = 0
    case none = 1
    case low = 2
    case high = 3
    case medium = 4
}

/// Whether a gradient is extended past its start and end (Apple's `CGGradientDrawingOptions`).
public struct CGGradientDrawingOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Paint the first colour before the start point (or inside the start circle).
    public static let drawsBeforeStartLocation = CGGradientDrawingOptions(rawValue: 1 << 0)
    /// Paint the last colour after the end point (or outside the end circle).
    public static let drawsAfterEndLocation = CGGradientDrawingOptions(rawValue: 1 << 1)
}

/// Compositing operations for drawing (Apple's `CGBlendMode`, same raw values). The separable
/// and non-separable modes follow the W3C Compositing and Blending Level 1 formulas (the PDF
/// blend modes Apple documents), the Porter-Duff modes Porter and Duff's equations on
/// premultiplied colour (the R, S, D formulas in Apple's `CGBlendMode` documentation);
/// `plusDarker` and `plusLighter` are Apple's R = max(0, 1 − ((1 − D) + (1 − S))) and
/// R = min(1, S + D). See CGBlendMode+Math.swift.
public enum CGBlendMode: Int32, Sendable, Hashable, CaseIterable {
    case normal = 0
    case multiply = 1
    case screen = 2
    case overlay = 3
    case darken = 4
    case lighten = 5
    case colorDodge = 6
    case colorBurn = 7
    case softLight = 8
    case hardLight = 9
    case difference = 10
    case exclusion = 11
    case hue = 12
    case saturation = 13
    case color = 14
    case luminosity = 15
    case clear = 16
    case copy = 17
    case sourceIn = 18
    case sourceOut = 19
    case sourceAtop = 20
    case destinationOver = 21
    case destinationIn = 22
    case destinationOut = 23
    case destinationAtop = 24
    case xor = 25
    case plusDarker = 26
    case plusLighter = 27
}
