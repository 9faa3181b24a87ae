#version 300 es
// Samples a premultiplied BGRA image stored byte for byte in an RGBA8 texture (so .rgba holds B, G, R, A)
// the way the CPU renderer's pixman does: the sample point is the pixel centre mapped through the quad's
// projective target-to-texel map (interpolated from the box's corners), texel centres are at i + 0.5, and every texel read is clamped to the quad's
// clamp rectangle (the no-bleed clamp). Bilinear weights are quantised to 7 bits as pixman's are.
precision highp float;
precision highp int;
precision highp sampler2D;

// Compiled twice: with BILINEAR defined (bilinear filtering) and without (nearest). Two programs rather than
// a uniform branch, because llvmpipe pays for both sides of a branch.
uniform sampler2D u_image;
uniform bool u_swapRedBlue;         // true when drawing into a caller's RGBA target

in vec3 v_texel;
flat in vec4 v_clamp;
flat in vec4 v_color;               // .a: opacity
out vec4 o_color;

vec4 fetch(ivec2 texel, ivec2 lo, ivec2 hi) {
    return texelFetch(u_image, clamp(texel, lo, hi), 0);
}

void main() {
    // Interpolated at the pixel centre, this is the centre's sample point.
    vec2 t = v_texel.xy / v_texel.z;
    ivec2 lo = ivec2(v_clamp.xy);
    ivec2 hi = ivec2(v_clamp.zw) - 1;
    vec4 c;
#ifndef BILINEAR
    // pixman rounds a point exactly on a texel boundary down (it subtracts its smallest step first).
    c = fetch(ivec2(floor(t - 1.0 / 65536.0)), lo, hi);
#else
    {
        vec2 s = t - 0.5;
        vec2 f = floor(s);
        vec2 w = floor((s - f) * 128.0) / 128.0;
        ivec2 i = ivec2(f);
        vec4 top = mix(fetch(i, lo, hi), fetch(i + ivec2(1, 0), lo, hi), w.x);
        vec4 bottom = mix(fetch(i + ivec2(0, 1), lo, hi), fetch(i + ivec2(1, 1), lo, hi), w.x);
        c = mix(top, bottom, w.y);
        // pixman truncates the interpolated 8-bit value.
        c = floor(c * 255.0 + 1.0 / 512.0) / 255.0;
    }
#endif
    c *= v_color.a;
    o_color = u_swapRedBlue ? c.bgra : c;
}
