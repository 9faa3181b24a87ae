#version 300 es
// The retained frame holds the plan's row 0 at GL row 0 and blue in the red channel (Lamina's BGRA words read as
// RGBA): a window's row 0 is its bottom row and its channels are in GL's order, so each pixel is fetched flipped
// and swizzled. texelFetch: whole pixels, nothing filtered.
precision highp float;
uniform sampler2D u_frame;
uniform int u_height;
out vec4 o_color;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    o_color = texelFetch(u_frame, ivec2(p.x, u_height - 1 - p.y), 0).bgra;
}
