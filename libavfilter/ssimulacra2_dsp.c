/*
 * SSIMULACRA 2.1 CPU hot loops
 *
 * This file is part of FFmpeg.
 *
 * FFmpeg is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * FFmpeg is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with FFmpeg; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */

/**
 * @file
 * The hot loops of the CPU filter in plain C, the reference for the
 * hand-written versions in libavfilter/x86/ (tests/checkasm compares them
 * bit for bit). fmaf() is called only where the metric specifies a fused
 * operation, and the file is built without contraction.
 */

#include <string.h>

#include "config.h"
#include "libavutil/attributes.h"

#include "ssimulacra2_dsp.h"

/** Blur input outside the image (a block of columns is at most one tile). */
static const float zero_row[SSIMU2_TILE];

#define L SSIMU2_ROW_LANES

/* One scalar step of every lane's row recursion (ssimu2_row_scalar per lane). */
static av_always_inline void lanes_scalar(const float *sl, const float *sr, float (*prev)[L],
                                          float (*prev2)[L], float *o)
{
    static const float mul_in[3][4]    = SSIMU2_MUL_IN_INIT;
    static const float mul_prev[3][4]  = SSIMU2_MUL_PREV_INIT;
    static const float mul_prev2[3][4] = SSIMU2_MUL_PREV2_INIT;
    float s[L], y[3][L];

    for (int l = 0; l < L; l++)
        s[l] = sl[l] + sr[l];
    for (int k = 0; k < 3; k++)
        for (int l = 0; l < L; l++) {
            y[k][l] = ssimu2_row_step(mul_in[k][0], mul_prev2[k][0], mul_prev[k][0],
                                      s[l], prev[k][l], prev2[k][l]);
            prev2[k][l] = prev[k][l];
            prev[k][l]  = y[k][l];
        }
    for (int l = 0; l < L; l++)
        o[l] = ssimu2_blur_out(y[0][l], y[1][l], y[2][l]);
}

/* One block of four steps of every lane (ssimu2_row_block4 per lane). */
static av_always_inline void lanes_block4(const float *in, float (*prev)[L], float (*prev2)[L],
                                          float *o)
{
    static const float mul_in[3][4]    = SSIMU2_MUL_IN_INIT;
    static const float mul_prev[3][4]  = SSIMU2_MUL_PREV_INIT;
    static const float mul_prev2[3][4] = SSIMU2_MUL_PREV2_INIT;
    const float *sl = in - (SSIMU2_BLUR_N + 1) * L, *sr = in + (SSIMU2_BLUR_N - 1) * L;
    float s[4][L], y[3][4][L];

    for (int j = 0; j < 4; j++)
        for (int l = 0; l < L; l++)
            s[j][l] = sl[j * L + l] + sr[j * L + l];
    for (int k = 0; k < 3; k++)
        for (int l = 0; l < L; l++) {
            float v[4];
            ssimu2_resonator_block4(mul_in[k], mul_prev[k], mul_prev2[k],
                                    s[0][l], s[1][l], s[2][l], s[3][l],
                                    prev[k][l], prev2[k][l], v);
            y[k][0][l] = v[0];
            y[k][1][l] = v[1];
            y[k][2][l] = v[2];
            y[k][3][l] = v[3];
            prev2[k][l] = v[2];
            prev[k][l]  = v[3];
        }
    for (int j = 0; j < 4; j++)
        for (int l = 0; l < L; l++)
            o[j * L + l] = ssimu2_blur_out(y[0][j][l], y[1][j][l], y[2][j][l]);
}

/*
 * The 15 row recursions of a row side by side, lane c * 5 + q for quantity q
 * of channel c, each lane doing exactly the operations of the row form
 * (ssimu2_row_is_block(): scalar steps, blocks of four, scalar steps). The
 * lane buffer holds the quantities of samples -10 .. w + 3 (zero outside the
 * row); output n overwrites sample n - 10, which no later step reads.
 */
static void blur_rows_c(const float *const x1[3], const float *const x2[3], int w,
                        float *lanes, float *const out[3 * SSIMU2_NB_Q], ptrdiff_t tile_stride)
{
    float prev[3][L] = { { 0.0f } }, prev2[3][L] = { { 0.0f } }, discard[L];
    float *const in = lanes + SSIMU2_ROW_PAD * L;  /* in[i * L + lane]: sample i */
    int n = -SSIMU2_BLUR_N + 1, end = w < 8 ? w : 8;

    memset(lanes, 0, SSIMU2_ROW_PAD * L * sizeof(*lanes));
    memset(in + (ptrdiff_t)w * L, 0, (SSIMU2_BLUR_N - 1) * L * sizeof(*lanes));
    for (int i = 0; i < w; i++) {
        float *v = in + (ptrdiff_t)i * L;
        for (int c = 0; c < 3; c++)
            for (int q = 0; q < SSIMU2_NB_Q; q++)
                v[c * SSIMU2_NB_Q + q] = ssimu2_quantity_of(x1[c][i], x2[c][i], q);
        v[L - 1] = 0.0f;
    }
    /* the phases of ssimu2_row_is_block() as separate loops */
    for (int pass = 0; pass < 2; pass++) {
        for (; n < end; n++)
            lanes_scalar(in + (n - SSIMU2_BLUR_N - 1) * L, in + (n + SSIMU2_BLUR_N - 1) * L,
                         prev, prev2, n >= 0 ? lanes + n * L : discard);
        if (pass)
            break;
        for (; n < w - 7; n += 4)
            lanes_block4(in + (ptrdiff_t)n * L, prev, prev2, lanes + (ptrdiff_t)n * L);
        end = w;
    }
    for (n = 0; n < w; n++)
        for (int q = 0; q < 3 * SSIMU2_NB_Q; q++)
            out[q][n / SSIMU2_TILE * tile_stride + n % SSIMU2_TILE] = lanes[(ptrdiff_t)n * L + q];
}

#undef L

/* One quantity's three column resonators over a block of columns. */
static av_always_inline void cols_step(const float *pl, const float *pr, float *p0, float *p1,
                                       float *p2, float *q0, float *q1, float *q2, float *o,
                                       int bw)
{
    static const float n2[3] = SSIMU2_N2_INIT;
    static const float d1[3] = SSIMU2_D1_INIT;

    for (int x = 0; x < bw; x++) {
        float s  = pl[x] + pr[x];
        float y0 = ssimu2_col_step(n2[0], d1[0], s, p0[x], q0[x]);
        float y1 = ssimu2_col_step(n2[1], d1[1], s, p1[x], q1[x]);
        float y2 = ssimu2_col_step(n2[2], d1[2], s, p2[x], q2[x]);
        q0[x] = p0[x]; p0[x] = y0;
        q1[x] = p1[x]; p1[x] = y1;
        q2[x] = p2[x]; p2[x] = y2;
        o[x] = ssimu2_blur_out(y0, y1, y2);
    }
}

static av_always_inline void cols_terms(const float *a, const float *b, const float *mu1,
                                        const float *mu2, const float *s11, const float *s22,
                                        const float *s12, double *c0, double *c1, double *c2,
                                        double *c3, double *c4, double *c5, int bw)
{
    for (int x = 0; x < bw; x++) {
        double v[SSIMU2_NB_SUMS];
        ssimu2_pixel_terms(a[x], b[x], mu1[x], mu2[x], s11[x], s22[x], s12[x], v);
        c0[x] += v[0];
        c1[x] += v[1];
        c2[x] += v[2];
        c3[x] += v[3];
        c4[x] += v[4];
        c5[x] += v[5];
    }
}

static void blur_cols_c(const float *const blur[SSIMU2_NB_Q], const float *x1p,
                        const float *x2p, ptrdiff_t xyb_stride, int h, int ring_mask, int n0,
                        int n1, int bw, float *state, float *out,
                        double *const colsum[SSIMU2_NB_SUMS])
{
    float *prev  = state;                        /* [q][k][bw] */
    float *prev2 = state + 3 * SSIMU2_NB_Q * bw;

    for (int n = n0; n < n1; n++) {
        const int l = n - SSIMU2_BLUR_N - 1, r = n + SSIMU2_BLUR_N - 1;
        for (int q = 0; q < SSIMU2_NB_Q; q++) {
            float *p = prev + q * 3 * bw, *p2 = prev2 + q * 3 * bw;
            cols_step(l >= 0 ? blur[q] + (l & ring_mask) * SSIMU2_TILE : zero_row,
                      r < h  ? blur[q] + (r & ring_mask) * SSIMU2_TILE : zero_row,
                      p, p + bw, p + 2 * bw, p2, p2 + bw, p2 + 2 * bw, out + q * bw, bw);
        }
        if (n >= 0) {
            const ptrdiff_t o = (n & ring_mask) * xyb_stride;
            cols_terms(x1p + o, x2p + o, out, out + bw, out + 2 * bw, out + 3 * bw, out + 4 * bw,
                       colsum[0], colsum[1], colsum[2], colsum[3], colsum[4], colsum[5], bw);
        }
    }
}

static void yuv_row_c(const int *luma, const int *const c[2][2], const int *x0, const int *x1,
                      const float *wx, float wy, const SSIMU2Colour *p, int w, float *r,
                      float *g, float *b)
{
    const int *u0 = c[0][0], *u1 = c[0][1], *v0 = c[1][0], *v1 = c[1][1];
    const SSIMU2Colour cp = *p;

    for (int x = 0; x < w; x++) {
        float u = ssimu2_bilinear(u0[x0[x]], u0[x1[x]], u1[x0[x]], u1[x1[x]], wx[x], wy);
        float v = ssimu2_bilinear(v0[x0[x]], v0[x1[x]], v1[x0[x]], v1[x1[x]], wx[x], wy);
        ssimu2_yuv_to_rgb(&cp, luma[x], u, v, &r[x], &g[x], &b[x]);
    }
}

static void box_row_c(const float *r0, const float *r1, int w, float *dst)
{
    const int nw = (w + 1) >> 1;
    for (int x = 0; x < w >> 1; x++)
        dst[x] = ssimu2_box4(r0[2 * x], r0[2 * x + 1], r1[2 * x], r1[2 * x + 1]);
    if (w & 1)
        dst[nw - 1] = ssimu2_box4(r0[w - 1], r0[w - 1], r1[w - 1], r1[w - 1]);
}

static void unpack8_c(const uint8_t *src, int n, int step, int *dst)
{
    for (int x = 0; x < n; x++)
        dst[x] = src[step * x];
}

static void unpack16_c(const uint16_t *src, int n, int shift, int mask, int *dst)
{
    for (int x = 0; x < n; x++)
        dst[x] = (src[x] >> shift) & mask;
}

static void xyb_row_c(const float *r, const float *g, const float *b, int w, float *x,
                      float *y, float *bb)
{
    for (int i = 0; i < w; i++)
        ssimu2_linear_to_xyb(r[i], g[i], b[i], &x[i], &y[i], &bb[i]);
}

static void eotf_row_c(float *v, int w, int transfer)
{
    if (transfer == SSIMU2_TRC_SRGB) {
        for (int i = 0; i < w; i++)
            v[i] = ssimu2_srgb_to_linear(v[i]);
    } else if (transfer == SSIMU2_TRC_BT1886) {
        for (int i = 0; i < w; i++)
            v[i] = ssimu2_pow24(v[i]);
    }
}

av_cold void ff_ssimulacra2_dsp_init(SSIMULACRA2DSPContext *dsp)
{
    dsp->blur_rows = blur_rows_c;
    dsp->blur_cols = blur_cols_c;
    dsp->yuv_row   = yuv_row_c;
    dsp->box_row   = box_row_c;
    dsp->unpack8   = unpack8_c;
    dsp->unpack16  = unpack16_c;
    dsp->xyb_row   = xyb_row_c;
    dsp->eotf_row  = eotf_row_c;
#if ARCH_X86 && HAVE_X86ASM
    ff_ssimulacra2_dsp_init_x86(dsp);
#endif
}
