/// The stored values of a `CATextLayer` with Apple's defaults (docs/BEHAVIOUR.md A3,
/// `CATextLayer/text.m`): no string, 36-point Helvetica, opaque white, unwrapped.
package struct TextLayerState {
    var string: Any? = nil
    var font: AnyObject? = nil
    var fontSize: CGFloat = 36
    var foregroundColor: CGColor? = opaqueWhiteRGBA
    var isWrapped = false
    var alignmentMode = CATextLayerAlignmentMode.natural
    var truncationMode = CATextLayerTruncationMode.none
    var allowsFontSubpixelQuantization = false
}

/// A layer that lays out and draws a plain or attributed string (Apple's `CATextLayer`).
/// Its default `display()` draws the text with Core Text into the layer's backing store
/// (`draw(in:)`, `CATextLayer+Drawing.swift`), at `contentsScale`, again whenever a property it
/// shows changes and on every frame of a `fontSize` or `foregroundColor` animation (docs/TEXT.md).
open class CATextLayer: CALayer {
    package var text = TextLayerState()
    /// The layer's last layouts (`CATextLayer+LayoutCache.swift`), shared with its copies.
    package private(set) var layoutCache = TextLayoutCache()

    public override init() { super.init() }

    /// Copies the text state too (presentation copies are of the model's class, L4), and shares
    /// the layout cache: a copy showing the same text is not laid out again.
    public required init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CATextLayer { text = other.text; layoutCache = other.layoutCache }
    }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// A `String` or `NSAttributedString`, typed `Any?` as in Apple's Swift API.
    public var string: Any? { get { text.string } set { updateLayerObject(self, "string", \.text.string, newValue) } }
    /// Apple types this `CFTypeRef?` (a CTFont, CGFont or font name); on Linux `AnyObject?`.
    /// nil means Helvetica.
    public var font: AnyObject? { get { text.font } set { updateLayerObject(self, "font", \.text.font, newValue) } }
    public var fontSize: CGFloat {
        get { text.fontSize }
        set { guard newValue.isFinite else { return rejectNonFinite("fontSize", newValue) }; updateLayerValue(self, "fontSize", \.text.fontSize, newValue) }
    }
    public var foregroundColor: CGColor? { get { text.foregroundColor } set { updateLayerValue(self, "foregroundColor", \.text.foregroundColor, newValue) } }
    public var isWrapped: Bool { get { text.isWrapped } set { updateLayerValue(self, "wrapped", \.text.isWrapped, newValue) } }
    public var alignmentMode: CATextLayerAlignmentMode { get { text.alignmentMode } set { updateLayerValue(self, "alignmentMode", \.text.alignmentMode, newValue) } }
    public var truncationMode: CATextLayerTruncationMode { get { text.truncationMode } set { updateLayerValue(self, "truncationMode", \.text.truncationMode, newValue) } }
    public var allowsFontSubpixelQuantization: Bool {
        get { text.allowsFontSubpixelQuantization }
        set { updateLayerValue(self, "allowsFontSubpixelQuantization", \.text.allowsFontSubpixelQuantization, newValue) }
    }

    /// The text layer redraws when what it shows changes, and on every frame of an animation of
    /// `fontSize` or `foregroundColor` (Apple: "Animatable"; each frame is drawn at the
    /// interpolated value, not scaled).
    open override class func needsDisplay(forKey key: String) -> Bool {
        CATextLayer.displayKeys.contains(key) || super.needsDisplay(forKey: key)
    }

    static let displayKeys: Set<String> = [
        "string", "font", "fontSize", "foregroundColor", "wrapped", "isWrapped", "alignmentMode", "truncationMode",
        "bounds", "contentsScale",
    ]

    /// Draws the text (Core Text: `CTFramesetter` in the layer's bounds, first line at the top).
    open override func draw(in ctx: CGContext) { drawText(in: ctx) }

    /// fontSize and foregroundColor are animatable (CATextLayer.h).
    package override class func makePropertyTable() -> PropertyTable {
        var t = super.makePropertyTable()
        t.add("fontSize", \CATextLayer.fontSize)
        t.add("foregroundColor", \CATextLayer.foregroundColor)
        t.add("wrapped", \CATextLayer.isWrapped, .none, aliases: ["isWrapped"])
        t.add("allowsFontSubpixelQuantization", \CATextLayer.allowsFontSubpixelQuantization, .none)
        t.addConstant("alignmentMode", \CATextLayer.alignmentMode)
        t.addConstant("truncationMode", \CATextLayer.truncationMode)
        t.addObject("string", get: { (l: CATextLayer) in l.string }, set: { l, v in l.string = v })
        t.addObject("font", get: { (l: CATextLayer) in l.font }, set: { l, v in l.font = v.map { $0 as AnyObject } })
        return t
    }
}
