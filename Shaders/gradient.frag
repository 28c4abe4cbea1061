in vec2 v_local;
flat in vec4 v_rect;
flat in vec4 v_radii;
flat in vec4 v_points;
flat in vec4 v_params;
flat in int v_clip;
flat in int v_flags;
flat in float v_pxPerUnit;
uniform sampler2D u_ramps;   // RGBA32F, premultiplied, one row per gradient layer
uniform float u_rampRows;
out vec4 o_color;

// Interleaved gradient noise: a cheap, stable per-pixel threshold in [0, 1) for dithering.
float ign(vec2 p) { return fract(52.9829189 * fract(dot(p, vec2(0.06711056, 0.00583715)))); }

void main() {
    g_pxPerUnit = v_pxPerUnit;
    vec2 s = v_points.xy, e = v_points.zw;
    vec2 d = v_local - s;
    vec2 axis = e - s;
    float t;
#if defined(CA_RADIAL) && defined(CA_CONIC)
    {
        // Focal radial (GradientLayerState.focalPoint, SVG 1.1 §13.2.3): points = (centre,
        // focal point), params.w = radius. The largest t with |p − f − t·(c − f)| = t·r:
        // t²(e·e − r²) − 2t(d·e) + d·d = 0 with d = p − f, e = c − f; e·e < r² (the focal
        // point is inside), so the root below is the positive one.
        vec2 f = v_points.zw;
        vec2 dd = v_local - f, ee = s - f;
        float r = max(v_params.w, 1e-6);
        float a = min(dot(ee, ee) - r * r, -1e-6 * r * r);
        float b = dot(dd, ee);
        t = (b - sqrt(max(b * b - a * dot(dd, dd), 0.0))) / a;
    }
#elif defined(CA_RADIAL)
    {
        // Radial (CAGradientLayerType.radial doc): an ellipse centred at startPoint whose
        // width and height are 2·|endPoint − startPoint| along x and y.
        vec2 r = max(abs(axis), vec2(1e-6));
        t = length(d / r);
    }
#elif defined(CA_CONIC)
    {
        // Conic (CAGradientLayerType.conic doc): the angle around startPoint from the direction
        // of endPoint, 0° when the two points coincide. The angle grows toward +y of the layer
        // (clockwise on a y-down display), a full turn spanning the ramp.
        float a0 = dot(axis, axis) > 1e-12 ? atan(axis.y, axis.x) : 0.0;
        float a = dot(d, d) > 1e-12 ? atan(d.y, d.x) : a0;
        t = fract((a - a0) / 6.28318531 + 1.0);
    }
#else
    t = dot(d, axis) / max(dot(axis, axis), 1e-12);
#endif
    t = clamp(t, 0.0, 1.0);
    // Texel centres of a row sit at t = 0 and t = 1 exactly.
    float w = float(textureSize(u_ramps, 0).x);
    vec2 uv = vec2((t * (w - 1.0) + 0.5) / w, (v_params.y + 0.5) / u_rampRows);
    vec4 c = textureLod(u_ramps, uv, 0.0);
    // Dither to 8 bits: the ramp keeps fractions between levels; ±half a level of noise before
    // the target's rounding turns them into a fine pattern whose average is the true value,
    // instead of bands one level wide (several dozen pixels on a long, shallow ramp).
    // Alpha is dithered only where translucent (an opaque ramp must stay exactly opaque).
    float n = (ign(gl_FragCoord.xy) - 0.5) / 255.0;
    c += c.a > 0.0 ? vec4(n, n, n, c.a < 1.0 ? n : 0.0) : vec4(0.0);
    c = clamp(c, 0.0, 1.0);
    c.rgb = min(c.rgb, vec3(c.a));
    float cov = shapeCoverage(v_local, v_rect, v_radii, (v_flags & CA_FLAG_CONTINUOUS) != 0, v_flags & CA_FLAG_EDGE_MASK);
    o_color = c * (v_params.z * cov * clipCoverage(framePixel(), v_clip));
}
