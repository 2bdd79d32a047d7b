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
 * The hot loops, built twice: for the baseline target (fmaf() may be a libm
 * call there: exact but slow) and, on x86 with GCC or clang, for AVX2+FMA3,
 * where fmaf() is one instruction and the column loops vectorise across
 * independent columns. The results are identical; the choice is made at run
 * time from the CPU flags.
 */

#include <string.h>

#include "config.h"
#include "libavutil/attributes.h"
#include "libavutil/cpu.h"

#include "ssimulacra2_dsp.h"

#define FN(name) name ## _c
#include "ssimulacra2_dsp_template.c"
#undef FN

#if ARCH_X86 && (defined(__GNUC__) || defined(__clang__))
#define SSIMULACRA2_DSP_AVX2 1
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif
#define FN(name) name ## _fma3
#include "ssimulacra2_dsp_template.c"
#undef FN
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#else
#define SSIMULACRA2_DSP_AVX2 0
#endif

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
#if SSIMULACRA2_DSP_AVX2
    {
        int flags = av_get_cpu_flags();
        if ((flags & AV_CPU_FLAG_FMA3) && (flags & AV_CPU_FLAG_AVX2)) {
            dsp->blur_rows = blur_rows_fma3;
            dsp->blur_cols = blur_cols_fma3;
            dsp->yuv_row   = yuv_row_fma3;
            dsp->box_row   = box_row_fma3;
            dsp->unpack8   = unpack8_fma3;
            dsp->unpack16  = unpack16_fma3;
            dsp->xyb_row   = xyb_row_fma3;
            dsp->eotf_row  = eotf_row_fma3;
        }
    }
#endif
}
