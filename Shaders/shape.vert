// Shape pipeline (CAShapeLayer, issue 6): a quad over the layer's raster in the shape atlas.
// The instance maps raster texels to frame pixels (an integer translation when the layer's
// transform is affine: texels are pixels; a homography under perspective). The quad is drawn
// as an octagon: its corners cut along the diagonals that touch the covered texels (i_hull:
// min, max of x + y, min, max of x - y), as a strip of 8 vertices.
layout(location = 0) in vec4 i_h0;
layout(location = 1) in vec4 i_h1;
layout(location = 2) in vec4 i_h2;
layout(location = 3) in vec4 i_region;
layout(location = 4) in vec4 i_fill;
layout(location = 5) in vec4 i_stroke;
layout(location = 6) in vec4 i_trim;
layout(location = 7) in vec4 i_dash;
layout(location = 8) in vec4 i_params;
layout(location = 9) in vec4 i_hull;

out vec2 v_texel;
flat out vec4 v_region;
flat out vec4 v_fill;
flat out vec4 v_stroke;
flat out vec4 v_trim;
flat out vec4 v_dash;
flat out vec4 v_params;
flat out float v_opacity;
flat out int v_clip;

// Corner `i` of the octagon, clockwise on screen from the top edge's left end.
vec2 octagonCorner(int i, vec2 size, vec4 k) {
    vec2 p;
    if (i == 0) p = vec2(k.x, 0.0);
    else if (i == 1) p = vec2(k.w, 0.0);
    else if (i == 2) p = vec2(size.x, size.x - k.w);
    else if (i == 3) p = vec2(size.x, k.y - size.x);
    else if (i == 4) p = vec2(k.y - size.y, size.y);
    else if (i == 5) p = vec2(k.z + size.y, size.y);
    else if (i == 6) p = vec2(0.0, -k.z);
    else p = vec2(0.0, k.x);
    return clamp(p, vec2(0.0), size);
}

void main() {
    // Strip order 0 1 7 2 6 3 5 4 zigzags across the convex octagon.
    const int order[8] = int[8](0, 1, 7, 2, 6, 3, 5, 4);
    vec2 t = octagonCorner(order[gl_VertexID], i_region.zw, i_hull);
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
