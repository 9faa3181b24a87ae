// The bilinear source-over loop (CComposite's lamina_composite_bilinear_over) against pixman's bilinear OVER of the
// same quads, alone, without the renderer (docs/benchmarks.md, "Bilinear source-over (2026-11-27)"). Each figure
// is the best of several runs in thread CPU time (the machine may be shared); each case also checks that every
// form made pixman's bytes. From the repository root:
//
//     clang -O2 -I Sources/CComposite/include Sources/CComposite/composite.c tools/bilinear-bench.c \
//         $(pkg-config --cflags --libs pixman-1) -o /tmp/bilinear-bench && /tmp/bilinear-bench
#include "CComposite.h"

#include <pixman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { DW = 1920, DH = 1080 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint32_t seed = 12345;
static uint32_t rnd(void) { return (seed = seed * 1103515245u + 12345u) >> 8; }

/// Premultiplied texels: opaque, or with alpha running through every value.
static void fill_image(uint32_t *p, int n, int translucent) {
    for (int i = 0; i < n; i++) {
        uint32_t a = translucent ? (uint32_t)(i * 7) % 256 : 255, v = rnd();
        p[i] = a << 24 | ((v & 255) * a / 255) << 16 | (((v >> 8) & 255) * a / 255) << 8 | ((v >> 16) & 255) * a / 255;
    }
}

static pixman_image_t *pad_view(uint32_t *first, int w, int h, int stride) {
    pixman_image_t *view = pixman_image_create_bits_no_clear(PIXMAN_a8r8g8b8, w, h, first, stride * 4);
    pixman_image_set_repeat(view, PIXMAN_REPEAT_PAD);
    pixman_image_set_filter(view, PIXMAN_FILTER_BILINEAR, NULL, 0);
    return view;
}

static const char *names[] = {"pixman", "scalar", "SSE2", "AVX2"};

/// Prints a form's best time; pixman's (form -1) bytes become the reference the other forms' are checked against.
static void report(int form, double best, uint32_t *ref, const uint32_t *dst) {
    if (form < 0) memcpy(ref, dst, DW * DH * 4);
    printf(" %s %.2f ms%s", names[form + 1], best * 1e3,
           form >= 0 && memcmp(ref, dst, DW * DH * 4) ? " (BYTES DIFFER)" : "");
}

/// One stretched image: `iw` x `ih` texels over the whole 1920 x 1080 target.
static void image_case(const char *name, int iw, int ih, int translucent, uint8_t opacity) {
    uint32_t *img = malloc((size_t)iw * ih * 4), *dst = malloc(DW * DH * 4), *ref = malloc(DW * DH * 4);
    fill_image(img, iw * ih, translucent);
    pixman_image_t *view = pad_view(img, iw, ih, iw);
    pixman_f_transform_t ft;
    pixman_f_transform_init_scale(&ft, (double)iw / DW, (double)ih / DH);
    pixman_transform_t t;
    pixman_transform_from_pixman_f_transform(&t, &ft);
    pixman_image_set_transform(view, &t);
    pixman_color_t alpha = {0, 0, 0, (uint16_t)(opacity * 257)};
    pixman_image_t *mask = opacity < 255 ? pixman_image_create_solid_fill(&alpha) : NULL;
    pixman_image_t *target = pixman_image_create_bits_no_clear(PIXMAN_a8r8g8b8, DW, DH, dst, DW * 4);
    printf("%s:", name);
    for (int form = -1; form <= LAMINA_COMPOSITE_AVX2; form++) {
        double best = 1e9;
        for (int run = 0; run < 15; run++) {
            memset(dst, 0x40, DW * DH * 4);
            double start = now();
            if (form < 0) {
                pixman_image_composite32(PIXMAN_OP_OVER, view, mask, target, 0, 0, 0, 0, 0, 0, DW, DH);
            } else {
                lamina_composite_bilinear_over(form, dst, DW, DW, DH, img, iw, iw, ih, t.matrix[0][0], t.matrix[0][2],
                                               t.matrix[1][1], t.matrix[1][2], 0, 0, opacity);
            }
            double elapsed = now() - start;
            if (elapsed < best) best = elapsed;
        }
        report(form, best, ref, dst);
    }
    printf("\n");
    pixman_image_unref(target);
    if (mask) pixman_image_unref(mask);
    pixman_image_unref(view);
    free(img);
    free(dst);
    free(ref);
}

/// 2,000 nine-slice cells: 400 buttons of a 24 x 24 texture with 8-texel borders drawn 40 x 40 points; the
/// corners are 1:1 copies (another loop), the 4 edges and the middle (5 a button) are the scaled cells, each a view
/// of its clamp rectangle given the cell's transform, as the renderer's slot views are.
static void nine_slice_case(void) {
    enum { IW = 24, IH = 24 };
    uint32_t img[IW * IH], *dst = malloc(DW * DH * 4), *ref = malloc(DW * DH * 4);
    fill_image(img, IW * IH, 1);
    struct { int cx, cy, cw, ch, x, y, w, h; } cells[5] = {
        {8, 0, 8, 8, 8, 0, 24, 8}, {0, 8, 8, 8, 0, 8, 8, 24}, {8, 8, 8, 8, 8, 8, 24, 24},
        {16, 8, 8, 8, 32, 8, 8, 24}, {8, 16, 8, 8, 8, 32, 24, 8}};
    pixman_image_t *views[5];
    for (int k = 0; k < 5; k++) views[k] = pad_view(img + cells[k].cy * IW + cells[k].cx, cells[k].cw, cells[k].ch, IW);
    pixman_image_t *target = pixman_image_create_bits_no_clear(PIXMAN_a8r8g8b8, DW, DH, dst, DW * 4);
    printf("2,000 nine-slice cells (400 buttons):");
    for (int form = -1; form <= LAMINA_COMPOSITE_AVX2; form++) {
        double best = 1e9;
        for (int run = 0; run < 15; run++) {
            memset(dst, 0x40, DW * DH * 4);
            double start = now();
            for (int button = 0; button < 400; button++) {
                int ox = (button % 40) * 46 + 3, oy = (button / 40) * 50 + 5;
                for (int k = 0; k < 5; k++) {
                    int x = ox + cells[k].x, y = oy + cells[k].y;
                    double sx = (double)cells[k].cw / cells[k].w, sy = (double)cells[k].ch / cells[k].h;
                    pixman_f_transform_t ft;
                    pixman_f_transform_init_scale(&ft, sx, sy);
                    pixman_f_transform_translate(&ft, NULL, -x * sx, -y * sy);
                    pixman_transform_t t;
                    pixman_transform_from_pixman_f_transform(&t, &ft);
                    if (form < 0) {
                        pixman_image_set_transform(views[k], &t);
                        pixman_image_composite32(PIXMAN_OP_OVER, views[k], NULL, target, x, y, 0, 0, x, y,
                                                 cells[k].w, cells[k].h);
                    } else {
                        lamina_composite_bilinear_over(form, dst + y * DW + x, DW, cells[k].w, cells[k].h,
                                                       img + cells[k].cy * IW + cells[k].cx, IW, cells[k].cw,
                                                       cells[k].ch, t.matrix[0][0], t.matrix[0][2], t.matrix[1][1],
                                                       t.matrix[1][2], x, y, 255);
                    }
                }
            }
            double elapsed = now() - start;
            if (elapsed < best) best = elapsed;
        }
        report(form, best, ref, dst);
    }
    printf("\n");
    pixman_image_unref(target);
    for (int k = 0; k < 5; k++) pixman_image_unref(views[k]);
    free(dst);
    free(ref);
}

int main(void) {
    image_case("1000 x 562 image stretched to 1920 x 1080, opaque", 1000, 562, 0, 255);
    image_case("the same, translucent texels", 1000, 562, 1, 255);
    image_case("the same, opaque, opacity 0.5", 1000, 562, 0, 128);
    image_case("3000 x 1688 image shrunk to 1920 x 1080, opaque", 3000, 1688, 0, 255);
    nine_slice_case();
    return 0;
}
