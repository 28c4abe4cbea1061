// `copy(strokingWithWidth:lineCap:lineJoin:miterLimit:transform:)`: the area a stroke would
// paint, as a fillable path (CGPathCreateCopyByStrokingPath).

extension CGPath {
    /// Returns the outline of the stroke of this path — a path whose *non-zero* fill paints
    /// exactly what stroking this path with these settings paints (Apple: "a new path
    /// equivalent to the results of drawing the path with a solid stroke").
    ///
    /// How the outline is built (and where it differs from Apple's merged outline):
    /// - Curves are flattened first (to 1/1000 of the path's size, at most 0.05 units), so the
    ///   sides of stroked curves are polylines; round caps and round joins are exact circles
    ///   (four cubics each).
    /// - The result is a union of pieces wound the same way (positive signed area in y-up
    ///   terms). A run of segments whose joins can be drawn without the inner side folding back
    ///   (the offset lines meet within half of each segment) is one band polygon: left offsets
    ///   forward, right offsets back, the outer side of each join shaped as the join (miter tip,
    ///   bevel corners, or an arc for round); a closed subpath whose every join qualifies is two
    ///   rings, the band between them. Other joins are separate wedges (bevel triangle, miter
    ///   quadrilateral, or a circle for round), round caps circles; square caps lengthen the first
    ///   and last segment by `lineWidth / 2`. Filled with the non-zero rule (the default of
    ///   `contains` and of CAShapeLayer) the union covers exactly the stroke, and bands share
    ///   edges rather than overlap, so an area rasteriser covers their edge pixels exactly; the
    ///   even-odd rule is not meaningful on it where pieces overlap. A single straight segment
    ///   with butt or square caps comes out as one rectangle subpath (move, three lines, close).
    /// - Joins: a miter is used while miter length / `lineWidth` = 1 / sin(φ/2) (φ the angle
    ///   between the segments) is at most `miterLimit`, else a bevel — Apple's rule. Inside
    ///   flattened curves, gentle turns get miters and sharp ones (cusps) the requested join.
    /// - A subpath whose drawing elements all have zero length paints a dot with round caps
    ///   (a circle of diameter `lineWidth`) or square caps (an axis-aligned square), and
    ///   nothing with butt caps. A lone move paints nothing.
    /// - `transform` is applied to the outline, after stroking (Apple: "applies the
    ///   transformation to elements of the converted path before adding them to the new
    ///   path").
    /// - A `lineWidth` that is not positive and finite gives an empty path (Apple requires
    ///   a width greater than 0).
    public func copy(strokingWithWidth lineWidth: CGFloat, lineCap: CGLineCap, lineJoin: CGLineJoin,
                     miterLimit: CGFloat, transform: CGAffineTransform = .identity) -> CGPath {
        guard lineWidth > 0, lineWidth.isFinite else { return CGPath(elements: []) }
        let box = boundingBox
        guard !box.isNull else { return CGPath(elements: []) }
        let extent = max(box.width, box.height)
        let tolerance = min(0.05, max(extent * 1e-3, 1e-6))
        let elements = StrokeOutliner().outlineElements(of: self, tolerance: tolerance, halfWidth: lineWidth / 2,
                                                        cap: lineCap, join: lineJoin, miterLimit: miterLimit,
                                                        arcTolerance: max(lineWidth / 2 * 1e-3, 1e-9))
        let result = transform.isIdentity ? elements : elements.transformed(by: transform)
        return CGPath(elements: result)
    }
}
