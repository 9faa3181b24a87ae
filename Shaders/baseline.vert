#version 300 es
// The benchmark's baseline: the least a GL program can do to draw textured quads (one instanced draw, one
// texture, the GPU's own bilinear sampler). Lamina's frame time is compared with it.

uniform vec2 u_targetSize;
uniform vec2 u_textureSize;

in vec4 a_rect;                     // x0, y0, x1, y1 in target pixels
in vec4 a_source;                   // x0, y0, x1, y1 in texels

out vec2 v_uv;

void main() {
    int corner = gl_VertexID & 3;
    bvec2 far = bvec2((corner & 1) != 0, (corner & 2) != 0);
    vec2 p = vec2(far.x ? a_rect.z : a_rect.x, far.y ? a_rect.w : a_rect.y);
    v_uv = vec2(far.x ? a_source.z : a_source.x, far.y ? a_source.w : a_source.y) / u_textureSize;
    gl_Position = vec4(p / u_targetSize * 2.0 - 1.0, 0.0, 1.0);
}
