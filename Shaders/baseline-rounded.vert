#version 300 es
// lamina bench's instanced baseline, rounded sprites (LaminaBench, GLESBaseline+Rounded.swift).
uniform vec2 u_targetSize;
uniform vec2 u_textureSize;
in vec4 a_rect;                     // x0, y0, x1, y1 in target pixels
in vec4 a_source;                   // x0, y0, x1, y1 in texels
in vec4 a_shape;                    // the rounded rectangle: x0, y0, x1, y1 in target pixels
in float a_radius;
out vec2 v_uv;
flat out vec4 v_shape;
flat out float v_radius;
void main() {
    int corner = gl_VertexID & 3;
    bvec2 far = bvec2((corner & 1) != 0, (corner & 2) != 0);
    vec2 p = vec2(far.x ? a_rect.z : a_rect.x, far.y ? a_rect.w : a_rect.y);
    v_uv = vec2(far.x ? a_source.z : a_source.x, far.y ? a_source.w : a_source.y) / u_textureSize;
    v_shape = a_shape;
    v_radius = a_radius;
    gl_Position = vec4(p / u_targetSize * 2.0 - 1.0, 0.0, 1.0);
}
