in vec2 v_uv;
flat in vec4 v_color;
flat in int v_clip;
flat in int v_mode;
uniform sampler2D u_source;
uniform sampler2D u_mask;
out vec4 o_color;

void main() {
    vec4 s = texture(u_source, v_uv);
    // Mode 0: the group at its opacity. Mode 1: a shadow, the colour at the source's alpha.
    vec4 c = v_mode == 1 ? v_color * s.a : s * v_color.a;
#ifdef CA_MASK
    c *= texture(u_mask, v_uv).a;
#endif
    o_color = c * clipCoverage(framePixel(), v_clip);
}
