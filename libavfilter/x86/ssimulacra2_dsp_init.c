/*
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

#include "libavutil/attributes.h"
#include "libavutil/cpu.h"
#include "libavutil/x86/cpu.h"
#include "libavfilter/ssimulacra2_dsp.h"

void ff_ssimulacra2_box_row_avx2(const float *r0, const float *r1, int w, float *dst);
void ff_ssimulacra2_unpack8_avx2(const uint8_t *src, int n, int step, int *dst);
void ff_ssimulacra2_unpack16_avx2(const uint16_t *src, int n, int shift, int mask, int *dst);
void ff_ssimulacra2_eotf_row_avx2(float *v, int w, int transfer);
void ff_ssimulacra2_yuv_row_avx2(const int *luma, const int *const c[2][2], const int *x0,
                                 const int *x1, const float *wx, float wy, const SSIMU2Colour *p,
                                 int w, float *r, float *g, float *b);
void ff_ssimulacra2_xyb_row_avx2(const float *r, const float *g, const float *b, int w,
                                 float *x, float *y, float *bb);
void ff_ssimulacra2_blur_rows_avx2(const float *const x1[3], const float *const x2[3], int w,
                                   float *lanes, float *const out[3 * SSIMU2_NB_Q],
                                   ptrdiff_t tile_stride);
void ff_ssimulacra2_blur_cols_avx2(const float *const blur[SSIMU2_NB_Q], const float *x1p,
                                   const float *x2p, ptrdiff_t xyb_stride, int h, int ring_mask,
                                   int n0, int n1, int bw, float *state,
                                   float *out, double *const colsum[SSIMU2_NB_SUMS]);

av_cold void ff_ssimulacra2_dsp_init_x86(SSIMULACRA2DSPContext *dsp)
{
    int cpu_flags = av_get_cpu_flags();

    if (EXTERNAL_AVX2_FAST(cpu_flags)) {
        dsp->box_row  = ff_ssimulacra2_box_row_avx2;
        dsp->unpack8  = ff_ssimulacra2_unpack8_avx2;
        dsp->unpack16 = ff_ssimulacra2_unpack16_avx2;
#if ARCH_X86_64
        dsp->yuv_row  = ff_ssimulacra2_yuv_row_avx2;
#endif
    }
    /* explicit fmaf() of the C code: FMA3 instructions */
    if (EXTERNAL_AVX2_FAST(cpu_flags) && EXTERNAL_FMA3(cpu_flags)) {
        dsp->eotf_row  = ff_ssimulacra2_eotf_row_avx2;
#if ARCH_X86_64
        dsp->xyb_row   = ff_ssimulacra2_xyb_row_avx2;
        dsp->blur_rows = ff_ssimulacra2_blur_rows_avx2;
        dsp->blur_cols = ff_ssimulacra2_blur_cols_avx2;
#endif
    }
}
