/*
 * This file is part of FFmpeg.
 *
 * FFmpeg is free software; you can redistribute it and/or modify
 * it under the terms of the GNU General Public License as published by
 * the Free Software Foundation; either version 2 of the License, or
 * (at your option) any later version.
 *
 * FFmpeg is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
 * GNU General Public License for more details.
 *
 * You should have received a copy of the GNU General Public License along
 * with FFmpeg; if not, write to the Free Software Foundation, Inc.,
 * 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA.
 */

/*
 * The ssimulacra2 dsp functions of each CPU level against the C ones. The
 * metric is specified to the last bit of its float arithmetic, so every
 * version must give identical bits (memcmp, no tolerance). Where the inputs
 * include infinities and signed zeros, NaNs and zeros compare equal whatever
 * their sign: FFmpeg builds with -fno-signed-zeros, and which NaN an operation
 * returns depends on the compiler's operand order (neither reaches a score).
 */

#include <math.h>
#include <string.h>

#include "checkasm.h"
#include "libavfilter/ssimulacra2_dsp.h"
#include "libavutil/mem.h"
#include "libavutil/mem_internal.h"

#define W 197                 /* odd, and not a multiple of the vector or tile widths */
#define H 37
#define RING 64               /* rows of a ring (a power of two above H + 10) */

static float rnd_unit(void)
{
    return (rnd() & 0xffffff) / (float)0x1000000;
}

/* identical bits, except that any two NaNs and any two zeros are equal */
static int floats_differ(const float *a, const float *b, int n)
{
    for (int i = 0; i < n; i++)
        if (memcmp(&a[i], &b[i], sizeof(*a)) &&
            !(isnan(a[i]) && isnan(b[i])) && !(a[i] == 0.0f && b[i] == 0.0f))
            return 1;
    return 0;
}

static void fill_unit(float *buf, int n, float lo, float hi)
{
    for (int i = 0; i < n; i++)
        buf[i] = lo + (hi - lo) * rnd_unit();
}

static void check_box_row(const SSIMULACRA2DSPContext *dsp)
{
    LOCAL_ALIGNED_32(float, r0, [W]);
    LOCAL_ALIGNED_32(float, r1, [W]);
    LOCAL_ALIGNED_32(float, dst_ref, [W]);
    LOCAL_ALIGNED_32(float, dst_new, [W]);
    declare_func(void, const float *r0, const float *r1, int w, float *dst);

    for (int w = W - 1; w <= W; w++) {
        if (check_func(dsp->box_row, "box_row_%s", w & 1 ? "odd" : "even")) {
            fill_unit(r0, W, 0.0f, 1.0f);
            fill_unit(r1, W, 0.0f, 1.0f);
            memset(dst_ref, 0, sizeof(*dst_ref) * W);
            memset(dst_new, 0, sizeof(*dst_new) * W);
            call_ref(r0, r1, w, dst_ref);
            call_new(r0, r1, w, dst_new);
            if (memcmp(dst_ref, dst_new, sizeof(*dst_ref) * W))
                fail();
            bench_new(r0, r1, w, dst_new);
        }
    }
    report("box_row");
}

static void check_unpack(const SSIMULACRA2DSPContext *dsp)
{
    static const int steps[] = { 1, 2, 3, 4, 6 };
    LOCAL_ALIGNED_32(uint8_t, src, [6 * W]);
    LOCAL_ALIGNED_32(uint16_t, src16, [W]);
    LOCAL_ALIGNED_32(int, dst_ref, [W]);
    LOCAL_ALIGNED_32(int, dst_new, [W]);

    for (int i = 0; i < FF_ARRAY_ELEMS(steps); i++) {
        /* below, at and above one vector, the last sample at the end of its buffer */
        static const int counts[] = { 1, 7, 8, 9, 40, W };
        declare_func(void, const uint8_t *src, int n, int step, int *dst);
        if (check_func(dsp->unpack8, "unpack8_step%d", steps[i])) {
            for (int k = 0; k < FF_ARRAY_ELEMS(counts); k++) {
                const int n = counts[k], size = steps[i] * (n - 1) + 1;
                uint8_t *exact = av_malloc(size);
                if (!exact)
                    break;
                for (int j = 0; j < size; j++)
                    exact[j] = rnd();
                call_ref(exact, n, steps[i], dst_ref);
                call_new(exact, n, steps[i], dst_new);
                if (memcmp(dst_ref, dst_new, sizeof(*dst_ref) * n))
                    fail();
                av_free(exact);
            }
            for (int j = 0; j < 6 * W; j++)
                src[j] = rnd();
            bench_new(src, W, steps[i], dst_new);
        }
    }
    for (int shift = 0; shift <= 6; shift += 6) {
        declare_func(void, const uint16_t *src, int n, int shift, int mask, int *dst);
        if (check_func(dsp->unpack16, "unpack16_shift%d", shift)) {
            for (int j = 0; j < W; j++)
                src16[j] = rnd();
            call_ref(src16, W, shift, 0x3ff, dst_ref);
            call_new(src16, W, shift, 0x3ff, dst_new);
            if (memcmp(dst_ref, dst_new, sizeof(*dst_ref) * W))
                fail();
            bench_new(src16, W, shift, 0x3ff, dst_new);
        }
    }
    report("unpack");
}

static void check_eotf_xyb(const SSIMULACRA2DSPContext *dsp)
{
    static const char *const names[] = { "srgb", "bt1886", "linear" };
    LOCAL_ALIGNED_32(float, v_ref, [W]);
    LOCAL_ALIGNED_32(float, v_new, [W]);
    LOCAL_ALIGNED_32(float, rgb, [3 * W]);
    LOCAL_ALIGNED_32(float, xyb_ref, [3 * W]);
    LOCAL_ALIGNED_32(float, xyb_new, [3 * W]);

    for (int t = SSIMU2_TRC_SRGB; t <= SSIMU2_TRC_LINEAR; t++) {
        declare_func(void, float *v, int w, int transfer);
        if (check_func(dsp->eotf_row, "eotf_row_%s", names[t])) {
            /* the clipping of Y'CbCr conversions is not applied to RGB input: negative
             * and above-one values reach the curve */
            fill_unit(v_ref, W, -0.1f, 1.1f);
            /* the sRGB curve's knee and its neighbours, signed zeros */
            v_ref[0] = 0.0f;
            v_ref[1] = 0.04045f;
            v_ref[2] = nextafterf(0.04045f, 1.0f);
            v_ref[3] = -nextafterf(0.04045f, 1.0f);
            v_ref[4] = -0.0f;
            memcpy(v_new, v_ref, sizeof(*v_ref) * W);
            call_ref(v_ref, W, t);
            call_new(v_new, W, t);
            if (floats_differ(v_ref, v_new, W))
                fail();
            bench_new(v_new, W, t);
        }
    }
    report("eotf_row");

    {
        declare_func(void, const float *r, const float *g, const float *b, int w,
                     float *x, float *y, float *bb);
        if (check_func(dsp->xyb_row, "xyb_row")) {
            fill_unit(rgb, 3 * W, 0.0f, 1.0f);
            rgb[0] = rgb[W] = rgb[2 * W] = 0.0f;
            /* the filter's inputs are >= 0, but the C defines the others too: signed
             * zeros, negatives, subnormals, large values (r^4 overflows in the cube
             * root), infinities */
            rgb[1] = rgb[W + 1] = rgb[2 * W + 1] = -0.0f;
            rgb[2] = -0.5f;
            rgb[W + 3] = -1e-3f;
            rgb[4] = rgb[W + 4] = rgb[2 * W + 4] = 1e-40f;
            rgb[2 * W + 5] = 1e-30f;
            rgb[6] = 1e30f;
            rgb[W + 7] = 3e38f;
            rgb[2 * W + 8] = -1e30f;
            rgb[9] = INFINITY;
            rgb[W + 10] = -INFINITY;
            call_ref(rgb, rgb + W, rgb + 2 * W, W, xyb_ref, xyb_ref + W, xyb_ref + 2 * W);
            call_new(rgb, rgb + W, rgb + 2 * W, W, xyb_new, xyb_new + W, xyb_new + 2 * W);
            if (floats_differ(xyb_ref, xyb_new, 3 * W))
                fail();
            bench_new(rgb, rgb + W, rgb + 2 * W, W, xyb_new, xyb_new + W, xyb_new + 2 * W);
        }
    }
    report("xyb_row");
}

static void check_yuv_row(const SSIMULACRA2DSPContext *dsp)
{
    /* limited-range BT.709, 4:2:0 with left siting */
    const SSIMU2Colour p = {
        .is_yuv = 1, .transfer = SSIMU2_TRC_SRGB,
        .y_off = 16.0f, .y_scale = 1.0f / 219.0f, .c_off = 128.0f, .c_scale = 1.0f / 224.0f,
        .cr_r = 1.5748f, .cb_g = -0.187324f, .cr_g = -0.468124f, .cb_b = 1.8556f,
        .chroma_x0 = 0.0f, .chroma_y0 = 0.5f,
    };
    LOCAL_ALIGNED_32(int, luma, [W]);
    LOCAL_ALIGNED_32(int, chroma, [4 * W]);
    LOCAL_ALIGNED_32(int, x0, [W]);
    LOCAL_ALIGNED_32(int, x1, [W]);
    LOCAL_ALIGNED_32(float, wx, [W]);
    LOCAL_ALIGNED_32(float, out_ref, [3 * W]);
    LOCAL_ALIGNED_32(float, out_new, [3 * W]);
    const int *const c[2][2] = { { chroma, chroma + W }, { chroma + 2 * W, chroma + 3 * W } };
    declare_func(void, const int *luma, const int *const c[2][2], const int *x0,
                 const int *x1, const float *wx, float wy, const SSIMU2Colour *p, int w,
                 float *r, float *g, float *b);

    /* taps of 4:2:0, of 4:4:4 (x1 = x0 + 1 clamped, wx = 0), and any taps; rows
     * shorter than a vector, whole vectors, and a tail */
    for (int t = 0; t < 3; t++) {
        static const char *const names[] = { "420", "444", "any" };
        static const int widths[] = { 1, 7, 8, 16, W };
        if (!check_func(dsp->yuv_row, "yuv_row_%s", names[t]))
            continue;
        for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
            const int w = widths[i], cw = (w + 1) >> 1;
            for (int x = 0; x < w; x++) {
                luma[x] = rnd() & 255;
                if (t == 0) {
                    x0[x] = FFMIN(x >> 1, cw - 1);
                    x1[x] = FFMIN((x >> 1) + (x & 1), cw - 1);
                    wx[x] = x & 1 ? 0.5f : 0.0f;
                } else if (t == 1) {
                    x0[x] = x;
                    x1[x] = FFMIN(x + 1, w - 1);
                    wx[x] = 0.0f;
                } else {
                    x0[x] = rnd() % w;
                    x1[x] = rnd() % w;
                    wx[x] = rnd_unit();
                }
            }
            for (int x = 0; x < 4 * W; x++)
                chroma[x] = rnd() & 255;
            memset(out_ref, 0, sizeof(*out_ref) * 3 * W);
            memset(out_new, 0, sizeof(*out_new) * 3 * W);
            call_ref(luma, c, x0, x1, wx, 0.25f, &p, w, out_ref, out_ref + W, out_ref + 2 * W);
            call_new(luma, c, x0, x1, wx, 0.25f, &p, w, out_new, out_new + W, out_new + 2 * W);
            if (memcmp(out_ref, out_new, sizeof(*out_ref) * 3 * W))
                fail();
        }
        bench_new(luma, c, x0, x1, wx, 0.25f, &p, W, out_new, out_new + W, out_new + 2 * W);
    }
    report("yuv_row");
}

static void check_blur_rows(const SSIMULACRA2DSPContext *dsp)
{
    /* no blocks (w < 16), a single block, several tiles; the filter's lanes follow
     * 17 * w floats of other rows, so they are not always aligned */
    static const int widths[] = { 1, 5, 8, 15, 16, 23, W };
    const int n = 3 * SSIMU2_NB_Q;
    /* two rows per tile, the second one never written: sample x of quantity q at
     * out[q] + x / SSIMU2_TILE * ts + x % SSIMU2_TILE */
    const ptrdiff_t ts = 2 * SSIMU2_TILE;
    const int plane = (W + SSIMU2_TILE - 1) / SSIMU2_TILE * ts;
    float *xyb = av_malloc_array(6 * W, sizeof(*xyb));
    float *lanes = av_malloc_array(SSIMU2_ROW_SCRATCH(W) + 1, sizeof(*lanes));
    float *out_ref = av_calloc(n * plane, sizeof(*out_ref));
    float *out_new = av_calloc(n * plane, sizeof(*out_new));
    float *ref_ptr[3 * SSIMU2_NB_Q], *new_ptr[3 * SSIMU2_NB_Q];
    const float *x1[3], *x2[3];
    declare_func(void, const float *const x1[3], const float *const x2[3], int w,
                 float *lanes, float *const out[3 * SSIMU2_NB_Q], ptrdiff_t tile_stride);

    if (!xyb || !lanes || !out_ref || !out_new)
        goto end;
    for (int i = 0; i < n; i++) {
        ref_ptr[i] = out_ref + i * plane;
        new_ptr[i] = out_new + i * plane;
    }
    for (int c = 0; c < 3; c++) {
        x1[c] = xyb + c * W;
        x2[c] = xyb + (3 + c) * W;
    }
    if (check_func(dsp->blur_rows, "blur_rows")) {
        for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
            const int w = widths[i];
            float *l = lanes + (i & 1);
            fill_unit(xyb, 6 * W, -0.1f, 0.9f);
            memset(out_ref, 0, sizeof(*out_ref) * n * plane);
            memset(out_new, 0, sizeof(*out_new) * n * plane);
            call_ref(x1, x2, w, l, ref_ptr, ts);
            call_new(x1, x2, w, l, new_ptr, ts);
            if (memcmp(out_ref, out_new, sizeof(*out_ref) * n * plane))
                fail();
        }
        bench_new(x1, x2, W, lanes, new_ptr, ts);
    }
end:
    report("blur_rows");
    av_free(xyb);
    av_free(lanes);
    av_free(out_ref);
    av_free(out_new);
}

static void check_blur_cols(const SSIMULACRA2DSPContext *dsp)
{
    /* whole tiles, a tail of 5, one vector and a half, one vector, less than one */
    static const int widths[] = { SSIMU2_TILE, SSIMU2_TILE - 3, 12, 8, 3, 1 };
    const int bmax = SSIMU2_TILE, nstate = 2 * 3 * SSIMU2_NB_Q;
    float *rings = av_malloc_array(SSIMU2_NB_Q * RING * SSIMU2_TILE, sizeof(*rings));
    float *xyb = av_malloc_array(2 * RING * bmax, sizeof(*xyb));
    float *state[2], *out[2];
    double *sums[2], *colsum[2][SSIMU2_NB_SUMS];
    const float *blur[SSIMU2_NB_Q];
    declare_func(void, const float *const blur[SSIMU2_NB_Q], const float *x1p,
                 const float *x2p, ptrdiff_t xyb_stride, int h, int ring_mask,
                 int n0, int n1, int bw, float *state, float *out,
                 double *const colsum[SSIMU2_NB_SUMS]);

    for (int i = 0; i < 2; i++) {
        state[i] = av_malloc_array(nstate * bmax, sizeof(*state[i]));
        out[i]   = av_malloc_array(SSIMU2_NB_Q * bmax, sizeof(*out[i]));
        sums[i]  = av_malloc_array(SSIMU2_NB_SUMS * bmax, sizeof(*sums[i]));
    }
    if (!rings || !xyb || !state[0] || !state[1] || !out[0] || !out[1] || !sums[0] || !sums[1])
        goto end;
    if (check_func(dsp->blur_cols, "blur_cols")) {
        /* rings of 64 rows (the image's 37 + 10 fit) and of 16 (rows wrap around) */
        for (int ring = RING; ring >= 16; ring /= 4) {
            for (int q = 0; q < SSIMU2_NB_Q; q++)
                blur[q] = rings + q * ring * SSIMU2_TILE;
            for (int j = 0; j < FF_ARRAY_ELEMS(widths); j++) {
                const int bw = widths[j];
                const float *x2p = xyb + ring * bw;
                for (int i = 0; i < 2; i++) {
                    memset(state[i], 0, sizeof(*state[i]) * nstate * bw);
                    memset(out[i], 0, sizeof(*out[i]) * SSIMU2_NB_Q * bw);
                    memset(sums[i], 0, sizeof(*sums[i]) * SSIMU2_NB_SUMS * bw);
                    for (int k = 0; k < SSIMU2_NB_SUMS; k++)
                        colsum[i][k] = sums[i] + k * bw;
                }
                /* blurred means near the samples, squares near their squares */
                fill_unit(xyb, 2 * ring * bw, 0.0f, 0.8f);
                fill_unit(rings, SSIMU2_NB_Q * ring * SSIMU2_TILE, 0.0f, 0.8f);
                /* the whole column in two calls, the state carried as the filter's bands
                 * carry it */
                call_ref(blur, xyb, x2p, bw, H, ring - 1, -SSIMU2_BLUR_N + 1, 16, bw,
                         state[0], out[0], colsum[0]);
                call_ref(blur, xyb, x2p, bw, H, ring - 1, 16, H, bw, state[0], out[0], colsum[0]);
                call_new(blur, xyb, x2p, bw, H, ring - 1, -SSIMU2_BLUR_N + 1, 16, bw,
                         state[1], out[1], colsum[1]);
                call_new(blur, xyb, x2p, bw, H, ring - 1, 16, H, bw, state[1], out[1], colsum[1]);
                if (memcmp(state[0], state[1], sizeof(*state[0]) * nstate * bw) ||
                    memcmp(out[0], out[1], sizeof(*out[0]) * SSIMU2_NB_Q * bw) ||
                    memcmp(sums[0], sums[1], sizeof(*sums[0]) * SSIMU2_NB_SUMS * bw))
                    fail();
            }
        }
        for (int q = 0; q < SSIMU2_NB_Q; q++)
            blur[q] = rings + q * RING * SSIMU2_TILE;
        for (int k = 0; k < SSIMU2_NB_SUMS; k++)
            colsum[1][k] = sums[1] + k * bmax;
        bench_new(blur, xyb, xyb + RING * bmax, bmax, H, RING - 1, 0, H, bmax,
                  state[1], out[1], colsum[1]);
    }
end:
    report("blur_cols");
    av_free(rings);
    av_free(xyb);
    for (int i = 0; i < 2; i++) {
        av_free(state[i]);
        av_free(out[i]);
        av_free(sums[i]);
    }
}

void checkasm_check_vf_ssimulacra2(void)
{
    SSIMULACRA2DSPContext dsp;

    ff_ssimulacra2_dsp_init(&dsp);
    check_box_row(&dsp);
    check_unpack(&dsp);
    check_eotf_xyb(&dsp);
    check_yuv_row(&dsp);
    check_blur_rows(&dsp);
    check_blur_cols(&dsp);
}
