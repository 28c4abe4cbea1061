// Box pipeline: a layer's background and border as one instanced rounded rectangle.
layout(location = 0) in vec4 i_h0;
layout(location = 1) in vec4 i_h1;
layout(location = 2) in vec4 i_h2;
layout(location = 3) in vec4 i_rect;
layout(location = 4) in vec4 i_radii;
layout(location = 5) in vec4 i_fill;
layout(location = 6) in vec4 i_border;
layout(location = 7) in vec4 i_params;

// What the fragment stage reads is kept to what the variant uses: on NVIDIA's H200 these
// small instanced quads were bound by the values each fragment reads, not by arithmetic (16
// more flat floats made the raw-GL floor's 10,000 boxes 0.38 → 0.66 ms of GPU time, docs/
// PERFORMANCE.md "On an NVIDIA GPU (H200), 2026-11-27"), and llvmpipe sets up every one per
// triangle. So the point is relative to the rect's centre (no rect origin), lengths are in
// pixels under a similarity (no scale to pass; plane units under CA_PROJECTIVE, whose coverage
// uses derivatives), and flags, clip, border and blur values exist only in the variants that
// read them.
out vec2 v_local;           // the point relative to the rect's centre
flat out vec2 v_half;       // half the rect's size
flat out vec4 v_radii;      // corner radii (shapeField's order)
// Fill and border (premultiplied; the fill zero for a border-only box, the border zero for a
// fill-only one) as 16-bit unsigned-normalised pairs (ca_packUnorm2): 4 values read per fragment
// instead of 8, exact to 1/131070 (0.002/255; half floats' 2⁻¹¹ was visible through colour
// burn's division). Components are clamped to 0…1 first, as the 8-bit sRGB target holds them
// and as Core Graphics clamps a colour to its space's range (CGColor(colorSpace:components:)).
flat out uvec4 v_colors;

uint ca_packUnorm2(vec2 v) {
    uvec2 u = uvec2(round(clamp(v, 0.0, 1.0) * 65535.0));
    return u.x | (u.y << 16);
}
#ifdef CA_BORDER
flat out vec2 v_borderFade; // border width, and the group-opacity fade (params.z, N4)
#endif
#ifdef CA_BLUR
flat out float v_sigma;     // a shadow instance's blur (0 for the plain boxes beside it)
#endif
#ifdef CA_CLIP
flat out int v_clip;
#endif
#if defined(CA_EDGE_MASK) || defined(CA_CONTINUOUS)
flat out int v_flags;
#endif

#ifdef CA_PLANE_DEPTH
// An opaque CATransformLayer plane through the depth buffer (ShaderVariant.planeDepth,
// DepthPlane): its depth after the divide is the ratio u_planeNum·(p, 1) / u_planeDen·(p, 1),
// 0 at its group's farthest point and 1 at its nearest, put between the group's paint-order
// depths u_planeRange.x (far) and .y (near), less the bias .z. Depth is interpolated linearly in
// screen space, which is exact for a plane seen through the same perspective.
uniform vec4 u_planeNum;
uniform vec4 u_planeDen;
uniform vec4 u_planeRange;

float planeDepth(vec2 p) {
    float zn = dot(u_planeNum.xyz, vec3(p, 1.0)) / dot(u_planeDen.xyz, vec3(p, 1.0));
    return mix(u_planeRange.x, u_planeRange.y, zn) - u_planeRange.z;
}
#endif

#ifdef CA_REPLICATED
// A replicator's copies of this one instance (ShaderVariant.replicated, ReplicaDraw): copy
// gl_InstanceID is k0 + n0·(k1 + n1·…), level l's copy k_l a row of u_replicas (4 RGBA32F
// texels from texel 4·(u_replicaRows[l] + k_l), 1024 a row): the pixel map's rows m0, m1, m2
// (frame pixels → frame pixels, row vectors) and the premultiplied tint. Levels apply innermost
// first, as the CPU path moves an inner copy and then the outer copy that holds it.
uniform sampler2D u_replicas;
uniform int u_replicaLevels;
uniform ivec4 u_replicaCounts;
uniform ivec4 u_replicaRows;

vec4 replicaTexel(int t) { return texelFetch(u_replicas, ivec2(t & 1023, t >> 10), 0); }

// Composes the copy's maps into the plane-to-pixel rows h0…h2 (their w parts kept) and
// returns the copy's tint.
vec4 replicate(inout vec4 h0, inout vec4 h1, inout vec4 h2) {
    int c = gl_InstanceID;
    vec4 tint = vec4(1.0);
    for (int l = 0; l < u_replicaLevels; l++) {
        int n = u_replicaCounts[l];
        int t = 4 * (u_replicaRows[l] + c % n);
        c /= n;
        vec3 m0 = replicaTexel(t).xyz, m1 = replicaTexel(t + 1).xyz, m2 = replicaTexel(t + 2).xyz;
        h0.xyz = h0.x * m0 + h0.y * m1 + h0.z * m2;
        h1.xyz = h1.x * m0 + h1.y * m1 + h1.z * m2;
        h2.xyz = h2.x * m0 + h2.y * m1 + h2.z * m2;
        tint *= replicaTexel(t + 3);
    }
    return tint;
}
#endif

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec4 h0 = i_h0, h1 = i_h1, h2 = i_h2;
    vec4 fill = i_fill, border = i_border;
#ifdef CA_REPLICATED
    vec4 tint = replicate(h0, h1, h2);
    fill *= tint;
    border *= tint;
#endif
#ifdef CA_DEPTH_PREPASS
    // An opaque interior (already inset from every edge, corner and border): exactly its rect,
    // at its own paint order (i_params.w).
    ca_prepassOrder = i_params.w;
    vec2 q = i_rect.xy + corner * i_rect.zw;
    gl_Position = toClip(q.x * h0.xyz + q.y * h1.xyz + h2.xyz);
#ifdef CA_PLANE_DEPTH
    gl_Position.z = planeDepth(q) * gl_Position.w;
#endif
    return;
#endif
    // Grow the quad by a pixel for the antialiased edge (or by the blur's reach) in plane units.
#ifdef CA_PROJECTIVE
    float fringe = 1.5;
#else
    // Under a similarity a pixel's coverage is clamp(0.5 − d) for d its distance in pixels to
    // the shape, so only centres within 0.5 px of it are painted, and the rect grown by 0.5 px
    // each way holds them all (it holds the rect's 0.5 px neighbourhood). 0.75 shaded 8 % more
    // fragments of a 15×8.5 px box, all of coverage 0.
    float fringe = 0.5;
#endif
    float scale = planeScale(h0, h1, h2);
    float margin = fringe / max(scale, 1e-6) + 3.0 * i_params.y;
    vec2 p = i_rect.xy - margin + corner * (i_rect.zw + 2.0 * margin);
    gl_Position = toClip(p.x * h0.xyz + p.y * h1.xyz + h2.xyz);
#ifdef CA_PLANE_DEPTH
    gl_Position.z = planeDepth(p) * gl_Position.w;
#endif
#ifdef CA_PROJECTIVE
    // Coverage goes through the point's screen derivatives (coverageJ), whatever the unit.
    float unit = 1.0;
#else
    // Pixels per plane unit: every length the fragment stage compares in pixels.
    float unit = scale;
#endif
    vec2 halfSize = 0.5 * i_rect.zw;
    v_local = (p - (i_rect.xy + halfSize)) * unit;
    v_half = halfSize * unit;
    v_radii = i_radii * unit;
    int flags = int(h2.w + 0.5);
    if ((flags & CA_FLAG_BORDER_ONLY) != 0) fill = vec4(0.0);
    if ((flags & CA_FLAG_FILL_ONLY) != 0) border = vec4(0.0);
    v_colors = uvec4(ca_packUnorm2(fill.rg), ca_packUnorm2(fill.ba), ca_packUnorm2(border.rg), ca_packUnorm2(border.ba));
#ifdef CA_BORDER
    v_borderFade = vec2(i_params.x * unit, i_params.z);
#endif
#ifdef CA_BLUR
    v_sigma = i_params.y * unit;
#endif
#ifdef CA_CLIP
    v_clip = int(h1.w + 0.5);
#endif
#if defined(CA_EDGE_MASK) || defined(CA_CONTINUOUS)
    v_flags = flags;
#endif
}
