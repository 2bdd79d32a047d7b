/*
 * SSIMULACRA 2.1 CPU hot loops, instantiated once per target
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

/* Included by ssimulacra2_dsp.c with FN(name) defined. */

static void FN(blur_rows)(const float *x1, const float *x2, int w,
                          float *tmp, float *const out[SSIMU2_NB_Q])
{
    ssimu2_blur_row(x1, x1, SSIMU2_Q_X1, w, out[SSIMU2_Q_X1]);
    ssimu2_blur_row(x2, x2, SSIMU2_Q_X1, w, out[SSIMU2_Q_X2]);
    /* products rounded once, as ssimu2_quantity_of() forms them */
    for (int i = 0; i < w; i++)
        tmp[i] = x1[i] * x1[i];
    ssimu2_blur_row(tmp, tmp, SSIMU2_Q_X1, w, out[SSIMU2_Q_X11]);
    for (int i = 0; i < w; i++)
        tmp[i] = x2[i] * x2[i];
    ssimu2_blur_row(tmp, tmp, SSIMU2_Q_X1, w, out[SSIMU2_Q_X22]);
    for (int i = 0; i < w; i++)
        tmp[i] = x1[i] * x2[i];
    ssimu2_blur_row(tmp, tmp, SSIMU2_Q_X1, w, out[SSIMU2_Q_X12]);
}

/* One quantity's three column resonators over a block of columns; restrict
 * parameters let the compiler vectorise across the independent columns. */
static av_always_inline void FN(cols_step)(const float *restrict pl, const float *restrict pr,
                                           float *restrict p0, float *restrict p1,
                                           float *restrict p2, float *restrict q0,
                                           float *restrict q1, float *restrict q2,
                                           float *restrict o, int bw)
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

static av_always_inline void FN(cols_terms)(const float *restrict a, const float *restrict b,
                                            const float *restrict mu1, const float *restrict mu2,
                                            const float *restrict s11, const float *restrict s22,
                                            const float *restrict s12,
                                            double *restrict c0, double *restrict c1,
                                            double *restrict c2, double *restrict c3,
                                            double *restrict c4, double *restrict c5, int bw)
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

static void FN(blur_cols)(const float *const blur[SSIMU2_NB_Q], const float *x1p,
                          const float *x2p, int w, int h, int x0, int x1,
                          const float *zero, float *state, float *out,
                          double *const colsum[SSIMU2_NB_SUMS])
{
    const int bw = x1 - x0;
    float *prev  = state;                        /* [q][k][bw] */
    float *prev2 = state + 3 * SSIMU2_NB_Q * bw;

    memset(state, 0, 2 * 3 * SSIMU2_NB_Q * bw * sizeof(*state));
    for (int n = -SSIMU2_BLUR_N + 1; n < h; n++) {
        const int l = n - SSIMU2_BLUR_N - 1, r = n + SSIMU2_BLUR_N - 1;
        for (int q = 0; q < SSIMU2_NB_Q; q++) {
            float *p = prev + q * 3 * bw, *p2 = prev2 + q * 3 * bw;
            FN(cols_step)((l >= 0 ? blur[q] + (ptrdiff_t)l * w : zero) + x0,
                          (r < h  ? blur[q] + (ptrdiff_t)r * w : zero) + x0,
                          p, p + bw, p + 2 * bw, p2, p2 + bw, p2 + 2 * bw,
                          out + q * bw, bw);
        }
        if (n >= 0)
            FN(cols_terms)(x1p + (ptrdiff_t)n * w + x0, x2p + (ptrdiff_t)n * w + x0,
                           out, out + bw, out + 2 * bw, out + 3 * bw, out + 4 * bw,
                           colsum[0] + x0, colsum[1] + x0, colsum[2] + x0,
                           colsum[3] + x0, colsum[4] + x0, colsum[5] + x0, bw);
    }
}

static void FN(xyb_row)(const float *restrict r, const float *restrict g,
                        const float *restrict b, int w,
                        float *restrict x, float *restrict y, float *restrict bb)
{
    for (int i = 0; i < w; i++)
        ssimu2_linear_to_xyb(r[i], g[i], b[i], &x[i], &y[i], &bb[i]);
}

static void FN(eotf_row)(float *restrict v, int w, int transfer)
{
    if (transfer == SSIMU2_TRC_SRGB) {
        for (int i = 0; i < w; i++)
            v[i] = ssimu2_srgb_to_linear(v[i]);
    } else if (transfer == SSIMU2_TRC_BT1886) {
        for (int i = 0; i < w; i++)
            v[i] = ssimu2_pow24(v[i]);
    }
}
