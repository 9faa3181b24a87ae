#version 300 es
precision highp float;

uniform bool u_swapRedBlue;         // true when drawing into a caller's RGBA target

in vec3 v_texel;                    // unused: solid quads share quad.vert
flat in vec4 v_clamp;
flat in vec4 v_color;               // premultiplied, already quantised to 8 bits, B, G, R, A order
#ifdef SPANS
// highp: a frame's table passes 32,767 rows (mediump ints are 16 bits where a driver honours them).
flat in highp int v_rows;           // the quad's first row in u_spans, or -1 (quad.vert)
flat in highp int v_top;
uniform highp isampler2D u_spans;   // the span table: per row, x0 and x1 of the covered run, 4096 rows a line
uniform vec2 u_origin;
#endif
out vec4 o_color;

void main() {
#ifdef SPANS
    // Compiled in (SPANS) only for batches of quads drawn by coverage: llvmpipe pays for the table read and
    // the discard on every pixel, taken or not. A rotated or clipped quad is one box over its rows, not an
    // instance per row: only the pixels of its row's run, the runs the CPU renderer computes
    // (Quad.pixelCoverage), are drawn.
    if (v_rows >= 0) {
        highp ivec2 p = ivec2(gl_FragCoord.xy) + ivec2(u_origin);
        highp int i = v_rows + p.y - v_top;
        highp ivec2 run = texelFetch(u_spans, ivec2(i & 4095, i >> 12), 0).xy;
        if (p.x < run.x || p.x >= run.y) discard;
    }
#endif
    o_color = u_swapRedBlue ? v_color.bgra : v_color;
}
