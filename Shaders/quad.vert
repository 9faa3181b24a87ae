#version 300 es
// One instance per pixel rectangle of a quad's coverage (computed on the CPU with the top-left rule, so the
// GPU covers exactly the pixels the CPU renderer covers). The rectangle's corners sit on pixel boundaries.
// Target row 0 is GL window row 0 (no y flip), so glReadPixels returns rows top to bottom.

uniform vec2 u_targetSize;          // pixels
uniform vec2 u_origin;              // the target pixel at the framebuffer's (0, 0): a group's offscreen corner

in vec4 a_rect;                     // x0, y0, x1, y1 in target pixels
in vec3 a_mapU;                     // target pixel -> texel: u' = dot((x, y, 1), a_mapU)
in vec3 a_mapV;                     // v' = dot((x, y, 1), a_mapV)
in vec3 a_mapW;                     // w' = dot((x, y, 1), a_mapW); texel = (u', v') / w'
in vec4 a_clamp;                    // texels that may be read: x0, y0, x1, y1 (exclusive)
in vec4 a_color;                    // premultiplied colour in B, G, R, A order (solid), or the opacity (textures)
in float a_rows;                    // -1: every pixel of a_rect; else the first of the quad's rows in the span
                                    // table, whose runs the fragment shader keeps (coverage drawn by the shader)
in vec2 a_offset;                   // where the image's texel (0, 0) lies in the texture (an atlas slot, a tile):
                                    // whole texels, added to texel indices after the sampling arithmetic

#if defined(NEAREST) || defined(PIXEL_MAP)
// Sampling picks texels (and 7-bit weights) from the sample point's exact position, so the map goes to the fragment
// shader whole and each pixel evaluates it at its own centre (texture.frag), as the CPU renderer does, rather than
// interpolating a texel coordinate, whose rounding depends on the triangle's setup: always for nearest, and with
// PIXEL_MAP for bilinear and trilinear (GPUs: an NVIDIA H200 put quarter-texel points a hair short of the quarter,
// which moved a bilinear weight by 1/128; llvmpipe interpolates these maps exactly). .w: a_offset.
flat out vec4 v_mapU;
flat out vec4 v_mapV;
flat out vec3 v_mapW;
#else
out vec3 v_texel;                   // homogeneous texel coordinate; linear in screen space, so interpolating it
                                    // and dividing per pixel is exact even under perspective, up to the rounding
                                    // of the driver's interpolation
flat out highp ivec2 v_offset;      // a_offset
#endif
flat out vec4 v_clamp;
flat out vec4 v_color;
flat out highp int v_rows;
flat out highp int v_top;
#ifdef SHAPES
// a_rows <= -2: the quad is seen through shape -2 - a_rows of the shape table (8 RGBA32F texels a shape, 4096
// texels a line; GLESRenderer+Shapes.swift, ShapeCoverage.write), read here once per vertex rather than per pixel,
// into the inputs shape.glsl reads with the program's features (llvmpipe sets up every output of every triangle).
uniform highp sampler2D u_shapes;
flat out vec4 v_shapeMap, v_shapeMove, v_shapeOuter, v_shapeRadii, v_shapeFlags;
#ifdef PROJECTIVE
flat out vec4 v_shapeW;
#endif
#ifdef HOLES
flat out vec4 v_shapeHole, v_shapeHoleRadii;
#endif

vec4 shapeTexel(int i) {
    return texelFetch(u_shapes, ivec2(i & 4095, i >> 12), 0);
}
#endif

void main() {
    // Triangle strip: (x0, y0), (x1, y0), (x0, y1), (x1, y1).
    int corner = gl_VertexID & 3;
    vec2 p = vec2((corner & 1) == 0 ? a_rect.x : a_rect.z, (corner & 2) == 0 ? a_rect.y : a_rect.w);
    gl_Position = vec4((p - u_origin) / u_targetSize * 2.0 - 1.0, 0.0, 1.0);
    vec3 q = vec3(p, 1.0);
#if defined(NEAREST) || defined(PIXEL_MAP)
    v_mapU = vec4(a_mapU, a_offset.x);
    v_mapV = vec4(a_mapV, a_offset.y);
    v_mapW = a_mapW;
#else
    v_texel = vec3(dot(q, a_mapU), dot(q, a_mapV), dot(q, a_mapW));
    v_offset = ivec2(a_offset);
#endif
    v_clamp = a_clamp;
    v_color = a_color;
    v_rows = int(a_rows);
    v_top = int(a_rect.y);
#ifdef SHAPES
    int base = a_rows <= -2.0 ? (-2 - int(a_rows)) * 8 : 0;
    // The table: m11 m12 m13 m21 | m22 m23 m31 m32 | m33 continuous hole opacity | outer | outer radii | hole |
    // hole radii | tint, scale.
    vec4 t0 = shapeTexel(base), t1 = shapeTexel(base + 1), t2 = shapeTexel(base + 2), t7 = shapeTexel(base + 7);
    v_shapeMap = vec4(t0.x, t0.y, t0.w, t1.x);
    v_shapeMove = vec4(t1.z, t1.w, t2.w, t7.x);
    v_shapeOuter = shapeTexel(base + 3);
    v_shapeRadii = shapeTexel(base + 4);
    v_shapeFlags = vec4(t7.y, t2.y, t2.z, 0.0);
#ifdef PROJECTIVE
    v_shapeW = vec4(t0.z, t1.y, t2.x, 0.0);
#endif
#ifdef HOLES
    v_shapeHole = shapeTexel(base + 5);
    v_shapeHoleRadii = shapeTexel(base + 6);
#endif
#endif
}
