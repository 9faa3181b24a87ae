// Lamina's compositing loops (CComposite.h). The arithmetic is pixman's (pixman-combine32.h, pixman-sse2.c):
// x * a / 255 rounded as t = x * a + 128, (t + (t >> 8)) >> 8 (in SIMD: mulhi(t, 257), the same number for
// every 16-bit t), and source + destination x (255 - source alpha) / 255 added with saturation per channel.
// A transparent source pixel leaves the destination as it was and an opaque one replaces it, which the formula
// gives too, so the blocks of 4 or 8 pixels that are all clear are skipped and those that are all opaque copied.
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
