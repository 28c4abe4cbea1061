// A filled path's raster-space polygons in C (issue 19's drawing speed): `CGContext`'s fills
// flatten their path here, straight from its elements to the vertices `ca_edge_add_polygons`
// reads. In Swift the same work (a segment walk, the flattening, a device-space copy mapped to
// raster space) cost ~170 instructions a vertex of array and closure bookkeeping, 8 % of the
// 10,000-rounded-rect frame; the arithmetic here is the Swift code's (`forEachSegment`,
// `flatteningSegmentCount`, `quadPoint`, `cubicPoint`), operation for operation, without fused
// multiply-adds, but for one step the Swift route does not take: a curve's inner chord vertices
// are centred on it (PathWalk.h's `centredCurvePoint`), so that its chords no longer all cut
// inside the bend and twice the tolerance, 0.71× the chords, keeps the same accuracy
// (`CGContext.finestFlatness`).
#ifndef CCOVERAGE_PATH_POLYGONS_H
#define CCOVERAGE_PATH_POLYGONS_H

#include <stdint.h>

/// Path element kinds, numbered as `CGPathElementType`.
enum { CA_PATH_MOVE = 0, CA_PATH_LINE = 1, CA_PATH_QUAD = 2, CA_PATH_CUBIC = 3, CA_PATH_CLOSE = 4 };

/// One path element: its kind and its points (x, y pairs): the end point of a move or line;
/// the control and end point of a quad; both controls and the end point of a cubic; none for a
/// close.
typedef struct {
    int64_t kind;
    double p[6];
} ca_path_item;

/// How many line segments the path flattens into at `tolerance` (`CGPath.flattenedSegmentCount`:
/// a line or close one, a curve Wang's number of chords, a move none), given up once past
/// `limit` (then some number above it).
long ca_path_segment_count(const ca_path_item *items, long count, double tolerance, long limit);

/// Where `ca_path_fill_polygons` writes: `xy` pairs (room for `ca_path_segment_count` +
/// `count` + 1 of them) and polygon ends (room for `count` + 1); `points` and `polygons` are
/// how many it wrote, `lo`/`hi` their bounds (x, y).
typedef struct {
    double *xy;
    long *ends;
    long points, polygons;
    double lo[2], hi[2];
} ca_fill_polygons;

/// The path's subpaths flattened at `tolerance` (at least 10⁻⁹) as raster-space polygons of a
/// bitmap `height` rows tall, polygon k the pairs ends[k − 1] … ends[k] − 1 of `xy` (the first
/// from 0). The rules are the Swift route's: non-finite elements skipped and a line or curve
/// with no current point taken as a move; curves cut into Wang's number of chords, the end
/// point exact and the inner vertices centred (`centredCurvePoint`); a vertex equal to the one
/// before it (device space) dropped, and a closed subpath's repeated start; subpaths of fewer than three vertices dropped before they count
/// towards the bounds; each vertex mapped to (x, height − y), a non-finite one skipped, and a
/// polygon left with fewer than three dropped after its vertices widened the bounds.
void ca_path_fill_polygons(const ca_path_item *items, long count, double tolerance, double height, ca_fill_polygons *out);

#endif
