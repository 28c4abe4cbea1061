// box.vert's outputs: lengths in pixels under a similarity (g_pxPerUnit stays 1), the point
// relative to the rect's centre.
in vec2 v_local;
flat in vec2 v_half;
flat in vec4 v_radii;
flat in uvec4 v_colors;     // fill and border as 16-bit pairs (box.vert's ca_packUnorm2)
#ifdef CA_BORDER
flat in vec2 v_borderFade;
#endif
#ifdef CA_BLUR
flat in float v_sigma;
#endif
#ifdef CA_CLIP
flat in int v_clip;
#else
const int v_clip = 0;
#endif
#if defined(CA_EDGE_MASK) || defined(CA_CONTINUOUS)
flat in int v_flags;
#else
const int v_flags = 0;
#endif
out vec4 o_color;

vec2 ca_unpackUnorm2(uint u) { return vec2(float(u & 0xFFFFu), float(u >> 16)) / 65535.0; }

// erf by Abramowitz–Stegun 7.1.26 (|error| < 1.5e-7), for the blurred box.
float erfApprox(float x) {
    float s = sign(x);
    x = abs(x);
    float t = 1.0 / (1.0 + 0.3275911 * x);
    float y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * exp(-x * x);
    return s * y;
}

// The shadow kernel: a Gaussian cut at 2.5σ and renormalised (ShadowSpec.cutInSigmas, the
// same kernel as blur.frag). kernelCDF2(t) = 2·∫[−∞, t] − 1, in [−1, 1].
const float CUT = 2.5;
const float ERF_CUT = 0.98758067;   // erf(2.5 / √2)

float kernelCDF2(float t, float sigma) {
    float r = CUT * sigma;
    return clamp(erfApprox(clamp(t, -r, r) / (sigma * 1.41421356)) / ERF_CUT, -1.0, 1.0);
}

// Share of the kernel centred at 0 that falls in [a, b].
float kernelMass(float a, float b, float sigma) {
    return 0.5 * (kernelCDF2(b, sigma) - kernelCDF2(a, sigma));
}

// Blurred coverage at p of the rectangle lo..hi whose four corners are quarter ellipses of
// half-axes c (c = 0: a plain rectangle; c = half the size: an ellipse). Exact along x (the
// kernel's CDF at the row's two ends); along y the rows within the kernel's reach are summed
// in slices weighted by the kernel's exact mass over each slice: straight rows in one slice,
// each corner zone in eight.
float blurredShape(vec2 p, vec2 lo, vec2 hi, vec2 c, float sigma) {
    float r = CUT * sigma;
    float y0 = max(lo.y, p.y - r), y1 = min(hi.y, p.y + r);
    if (y0 >= y1 || p.x < lo.x - r || p.x > hi.x + r) return 0.0;
    float full = kernelMass(lo.x - p.x, hi.x - p.x, sigma);
    if (c.x <= 0.0 || c.y <= 0.0) return full * kernelMass(y0 - p.y, y1 - p.y, sigma);
    float sum = 0.0;
    // Straight middle rows.
    float m0 = max(y0, lo.y + c.y), m1 = min(y1, hi.y - c.y);
    if (m1 > m0) sum += full * kernelMass(m0 - p.y, m1 - p.y, sigma);
    // The two corner zones.
    for (int zone = 0; zone < 2; zone++) {
        float z0 = zone == 0 ? lo.y : hi.y - c.y;
        float z1 = zone == 0 ? lo.y + c.y : hi.y;
        float a = max(y0, z0), b = min(y1, z1);
        if (b <= a) continue;
        float step = (b - a) / 8.0;
        for (int i = 0; i < 8; i++) {
            float s0 = a + step * float(i);
            float ym = s0 + 0.5 * step;
            float e = zone == 0 ? (lo.y + c.y - ym) / c.y : (ym - (hi.y - c.y)) / c.y;
            float inset = c.x * (1.0 - sqrt(max(1.0 - e * e, 0.0)));
            float row = kernelMass(lo.x + inset - p.x, hi.x - inset - p.x, sigma);
            sum += row * kernelMass(s0 - p.y, s0 + step - p.y, sigma);
        }
    }
    return sum;
}

#ifdef CA_DEPTH_PREPASS
// The pre-pass writes depth only (colour writes are off): nothing to compute.
void main() { o_color = vec4(0.0); }
#else
#ifdef CA_PLANE_DEPTH
// An opaque transform-layer plane is drawn in two phases (GLRenderer's plane runs): 1 keeps
// only its opaque pixels, which write depth, so intersecting planes decide every opaque pixel
// by depth whatever their order; 2 keeps only its antialiased fringe, blended (no depth write)
// after every plane's opaque pixels, so a nearer plane's fringe lies over a farther plane
// drawn after it instead of under it. 0 draws both at once.
uniform int u_planeFringe;
void planePhase(float alpha) {
    if (u_planeFringe == 1 && alpha < 0.998) discard;
    if (u_planeFringe == 2 && alpha >= 0.998) discard;
}
#else
void planePhase(float alpha) {}
#endif
void main() {
    vec4 v_fill = vec4(ca_unpackUnorm2(v_colors.x), ca_unpackUnorm2(v_colors.y));
    vec4 v_border = vec4(ca_unpackUnorm2(v_colors.z), ca_unpackUnorm2(v_colors.w));
    int aa = v_flags & CA_FLAG_EDGE_MASK;
    bool continuous = (v_flags & CA_FLAG_CONTINUOUS) != 0;
    float clip = clipCoverage(framePixel(), v_clip);
    vec4 rect = vec4(-v_half, 2.0 * v_half);
#ifdef CA_BLUR
    // A batch with shadows holds the plain boxes between them too (FrameWriter.appendBatch
    // merges the two variants, so 100 shadowed layers are one draw): params.y > 0 marks a
    // shadow instance; every other instance takes the plain path below.
    if (v_sigma > 0.0) {
        // A shadowPath shape convolved with the shadow kernel; radii.xy are its corners'
        // half-axes (ShadowEmitter.emitShape).
        float cov = blurredShape(v_local, -v_half, v_half, v_radii.xy, v_sigma);
        o_color = v_fill * (cov * clip);
        return;
    }
#endif
#if defined(CA_INTERIOR_EARLY) && !defined(CA_PROJECTIVE)
    // Deep inside (every corner's zone and the border more than half a pixel away): both
    // fields' coverage is exactly 1 and the ring 0, so the colour is the fill.
    float corner = max(max(v_radii.x, v_radii.y), max(v_radii.z, v_radii.w)) * 1.528665;
#ifdef CA_BORDER
    corner += v_borderFade.x;
#endif
    if (all(lessThan(abs(v_local), v_half - (corner + 0.5)))) { planePhase(v_fill.a * clip); o_color = v_fill * clip; return; }
#endif
    vec3 fo = shapeField(v_local, vec2(0.0), v_half, v_radii, continuous);
    float outer = edgeCoverage(fo, v_local, rect, aa);
    // A border-only box's fill and a fill-only box's border are zero (box.vert).
    vec4 fill = v_fill * outer;
    vec4 color = fill;
#ifdef CA_BORDER
    float bw = v_borderFade.x;
    vec2 innerHalf = max(v_half - bw, vec2(0.0));
    vec3 fi = shapeField(v_local, vec2(0.0), innerHalf, max(v_radii - bw, vec4(0.0)), continuous);
    float inner = innerHalf.x > 0.0 && innerHalf.y > 0.0 ? coverage(fi, v_local) : 0.0;
    float ring = clamp(outer - inner, 0.0, 1.0);
    vec4 b = v_border * ring;
    // Border over background. With group opacity (params.z = the faded opacity, N4) the
    // border hides the background by its own alpha before the fade, so no background
    // shows through an opaque border; otherwise each piece fades on its own.
    float hides = v_borderFade.y > 0.0 ? min(b.a / v_borderFade.y, 1.0) : b.a;
    color = b + fill * (1.0 - hides);
#endif
    planePhase(color.a * clip);
    o_color = color * clip;
}
#endif
