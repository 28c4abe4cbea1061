// Shape pipeline: fill and stroke coverage from the atlas (RGBA8, exact area coverage made on the
// CPU once per path and placement), composited stroke over fill in this one fragment so the
// two never blend twice, then the layer's opacity (one group, N4) and clips. With
// CA_SHAPE_FIELD (compact field: arc length in the coverage texel's B, A; with CA_SHAPE_DASH or
// CA_SHAPE_ROUND_CAP also the auxiliary texel: subpath arc length, centreline distance) or
// CA_SHAPE_WIDE_FIELD (exact RGBA32F field), strokeStart/strokeEnd and the dash pattern cut the
// stroke per pixel from the arc-length field, drawing the line cap at every cut. With
// CA_SHAPE_WIDTH_FIELD (a raster made for a range of line widths, while lineWidth animates) the
// stroke itself comes from the field (GaugeField): the texels whose gauge is within half the
// current width, with the cap drawn past an open end as at a cut.
in vec2 v_texel;
flat in vec4 v_region;
flat in vec4 v_fill;
flat in vec4 v_stroke;
flat in vec4 v_trim;
flat in vec4 v_dash;
flat in vec4 v_params;
flat in float v_opacity;
flat in int v_clip;
uniform sampler2D u_coverage;
uniform vec2 u_coverageSize;
uniform sampler2D u_field;
uniform vec2 u_fieldSize;
uniform sampler2D u_aux;
out vec4 o_color;

vec4 atlasSample(sampler2D atlas, vec2 origin, vec2 size) {
#ifdef CA_PROJECTIVE
    return texture(atlas, (origin + v_texel) / size);
#else
    // Texels are pixels: fetch the one under this pixel, no filtering.
    ivec2 t = clamp(ivec2(floor(v_texel)), ivec2(0), ivec2(v_region.zw) - 1);
    return texelFetch(atlas, ivec2(origin) + t, 0);
#endif
}

#ifdef CA_SHAPE_FIELD
// A 16-bit fraction from two UNORM8 channels (each byte / 255), high byte first. No rounding
// to whole bytes: the conversion's error is far below one step of the 16 bits.
float decode16(vec2 hl) {
    return dot(hl, vec2(65280.0 / 65535.0, 255.0 / 65535.0));
}
#endif

#if defined(CA_SHAPE_FIELD) || defined(CA_SHAPE_WIDE_FIELD)
// Coverage of a cut end at `e` texels outside the visible interval along the line (negative
// inside), `d` texels from the centreline, for half width `hw`: butt ends at the cut, square
// ends half a width further, round ends (CA_SHAPE_ROUND_CAP) with a half disc.
float capCoverage(float e, float d, float hw, int cap) {
#ifdef CA_SHAPE_ROUND_CAP
    return e <= 0.0 ? 1.0 : clamp(0.5 - (length(vec2(e, d)) - hw), 0.0, 1.0);
#else
    if (cap == 2) e -= hw;
    return clamp(0.5 - e, 0.0, 1.0);
#endif
}

// `s`, `ssub`: arc length (layer units) from the path's and the subpath's start; `d`: distance
// (texels) from the centreline. Dashes only with CA_SHAPE_DASH (a software rasteriser runs both
// sides of a branch, so instances without dashes do not pay for them).
float strokeCut(float s, float ssub, float d) {
    // Outside distance (layer units) from the trimmed range [strokeStart, strokeEnd]·length.
    float e = max(v_trim.z - s, s - v_trim.w);
    int code = int(v_params.z + 0.5);
#ifdef CA_SHAPE_DASH
    int n = code >> 2;
    // Dashes restart at each subpath with the phase (CGPath.copy(dashingWithPhase:)).
    float period = v_dash.x + v_dash.y + v_dash.z + v_dash.w;
    float u = mod(ssub + v_params.w, period);
    float best = 1e30;
    float a = 0.0;
    for (int k = 0; k < 4; k += 2) {
        if (k >= n) break;
        float len = v_dash[k];
        for (int j = -1; j <= 1; j++) {
            float o = a + float(j) * period;
            best = min(best, max(o - u, u - (o + len)));
        }
        a += len + v_dash[k + 1];
    }
    e = max(e, best);
#endif
    return capCoverage(e * v_params.y, d, v_params.x, code & 3);
}
#endif

void main() {
    vec4 full = atlasSample(u_coverage, v_region.xy, u_coverageSize);
    vec2 cov = full.rg;
    float cs = cov.g;
#if defined(CA_SHAPE_WIDE_FIELD)
    if (cs > 0.0) {
        vec4 f = atlasSample(u_field, v_trim.xy, u_fieldSize);
#ifdef CA_SHAPE_WIDTH_FIELD
        // G only marks texels the widest stroke of the range can reach; a one-texel ramp
        // across the edge at half the current width (v_params.x, texels) antialiases it, and
        // past an open end (f.w texels) the cap is drawn as at a cut.
        cs = min(clamp(v_params.x - f.z + 0.5, 0.0, 1.0), capCoverage(f.w, f.z, v_params.x, int(v_params.z + 0.5) & 3));
#endif
        cs = min(cs, strokeCut(f.x, f.y, f.z));
    }
#elif defined(CA_SHAPE_FIELD)
    if (cs > 0.0) {
        // 16-bit fractions, high byte first (CompactArcLengthField), decoded by v_trim.xy.
        float s = decode16(full.ba) * v_trim.y + v_trim.x;
        float ssub = s, d = 0.0;
#if defined(CA_SHAPE_DASH) || defined(CA_SHAPE_ROUND_CAP)
        vec4 a = atlasSample(u_aux, v_region.xy, u_coverageSize);
        ssub = decode16(a.rg) * v_trim.y + v_trim.x;
        d = decode16(a.ba) * (v_params.x + 2.0);
#endif
        cs = min(cs, strokeCut(s, ssub, d));
    }
#endif
    vec4 c = v_stroke * cs + v_fill * (cov.r * (1.0 - v_stroke.a * cs));
    o_color = c * (v_opacity * clipCoverage(framePixel(), v_clip));
}
