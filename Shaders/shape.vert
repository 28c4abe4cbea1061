// Shape pipeline (CAShapeLayer, issue 6): a quad over the layer's raster in the shape atlas.
// The instance maps raster texels to frame pixels (an integer translation when the layer's
// transform is affine: texels are pixels; a homography under perspective).
layout(location = 0) in vec4 i_h0;
layout(location = 1) in vec4 i_h1;
layout(location = 2) in vec4 i_h2;
layout(location = 3) in vec4 i_region;
layout(location = 4) in vec4 i_fill;
layout(location = 5) in vec4 i_stroke;
layout(location = 6) in vec4 i_trim;
layout(location = 7) in vec4 i_dash;
layout(location = 8) in vec4 i_params;

out vec2 v_texel;
flat out vec4 v_region;
flat out vec4 v_fill;
flat out vec4 v_stroke;
flat out vec4 v_trim;
flat out vec4 v_dash;
flat out vec4 v_params;
flat out float v_opacity;
flat out int v_clip;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec2 t = corner * i_region.zw;
    gl_Position = toClip(t.x * i_h0.xyz + t.y * i_h1.xyz + i_h2.xyz);
    v_texel = t;
    v_region = i_region;
    v_fill = i_fill;
    v_stroke = i_stroke;
    v_trim = i_trim;
    v_dash = i_dash;
    v_params = i_params;
    v_opacity = i_h0.w;
    v_clip = int(i_h1.w + 0.5);
}
