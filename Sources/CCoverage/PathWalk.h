// The path walk and curve arithmetic that the fill flattening (PathPolygons.c) and the stroke
// flattening (StrokeOutline.c) share: Swift's `forEachSegment`, `flatteningSegmentCount`,
// `quadPoint` and `cubicPoint`, operation for operation (the includer turns contraction off),
// and the polygons' bounds.
// Private to CCoverage.
#ifndef CCOVERAGE_PATH_WALK_H
#define CCOVERAGE_PATH_WALK_H

#include "PathPolygons.h"
#include <math.h>

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

/// A quad or cubic cut into n chords, with what `centredCurvePoint` needs of it once a curve
/// rather than once a vertex: its second differences a − 2c1 + c2 and c1 − 2c2 + b (a quad's
/// one, a − 2c + b, in d0).
typedef struct {
    int cubic;
    double ax, ay;
    const double *p;
    long n;
    double d0x, d0y, d1x, d1y;
} centredCurve;

static inline __attribute__((always_inline)) centredCurve centredCurveOf(int cubic, double ax, double ay, const double *p, long n) {
    centredCurve c = { cubic, ax, ay, p, n, ax - 2 * p[0] + p[2], ay - 2 * p[1] + p[3], 0, 0 };
    if (cubic) { c.d1x = p[0] - 2 * p[2] + p[4]; c.d1y = p[1] - 2 * p[3] + p[5]; }
    return c;
}

/// Inner chord vertex i (0 < i < n) of `c`: `curvePoint` at t = i/n moved by −P″(t)·h²/12
/// (h = 1/n). Chords whose ends lie on a curve all cut inside its bend, by up to the sagitta s = P″·h²/8 at their middles: every curve loses area (a radius-10
/// disc drawn at 0.1 px was 3.5 px² short). The symmetric second difference of a polynomial of
/// degree ≤ 3 is P″(t)·h² exactly, so the vertices can move outward, along the bend, for a few
/// multiplies each: by 2s/3, the area a chord leaves out of a circular arc (2/3 of s times its
/// length), each chord then gives back what it took (its ends 2s/3 outside the curve, its middle
/// s/3 inside). Measured against Cairo at 0.01 px (CairoDifferentialTests) and a disc's area,
/// 2s/3 did better than s/2 (99.601 % against 99.597 % of pixels within 2/255, −0.10 px² against
/// −0.45, both at 0.05 px). Wang's count keeps |P″|·h² within eight tolerances (quads and cubics
/// alike), so no vertex moves by more than two thirds of the tolerance. The end points stay
/// exact: they are shared with the neighbouring elements.
static inline __attribute__((always_inline)) void centredCurvePoint(const centredCurve *c, long i, double *x, double *y) {
    const double t = (double)i / (double)c->n, h2 = 1 / ((double)c->n * (double)c->n);
    curvePoint(c->cubic, c->ax, c->ay, c->p, t, x, y);
    double sx, sy;
    if (c->cubic) {
        // P″(t) = 6·((1 − t)·(a − 2c1 + c2) + t·(c1 − 2c2 + b)).
        const double u = 1 - t;
        sx = 6 * (u * c->d0x + t * c->d1x);
        sy = 6 * (u * c->d0y + t * c->d1y);
    } else {
        // P″ = 2·(a − 2c + b).
        sx = 2 * c->d0x;
        sy = 2 * c->d0y;
    }
    *x -= sx * h2 * (1.0 / 12);
    *y -= sy * h2 * (1.0 / 12);
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

/// Widens the bounds `lo`/`hi` (x, y) by the points `from` … `to` − 1 of `xy` (Swift's
/// `pointwiseMin`/`pointwiseMax`: a point replaces a bound only when strictly beyond it).
static inline __attribute__((always_inline)) void widenBounds(const double *xy, long from, long to, double lo[2], double hi[2]) {
    for (long k = from; k < to; k++) {
        const double x = xy[2 * k], y = xy[2 * k + 1];
        lo[0] = x < lo[0] ? x : lo[0]; lo[1] = y < lo[1] ? y : lo[1];
        hi[0] = x > hi[0] ? x : hi[0]; hi[1] = y > hi[1] ? y : hi[1];
    }
}

#endif
