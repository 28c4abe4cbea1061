// Image pipeline: `contents` pieces as textured quads on the layer's plane.
#ifdef CA_PARTICLE
// A particle (ShaderVariant.particle): the image pipeline's instance, but a plain quad — no
// shape of its own beyond its rect, square corners, every edge antialiased, linear filters,
// a similarity transform — so it hands the fragment stage four varyings (14 values) instead
// of nine, and grows the quad by 0.5 px instead of 1.5 (a similarity's AA fringe, box.vert):
// fewer interpolants per triangle (llvmpipe), fewer values read per fragment (NVIDIA), and a
// 9 px square shaded instead of an 11 px one for an 8 px particle. The pixels are those of
// the general path: the fragments dropped have zero coverage there.
layout(location = 0) in vec4 i_h0;
layout(location = 1) in vec4 i_h1;
layout(location = 2) in vec4 i_h2;
layout(location = 3) in vec4 i_rect;
layout(location = 4) in vec4 i_uv;
layout(location = 5) in vec4 i_tint;
layout(location = 8) in vec4 i_atlas;

out vec4 v_localUV;          // xy: the point relative to the centre, in pixels; zw: its image uv
flat out vec4 v_tint;
flat out vec4 v_atlas;
flat out vec2 v_half;        // half size, in pixels (the point in v_localUV.xy likewise,
                             // relative to the centre: image.frag reads as few values as it can)
#ifdef CA_CLIP
flat out int v_clip;
#endif

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    float scale = planeScale(i_h0, i_h1, i_h2);
    float m = 0.5 / max(scale, 1e-6);   // a similarity's AA fringe (box.vert)
    vec2 lo = i_rect.xy, hi = i_rect.xy + i_rect.zw;
    vec2 p = mix(lo - m, hi + m, corner);
    gl_Position = toClip(p.x * i_h0.xyz + p.y * i_h1.xyz + i_h2.xyz);
    vec2 t = (p - lo) / max(i_rect.zw, vec2(1e-9));
    v_localUV = vec4((p - (lo + 0.5 * i_rect.zw)) * scale, mix(i_uv.xy, i_uv.zw, t));
    v_tint = i_tint;
    v_atlas = i_atlas;
    v_half = 0.5 * i_rect.zw * scale;
#ifdef CA_CLIP
    v_clip = int(i_h1.w + 0.5);
#endif
}
#else
layout(location = 0) in vec4 i_h0;
layout(location = 1) in vec4 i_h1;
layout(location = 2) in vec4 i_h2;
layout(location = 3) in vec4 i_rect;
layout(location = 4) in vec4 i_uv;
layout(location = 5) in vec4 i_tint;
layout(location = 6) in vec4 i_shape;
layout(location = 7) in vec4 i_shapeRadii;
layout(location = 8) in vec4 i_atlas;

out vec2 v_local;
out vec2 v_uv;
flat out vec4 v_tint;
flat out vec4 v_shape;
flat out vec4 v_shapeRadii;
flat out int v_clip;
flat out int v_flags;
flat out float v_pxPerUnit;
flat out vec4 v_atlas;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    float m = 1.5 / max(planeScale(i_h0, i_h1, i_h2), 1e-6);
    // Only sides on (or beyond) the shape's edge grow for antialiasing; inner seams of a
    // nine-part image stay where they are.
    vec2 lo = i_rect.xy, hi = i_rect.xy + i_rect.zw;
    vec2 slo = i_shape.xy, shi = i_shape.xy + i_shape.zw;
    vec2 grow0 = vec2(lo.x <= slo.x + 1e-3 ? m : 0.0, lo.y <= slo.y + 1e-3 ? m : 0.0);
    vec2 grow1 = vec2(hi.x >= shi.x - 1e-3 ? m : 0.0, hi.y >= shi.y - 1e-3 ? m : 0.0);
    vec2 a = lo - grow0, b = hi + grow1;
    vec2 p = mix(a, b, corner);
    gl_Position = toClip(p.x * i_h0.xyz + p.y * i_h1.xyz + i_h2.xyz);
    v_local = p;
    vec2 t = (p - lo) / max(i_rect.zw, vec2(1e-9));
    v_uv = mix(i_uv.xy, i_uv.zw, t);
    v_tint = i_tint;
    v_shape = i_shape;
    v_shapeRadii = i_shapeRadii;
    v_clip = int(i_h1.w + 0.5);
    v_flags = int(i_h2.w + 0.5);
    v_pxPerUnit = planeScale(i_h0, i_h1, i_h2);
    v_atlas = i_atlas;
}
#endif
