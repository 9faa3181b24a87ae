#version 300 es
// Combines a finished group's picture with the pixels beneath it by a blend mode or a compositing operation
// (docs/semantics.md, "Blend modes"), drawn with GL blending off: the pixels beneath are a copy of the
// enclosing buffer's (u_backdrop), since no GL blend function expresses these formulas. The picture is read
// as texture.frag's nearest program reads a group's buffer, scaled by the opacity and tint and rounded to 8
// bits as pixman's mask rounds it on the CPU. Colours are premultiplied; .rgb holds B, G, R.
// Compiled once per mode: the renderer defines MODE_<GroupComposite raw value> (llvmpipe would pay for every
// case of a switch on a uniform).
// With FRAMEBUFFER_FETCH (GL_EXT_shader_framebuffer_fetch) the pixels beneath are read from the framebuffer itself
// and no copy is made: llvmpipe would otherwise finish the enclosing buffer's drawing before every copy.
#ifdef FRAMEBUFFER_FETCH
#extension GL_EXT_shader_framebuffer_fetch : require
#endif
precision highp float;
precision highp int;
precision highp sampler2D;

uniform sampler2D u_image;          // the group's picture
uniform sampler2D u_backdrop;       // the pixels beneath the group's bounds, as the enclosing buffer holds them
uniform ivec2 u_backdropOffset;     // backdrop texel = framebuffer pixel + this
uniform bool u_swapRedBlue;         // true when the enclosing buffer is a caller's RGBA target

in vec3 v_texel;
flat in vec4 v_clamp;
flat in vec4 v_color;               // .a: opacity; .rgb: 1 - the tint of B, G, R
#ifdef FRAMEBUFFER_FETCH
inout vec4 o_color;
#else
out vec4 o_color;
#endif

// The Porter-Duff operations and plusLighter, plusDarker (GLSL ES has no line continuation, hence one per line).
#if defined(MODE_sourceAtop) || defined(MODE_sourceIn) || defined(MODE_sourceOut) || defined(MODE_destinationOver)
#define PORTER_DUFF 1
#elif defined(MODE_destinationIn) || defined(MODE_destinationOut) || defined(MODE_destinationAtop)
#define PORTER_DUFF 1
#elif defined(MODE_xor) || defined(MODE_plusLighter) || defined(MODE_plusDarker)
#define PORTER_DUFF 1
#endif

#ifdef PORTER_DUFF
// The operation on premultiplied source s and backdrop d, alpha included.
vec4 operate(vec4 s, vec4 d) {
#if defined(MODE_sourceAtop)
    return s * d.a + d * (1.0 - s.a);
#elif defined(MODE_sourceIn)
    return s * d.a;
#elif defined(MODE_sourceOut)
    return s * (1.0 - d.a);
#elif defined(MODE_destinationOver)
    return d + s * (1.0 - d.a);
#elif defined(MODE_destinationIn)
    return d * s.a;
#elif defined(MODE_destinationOut)
    return d * (1.0 - s.a);
#elif defined(MODE_destinationAtop)
    return d * s.a + s * (1.0 - d.a);
#elif defined(MODE_xor)
    return s * (1.0 - d.a) + d * (1.0 - s.a);
#elif defined(MODE_plusLighter)
    return min(s + d, 1.0);
#else
    return max(1.0 - ((1.0 - s) + (1.0 - d)), 0.0);
#endif
}
#else
// Non-separable helpers (W3C, "Blending"), on B, G, R.
float lum(vec3 c) { return dot(c, vec3(0.11, 0.59, 0.3)); }

vec3 clipColor(vec3 c) {
    float l = lum(c);
    float n = min(c.r, min(c.g, c.b));
    float x = max(c.r, max(c.g, c.b));
    if (n < 0.0) c = l + (c - l) * l / (l - n);
    if (x > 1.0) c = l + (c - l) * (1.0 - l) / (x - l);
    return c;
}

vec3 setLum(vec3 c, float l) { return clipColor(c + (l - lum(c))); }

float sat(vec3 c) { return max(c.r, max(c.g, c.b)) - min(c.r, min(c.g, c.b)); }

// The colour with c's hue and saturation s: its smallest channel 0, its largest s, the middle one in proportion.
vec3 setSat(vec3 c, float s) {
    float n = min(c.r, min(c.g, c.b));
    float x = max(c.r, max(c.g, c.b));
    return x > n ? (c - n) * s / (x - n) : vec3(0.0);
}

float softLightD(float b) {
    return b <= 0.25 ? ((16.0 * b - 12.0) * b + 4.0) * b : sqrt(b);
}

float hardLight(float b, float s) {
    return s <= 0.5 ? b * 2.0 * s : b + (2.0 * s - 1.0) - b * (2.0 * s - 1.0);
}

float colorDodge(float b, float s) {
    return b == 0.0 ? 0.0 : s >= 1.0 ? 1.0 : min(1.0, b / (1.0 - s));
}

float colorBurn(float b, float s) {
    return b >= 1.0 ? 1.0 : s <= 0.0 ? 0.0 : 1.0 - min(1.0, (1.0 - b) / s);
}

float softLight(float b, float s) {
    return s <= 0.5 ? b - (1.0 - 2.0 * s) * b * (1.0 - b) : b + (2.0 * s - 1.0) * (softLightD(b) - b);
}

// B(Cb, Cs) on straight (not premultiplied) backdrop and source colours.
vec3 blend(vec3 b, vec3 s) {
#if defined(MODE_multiply)
    return b * s;
#elif defined(MODE_screen)
    return b + s - b * s;
#elif defined(MODE_overlay)
    return vec3(hardLight(s.r, b.r), hardLight(s.g, b.g), hardLight(s.b, b.b));
#elif defined(MODE_darken)
    return min(b, s);
#elif defined(MODE_lighten)
    return max(b, s);
#elif defined(MODE_colorDodge)
    return vec3(colorDodge(b.r, s.r), colorDodge(b.g, s.g), colorDodge(b.b, s.b));
#elif defined(MODE_colorBurn)
    return vec3(colorBurn(b.r, s.r), colorBurn(b.g, s.g), colorBurn(b.b, s.b));
#elif defined(MODE_softLight)
    return vec3(softLight(b.r, s.r), softLight(b.g, s.g), softLight(b.b, s.b));
#elif defined(MODE_hardLight)
    return vec3(hardLight(b.r, s.r), hardLight(b.g, s.g), hardLight(b.b, s.b));
#elif defined(MODE_difference)
    return abs(b - s);
#elif defined(MODE_exclusion)
    return b + s - 2.0 * b * s;
#elif defined(MODE_hue)
    return setLum(setSat(s, sat(b)), lum(b));
#elif defined(MODE_saturation)
    return setLum(setSat(b, sat(s)), lum(b));
#elif defined(MODE_color)
    return setLum(s, lum(b));
#else
    return setLum(b, lum(s));
#endif
}
#endif

void main() {
    vec2 t = v_texel.xy / v_texel.z;
    ivec2 lo = ivec2(v_clamp.xy);
    ivec2 hi = ivec2(v_clamp.zw) - 1;
    vec4 s = texelFetch(u_image, clamp(ivec2(floor(t - 1.0 / 65536.0)), lo, hi), 0);
    s.rgb *= 1.0 - v_color.rgb;
    s = floor(s * v_color.a * 255.0 + 0.5) / 255.0;
#ifdef FRAMEBUFFER_FETCH
    vec4 d = o_color;
#else
    vec4 d = texelFetch(u_backdrop, ivec2(gl_FragCoord.xy) + u_backdropOffset, 0);
#endif
    if (u_swapRedBlue) d = d.bgra;
    vec4 o;
    if (s.a <= 0.0) {
        // Where the group has no pixels what is beneath is left as it is, whatever the operation.
        o = d;
    } else {
#ifdef PORTER_DUFF
        o = operate(s, d);
#else
        vec3 cs = s.rgb / s.a;
        vec3 cb = d.a > 0.0 ? d.rgb / d.a : vec3(0.0);
        o.rgb = s.rgb * (1.0 - d.a) + d.rgb * (1.0 - s.a) + s.a * d.a * clamp(blend(cb, cs), 0.0, 1.0);
        o.a = s.a + d.a - s.a * d.a;
#endif
    }
    o = clamp(o, 0.0, 1.0);
    o_color = u_swapRedBlue ? o.bgra : o;
}
