// Box pipeline: a layer's background and border as one instanced rounded rectangle.
layout(location = 0) in vec4 i_h0;
layout(location = 1) in vec4 i_h1;
layout(location = 2) in vec4 i_h2;
layout(location = 3) in vec4 i_rect;
layout(location = 4) in vec4 i_radii;
layout(location = 5) in vec4 i_fill;
layout(location = 6) in vec4 i_border;
layout(location = 7) in vec4 i_params;

out vec2 v_local;
flat out vec4 v_rect;
flat out vec4 v_radii;
flat out vec4 v_fill;
flat out vec4 v_border;
flat out vec4 v_params;
flat out int v_clip;
flat out int v_flags;
flat out float v_pxPerUnit;

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
    float fringe = 0.75;   // the AA fringe is ±0.5 px about the edge
#endif
    float margin = fringe / max(planeScale(h0, h1, h2), 1e-6) + 3.0 * i_params.y;
    vec2 p = i_rect.xy - margin + corner * (i_rect.zw + 2.0 * margin);
    gl_Position = toClip(p.x * h0.xyz + p.y * h1.xyz + h2.xyz);
#ifdef CA_PLANE_DEPTH
    gl_Position.z = planeDepth(p) * gl_Position.w;
#endif
    v_local = p;
    v_rect = i_rect;
    v_radii = i_radii;
    v_fill = fill;
    v_border = border;
    v_params = i_params;
    v_clip = int(h1.w + 0.5);
    v_flags = int(h2.w + 0.5);
    v_pxPerUnit = planeScale(h0, h1, h2);
}
