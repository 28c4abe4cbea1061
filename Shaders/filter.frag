// One step of a layer's filter chain (FilterOp in Sources/CAFrame/FilterPass.swift,
// docs/FILTERS.md): reads u_source (and u_other) at the same frame pixels and writes every texel
// of the target, blending off. One program per step family (and per blend mode), so llvmpipe
// runs only the code of the step it draws.
in vec2 v_uv;
uniform sampler2D u_source;
uniform sampler2D u_other;
uniform sampler2D u_mask;
uniform vec4 u_rows[5];   // CA_FILTER_COLOR: rows r, g, b, a of the matrix, then the bias
uniform float u_power;
uniform vec4 u_params;
uniform vec4 u_extent;
out vec4 o_color;

// The sRGB transfer function (IEC 61966-2-1): colour steps work in linear light, as Core
// Image's working space does.
vec3 toLinear(vec3 c) { return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), step(0.04045, c)); }
vec3 toSRGB(vec3 c) { return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(0.0031308, c)); }
vec4 unpremultiply(vec4 p) { return p.a > 0.0 ? vec4(p.rgb / p.a, p.a) : vec4(0.0); }
// Frame pixel of this fragment (the target may be downscaled: not gl_FragCoord).
vec2 pixel() { return u_viewport.xy + v_uv * u_viewport.zw; }


#ifdef CA_FILTER_PRIMITIVE
// Filter-graph primitives (FilterPrimitivePass.swift; SVG / CSS Filter Effects): one family per
// program (CA_PRIM_<family>). u_crop: the primitive subregion in frame pixels; outside it the
// result is transparent black, and so is everything a primitive reads outside its source target.
uniform vec4 u_crop;
uniform vec4 u_table[64];   // CA_PRIM_TRANSFER: 64 samples of the r, g, b, a functions
vec4 fetchAt(sampler2D t, vec2 q) {
    vec2 uv = (q - u_viewport.xy) / u_viewport.zw;
    return (any(lessThan(uv, vec2(0.0))) || any(greaterThan(uv, vec2(1.0)))) ? vec4(0.0) : texture(t, uv);
}
float inCrop(vec2 p) {
    return (p.x >= u_crop.x && p.y >= u_crop.y && p.x < u_crop.x + u_crop.z && p.y < u_crop.y + u_crop.w) ? 1.0 : 0.0;
}
#ifdef CA_PRIM_TURBULENCE
// Filter Effects 1 § feTurbulence (TurbulenceLattice.swift): u_lattice is 256 × 3 texels, row 0
// the r and g gradients, row 1 the b and a gradients, row 2 the permutation.
uniform sampler2D u_lattice;
float lat(float i) { return texelFetch(u_lattice, ivec2(int(mod(i, 256.0)), 2), 0).r; }
vec4 corner(float b, vec2 r) {
    vec4 g0 = texelFetch(u_lattice, ivec2(int(b), 0), 0), g1 = texelFetch(u_lattice, ivec2(int(b), 1), 0);
    return vec4(dot(r, g0.xy), dot(r, g0.zw), dot(r, g1.xy), dot(r, g1.zw));
}
// noise2 of the reference for all four channels; st: stitch width, height, wrapX, wrapY.
vec4 noise4(vec2 v, vec4 st, bool stitching) {
    vec2 t = v + 4096.0;
    vec2 b0 = trunc(t), b1 = b0 + 1.0;
    vec2 r0 = t - b0, r1 = r0 - 1.0;
    if (stitching) {
        if (b0.x >= st.z) b0.x -= st.x;
        if (b1.x >= st.z) b1.x -= st.x;
        if (b0.y >= st.w) b0.y -= st.y;
        if (b1.y >= st.w) b1.y -= st.y;
    }
    b0 = mod(b0, 256.0); b1 = mod(b1, 256.0);
    float i = lat(b0.x), j = lat(b1.x);
    vec2 s = r0 * r0 * (3.0 - 2.0 * r0);
    vec4 a = mix(corner(lat(i + b0.y), r0), corner(lat(j + b0.y), vec2(r1.x, r0.y)), s.x);
    vec4 b = mix(corner(lat(i + b1.y), vec2(r0.x, r1.y)), corner(lat(j + b1.y), r1), s.x);
    return mix(a, b, s.y);
}
#endif
float transfer(int ch, float c) {
    float f = clamp(c, 0.0, 1.0) * 63.0;
    int i = int(min(floor(f), 62.0));
    return mix(u_table[i][ch], u_table[i + 1][ch], f - float(i));
}
#endif

#ifdef CA_FILTER_BLEND
// The mode comes as a define CA_BLEND_<n> (one program per mode).
#if defined(CA_BLEND_1)
#define CA_BLEND_MODE 1
#elif defined(CA_BLEND_2)
#define CA_BLEND_MODE 2
#elif defined(CA_BLEND_3)
#define CA_BLEND_MODE 3
#elif defined(CA_BLEND_4)
#define CA_BLEND_MODE 4
#elif defined(CA_BLEND_5)
#define CA_BLEND_MODE 5
#elif defined(CA_BLEND_6)
#define CA_BLEND_MODE 6
#elif defined(CA_BLEND_7)
#define CA_BLEND_MODE 7
#elif defined(CA_BLEND_8)
#define CA_BLEND_MODE 8
#elif defined(CA_BLEND_9)
#define CA_BLEND_MODE 9
#elif defined(CA_BLEND_10)
#define CA_BLEND_MODE 10
#elif defined(CA_BLEND_11)
#define CA_BLEND_MODE 11
#elif defined(CA_BLEND_12)
#define CA_BLEND_MODE 12
#elif defined(CA_BLEND_13)
#define CA_BLEND_MODE 13
#elif defined(CA_BLEND_14)
#define CA_BLEND_MODE 14
#elif defined(CA_BLEND_15)
#define CA_BLEND_MODE 15
#elif defined(CA_BLEND_16)
#define CA_BLEND_MODE 16
#elif defined(CA_BLEND_17)
#define CA_BLEND_MODE 17
#elif defined(CA_BLEND_18)
#define CA_BLEND_MODE 18
#elif defined(CA_BLEND_19)
#define CA_BLEND_MODE 19
#elif defined(CA_BLEND_20)
#define CA_BLEND_MODE 20
#else
#define CA_BLEND_MODE 0
#endif
// W3C Compositing and Blending Level 1: separable modes (§10.1–10.2) on unpremultiplied
// backdrop b and source s, non-separable (§10.3–10.4) with Lum weights 0.3, 0.59, 0.11.
float dodge(float b, float s) { return b == 0.0 ? 0.0 : (s >= 1.0 ? 1.0 : min(1.0, b / (1.0 - s))); }
float burn(float b, float s) { return b >= 1.0 ? 1.0 : (s <= 0.0 ? 0.0 : 1.0 - min(1.0, (1.0 - b) / s)); }
float hard(float b, float s) { return s <= 0.5 ? b * 2.0 * s : b + (2.0 * s - 1.0) - b * (2.0 * s - 1.0); }
float soft(float b, float s) {
    float d = b <= 0.25 ? ((16.0 * b - 12.0) * b + 4.0) * b : sqrt(b);
    return s <= 0.5 ? b - (1.0 - 2.0 * s) * b * (1.0 - b) : b + (2.0 * s - 1.0) * (d - b);
}
float lum(vec3 c) { return dot(c, vec3(0.3, 0.59, 0.11)); }
vec3 clipColor(vec3 c) {
    float l = lum(c), n = min(c.r, min(c.g, c.b)), x = max(c.r, max(c.g, c.b));
    if (n < 0.0) c = l + (c - l) * l / (l - n);
    if (x > 1.0) c = l + (c - l) * (1.0 - l) / (x - l);
    return c;
}
vec3 setLum(vec3 c, float l) { return clipColor(c + (l - lum(c))); }
float sat(vec3 c) { return max(c.r, max(c.g, c.b)) - min(c.r, min(c.g, c.b)); }
vec3 setSat(vec3 c, float s) {
    float mx = max(c.r, max(c.g, c.b)), mn = min(c.r, min(c.g, c.b));
    return mx > mn ? (c - mn) * s / (mx - mn) : vec3(0.0);
}
vec3 mixFunction(vec3 b, vec3 s) {
#if CA_BLEND_MODE == 1
    return b * s;
#elif CA_BLEND_MODE == 2
    return b + s - b * s;
#elif CA_BLEND_MODE == 3
    return vec3(hard(s.r, b.r), hard(s.g, b.g), hard(s.b, b.b));
#elif CA_BLEND_MODE == 4
    return min(b, s);
#elif CA_BLEND_MODE == 5
    return max(b, s);
#elif CA_BLEND_MODE == 6
    return vec3(dodge(b.r, s.r), dodge(b.g, s.g), dodge(b.b, s.b));
#elif CA_BLEND_MODE == 7
    return vec3(burn(b.r, s.r), burn(b.g, s.g), burn(b.b, s.b));
#elif CA_BLEND_MODE == 8
    return vec3(soft(b.r, s.r), soft(b.g, s.g), soft(b.b, s.b));
#elif CA_BLEND_MODE == 9
    return vec3(hard(b.r, s.r), hard(b.g, s.g), hard(b.b, s.b));
#elif CA_BLEND_MODE == 10
    return abs(b - s);
#elif CA_BLEND_MODE == 11
    return b + s - 2.0 * b * s;
#elif CA_BLEND_MODE == 12
    return setLum(setSat(s, sat(b)), lum(b));
#elif CA_BLEND_MODE == 13
    return setLum(setSat(b, sat(s)), lum(b));
#elif CA_BLEND_MODE == 14
    return setLum(s, lum(b));
#elif CA_BLEND_MODE == 15
    return setLum(b, lum(s));
#else
    return s;
#endif
}

// Premultiplied source s over premultiplied backdrop b.
vec4 blend(vec4 s, vec4 b) {
#if CA_BLEND_MODE == 16
    return s * b.a;                                   // source-in
#elif CA_BLEND_MODE == 17
    return s * (1.0 - b.a);                           // source-out
#elif CA_BLEND_MODE == 18
    return vec4(s.rgb * b.a + b.rgb * (1.0 - s.a), b.a);   // source-atop
#elif CA_BLEND_MODE == 19
    return min(s + b, vec4(1.0));                     // plus-lighter
#elif CA_BLEND_MODE == 20
    float ao = min(1.0, s.a + b.a);                   // plus-darker (as CGBlendMode's)
    return vec4(clamp(vec3(ao) - ((vec3(b.a) - b.rgb) + (vec3(s.a) - s.rgb)), 0.0, 1.0), ao);
#else
    vec3 cs = s.a > 0.0 ? s.rgb / s.a : vec3(0.0);
    vec3 cb = b.a > 0.0 ? b.rgb / b.a : vec3(0.0);
    vec3 m = clamp(mixFunction(cb, cs), 0.0, 1.0);
    return vec4(s.rgb * (1.0 - b.a) + b.rgb * (1.0 - s.a) + s.a * b.a * m, s.a + b.a * (1.0 - s.a));
#endif
}
#endif

void main() {
    vec4 s = texture(u_source, v_uv);
#if defined(CA_FILTER_PRIMITIVE)
    vec2 p = pixel();
    vec4 o = vec4(0.0);
#if defined(CA_PRIM_OFFSET)
    o = fetchAt(u_source, p - u_params.xy);
#elif defined(CA_PRIM_FLOOD)
    o = u_params;
#elif defined(CA_PRIM_COMPOSITE)
    // Porter-Duff (Filter Effects 1 § feComposite): source = in, backdrop = in2.
    vec4 b = texture(u_other, v_uv);
    int k = int(u_params.x + 0.5);
    if (k == 0) o = s + b * (1.0 - s.a);
    else if (k == 1) o = s * b.a;
    else if (k == 2) o = s * (1.0 - b.a);
    else if (k == 3) o = s * b.a + b * (1.0 - s.a);
    else if (k == 4) o = s * (1.0 - b.a) + b * (1.0 - s.a);
    else o = min(s + b, vec4(1.0));
#elif defined(CA_PRIM_ARITHMETIC)
    vec4 b = texture(u_other, v_uv);
    o = clamp(u_params.x * s * b + u_params.y * s + u_params.z * b + vec4(u_params.w), 0.0, 1.0);
    o.rgb = min(o.rgb, vec3(o.a));
#elif defined(CA_PRIM_BLEND)
    o = blend(s, texture(u_other, v_uv));
#elif defined(CA_PRIM_MATRIX)
    vec4 c = unpremultiply(s);
    o = clamp(vec4(dot(u_rows[0], c), dot(u_rows[1], c), dot(u_rows[2], c), dot(u_rows[3], c)) + u_rows[4], 0.0, 1.0);
    o = vec4(o.rgb * o.a, o.a);
#elif defined(CA_PRIM_TRANSFER)
    vec4 c = unpremultiply(s);
    o = clamp(vec4(transfer(0, c.r), transfer(1, c.g), transfer(2, c.b), transfer(3, c.a)), 0.0, 1.0);
    o = vec4(o.rgb * o.a, o.a);
#elif defined(CA_PRIM_TO_LINEAR)
    vec4 c = unpremultiply(s);
    o = vec4(toLinear(clamp(c.rgb, 0.0, 1.0)) * c.a, c.a);
#elif defined(CA_PRIM_TO_SRGB)
    vec4 c = unpremultiply(s);
    o = vec4(toSRGB(clamp(c.rgb, 0.0, 1.0)) * c.a, c.a);
#elif defined(CA_PRIM_DILATE) || defined(CA_PRIM_ERODE)
    // One direction of a separable rectangle minimum/maximum (u_params.xy: radius along x
    // and y, one of them 0).
    int r = int(min(max(u_params.x, u_params.y), 256.0) + 0.5);
    vec2 dir = u_params.x > 0.0 ? vec2(1.0, 0.0) : vec2(0.0, 1.0);
#ifdef CA_PRIM_DILATE
    o = vec4(0.0);
    for (int i = -r; i <= r; i++) o = max(o, fetchAt(u_source, p + dir * float(i)));
#else
    o = vec4(1.0);
    for (int i = -r; i <= r; i++) o = min(o, fetchAt(u_source, p + dir * float(i)));
#endif
#elif defined(CA_PRIM_CONVOLVE)
    // Filter Effects 1 § feConvolveMatrix. u_params: orderX, orderY, targetX, targetY;
    // u_extent: divisor, bias, edge mode (0 duplicate, 1 wrap, 2 none, within u_crop),
    // preserveAlpha; u_table: the kernel, row-major, 4 values per entry.
    int ox = int(u_params.x + 0.5), oy = int(u_params.y + 0.5);
    int edgeMode = int(u_extent.z + 0.5);
    bool keepAlpha = u_extent.w > 0.5;
    vec4 sum = vec4(0.0);
    for (int i = 0; i < oy; i++) {
        for (int j = 0; j < ox; j++) {
            vec2 q = p + vec2(float(j) - u_params.z, float(i) - u_params.w);
            if (edgeMode == 0) q = clamp(q, u_crop.xy + 0.5, u_crop.xy + u_crop.zw - 0.5);
            else if (edgeMode == 1) q = u_crop.xy + mod(q - u_crop.xy, max(u_crop.zw, vec2(1.0)));
            vec4 v = inCrop(q) > 0.0 ? fetchAt(u_source, q) : vec4(0.0);
            if (keepAlpha) v = unpremultiply(v);
            int k = (oy - 1 - i) * ox + (ox - 1 - j);
            sum += v * u_table[k / 4][k % 4];
        }
    }
    sum /= (u_extent.x == 0.0 ? 1.0 : u_extent.x);
    if (keepAlpha) {
        float a = s.a;
        o = vec4(clamp(sum.rgb + u_extent.y, 0.0, 1.0) * a, a);
    } else {
        o = clamp(sum + vec4(u_extent.y), 0.0, 1.0);
        o.rgb = min(o.rgb, vec3(o.a));
    }
#elif defined(CA_PRIM_LIGHTING)
    // Filter Effects 1 § feDiffuseLighting / feSpecularLighting: the surface normal from the
    // Sobel gradient of alpha (interior kernel), light vector per light type.
    float ss = u_params.y;
    float a00 = fetchAt(u_source, p + vec2(-1.0, -1.0)).a, a10 = fetchAt(u_source, p + vec2(0.0, -1.0)).a, a20 = fetchAt(u_source, p + vec2(1.0, -1.0)).a;
    float a01 = fetchAt(u_source, p + vec2(-1.0, 0.0)).a, a21 = fetchAt(u_source, p + vec2(1.0, 0.0)).a;
    float a02 = fetchAt(u_source, p + vec2(-1.0, 1.0)).a, a12 = fetchAt(u_source, p + vec2(0.0, 1.0)).a, a22 = fetchAt(u_source, p + vec2(1.0, 1.0)).a;
    float nx = -ss * 0.25 * ((a20 + 2.0 * a21 + a22) - (a00 + 2.0 * a01 + a02));
    float ny = -ss * 0.25 * ((a02 + 2.0 * a12 + a22) - (a00 + 2.0 * a10 + a20));
    vec3 n = normalize(vec3(nx, ny, 1.0));
    int type = int(u_params.x + 0.5);
    vec3 surface = vec3(p, ss * s.a);
    vec3 l = type == 0 ? u_extent.xyz : normalize(u_extent.xyz - surface);
    vec3 lc = u_rows[2].rgb;
    if (type == 2) {
        vec3 sdir = normalize(u_rows[0].xyz - u_extent.xyz);
        float minusLS = -dot(l, sdir);
        lc = (minusLS <= 0.0 || (u_rows[1].x > -1.5 && minusLS < u_rows[1].x)) ? vec3(0.0) : lc * pow(minusLS, u_rows[0].w);
    }
    if (u_rows[1].y > 0.5) {
        vec3 hv = normalize(l + vec3(0.0, 0.0, 1.0));
        vec3 c = clamp(u_params.z * pow(max(dot(n, hv), 0.0), u_params.w) * lc, 0.0, 1.0);
        float a = max(c.r, max(c.g, c.b));
        o = vec4(c, a);
    } else {
        o = vec4(clamp(u_params.z * max(dot(n, l), 0.0) * lc, 0.0, 1.0), 1.0);
    }
#elif defined(CA_PRIM_TURBULENCE)
    // The noise at the user-space point of the pixel's corner (resvg and the reference sample
    // the integer pixel grid). u_params: frequency x, y, octaves, fractalNoise; u_extent: stitch.
    vec2 fp = p - 0.5;
    vec3 q = fp.x * u_rows[0].xyz + fp.y * u_rows[1].xyz + u_rows[2].xyz;
    vec2 v = (q.xy / q.z) * u_params.xy;
    vec4 st = u_extent;
    bool stitching = u_rows[3].x > 0.5, fractal = u_params.w > 0.5;
    int n = int(u_params.z + 0.5);
    vec4 sum = vec4(0.0);
    float ratio = 1.0;
    for (int k = 0; k < n; k++) {
        vec4 z = noise4(v, st, stitching);
        sum += (fractal ? z : abs(z)) / ratio;
        v *= 2.0; ratio *= 2.0;
        st = vec4(st.xy * 2.0, 2.0 * st.zw - 4096.0);
    }
    vec4 c = clamp(fractal ? (sum + 1.0) * 0.5 : sum, 0.0, 1.0);
    o = vec4(c.rgb * c.a, c.a);
#elif defined(CA_PRIM_DISPLACEMENT)
    // Filter Effects 1 § feDisplacementMap: the map unpremultiplied, the source read at the
    // nearest texel of p + (X − ½)·xAxis + (Y − ½)·yAxis (u_params: the axes; u_extent.xy the
    // channels).
    vec4 m = unpremultiply(texture(u_other, v_uv));
    vec2 d = (m[int(u_extent.x + 0.5)] - 0.5) * u_params.xy + (m[int(u_extent.y + 0.5)] - 0.5) * u_params.zw;
    o = fetchAt(u_source, floor(p + d) + 0.5);
#elif defined(CA_PRIM_TILE)
    // u_params: the tile (frame pixels) repeated from its origin.
    vec2 q = u_params.xy + mod(p - u_params.xy, max(u_params.zw, vec2(1.0)));
    o = fetchAt(u_source, q);
#else
    o = s;
#endif
    o_color = o * inCrop(p);
#elif defined(CA_FILTER_COLOR)
    vec4 c = unpremultiply(s);
    c.rgb = toLinear(c.rgb);
    vec4 o = clamp(vec4(dot(u_rows[0], c), dot(u_rows[1], c), dot(u_rows[2], c), dot(u_rows[3], c)) + u_rows[4], 0.0, 1.0);
    o.rgb = toSRGB(pow(o.rgb, vec3(u_power)));
    o_color = vec4(o.rgb * o.a, o.a);
#elif defined(CA_FILTER_VIGNETTE)
    // u_params: centre (frame pixels), reach r, intensity.
    float d = distance(pixel(), u_params.xy) / max(u_params.z, 1e-6);
    float f = clamp(1.0 - u_params.w * smoothstep(0.0, 1.0, d * d), 0.0, 1.0);
    vec4 c = unpremultiply(s);
    c.rgb = toSRGB(toLinear(c.rgb) * f);
    o_color = vec4(c.rgb * c.a, c.a);
#elif defined(CA_FILTER_PIXELLATE)
    // u_params: grid origin (frame pixels), cell size.
    vec2 cell = floor((pixel() - u_params.xy) / u_params.z);
    vec2 centre = u_params.xy + (cell + 0.5) * u_params.z;
    o_color = texture(u_source, clamp((centre - u_viewport.xy) / u_viewport.zw, vec2(0.0), vec2(1.0)));
#elif defined(CA_FILTER_ADD)
    vec4 o = s + u_params.x * texture(u_other, v_uv);
    o.a = min(o.a, 1.0);
    o_color = vec4(min(o.rgb, vec3(o.a)), o.a);
#elif defined(CA_FILTER_BLEND)
    // u_params: opacity, clip index. The result replaces the backdrop (mixed by the clip).
    vec4 b = texture(u_other, v_uv);
    float cover = clipCoverage(pixel(), int(u_params.y + 0.5));
    o_color = mix(b, blend(s * u_params.x, b), cover);
#elif defined(CA_FILTER_INSIDE)
    // u_params: the shape's clip index, the outer clip's.
    vec4 b = texture(u_other, v_uv);
    float cover = clipCoverage(pixel(), int(u_params.x + 0.5)) * clipCoverage(pixel(), int(u_params.y + 0.5));
#ifdef CA_MASK
    // u_extent: the mask target's rectangle (frame pixels); nothing of the mask outside it.
    vec2 m = (pixel() - u_extent.xy) / u_extent.zw;
    bool inside = all(greaterThanEqual(m, vec2(0.0))) && all(lessThanEqual(m, vec2(1.0)));
    cover *= inside ? texture(u_mask, m).a : 0.0;
#endif
    o_color = mix(b, s, cover);
#else
    o_color = s;
#endif
}
