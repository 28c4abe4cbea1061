// See include/PathPolygons.h. `smax` is Swift's `max` (`y >= x ? y : x`).
#include "PathPolygons.h"
#include <math.h>

#pragma clang fp contract(off)

static inline __attribute__((always_inline)) int finite2(const double *p) {
    return __builtin_isfinite(p[0]) && __builtin_isfinite(p[1]);
}

/// `PathElement.isFinite`: every point of the element finite.
static inline __attribute__((always_inline)) int itemIsFinite(const ca_path_item *e) {
    switch (e->kind) {
    case CA_PATH_MOVE: case CA_PATH_LINE: return finite2(e->p);
    case CA_PATH_QUAD: return finite2(e->p) && finite2(e->p + 2);
    case CA_PATH_CUBIC: return finite2(e->p) && finite2(e->p + 2) && finite2(e->p + 4);
    default: return 1;
    }
}

/// `flatteningSegmentCount(degree:secondDifference:tolerance:)`: Wang's ⌈√(d(d−1)/8 · M / tol)⌉
/// (`factor` = d(d−1)/8, exact for degrees 2 and 3), 1 when not finite or below 1, at most 512.
static inline __attribute__((always_inline)) long wang(double factor, double m, double tol) {
    const double n = ceil(sqrt(factor * m / tol));
    if (!__builtin_isfinite(n) || !(n >= 1)) return 1;
    return n >= 512 ? 512 : (long)n;
}

/// `CGPoint.vectorLength` of a − 2c + b (the second difference).
static inline __attribute__((always_inline)) double secondDifference(double ax, double ay, double cx, double cy, double bx, double by) {
    const double x = ax - cx * 2 + bx, y = ay - cy * 2 + by;
    return sqrt(x * x + y * y);
}

static inline __attribute__((always_inline)) double smax(double x, double y) { return y >= x ? y : x; }

static inline __attribute__((always_inline)) long quadCount(double ax, double ay, const double *p, double tol) {
    return wang(0.25, secondDifference(ax, ay, p[0], p[1], p[2], p[3]), tol);
}

/// Where an element's end point sits in its points: after the control point of a quad, after
/// both of a cubic, first otherwise.
static inline __attribute__((always_inline)) int endIndex(int64_t kind) {
    return kind == CA_PATH_CUBIC ? 4 : kind == CA_PATH_QUAD ? 2 : 0;
}

/// The point at t of the quad (a, p[0…1], p[2…3]) or the cubic (a, p[0…1], p[2…3], p[4…5]):
/// `quadPoint` (a·u² + c·2ut + b·t²) and `cubicPoint` (a·u³ + c1·3u²t + c2·3ut² + b·t³), each
/// summed in that order.
static inline __attribute__((always_inline)) void curvePoint(int cubic, double ax, double ay, const double *p, double t,
                                                             double *x, double *y) {
    const double u = 1 - t;
    if (cubic) {
        const double ka = u * u * u, k1 = 3 * u * u * t, k2 = 3 * u * t * t, kb = t * t * t;
        *x = ax * ka + p[0] * k1 + p[2] * k2 + p[4] * kb;
        *y = ay * ka + p[1] * k1 + p[3] * k2 + p[5] * kb;
    } else {
        const double ka = u * u, kc = 2 * u * t, kb = t * t;
        *x = ax * ka + p[0] * kc + p[2] * kb;
        *y = ay * ka + p[1] * kc + p[3] * kb;
    }
}

static inline __attribute__((always_inline)) long cubicCount(double ax, double ay, const double *p, double tol) {
    const double m = smax(secondDifference(ax, ay, p[0], p[1], p[2], p[3]), secondDifference(p[0], p[1], p[2], p[3], p[4], p[5]));
    return wang(0.75, m, tol);
}

/// `forEachSegment`'s walk: the segment each finite element makes given the current point
/// (none at the start): its kind (a line or curve with no current point is a move to its end
/// point; a close with none is nothing) and its start point.
typedef struct {
    int hasCurrent;
    double cx, cy, sx, sy;
} segmentWalk;

/// The segment kind `e` makes (−1: none), its start in `*ax`, `*ay`; the walk moved past it.
static inline __attribute__((always_inline)) int step(segmentWalk *w, const ca_path_item *e, double *ax, double *ay) {
    if (!itemIsFinite(e)) return -1;
    int kind = (int)e->kind;
    *ax = w->cx; *ay = w->cy;
    switch (kind) {
    case CA_PATH_MOVE: case CA_PATH_LINE: case CA_PATH_QUAD: case CA_PATH_CUBIC: {
        const int end = endIndex(kind);
        if (kind == CA_PATH_MOVE || !w->hasCurrent) {
            kind = CA_PATH_MOVE;
            w->sx = e->p[end]; w->sy = e->p[end + 1];
        }
        w->cx = e->p[end]; w->cy = e->p[end + 1];
        w->hasCurrent = 1;
        return kind;
    }
    default:
        if (!w->hasCurrent) return -1;
        w->cx = w->sx; w->cy = w->sy;
        return CA_PATH_CLOSE;
    }
}

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

static inline __attribute__((always_inline)) double pmin(double a, double b) { return b < a ? b : a; }
static inline __attribute__((always_inline)) double pmax(double a, double b) { return b > a ? b : a; }

static inline __attribute__((always_inline)) void finishPolygon(builder *b) {
    if (b->count == 0) return;
    if (b->count >= 3) {
        for (long k = b->start; k < b->used; k++) {
            const double x = b->xy[2 * k], y = b->xy[2 * k + 1];
            b->lo[0] = pmin(b->lo[0], x); b->lo[1] = pmin(b->lo[1], y);
            b->hi[0] = pmax(b->hi[0], x); b->hi[1] = pmax(b->hi[1], y);
        }
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
    for (long i = 1; i < n; i++) {
        double x, y;
        curvePoint(cubic, ax, ay, p, (double)i / (double)n, &x, &y);
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
