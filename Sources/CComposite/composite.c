// Lamina's compositing loops (CComposite.h). The arithmetic is pixman's (pixman-combine32.h, pixman-sse2.c):
// x * a / 255 rounded as t = x * a + 128, (t + (t >> 8)) >> 8 (in SIMD: mulhi(t, 257), the same number for
// every 16-bit t), and source + destination x (255 - source alpha) / 255 added with saturation per channel.
// A transparent source pixel leaves the destination as it was and an opaque one replaces it, which the formula
// gives too, so the blocks of 4 or 8 pixels that are all clear are skipped and those that are all opaque copied.
// The bilinear loop samples as pixman's bilinear fast paths do (pixman-inlines.h and pixman-sse2.c, 7-bit weights),
// then composites the samples with the same OVER.
#include "CComposite.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#define LAMINA_X86 1
#include <immintrin.h>
#endif

// MARK: Scalar (pixman's UN8x4 macros, two channels to a 32-bit word)

static inline uint32_t mul_un8x4(uint32_t x, uint32_t a) {
    uint32_t lo = (x & 0x00ff00ffu) * a + 0x00800080u;
    lo = ((lo + ((lo >> 8) & 0x00ff00ffu)) >> 8) & 0x00ff00ffu;
    uint32_t hi = ((x >> 8) & 0x00ff00ffu) * a + 0x00800080u;
    hi = (hi + ((hi >> 8) & 0x00ff00ffu)) & 0xff00ff00u;
    return lo | hi;
}

static inline uint32_t add_un8x4(uint32_t x, uint32_t y) {
    uint32_t lo = (x & 0x00ff00ffu) + (y & 0x00ff00ffu);
    lo |= 0x01000100u - ((lo >> 8) & 0x00ff00ffu);
    lo &= 0x00ff00ffu;
    uint32_t hi = ((x >> 8) & 0x00ff00ffu) + ((y >> 8) & 0x00ff00ffu);
    hi |= 0x01000100u - ((hi >> 8) & 0x00ff00ffu);
    hi &= 0x00ff00ffu;
    return lo | (hi << 8);
}

static inline uint32_t over1(uint32_t s, uint32_t d) {
    uint32_t a = s >> 24;
    if (a == 0xff) return s;
    if (s == 0) return d;
    return add_un8x4(s, mul_un8x4(d, 255 - a));
}

static void over_row_scalar(uint32_t *d, const uint32_t *s, int n, uint32_t m) {
    if (m == 255) {
        for (int i = 0; i < n; i++) d[i] = over1(s[i], d[i]);
    } else {
        for (int i = 0; i < n; i++) {
            uint32_t p = s[i];
            if (p) d[i] = over1(mul_un8x4(p, m), d[i]);
        }
    }
}

static void over_solid_row_scalar(uint32_t *d, int n, uint32_t c) {
    uint32_t ia = 255 - (c >> 24);
    for (int i = 0; i < n; i++) d[i] = add_un8x4(c, mul_un8x4(d[i], ia));
}

static void fill_row_scalar(uint32_t *d, int n, uint32_t c) {
    for (int i = 0; i < n; i++) d[i] = c;
}

#ifdef LAMINA_X86

// MARK: SSE2 (4 pixels at a time)

__attribute__((target("sse2"))) static inline __m128i mul_sse2(__m128i x, __m128i a) {
    // x, a: 16-bit lanes holding bytes.
    __m128i t = _mm_add_epi16(_mm_mullo_epi16(x, a), _mm_set1_epi16(0x80));
    return _mm_mulhi_epu16(t, _mm_set1_epi16(0x0101));
}

/// Each pixel's alpha in all four of its 16-bit lanes.
__attribute__((target("sse2"))) static inline __m128i alphas_sse2(__m128i x) {
    return _mm_shufflehi_epi16(_mm_shufflelo_epi16(x, _MM_SHUFFLE(3, 3, 3, 3)), _MM_SHUFFLE(3, 3, 3, 3));
}

/// s OVER d for 4 pixels (s not all clear).
__attribute__((target("sse2"))) static inline __m128i over_sse2(__m128i s, __m128i d) {
    const __m128i zero = _mm_setzero_si128(), x00ff = _mm_set1_epi16(0x00ff);
    __m128i slo = _mm_unpacklo_epi8(s, zero), shi = _mm_unpackhi_epi8(s, zero);
    __m128i dlo = _mm_unpacklo_epi8(d, zero), dhi = _mm_unpackhi_epi8(d, zero);
    dlo = mul_sse2(dlo, _mm_xor_si128(alphas_sse2(slo), x00ff));
    dhi = mul_sse2(dhi, _mm_xor_si128(alphas_sse2(shi), x00ff));
    return _mm_adds_epu8(_mm_packus_epi16(dlo, dhi), s);
}

/// Each channel of s times m / 255 (m in every 16-bit lane).
__attribute__((target("sse2"))) static inline __m128i scale_sse2(__m128i s, __m128i m) {
    const __m128i zero = _mm_setzero_si128();
    __m128i lo = mul_sse2(_mm_unpacklo_epi8(s, zero), m), hi = mul_sse2(_mm_unpackhi_epi8(s, zero), m);
    return _mm_packus_epi16(lo, hi);
}

__attribute__((target("sse2"))) static void over_row_sse2(uint32_t *d, const uint32_t *s, int n, uint32_t m) {
    const __m128i zero = _mm_setzero_si128(), ones = _mm_set1_epi32(-1);
    int i = 0;
    if (m == 255) {
        for (; i + 4 <= n; i += 4) {
            __m128i p = _mm_loadu_si128((const __m128i *)(s + i));
            int opaque = _mm_movemask_epi8(_mm_cmpeq_epi8(p, ones)) & 0x8888;
            if (opaque == 0x8888) {
                _mm_storeu_si128((__m128i *)(d + i), p);
            } else if (_mm_movemask_epi8(_mm_cmpeq_epi8(p, zero)) != 0xffff) {
                __m128i q = _mm_loadu_si128((const __m128i *)(d + i));
                _mm_storeu_si128((__m128i *)(d + i), over_sse2(p, q));
            }
        }
    } else {
        const __m128i mm = _mm_set1_epi16((short)m);
        for (; i + 4 <= n; i += 4) {
            __m128i p = _mm_loadu_si128((const __m128i *)(s + i));
            if (_mm_movemask_epi8(_mm_cmpeq_epi8(p, zero)) == 0xffff) continue;
            p = scale_sse2(p, mm);
            __m128i q = _mm_loadu_si128((const __m128i *)(d + i));
            _mm_storeu_si128((__m128i *)(d + i), over_sse2(p, q));
        }
    }
    over_row_scalar(d + i, s + i, n - i, m);
}

__attribute__((target("sse2"))) static void over_solid_row_sse2(uint32_t *d, int n, uint32_t c) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i color = _mm_set1_epi32((int)c);
    const __m128i ia = _mm_set1_epi16((short)(255 - (c >> 24)));
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128i q = _mm_loadu_si128((const __m128i *)(d + i));
        __m128i lo = mul_sse2(_mm_unpacklo_epi8(q, zero), ia), hi = mul_sse2(_mm_unpackhi_epi8(q, zero), ia);
        _mm_storeu_si128((__m128i *)(d + i), _mm_adds_epu8(_mm_packus_epi16(lo, hi), color));
    }
    over_solid_row_scalar(d + i, n - i, c);
}

__attribute__((target("sse2"))) static void fill_row_sse2(uint32_t *d, int n, uint32_t c) {
    const __m128i color = _mm_set1_epi32((int)c);
    int i = 0;
    for (; i + 4 <= n; i += 4) _mm_storeu_si128((__m128i *)(d + i), color);
    fill_row_scalar(d + i, n - i, c);
}

// MARK: AVX2 (8 pixels at a time; the unpacks and packs work within each 128-bit half, so the pixels keep their
// places)

__attribute__((target("avx2"))) static inline __m256i mul_avx2(__m256i x, __m256i a) {
    __m256i t = _mm256_add_epi16(_mm256_mullo_epi16(x, a), _mm256_set1_epi16(0x80));
    return _mm256_mulhi_epu16(t, _mm256_set1_epi16(0x0101));
}

__attribute__((target("avx2"))) static inline __m256i alphas_avx2(__m256i x) {
    return _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(x, _MM_SHUFFLE(3, 3, 3, 3)), _MM_SHUFFLE(3, 3, 3, 3));
}

__attribute__((target("avx2"))) static inline __m256i over_avx2(__m256i s, __m256i d) {
    const __m256i zero = _mm256_setzero_si256(), x00ff = _mm256_set1_epi16(0x00ff);
    __m256i slo = _mm256_unpacklo_epi8(s, zero), shi = _mm256_unpackhi_epi8(s, zero);
    __m256i dlo = _mm256_unpacklo_epi8(d, zero), dhi = _mm256_unpackhi_epi8(d, zero);
    dlo = mul_avx2(dlo, _mm256_xor_si256(alphas_avx2(slo), x00ff));
    dhi = mul_avx2(dhi, _mm256_xor_si256(alphas_avx2(shi), x00ff));
    return _mm256_adds_epu8(_mm256_packus_epi16(dlo, dhi), s);
}

__attribute__((target("avx2"))) static inline __m256i scale_avx2(__m256i s, __m256i m) {
    const __m256i zero = _mm256_setzero_si256();
    __m256i lo = mul_avx2(_mm256_unpacklo_epi8(s, zero), m), hi = mul_avx2(_mm256_unpackhi_epi8(s, zero), m);
    return _mm256_packus_epi16(lo, hi);
}

__attribute__((target("avx2"))) static void over_row_avx2(uint32_t *d, const uint32_t *s, int n, uint32_t m) {
    const __m256i alpha = _mm256_set1_epi32((int)0xff000000u);
    int i = 0;
    if (m == 255) {
        for (; i + 8 <= n; i += 8) {
            __m256i p = _mm256_loadu_si256((const __m256i *)(s + i));
            if (_mm256_testz_si256(p, p)) continue;
            if (_mm256_testc_si256(p, alpha)) {
                // Every alpha byte 0xff.
                _mm256_storeu_si256((__m256i *)(d + i), p);
                continue;
            }
            __m256i q = _mm256_loadu_si256((const __m256i *)(d + i));
            _mm256_storeu_si256((__m256i *)(d + i), over_avx2(p, q));
        }
    } else {
        const __m256i mm = _mm256_set1_epi16((short)m);
        for (; i + 8 <= n; i += 8) {
            __m256i p = _mm256_loadu_si256((const __m256i *)(s + i));
            if (_mm256_testz_si256(p, p)) continue;
            p = scale_avx2(p, mm);
            __m256i q = _mm256_loadu_si256((const __m256i *)(d + i));
            _mm256_storeu_si256((__m256i *)(d + i), over_avx2(p, q));
        }
    }
    // The tail (fewer than 8): 4 at a time, then one by one.
    over_row_sse2(d + i, s + i, n - i, m);
}

__attribute__((target("avx2"))) static void over_solid_row_avx2(uint32_t *d, int n, uint32_t c) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i color = _mm256_set1_epi32((int)c);
    const __m256i ia = _mm256_set1_epi16((short)(255 - (c >> 24)));
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i q = _mm256_loadu_si256((const __m256i *)(d + i));
        __m256i lo = mul_avx2(_mm256_unpacklo_epi8(q, zero), ia), hi = mul_avx2(_mm256_unpackhi_epi8(q, zero), ia);
        _mm256_storeu_si256((__m256i *)(d + i), _mm256_adds_epu8(_mm256_packus_epi16(lo, hi), color));
    }
    over_solid_row_sse2(d + i, n - i, c);
}

__attribute__((target("avx2"))) static void fill_row_avx2(uint32_t *d, int n, uint32_t c) {
    const __m256i color = _mm256_set1_epi32((int)c);
    int i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_si256((__m256i *)(d + i), color);
    fill_row_sse2(d + i, n - i, c);
}

#endif

// MARK: Bilinear source-over (an axis-aligned scale)
//
// pixman's bilinear sampling (pixman-inlines.h, pixman-sse2.c with BILINEAR_INTERPOLATION_BITS 7): the sample
// point of pixel i of a row is x = vx + i * unit_x in 16.16 (the pixel centre already mapped and half a texel taken
// off), texel x >> 16 and the one right of it, weighted 128 - w and w with w = (x >> 9) & 127; rows the same with
// y. Each channel is ((tl * wt + bl * wb) * wl + (tr * wt + br * wb) * wr) >> 14, truncated. Texels outside the
// view are its edge texels (PAD): where both columns (or rows) fall on the same texel the weights do not matter.

/// Where the columns of a row of `width` pixels fall: [0, left) on texel 0 only, [left, right) on two texels inside,
/// [right, width) on the last texel only.
static void bilinear_zones(int64_t vx, int64_t unit_x, int width, int src_width, int *left, int *right) {
    // First i with vx + i * unit_x >= bound (unit_x > 0).
    int64_t l = vx >= 0 ? 0 : (-vx + unit_x - 1) / unit_x;
    int64_t bound = ((int64_t)src_width - 1) << 16;
    int64_t r = vx >= bound ? 0 : (bound - vx + unit_x - 1) / unit_x;
    if (l > width) l = width;
    if (r > width) r = width;
    if (r < l) r = l;
    *left = (int)l;
    *right = (int)r;
}

/// Texel `t` over `b` weighted wt, wb (wt + wb = 128), then >> 7: the sample where both columns are one texel.
static inline uint32_t bilinear_vertical(uint32_t t, uint32_t b, int wt, int wb) {
    uint32_t out = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        uint32_t c = (((t >> shift) & 0xff) * wt + ((b >> shift) & 0xff) * wb) >> 7;
        out |= c << shift;
    }
    return out;
}

static inline uint32_t bilinear_sample(uint32_t tl, uint32_t tr, uint32_t bl, uint32_t br, int wt, int wb, int wr) {
    int wl = 128 - wr;
    uint32_t out = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        uint32_t l = ((tl >> shift) & 0xff) * wt + ((bl >> shift) & 0xff) * wb;
        uint32_t r = ((tr >> shift) & 0xff) * wt + ((br >> shift) & 0xff) * wb;
        out |= ((l * wl + r * wr) >> 14) << shift;
    }
    return out;
}

static inline uint32_t over_masked1(uint32_t p, uint32_t d, uint32_t m) {
    if (m != 255) {
        if (!p) return d;
        p = mul_un8x4(p, m);
    }
    return over1(p, d);
}

static void bilinear_inner_scalar(uint32_t *d, const uint32_t *top, const uint32_t *bottom, int n, int64_t x,
                                  int64_t unit_x, int wt, int wb, uint32_t m) {
    for (int i = 0; i < n; i++, x += unit_x) {
        int x1 = (int)(x >> 16), wr = (int)((x >> 9) & 127);
        uint32_t p = bilinear_sample(top[x1], top[x1 + 1], bottom[x1], bottom[x1 + 1], wt, wb, wr);
        d[i] = over_masked1(p, d[i], m);
    }
}

// The separable form, for rows that share texel rows (a scale up or 1:1 down the rows): pixman's sum
// (tl * wt + bl * wb) * wl + (tr * wt + br * wb) * wr equals wt * (tl * wl + tr * wr) + wb * (bl * wl + br * wr),
// exactly, in integers, so each texel row's horizontal sums h = l * wl + r * wr (at most 255 * 128: 16 bits) are
// worked out once for all the rows that read it, and each pixel is (ht * wt + hb * wb) >> 14, pixman's bytes.

/// The horizontal sums of `n` pixels from x on texel row `row`: 4 channels of 16 bits a pixel.
static void bilinear_sums_scalar(uint16_t *h, const uint32_t *row, int n, int64_t x, int64_t unit_x) {
    for (int i = 0; i < n; i++, x += unit_x) {
        int x1 = (int)(x >> 16), wr = (int)((x >> 9) & 127), wl = 128 - wr;
        uint32_t l = row[x1], r = row[x1 + 1];
        for (int c = 0; c < 4; c++) {
            h[4 * i + c] = (uint16_t)(((l >> (8 * c)) & 0xff) * wl + ((r >> (8 * c)) & 0xff) * wr);
        }
    }
}

/// The samples of `n` pixels from two rows of sums weighted wt, wb.
static void bilinear_blend_scalar(uint32_t *out, const uint16_t *ht, const uint16_t *hb, int n, int wt, int wb) {
    for (int i = 0; i < n; i++) {
        uint32_t p = 0;
        for (int c = 0; c < 4; c++) p |= (((uint32_t)ht[4 * i + c] * wt + (uint32_t)hb[4 * i + c] * wb) >> 14) << (8 * c);
        out[i] = p;
    }
}

#ifdef LAMINA_X86

/// The horizontal weights of 4 pixels from x (pixman's way): 16-bit lane pairs (128 - w, w) with
/// w = (x >> 9) & 127, kept as the low 16 bits of -(x + 1) and x, stepped 4 pixels at a time.
__attribute__((target("sse2"))) static inline __m128i bilinear_xs_sse2(int64_t x, int64_t unit_x) {
    short s[8];
    for (int k = 0; k < 4; k++) {
        int64_t p = x + k * unit_x;
        s[2 * k] = (short)(uint16_t)(-(p + 1));
        s[2 * k + 1] = (short)(uint16_t)p;
    }
    return _mm_setr_epi16(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]);
}

/// What 4 pixels add to the lanes of `bilinear_xs_sse2`.
__attribute__((target("sse2"))) static inline __m128i bilinear_step_sse2(int64_t unit_x) {
    return _mm_set1_epi32((int)(((uint32_t)(uint16_t)(4 * unit_x) << 16) | (uint16_t)(-(4 * unit_x))));
}

/// The 4 pixels' weights (each 32-bit lane (128 - w, w)) from `xs`, which moves on 4 pixels.
__attribute__((target("sse2"))) static inline __m128i bilinear_weights_sse2(__m128i *xs, __m128i step) {
    __m128i wh = _mm_add_epi16(_mm_srli_epi16(*xs, 16 - 7), _mm_set1_epi32(1));
    *xs = _mm_add_epi16(*xs, step);
    return wh;
}

/// One pixel's sample as four 32-bit channels, pixman's SSE2 arithmetic: `wh` holds its weights in each 32-bit lane.
__attribute__((target("sse2"))) static inline __m128i bilinear_one_sse2(const uint32_t *top, const uint32_t *bottom,
                                                                        int x1, __m128i wt, __m128i wb, __m128i wh) {
    const __m128i zero = _mm_setzero_si128();
    __m128i tltr = _mm_loadl_epi64((const __m128i *)(top + x1));
    __m128i blbr = _mm_loadl_epi64((const __m128i *)(bottom + x1));
    __m128i a = _mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(tltr, zero), wt),
                              _mm_mullo_epi16(_mm_unpacklo_epi8(blbr, zero), wb));
    // Left and right channels side by side (l0 r0 l1 r1 ...), times (wl, wr).
    __m128i lr = _mm_unpackhi_epi16(_mm_shuffle_epi32(a, _MM_SHUFFLE(1, 0, 3, 2)), a);
    return _mm_srli_epi32(_mm_madd_epi16(lr, wh), 14);
}

/// 4 pixels' samples from x (each pixel's texels inside the row), packed.
__attribute__((target("sse2"))) static inline __m128i bilinear_four_sse2(const uint32_t *top, const uint32_t *bottom,
                                                                         int64_t x, int64_t unit_x, __m128i wt,
                                                                         __m128i wb, __m128i wh) {
    __m128i p0 = bilinear_one_sse2(top, bottom, (int)(x >> 16), wt, wb, _mm_shuffle_epi32(wh, _MM_SHUFFLE(0, 0, 0, 0)));
    __m128i p1 = bilinear_one_sse2(top, bottom, (int)((x + unit_x) >> 16), wt, wb,
                                   _mm_shuffle_epi32(wh, _MM_SHUFFLE(1, 1, 1, 1)));
    __m128i p2 = bilinear_one_sse2(top, bottom, (int)((x + 2 * unit_x) >> 16), wt, wb,
                                   _mm_shuffle_epi32(wh, _MM_SHUFFLE(2, 2, 2, 2)));
    __m128i p3 = bilinear_one_sse2(top, bottom, (int)((x + 3 * unit_x) >> 16), wt, wb,
                                   _mm_shuffle_epi32(wh, _MM_SHUFFLE(3, 3, 3, 3)));
    return _mm_packus_epi16(_mm_packs_epi32(p0, p1), _mm_packs_epi32(p2, p3));
}

__attribute__((target("sse2"))) static void bilinear_inner_sse2(uint32_t *d, const uint32_t *top,
                                                                const uint32_t *bottom, int n, int64_t x,
                                                                int64_t unit_x, int wt, int wb, uint32_t m) {
    const __m128i zero = _mm_setzero_si128(), ones = _mm_set1_epi32(-1);
    const __m128i vwt = _mm_set1_epi16((short)wt), vwb = _mm_set1_epi16((short)wb);
    const __m128i mm = _mm_set1_epi16((short)m);
    const __m128i step = bilinear_step_sse2(unit_x);
    __m128i xs = bilinear_xs_sse2(x, unit_x);
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128i wh = bilinear_weights_sse2(&xs, step);
        __m128i p = bilinear_four_sse2(top, bottom, x, unit_x, vwt, vwb, wh);
        x += 4 * unit_x;
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(p, zero)) == 0xffff) continue;
        if (m == 255) {
            if ((_mm_movemask_epi8(_mm_cmpeq_epi8(p, ones)) & 0x8888) == 0x8888) {
                _mm_storeu_si128((__m128i *)(d + i), p);
                continue;
            }
        } else {
            p = scale_sse2(p, mm);
        }
        __m128i q = _mm_loadu_si128((const __m128i *)(d + i));
        _mm_storeu_si128((__m128i *)(d + i), over_sse2(p, q));
    }
    // The tail one pixel at a time (sampled with the same SSE2 arithmetic).
    for (; i < n; i++, x += unit_x) {
        int x1 = (int)(x >> 16), wr = (int)((x >> 9) & 127);
        __m128i wh = _mm_set1_epi32((int)((uint32_t)(128 - wr) | (uint32_t)wr << 16));
        __m128i v = bilinear_one_sse2(top, bottom, x1, vwt, vwb, wh);
        v = _mm_packs_epi32(v, v);
        d[i] = over_masked1((uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(v, v)), d[i], m);
    }
}

/// One pixel's horizontal sums (l * wl + r * wr) as four 32-bit channels: `wh` holds (wl, wr) in each 32-bit lane.
__attribute__((target("sse2"))) static inline __m128i bilinear_sum_sse2(const uint32_t *row, int x1, __m128i wh) {
    __m128i a = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(row + x1)), _mm_setzero_si128());
    __m128i lr = _mm_unpackhi_epi16(_mm_shuffle_epi32(a, _MM_SHUFFLE(1, 0, 3, 2)), a);
    return _mm_madd_epi16(lr, wh);
}

__attribute__((target("sse2"))) static void bilinear_sums_sse2(uint16_t *h, const uint32_t *row, int n, int64_t x,
                                                               int64_t unit_x) {
    const __m128i step = bilinear_step_sse2(unit_x);
    __m128i xs = bilinear_xs_sse2(x, unit_x);
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128i wh = bilinear_weights_sse2(&xs, step);
        __m128i p0 = bilinear_sum_sse2(row, (int)(x >> 16), _mm_shuffle_epi32(wh, _MM_SHUFFLE(0, 0, 0, 0)));
        __m128i p1 = bilinear_sum_sse2(row, (int)((x + unit_x) >> 16), _mm_shuffle_epi32(wh, _MM_SHUFFLE(1, 1, 1, 1)));
        __m128i p2 = bilinear_sum_sse2(row, (int)((x + 2 * unit_x) >> 16),
                                       _mm_shuffle_epi32(wh, _MM_SHUFFLE(2, 2, 2, 2)));
        __m128i p3 = bilinear_sum_sse2(row, (int)((x + 3 * unit_x) >> 16),
                                       _mm_shuffle_epi32(wh, _MM_SHUFFLE(3, 3, 3, 3)));
        x += 4 * unit_x;
        _mm_storeu_si128((__m128i *)(h + 4 * i), _mm_packs_epi32(p0, p1));
        _mm_storeu_si128((__m128i *)(h + 4 * i + 8), _mm_packs_epi32(p2, p3));
    }
    bilinear_sums_scalar(h + 4 * i, row, n - i, x, unit_x);
}

__attribute__((target("sse2"))) static void bilinear_blend_sse2(uint32_t *out, const uint16_t *ht, const uint16_t *hb,
                                                                int n, int wt, int wb) {
    const __m128i w = _mm_set1_epi32((int)((uint32_t)(uint16_t)wt | (uint32_t)(uint16_t)wb << 16));
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128i t0 = _mm_loadu_si128((const __m128i *)(ht + 4 * i)), t1 = _mm_loadu_si128((const __m128i *)(ht + 4 * i + 8));
        __m128i b0 = _mm_loadu_si128((const __m128i *)(hb + 4 * i)), b1 = _mm_loadu_si128((const __m128i *)(hb + 4 * i + 8));
        __m128i q0 = _mm_srli_epi32(_mm_madd_epi16(_mm_unpacklo_epi16(t0, b0), w), 14);
        __m128i q1 = _mm_srli_epi32(_mm_madd_epi16(_mm_unpackhi_epi16(t0, b0), w), 14);
        __m128i q2 = _mm_srli_epi32(_mm_madd_epi16(_mm_unpacklo_epi16(t1, b1), w), 14);
        __m128i q3 = _mm_srli_epi32(_mm_madd_epi16(_mm_unpackhi_epi16(t1, b1), w), 14);
        _mm_storeu_si128((__m128i *)(out + i), _mm_packus_epi16(_mm_packs_epi32(q0, q1), _mm_packs_epi32(q2, q3)));
    }
    bilinear_blend_scalar(out + i, ht + 4 * i, hb + 4 * i, n - i, wt, wb);
}

/// 8 samples `p` composited through `m` (`mm`: m in every 16-bit lane) onto `d`: nothing where all are clear, a copy
/// where all are opaque and m is 255, else OVER.
__attribute__((target("avx2"))) static inline void over8_avx2(uint32_t *d, __m256i p, uint32_t m, __m256i mm) {
    if (_mm256_testz_si256(p, p)) return;
    if (m == 255) {
        if (_mm256_testc_si256(p, _mm256_set1_epi32((int)0xff000000u))) {
            _mm256_storeu_si256((__m256i *)d, p);
            return;
        }
    } else {
        p = scale_avx2(p, mm);
    }
    _mm256_storeu_si256((__m256i *)d, over_avx2(p, _mm256_loadu_si256((const __m256i *)d)));
}

/// Pixels x1 and x2 (texel columns), one to each 128-bit half, `wh` their weights (each half's in all its lanes).
__attribute__((target("avx2"))) static inline __m256i bilinear_two_avx2(const uint32_t *top, const uint32_t *bottom,
                                                                        int x1, int x2, __m256i wt, __m256i wb,
                                                                        __m256i wh) {
    const __m256i zero = _mm256_setzero_si256();
    __m256i t = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadl_epi64((const __m128i *)(top + x1))),
                                        _mm_loadl_epi64((const __m128i *)(top + x2)), 1);
    __m256i b = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadl_epi64((const __m128i *)(bottom + x1))),
                                        _mm_loadl_epi64((const __m128i *)(bottom + x2)), 1);
    __m256i v = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpacklo_epi8(t, zero), wt),
                                 _mm256_mullo_epi16(_mm256_unpacklo_epi8(b, zero), wb));
    __m256i lr = _mm256_unpackhi_epi16(_mm256_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)), v);
    return _mm256_srli_epi32(_mm256_madd_epi16(lr, wh), 14);
}

__attribute__((target("avx2"))) static void bilinear_inner_avx2(uint32_t *d, const uint32_t *top,
                                                                const uint32_t *bottom, int n, int64_t x,
                                                                int64_t unit_x, int wt, int wb, uint32_t m) {
    const __m256i vwt = _mm256_set1_epi16((short)wt), vwb = _mm256_set1_epi16((short)wb);
    const __m256i mm = _mm256_set1_epi16((short)m);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const __m256i addc = _mm256_set1_epi32(1);
    const __m256i step = _mm256_set1_epi32((int)(((uint32_t)(uint16_t)(8 * unit_x) << 16) |
                                                 (uint16_t)(-(8 * unit_x))));
    const __m256i pick01 = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    const __m256i pick23 = _mm256_setr_epi32(2, 2, 2, 2, 3, 3, 3, 3);
    const __m256i pick45 = _mm256_setr_epi32(4, 4, 4, 4, 5, 5, 5, 5);
    const __m256i pick67 = _mm256_setr_epi32(6, 6, 6, 6, 7, 7, 7, 7);
    __m256i xs = _mm256_inserti128_si256(_mm256_castsi128_si256(bilinear_xs_sse2(x, unit_x)),
                                         bilinear_xs_sse2(x + 4 * unit_x, unit_x), 1);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i wh = _mm256_add_epi16(_mm256_srli_epi16(xs, 16 - 7), addc);
        xs = _mm256_add_epi16(xs, step);
        int c[8];
        for (int k = 0; k < 8; k++) c[k] = (int)((x + k * unit_x) >> 16);
        x += 8 * unit_x;
        __m256i p01 = bilinear_two_avx2(top, bottom, c[0], c[1], vwt, vwb, _mm256_permutevar8x32_epi32(wh, pick01));
        __m256i p23 = bilinear_two_avx2(top, bottom, c[2], c[3], vwt, vwb, _mm256_permutevar8x32_epi32(wh, pick23));
        __m256i p45 = bilinear_two_avx2(top, bottom, c[4], c[5], vwt, vwb, _mm256_permutevar8x32_epi32(wh, pick45));
        __m256i p67 = bilinear_two_avx2(top, bottom, c[6], c[7], vwt, vwb, _mm256_permutevar8x32_epi32(wh, pick67));
        // Halves: (p0 p2 p4 p6 | p1 p3 p5 p7), put back in order.
        __m256i p = _mm256_packus_epi16(_mm256_packs_epi32(p01, p23), _mm256_packs_epi32(p45, p67));
        p = _mm256_permutevar8x32_epi32(p, order);
        over8_avx2(d + i, p, m, mm);
    }
    bilinear_inner_sse2(d + i, top, bottom, n - i, x, unit_x, wt, wb, m);
}

/// `bilinear_inner_avx2` where each pixel steps exactly two texels (an image shown at half its size, as a 2x asset on
/// a 1x output): the 8 pixels of a step read 16 consecutive texels, loaded whole instead of two at a time, and share
/// one horizontal weight. The sums are the same, so are the bytes.
__attribute__((target("avx2"))) static void bilinear_inner_half_avx2(uint32_t *d, const uint32_t *top,
                                                                     const uint32_t *bottom, int n, int64_t x, int wt,
                                                                     int wb, uint32_t m) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i vwt = _mm256_set1_epi16((short)wt), vwb = _mm256_set1_epi16((short)wb);
    const __m256i mm = _mm256_set1_epi16((short)m);
    const int wr = (int)((x >> 9) & 127);
    const __m256i wh = _mm256_set1_epi32((int)((uint32_t)(128 - wr) | (uint32_t)wr << 16));
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        const int c = (int)(x >> 16);
        x += 8 * (int64_t)131072;
        __m256i q[4];
        for (int h = 0; h < 2; h++) {
            __m256i t = _mm256_loadu_si256((const __m256i *)(top + c + 8 * h));
            __m256i b = _mm256_loadu_si256((const __m256i *)(bottom + c + 8 * h));
            // Texels c, c+1 | c+4, c+5 (low bytes of each half) and c+2, c+3 | c+6, c+7 (high), rows blended.
            __m256i lo = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpacklo_epi8(t, zero), vwt),
                                          _mm256_mullo_epi16(_mm256_unpacklo_epi8(b, zero), vwb));
            __m256i hi = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpackhi_epi8(t, zero), vwt),
                                          _mm256_mullo_epi16(_mm256_unpackhi_epi8(b, zero), vwb));
            // Pixels 4h and 4h + 2 from `lo`, 4h + 1 and 4h + 3 from `hi`, one to each half.
            q[2 * h] = _mm256_srli_epi32(
                _mm256_madd_epi16(_mm256_unpackhi_epi16(_mm256_shuffle_epi32(lo, _MM_SHUFFLE(1, 0, 3, 2)), lo), wh), 14);
            q[2 * h + 1] = _mm256_srli_epi32(
                _mm256_madd_epi16(_mm256_unpackhi_epi16(_mm256_shuffle_epi32(hi, _MM_SHUFFLE(1, 0, 3, 2)), hi), wh), 14);
        }
        // Halves: (p0 p1 p4 p5 | p2 p3 p6 p7), put back in order by 64-bit pairs.
        __m256i p = _mm256_packus_epi16(_mm256_packs_epi32(q[0], q[1]), _mm256_packs_epi32(q[2], q[3]));
        p = _mm256_permute4x64_epi64(p, _MM_SHUFFLE(3, 1, 2, 0));
        over8_avx2(d + i, p, m, mm);
    }
    bilinear_inner_sse2(d + i, top, bottom, n - i, x, 131072, wt, wb, m);
}

/// Blends `n` pixels from two rows of sums and composites them through `m` onto `d`, 8 at a time (the tail through
/// the SSE2 form).
__attribute__((target("avx2"))) static void bilinear_blend_over_avx2(uint32_t *d, const uint16_t *ht, const uint16_t *hb,
                                                                     int n, int wt, int wb, uint32_t m) {
    const __m256i w = _mm256_set1_epi32((int)((uint32_t)(uint16_t)wt | (uint32_t)(uint16_t)wb << 16));
    const __m256i mm = _mm256_set1_epi16((short)m);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        // Halves: (p0 p1 | p2 p3) and (p4 p5 | p6 p7), 16-bit sums.
        __m256i t0 = _mm256_loadu_si256((const __m256i *)(ht + 4 * i));
        __m256i t1 = _mm256_loadu_si256((const __m256i *)(ht + 4 * i + 16));
        __m256i b0 = _mm256_loadu_si256((const __m256i *)(hb + 4 * i));
        __m256i b1 = _mm256_loadu_si256((const __m256i *)(hb + 4 * i + 16));
        __m256i lo0 = _mm256_srli_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(t0, b0), w), 14);
        __m256i hi0 = _mm256_srli_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(t0, b0), w), 14);
        __m256i lo1 = _mm256_srli_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(t1, b1), w), 14);
        __m256i hi1 = _mm256_srli_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(t1, b1), w), 14);
        // (p0 p1 p4 p5 | p2 p3 p6 p7) as bytes, put back in order by 64-bit pairs.
        __m256i p = _mm256_packus_epi16(_mm256_packs_epi32(lo0, hi0), _mm256_packs_epi32(lo1, hi1));
        p = _mm256_permute4x64_epi64(p, _MM_SHUFFLE(3, 1, 2, 0));
        over8_avx2(d + i, p, m, mm);
    }
    if (i < n) {
        uint32_t tail[8];
        bilinear_blend_sse2(tail, ht + 4 * i, hb + 4 * i, n - i, wt, wb);
        over_row_sse2(d + i, tail, n - i, m);
    }
}

#endif

// MARK: Choosing a form

int lamina_composite_supports(int path) {
    switch (path) {
    case LAMINA_COMPOSITE_SCALAR:
        return 1;
#ifdef LAMINA_X86
    case LAMINA_COMPOSITE_SSE2:
        __builtin_cpu_init();
        return __builtin_cpu_supports("sse2") ? 1 : 0;
    case LAMINA_COMPOSITE_AVX2:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") ? 1 : 0;
#endif
    default:
        return 0;
    }
}

int lamina_composite_best_path(void) {
    static int best = -1;
    int found = __atomic_load_n(&best, __ATOMIC_RELAXED);
    if (found < 0) {
        found = lamina_composite_supports(LAMINA_COMPOSITE_AVX2)   ? LAMINA_COMPOSITE_AVX2
                : lamina_composite_supports(LAMINA_COMPOSITE_SSE2) ? LAMINA_COMPOSITE_SSE2
                                                                   : LAMINA_COMPOSITE_SCALAR;
        __atomic_store_n(&best, found, __ATOMIC_RELAXED);
    }
    return found;
}

/// `path`, or the best form below it this CPU runs.
static int usable(int path) {
    int best = lamina_composite_best_path();
    if (path > best) return best;
    return path < 0 ? LAMINA_COMPOSITE_SCALAR : path;
}

void lamina_composite_over(int path, uint32_t *dst, ptrdiff_t dst_stride, const uint32_t *src,
                           ptrdiff_t src_stride, int width, int height, uint8_t opacity) {
    if (width <= 0 || height <= 0 || opacity == 0) return;
    path = usable(path);
    for (int y = 0; y < height; y++, dst += dst_stride, src += src_stride) {
        switch (path) {
#ifdef LAMINA_X86
        case LAMINA_COMPOSITE_AVX2: over_row_avx2(dst, src, width, opacity); break;
        case LAMINA_COMPOSITE_SSE2: over_row_sse2(dst, src, width, opacity); break;
#endif
        default: over_row_scalar(dst, src, width, opacity); break;
        }
    }
}

void lamina_composite_over_solid(int path, uint32_t *dst, ptrdiff_t dst_stride, int width, int height,
                                 uint32_t color) {
    if (width <= 0 || height <= 0 || color == 0) return;
    if (color >> 24 == 0xff) {
        lamina_composite_fill(path, dst, dst_stride, width, height, color);
        return;
    }
    path = usable(path);
    for (int y = 0; y < height; y++, dst += dst_stride) {
        switch (path) {
#ifdef LAMINA_X86
        case LAMINA_COMPOSITE_AVX2: over_solid_row_avx2(dst, width, color); break;
        case LAMINA_COMPOSITE_SSE2: over_solid_row_sse2(dst, width, color); break;
#endif
        default: over_solid_row_scalar(dst, width, color); break;
        }
    }
}

void lamina_composite_fill(int path, uint32_t *dst, ptrdiff_t dst_stride, int width, int height, uint32_t color) {
    if (width <= 0 || height <= 0) return;
    path = usable(path);
    for (int y = 0; y < height; y++, dst += dst_stride) {
        switch (path) {
#ifdef LAMINA_X86
        case LAMINA_COMPOSITE_AVX2: fill_row_avx2(dst, width, color); break;
        case LAMINA_COMPOSITE_SSE2: fill_row_sse2(dst, width, color); break;
#endif
        default: fill_row_scalar(dst, width, color); break;
        }
    }
}

/// pixman_transform_point_3d's coordinate for a pixel centre on one axis of a scale (16.16 term `a`, translation
/// `c`), less half a texel: the sample point of pixel `x`.
static int64_t bilinear_start(int32_t a, int32_t c, int x) {
    int64_t v = (int64_t)x * 65536 + 32768;
    int64_t whole = (int64_t)a * (v >> 16) + c, part = (int64_t)a * (v & 0xffff);
    return whole + ((part + 0x8000) >> 16) - 32768;
}

/// The texel rows a run of columns holds the sums of (`bilinear_sums_*`), two at a time.
typedef struct {
    uint16_t sums[2][256 * 4];
    int held[2];
} bilinear_rows;

/// The sums of texel row `y` for `n` columns from x, worked out unless held, evicting a row other than `keep`.
static const uint16_t *bilinear_row(int path, bilinear_rows *rows, int y, int keep, const uint32_t *src,
                                    ptrdiff_t src_stride, int n, int64_t x, int64_t unit_x) {
    if (rows->held[0] == y) return rows->sums[0];
    if (rows->held[1] == y) return rows->sums[1];
    int slot = rows->held[0] == keep ? 1 : 0;
    const uint32_t *row = src + (ptrdiff_t)y * src_stride;
#ifdef LAMINA_X86
    if (path == LAMINA_COMPOSITE_AVX2 || path == LAMINA_COMPOSITE_SSE2) {
        bilinear_sums_sse2(rows->sums[slot], row, n, x, unit_x);
    } else
#endif
    {
        bilinear_sums_scalar(rows->sums[slot], row, n, x, unit_x);
    }
    rows->held[slot] = y;
    return rows->sums[slot];
}

/// The columns whose samples lie between two texels (`bilinear_zones`' inner zone, from x), in runs of 256: each
/// texel row's sums once per run, then each row of pixels blended from its two rows' sums and composited.
static void bilinear_separable(int path, uint32_t *dst, ptrdiff_t dst_stride, int width, int height,
                               const uint32_t *src, ptrdiff_t src_stride, int src_height, int64_t x, int64_t unit_x,
                               int64_t vy, int64_t unit_y, uint32_t m) {
    bilinear_rows rows;
    uint32_t samples[256];
    for (int c0 = 0; c0 < width; c0 += 256) {
        const int n = width - c0 < 256 ? width - c0 : 256;
        const int64_t cx = x + (int64_t)c0 * unit_x;
        rows.held[0] = rows.held[1] = -1;
        uint32_t *d = dst + c0;
        int64_t y = vy;
        for (int row = 0; row < height; row++, d += dst_stride, y += unit_y) {
            int y1 = (int)(y >> 16), wb = (int)((y >> 9) & 127), wt = 128 - wb;
            int y2 = y1 + 1;
            y1 = y1 < 0 ? 0 : y1 >= src_height ? src_height - 1 : y1;
            y2 = y2 < 0 ? 0 : y2 >= src_height ? src_height - 1 : y2;
            const uint16_t *ht = bilinear_row(path, &rows, y1, -1, src, src_stride, n, cx, unit_x);
            // One texel row (a weight of 0, or both rows clamped to one): ht * 128 >> 14, as pixman's sum gives.
            const uint16_t *hb = wb == 0 || y2 == y1 ? ht
                : bilinear_row(path, &rows, y2, y1, src, src_stride, n, cx, unit_x);
            switch (path) {
#ifdef LAMINA_X86
            case LAMINA_COMPOSITE_AVX2: bilinear_blend_over_avx2(d, ht, hb, n, wt, wb, m); break;
            case LAMINA_COMPOSITE_SSE2:
                bilinear_blend_sse2(samples, ht, hb, n, wt, wb);
                over_row_sse2(d, samples, n, m);
                break;
#endif
            default:
                bilinear_blend_scalar(samples, ht, hb, n, wt, wb);
                over_row_scalar(d, samples, n, m);
                break;
            }
        }
    }
}

int lamina_composite_bilinear_over(int path, uint32_t *dst, ptrdiff_t dst_stride, int width, int height,
                                   const uint32_t *src, ptrdiff_t src_stride, int src_width, int src_height,
                                   int32_t a, int32_t c, int32_t d, int32_t f, int x, int y, uint8_t opacity) {
    if (a <= 0 || d <= 0 || src_width <= 0 || src_height <= 0) return 0;
    if (width <= 0 || height <= 0 || opacity == 0) return 1;
    path = usable(path);
    const int64_t vx = bilinear_start(a, c, x), unit_x = a, unit_y = d;
    int64_t vy = bilinear_start(d, f, y);
    int left, right;
    bilinear_zones(vx, unit_x, width, src_width, &left, &right);
    const int64_t inner_x = vx + left * unit_x;
    const uint32_t m = opacity;
    // Rows that share texel rows (a scale up or 1:1 down the rows): the separable form, below.
    const int separable = unit_y <= 65536 && right > left;
    if (separable) bilinear_separable(path, dst + left, dst_stride, right - left, height, src, src_stride,
                                      src_height, inner_x, unit_x, vy, unit_y, m);
    for (int row = 0; row < height; row++, dst += dst_stride, vy += unit_y) {
        int y1 = (int)(vy >> 16), wb = (int)((vy >> 9) & 127), wt = 128 - wb;
        int y2 = y1 + 1;
        y1 = y1 < 0 ? 0 : y1 >= src_height ? src_height - 1 : y1;
        y2 = y2 < 0 ? 0 : y2 >= src_height ? src_height - 1 : y2;
        const uint32_t *top = src + y1 * src_stride, *bottom = src + y2 * src_stride;
        // The edge columns: one colour each, composited as a solid colour (OVER of it is the same formula).
        if (left > 0) {
            uint32_t c = bilinear_vertical(top[0], bottom[0], wt, wb);
            if (m != 255) c = mul_un8x4(c, m);
            if (c) {
                switch (path) {
#ifdef LAMINA_X86
                case LAMINA_COMPOSITE_AVX2: over_solid_row_avx2(dst, left, c); break;
                case LAMINA_COMPOSITE_SSE2: over_solid_row_sse2(dst, left, c); break;
#endif
                default: over_solid_row_scalar(dst, left, c); break;
                }
            }
        }
        if (right > left && !separable) {
            switch (path) {
#ifdef LAMINA_X86
            case LAMINA_COMPOSITE_AVX2:
                if (unit_x == 131072) {
                    bilinear_inner_half_avx2(dst + left, top, bottom, right - left, inner_x, wt, wb, m);
                } else {
                    bilinear_inner_avx2(dst + left, top, bottom, right - left, inner_x, unit_x, wt, wb, m);
                }
                break;
            case LAMINA_COMPOSITE_SSE2:
                bilinear_inner_sse2(dst + left, top, bottom, right - left, inner_x, unit_x, wt, wb, m);
                break;
#endif
            default: bilinear_inner_scalar(dst + left, top, bottom, right - left, inner_x, unit_x, wt, wb, m); break;
            }
        }
        if (width > right) {
            uint32_t c = bilinear_vertical(top[src_width - 1], bottom[src_width - 1], wt, wb);
            if (m != 255) c = mul_un8x4(c, m);
            if (c) {
                switch (path) {
#ifdef LAMINA_X86
                case LAMINA_COMPOSITE_AVX2: over_solid_row_avx2(dst + right, width - right, c); break;
                case LAMINA_COMPOSITE_SSE2: over_solid_row_sse2(dst + right, width - right, c); break;
#endif
                default: over_solid_row_scalar(dst + right, width - right, c); break;
                }
            }
        }
    }
    return 1;
}
