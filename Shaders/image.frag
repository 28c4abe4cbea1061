in vec2 v_local;
in vec2 v_uv;
flat in vec4 v_tint;
flat in vec4 v_shape;
flat in vec4 v_shapeRadii;
flat in int v_clip;
flat in int v_flags;
flat in float v_pxPerUnit;
uniform sampler2D u_texture;
out vec4 o_color;

// One CALayerContentsFilter (0 linear, 1 nearest, 2 trilinear) at uv. Gradients are passed in
// because this runs in non-uniform control flow, where implicit derivatives are undefined.
vec4 sampleContents(int mode, vec2 uv, vec2 size, vec2 gx, vec2 gy) {
    if (mode == 1) {
        // Nearest: the texel under the point, clamped to the image (edge pixels extend).
        ivec2 t = clamp(ivec2(floor(uv * size)), ivec2(0), ivec2(size) - 1);
        return texelFetch(u_texture, t, 0);
    }
    if (mode == 2) return textureGrad(u_texture, uv, gx, gy);  // mipmapped (batch binds them)
    return textureLod(u_texture, uv, 0.0);
}

void main() {
    g_pxPerUnit = v_pxPerUnit;
    float cov = shapeCoverage(v_local, v_shape, v_shapeRadii, (v_flags & 16) != 0, v_flags & 15);
    // Samples clamp to the image's edge texels (contentsRect beyond the unit square).
    vec2 uv = clamp(v_uv, 0.0, 1.0);
    vec2 gx = dFdx(v_uv), gy = dFdy(v_uv);
    vec2 size = vec2(textureSize(u_texture, 0));
    // Minified where one screen pixel spans more than one texel along either axis (GL's own
    // rule for choosing between TEXTURE_MIN_FILTER and TEXTURE_MAG_FILTER: lambda > 0).
    vec2 dx = gx * size, dy = gy * size;
    bool minified = max(dot(dx, dx), dot(dy, dy)) > 1.0 + 1e-4;
    int mode = minified ? ((v_flags >> 5) & 3) : ((v_flags >> 7) & 3);
    vec4 c = sampleContents(mode, uv, size, gx, gy);
    o_color = c * v_tint * cov * clipCoverage(framePixel(), v_clip);
}
