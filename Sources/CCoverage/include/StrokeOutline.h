// The stroke outline in C (issue 19's drawing speed): the pieces whose non-zero fill is the
// stroke of a flattened path (bands, join wedges, caps, dots), built straight into raster-space
// polygons for `strokePath()` or into stroker-space pieces for the outline `CGPath`
// (`copy(strokingWithWidth:…)`, `replacePathWithStrokedPath()`). One geometry serves both, so
// a stroke paints exactly the bytes its outline path fills. In Swift the same work cost a third
// of the instructions of the 1,000-star frame (per-vertex array bookkeeping, uniqueness checks,
// copies of the band's sides); the arithmetic here is kept in Swift's operation order, without
// fused multiply-adds. How the pieces are shaped: `CGPath+Stroking.swift`.
#ifndef CCOVERAGE_STROKE_OUTLINE_H
#define CCOVERAGE_STROKE_OUTLINE_H

#include <stdint.h>
#include "PathPolygons.h"

/// Where the pieces go.
enum {
    /// Raster-space polygons (y down from the top of a bitmap `height` tall) after mapping each
    /// point through the transform, under the fill flattening's rules (`ca_path_fill_polygons`):
    /// a repeat of the last device point dropped, and a closing repeat of the first; a vertex
    /// written only when finite; a polygon kept with three device points and three written.
    CA_STROKE_RASTER = 0,
    /// Stroker-space pieces, as they are made: `kinds[k]` says whether piece k is a polygon (its
    /// points in order, reversal applied) or a circle (a start point and four cubics' control and
    /// end points: 13 points, `PathShapes.ellipse`'s elements without the close).
    CA_STROKE_PIECES = 1,
};
enum { CA_PIECE_POLYGON = 0, CA_PIECE_CIRCLE = 1 };

typedef struct { double x, y; } ca_stroke_point;
/// A segment of the flattened path: its ends, unit direction, length (`|b − a|`) and whether
/// its start is a corner of the path.
typedef struct { ca_stroke_point a, b, d; double length; int startIsCorner; } ca_stroke_segment;

/// A stroker with its settings, its output and its working arrays. Zero it, set the settings
/// with `ca_stroker_begin`, feed it a path (`ca_stroker_add_path`), read `xy`/`ends`/`kinds`, and free it with
/// `ca_stroker_free`; its arrays are kept (grown, never shrunk) from stroke to stroke.
typedef struct {
    // Settings.
    double hw, miterLimit, arcTolerance;
    /// The angle a chord of a join's or cap's arc spans at most (from hw and arcTolerance,
    /// worked out once a stroke).
    double arcStep;
    int cap, join, mode;
    double ta, tb, tc, td, ttx, tty;
    int identity;
    double height, tolerance;
    long maxPoints;
    // Output: points (x, y pairs), polygon ends (exclusive, into points), piece kinds.
    double *xy;
    long points, xyCapacity;
    long *ends;
    uint8_t *kinds;
    long polygons, endsCapacity;
    double lo[2], hi[2];
    /// Set when the outline passed `maxPoints` (or memory ran out): the output is incomplete.
    int overflowed;
    // The raster polygon being written.
    long polygonStart, kept;
    ca_stroke_point firstDevice, lastDevice;
    int lastWritten;
    // Working arrays.
    ca_stroke_segment *segs;
    uint8_t *smooth;
    long segCapacity;
    /// The subpath being flattened: its points, which of them are corners, whether it is open
    /// and has drawing elements.
    ca_stroke_point *flat;
    uint8_t *flatCorner;
    long flatCount, flatCapacity;
    int flatOpen, flatHasSegments;
    /// The polygon being built (a band's left side first) and a band's right side.
    ca_stroke_point *poly, *right;
    long polyCount, rightCount, polyCapacity, rightCapacity;
} ca_stroker;

/// Empties the output (keeping storage) and sets the stroke: half width `hw` (> 0), cap and join
/// as `CGLineCap`/`CGLineJoin` raw values, the miter limit, the round joins' and caps' arc
/// tolerance; for `CA_STROKE_RASTER` also the transform to device space (a, b, c, d, tx, ty,
/// `identity` when it is the identity), the bitmap's height, the circles' flattening tolerance
/// (device pixels, at least 10⁻⁹) and the vertex bound.
void ca_stroker_begin(ca_stroker *s, int mode, double hw, int cap, int join, double miterLimit, double arcTolerance,
                      double a, double b, double c, double d, double tx, double ty, int identity, double height, double tolerance, long maxPoints);

/// Strokes a path's elements: each subpath flattened at `tolerance` (at least 10⁻⁹) under
/// `CGPath.flattenedSubpaths(tolerance:)`'s rules — the segment walk of `ca_path_fill_polygons`,
/// Wang's count of chords a curve with its end point exact and a corner, its inner vertices
/// centred as the fill's are (PathWalk.h's `centredCurvePoint`), a vertex equal to the
/// last dropped (marking it a corner when it ends an element), a closed subpath's repeated start
/// dropped — then stroked as it ends: a lone move draws nothing, a subpath of zero length a dot.
void ca_stroker_add_path(ca_stroker *s, const ca_path_item *items, long count, double tolerance);

/// Frees the stroker's arrays (the struct itself is the caller's).
void ca_stroker_free(ca_stroker *s);

#endif
