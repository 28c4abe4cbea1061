// Composite pipeline: an offscreen result placed back as a pixel-aligned quad.
layout(location = 0) in vec4 i_dst;
layout(location = 1) in vec4 i_src;
layout(location = 2) in vec4 i_color;
layout(location = 3) in vec4 i_params;

out vec2 v_uv;
out vec2 v_maskUV;
flat out vec4 v_color;
flat out int v_clip;
flat out int v_mode;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec2 p = i_dst.xy + corner * i_dst.zw;
    gl_Position = toClip(vec3(p, 1.0));
    v_uv = corner;
    // A mask target covers the source's own pixels (i_src): it is sampled where the quad
    // lands, so an offset shadow is masked in place, not shifted with the shadow.
    v_maskUV = (p - i_src.xy) / max(i_src.zw, vec2(1.0));
    v_color = i_color;
    v_clip = int(i_params.y + 0.5);
    v_mode = int(i_params.z + 0.5);
}
