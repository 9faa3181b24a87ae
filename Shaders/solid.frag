#version 300 es
precision highp float;
precision highp int;

uniform bool u_swapRedBlue;         // true when drawing into a caller's RGBA target

in vec3 v_texel;                    // unused: solid quads share quad.vert
flat in vec4 v_clamp;
flat in vec4 v_color;               // premultiplied, already quantised to 8 bits, B, G, R, A order
#include "spans.glsl"
#include "shape.glsl"
out vec4 o_color;

void main() {
#ifdef SPANS
    discardOutsideSpan();
#endif
    vec4 c = v_color;
#ifdef SHAPES
    if (v_rows <= -2) {
        // Seen through a shape: v_color is the colour alone; it is multiplied by the mask value as pixman
        // multiplies (round(c x m / 255)), the bytes the CPU renderer composites.
        float alpha = shapeAlpha(gl_FragCoord.xy + u_origin);
        if (!(alpha > 0.0)) discard;
        ivec4 t = ivec4(v_color * 255.0 + 0.5) * int(alpha) + 128;
        c = vec4((t + (t >> 8)) >> 8) / 255.0;
    }
#endif
    o_color = u_swapRedBlue ? c.bgra : c;
}
