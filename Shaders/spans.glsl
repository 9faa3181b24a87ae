// Shared by solid.frag and texture.frag: tools/generate-shaders.py pastes this file where a shader says
// #include "spans.glsl" (GLSL ES has no include of its own).
#if defined(SPANS) || defined(SHAPES)
// highp: a frame's table passes 32,767 rows (mediump ints are 16 bits where a driver honours them).
flat in highp int v_rows;           // the quad's first row in u_spans, -1, or -2 - its shape (quad.vert)
flat in highp int v_top;
uniform vec2 u_origin;
#endif
#ifdef SPANS
uniform highp isampler2D u_spans;   // the span table: per row, x0 and x1 of the covered run, 4096 rows a line

// Compiled in (SPANS) only for batches of quads drawn by coverage: llvmpipe pays for the table read and the
// discard on every pixel, taken or not. A rotated or clipped quad is one box over its rows, not an instance per
// row: only the pixels of its row's run, the runs the CPU renderer computes (Quad.pixelCoverage), are drawn.
void discardOutsideSpan() {
    if (v_rows >= 0) {
        highp ivec2 p = ivec2(gl_FragCoord.xy) + ivec2(u_origin);
        highp int i = v_rows + p.y - v_top;
        highp ivec2 run = texelFetch(u_spans, ivec2(i & 4095, i >> 12), 0).xy;
        if (p.x < run.x || p.x >= run.y) discard;
    }
}
#endif
