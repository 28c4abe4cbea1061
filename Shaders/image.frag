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

void main() {
    g_pxPerUnit = v_pxPerUnit;
    float cov = shapeCoverage(v_local, v_shape, v_shapeRadii, (v_flags & 16) != 0, v_flags & 15);
    // Samples clamp to the image's edge texels (contentsRect beyond the unit square).
    vec4 c = texture(u_texture, clamp(v_uv, 0.0, 1.0));
    o_color = c * v_tint * cov * clipCoverage(framePixel(), v_clip);
}
