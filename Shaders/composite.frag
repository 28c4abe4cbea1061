in vec2 v_uv;
flat in vec4 v_color;
flat in int v_clip;
flat in int v_mode;
uniform sampler2D u_source;
uniform sampler2D u_mask;
uniform bool u_hasMask;
out vec4 o_color;

void main() {
    vec4 s = texture(u_source, v_uv);
    // Mode 0: the group at its opacity. Mode 1: a shadow, the colour at the source's alpha.
    // Mode 2: a cross-dissolve, the mask slot holding the picture faded out (CATransition fade).
    vec4 c;
    if (v_mode == 2) {
        c = mix(texture(u_mask, v_uv), s, v_color.a);
    } else {
        c = v_mode == 1 ? v_color * s.a : s * v_color.a;
        if (u_hasMask) c *= texture(u_mask, v_uv).a;
    }
    o_color = c * clipCoverage(framePixel(), v_clip);
}
