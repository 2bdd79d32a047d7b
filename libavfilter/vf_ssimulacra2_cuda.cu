/*
 * SSIMULACRA 2.1 CUDA kernels
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

/*
 * Every float operation comes from ssimulacra2_math.h, in the order the CPU
 * filter uses, so both filters give the same bits. Build without contraction
 * (clang -ffp-contract=off, nvcc --fmad=false).
 *
 * Per frame and pass (the alpha backgrounds are two passes):
 *   ssimu2_convert_*   input frames -> XYB of scale 0 + linear RGB of scale 1
 *   ssimu2_pyramid     linear RGB of scale s -> XYB of s + linear RGB of s + 1
 * then, the scales being independent once their XYB planes exist, for all
 * scales at once (grid z = scale, each scale's planes at their own offset)
 *   ssimu2_hblur       one thread per (row, quantity, channel): the steps of
 *                      ssimu2_blur_row(), rows staged through shared memory
 *   ssimu2_vblur       one thread per (column, channel): column recursion fused
 *                      with the per-pixel terms, summed top to bottom, the
 *                      loads of several rows issued together
 * and once per frame
 *   ssimu2_reduce      one block per (pass, scale, channel, sum): the pairwise
 *                      tree of ssimu2_tree_sum(), level by level
 */

#include "ssimulacra2_math.h"
#include "vf_ssimulacra2_cuda.h"

#ifndef __shared__
#define __shared__ __attribute__((shared)) /* clang without the CUDA headers */
#endif

/** %globaltimer in ns, for the profile option. */
__device__ static inline unsigned long long ssimu2_now(void)
{
    unsigned long long t;
#if defined(__CUDA__) || defined(__CUDACC__)
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
#else
    t = 0; /* the kernels compiled as host C++ (emulation tests) */
#endif
    return t;
}

__device__ static inline int ssimu2_clampi(int v, int lo, int hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

/** a[i] for a runtime i in 0..3 without indexing the parameter space. */
__device__ static inline unsigned long long ssimu2_sel4u(const unsigned long long *a, int i)
{
    return i == 0 ? a[0] : i == 1 ? a[1] : i == 2 ? a[2] : a[3];
}

__device__ static inline int ssimu2_sel4i(const int *a, int i)
{
    return i == 0 ? a[0] : i == 1 ? a[1] : i == 2 ? a[2] : a[3];
}

/** a[s] for a runtime scale s without indexing the parameter space. */
__device__ static inline int ssimu2_sel_scale_i(const int *a, int s)
{
    int v = a[0];
#pragma unroll
    for (int i = 1; i < SSIMU2_MAX_SCALES; i++)
        if (i == s)
            v = a[i];
    return v;
}

__device__ static inline unsigned long long ssimu2_sel_scale_u(const unsigned long long *a, int s)
{
    unsigned long long v = a[0];
#pragma unroll
    for (int i = 1; i < SSIMU2_MAX_SCALES; i++)
        if (i == s)
            v = a[i];
    return v;
}

/** Where the samples of each component of one input are (resolved per thread). */
struct SSIMU2Src {
    const unsigned char *ptr[4];
    int linesize[4];
};

__device__ static inline void ssimu2_src_init(const SSIMU2CudaParams &p, int img, SSIMU2Src &s)
{
#pragma unroll
    for (int c = 0; c < 4; c++) {
        int pl = p.comp_plane[c];
        unsigned long long d = img ? ssimu2_sel4u(p.in_data[1], pl) : ssimu2_sel4u(p.in_data[0], pl);
        int ls = img ? ssimu2_sel4i(p.in_linesize[1], pl) : ssimu2_sel4i(p.in_linesize[0], pl);
        s.ptr[c] = (const unsigned char *)d + p.comp_offset[c];
        s.linesize[c] = ls;
    }
}

/** Raw code value of component c at (x, y), as the CPU filter's read_sample(). */
template<typename T>
__device__ static inline int ssimu2_sample(const SSIMU2CudaParams &p, const SSIMU2Src &s,
                                           int c, int x, int y)
{
    const T *ptr = (const T *)(s.ptr[c] + (long long)y * s.linesize[c] +
                               (long long)x * p.comp_step[c]);
    int v = *ptr;
    return (v >> p.comp_shift[c]) & p.comp_mask[c];
}

/** Bilinear chroma of component c at luma (x, y), as the CPU filter's read_chroma(). */
template<typename T>
__device__ static inline float ssimu2_chroma(const SSIMU2CudaParams &p, const SSIMU2Src &s,
                                             const SSIMU2Colour &col, int c, int x, int y)
{
    float wx = 0.0f, wy = 0.0f;
    int x0 = x, y0 = y, x1, y1;

    if (p.log2_chroma_w)
        x0 = ssimu2_chroma_tap(x, col.chroma_x0, &wx);
    if (p.log2_chroma_h)
        y0 = ssimu2_chroma_tap(y, col.chroma_y0, &wy);
    x1 = ssimu2_clampi(x0 + 1, 0, p.chroma_w - 1);
    y1 = ssimu2_clampi(y0 + 1, 0, p.chroma_h - 1);
    x0 = ssimu2_clampi(x0, 0, p.chroma_w - 1);
    y0 = ssimu2_clampi(y0, 0, p.chroma_h - 1);
    return ssimu2_bilinear((float)ssimu2_sample<T>(p, s, c, x0, y0),
                           (float)ssimu2_sample<T>(p, s, c, x1, y0),
                           (float)ssimu2_sample<T>(p, s, c, x0, y1),
                           (float)ssimu2_sample<T>(p, s, c, x1, y1), wx, wy);
}

enum { SSIMU2_SRC_YUV, SSIMU2_SRC_RGB, SSIMU2_SRC_LINEAR };

/** Linear RGB of one pixel of the current scale. */
template<typename T, int MODE>
__device__ static inline void ssimu2_load(const SSIMU2CudaParams &p, const SSIMU2Src &s,
                                          const SSIMU2Colour &col, int img, int x, int y,
                                          float *rgb)
{
    if (MODE == SSIMU2_SRC_YUV) {
        float u = ssimu2_chroma<T>(p, s, col, 1, x, y);
        float v = ssimu2_chroma<T>(p, s, col, 2, x, y);
        float r, g, b;
        ssimu2_yuv_to_rgb(&col, (float)ssimu2_sample<T>(p, s, 0, x, y), u, v, &r, &g, &b);
        rgb[0] = ssimu2_eotf(col.transfer, r);
        rgb[1] = ssimu2_eotf(col.transfer, g);
        rgb[2] = ssimu2_eotf(col.transfer, b);
    } else if (MODE == SSIMU2_SRC_RGB) {
        float a = p.has_alpha ? (float)ssimu2_sample<T>(p, s, 3, x, y) * col.a_scale : 1.0f;
#pragma unroll
        for (int c = 0; c < 3; c++) {
            float v = ((float)ssimu2_sample<T>(p, s, c, x, y) - col.y_off) * col.y_scale;
            if (p.has_alpha)
                v = ssimu2_blend(v, a, p.bg);
            rgb[c] = ssimu2_eotf(col.transfer, v);
        }
    } else {
        const float *lin = (const float *)p.lin_src;
        long long o = (long long)y * p.lin_src_pitch + x;
#pragma unroll
        for (int c = 0; c < 3; c++)
            rgb[c] = lin[(img * 3 + c) * p.lin_src_plane + o];
    }
}

/**
 * One thread per 2x2 quad of the current scale (one image per grid z):
 * XYB of its (up to) four pixels, and the 2x2 box of their linear RGB for
 * the next scale, edge pixels repeated as the CPU filter's clamped reads.
 */
template<typename T, int MODE>
__device__ static inline void ssimu2_convert(const SSIMU2CudaParams &p)
{
    int ox  = blockIdx.x * blockDim.x + threadIdx.x;
    int oy  = blockIdx.y * blockDim.y + threadIdx.y;
    int img = blockIdx.z;
    int qw = (p.w + 1) >> 1, qh = (p.h + 1) >> 1;
    float lin[4][3];
    float *xyb = (float *)p.xyb;
    SSIMU2Colour col = img ? p.colour[1] : p.colour[0];
    SSIMU2Src s;

    if (MODE != SSIMU2_SRC_LINEAR && p.pass == 0 && (ox | oy | img) == 0) {
        unsigned long long *timer = (unsigned long long *)((double *)p.result + SSIMU2_CUDA_NB_SUMS);
        timer[0] = ssimu2_now();
    }
    if (ox >= qw || oy >= qh)
        return;
    if (MODE != SSIMU2_SRC_LINEAR)
        ssimu2_src_init(p, img, s);

#pragma unroll
    for (int i = 0; i < 4; i++) {
        int x = 2 * ox + (i & 1), y = 2 * oy + (i >> 1);
        ssimu2_load<T, MODE>(p, s, col, img, min(x, p.w - 1), min(y, p.h - 1), lin[i]);
        if (x < p.w && y < p.h) {
            long long o = (long long)y * p.pitch + x;
            float vx, vy, vb;
            ssimu2_linear_to_xyb(lin[i][0], lin[i][1], lin[i][2], &vx, &vy, &vb);
            xyb[(img * 3 + 0) * p.plane + o] = vx;
            xyb[(img * 3 + 1) * p.plane + o] = vy;
            xyb[(img * 3 + 2) * p.plane + o] = vb;
        }
    }
    if (p.lin_dst) {
        float *dst = (float *)p.lin_dst;
        long long o = (long long)oy * p.lin_dst_pitch + ox;
#pragma unroll
        for (int c = 0; c < 3; c++)
            dst[(img * 3 + c) * p.lin_dst_plane + o] =
                ssimu2_box4(lin[0][c], lin[1][c], lin[2][c], lin[3][c]);
    }
}

/**
 * Blur input s(n) of quantity q for one row of the hblur tile, from the
 * shared-memory ring (as ssimu2_blur_in() reads a row).
 */
__device__ static inline float ssimu2_ring_in(float (*in)[SSIMU2_CUDA_TILE][2 * SSIMU2_CUDA_TILE + 1],
                                              int row, int q, int len, int n)
{
    const int mask = 2 * SSIMU2_CUDA_TILE - 1;
    int l = n - SSIMU2_BLUR_N - 1, r = n + SSIMU2_BLUR_N - 1;
    int sl = (l - (SSIMU2_BLUR_N - 1)) & mask, sr = (r - (SSIMU2_BLUR_N - 1)) & mask;
    float a = l >= 0  ? ssimu2_quantity_of(in[0][row][sl], in[1][row][sl], q) : 0.0f;
    float b = r < len ? ssimu2_quantity_of(in[0][row][sr], in[1][row][sr], q) : 0.0f;
    return a + b;
}

extern "C" {

__global__ void ssimu2_convert_yuv8(const SSIMU2CudaParams p)
{
    ssimu2_convert<unsigned char, SSIMU2_SRC_YUV>(p);
}

__global__ void ssimu2_convert_yuv16(const SSIMU2CudaParams p)
{
    ssimu2_convert<unsigned short, SSIMU2_SRC_YUV>(p);
}

__global__ void ssimu2_convert_rgb8(const SSIMU2CudaParams p)
{
    ssimu2_convert<unsigned char, SSIMU2_SRC_RGB>(p);
}

__global__ void ssimu2_pyramid(const SSIMU2CudaParams p)
{
    ssimu2_convert<float, SSIMU2_SRC_LINEAR>(p);
}

/**
 * Row blur of a tile of SSIMU2_CUDA_TILE rows: thread x = row of the tile,
 * thread y = quantity. The rows are walked in chunks of TILE columns; the
 * inputs reach shared memory and the outputs leave it with coalesced
 * accesses (one row segment per warp instruction), while every thread runs
 * the sequential recursion of its row exactly as ssimu2_blur_row().
 *
 * The input ring holds 2 * TILE columns: chunk k loads columns
 * [TILE * k + 4, TILE * k + TILE + 4), and outputs TILE * k .. TILE * k + TILE - 1
 * read columns TILE * k - 6 .. TILE * k + TILE + 3, all in the last two loads.
 *
 * grid.x * TILE >= rows of scale 0, grid.y = nb_c channels, grid.z = nb_scales;
 * block = TILE x SSIMU2_NB_Q.
 */
__global__ void ssimu2_hblur(const SSIMU2CudaParams p)
{
    enum { T = SSIMU2_CUDA_TILE, RING = 2 * SSIMU2_CUDA_TILE, LEAD = SSIMU2_BLUR_N - 1 };
    __shared__ float in[2][T][RING + 1];
    __shared__ float out[SSIMU2_NB_Q][T][T + 1];
    int lane = threadIdx.x, q = threadIdx.y;
    int row0 = blockIdx.x * T;
    int g = blockIdx.y, c = p.c0 + g;
    int scale = blockIdx.z;
    int w = ssimu2_sel_scale_i(p.widths, scale), h = ssimu2_sel_scale_i(p.heights, scale);
    int pitch = ssimu2_sel_scale_i(p.pitches, scale);
    long long plane = (long long)pitch * h;
    const float *xyb = (const float *)ssimu2_sel_scale_u(p.xybs, scale);
    float *dst = (float *)ssimu2_sel_scale_u(p.hblurs, scale) + (g * SSIMU2_NB_Q + q) * plane;
    const float *src[2];
    float prev[3] = { 0.0f, 0.0f, 0.0f }, prev2[3] = { 0.0f, 0.0f, 0.0f };
    int n = -SSIMU2_BLUR_N + 1;

    if (row0 >= h)
        return; /* the whole block: no barrier is skipped by part of it */
    src[0] = xyb + c * plane;
    src[1] = xyb + (3 + c) * plane;

    /* chunk -1 (columns 0 .. LEAD - 1), then one chunk per TILE outputs */
    for (int k = -1; k * T < w; k++) {
        int end = min(k * T + T, w);
        /* load: rows of both images spread over the warps */
        for (int i = q; i < 2 * T; i += SSIMU2_NB_Q) {
            int img = i / T, r = i % T;
            int x = k * T + LEAD + lane, y = row0 + r;
            float v = 0.0f;
            if (x >= 0 && x < w && y < h)
                v = src[img][(long long)y * pitch + x];
            in[img][r][(k * T + lane) & (RING - 1)] = v;
        }
        __syncthreads();
        if (k < 0)
            continue;
        /* compute: the sequential recursion of this thread's row */
        while (n < end) {
            if (ssimu2_row_is_block(n, w)) {
                float sum[4], o[4];
#pragma unroll
                for (int j = 0; j < 4; j++)
                    sum[j] = ssimu2_ring_in(in, lane, q, w, n + j);
                ssimu2_row_block4(sum, prev, prev2, o);
#pragma unroll
                for (int j = 0; j < 4; j++)
                    out[q][lane][n + j - k * T] = o[j];
                n += 4;
            } else {
                float o = ssimu2_row_scalar(ssimu2_ring_in(in, lane, q, w, n), prev, prev2);
                if (n >= 0)
                    out[q][lane][n - k * T] = o;
                n++;
            }
        }
        __syncthreads();
        /* store: one row segment of this warp's quantity per instruction */
        for (int r = 0; r < T && row0 + r < h; r++) {
            int x = k * T + lane;
            if (x < w)
                dst[(long long)(row0 + r) * pitch + x] = out[q][r][lane];
        }
        /* the next chunk's load overwrites columns this one still reads */
        __syncthreads();
    }
}

/**
 * grid.x * block.x >= columns of scale 0, grid.y = nb_c channels,
 * grid.z = nb_scales.
 */
__global__ void ssimu2_vblur(const SSIMU2CudaParams p)
{
    /* rows whose loads are issued together, ahead of the dependent steps */
    enum { U = 8 };
    const float n2[3] = SSIMU2_N2_INIT;
    const float d1[3] = SSIMU2_D1_INIT;
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int g = blockIdx.y, c = p.c0 + g;
    int scale = blockIdx.z;
    int w = ssimu2_sel_scale_i(p.widths, scale), h = ssimu2_sel_scale_i(p.heights, scale);
    int pitch = ssimu2_sel_scale_i(p.pitches, scale);
    long long plane = (long long)pitch * h;
    const float *hb, *x1, *x2;
    float prev[SSIMU2_NB_Q][3], prev2[SSIMU2_NB_Q][3];
    double sums[SSIMU2_NB_SUMS];
    double *col;

    if (x >= w)
        return;
    hb = (const float *)ssimu2_sel_scale_u(p.hblurs, scale) + g * SSIMU2_NB_Q * plane + x;
    x1 = (const float *)ssimu2_sel_scale_u(p.xybs, scale) + c * plane + x;
    x2 = (const float *)ssimu2_sel_scale_u(p.xybs, scale) + (3 + c) * plane + x;
#pragma unroll
    for (int q = 0; q < SSIMU2_NB_Q; q++)
#pragma unroll
        for (int k = 0; k < 3; k++)
            prev[q][k] = prev2[q][k] = 0.0f;
#pragma unroll
    for (int k = 0; k < SSIMU2_NB_SUMS; k++)
        sums[k] = 0.0;

    for (int n0 = -SSIMU2_BLUR_N + 1; n0 < h; n0 += U) {
        float s[U][SSIMU2_NB_Q], v1[U], v2[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int n = n0 + u, l = n - SSIMU2_BLUR_N - 1, r = n + SSIMU2_BLUR_N - 1;
#pragma unroll
            for (int q = 0; q < SSIMU2_NB_Q; q++) {
                const float *hq = hb + q * plane;
                float a = l >= 0 && l < h ? hq[(long long)l * pitch] : 0.0f;
                float b = r < h ? hq[(long long)r * pitch] : 0.0f;
                s[u][q] = a + b;
            }
            v1[u] = n >= 0 && n < h ? x1[(long long)n * pitch] : 0.0f;
            v2[u] = n >= 0 && n < h ? x2[(long long)n * pitch] : 0.0f;
        }
#pragma unroll
        for (int u = 0; u < U; u++) {
            float o[SSIMU2_NB_Q];
            if (n0 + u >= h)
                break;
#pragma unroll
            for (int q = 0; q < SSIMU2_NB_Q; q++) {
#pragma unroll
                for (int k = 0; k < 3; k++) {
                    float y = ssimu2_col_step(n2[k], d1[k], s[u][q], prev[q][k], prev2[q][k]);
                    prev2[q][k] = prev[q][k];
                    prev[q][k]  = y;
                }
                o[q] = ssimu2_blur_out(prev[q][0], prev[q][1], prev[q][2]);
            }
            if (n0 + u >= 0)
                ssimu2_pixel_stats(v1[u], v2[u], o[SSIMU2_Q_X1], o[SSIMU2_Q_X2],
                                   o[SSIMU2_Q_X11], o[SSIMU2_Q_X22], o[SSIMU2_Q_X12], sums);
        }
    }

    col = (double *)p.colsum +
          (long long)(((p.pass * SSIMU2_MAX_SCALES + scale) * 3 + c) * SSIMU2_NB_SUMS) *
          p.colsum_len + x;
#pragma unroll
    for (int k = 0; k < SSIMU2_NB_SUMS; k++)
        col[(long long)k * p.colsum_len] = sums[k];
}

/**
 * One block per (pass, scale, channel, k): ssimu2_tree_sum() of that
 * column-sum array, each tree level split over the threads (the pairs of a
 * level are disjoint, so the result is the sequential function's).
 */
__global__ void ssimu2_reduce(const SSIMU2CudaParams p)
{
    int id = blockIdx.x;
    int per_pass = p.nb_scales * 3 * SSIMU2_NB_SUMS;
    int pass = id / per_pass, r = id - pass * per_pass;
    int scale = r / (3 * SSIMU2_NB_SUMS), ck = r - scale * (3 * SSIMU2_NB_SUMS);
    int n = p.widths[0];
    int slot = (pass * SSIMU2_MAX_SCALES + scale) * 3 * SSIMU2_NB_SUMS + ck;
    double *a;

#pragma unroll
    for (int i = 1; i < SSIMU2_MAX_SCALES; i++)
        if (i == scale)
            n = p.widths[i];
    a = (double *)p.colsum + (long long)slot * p.colsum_len;

    for (int stride = 1; stride < n; stride *= 2) {
        for (int i = 2 * stride * threadIdx.x; i + stride < n; i += 2 * stride * blockDim.x)
            a[i] += a[i + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        double *sums = (double *)p.result;
        unsigned long long *timer = (unsigned long long *)(sums + SSIMU2_CUDA_NB_SUMS);
        sums[slot] = a[0];
        timer[1 + id] = ssimu2_now();
    }
}

}
