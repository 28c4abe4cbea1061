// The graphics state (Apple's "Managing Graphics State" and "Setting Graphics State
// Attributes" groups of CGContext).

/// One graphics state: what `saveGState` saves and `restoreGState` brings back.
package struct GState {
    /// User space → device space (y up, origin bottom-left).
    package var ctm = CGAffineTransform.identity
    /// Fill and stroke colours, premultiplied sRGB, not yet multiplied by `alpha`.
    package var fillColor = SIMD4<Float>(0, 0, 0, 1)
    package var strokeColor = SIMD4<Float>(0, 0, 0, 1)
    package var lineWidth: CGFloat = 1
    package var lineCap = CGLineCap.butt
    package var lineJoin = CGLineJoin.miter
    package var miterLimit: CGFloat = 10
    package var dashPhase: CGFloat = 0
    package var dashLengths: [CGFloat] = []
    package var flatness: CGFloat = 0.5
    package var alpha: Float = 1
    package var blendMode = CGBlendMode.normal
    package var shouldAntialias = true
    package var allowsAntialiasing = true
    package var interpolationQuality = CGInterpolationQuality.default
    /// The clip as coverage over the device (nil: nothing clipped). Shared between saved states
    /// (a class, replaced, never mutated in place), so saving a state does not copy a mask.
    package var clip: ClipMask?
    package var shadow: ShadowStyle?

    package init() {}
}

/// A shadow as set by `setShadow`: offset and blur in base space (device pixels here), colour
/// premultiplied.
package struct ShadowStyle {
    package var offset: CGSize
    package var blur: CGFloat
    package var color: SIMD4<Float>
}

extension CGColor {
    /// Premultiplied sRGB components in 0…1 (NaN → 0, out of range clamped).
    package var premultipliedFloat: SIMD4<Float> {
        let (r, g, b, a) = rgba
        func c(_ v: CGFloat) -> Float { v.isNaN ? 0 : Float(Swift.min(Swift.max(v, 0), 1)) }
        let al = c(a)
        return SIMD4(c(r) * al, c(g) * al, c(b) * al, al)
    }
}

extension CGContext {
    /// Saved states beyond this depth are not stored: a bound so that a runaway loop of saves
    /// (a million deep) cannot exhaust memory. Apple has no documented limit; code that nests
    /// deeper than 65,536 levels gets a warning and the deeper saves restore nothing (each state
    /// is a few hundred bytes, so the stack stays under ~20 MB).
    package static let maxSavedStates = 65_536

    /// Pushes a copy of the graphics state (CGContextSaveGState). The current path is not part
    /// of it, as Apple documents.
    public func saveGState() {
        if savedStates.count >= Self.maxSavedStates {
            CGDiagnostics.warnOnce("CGContext.saveGState(): more than \(Self.maxSavedStates) nested saves; the deeper ones are not stored and their restores change nothing")
            unsavedDepth &+= 1
            return
        }
        savedStates.append(gstate)
    }

    /// Pops the graphics state saved last (CGContextRestoreGState). With nothing saved it is
    /// ignored with a warning, as Apple logs "CGContextRestoreGState: invalid context".
    public func restoreGState() {
        if unsavedDepth > 0 { unsavedDepth -= 1; return }
        guard let s = savedStates.popLast() else {
            CGDiagnostics.warnOnce("CGContext.restoreGState(): no saved state to restore; ignored")
            return
        }
        gstate = s
    }

    // MARK: Colours

    /// Sets the fill colour (CGContextSetFillColorWithColor). Components are sRGB (or gray).
    public func setFillColor(_ color: CGColor) { gstate.fillColor = color.premultipliedFloat }
    /// Sets the fill colour to a gray (CGContextSetGrayFillColor).
    public func setFillColor(gray: CGFloat, alpha: CGFloat) { setFillColor(CGColor(gray: gray, alpha: alpha)) }
    /// Sets the fill colour from sRGB components (CGContextSetRGBFillColor).
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        setFillColor(CGColor(red: red, green: green, blue: blue, alpha: alpha))
    }
    /// Sets the stroke colour (CGContextSetStrokeColorWithColor).
    public func setStrokeColor(_ color: CGColor) { gstate.strokeColor = color.premultipliedFloat }
    /// Sets the stroke colour to a gray (CGContextSetGrayStrokeColor).
    public func setStrokeColor(gray: CGFloat, alpha: CGFloat) { setStrokeColor(CGColor(gray: gray, alpha: alpha)) }
    /// Sets the stroke colour from sRGB components (CGContextSetRGBStrokeColor).
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        setStrokeColor(CGColor(red: red, green: green, blue: blue, alpha: alpha))
    }

    // MARK: Stroke parameters

    /// Sets the line width in user space (CGContextSetLineWidth). Apple ignores a negative
    /// width; so does this, and NaN/infinite widths too. 0 draws the thinnest visible line
    /// (one device pixel wide), as Apple's.
    public func setLineWidth(_ width: CGFloat) {
        guard width >= 0, width.isFinite else { return }
        gstate.lineWidth = width
    }
    /// Sets the line cap (CGContextSetLineCap).
    public func setLineCap(_ cap: CGLineCap) { gstate.lineCap = cap }
    /// Sets the line join (CGContextSetLineJoin).
    public func setLineJoin(_ join: CGLineJoin) { gstate.lineJoin = join }
    /// Sets the miter limit (CGContextSetMiterLimit); NaN is ignored.
    public func setMiterLimit(_ limit: CGFloat) {
        guard !limit.isNaN else { return }
        gstate.miterLimit = limit
    }
    /// Sets the dash pattern (CGContextSetLineDash): `lengths` alternate painted and unpainted
    /// lengths in user space, starting `phase` into the pattern. An empty array turns dashing
    /// off. A pattern with a negative or non-finite length, or summing to 0, strokes solid (as
    /// `CGPath.copy(dashingWithPhase:lengths:)` documents), with a warning.
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
        if !lengths.isEmpty, !lengths.allSatisfy({ $0 >= 0 && $0.isFinite }) || lengths.reduce(0, +) <= 0 {
            CGDiagnostics.warnOnce("CGContext.setLineDash(phase:lengths:): lengths must be finite, not negative and not all zero; stroking solid")
        }
        gstate.dashPhase = phase.isFinite ? phase : 0
        gstate.dashLengths = lengths
    }
    /// Sets the flatness (CGContextSetFlatness): the largest distance, in device pixels, between
    /// a curve and the polyline that draws it. Clamped to 0.01…100 (NaN ignored); the default
    /// is 0.5. Curves are never flattened coarser than 0.01 px here (so that filled curves keep
    /// their exact area to well under a pixel), so only values below that change anything.
    public func setFlatness(_ flatness: CGFloat) {
        guard !flatness.isNaN else { return }
        gstate.flatness = Swift.min(Swift.max(flatness, 0.01), 100)
    }

    // MARK: Compositing

    /// Sets the constant alpha applied to everything drawn (CGContextSetAlpha), clamped to 0…1
    /// as Apple does; NaN is ignored.
    public func setAlpha(_ alpha: CGFloat) {
        guard !alpha.isNaN else { return }
        gstate.alpha = Float(Swift.min(Swift.max(alpha, 0), 1))
    }
    /// Sets how drawing combines with what is there (CGContextSetBlendMode).
    public func setBlendMode(_ mode: CGBlendMode) { gstate.blendMode = mode }
    /// Turns antialiasing on or off for drawing (CGContextSetShouldAntialias). Off, a pixel is
    /// painted fully when at least half of it is covered.
    public func setShouldAntialias(_ shouldAntialias: Bool) { gstate.shouldAntialias = shouldAntialias }
    /// Allows or forbids antialiasing (CGContextSetAllowsAntialiasing); drawing antialiases
    /// when both this and `setShouldAntialias` say so. Not part of the graphics state on
    /// Apple; kept in it here (a difference only visible across restoreGState).
    public func setAllowsAntialiasing(_ allowsAntialiasing: Bool) { gstate.allowsAntialiasing = allowsAntialiasing }
    /// How images are resampled when drawn (CGContextGetInterpolationQuality /
    /// SetInterpolationQuality).
    public var interpolationQuality: CGInterpolationQuality {
        get { gstate.interpolationQuality }
        set { gstate.interpolationQuality = newValue }
    }
    /// Sets the rendering intent (CGContextSetRenderingIntent): accepted; drawing composites
    /// in sRGB and does not use it (a warning says so once for an intent other than the default).
    public func setRenderingIntent(_ intent: CGColorRenderingIntent) {
        if intent != .defaultIntent {
            CGDiagnostics.warnOnce("CGContext.setRenderingIntent: rendering intents are not applied (drawing composites in sRGB)")
        }
    }
}
