// See include/StrokeOutline.h; the shapes are described at `copy(strokingWithWidth:…)`
// (CGPath+Stroking.swift). `smax` (PathWalk.h) and `smin` are Swift's `max`/`min` (`y >= x ? y : x`,
// `y < x ? y : x`).
#pragma clang fp contract(off)

#include "StrokeOutline.h"
#include "PathWalk.h"
#include <stdlib.h>

typedef ca_stroke_point pt;
typedef ca_stroke_segment seg;

#define INLINE static inline __attribute__((always_inline))

INLINE pt P(double x, double y) { pt p = { x, y }; return p; }
INLINE pt add(pt a, pt b) { return P(a.x + b.x, a.y + b.y); }
INLINE pt sub(pt a, pt b) { return P(a.x - b.x, a.y - b.y); }
INLINE pt mul(pt a, double k) { return P(a.x * k, a.y * k); }
INLINE pt neg(pt a) { return P(-a.x, -a.y); }
INLINE pt perp(pt a) { return P(-a.y, a.x); }
INLINE double dot(pt a, pt b) { return a.x * b.x + a.y * b.y; }
INLINE double cross(pt a, pt b) { return a.x * b.y - a.y * b.x; }
INLINE int same(pt a, pt b) { return a.x == b.x && a.y == b.y; }
INLINE double smin(double x, double y) { return y < x ? y : x; }

/// `CGPoint.normalizedVector`'s unit vector, and |v| (sqrt(v·v)) in `*length`; 0 when zero or not
/// finite. Where the squares neither overflow nor underflow (every segment of a drawing), v
/// times 1/|v|: one square root and one division, where scaling by the larger component first
/// took three divisions (the divider was the stroker's bottleneck: a few a vertex, each waiting
/// on the one before); the two agree to an ulp or two. Elsewhere scaled first, as
/// `normalizedVector`.
INLINE int normalizedWithLength(pt v, pt *out, double *length) {
    const double l2 = v.x * v.x + v.y * v.y;
    *length = sqrt(l2);
    if (l2 > 1e-280 && l2 < 1e280) {
        const double inv = 1 / *length;
        *out = P(v.x * inv, v.y * inv);
        return 1;
    }
    const double m = smax(fabs(v.x), fabs(v.y));
    if (!(m > 0) || !__builtin_isfinite(m)) return 0;
    const double sx = v.x / m, sy = v.y / m;
    const double l = sqrt(sx * sx + sy * sy);
    *out = P(sx / l, sy / l);
    return 1;
}

INLINE int normalized(pt v, pt *out) {
    double length;
    return normalizedWithLength(v, out, &length);
}

/// Grows `*p` (elements of `size` bytes, `*capacity` of them) to hold `need`, at least doubling.
static int grow(void **p, long *capacity, long need, size_t size) {
    if (need <= *capacity) return 1;
    long c = *capacity * 2;
    if (c < need) c = need;
    if (c < 16) c = 16;
    void *q = realloc(*p, (size_t)c * size);
    if (!q) return 0;
    *p = q; *capacity = c;
    return 1;
}

// MARK: - Output

static int growPoints(ca_stroker *s, long extra) {
    if (s->points + extra <= s->xyCapacity) return 1;
    long cap = s->xyCapacity;
    if (!grow((void **)&s->xy, &cap, s->points + extra, 2 * sizeof(double))) { s->overflowed = 1; return 0; }
    s->xyCapacity = cap;
    return 1;
}

static int pushEnd(ca_stroker *s, int kind) {
    if (s->polygons + 1 > s->endsCapacity) {
        long cap = s->endsCapacity, cap2 = s->endsCapacity;
        if (!grow((void **)&s->ends, &cap, s->polygons + 1, sizeof(long))
            || !grow((void **)&s->kinds, &cap2, s->polygons + 1, sizeof(uint8_t))) { s->overflowed = 1; return 0; }
        s->endsCapacity = cap < cap2 ? cap : cap2;
    }
    s->ends[s->polygons] = s->points;
    s->kinds[s->polygons] = (uint8_t)kind;
    s->polygons += 1;
    return 1;
}

INLINE pt device(const ca_stroker *s, pt p) {
    if (s->identity) return p;
    return P(s->ta * p.x + s->tc * p.y + s->ttx, s->tb * p.x + s->td * p.y + s->tty);
}

INLINE void rbegin(ca_stroker *s) {
    s->polygonStart = s->points;
    s->kept = 0;
    s->lastWritten = 0;
}

/// One more device vertex of the raster polygon (room for it already made).
INLINE void radd(ca_stroker *s, pt d) {
    if (s->kept > 0 && same(s->lastDevice, d)) return;
    if (s->kept == 0) s->firstDevice = d;
    s->kept += 1;
    s->lastDevice = d;
    const double qx = d.x, qy = s->height - d.y;
    s->lastWritten = __builtin_isfinite(qx) && __builtin_isfinite(qy);
    if (s->lastWritten) { s->xy[2 * s->points] = qx; s->xy[2 * s->points + 1] = qy; s->points += 1; }
}

static void rfinish(ca_stroker *s) {
    if (s->kept > 1 && same(s->lastDevice, s->firstDevice)) {
        s->kept -= 1;
        if (s->lastWritten) s->points -= 1;
    }
    if (s->kept < 3 || s->overflowed) { s->points = s->polygonStart; return; }
    if (s->polygonStart + s->kept > s->maxPoints) {
        s->overflowed = 1;
        s->points = s->polygonStart;
        return;
    }
    widenBounds(s->xy, s->polygonStart, s->points, s->lo, s->hi);
    if (s->points - s->polygonStart >= 3) {
        if (!pushEnd(s, CA_PIECE_POLYGON)) s->points = s->polygonStart;
    } else {
        s->points = s->polygonStart;
    }
}

/// A closed polygon, reversed when `reversed` (the sinks' `addPolygon`).
static void sinkPolygon(ca_stroker *s, const pt *pts, long n, int reversed) {
    if (n <= 0 || s->overflowed) return;
    if (!growPoints(s, n)) return;
    if (s->mode == CA_STROKE_PIECES) {
        for (long i = 0; i < n; i++) {
            const pt p = pts[reversed ? n - 1 - i : i];
            s->xy[2 * s->points] = p.x; s->xy[2 * s->points + 1] = p.y; s->points += 1;
        }
        pushEnd(s, CA_PIECE_POLYGON);
        return;
    }
    rbegin(s);
    if (reversed) { for (long i = n - 1; i >= 0; i--) radd(s, device(s, pts[i])); }
    else { for (long i = 0; i < n; i++) radd(s, device(s, pts[i])); }
    rfinish(s);
}

/// `PathShapes.quarter`'s control points: `kappa` of the way from each end toward the corner.
INLINE pt lerp(pt a, pt b, double t) { return P(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t); }
static const double kappa = 0.5522847498307934;
/// `CGFloat.pi`.
static const double pi = 3.141592653589793;

/// `PathShapes.ellipse` of the square of side 2r around c: a start point and four quarter cubics.
static void circlePoints(pt c, double r, pt out[13]) {
    const double x0 = c.x - r, y0 = c.y - r, w = 2 * r;
    const double minX = x0, maxX = x0 + w, midX = x0 + w / 2, minY = y0, maxY = y0 + w, midY = y0 + w / 2;
    const pt right = P(maxX, midY), bottom = P(midX, maxY), left = P(minX, midY), top = P(midX, minY);
    const pt ends[5] = { right, bottom, left, top, right };
    const pt corners[4] = { P(maxX, maxY), P(minX, maxY), P(minX, minY), P(maxX, minY) };
    out[0] = right;
    for (int q = 0; q < 4; q++) {
        out[1 + 3 * q] = lerp(ends[q], corners[q], kappa);
        out[2 + 3 * q] = lerp(ends[q + 1], corners[q], kappa);
        out[3 + 3 * q] = ends[q + 1];
    }
}

/// A full circle (positive winding, like `addEllipse(in:)`); in raster space its cubics are
/// flattened as a fill's are (Wang's count at the tolerance, the end point exact).
static void sinkCircle(ca_stroker *s, pt c, double r) {
    if (s->overflowed) return;
    pt e[13];
    circlePoints(c, r, e);
    if (s->mode == CA_STROKE_PIECES) {
        if (!growPoints(s, 13)) return;
        for (int i = 0; i < 13; i++) { s->xy[2 * s->points] = e[i].x; s->xy[2 * s->points + 1] = e[i].y; s->points += 1; }
        pushEnd(s, CA_PIECE_CIRCLE);
        return;
    }
    rbegin(s);
    pt a = device(s, e[0]);
    if (!__builtin_isfinite(a.x) || !__builtin_isfinite(a.y)) return;
    if (!growPoints(s, 1)) return;
    radd(s, a);
    for (int q = 0; q < 4; q++) {
        const pt c1 = device(s, e[1 + 3 * q]), c2 = device(s, e[2 + 3 * q]), b = device(s, e[3 + 3 * q]);
        // The cubic as a path item's points, flattened by the fill flattening's own functions.
        const double cp[6] = { c1.x, c1.y, c2.x, c2.y, b.x, b.y };
        if (!(finite2(cp) && finite2(cp + 2) && finite2(cp + 4))) continue;
        const long n = cubicCount(a.x, a.y, cp, s->tolerance);
        if (s->polygonStart + s->kept + n > s->maxPoints) { s->overflowed = 1; s->points = s->polygonStart; return; }
        if (!growPoints(s, n)) { s->points = s->polygonStart; return; }
        const centredCurve curve = centredCurveOf(1, a.x, a.y, cp, n);
        for (long i = 1; i <= n; i++) {
            if (i == n) { radd(s, b); break; }
            double x, y;
            centredCurvePoint(&curve, i, &x, &y);
            radd(s, P(x, y));
        }
        a = b;
    }
    rfinish(s);
}

// MARK: - Working arrays

/// Room for `n` more points on the polygon being built (which a band's left side starts) and on
/// the band's right side, so that the pushes below need no check; false (overflowed) when memory
/// runs out.
static int reserve(ca_stroker *s, long n) {
    if (s->polyCount + n > s->polyCapacity && !grow((void **)&s->poly, &s->polyCapacity, s->polyCount + n, sizeof(pt))) {
        s->overflowed = 1;
        return 0;
    }
    if (s->rightCount + n > s->rightCapacity && !grow((void **)&s->right, &s->rightCapacity, s->rightCount + n, sizeof(pt))) {
        s->overflowed = 1;
        return 0;
    }
    return 1;
}
#define LEFT(p) (s->poly[s->polyCount++] = (p))
#define POLY(p) LEFT(p)
#define RIGHT(p) (s->right[s->rightCount++] = (p))

/// Twice the signed area of a closed polygon, summed from the first edge to the closing one.
static double signedArea(const pt *p, long n) {
    double area = 0;
    for (long i = 0; i < n; i++) {
        const pt a = p[i], b = p[i + 1 < n ? i + 1 : 0];
        area += a.x * b.y - b.x * a.y;
    }
    return area;
}

/// The working polygon, wound positively; degenerate ones are skipped.
static void polygonFromScratch(ca_stroker *s) {
    const double area = signedArea(s->poly, s->polyCount);
    if (!__builtin_isfinite(area) || area == 0) return;
    sinkPolygon(s, s->poly, s->polyCount, area < 0);
}

static void polygon(ca_stroker *s, pt p0, pt p1, pt p2, const pt *p3) {
    s->polyCount = 0;
    if (!reserve(s, 4)) return;
    POLY(p0); POLY(p1); POLY(p2);
    if (p3) POLY(*p3);
    polygonFromScratch(s);
}

INLINE double arcStep(const ca_stroker *s) { return s->arcStep; }

/// Points 0 … count of the arc of radius hw around v from unit direction n0 through `sweep`
/// radians, each emitted by `emit` (a statement using `p`): the direction rotated by
/// sweep/count a step (one cosine and one sine an arc, not one of each a point: the trig of a
/// star's round joins was a thirtieth of the 1,000-star frame), and the last point at n1, the
/// arc's end direction, exactly.
#define ARC_POINTS(v, n0, n1, sweep, count, hw, p, emit) do { \
        const double step_ = (sweep) / (double)(count), c_ = cos(step_), s_ = sin(step_); \
        pt u_ = (n0); \
        for (long i_ = 0; i_ <= (count); i_++) { \
            if (i_ == (count)) u_ = (n1); \
            const pt p = add((v), mul(u_, (hw))); \
            emit; \
            u_ = P(u_.x * c_ - u_.y * s_, u_.x * s_ + u_.y * c_); \
        } \
    } while (0)

/// How many chords an arc of `sweep` takes (at least `least`, at most 256).
INLINE long arcCount(double sweep, double step, long least) {
    const double c = ceil(fabs(sweep) / smax(step, 1e-3));
    if (!(c >= (double)least)) return least;
    return c >= 256 ? 256 : (long)c;
}

// MARK: - Pieces

/// The offset of the vertex between directions `d0` and `d1` on the left side, mitred.
/// `cosHalf` is sqrt((1 + d0·d1)/2), the cosine of half the turn, which the caller uses too.
INLINE pt mitredOffset(const ca_stroker *s, pt d0, pt d1, double cosHalf) {
    pt bis;
    if (!normalized(add(perp(d0), perp(d1)), &bis)) return mul(perp(d0), s->hw);
    return mul(bis, s->hw / cosHalf);
}

/// A band's boundary points at the vertex joining `s0` to `s1`: the inner side where the offset
/// lines meet, the outer side shaped by the join — a miter tip within the miter limit, else a
/// bevel's two corners, or an arc for round. A vertex inside a flattened curve (not a corner of
/// the path) that turns gently (by less than ~30°) is mitred whatever the join: there the turn is
/// the curve bending, and the miter follows its true offset best.
static void appendJoinPoints(ca_stroker *s, const seg *s0, const seg *s1) {
    if (!reserve(s, 260)) return;                    // an arc's 257 points and the inner one
    const pt v = s1->a, d0 = s0->d, d1 = s1->d;
    const double cr = cross(d0, d1), dt = dot(d0, d1);
    const double cosHalf = sqrt((1 + dt) / 2);
    const pt m = mitredOffset(s, d0, d1, cosHalf);
    if (dt > 0 && fabs(cr) < 1e-12) {
        LEFT(add(v, m)); RIGHT(sub(v, m));
        return;
    }
    const int isCorner = s1->startIsCorner;
    int style = (!isCorner && dt > 0.866) ? 0 : s->join;
    if (style == 0) {
        const double limit = isCorner ? s->miterLimit : smax(s->miterLimit, 2);
        if (!(cosHalf > 0 && 1 / cosHalf <= limit)) style = 2;
    }
    const double outerSign = cr < 0 ? 1 : -1;
    const pt inner = sub(v, mul(m, outerSign));
    if (outerSign < 0) LEFT(inner);
    switch (style) {
    case 0: {
        const pt p = add(v, mul(m, outerSign));
        if (outerSign > 0) LEFT(p); else RIGHT(p);
        break;
    }
    case 2: {
        const pt p0 = add(v, mul(perp(d0), s->hw * outerSign)), p1 = add(v, mul(perp(d1), s->hw * outerSign));
        if (outerSign > 0) { LEFT(p0); LEFT(p1); } else { RIGHT(p0); RIGHT(p1); }
        break;
    }
    default: {
        const pt n0 = mul(perp(d0), outerSign), n1 = mul(perp(d1), outerSign);
        const double sweep = atan2(cross(n0, n1), dot(n0, n1));
        const long count = arcCount(sweep, arcStep(s), 1);
        ARC_POINTS(v, n0, n1, sweep, count, s->hw, p, if (outerSign > 0) LEFT(p); else RIGHT(p));
        break;
    }
    }
    if (outerSign > 0) RIGHT(inner);
}

/// The inner points of a half circle of radius hw around c from c + n through c + d·hw to c − n.
static void appendHalfDisc(ca_stroker *s, pt c, pt n, pt d) {
    const long count = arcCount(pi, arcStep(s), 2);
    if (!reserve(s, count)) return;
    for (long i = 1; i < count; i++) {
        const double t = pi * (double)i / (double)count;
        const double ct = cos(t), st = sin(t);
        POLY(add(add(c, mul(n, ct)), mul(d, s->hw * st)));
    }
}

/// One polygon for a run of `length` joined segments from `start` on, cyclically: left side
/// forward, the end cap, right side back, the start cap (1: round, 2: square). Neighbouring
/// segments share the band's edges instead of overlapping as separate rectangles would: an area
/// rasteriser counts an overlap twice in the edge pixels before the non-zero clamp (a stroked
/// rect's inner corner pixel at 100 % instead of 75 %). Caps are inside the same polygon for the
/// same reason.
static void band(ca_stroker *s, long count, long start, long length, int startCap, int endCap) {
    if (length <= 0) return;
    const long lastIndex = start + length - 1;
    const seg first = s->segs[start], last = s->segs[lastIndex < count ? lastIndex : lastIndex - count];
    // The left side is written straight into the polygon; the right side is added reversed.
    s->polyCount = 0; s->rightCount = 0;
    if (!reserve(s, 2)) return;
    const pt a = startCap == 2 ? sub(first.a, mul(first.d, s->hw)) : first.a;
    const pt n0 = mul(perp(first.d), s->hw);
    LEFT(add(a, n0)); RIGHT(sub(a, n0));
    long k0 = start;
    for (long k = 1; k < length; k++) {
        const long k1 = k0 + 1 < count ? k0 + 1 : 0;
        appendJoinPoints(s, &s->segs[k0], &s->segs[k1]);
        k0 = k1;
    }
    if (!reserve(s, 2)) return;
    const pt b = endCap == 2 ? add(last.b, mul(last.d, s->hw)) : last.b;
    const pt n1 = mul(perp(last.d), s->hw);
    LEFT(add(b, n1)); RIGHT(sub(b, n1));
    if (s->overflowed) return;
    if (endCap == 1) appendHalfDisc(s, b, n1, last.d);
    if (!reserve(s, s->rightCount)) return;
    for (long i = s->rightCount - 1; i >= 0; i--) POLY(s->right[i]);
    if (startCap == 1) appendHalfDisc(s, a, neg(n0), neg(first.d));
    if (s->overflowed) return;
    polygonFromScratch(s);
}

/// A closed subpath whose every join is banded: the left ring forward, the right one backward,
/// both reversed when their total area is negative.
static void ring(ca_stroker *s, long count) {
    s->polyCount = 0; s->rightCount = 0;
    for (long k = 0; k < count; k++) appendJoinPoints(s, &s->segs[k > 0 ? k - 1 : count - 1], &s->segs[k]);
    if (s->overflowed) return;
    for (long i = 0, j = s->rightCount - 1; i < j; i++, j--) { const pt t = s->right[i]; s->right[i] = s->right[j]; s->right[j] = t; }
    const double total = signedArea(s->poly, s->polyCount) + signedArea(s->right, s->rightCount);
    if (!__builtin_isfinite(total) || total == 0) return;
    sinkPolygon(s, s->poly, s->polyCount, total < 0);
    sinkPolygon(s, s->right, s->rightCount, total < 0);
}

/// A zero-length subpath: a dot for round and square caps, nothing for butt.
static void dotAt(ca_stroker *s, pt p) {
    const double hw = s->hw;
    if (s->cap == 1) sinkCircle(s, p, hw);
    else if (s->cap == 2) {
        const pt p3 = P(p.x - hw, p.y + hw);
        polygon(s, P(p.x - hw, p.y - hw), P(p.x + hw, p.y - hw), P(p.x + hw, p.y + hw), &p3);
    }
}

/// A round join as its own piece: the sector of the pen's disc between the two segments' outer
/// normals. Its straight sides lie on the segments' ends, so it meets their bands without
/// overlapping them (a whole disc covered both ends again, counted twice in their edge pixels,
/// and took a circle's edges where a star's tip takes a few).
static void roundWedge(ca_stroker *s, pt v, pt d0, pt d1, double side) {
    const pt n0 = mul(perp(d0), side), n1 = mul(perp(d1), side);
    const double sweep = atan2(cross(n0, n1), dot(n0, n1));
    const long count = arcCount(sweep, arcStep(s), 1);
    s->polyCount = 0;
    if (!reserve(s, count + 2)) return;
    POLY(v);
    ARC_POINTS(v, n0, n1, sweep, count, s->hw, p, POLY(p));
    if (s->overflowed) return;
    polygonFromScratch(s);
}

/// A join that no band covers: a wedge, a miter quadrilateral, a bevel triangle, or the whole
/// pen's disc at a cusp (a turn back on itself has no outer side).
static void joinSegments(ca_stroker *s, pt v, pt d0, pt d1, int isCorner) {
    const double cr = cross(d0, d1), dt = dot(d0, d1);
    if (dt > 0 && fabs(cr) < 1e-12) return;
    const int style = (!isCorner && dt > 0.866) ? 0 : s->join;
    const double side = cr > 0 ? -1 : 1;
    if (style == 1) {
        if (dt > -0.999) roundWedge(s, v, d0, d1, side); else sinkCircle(s, v, s->hw);
        return;
    }
    const pt o0 = add(v, mul(perp(d0), s->hw * side)), o1 = add(v, mul(perp(d1), s->hw * side));
    if (style == 0) {
        const double cosHalf = sqrt((1 + dt) / 2);
        const double limit = isCorner ? s->miterLimit : smax(s->miterLimit, 2);
        pt bisector;
        if (cosHalf > 0 && 1 / cosHalf <= limit && normalized(add(perp(d0), perp(d1)), &bisector)) {
            const pt tip = add(v, mul(bisector, side * s->hw / cosHalf));
            polygon(s, v, o0, tip, &o1);
            return;
        }
    }
    polygon(s, v, o0, o1, 0);
}

/// Whether a band covers the join exactly: the inner offset lines meet within half of each
/// segment, so the inner side does not fold back; sharper or shorter joins become their own
/// pieces, the segments' bands ending square at them.
INLINE int isSmooth(const seg *s0, const seg *s1, double hw) {
    const double dt = dot(s0->d, s1->d), cr = cross(s0->d, s1->d);
    if (!(dt > -0.999)) return 0;
    const double tanHalf = fabs(cr) / (1 + dt);
    const double reach = hw * tanHalf;
    return __builtin_isfinite(reach) && reach < 0.5 * smin(s0->length, s1->length);
}

// MARK: - API

void ca_stroker_begin(ca_stroker *s, int mode, double hw, int cap, int join, double miterLimit, double arcTolerance,
                      double a, double b, double c, double d, double tx, double ty, int identity, double height, double tolerance, long maxPoints) {
    s->mode = mode; s->hw = hw; s->cap = cap; s->join = join;
    s->miterLimit = miterLimit; s->arcTolerance = arcTolerance;
    s->arcStep = 2 * acos(smax(1 - arcTolerance / smax(hw, 1e-12), -1));
    s->ta = a; s->tb = b; s->tc = c; s->td = d; s->ttx = tx; s->tty = ty;
    s->identity = identity;
    s->height = height;
    s->tolerance = tolerance > 1e-9 ? tolerance : 1e-9;
    s->maxPoints = maxPoints;
    s->points = 0; s->polygons = 0;
    s->lo[0] = s->lo[1] = INFINITY; s->hi[0] = s->hi[1] = -INFINITY;
    s->overflowed = 0;
}

/// i + 1, and an index below 2·count, taken back into 0 … count − 1 by a comparison rather than
/// a division.
INLINE long next(long i, long count) { return i + 1 < count ? i + 1 : 0; }
INLINE long wrap(long i, long count) { return i < count ? i : i - count; }

/// Strokes one flattened subpath (`n` points, `isCorner` parallel to them).
static void strokeSubpath(ca_stroker *s, const pt *points, const uint8_t *isCorner, long n, int closed, int hasSegments) {
    if (!hasSegments || n <= 0 || s->overflowed) return;
    const pt first = points[0];
    if (n > s->segCapacity) {
        long c1 = s->segCapacity, c2 = s->segCapacity;
        if (!grow((void **)&s->segs, &c1, n, sizeof(seg)) || !grow((void **)&s->smooth, &c2, n, 1)) { s->overflowed = 1; return; }
        s->segCapacity = c1 < c2 ? c1 : c2;
    }
    long count = 0;
    const long segCount = closed ? n : n - 1;
    for (long i = 0; i < segCount; i++) {
        const long j = i + 1 < n ? i + 1 : 0;
        const pt a = points[i], b = points[j];
        pt d;
        double length;
        if (!normalizedWithLength(sub(b, a), &d, &length)) continue;
        seg g = { a, b, d, length, isCorner[i] ? 1 : 0 };
        s->segs[count++] = g;
    }
    if (count == 0) { dotAt(s, first); return; }
    const int open = !closed;
    const long joinCount = open ? count - 1 : count;
    long firstSharp = -1;
    for (long j = 0; j < count; j++) {
        s->smooth[j] = j < joinCount ? (uint8_t)isSmooth(&s->segs[j], &s->segs[next(j, count)], s->hw) : 0;
        if (firstSharp < 0 && !s->smooth[j]) firstSharp = j;
    }
    if (!open && firstSharp < 0) { ring(s, count); return; }
    const long origin = !open ? next(firstSharp, count) : 0;
    long runStart = 0;
    for (long pos = 0; pos < count; pos++) {
        const long i = wrap(origin + pos, count);
        if (pos == count - 1 || !s->smooth[i]) {
            const long firstIndex = wrap(origin + runStart, count);
            const int atStart = open && firstIndex == 0, atEnd = open && i == count - 1;
            band(s, count, firstIndex, pos - runStart + 1, atStart ? s->cap : 0, atEnd ? s->cap : 0);
            runStart = pos + 1;
        }
    }
    for (long j = 0; j < joinCount; j++) {
        if (s->smooth[j]) continue;
        const seg *s0 = &s->segs[j], *s1 = &s->segs[next(j, count)];
        joinSegments(s, s1->a, s0->d, s1->d, s1->startIsCorner);
    }
}

// MARK: - Flattening (`CGPath.flattenedSubpaths(tolerance:)`'s rules)

/// One more vertex of the subpath being flattened.
static void flatPush(ca_stroker *s, pt p, int corner) {
    if (s->flatCount >= s->flatCapacity) {
        long c1 = s->flatCapacity, c2 = s->flatCapacity;
        if (!grow((void **)&s->flat, &c1, s->flatCount + 1, sizeof(pt))
            || !grow((void **)&s->flatCorner, &c2, s->flatCount + 1, 1)) { s->overflowed = 1; return; }
        s->flatCapacity = c1 < c2 ? c1 : c2;
    }
    s->flat[s->flatCount] = p;
    s->flatCorner[s->flatCount] = (uint8_t)corner;
    s->flatCount += 1;
}

/// Strokes the open subpath (left open) and forgets it.
static void flatEnd(ca_stroker *s) {
    if (!s->flatOpen) return;
    strokeSubpath(s, s->flat, s->flatCorner, s->flatCount, 0, s->flatHasSegments);
    s->flatCount = 0;
    s->flatOpen = 0;
}

static void flatBegin(ca_stroker *s, pt p) {
    flatEnd(s);
    s->flatCount = 0;
    flatPush(s, p, 1);
    s->flatHasSegments = 0;
    s->flatOpen = 1;
}

/// A vertex; a repeat of the last one only marks it a corner when `corner`.
static void flatAdd(ca_stroker *s, pt p, int corner) {
    if (!s->flatOpen) return;
    s->flatHasSegments = 1;
    if (s->flatCount > 0 && same(s->flat[s->flatCount - 1], p)) {
        if (corner) s->flatCorner[s->flatCount - 1] = 1;
    } else {
        flatPush(s, p, corner);
    }
}

/// Closes the subpath (a repeated start dropped; the closing segment is implicit) and strokes it.
static void flatClose(ca_stroker *s) {
    if (!s->flatOpen) return;
    if (s->flatCount > 1 && same(s->flat[s->flatCount - 1], s->flat[0])) s->flatCount -= 1;
    strokeSubpath(s, s->flat, s->flatCorner, s->flatCount, 1, 1);
    s->flatCount = 0;
    s->flatOpen = 0;
}

/// A curve's chords (Wang's count at `tol`), the end point exact and a corner.
static void flatCurve(ca_stroker *s, int cubic, double ax, double ay, const double *p, long n) {
    const int end = cubic ? 4 : 2;
    const centredCurve curve = centredCurveOf(cubic, ax, ay, p, n);
    for (long i = 1; i <= n; i++) {
        if (i == n) { flatAdd(s, P(p[end], p[end + 1]), 1); break; }
        double x, y;
        centredCurvePoint(&curve, i, &x, &y);
        flatAdd(s, P(x, y), 0);
    }
}

void ca_stroker_add_path(ca_stroker *s, const ca_path_item *items, long count, double tolerance) {
    const double tol = tolerance > 1e-9 ? tolerance : 1e-9;
    segmentWalk w = { 0, 0, 0, 0, 0 };
    s->flatOpen = 0; s->flatCount = 0;
    for (long k = 0; k < count && !s->overflowed; k++) {
        const ca_path_item *e = items + k;
        double ax, ay;
        switch (step(&w, e, &ax, &ay)) {
        case CA_PATH_MOVE: {
            const int end = endIndex(e->kind);
            flatBegin(s, P(e->p[end], e->p[end + 1]));
            break;
        }
        case CA_PATH_LINE:
            if (!s->flatOpen) flatBegin(s, P(ax, ay));
            flatAdd(s, P(e->p[0], e->p[1]), 1);
            break;
        case CA_PATH_QUAD:
            if (!s->flatOpen) flatBegin(s, P(ax, ay));
            flatCurve(s, 0, ax, ay, e->p, quadCount(ax, ay, e->p, tol));
            break;
        case CA_PATH_CUBIC:
            if (!s->flatOpen) flatBegin(s, P(ax, ay));
            flatCurve(s, 1, ax, ay, e->p, cubicCount(ax, ay, e->p, tol));
            break;
        case CA_PATH_CLOSE:
            if (!s->flatOpen) flatBegin(s, P(ax, ay));
            flatClose(s);
            break;
        default:
            break;
        }
    }
    flatEnd(s);
}

void ca_stroker_free(ca_stroker *s) {
    free(s->xy); free(s->ends); free(s->kinds);
    free(s->segs); free(s->smooth);
    free(s->right); free(s->poly); free(s->flat); free(s->flatCorner);
    s->xy = 0; s->ends = 0; s->kinds = 0; s->segs = 0; s->smooth = 0; s->right = s->poly = 0; s->flat = 0; s->flatCorner = 0;
    s->xyCapacity = s->endsCapacity = s->segCapacity = s->flatCapacity = s->rightCapacity = s->polyCapacity = 0;
}
