// Lamina's own compositing loops for the CPU renderer's common cases (docs/benchmarks.md,
// "CPU compositing loops (2026-11-27)"): premultiplied source-over of a 1:1 texture (with or without a constant
// opacity), source-over of a solid colour and solid fills, on premultiplied 32-bit pixels (B, G, R, A in memory),
// with pixman's 8-bit arithmetic, so that every result is the byte pixman's over_8888_8888, over_8888_n_8888,
// over_n_8888 and its SRC fill give; and source-over of a texture scaled along the axes and sampled bilinear, with
// the bytes of pixman's bilinear OVER (7-bit weights).
//
// Each loop has a scalar form, an SSE2 form and an AVX2 form (x86-64); `path` picks one, and a path the CPU
// lacks falls back to the best one below it. Strides are in pixels. Nothing is allocated; widths or heights of
// 0 or less draw nothing.
#ifndef LAMINA_CCOMPOSITE_H
#define LAMINA_CCOMPOSITE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The loops' forms.
enum {
    LAMINA_COMPOSITE_SCALAR = 0,
    LAMINA_COMPOSITE_SSE2 = 1,
    LAMINA_COMPOSITE_AVX2 = 2,
};

/// The best form this CPU runs (AVX2 where the CPU has it, else SSE2 on x86-64, else scalar), found once.
int lamina_composite_best_path(void);

/// 1 when this CPU runs `path`'s form.
int lamina_composite_supports(int path);

/// dst = src x (opacity / 255) OVER dst, for `width` x `height` pixels (opacity 255: none).
void lamina_composite_over(int path, uint32_t *dst, ptrdiff_t dst_stride, const uint32_t *src,
                           ptrdiff_t src_stride, int width, int height, uint8_t opacity);

/// dst = color OVER dst (a premultiplied colour, 0xAARRGGBB).
void lamina_composite_over_solid(int path, uint32_t *dst, ptrdiff_t dst_stride, int width, int height,
                                 uint32_t color);

/// dst = color.
void lamina_composite_fill(int path, uint32_t *dst, ptrdiff_t dst_stride, int width, int height, uint32_t color);

/// dst = the source sampled bilinear x (opacity / 255) OVER dst, as pixman composites a bits image with
/// PIXMAN_REPEAT_PAD and PIXMAN_FILTER_BILINEAR through the scale transform whose 16.16 terms map target pixel
/// x to source x' = a * x + c and y to y' = d * y + f (matrix[0][0], [0][2], [1][1], [1][2]): `src` is the
/// image's first texel, `src_width` x `src_height` texels, its edge texels repeated outward. dst's first pixel is
/// target pixel (x, y) (pixman's src_x, src_y). 0 (nothing drawn) where a or d is not positive or the image is
/// empty, which pixman's other paths handle; else 1.
int lamina_composite_bilinear_over(int path, uint32_t *dst, ptrdiff_t dst_stride, int width, int height,
                                   const uint32_t *src, ptrdiff_t src_stride, int src_width, int src_height,
                                   int32_t a, int32_t c, int32_t d, int32_t f, int x, int y, uint8_t opacity);

#ifdef __cplusplus
}
#endif

#endif
