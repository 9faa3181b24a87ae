#version 300 es
// lamina bench's instanced baseline, rounded sprites (LaminaBench, GLESBaseline+Rounded.swift).
// gl_FragCoord is in target pixels: the vertex shader maps target y = 0 to the framebuffer's first row.
precision highp float;
uniform sampler2D u_image;
in vec2 v_uv;
flat in vec4 v_shape;
flat in float v_radius;
out vec4 o_color;
void main() {
    vec2 centre = (v_shape.xy + v_shape.zw) * 0.5;
    vec2 half_size = (v_shape.zw - v_shape.xy) * 0.5;
    vec2 q = abs(gl_FragCoord.xy - centre) - half_size + v_radius;
    float d = (q.x > 0.0 && q.y > 0.0) ? length(q) - v_radius : max(q.x, q.y) - v_radius;
    o_color = texture(u_image, v_uv) * clamp(0.5 - d, 0.0, 1.0);
}
