// Shared by every program (prepended after the #version line by the backend; the
// fragment stage gets CA_FRAGMENT defined, which turns on the derivative-based helpers).
// Programs are compiled per variant: CA_CLIP, CA_CONTINUOUS, CA_EDGE_MASK, CA_BORDER, CA_BLUR,
// CA_RADIAL, CA_CONIC, CA_MASK, CA_PROJECTIVE are defined only for batches that need them. Software
// rasterisers such as llvmpipe run both sides of every branch, so code a batch does not need
// must not be in its program at all (it cost 8× on the 10k-rect scene).
// Coordinates: "frame pixels" run from the top-left of the frame, y down; a pass draws into a
// target covering u_viewport (x, y, width, height in frame pixels). u_flip is 1 for
// offscreen targets (row 0 = top) and -1 for a window's default framebuffer.
uniform vec4 u_viewport;
uniform float u_flip;
uniform sampler2D u_clips;   // RGBA32F, 5 texels per clip: h0, h1, h2, rect, radii

#ifndef CA_FRAGMENT
// Depth of an instance from its paint order (the main pass's depth pre-pass: opaque interiors
// drawn first write it, and every instance then tests against it, so pixels a later opaque
// layer covers are not shaded): later instances nearer, all strictly inside (−1, 1).
// u_orderBase: the paint order of the batch's first instance; u_orderScale: 2 / (instances in
// the pass + 1); both 0 where there is no depth test (depth 0).
uniform float u_orderBase;
uniform float u_orderScale;
// The order of a pre-pass instance (its own, not its place in the batch), set by box.vert.
float ca_prepassOrder = 0.0;

float orderDepth() {
#ifdef CA_DEPTH_PREPASS
    float order = ca_prepassOrder;
#else
    float order = u_orderBase + float(gl_InstanceID);
#endif
    return u_orderScale > 0.0 ? 1.0 - (order + 1.0) * u_orderScale : 0.0;
}

// Homogeneous frame-pixel position (X, Y, W) to clip space; keeps W so that varyings
// interpolate perspective-correctly.
vec4 toClip(vec3 q) {
    float x = 2.0 * (q.x - u_viewport.x * q.z) / u_viewport.z - q.z;
    float y = 2.0 * (q.y - u_viewport.y * q.z) / u_viewport.w - q.z;
    return vec4(x, y * u_flip, orderDepth() * q.z, q.z);
}
#endif

// Signed distance to a rectangle (centre c, half size e) with per-corner radii
// r = (minXminY, maxXminY, maxXmaxY, minXmaxY); negative inside. Continuous corners use an
// n = 3.3 superellipse over 1.528665·r (Apple's cornerCurveExpansionFactor, docs/BEHAVIOUR.md N6),
// which meets the edges tangentially and crosses the diagonal where the circular arc would.
//
// roundRectField returns (distance, gradient in the plane). Coverage uses the analytic
// gradient: the screen derivative of the distance itself jumps where the nearest edge
// changes (along a corner's diagonal), which made corner pixels of square rectangles lose up
// to 15 % coverage, and pixels beside a corner gain 1 %, depending on where the 2×2 pixel
// quads fall.
vec3 roundRectField(vec2 p, vec2 c, vec2 e, vec4 r, bool continuous) {
    vec2 d = p - c;
    vec2 side = vec2(d.x < 0.0 ? -1.0 : 1.0, d.y < 0.0 ? -1.0 : 1.0);
    float rad = d.x < 0.0 ? (d.y < 0.0 ? r.x : r.w) : (d.y < 0.0 ? r.y : r.z);
    float inset = rad;
#ifdef CA_CONTINUOUS
    if (continuous && rad > 0.0) {
        float ext = min(rad * 1.528665, min(e.x, e.y));
        vec2 q = abs(d) - e + ext;
        if (q.x > 0.0 && q.y > 0.0) {
            vec2 u = q / ext;
            float n = pow(pow(u.x, 3.3) + pow(u.y, 3.3), 1.0 / 3.3);
            // d/dq of (n − 1)·ext = u^2.3 · n^−2.3
            return vec3((n - 1.0) * ext, pow(u, vec2(2.3)) * pow(n, -2.3) * side);
        }
        inset = ext;
    }
#endif
    vec2 q = abs(d) - e + inset;
    if (q.x > 0.0 && q.y > 0.0) {
        float l = length(q);
        return vec3(l - rad, q / l * side);
    }
    return vec3(max(q.x, q.y) - inset, (q.x > q.y ? vec2(side.x, 0.0) : vec2(0.0, side.y)));
}

// The field an instance's own shape uses. Circular corners under a similarity transform need
// no gradient (an exact distance field has unit gradient): the branch-free distance is enough,
// and on a software rasteriser, which runs both sides of every branch, it is much cheaper.
vec3 shapeField(vec2 p, vec2 c, vec2 e, vec4 r, bool continuous) {
#if defined(CA_PROJECTIVE) || defined(CA_CONTINUOUS)
    return roundRectField(p, c, e, r, continuous);
#else
    vec2 d = p - c;
    float rad = d.x < 0.0 ? (d.y < 0.0 ? r.x : r.w) : (d.y < 0.0 ? r.y : r.z);
    vec2 q = abs(d) - e + rad;
    return vec3(length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - rad, 1.0, 0.0);
#endif
}

#ifdef CA_FRAGMENT
// Pixels per plane unit of the instance being shaded, set by main() from a flat varying.
// Under a similarity transform (translation, rotation, uniform scale) the plane gradient
// carries to the screen scaled by this constant, so coverage needs no derivatives;
// CA_PROJECTIVE (skew, non-uniform scale, perspective) carries it through p's derivatives.
float g_pxPerUnit = 1.0;

// Coverage of a field (distance, plane gradient) at plane point p through p's screen
// derivatives: valid for any transform (smooth everywhere).
float coverageJ(vec3 field, vec2 p) {
    vec2 px = dFdx(p), py = dFdy(p);
    float w = length(vec2(dot(field.yz, px), dot(field.yz, py)));
    return clamp(0.5 - field.x / max(w, 1e-6), 0.0, 1.0);
}

// Analytic coverage of a field (distance, plane gradient; negative inside): half a pixel
// either side of the edge.
float coverage(vec3 field, vec2 p) {
#ifdef CA_PROJECTIVE
    return coverageJ(field, p);
#else
    // The distance to the edge is f / |gradient| plane units, times the constant scale.
    return clamp(0.5 - field.x * g_pxPerUnit / max(length(field.yz), 1e-6), 0.0, 1.0);
#endif
}

int nearestEdgeBit(vec2 p, vec4 rect) {
    vec2 d = p - (rect.xy + 0.5 * rect.zw);
    vec2 o = abs(d) - 0.5 * rect.zw;
    return o.x > o.y ? (d.x < 0.0 ? 1 : 2) : (d.y < 0.0 ? 4 : 8);
}

// Coverage with edgeAntialiasingMask (docs/BEHAVIOUR.md N5: left 1, right 2, bottom (min y) 4,
// top (max y) 8): the nearest edge's bit decides between smooth and hard.
float edgeCoverage(vec3 field, vec2 p, vec4 rect, int aaMask) {
    float soft = coverage(field, p);
#ifdef CA_EDGE_MASK
    if (aaMask == 15 || (aaMask & nearestEdgeBit(p, rect)) != 0) return soft;
    return field.x <= 0.0 ? 1.0 : 0.0;
#else
    return soft;
#endif
}

float shapeCoverage(vec2 p, vec4 rect, vec4 radii, bool continuous, int aaMask) {
    vec3 field = shapeField(p, rect.xy + 0.5 * rect.zw, 0.5 * rect.zw, radii, continuous);
    return edgeCoverage(field, p, rect, aaMask);
}

// Coverage of clip `index` (0 = none) at a frame pixel. The clip's plane has its own
// scale, so its edge width is always measured through derivatives.
float clipCoverage(vec2 framePixel, int index) {
#ifndef CA_CLIP
    return 1.0;
#else
    if (index == 0) return 1.0;
    vec4 h0 = texelFetch(u_clips, ivec2(0, index), 0);
    vec4 h1 = texelFetch(u_clips, ivec2(1, index), 0);
    vec4 h2 = texelFetch(u_clips, ivec2(2, index), 0);
    vec4 rect = texelFetch(u_clips, ivec2(3, index), 0);
    vec4 radii = texelFetch(u_clips, ivec2(4, index), 0);
    vec3 q = framePixel.x * h0.xyz + framePixel.y * h1.xyz + h2.xyz;
    vec2 p = q.xy / q.z;
    return coverageJ(roundRectField(p, rect.xy + 0.5 * rect.zw, 0.5 * rect.zw, radii, h0.w > 0.5), p);
#endif
}

vec2 framePixel() { return vec2(gl_FragCoord.x, u_flip > 0.0 ? gl_FragCoord.y : u_viewport.w - gl_FragCoord.y) + u_viewport.xy; }
#endif

// Pixels per plane unit of a homography (for AA margins).
float planeScale(vec4 h0, vec4 h1, vec4 h2) {
    return sqrt(abs(h0.x * h1.y - h0.y * h1.x)) / max(abs(h2.z), 1e-9);
}
