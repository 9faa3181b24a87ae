#version 300 es
// Samples a premultiplied BGRA image stored byte for byte in an RGBA8 texture (so .rgba holds B, G, R, A)
// the way the CPU renderer's pixman does: the sample point is the pixel centre mapped through the quad's
// projective target-to-texel map, texel centres are at i + 0.5, and every texel read is clamped to the quad's
// clamp rectangle (the no-bleed clamp). Bilinear weights are quantised to 7 bits as pixman's are.
precision highp float;
precision highp int;
precision highp sampler2D;

uniform sampler2D u_image;
uniform int u_filter;               // 0: nearest, 1: bilinear
uniform bool u_swapRedBlue;         // true when drawing into a caller's RGBA target

flat in vec3 v_mapU;
flat in vec3 v_mapV;
flat in vec3 v_mapW;
flat in vec4 v_clamp;
flat in vec4 v_color;               // .a: opacity
out vec4 o_color;

vec4 fetch(ivec2 texel, ivec2 lo, ivec2 hi) {
    return texelFetch(u_image, clamp(texel, lo, hi), 0);
}

void main() {
    vec3 q = vec3(gl_FragCoord.xy, 1.0);
    vec2 t = vec2(dot(q, v_mapU), dot(q, v_mapV)) / dot(q, v_mapW);
    ivec2 lo = ivec2(v_clamp.xy);
    ivec2 hi = ivec2(v_clamp.zw) - 1;
    vec4 c;
    if (u_filter == 0) {
        // pixman rounds a point exactly on a texel boundary down (it subtracts its smallest step first).
        c = fetch(ivec2(floor(t - 1.0 / 65536.0)), lo, hi);
    } else {
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
    c *= v_color.a;
    o_color = u_swapRedBlue ? c.bgra : c;
}
