// See include/PathPolygons.h. `smax` is Swift's `max` (`y >= x ? y : x`).
#pragma clang fp contract(off)

#include "PathWalk.h"

long ca_path_segment_count(const ca_path_item *items, long count, double tolerance, long limit) {
    const double tol = tolerance > 1e-9 ? tolerance : 1e-9;
    segmentWalk w = { 0, 0, 0, 0, 0 };
    long n = 0;
    for (long k = 0; k < count && n <= limit; k++) {
        double ax, ay;
        switch (step(&w, items + k, &ax, &ay)) {
        case CA_PATH_LINE: case CA_PATH_CLOSE: n += 1; break;
        case CA_PATH_QUAD: n += quadCount(ax, ay, items[k].p, tol); break;
        case CA_PATH_CUBIC: n += cubicCount(ax, ay, items[k].p, tol); break;
        default: break;
        }
    }
    return n;
}

/// The polygon being built: where its raster vertices start in `xy`, how many device vertices
/// it has, its first and last device vertex, whether the last one was written (finite in
/// raster space), and whether it is open (a close ends it).
typedef struct {
    double *xy;
    long *ends;
    long used, polygons, start, count;
    double fx, fy, lx, ly;
    int lastWritten, open;
    double h;
    double lo[2], hi[2];
} builder;


static inline __attribute__((always_inline)) void finishPolygon(builder *b) {
    if (b->count == 0) return;
    if (b->count >= 3) {
        widenBounds(b->xy, b->start, b->used, b->lo, b->hi);
        if (b->used - b->start >= 3) { b->ends[b->polygons++] = b->used; return; }
    }
    b->used = b->start;
}

static inline __attribute__((always_inline)) void vertex(builder *b, double x, double y) {
    if (b->count == 0) { b->fx = x; b->fy = y; }
    b->count += 1;
    b->lx = x; b->ly = y;
    const double ry = b->h - y;
    b->lastWritten = __builtin_isfinite(x) && __builtin_isfinite(ry);
    if (b->lastWritten) { b->xy[2 * b->used] = x; b->xy[2 * b->used + 1] = ry; b->used += 1; }
}

static inline __attribute__((always_inline)) void begin(builder *b, double x, double y) {
    finishPolygon(b);
    b->start = b->used; b->count = 0;
    vertex(b, x, y);
    b->open = 1;
}

/// A vertex unless it equals the last one (`CGPoint`'s ==: −0 equals 0, NaN equals nothing).
static inline __attribute__((always_inline)) void add(builder *b, double x, double y) {
    if (!(b->lx == x && b->ly == y)) vertex(b, x, y);
}

/// A curve's inner points t = i/n (i = 1 … n − 1), each through `add` (the polygon is open and
/// holds a vertex, so `vertex` never starts one here), with the builder's state in locals: it
/// went through memory once a point (a tenth of the flattening's instructions).
static inline __attribute__((always_inline)) void curvePoints(builder *b, int cubic, double ax, double ay, const double *p, long n) {
    double lx = b->lx, ly = b->ly;
    long used = b->used, count = b->count;
    int lastWritten = b->lastWritten;
    double *const xy = b->xy;
    const double h = b->h;
    const centredCurve curve = centredCurveOf(cubic, ax, ay, p, n);
    for (long i = 1; i < n; i++) {
        double x, y;
        centredCurvePoint(&curve, i, &x, &y);
        if (lx == x && ly == y) continue;
        count += 1;
        lx = x; ly = y;
        const double ry = h - y;
        lastWritten = __builtin_isfinite(x) && __builtin_isfinite(ry);
        if (lastWritten) { xy[2 * used] = x; xy[2 * used + 1] = ry; used += 1; }
    }
    b->lx = lx; b->ly = ly;
    b->used = used; b->count = count;
    b->lastWritten = lastWritten;
}

void ca_path_fill_polygons(const ca_path_item *items, long count, double tolerance, double height, ca_fill_polygons *out) {
    const double tol = tolerance > 1e-9 ? tolerance : 1e-9;
    builder bl = { out->xy, out->ends, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, height,
                   { INFINITY, INFINITY }, { -INFINITY, -INFINITY } }, *b = &bl;
    segmentWalk w = { 0, 0, 0, 0, 0 };
    for (long k = 0; k < count; k++) {
        const ca_path_item *e = items + k;
        const double *p = e->p;
        double ax, ay;
        switch (step(&w, e, &ax, &ay)) {
        case CA_PATH_MOVE: {
            const int end = endIndex(e->kind);
            begin(b, p[end], p[end + 1]);
            break;
        }
        case CA_PATH_LINE:
            if (!b->open) begin(b, ax, ay);
            add(b, p[0], p[1]);
            break;
        case CA_PATH_QUAD: case CA_PATH_CUBIC: {
            if (!b->open) begin(b, ax, ay);
            const int end = endIndex(e->kind);
            if (e->kind == CA_PATH_CUBIC) curvePoints(b, 1, ax, ay, p, cubicCount(ax, ay, p, tol));
            else curvePoints(b, 0, ax, ay, p, quadCount(ax, ay, p, tol));
            add(b, p[end], p[end + 1]);
            break;
        }
        case CA_PATH_CLOSE:
            if (!b->open) begin(b, ax, ay);
            // The closing segment is implicit; a repeated start point is dropped (it widened
            // nothing: its raster point is the first one's).
            if (b->count > 1 && b->lx == b->fx && b->ly == b->fy) {
                b->count -= 1;
                if (b->lastWritten) b->used -= 1;
            }
            b->open = 0;
            break;
        default:
            break;
        }
    }
    finishPolygon(b);
    out->points = b->used;
    out->polygons = b->polygons;
    out->lo[0] = b->lo[0]; out->lo[1] = b->lo[1];
    out->hi[0] = b->hi[0]; out->hi[1] = b->hi[1];
}
