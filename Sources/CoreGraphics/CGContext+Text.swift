/// How glyphs are painted (`CGTextDrawingMode`, CGContextSetTextDrawingMode).
public enum CGTextDrawingMode: Int32, Sendable {
    case fill = 0
    case stroke = 1
    case fillStroke = 2
    case invisible = 3
    case fillClip = 4
    case strokeClip = 5
    case fillStrokeClip = 6
    case clip = 7
}

/// The text state Core Text draws with (`CTLineDraw`, `CTFrameDraw`, `CTRunDraw` in CoreText).
extension CGContext {
    /// Text space → user space (CGContextGetTextMatrix/SetTextMatrix). Its translation is the
    /// text position. Not part of the graphics state, as on Apple.
    public var textMatrix: CGAffineTransform {
        get { textMatrixStorage }
        set {
            guard newValue.a.isFinite, newValue.b.isFinite, newValue.c.isFinite, newValue.d.isFinite,
                  newValue.tx.isFinite, newValue.ty.isFinite else {
                CGDiagnostics.warnOnce("CGContext.textMatrix: a non-finite matrix is ignored")
                return
            }
            textMatrixStorage = newValue
        }
    }

    /// Where the next line of text starts, in user space (CGContextGetTextPosition/SetTextPosition):
    /// the text matrix's translation.
    public var textPosition: CGPoint {
        get { CGPoint(x: textMatrixStorage.tx, y: textMatrixStorage.ty) }
        set {
            guard newValue.x.isFinite, newValue.y.isFinite else {
                CGDiagnostics.warnOnce("CGContext.textPosition: a non-finite position is ignored")
                return
            }
            textMatrixStorage.tx = newValue.x; textMatrixStorage.ty = newValue.y
        }
    }

    /// Sets how glyphs are painted (CGContextSetTextDrawingMode). Fill, stroke, fill-and-stroke
    /// and invisible are drawn; the clip modes paint as their non-clip counterparts and do not
    /// clip (warns once).
    public func setTextDrawingMode(_ mode: CGTextDrawingMode) {
        if mode.rawValue >= 4 { CGDiagnostics.warnOnce("CGContext.setTextDrawingMode(\(mode)): text clipping modes do not clip") }
        textDrawingModeStorage = mode
    }

    /// The current text drawing mode (extension beyond Apple's API, which has no getter).
    package var textDrawingMode: CGTextDrawingMode { textDrawingModeStorage }
}
