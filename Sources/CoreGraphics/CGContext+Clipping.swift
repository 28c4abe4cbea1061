// Clipping (Apple's "Working with the Clipping Region" group of CGContext). The clip is kept as
// per-pixel coverage (0…1) over a pixel box, so an antialiased clip path gives antialiased edges
// as on Apple, and each new clip multiplies into the one before (the clip only ever shrinks until
// `restoreGState`).

/// The clip's coverage over `box` (outside it, 0). Its coverage never changes once made: states
/// share it.
package final class ClipMask {
    package let box: PixelBox
    /// The clip path as raster polygons while its coverage has not been asked for: a clip path
    /// set with nothing clipped before (the common case: a shape to fill with a gradient or an
    /// image) keeps its polygons, and the gradient painters paint through its coverage runs as
    /// the solid walk paints a fill (`CGContext.paintLinearGradientSpans`), so no mask is made.
    /// Anything that reads `values` resolves them once, exactly as a clip made at once would
    /// have been (the same polygons over the same box).
    package private(set) var path: ClipPath?
    private var resolvedValues: [Float]
    private var resolvedRuns: [Int32]?

    /// The coverage, row by row over `box`.
    package var values: [Float] {
        if path != nil { resolve() }
        return resolvedValues
    }

    /// Per row of `box`, columns `fullRuns[2j] ..< fullRuns[2j + 1]` (relative to `box.x0`)
    /// where the clip is exactly 1, or nil when unknown. Painters under a clip paint that part
    /// of a row as if nothing were clipped (the same bytes: coverage 1 is no clip), and read the
    /// coverage only at the clip's edges (issue 19: a rounded-rect clip is 1 over nearly all of
    /// its box).
    package var fullRuns: [Int32]? {
        if path != nil { resolve() }
        return resolvedRuns
    }

    package init(box: PixelBox, values: [Float], fullRuns: [Int32]? = nil) {
        self.box = box
        resolvedValues = values
        resolvedRuns = fullRuns.flatMap { $0.count == 2 * max(0, box.y1 - box.y0) ? $0 : nil }
    }

    /// A clip path's polygons over `box` (within the bitmap), resolved when first read.
    init(box: PixelBox, path: ClipPath) {
        self.box = box
        self.path = path
        resolvedValues = []
    }

    /// The path's coverage over `box`, with its rows' full runs: `CGContext.coverage`'s
    /// rasterising and resolve, on a rasteriser of its own.
    private func resolve() {
        guard let p = path else { return }
        path = nil
        var rast = CoverageRasterizer(width: 0, height: 0)
        rast.holdsVerticalRunsAfterReset = true
        rast.reset(width: box.x1 - box.x0, height: box.y1 - box.y0)
        rast.addPolygons(p.points, ends: p.ends[...], origin: SIMD2(Double(box.x0), Double(box.y0)), bounds: (p.lo, p.hi))
        let mask = CGContext.resolve(&rast, box: box, evenOdd: p.evenOdd, aliased: false)
        resolvedValues = mask.values
        resolvedRuns = mask.fullRuns
    }

    /// Row `y`'s columns of full coverage as absolute x (`lo == hi`: none known).
    @inline(__always) package func fullColumns(row y: Int) -> (lo: Int, hi: Int) {
        guard let fullRuns, y >= box.y0, y < box.y1 else { return (0, 0) }
        let j = 2 * (y - box.y0)
        return (box.x0 + Int(fullRuns[j]), box.x0 + Int(fullRuns[j + 1]))
    }

    @inline(__always) package func value(_ x: Int, _ y: Int) -> Float {
        guard x >= box.x0, y >= box.y0, x < box.x1, y < box.y1 else { return 0 }
        if path != nil { resolve() }
        return resolvedValues[(y - box.y0) * (box.x1 - box.x0) + (x - box.x0)]
    }

    /// A clip through which nothing is drawn.
    static var empty: ClipMask { ClipMask(box: PixelBox(x0: 0, y0: 0, x1: 0, y1: 0), values: []) }
}

/// A clip path as `ClipMask` keeps it until its coverage is needed: raster-space polygons
/// (polygon k is `points[ends[k − 1]..<ends[k]]`), their bounds, and the fill rule.
package struct ClipPath {
    package let points: [SIMD2<Double>]
    package let ends: [Int]
    package let lo: SIMD2<Double>, hi: SIMD2<Double>
    package let evenOdd: Bool
}

extension CGContext {
    /// Intersects the clip with the area the current path encloses under `rule`
    /// (CGContextClip / EOClip), then clears the path, as Apple does.
    public func clip(using rule: CGPathFillRule = .winding) {
        takeCurrentPath { intersectClip(devicePath: $0, evenOdd: rule == .evenOdd) }
    }

    /// Intersects the clip with `rect` (CGContextClipToRect). The current path is unchanged.
    public func clip(to rect: CGRect) { clip(to: [rect]) }

    /// Intersects the clip with the union of `rects` (CGContextClipToRects).
    public func clip(to rects: [CGRect]) {
        let p = CGMutablePath()
        p.addRects(rects, transform: gstate.ctm)
        intersectClip(devicePath: p, evenOdd: false)
    }

    /// Intersects the clip with `mask` stretched over `rect` (CGContextClipToMask). Apple takes
    /// a gray image (its samples are the clip's alpha) or an image mask; here an image with an
    /// alpha channel clips by its alpha, an opaque one by its luminance (Rec. 601; for gray images
    /// that is the gray value). Sampled as `draw(_:in:)` samples.
    public func clip(to rect: CGRect, mask: CGImage) {
        let p = CGMutablePath()
        p.addRect(rect, transform: gstate.ctm)
        guard var cov = coverage(ofDevicePath: p, evenOdd: false),
              let shader = imageShader(mask, in: rect, tiled: false) else { intersectClip(nil); return }
        let useAlpha = !mask.isOpaque
        // The image scales the coverage: where the path was full is no longer known to be.
        cov.fullRuns = nil
        for j in 0..<cov.height {
            for i in 0..<cov.width {
                let k = j * cov.width + i
                guard cov.values[k] > 0 else { continue }
                let c = shader(cov.x0 + i, cov.y0 + j)
                let v = useAlpha ? c.w : (0.299 * c.x + 0.587 * c.y + 0.114 * c.z)
                cov.values[k] *= v
            }
        }
        intersectClip(cov)
    }

    /// Removes the clip (CGContextResetClip): nothing clipped, as for a new context.
    public func resetClip() { gstate.clip = nil }

    /// The bounding box of the clip in user space (CGContextGetClipBoundingBox): the bitmap's
    /// bounds when nothing is clipped, `.zero`-sized when everything is.
    public var boundingBoxOfClipPath: CGRect {
        let b = gstate.clip?.box.intersection(PixelBox(x0: 0, y0: 0, x1: width, y1: height))
            ?? PixelBox(x0: 0, y0: 0, x1: width, y1: height)
        guard !b.isEmpty else { return .zero }
        // Raster rows → device y (up).
        let device = CGRect(x: CGFloat(b.x0), y: CGFloat(height - b.y1), width: CGFloat(b.x1 - b.x0), height: CGFloat(b.y1 - b.y0))
        return device.applying(gstate.ctm.inverted())
    }

    /// Intersects the clip with a device-space path's area. With nothing clipped yet (and
    /// antialiasing on) the clip keeps the path's polygons and resolves its coverage only when
    /// something reads it (`ClipMask.path`); otherwise the coverage is multiplied in at once.
    private func intersectClip(devicePath path: CGPath, evenOdd: Bool) {
        guard gstate.clip == nil, gstate.shouldAntialias, gstate.allowsAntialiasing else {
            intersectClip(coverage(ofDevicePath: path, evenOdd: evenOdd))
            return
        }
        // The box `coverage(ofDevicePath:)` would rasterise (`rasterize(polygons:…)`'s), and
        // nothing where it would have found nothing.
        guard let polygons = rasterPolygons(ofDevicePath: path), !polygons.ends.isEmpty else { gstate.clip = .empty; return }
        // A huge path's polygons are not kept for the clip's lifetime: it is resolved at once.
        guard polygons.points.count <= Self.maxKeptClipPoints else {
            intersectClip(coverage(ofDevicePath: path, evenOdd: evenOdd))
            return
        }
        let box = PixelBox(covering: polygons.lo, polygons.hi).intersection(drawableBox)
        let (count, overflow) = (box.x1 - box.x0).multipliedReportingOverflow(by: box.y1 - box.y0)
        guard !box.isEmpty, !overflow, count <= Self.maxByteCount / 4 else { gstate.clip = .empty; return }
        gstate.clip = ClipMask(box: box, path: ClipPath(points: polygons.points, ends: polygons.ends, lo: polygons.lo,
                                                        hi: polygons.hi, evenOdd: evenOdd))
    }

    /// A clip path of more vertices than this (16 MB of them) is resolved when it is set, not
    /// kept as polygons.
    static let maxKeptClipPoints = 1 << 20

    /// Multiplies `mask` into the clip (nil: clip to nothing).
    package func intersectClip(_ mask: CoverageMask?) {
        guard let mask else { gstate.clip = .empty; return }
        let box = PixelBox(x0: mask.x0, y0: mask.y0, x1: mask.x0 + mask.width, y1: mask.y0 + mask.height)
        var values = mask.values
        var runs = mask.fullRuns
        if let old = gstate.clip {
            for j in 0..<mask.height {
                for i in 0..<mask.width {
                    values[j * mask.width + i] *= old.value(mask.x0 + i, mask.y0 + j)
                }
            }
            // 1 × 1 is 1: the new full columns are where both were full.
            if runs != nil, old.fullRuns != nil {
                for j in 0..<mask.height {
                    let o = old.fullColumns(row: mask.y0 + j)
                    let lo = max(Int(runs![2 * j]), o.lo - mask.x0), hi = min(Int(runs![2 * j + 1]), o.hi - mask.x0)
                    runs![2 * j] = Int32(truncatingIfNeeded: lo)
                    runs![2 * j + 1] = Int32(truncatingIfNeeded: max(lo, hi))
                }
            } else {
                runs = nil
            }
        }
        gstate.clip = ClipMask(box: box, values: values, fullRuns: runs)
    }
}
