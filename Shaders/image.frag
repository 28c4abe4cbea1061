#ifdef CA_PARTICLE
// A particle (ShaderVariant.particle, image.vert): shapeCoverage of its square rect with every
// edge antialiased and one linear sample, the same arithmetic as the general path below.
in vec4 v_localUV;           // xy: the point relative to the centre, in pixels; zw: image uv
flat in vec4 v_tint;
flat in vec4 v_atlas;
flat in vec2 v_half;         // half size, in pixels
#ifdef CA_CLIP
flat in int v_clip;
#else
const int v_clip = 0;
#endif
uniform sampler2D u_texture;
out vec4 o_color;

void main() {
    vec3 field = shapeField(v_localUV.xy, vec2(0.0), v_half, vec4(0.0), false);
    float cov = coverage(field, v_localUV.xy);
    vec2 uv = clamp(v_localUV.zw, 0.0, 1.0);
    vec4 c = textureLod(u_texture, v_atlas.xy + uv * v_atlas.zw, 0.0);
    o_color = c * v_tint * cov * clipCoverage(framePixel(), v_clip);
}
#else
in vec2 v_local;
in vec2 v_uv;
flat in vec4 v_tint;
flat in vec4 v_shape;
flat in vec4 v_shapeRadii;
flat in int v_clip;
flat in int v_flags;
flat in float v_pxPerUnit;
// The image's origin (xy) and size (zw) in the bound texture: all of it, or a cell of an atlas
// page, whose one-texel border repeats the image's edge pixels.
flat in vec4 v_atlas;
uniform sampler2D u_texture;
out vec4 o_color;

// One CALayerContentsFilter (0 linear, 1 nearest, 2 trilinear) at `uv`, a point of the image
// (0…1). Gradients (of texture coordinates) are passed in because this runs in non-uniform
// control flow, where implicit derivatives are undefined.
vec4 sampleContents(int mode, vec2 uv, vec2 size, vec2 gx, vec2 gy) {
    if (mode == 1) {
        // Nearest: the texel under the point, clamped to the image (edge pixels extend).
        vec2 imageSize = v_atlas.zw * size;
        ivec2 t = clamp(ivec2(floor(uv * imageSize)), ivec2(0), ivec2(imageSize + 0.5) - 1);
        return texelFetch(u_texture, t + ivec2(v_atlas.xy * size + 0.5), 0);
    }
    vec2 tc = v_atlas.xy + uv * v_atlas.zw;
    if (mode == 2) return textureGrad(u_texture, tc, gx, gy);  // mipmapped (batch binds them)
    return textureLod(u_texture, tc, 0.0);
}

void main() {
    g_pxPerUnit = v_pxPerUnit;
    float cov = shapeCoverage(v_local, v_shape, v_shapeRadii, (v_flags & CA_FLAG_CONTINUOUS) != 0, v_flags & CA_FLAG_EDGE_MASK);
    // Samples clamp to the image's edge texels (contentsRect beyond the unit square).
    vec2 uv = clamp(v_uv, 0.0, 1.0);
#ifdef CA_LINEAR_FILTERS
    // Linear both ways (ShaderVariant.linearFilters): sampleContents' mode 0, whether minified
    // or magnified, so neither the derivatives nor the other filters' samples are needed.
    vec4 c = textureLod(u_texture, v_atlas.xy + uv * v_atlas.zw, 0.0);
#else
    vec2 gx = dFdx(v_uv) * v_atlas.zw, gy = dFdy(v_uv) * v_atlas.zw;
    vec2 size = vec2(textureSize(u_texture, 0));
    // Minified where one screen pixel spans more than one texel along either axis (GL's own
    // rule for choosing between TEXTURE_MIN_FILTER and TEXTURE_MAG_FILTER: lambda > 0).
    vec2 dx = gx * size, dy = gy * size;
    bool minified = max(dot(dx, dx), dot(dy, dy)) > 1.0 + 1e-4;
    int mode = minified ? ((v_flags >> CA_FLAG_MIN_FILTER_SHIFT) & CA_FLAG_FILTER_MASK) : ((v_flags >> CA_FLAG_MAG_FILTER_SHIFT) & CA_FLAG_FILTER_MASK);
    vec4 c = sampleContents(mode, uv, size, gx, gy);
#endif
    o_color = c * v_tint * cov * clipCoverage(framePixel(), v_clip);
}
#endif
