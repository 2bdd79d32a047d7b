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

#include "ssimulacra2_math.h"

/**
 * The loops that dominate the CPU filter's time. Each has a plain C version
 * and, on x86, the same source compiled for FMA3/AVX2, picked at run time;
 * both give identical results because every fused operation is an explicit
 * fmaf() and nothing else is contracted.
 */
typedef struct SSIMULACRA2DSPContext {
    /** Horizontal blur of the five quantities of one row pair. */
    void (*blur_rows)(const float *x1, const float *x2, int w,
                      float *tmp, float *const out[SSIMU2_NB_Q]);
    /**
     * Vertical blur of columns [x0, x1) of the five horizontally blurred
     * planes (w x h, stride w), fused with the per-pixel terms, which are
     * added top to bottom into colsum[k][x].
     * state must hold 2 * 3 * SSIMU2_NB_Q * (x1 - x0) floats,
     * out 6 * (x1 - x0) floats, zero at least w floats of 0.0f.
     */
    void (*blur_cols)(const float *const blur[SSIMU2_NB_Q], const float *x1p,
                      const float *x2p, int w, int h, int x0, int x1,
                      const float *zero, float *state, float *out,
                      double *const colsum[SSIMU2_NB_SUMS]);
    /** Linear RGB rows to positive XYB rows. */
    void (*xyb_row)(const float *r, const float *g, const float *b, int w,
                    float *x, float *y, float *bb);
    /** Encoded R'G'B' row to linear light in place (enum SSIMU2Transfer). */
    void (*eotf_row)(float *v, int w, int transfer);
} SSIMULACRA2DSPContext;

void ff_ssimulacra2_dsp_init(SSIMULACRA2DSPContext *dsp);

#endif /* AVFILTER_SSIMULACRA2_DSP_H */
