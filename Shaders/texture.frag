#version 300 es
// Samples a premultiplied BGRA image stored byte for byte in an RGBA8 texture (so .rgba holds B, G, R, A)
// the way the CPU renderer's pixman does: the sample point is the pixel centre mapped through the quad's
// projective target-to-texel map (evaluated per pixel for nearest and with PIXEL_MAP, else interpolated from the
// box's corners), texel
// centres are at i + 0.5, and every texel read is clamped to the quad's clamp rectangle (the no-bleed clamp).
// Bilinear weights are quantised to 7 bits as pixman's are. The map, the clamp rectangle and so every bit of
// this arithmetic are in the image's own texels; where the image lies in its texture (an atlas slot, a tile of a
// large image) is a whole-texel offset added to the texel indices last, so it changes no choice of texel or weight.
precision highp float;
precision highp int;
precision highp sampler2D;

// Compiled three times: with BILINEAR defined (bilinear filtering), with TRILINEAR (bilinear at two mip levels,
// mixed) and with NEAREST (nearest; with COPY too for batches of 1:1 copies at whole pixels). Separate programs rather than a uniform branch, because llvmpipe pays for
// both sides of a branch. (GLESProgram defines the filter for quad.vert too, which then passes the map rather than an
// interpolated texel coordinate; here neither BILINEAR nor TRILINEAR means nearest.)
#if !defined(BILINEAR) && !defined(TRILINEAR) && !defined(NEAREST)
#define NEAREST 1
#endif
uniform sampler2D u_image;
uniform bool u_swapRedBlue;         // true when drawing into a caller's RGBA target

#if defined(NEAREST) || defined(PIXEL_MAP)
flat in vec4 v_mapU;                // target pixel -> image texel, the rows of the map (quad.vert); .w: where the
flat in vec4 v_mapV;                // image's texels start in the texture
flat in vec3 v_mapW;
#if !defined(SPANS) && !defined(SHAPES)
uniform vec2 u_origin;              // the target pixel at the framebuffer's (0, 0) (spans.glsl declares it with SPANS
                                    // or SHAPES)
#endif
#else
in vec3 v_texel;                    // the homogeneous texel coordinate, interpolated
flat in highp ivec2 v_offset;       // where the image's texels start in the texture
#endif
flat in vec4 v_clamp;               // the image texels that may be read: x0, y0, x1, y1 (exclusive)
flat in vec4 v_color;               // .a: opacity; TRILINEAR: .r the finer mip level, .g the coarser's weight (0-255)
out vec4 o_color;
#include "spans.glsl"
#include "shape.glsl"

#if defined(NEAREST) || defined(PIXEL_MAP)
ivec2 offset() { return ivec2(v_mapU.w, v_mapV.w); }

// The sample point of this pixel: its centre through the map, in the CPU renderer's order (CPUProjectiveSampler),
// so a map with whole or binary-fraction terms (scales by 2, 0.5, quarter-texel moves) gives every centre exactly, as
// the CPU's doubles do. w <= 0: behind the eye, where the CPU renderer leaves the pixel transparent.
vec2 samplePoint(out bool behind) {
    vec3 q = vec3(gl_FragCoord.xy + u_origin, 1.0);
    float w = q.x * v_mapW.x + q.y * v_mapW.y + v_mapW.z;
    behind = !(w > 0.0);
    return vec2(q.x * v_mapU.x + q.y * v_mapU.y + v_mapU.z, q.x * v_mapV.x + q.y * v_mapV.y + v_mapV.z) / w;
}
#else
ivec2 offset() { return v_offset; }

// Interpolated at the pixel centre, this is the centre's sample point (a box is never behind the eye).
vec2 samplePoint(out bool behind) {
    behind = false;
    return v_texel.xy / v_texel.z;
}
#endif

// Image texel `texel`, clamped to lo ... hi (image texels), read from where the image lies in the texture.
vec4 fetch(ivec2 texel, ivec2 lo, ivec2 hi, int level) {
    return texelFetch(u_image, clamp(texel, lo, hi) + offset(), level);
}

vec4 fetch(ivec2 texel, ivec2 lo, ivec2 hi) {
    return fetch(texel, lo, hi, 0);
}

// Bilinear at texel coordinate t of mip level `level`, reading only texels lo ... hi (inclusive), truncated to
// 8 bits as pixman does.
vec4 bilinear(vec2 t, ivec2 lo, ivec2 hi, int level) {
    vec2 s = t - 0.5;
    vec2 f = floor(s);
    vec2 w = floor((s - f) * 128.0) / 128.0;
    ivec2 i = ivec2(f);
    vec4 top = mix(fetch(i, lo, hi, level), fetch(i + ivec2(1, 0), lo, hi, level), w.x);
    vec4 bottom = mix(fetch(i + ivec2(0, 1), lo, hi, level), fetch(i + ivec2(1, 1), lo, hi, level), w.x);
    vec4 c = mix(top, bottom, w.y);
    // pixman truncates the interpolated 8-bit value.
    return floor(c * 255.0 + 1.0 / 512.0) / 255.0;
}

#ifdef TRILINEAR
// The level-0 clamp rectangle (x0, y0 inclusive; x1, y1 exclusive) at mip level `level`, as
// TexelRect.atMipLevel computes it: inclusive lo and hi.
void levelClamp(ivec4 rect, int level, out ivec2 lo, out ivec2 hi) {
    ivec2 size = textureSize(u_image, level);
    int up = (1 << level) - 1;
    lo = min(rect.xy >> level, size - 1);
    hi = min(max((rect.zw + up) >> level, lo + 1), size) - 1;
}

// round(c x m / 255) for 8-bit c and m, as pixman multiplies.
ivec4 multiply(ivec4 c, int m) {
    ivec4 t = c * m + 128;
    return (t + (t >> 8)) >> 8;
}
#endif

void main() {
#ifdef SPANS
    discardOutsideSpan();
#endif
    float opacity = v_color.a;
#ifdef SHAPES
    if (v_rows <= -2) {
        // Seen through a shape: the mask value (coverage x opacity in 8 bits) replaces the opacity, times the
        // tint's alpha where there is one, as GLESBatchEncoder.textureColor folds them.
        float alpha = shapeAlpha(gl_FragCoord.xy + u_origin);
        if (!(alpha > 0.0)) discard;
        opacity = v_shapeMove.w < 0.0 ? alpha / 255.0 : alpha / 255.0 * v_shapeMove.w / 255.0;
    }
#endif
#ifndef COPY
    bool behind;
    vec2 t = samplePoint(behind);
    if (behind) discard;
#endif
    ivec2 lo = ivec2(v_clamp.xy);
    ivec2 hi = ivec2(v_clamp.zw) - 1;
    vec4 c;
#if defined(TRILINEAR)
    {
        // t is in texels of the finer level; the coarser level's are half as many. Each level is sampled
        // bilinearly within its own clamp, then they are mixed as the CPU renderer mixes them: pixman's SRC of
        // the finer through 255 - weight, ADD of the coarser through weight.
        ivec4 rect = ivec4(v_clamp);
        int level = int(v_color.r);
        int weight = int(v_color.g);
        ivec2 lo0, hi0, lo1, hi1;
        levelClamp(rect, level, lo0, hi0);
        int coarser = weight > 0 ? level + 1 : level;
        levelClamp(rect, coarser, lo1, hi1);
        ivec4 fine = ivec4(bilinear(t, lo0, hi0, level) * 255.0 + 0.5);
        ivec4 coarse = ivec4(bilinear(t * 0.5, lo1, hi1, coarser) * 255.0 + 0.5);
        c = vec4(min(multiply(fine, 255 - weight) + multiply(coarse, weight), 255)) / 255.0;
    }
#elif defined(BILINEAR)
    // In the shader rather than through the GPU's filter: llvmpipe's filter rounds differently from pixman (up
    // to 4 apart at hard edges, on more pixels than parity allows), even with the point moved to pixman's 7-bit
    // weights. (Nearest reads stay texelFetch too: through a GL_NEAREST sampler they cost llvmpipe 1-3% more.)
    c = bilinear(t, lo, hi, 0);
#elif defined(COPY)
    // Every quad of the batch is copied 1:1 at whole pixels (GLESBatchEncoder.Batch.copies): the map is x + tx,
    // y + ty with whole tx, ty (up to the 1/256 texel the encoder adds), and the texel holding the pixel centre
    // (x + 0.5 + tx) is x + tx, the one the projective map below picks, read without evaluating it.
    c = fetch(ivec2(floor(gl_FragCoord.xy + u_origin) + floor(vec2(v_mapU.z, v_mapV.z) + 0.5)), lo, hi);
#else
    // The texel whose half-open span (i, i + 1] holds the point: pixman's rule (it subtracts its smallest step,
    // then floors), so a point exactly on a texel edge takes the texel before it, at any magnitude. Beyond 2^24
    // every read clamps to an edge texel anyway.
    t = clamp(t, -16777216.0, 16777216.0);
    c = fetch(ivec2(ceil(t)) - 1, lo, hi);
#endif
    c *= opacity;
#if !defined(TRILINEAR)
    // A tinted group (a replicator's instance colour): .rgb holds 1 - the tint of each stored channel (B, G, R);
    // 0 for everything else, which leaves it as it is.
    c.rgb *= 1.0 - v_color.rgb;
#endif
    o_color = u_swapRedBlue ? c.bgra : c;
}
