// Gradient pipeline: CAGradientLayer (axial, radial, conic) sampling a colour-ramp row.
layout(location = 0) in vec4 i_h0;
layout(location = 1) in vec4 i_h1;
layout(location = 2) in vec4 i_h2;
layout(location = 3) in vec4 i_rect;
layout(location = 4) in vec4 i_radii;
layout(location = 5) in vec4 i_points;
layout(location = 6) in vec4 i_params;

out vec2 v_local;
flat out vec4 v_rect;
flat out vec4 v_radii;
flat out vec4 v_points;
flat out vec4 v_params;
flat out int v_clip;
flat out int v_flags;
flat out float v_pxPerUnit;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    float m = 1.5 / max(planeScale(i_h0, i_h1, i_h2), 1e-6);
    vec2 p = i_rect.xy - m + corner * (i_rect.zw + 2.0 * m);
    gl_Position = toClip(p.x * i_h0.xyz + p.y * i_h1.xyz + i_h2.xyz);
    v_local = p;
    v_rect = i_rect;
    v_radii = i_radii;
    v_points = i_points;
    v_params = i_params;
    v_clip = int(i_h1.w + 0.5);
    v_flags = int(i_h2.w + 0.5);
    v_pxPerUnit = planeScale(i_h0, i_h1, i_h2);
}
