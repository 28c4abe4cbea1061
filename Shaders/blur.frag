in vec2 v_uv;
uniform sampler2D u_source;
uniform vec2 u_step;     // one texel along the blur direction, in uv
uniform float u_sigma;   // pixels
out vec4 o_color;

void main() {
    // Kernel cut at 4σ (catalogue N1: coverage ends near offset + 2·shadowRadius, σ = r/2),
    // taken two texels at a time with bilinear taps; weights normalised.
    int n = int(min(ceil(4.0 * u_sigma), 128.0));
    float k = -0.5 / (u_sigma * u_sigma);
    vec4 sum = texture(u_source, v_uv);
    float total = 1.0;
    for (int i = 1; i <= n; i += 2) {
        float w0 = exp(k * float(i * i));
        float w1 = exp(k * float((i + 1) * (i + 1)));
        float w = w0 + w1;
        float o = float(i) + w1 / max(w, 1e-12);
        sum += (texture(u_source, v_uv + u_step * o) + texture(u_source, v_uv - u_step * o)) * w;
        total += 2.0 * w;
    }
    o_color = sum / total;
}
