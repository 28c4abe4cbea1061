in vec2 v_uv;
uniform sampler2D u_source;
uniform vec2 u_step;     // one texel along the blur direction, in uv
uniform float u_sigma;   // pixels
out vec4 o_color;

// One direction of a separable Gaussian. The kernel is cut at 2.5σ (ShadowSpec.cutInSigmas:
// a shadow reaches 2·shadowRadius with σ = 0.8·shadowRadius, docs/BEHAVIOUR.md N1) and its weights
// are normalised, so a large shape keeps full strength inside and half at its edge. Taps go
// two texels at a time through bilinear filtering; at most 256 texels each side (σ ≈ 100 px),
// beyond which the kernel is cut short.
// Filters (CIGaussianBlur, CIBloom; CA_FILTER_BLUR) cut at 3σ, where the kernel's tail is 0.27 %.
#ifdef CA_FILTER_BLUR
const float CUT = 3.0;
#else
const float CUT = 2.5;
#endif

void main() {
    int n = int(min(floor(CUT * u_sigma + 1e-3), 256.0));
    float k = -0.5 / (u_sigma * u_sigma);
    vec4 sum = texture(u_source, v_uv);
    float total = 1.0;
    for (int i = 1; i <= n; i += 2) {
        float w0 = exp(k * float(i * i));
        float w1 = i + 1 <= n ? exp(k * float((i + 1) * (i + 1))) : 0.0;
        float w = w0 + w1;
        float o = float(i) + w1 / w;
        sum += (texture(u_source, v_uv + u_step * o) + texture(u_source, v_uv - u_step * o)) * w;
        total += 2.0 * w;
    }
    o_color = sum / total;
}
