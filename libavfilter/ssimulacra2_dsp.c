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
 * independent columns (the lanes of the row pass leave through 8x8
 * transposes written with GCC/clang vector extensions). Hand-written x86
 * versions (libavfilter/x86/) replace these function by function. The
 * results are identical (tests/checkasm); the choice is made at run time
 * from the CPU flags.
 */

#include <string.h>

#include "config.h"
#include "libavutil/attributes.h"
#include "libavutil/cpu.h"

#include "ssimulacra2_dsp.h"

/** Blur input outside the image (a block of columns is at most one tile). */
static const float zero_row[SSIMU2_TILE];

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
typedef float v8sf __attribute__((vector_size(32)));
#if defined(__clang__)
#define SHUF(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#else
typedef int v8si __attribute__((vector_size(32)));
#define SHUF(a, b, ...) __builtin_shuffle(a, b, (v8si){ __VA_ARGS__ })
#endif

/* r[i][j] becomes r[j][i]: unpacks, shuffles within 128-bit halves, then halves swapped */
static av_always_inline void transpose8(v8sf *r)
{
    v8sf t[8], u[8];
    for (int i = 0; i < 8; i += 2) {
        t[i]     = SHUF(r[i], r[i + 1], 0, 8, 1, 9, 4, 12, 5, 13);
        t[i + 1] = SHUF(r[i], r[i + 1], 2, 10, 3, 11, 6, 14, 7, 15);
    }
    for (int i = 0; i < 8; i += 4) {
        u[i]     = SHUF(t[i], t[i + 2], 0, 1, 8, 9, 4, 5, 12, 13);
        u[i + 1] = SHUF(t[i], t[i + 2], 2, 3, 10, 11, 6, 7, 14, 15);
        u[i + 2] = SHUF(t[i + 1], t[i + 3], 0, 1, 8, 9, 4, 5, 12, 13);
        u[i + 3] = SHUF(t[i + 1], t[i + 3], 2, 3, 10, 11, 6, 7, 14, 15);
    }
    for (int i = 0; i < 4; i++) {
        r[i]     = SHUF(u[i], u[i + 4], 0, 1, 2, 3, 8, 9, 10, 11);
        r[i + 4] = SHUF(u[i], u[i + 4], 4, 5, 6, 7, 12, 13, 14, 15);
    }
}

#define TRANSPOSE8 transpose8
#define FN(name) name ## _fma3
#include "ssimulacra2_dsp_template.c"
#undef FN
#undef TRANSPOSE8
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
    /* hand-written x86 versions (libavfilter/x86/) replace these, function by function */
#if ARCH_X86 && HAVE_X86ASM
    ff_ssimulacra2_dsp_init_x86(dsp);
#endif
}
