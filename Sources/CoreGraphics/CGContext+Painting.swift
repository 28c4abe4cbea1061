// Painting the current path and shapes (Apple's "Drawing Paths" and "Painting" groups of
// CGContext). Every call that paints the current path clears it afterwards, as Apple does.
// Geometry with NaN or infinite coordinates is dropped when it is added (CGMutablePath's rule),
// so it draws nothing; finite but huge coordinates are clamped to ±10⁷ device pixels by the
// rasteriser.

extension CGContext {
    /// Fills the current path with the fill colour (CGContextFillPath / EOFillPath), then
    /// clears it.
    public func fillPath(using rule: CGPathFillRule = .winding) {
        takeCurrentPath { fillDevicePath($0, evenOdd: rule == .evenOdd) }
    }

    /// Strokes the current path with the stroke colour and the line state (CGContextStrokePath),
    /// then clears it.
    public func strokePath() {
        takeCurrentPath { strokeDevicePath($0) }
    }

    /// Paints the current path in `mode` (CGContextDrawPath): fill, even-odd fill, stroke, or a
    /// fill then a stroke; then clears it.
    public func drawPath(using mode: CGPathDrawingMode) {
        takeCurrentPath { p in
            switch mode {
            case .fill: fillDevicePath(p, evenOdd: false)
            case .eoFill: fillDevicePath(p, evenOdd: true)
            case .stroke: strokeDevicePath(p)
            case .fillStroke: fillDevicePath(p, evenOdd: false); strokeDevicePath(p)
            case .eoFillStroke: fillDevicePath(p, evenOdd: true); strokeDevicePath(p)
            }
        }
    }

    /// Fills `rect` with the fill colour (CGContextFillRect). The current path is unchanged.
    public func fill(_ rect: CGRect) { fill([rect]) }

    /// Fills each rect with the fill colour (CGContextFillRects), as one area (non-zero rule).
    /// The current path is unchanged.
    public func fill(_ rects: [CGRect]) {
        let p = CGMutablePath()
        p.addRects(rects, transform: gstate.ctm)
        fillDevicePath(p, evenOdd: false)
    }

    /// Strokes the outline of `rect` with the current line state (CGContextStrokeRect). The
    /// current path is unchanged.
    public func stroke(_ rect: CGRect) {
        let p = CGMutablePath()
        p.addRect(rect, transform: gstate.ctm)
        strokeDevicePath(p)
    }

    /// Strokes `rect` with line width `width` (CGContextStrokeRectWithWidth); the state's line
    /// width is left as it was.
    public func stroke(_ rect: CGRect, width: CGFloat) {
        let saved = gstate.lineWidth
        setLineWidth(width)
        stroke(rect)
        gstate.lineWidth = saved
    }

    /// Fills the ellipse inscribed in `rect` (CGContextFillEllipseInRect). The current path is
    /// unchanged.
    public func fillEllipse(in rect: CGRect) {
        let p = CGMutablePath()
        p.addEllipse(in: rect, transform: gstate.ctm)
        fillDevicePath(p, evenOdd: false)
    }

    /// Strokes the ellipse inscribed in `rect` (CGContextStrokeEllipseInRect).
    public func strokeEllipse(in rect: CGRect) {
        let p = CGMutablePath()
        p.addEllipse(in: rect, transform: gstate.ctm)
        strokeDevicePath(p)
    }

    /// Strokes a line between each pair of points, (0, 1), (2, 3)… (CGContextStrokeLineSegments);
    /// an odd last point is ignored. The current path is unchanged.
    public func strokeLineSegments(between points: [CGPoint]) {
        let p = CGMutablePath()
        var i = 0
        while i + 1 < points.count {
            p.move(to: points[i], transform: gstate.ctm)
            p.addLine(to: points[i + 1], transform: gstate.ctm)
            i += 2
        }
        strokeDevicePath(p)
    }

    /// Makes `rect` transparent (CGContextClearRect): every pixel it covers becomes (0, 0, 0, 0)
    /// in proportion to its coverage, whatever the alpha and blend mode, within the clip; no
    /// shadow. In a context without alpha, cleared pixels become black.
    public func clear(_ rect: CGRect) {
        if clearPixelAligned(rect) { return }
        let p = CGMutablePath()
        p.addRect(rect, transform: gstate.ctm)
        guard let mask = coverage(ofDevicePath: p, evenOdd: false) else { return }
        composite(mask, .solid(.zero), mode: .copy, alpha: 1)
    }

    /// Fills a device-space path with the fill colour.
    package func fillDevicePath(_ path: CGPath, evenOdd: Bool) {
        guard !path.isEmpty, !fillSolidSpans(path, evenOdd: evenOdd, color: gstate.fillColor) else { return }
        paint(.solid(gstate.fillColor)) { coverage(ofDevicePath: path, evenOdd: evenOdd, in: $0) }
    }

    /// Strokes a device-space path with the stroke colour. The outline goes straight into
    /// raster polygons (`strokePolygons(of:)`), filled with the non-zero rule like the outline
    /// path `strokeOutline(of:)` gives, to the same bytes.
    package func strokeDevicePath(_ path: CGPath) {
        guard !path.isEmpty, let outline = strokePolygons(of: path),
              !fillSolidSpans(evenOdd: false, color: gstate.strokeColor, rasterize: { rast in
                  rasterize(polygons: outline.points, ends: outline.ends[...], lo: outline.lo, hi: outline.hi, into: &rast)
              }) else { return }
        paint(.solid(gstate.strokeColor)) { coverage(ofPolygons: outline, evenOdd: false, in: $0) }
    }
}
