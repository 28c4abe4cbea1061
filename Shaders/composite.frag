in vec2 v_uv;
in vec2 v_maskUV;
flat in vec4 v_color;
flat in int v_clip;
flat in int v_mode;
uniform sampler2D u_source;
uniform sampler2D u_mask;
out vec4 o_color;

void main() {
    vec4 s = texture(u_source, v_uv);
    // Mode 0: the group at its opacity. Mode 1: a shadow, the colour at the source's alpha.
    // Mode 2: a cross-dissolve, the mask slot holding the picture faded out (CATransition fade).
    vec4 c;
    if (v_mode == 2) {
#ifdef CA_MASK
        c = mix(texture(u_mask, v_uv), s, v_color.a);
#else
        c = s * v_color.a;
#endif
    } else {
        c = v_mode == 1 ? v_color * s.a : s * v_color.a;
#ifdef CA_MASK
        // Nothing of the mask exists outside its target (docs/BEHAVIOUR.md M8: outside the mask's
        // rendered subtree the layer is hidden).
        bool inside = all(greaterThanEqual(v_maskUV, vec2(0.0))) && all(lessThanEqual(v_maskUV, vec2(1.0)));
        c *= inside ? texture(u_mask, v_maskUV).a : 0.0;
#endif
    }
    o_color = c * clipCoverage(framePixel(), v_clip);
}
