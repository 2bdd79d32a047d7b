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

#ifndef AVFILTER_SSIMULACRA2_DSP_H
#define AVFILTER_SSIMULACRA2_DSP_H

#include <stddef.h>
#include <stdint.h>

#include "ssimulacra2_math.h"

/** Row recursions run side by side: 3 channels x 5 quantities, one lane each. */
#define SSIMU2_ROW_LANES 16
/** Padding of the lane buffer: the blur reads 6 samples behind and 4 ahead. */
#define SSIMU2_ROW_PAD (2 * SSIMU2_BLUR_N)
/**
 * Width of the tiles of the blurred rows: a ring of blurred rows is stored
 * as tiles of SSIMU2_TILE columns, each tile its rows one after another, so
 * that the vertical pass over a block of columns reads contiguous memory.
 */
#define SSIMU2_TILE 64
/** Floats of lane scratch blur_rows needs for a row of w samples. */
#define SSIMU2_ROW_SCRATCH(w) (((w) + SSIMU2_ROW_PAD + SSIMU2_BLUR_N - 1) * SSIMU2_ROW_LANES)

/**
 * The loops that dominate the CPU filter's time. Each has a plain C version
 * and, on x86, a hand-written AVX2/FMA3 one (libavfilter/x86/; the blur and
 * XYB loops on x86-64 only), picked at run time. They give identical results
 * because every fused operation is an explicit fmaf() (correctly rounded,
 * like an FMA instruction) and nothing else is contracted.
 */
typedef struct SSIMULACRA2DSPContext {
    /**
     * Horizontal blur of one row: the five quantities of each of the three
     * channels of the XYB rows x1[c] (reference) and x2[c] (distorted), each
     * recursion in its own lane, into the tiled row out[c * SSIMU2_NB_Q + q]:
     * sample n at out[q] + n / SSIMU2_TILE * tile_stride + n % SSIMU2_TILE.
     * lanes: SSIMU2_ROW_SCRATCH(w) floats.
     */
    void (*blur_rows)(const float *const x1[3], const float *const x2[3], int w,
                      float *lanes, float *const out[3 * SSIMU2_NB_Q], ptrdiff_t tile_stride);
    /**
     * Vertical blur of columns [0, bw) for rows n0 .. n1 - 1 (n0 may be
     * negative: the recursion starts SSIMU2_BLUR_N - 1 rows above the image),
     * fused with the per-pixel terms, which are added top to bottom into
     * colsum[k][x]. Rows live in rings of ring_mask + 1 rows: row y of
     * quantity q at blur[q] + (y & ring_mask) * SSIMU2_TILE (one tile), of the
     * XYB samples at x1p / x2p + (y & ring_mask) * xyb_stride; rows outside
     * [0, h) read zero.
     * bw <= SSIMU2_TILE.
     * state: 2 * 3 * SSIMU2_NB_Q * bw floats carried from call to call,
     * out: SSIMU2_NB_Q * bw floats.
     */
    void (*blur_cols)(const float *const blur[SSIMU2_NB_Q], const float *x1p,
                      const float *x2p, ptrdiff_t xyb_stride, int h, int ring_mask,
                      int n0, int n1, int bw, float *state,
                      float *out, double *const colsum[SSIMU2_NB_SUMS]);
    /**
     * Y'CbCr row to clipped R'G'B': luma code values, chroma rows c[k][0]
     * (above) and c[k][1] (below) of Cb (k = 0) and Cr, column taps x0/x1 with
     * the weight wx of x1 per luma column, wy of the row below.
     */
    void (*yuv_row)(const int *luma, const int *const c[2][2], const int *x0, const int *x1,
                    const float *wx, float wy, const SSIMU2Colour *p, int w,
                    float *r, float *g, float *b);
    /** One row of the 2x2 average of rows r0, r1 (w samples; an odd last column is repeated). */
    void (*box_row)(const float *r0, const float *r1, int w, float *dst);
    /** Samples of one byte, step bytes apart, or native-endian 16-bit words (step 2), as ints. */
    void (*unpack8)(const uint8_t *src, int n, int step, int *dst);
    void (*unpack16)(const uint16_t *src, int n, int shift, int mask, int *dst);
    /** Linear RGB rows to positive XYB rows. */
    void (*xyb_row)(const float *r, const float *g, const float *b, int w,
                    float *x, float *y, float *bb);
    /** Encoded R'G'B' row to linear light in place (enum SSIMU2Transfer). */
    void (*eotf_row)(float *v, int w, int transfer);
} SSIMULACRA2DSPContext;

void ff_ssimulacra2_dsp_init(SSIMULACRA2DSPContext *dsp);
void ff_ssimulacra2_dsp_init_x86(SSIMULACRA2DSPContext *dsp);

#endif /* AVFILTER_SSIMULACRA2_DSP_H */
