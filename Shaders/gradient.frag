in vec2 v_local;
flat in vec4 v_rect;
flat in vec4 v_radii;
flat in vec4 v_points;
flat in vec4 v_params;
flat in int v_clip;
flat in int v_flags;
flat in float v_pxPerUnit;
uniform sampler2D u_ramps;
uniform float u_rampRows;
out vec4 o_color;

// Interleaved gradient noise: a cheap, stable per-pixel threshold for dithering to 8 bits.
float ign(vec2 p) { return fract(52.9829189 * fract(dot(p, vec2(0.06711056, 0.00583715)))); }

void main() {
    g_pxPerUnit = v_pxPerUnit;
    vec2 s = v_points.xy, e = v_points.zw;
    vec2 d = v_local - s;
    vec2 axis = e - s;
    float t;
#if defined(CA_RADIAL)
    {
        // radial: an ellipse centred at startPoint whose radii reach endPoint.
        vec2 r = max(abs(axis), vec2(1e-6));
        t = length(d / r);
    }
#elif defined(CA_CONIC)
    {
        // conic: the angle around startPoint, measured from the direction of endPoint.
        float a = atan(d.y, d.x) - atan(axis.y, axis.x);
        t = fract(a / 6.28318531 + 1.0);
    }
#else
    t = dot(d, axis) / max(dot(axis, axis), 1e-12);
#endif
    t = clamp(t, 0.0, 1.0);
    vec2 uv = vec2((t * 255.0 + 0.5) / 256.0, (v_params.y + 0.5) / u_rampRows);
    vec4 c = texture(u_ramps, uv);
    // Dither: ±half a step of 8-bit noise keeps long, shallow ramps free of bands.
    c.rgb += (ign(gl_FragCoord.xy) - 0.5) / 255.0 * c.a;
    c = clamp(c, 0.0, 1.0);
    c.rgb = min(c.rgb, vec3(c.a));
    float cov = shapeCoverage(v_local, v_rect, v_radii, (v_flags & 16) != 0, v_flags & 15);
    o_color = c * (v_params.z * cov * clipCoverage(framePixel(), v_clip));
}
