#version 300 es
precision highp float;

uniform bool u_swapRedBlue;         // true when drawing into a caller's RGBA target

in vec3 v_texel;                    // unused: solid quads share quad.vert
flat in vec4 v_clamp;
flat in vec4 v_color;               // premultiplied, already quantised to 8 bits, B, G, R, A order
#include "spans.glsl"
out vec4 o_color;

void main() {
#ifdef SPANS
    discardOutsideSpan();
#endif
    o_color = u_swapRedBlue ? v_color.bgra : v_color;
}
