/*
 * SSIMULACRA 2.1 per-pixel arithmetic shared by the CPU and CUDA filters
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
 * One source of truth for the SSIMULACRA 2.1 arithmetic.
 *
 * Every function here is evaluated with the exact float operation order of
 * the reference tool (libjxl AVX2 build): products and sums are rounded
 * separately unless SSIMU2_FMA() is written, which is a single fused
 * operation. Both filters must therefore be compiled without contraction
 * (-ffp-contract=off on the host, --fmad=false / -ffp-contract=off for the
 * kernels). Under CUDA the functions become __device__ functions, so the CPU
 * and GPU filters share the arithmetic and their scores agree bit for bit.
 *
 * Float constants are written with 9 significant digits, which round-trips
 * every float exactly.
 */

#ifndef AVFILTER_SSIMULACRA2_MATH_H
#define AVFILTER_SSIMULACRA2_MATH_H

#if defined(__CUDA__) || defined(__CUDACC__)
#define SSIMU2_FN __device__ static inline
#if defined(__clang__)
#define SSIMU2_FMA(a, b, c) __builtin_fmaf(a, b, c)
#define SSIMU2_FMAD(a, b, c) __builtin_fma(a, b, c)
#define SSIMU2_FABSD(x) __builtin_fabs(x)
#else
#define SSIMU2_FMA(a, b, c) __fmaf_rn(a, b, c)
#define SSIMU2_FMAD(a, b, c) __fma_rn(a, b, c)
#define SSIMU2_FABSD(x) fabs(x)
#endif
#define SSIMU2_FABS(x) fabsf(x)
/* coefficient tables inside functions: plain locals, folded by the compiler
 * once the loops over them are unrolled (else they are read from memory, and
 * the state goes through local memory, at every step) */
#define SSIMU2_TABLE const
#define SSIMU2_UNROLL _Pragma("unroll")
/*
 * Quotients of operands that are normal numbers far from overflow and
 * underflow, whose quotient is too (each caller says why): the GPU's IEEE
 * division is a reciprocal estimate, Newton steps and a correction, then a
 * range check that sends other operands to a slow path. These are those
 * steps, as the compiler emits them, without the check; for such operands
 * the check always passes, so the quotient is the same correctly rounded one.
 */
__device__ static inline float ssimu2_div_normal(float a, float b)
{
    float y, e, q;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(b));
    e = SSIMU2_FMA(-b, y, 1.0f);
    y = SSIMU2_FMA(y, e, y);
    q = a * y;
    return SSIMU2_FMA(SSIMU2_FMA(-b, q, a), y, q);
}

/* the estimate is the reciprocal of b's upper word with a lower word of 1,
 * refined twice (e + e^2, then e) */
__device__ static inline double ssimu2_ddiv_normal(double a, double b)
{
    double y, e, q;
    asm("{\n\t.reg .b32 lo, hi;\n\t.reg .f64 r;\n\t"
        "rcp.approx.ftz.f64 r, %1;\n\tmov.b64 {lo, hi}, r;\n\t"
        "mov.b32 lo, 1;\n\tmov.b64 %0, {lo, hi};\n\t}" : "=d"(y) : "d"(b));
    e = SSIMU2_FMAD(-b, y, 1.0);
    e = SSIMU2_FMAD(e, e, e);
    y = SSIMU2_FMAD(y, e, y);
    e = SSIMU2_FMAD(-b, y, 1.0);
    y = SSIMU2_FMAD(y, e, y);
    q = a * y;
    return SSIMU2_FMAD(y, SSIMU2_FMAD(-b, q, a), q);
}
#ifndef SSIMU2_DIV_NORMAL
#define SSIMU2_DIV_NORMAL(a, b) ssimu2_div_normal(a, b)
#define SSIMU2_DDIV_NORMAL(a, b) ssimu2_ddiv_normal(a, b)
#endif
#else
#include <math.h>
#include <stdint.h>
#define SSIMU2_FN static inline
#define SSIMU2_FMA(a, b, c) fmaf(a, b, c)
#define SSIMU2_FABS(x) fabsf(x)
#define SSIMU2_FABSD(x) fabs(x)
/* static, so that the tables are not rebuilt on the stack at every call */
#define SSIMU2_TABLE static const
#define SSIMU2_UNROLL
#endif
#ifndef SSIMU2_DIV_NORMAL
/* the host's IEEE division is one instruction; tests may also set these */
#define SSIMU2_DIV_NORMAL(a, b) ((a) / (b))
#define SSIMU2_DDIV_NORMAL(a, b) ((a) / (b))
#endif

#define SSIMU2_MAX_SCALES 6
#define SSIMU2_MIN_SIZE   8
/** Pooled values per scale: 3 channels x (SSIM, artifact, detail lost) x (L1, L4). */
#define SSIMU2_STATS_PER_SCALE 18
#define SSIMU2_NB_STATS (SSIMU2_MAX_SCALES * SSIMU2_STATS_PER_SCALE)
/** Double sums per scale and channel: d, d^4, artifact, artifact^4, detail, detail^4. */
#define SSIMU2_NB_SUMS 6
/** Blur radius N of the recursive Gaussian (sigma 1.5). */
#define SSIMU2_BLUR_N 5

/** A scale's width or height from the scale before: half, rounded up (spec section 4). */
SSIMU2_FN int ssimu2_half_size(int n)
{
    return (n + 1) >> 1;
}

/** Number of scales evaluated for a w x h image (spec section 4 stop rule). */
SSIMU2_FN int ssimu2_nb_scales(int w, int h)
{
    int n = 1;
    while (n < SSIMU2_MAX_SCALES && w >= SSIMU2_MIN_SIZE && h >= SSIMU2_MIN_SIZE) {
        w = ssimu2_half_size(w);
        h = ssimu2_half_size(h);
        n++;
    }
    return n;
}

/** Passes of a frame pair: two where the reference has alpha (ssimu2_background()). */
SSIMU2_FN int ssimu2_nb_passes(int ref_has_alpha)
{
    return ref_has_alpha ? 2 : 1;
}

/**
 * The grey that images with alpha are blended over in pass `pass` of
 * nb_passes, as the reference tool does: a reference with alpha is scored
 * twice, over 0.1 and over 0.9, and the lower score counts; otherwise once,
 * a distorted input with alpha over 0.5.
 */
SSIMU2_FN float ssimu2_background(int nb_passes, int pass)
{
    return nb_passes > 1 ? (pass ? 0.9f : 0.1f) : 0.5f;
}

typedef union SSIMU2Bits {
    float f;
    unsigned int u;
} SSIMU2Bits;

/**
 * libjxl's sRGB EOTF: a 4/4 rational polynomial evaluated with fused Horner
 * steps and an IEEE division; sign-symmetric.
 */
SSIMU2_FN float ssimu2_srgb_to_linear(float v)
{
    float x = SSIMU2_FABS(v);
    float p = 8.210152774e-01f, q = 6.521209011e-03f, rational, linear;
    /* both branches are evaluated and one selected: the form the vector
     * versions (x86, CUDA) compute, one lane per pixel */
    p = SSIMU2_FMA(p, x, 7.961564959e-01f);
    p = SSIMU2_FMA(p, x, 1.624820318e-01f);
    p = SSIMU2_FMA(p, x, 1.043637593e-02f);
    p = SSIMU2_FMA(p, x, 2.200248328e-04f);
    q = SSIMU2_FMA(q, x, -5.512498495e-02f);
    q = SSIMU2_FMA(q, x, 4.987528350e-01f);
    q = SSIMU2_FMA(q, x, 1.076976492e+00f);
    q = SSIMU2_FMA(q, x, 2.631846970e-01f);
    /* samples give x <= 1 (clipped or scaled): p is in [2.2e-4, 1.8], q in [0.26, 1.8] */
    rational = SSIMU2_DIV_NORMAL(p, q);
    linear   = x * 0.0773993805f;
    rational = x > 0.04045f ? rational : linear;
    return v < 0.0f ? -rational : rational;
}

/**
 * x^2.4 for x >= 0 (the BT.1886 display curve with a pure 2.4 power), as
 * x^2 * (x^2)^(1/5) with a Newton fifth root. Plain float arithmetic, so both
 * filters give identical results; relative error below 1e-6.
 */
SSIMU2_FN float ssimu2_pow24(float v)
{
    SSIMU2Bits b;
    float x2, r;
    if (!(v > 0.0f))
        return 0.0f;
    x2 = v * v;
    b.f = x2;
    /* initial estimate of x2^(1/5) from the exponent bits */
    b.u = b.u / 5u + 0x32CCCCCDu;
    r = b.f;
    for (int i = 0; i < 5; i++) {
        float r2 = r * r;
        float r4 = r2 * r2;
        r = r - (r - x2 / r4) * 0.2f;
    }
    return x2 * r;
}

enum SSIMU2Transfer {
    SSIMU2_TRC_SRGB,   ///< the reference tool's sRGB curve (default)
    SSIMU2_TRC_BT1886, ///< pure power 2.4
    SSIMU2_TRC_LINEAR, ///< samples are linear light already
};

/**
 * How the samples of one input become normalised R'G'B' (or Y'CbCr), the
 * same numbers in both filters. Host code fills it once per geometry and
 * colour tags; kernels receive it by value.
 */
typedef struct SSIMU2Colour {
    int   is_yuv;           ///< Y'CbCr input (else RGB or gray)
    int   transfer;         ///< enum SSIMU2Transfer
    float y_off, y_scale;   ///< luma / RGB / gray: (v - y_off) * y_scale
    float c_off, c_scale;   ///< chroma: (v - c_off) * c_scale
    float a_scale;          ///< alpha: v * a_scale
    float cr_r, cb_g, cr_g, cb_b; ///< Y'CbCr -> R'G'B' matrix
    float chroma_x0, chroma_y0;   ///< luma position of chroma sample 0 (subsampled axes)
} SSIMU2Colour;

/** Encoded (R'G'B', 0..1) to linear light with the selected transfer. */
SSIMU2_FN float ssimu2_eotf(int transfer, float v)
{
    if (transfer == SSIMU2_TRC_SRGB)
        return ssimu2_srgb_to_linear(v);
    if (transfer == SSIMU2_TRC_BT1886)
        return ssimu2_pow24(v);
    return v;
}

SSIMU2_FN float ssimu2_clip01(float v)
{
    return v > 1.0f ? 1.0f : (v > 0.0f ? v : 0.0f);
}

/**
 * Y'CbCr samples (chroma already interpolated to the luma position, raw
 * code values as floats) to clipped R'G'B'.
 */
SSIMU2_FN void ssimu2_yuv_to_rgb(const SSIMU2Colour *p, float y, float u, float v,
                                 float *r, float *g, float *b)
{
    float yn = (y - p->y_off) * p->y_scale;
    float cb = (u - p->c_off) * p->c_scale;
    float cr = (v - p->c_off) * p->c_scale;
    *r = ssimu2_clip01(yn + p->cr_r * cr);
    *g = ssimu2_clip01((yn - p->cb_g * cb) - p->cr_g * cr);
    *b = ssimu2_clip01(yn + p->cb_b * cb);
}

/**
 * Chroma sample coordinate for luma coordinate x on a subsampled axis:
 * index of the first of the two bilinear taps and the weight of the second.
 */
SSIMU2_FN int ssimu2_chroma_tap(int x, float x0, float *w1)
{
    float c = ((float)x - x0) * 0.5f;
    float f = floorf(c);
    *w1 = c - f;
    return (int)f;
}

/**
 * libjxl's cube root by Newton iteration, plus a constant
 * (x^(1/3) + add, with the final step fused).
 */
SSIMU2_FN float ssimu2_cbrt_add(float x, float add)
{
    const float k13 = 0.333333343f, k43 = 1.33333337f;
    SSIMU2Bits b;
    float r, t, r2;
    b.f = x;
    /* a mask rather than a branch (estimate 0 for x = 0), as the vector
     * versions compute it */
    b.u = (0x54800000u - (b.u >> 23) * 0x002AAAAAu) & (0u - (unsigned int)(b.u != 0));
    r = b.f;
    t = k13 * x;
    for (int i = 0; i < 3; i++) {
        r2 = r * r;
        r  = SSIMU2_FMA(-t, r2 * r2, k43 * r);
    }
    r2 = r * r;
    r  = SSIMU2_FMA(k13, SSIMU2_FMA(-x, r2 * r2, r), r);
    return SSIMU2_FMA(r * r, x, add);
}

/** One opsin row: fma(m0, R, fma(m1, G, fma(m2, B, bias))), clamped to +0. */
SSIMU2_FN float ssimu2_opsin(float m0, float m1, float m2, float r, float g, float b)
{
    float v = SSIMU2_FMA(m0, r, SSIMU2_FMA(m1, g, SSIMU2_FMA(m2, b, 0.00379307335f)));
    /* max(v, +0) without a branch: 2v and its half are exact, -0 becomes +0 */
    return (v + SSIMU2_FABS(v)) * 0.5f;
}

/** Linear RGB to the "positive XYB" of SSIMULACRA 2.1. */
SSIMU2_FN void ssimu2_linear_to_xyb(float r, float g, float b,
                                    float *out_x, float *out_y, float *out_b)
{
    const float neg_cbrt_bias = -0.155954197f;
    float c0 = ssimu2_cbrt_add(ssimu2_opsin(0.300000012f, 0.621999979f, 0.0780000016f, r, g, b),
                               neg_cbrt_bias);
    float c1 = ssimu2_cbrt_add(ssimu2_opsin(0.230000004f, 0.691999972f, 0.0780000016f, r, g, b),
                               neg_cbrt_bias);
    float c2 = ssimu2_cbrt_add(ssimu2_opsin(0.243422687f, 0.204767451f, 0.551809847f, r, g, b),
                               neg_cbrt_bias);
    float x = 0.5f * (c0 - c1);
    float y = 0.5f * (c0 + c1);
    *out_b = (c2 - y) + 0.55f;
    *out_x = x * 14.0f + 0.42f;
    *out_y = y + 0.01f;
}

/** Alpha compositing over a grey background in the encoded domain. */
SSIMU2_FN float ssimu2_blend(float c, float a, float bg)
{
    return a * c + (1.0f - a) * bg;
}

/**
 * 2x2 box of the downsampler: sum from 0 in the order (x,y), (x+1,y),
 * (x,y+1), (x+1,y+1), then times 0.25.
 */
SSIMU2_FN float ssimu2_box4(float a, float b, float c, float d)
{
    float s = 0.0f;
    s += a;
    s += b;
    s += c;
    s += d;
    return s * 0.25f;
}

/**
 * Bilinear chroma interpolation: horizontal first within the two source
 * rows, then vertical. w*1 are the weights of the second sample.
 */
SSIMU2_FN float ssimu2_bilinear(float c00, float c01, float c10, float c11,
                                float wx1, float wy1)
{
    float wx0 = 1.0f - wx1, wy0 = 1.0f - wy1;
    float top = wx0 * c00 + wx1 * c01;
    float bot = wx0 * c10 + wx1 * c11;
    return wy0 * top + wy1 * bot;
}

/*
 * Recursive Gaussian (sigma 1.5), spec section 5: initialisers for the
 * coefficient tables, the float roundings of the double derivation. Index
 * k = 0, 1, 2 stands for the resonators k = 1, 3, 5 of the spec; [4] entries
 * are the lanes of the 4-wide row form.
 */
#define SSIMU2_N2_INIT { 0.0552952364f, -0.0588366874f, 0.0129558193f }
#define SSIMU2_D1_INIT { -1.90211308f, -1.17557049f, -1.22464685e-16f }
#define SSIMU2_MUL_IN_INIT {                                        \
    { 0.0552952364f,   0.10517779f,     0.144764811f,  0.17018123f      }, \
    { -0.0588366874f, -0.0691666752f, -0.0224736147f,  0.042747356f     }, \
    { 0.0129558193f,   1.58663023e-18f, -0.0129558193f, -3.17326046e-18f }, \
}
#define SSIMU2_MUL_PREV_INIT {                                      \
    { 1.90211308f,      2.61803389f,  3.07768345f,     3.23606801f  }, \
    { 1.17557049f,      0.381966025f, -0.726542532f,   -1.23606801f }, \
    { 1.22464685e-16f, -1.0f,         -2.44929371e-16f, 1.0f        }, \
}
#define SSIMU2_MUL_PREV2_INIT {                                     \
    { -1.0f, -1.90211308f,     -2.61803389f,  -3.07768345f    }, \
    { -1.0f, -1.17557049f,     -0.381966025f,  0.726542532f   }, \
    { -1.0f, -1.22464685e-16f,  1.0f,          2.44929371e-16f }, \
}

/** Vertical (column) recursion step of resonator k: y[n] from y[n-1], y[n-2]. */
SSIMU2_FN float ssimu2_col_step(float n2, float d1, float sum, float prev, float prev2)
{
    return SSIMU2_FMA(n2, sum, -SSIMU2_FMA(d1, prev, prev2));
}

/** Scalar step of the horizontal (row) form. */
SSIMU2_FN float ssimu2_row_step(float mul_in0, float mul_prev20, float mul_prev0,
                                float sum, float prev, float prev2)
{
    float o = sum * mul_in0;
    o = SSIMU2_FMA(mul_prev20, prev2, o);
    return SSIMU2_FMA(mul_prev0, prev, o);
}

/** Output of the three resonators: y1 + (y3 + y5). */
SSIMU2_FN float ssimu2_blur_out(float y1, float y3, float y5)
{
    return y1 + (y3 + y5);
}

enum SSIMU2Quantity {
    SSIMU2_Q_X1,   ///< reference
    SSIMU2_Q_X2,   ///< distorted
    SSIMU2_Q_X11,  ///< reference squared
    SSIMU2_Q_X22,  ///< distorted squared
    SSIMU2_Q_X12,  ///< product
    SSIMU2_NB_Q,
};

/** Quantity q of the sample pair (a, b): the product rounded once. */
SSIMU2_FN float ssimu2_quantity_of(float a, float b, int q)
{
    switch (q) {
    case SSIMU2_Q_X1:  return a;
    case SSIMU2_Q_X2:  return b;
    case SSIMU2_Q_X11: return a * a;
    case SSIMU2_Q_X22: return b * b;
    default:           return a * b;
    }
}

/**
 * One scalar step of the row form: the three resonators advanced by input
 * s, returning the blurred output.
 */
SSIMU2_FN float ssimu2_row_scalar(float s, float *prev, float *prev2)
{
    SSIMU2_TABLE float mul_in[3][4]    = SSIMU2_MUL_IN_INIT;
    SSIMU2_TABLE float mul_prev[3][4]  = SSIMU2_MUL_PREV_INIT;
    SSIMU2_TABLE float mul_prev2[3][4] = SSIMU2_MUL_PREV2_INIT;
    float o[3];
    SSIMU2_UNROLL
    for (int k = 0; k < 3; k++) {
        o[k] = ssimu2_row_step(mul_in[k][0], mul_prev2[k][0], mul_prev[k][0],
                               s, prev[k], prev2[k]);
        prev2[k] = prev[k];
        prev[k]  = o[k];
    }
    return ssimu2_blur_out(o[0], o[1], o[2]);
}

/**
 * One resonator over a block of the row form: outputs y[0..3] from inputs
 * s0..s3, all starting from the state (prev, prev2) before the block.
 * mi, mp, mp2: the resonator's rows of the mul_in, mul_prev, mul_prev2
 * tables. Written without loops; the x86 and CUDA versions run it on
 * independent recursions side by side.
 */
SSIMU2_FN void ssimu2_resonator_block4(const float *mi, const float *mp, const float *mp2,
                                       float s0, float s1, float s2, float s3,
                                       float prev, float prev2, float *y)
{
    float v;
    v    = mi[0] * s0;
    v    = SSIMU2_FMA(mp2[0], prev2, v);
    y[0] = SSIMU2_FMA(mp[0], prev, v);
    v    = mi[1] * s0;
    v    = SSIMU2_FMA(mi[0], s1, v);
    v    = SSIMU2_FMA(mp2[1], prev2, v);
    y[1] = SSIMU2_FMA(mp[1], prev, v);
    v    = mi[2] * s0;
    v    = SSIMU2_FMA(mi[1], s1, v);
    v    = SSIMU2_FMA(mi[0], s2, v);
    v    = SSIMU2_FMA(mp2[2], prev2, v);
    y[2] = SSIMU2_FMA(mp[2], prev, v);
    v    = mi[3] * s0;
    v    = SSIMU2_FMA(mi[2], s1, v);
    v    = SSIMU2_FMA(mi[1], s2, v);
    v    = SSIMU2_FMA(mi[0], s3, v);
    v    = SSIMU2_FMA(mp2[3], prev2, v);
    y[3] = SSIMU2_FMA(mp[3], prev, v);
}

/**
 * One block of the row form: four outputs from inputs sum[0..3], all
 * starting from the state before the block.
 */
SSIMU2_FN void ssimu2_row_block4(const float *sum, float *prev, float *prev2, float *out)
{
    SSIMU2_TABLE float mul_in[3][4]    = SSIMU2_MUL_IN_INIT;
    SSIMU2_TABLE float mul_prev[3][4]  = SSIMU2_MUL_PREV_INIT;
    SSIMU2_TABLE float mul_prev2[3][4] = SSIMU2_MUL_PREV2_INIT;
    float o[3][4];
    SSIMU2_UNROLL
    for (int k = 0; k < 3; k++) {
        ssimu2_resonator_block4(mul_in[k], mul_prev[k], mul_prev2[k],
                                sum[0], sum[1], sum[2], sum[3], prev[k], prev2[k], o[k]);
        prev2[k] = o[k][2];
        prev[k]  = o[k][3];
    }
    SSIMU2_UNROLL
    for (int j = 0; j < 4; j++)
        out[j] = ssimu2_blur_out(o[0][j], o[1][j], o[2][j]);
}

/**
 * Whether the row form takes a block of four at n (else a scalar step). The
 * horizontal blur of a row (spec section 5.5) runs n from -N + 1 to len - 1
 * with input s(n) = v[n - N - 1] + v[n + N - 1] (zero outside the row):
 * scalar steps up to n = 8, blocks of four outputs that all start from the
 * state before the block, a scalar remainder.
 */
SSIMU2_FN int ssimu2_row_is_block(int n, int len)
{
    return n >= 8 && n < len - 7;
}

/**
 * The fixed reduction order of both filters: n partial sums combined by a
 * pairwise tree (stride 1, 2, 4, ...: a[i] += a[i + stride]). Destroys a.
 */
SSIMU2_FN double ssimu2_tree_sum(double *a, int n)
{
    for (int stride = 1; stride < n; stride *= 2)
        for (int i = 0; i + stride < n; i += 2 * stride)
            a[i] += a[i + stride];
    return a[0];
}

/** SSIM ratio of one pixel (spec section 6, float): the d of the SSIM map is 1 - ratio in double. */
SSIMU2_FN float ssimu2_ssim_ratio(float mu1, float mu2, float s11, float s22, float s12)
{
    const float c2 = 0.000899999985f;
    float mu11 = mu1 * mu1, mu22 = mu2 * mu2, mu12 = mu1 * mu2;
    float dm = mu1 - mu2;
    float num_m = 1.0f - dm * dm;
    float num_s = 2.0f * (s12 - mu12) + c2;
    float den_s = (s11 - mu11) + (s22 - mu22) + c2;
    return (num_m * num_s) / den_s;
}

/**
 * Edge quotient of one pixel (double): q > 0 is artifact, q < 0 detail lost.
 * finite: both operands are at least 1 and, for finite samples, normal
 * numbers far from overflow (SSIMU2_DDIV_NORMAL()); an infinite one then
 * gives NaN, and the caller takes the pixel again with finite = 0.
 */
SSIMU2_FN double ssimu2_edge_quotient(float x1, float x2, float mu1, float mu2, int finite)
{
    double e1 = (double)SSIMU2_FABS(x1 - mu1);
    double e2 = (double)SSIMU2_FABS(x2 - mu2);
    return (finite ? SSIMU2_DDIV_NORMAL(1.0 + e2, 1.0 + e1) : (1.0 + e2) / (1.0 + e1)) - 1.0;
}

/**
 * Per-pixel SSIM and edge maps of one channel (spec section 6): the six
 * terms d, d^4, artifact, artifact^4, detail lost, detail lost^4.
 */
SSIMU2_FN void ssimu2_pixel_terms(float x1, float x2, float mu1, float mu2,
                                  float s11, float s22, float s12, double *v)
{
    double d = 1.0 - (double)ssimu2_ssim_ratio(mu1, mu2, s11, s22, s12);
    double q = ssimu2_edge_quotient(x1, x2, mu1, mu2, 0);
    /* max(q, 0), max(-q, 0), max(d, 0) without branches (exact: doubling
     * and halving a finite value are exact), as the vector versions compute them */
    double art = (q + SSIMU2_FABSD(q)) * 0.5;
    double det = (SSIMU2_FABSD(q) - q) * 0.5;
    double d2, a2, l2;
    d = (d + SSIMU2_FABSD(d)) * 0.5;
    d2 = d * d;
    a2 = art * art;
    l2 = det * det;
    v[0] = d;
    v[1] = d2 * d2;
    v[2] = art;
    v[3] = a2 * a2;
    v[4] = det;
    v[5] = l2 * l2;
}

#endif /* AVFILTER_SSIMULACRA2_MATH_H */
