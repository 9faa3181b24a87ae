#version 300 es
// One pass of a shadow's separable Gaussian blur over the alpha of u_image (the silhouette, then the first
// pass's result), along u_direction. Weights are exp(-i^2 / (2 sigma^2)) x u_normalisation for offsets
// -u_radius ... u_radius, as LaminaCore's GaussianKernel; texels outside the buffer count as transparent. The
// first pass writes the blurred alpha (8 bits, as the CPU renderer keeps it between passes); the second writes
// u_color x the blurred alpha. drawn over a box whose map is the identity, so v_texel is the pixel centre.
// With DOWNSAMPLE it is instead the box average that reduces a silhouette for a large blur (ShadowBlur.factor):
// each output texel is round-half-up(sum of the u_factor x u_factor block's alpha bytes / u_factor^2), in whole
// numbers, as ShadowSource.downsampled computes it.
precision highp float;
precision highp int;
precision highp sampler2D;

uniform sampler2D u_image;
uniform ivec2 u_direction;
uniform int u_radius;
uniform float u_sigma;
uniform float u_normalisation;
uniform vec4 u_color;               // premultiplied, in the buffer's B, G, R, A order
uniform bool u_tint;                // false: first pass (alpha only)
uniform int u_factor;               // DOWNSAMPLE: the block's side
uniform ivec2 u_size;               // the input's size in texels: its pooled buffer may be larger (a size bucket),
                                    // and texels beyond are not part of it

in vec3 v_texel;
flat in vec4 v_clamp;
flat in vec4 v_color;
out vec4 o_color;

float alphaAt(ivec2 p, ivec2 size) {
    if (p.x < 0 || p.y < 0 || p.x >= size.x || p.y >= size.y) return 0.0;
    return texelFetch(u_image, p, 0).a;
}

void main() {
    ivec2 size = u_size;
    ivec2 p = ivec2(floor(v_texel.xy / v_texel.z));
#ifdef DOWNSAMPLE
    ivec2 corner = p * u_factor;
    int total = 0;
    for (int y = 0; y < u_factor; ++y) {
        for (int x = 0; x < u_factor; ++x) {
            total += int(round(texelFetch(u_image, corner + ivec2(x, y), 0).a * 255.0));
        }
    }
    int area = u_factor * u_factor;
    o_color = vec4(0.0, 0.0, 0.0, float((2 * total + area) / (2 * area)) / 255.0);
#else
    float sum = u_normalisation * alphaAt(p, size);
    float twoSigmaSquared = 2.0 * u_sigma * u_sigma;
    for (int i = 1; i <= u_radius; ++i) {
        float w = exp(-float(i * i) / twoSigmaSquared) * u_normalisation;
        sum += w * (alphaAt(p - i * u_direction, size) + alphaAt(p + i * u_direction, size));
    }
    if (u_tint) {
        o_color = u_color * sum;
    } else {
        o_color = vec4(0.0, 0.0, 0.0, sum);
    }
#endif
}
