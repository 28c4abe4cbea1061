in vec2 v_local;
flat in vec4 v_rect;
flat in vec4 v_radii;
flat in vec4 v_fill;
flat in vec4 v_border;
flat in vec4 v_params;
flat in int v_clip;
flat in int v_flags;
flat in float v_pxPerUnit;
out vec4 o_color;

// erf by Abramowitz–Stegun 7.1.26 (|error| < 1.5e-7), for the blurred box.
float erfApprox(float x) {
    float s = sign(x);
    x = abs(x);
    float t = 1.0 / (1.0 + 0.3275911 * x);
    float y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * exp(-x * x);
    return s * y;
}

void main() {
    g_pxPerUnit = v_pxPerUnit;
    int aa = v_flags & 15;
    bool continuous = (v_flags & 16) != 0;
    float clip = clipCoverage(framePixel(), v_clip);
#ifdef CA_BLUR
    float sigma = v_params.y;
    {
        // A rectangle convolved with a Gaussian: the product of two 1-D erf differences.
        vec2 lo = v_rect.xy, hi = v_rect.xy + v_rect.zw;
        float k = 1.0 / (sigma * 1.41421356);
        float cx = 0.5 * (erfApprox((hi.x - v_local.x) * k) - erfApprox((lo.x - v_local.x) * k));
        float cy = 0.5 * (erfApprox((hi.y - v_local.y) * k) - erfApprox((lo.y - v_local.y) * k));
        o_color = v_fill * (cx * cy * clip);
        return;
    }
#endif
    vec2 c = v_rect.xy + 0.5 * v_rect.zw;
    vec3 fo = shapeField(v_local, c, 0.5 * v_rect.zw, v_radii, continuous);
    float outer = edgeCoverage(fo, v_local, v_rect, aa);
    vec4 fill = (v_flags & 64) != 0 ? vec4(0.0) : v_fill * outer;
    vec4 color = fill;
#ifdef CA_BORDER
    float bw = v_params.x;
    if ((v_flags & 32) == 0) {
        vec2 innerHalf = max(0.5 * v_rect.zw - bw, vec2(0.0));
        vec3 fi = shapeField(v_local, c, innerHalf, max(v_radii - bw, vec4(0.0)), continuous);
        float inner = innerHalf.x > 0.0 && innerHalf.y > 0.0 ? coverage(fi, v_local) : 0.0;
        float ring = clamp(outer - inner, 0.0, 1.0);
        vec4 b = v_border * ring;
        // Border over background. With group opacity (params.z = the faded opacity, N4) the
        // border hides the background by its own alpha before the fade, so no background
        // shows through an opaque border; otherwise each piece fades on its own.
        float hides = v_params.z > 0.0 ? min(b.a / v_params.z, 1.0) : b.a;
        color = b + fill * (1.0 - hides);
    }
#endif
    o_color = color * clip;
}
