import CoreGraphics

/// A run of a bitmap colour font (colour emoji) drawn into a `CGContext`: each glyph's strike
/// bitmap, scaled to the pixel size the context shows the font at
/// (`FontFace.colorGlyph(_:pixelSize:)`), drawn as an image upright at the glyph's place through
/// the font matrix, the text matrix and the CTM. Colour glyphs keep their own colours, as on
/// Apple platforms: the run's colour is not applied, only its alpha (`alpha`).
func drawColorGlyphs(_ run: CTRun, _ range: Range<Int>, _ context: CGContext, origin: CGPoint, alpha: CGFloat) {
    let font = run.font, face = font.face
    guard face.isColorBitmap, alpha.isFinite, alpha > 0 else { return }
    let text = context.textMatrix
    // Device pixels per em: the font size through the font matrix, text matrix and CTM.
    let m = font.matrix.concatenating(text).concatenating(context.ctm)
    let det = abs(Double(m.a * m.d - m.b * m.c))
    guard det.isFinite, det > 0 else { return }
    let pixelSize = min(Double(font.size) * det.squareRoot(), FontFace.maxCoveragePixelSize)
    guard pixelSize.isFinite, pixelSize > 0 else { return }
    // Points per bitmap pixel, at the font's size (before the matrices).
    let k = Double(font.size) / pixelSize
    context.saveGState()
    defer { context.restoreGState() }
    if alpha < 1 { context.setAlpha(CGFloat(context.gstate.alpha) * alpha) }
    for i in range {
        guard let bm = face.colorGlyph(run.glyphs[i], pixelSize: pixelSize),
              let image = CGImage(width: bm.width, height: bm.height, rgba8Bytes: bm.rgba, premultiplied: true) else { continue }
        let p = run.positions[i]
        let place = font.matrix.concatenating(CGAffineTransform(translationX: origin.x + p.x, y: origin.y + p.y)).concatenating(text)
        context.saveGState()
        context.concatenate(place)
        let rect = CGRect(x: Double(bm.left) * k, y: Double(bm.top - bm.height) * k,
                          width: Double(bm.width) * k, height: Double(bm.height) * k)
        context.draw(image, in: rect)
        context.restoreGState()
    }
}
