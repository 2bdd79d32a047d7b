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
 *   ssimu2_convert_*   input frames (Y'CbCr, RGB or gray, 8 or 16-bit storage)
 *                      -> XYB of scale 0 + linear RGB of scale 1
 *   ssimu2_pyramid     linear RGB of scale s -> XYB of s + linear RGB of s + 1
 * then, the scales being independent once their XYB planes exist, for all
 * scales and channels at once, either (the planes layout: fastest)
 *   ssimu2_hblur       one thread per (row, quantity, channel): the steps of
 *                      row form (ssimu2_row_is_block()), rows staged through
 *                      shared memory, into the 15 blurred planes of each scale
 *   ssimu2_vblur       one thread per (column, quantity, channel): column
 *                      recursion, then the per-pixel terms spread over the
 *                      block and summed top to bottom per column
 * or (the tasks layout: about 37 % of the memory)
 *   ssimu2_blur        tasks of TILE rows x TILE columns: the
 *                      row recursion over the task's columns, then the column
 *                      recursion over its rows, the per-pixel terms and the
 *                      column sums; each task carries on the state of the
 *                      task to its left (rows) and above (columns)
 * or (the ring layout: about 18 %; the convert kernel makes only scale 1's
 * linear RGB)
 *   ssimu2_blur_ring   the same tasks, and convert tasks that make scale 0's
 *                      XYB a band x strip at a time into a ring of strips
 * and once per frame
 *   ssimu2_reduce      one block per (pass, scale, channel, sum): the pairwise
 *                      tree of ssimu2_tree_sum(), level by level
 */

#include "ssimulacra2_math.h"
#include "vf_ssimulacra2_cuda.h"

#ifndef __shared__
#define __shared__ __attribute__((shared)) /* clang without the CUDA headers */
#endif

/* threads per block and blocks per SM the register allocation must allow */
#if defined(__CUDACC__) && !defined(__clang__)
#define SSIMU2_BOUNDS(threads, blocks) __launch_bounds__(threads, blocks)
#elif defined(__CUDA__)
#define SSIMU2_BOUNDS(threads, blocks) __attribute__((launch_bounds(threads, blocks)))
#else
#define SSIMU2_BOUNDS(threads, blocks)
#endif

/* The row phase's ring of input columns, one row of it per image and row of
 * the band: column c is in slot (c - (N - 1)) mod 2 TILE, slot s at index
 * GUARD + s, and the last GUARD slots again at indices 0 .. GUARD - 1, so
 * that a chunk's left taps are at constant offsets from its right ones
 * across the ring's end; + 1 puts the rows in different banks. The rows of
 * the two images follow each other (SSIMU2RingRows in[2]). */
enum { SSIMU2_RING_GUARD = 16, SSIMU2_RING_ROW = SSIMU2_RING_GUARD + 2 * SSIMU2_CUDA_TILE + 1 };
typedef float SSIMU2RingRows[SSIMU2_CUDA_TILE][SSIMU2_RING_ROW];

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

/** Where the samples of each component of one input are, and how they are stored (resolved per thread). */
struct SSIMU2Src {
    const unsigned char *ptr[4];
    int linesize[4];
    SSIMU2CudaFormat f;
};

__device__ static inline void ssimu2_src_init(const SSIMU2CudaParams &p, int img, SSIMU2Src &s)
{
#pragma unroll
    for (int c = 0; c < 4; c++) {
        s.ptr[c] = (const unsigned char *)(img ? p.comp_data[1][c] : p.comp_data[0][c]);
        s.linesize[c] = img ? p.comp_linesize[1][c] : p.comp_linesize[0][c];
    }
    s.f = img ? p.fmt[1] : p.fmt[0];
}

/** A 16-bit sample stored big-endian, in the GPU's order. */
__device__ static inline int ssimu2_bswap16(int v)
{
    return ((v & 0xff) << 8) | (v >> 8);
}

/**
 * Code value of component c from its stored sample v, as the CPU filter's
 * read_sample(); BE: 16-bit samples stored big-endian (a kernel of its own,
 * so that the little-endian ones do not select a swapped sample at every read).
 */
template<typename T, bool BE>
__device__ static inline int ssimu2_code_value(const SSIMU2Src &s, int c, int v)
{
    if (sizeof(T) == 1)
        return v; /* every 8-bit format taken: depth 8, shift 0 (asserted in the plan) */
    if (BE)
        v = ssimu2_bswap16(v);
    return (v >> s.f.comp_shift[c]) & s.f.comp_mask[c];
}

/** Where the stored sample of component c at (x, y) is. */
__device__ static inline const unsigned char *ssimu2_sample_at(const SSIMU2Src &s,
                                                               int c, int x, int y)
{
    return s.ptr[c] + (long long)y * s.linesize[c] + (long long)x * s.f.comp_step[c];
}

/** Raw code value of component c at (x, y). */
template<typename T, bool BE>
__device__ static inline int ssimu2_sample(const SSIMU2CudaParams &p, const SSIMU2Src &s,
                                           int c, int x, int y)
{
    return ssimu2_code_value<T, BE>(s, c, *(const T *)ssimu2_sample_at(s, c, x, y));
}

/** An integer of two samples of type T. */
template<typename T> struct SSIMU2Pair { typedef unsigned int type; };
template<> struct SSIMU2Pair<unsigned char> { typedef unsigned short type; };

/**
 * Components 1 and 2 at chroma (x, y) of a format that stores them side by
 * side (NV12, P010: the SEMI kernels, which the plan takes where every pair
 * is aligned for one load): both samples in one load.
 */
template<typename T, bool BE>
__device__ static inline void ssimu2_sample_uv(const SSIMU2CudaParams &p, const SSIMU2Src &s,
                                               int x, int y, int *u, int *v)
{
    typedef typename SSIMU2Pair<T>::type P;
    unsigned int both = *(const P *)ssimu2_sample_at(s, 1, x, y), bits = sizeof(T) == 1 ? 8 : 16;
    int a = both & ((1u << bits) - 1), b = both >> bits;
    *u = ssimu2_code_value<T, BE>(s, 1, a);
    *v = ssimu2_code_value<T, BE>(s, 2, b);
}

/**
 * Bilinear chroma of one pixel of a quad from the quad's 3 x 3 window w of
 * samples: the pixel's taps are window rows dy, dy + 1 and columns dx,
 * dx + 1 (dx, dy 0 or 1), picked by selects (an index known only at run
 * time would put the window in local memory). A macro: from a function
 * taking the window's address, clang makes a load of a selected address,
 * with the same effect.
 */
#define SSIMU2_QUAD_TAP(w, dx, dy, wx, wy)                                            \
    ssimu2_bilinear((dx) ? ((dy) ? w[1][1] : w[0][1]) : ((dy) ? w[1][0] : w[0][0]), \
                    (dx) ? ((dy) ? w[1][2] : w[0][2]) : ((dy) ? w[1][1] : w[0][1]), \
                    (dx) ? ((dy) ? w[2][1] : w[1][1]) : ((dy) ? w[2][0] : w[1][0]), \
                    (dx) ? ((dy) ? w[2][2] : w[1][2]) : ((dy) ? w[2][1] : w[1][1]), wx, wy)

/**
 * Bilinear chroma (u, v) at the four pixels of quad (ox, oy), each as the
 * CPU filter's read_chroma(), from one 3 x 3 window of samples of each
 * chroma component (read per pixel, it took 16 reads and their addresses):
 * the two columns of a quad have chroma positions half a sample apart (one
 * where chroma is not subsampled), so their first taps are the same sample
 * or neighbours, and likewise the two rows. PAIR: U and V in one load.
 */
template<typename T, bool BE, bool PAIR>
__device__ static inline void ssimu2_quad_chroma(const SSIMU2CudaParams &p, const SSIMU2Src &s,
                                                 const SSIMU2Colour &col, int ox, int oy,
                                                 float *u, float *v)
{
    int fx[2], fy[2];
    float wx[2] = { 0.0f, 0.0f }, wy[2] = { 0.0f, 0.0f }, winu[3][3], winv[3][3];

#pragma unroll
    for (int i = 0; i < 2; i++) {
        int x = min(2 * ox + i, p.w - 1), y = min(2 * oy + i, p.h - 1);
        fx[i] = s.f.log2_chroma_w ? ssimu2_chroma_tap(x, col.chroma_x0, &wx[i]) : x;
        fy[i] = s.f.log2_chroma_h ? ssimu2_chroma_tap(y, col.chroma_y0, &wy[i]) : y;
    }
#pragma unroll
    for (int r = 0; r < 3; r++) {
#pragma unroll
        for (int k = 0; k < 3; k++) {
            int x = ssimu2_clampi(fx[0] + k, 0, s.f.chroma_w - 1);
            int y = ssimu2_clampi(fy[0] + r, 0, s.f.chroma_h - 1);
            int su, sv;
            if (PAIR) {
                ssimu2_sample_uv<T, BE>(p, s, x, y, &su, &sv);
            } else {
                su = ssimu2_sample<T, BE>(p, s, 1, x, y);
                sv = ssimu2_sample<T, BE>(p, s, 2, x, y);
            }
            winu[r][k] = (float)su;
            winv[r][k] = (float)sv;
        }
    }
#pragma unroll
    for (int i = 0; i < 4; i++) {
        int dx = fx[i & 1] - fx[0], dy = fy[i >> 1] - fy[0];
        u[i] = SSIMU2_QUAD_TAP(winu, dx, dy, wx[i & 1], wy[i >> 1]);
        v[i] = SSIMU2_QUAD_TAP(winv, dx, dy, wx[i & 1], wy[i >> 1]);
    }
}

/**
 * Where column x of row y of a plane of the blur (h rows: XYB or blurred)
 * is. The planes are stored by strips of TILE columns, so that the loads and
 * stores of a lane, which keeps its column, are a constant step (TILE
 * floats) apart down the rows: immediate offsets instead of an address per
 * row (the row pass's loads and stores were a fifth of its instructions).
 */
__device__ static inline long long ssimu2_strip(int x, int y, int h)
{
    return ((long long)(x / SSIMU2_CUDA_TILE) * h + y) * SSIMU2_CUDA_TILE + x % SSIMU2_CUDA_TILE;
}

/** Sources of a convert: Y'CbCr, the same with U and V side by side, RGB or gray, linear RGB. */
enum { SSIMU2_SRC_YUV, SSIMU2_SRC_SEMI, SSIMU2_SRC_RGB, SSIMU2_SRC_LINEAR };

/**
 * Linear RGB of one pixel of the current scale; u, v: its chroma (YUV
 * sources); TRC: the input's transfer, SSIMU2_TRC_SRGB (the default) as a
 * constant, so that the three channels' curves are one stretch of code
 * without branches, or -1: col.transfer, whichever it is.
 */
template<typename T, int MODE, bool BE, int TRC>
__device__ static inline void ssimu2_load(const SSIMU2CudaParams &p, const SSIMU2Src &s,
                                          const SSIMU2Colour &col, int img, int x, int y,
                                          float u, float v, float *rgb)
{
    const int trc = TRC < 0 ? col.transfer : TRC;

    if (MODE == SSIMU2_SRC_YUV || MODE == SSIMU2_SRC_SEMI) {
        float r, g, b;
        ssimu2_yuv_to_rgb(&col, (float)ssimu2_sample<T, BE>(p, s, 0, x, y), u, v, &r, &g, &b);
        /* with alpha (yuva; planar only), as the CPU filter blends it */
        if (MODE == SSIMU2_SRC_YUV && s.f.has_alpha) {
            float a = (float)ssimu2_sample<T, BE>(p, s, 3, x, y) * col.a_scale;
            r = ssimu2_blend(r, a, p.bg);
            g = ssimu2_blend(g, a, p.bg);
            b = ssimu2_blend(b, a, p.bg);
        }
        rgb[0] = ssimu2_eotf(trc, r);
        rgb[1] = ssimu2_eotf(trc, g);
        rgb[2] = ssimu2_eotf(trc, b);
    } else if (MODE == SSIMU2_SRC_RGB && s.f.gray) {
        float v = ((float)ssimu2_sample<T, BE>(p, s, 0, x, y) - col.y_off) * col.y_scale;
        rgb[0] = rgb[1] = rgb[2] = ssimu2_eotf(trc, ssimu2_clip01(v));
    } else if (MODE == SSIMU2_SRC_RGB) {
        float a = s.f.has_alpha ? (float)ssimu2_sample<T, BE>(p, s, 3, x, y) * col.a_scale : 1.0f;
#pragma unroll
        for (int c = 0; c < 3; c++) {
            float v = ((float)ssimu2_sample<T, BE>(p, s, c, x, y) - col.y_off) * col.y_scale;
            if (s.f.has_alpha)
                v = ssimu2_blend(v, a, p.bg);
            rgb[c] = ssimu2_eotf(trc, v);
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
 * Linear RGB (lin) and XYB of the (up to) four pixels of quad (ox, oy),
 * edge pixels repeated as the CPU filter's clamped reads; cu, cv: their chroma.
 */
template<typename T, int MODE, bool BE, int TRC>
__device__ static inline void ssimu2_quad_xyb(const SSIMU2CudaParams &p, const SSIMU2Src &s,
                                              const SSIMU2Colour &col, int img, int ox, int oy,
                                              const float *cu, const float *cv, float *xyb,
                                              long long plane, float (*lin)[3])
{
#pragma unroll
    for (int i = 0; i < 4; i++) {
        int x = 2 * ox + (i & 1), y = 2 * oy + (i >> 1);
        ssimu2_load<T, MODE, BE, TRC>(p, s, col, img, min(x, p.w - 1), min(y, p.h - 1),
                                      cu[i], cv[i], lin[i]);
        if (xyb && x < p.w && y < p.h) {
            /* the quad's columns 2 ox, 2 ox + 1 are in one strip */
            int o = (i & 1) + (i >> 1) * SSIMU2_CUDA_TILE;
            float vx, vy, vb;
            ssimu2_linear_to_xyb(lin[i][0], lin[i][1], lin[i][2], &vx, &vy, &vb);
            xyb[o]               = vx;
            xyb[plane + o]     = vy;
            xyb[2 * plane + o] = vb;
        }
    }
}

/**
 * Quad (ox, oy) of image img of the current scale (its samples s, its colour
 * col): XYB of its (up to) four pixels at xyb (planes plane floats apart),
 * and the 2x2 box of their linear RGB for the next scale. Inlined: a call
 * takes p's address, and the kernel copies its parameters into local memory
 * for it.
 */
template<typename T, int MODE, bool BE>
__device__ static inline __attribute__((always_inline))
void ssimu2_convert_quad(const SSIMU2CudaParams &p, const SSIMU2Src &s, const SSIMU2Colour &col,
                         int img, int ox, int oy, float *xyb, long long plane)
{
    float lin[4][3], cu[4] = { 0.0f }, cv[4] = { 0.0f };

    if (MODE == SSIMU2_SRC_YUV || MODE == SSIMU2_SRC_SEMI)
        ssimu2_quad_chroma<T, BE, MODE == SSIMU2_SRC_SEMI>(p, s, col, ox, oy, cu, cv);

    /* one branch per thread (the transfer is the image's: one per block) */
    if (MODE != SSIMU2_SRC_LINEAR && col.transfer == SSIMU2_TRC_SRGB)
        ssimu2_quad_xyb<T, MODE, BE, SSIMU2_TRC_SRGB>(p, s, col, img, ox, oy, cu, cv, xyb, plane, lin);
    else
        ssimu2_quad_xyb<T, MODE, BE, -1>(p, s, col, img, ox, oy, cu, cv, xyb, plane, lin);
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
 * One thread per 2x2 quad of the current scale (one image per grid z):
 * ssimu2_convert_quad() into the XYB planes of the scale.
 */
template<typename T, int MODE, bool BE>
__device__ static inline void ssimu2_convert(const SSIMU2CudaParams &p)
{
    int ox  = blockIdx.x * blockDim.x + threadIdx.x;
    int oy  = blockIdx.y * blockDim.y + threadIdx.y;
    int img = p.img0 + blockIdx.z;
    SSIMU2Colour col = img ? p.colour[1] : p.colour[0];
    SSIMU2Src s;

    if (MODE != SSIMU2_SRC_LINEAR && p.pass == 0 && (ox | oy | img) == 0) {
        unsigned long long *words = (unsigned long long *)p.result;
        words[SSIMU2_CUDA_NB_SUMS] = ssimu2_now();
        words[SSIMU2_CUDA_FAULT]   = 0;
    }
    if (ox >= (p.w + 1) >> 1 || oy >= (p.h + 1) >> 1)
        return;
    if (MODE != SSIMU2_SRC_LINEAR)
        ssimu2_src_init(p, img, s);
    /* the ring layout's scale 0: the linear RGB of scale 1 only (its blur converts) */
    ssimu2_convert_quad<T, MODE, BE>(p, s, col, img, ox, oy, !p.xyb ? (float *)0 :
                                     (float *)p.xyb + img * 3 * p.plane + ssimu2_strip(2 * ox, 2 * oy, p.h),
                                     p.plane);
}

/** What a convert task reads of each image, in shared memory: the parameters cannot be indexed by image. */
struct SSIMU2ConvertShared {
    SSIMU2Src src[2];
    SSIMU2Colour col[2];
};

/**
 * N words of the kernel's parameters, each loaded at a constant offset: a
 * copy of a structure is a memcpy, and to give it an address (as to index
 * the parameters by image) clang copies all the parameters into local memory.
 */
template<int N>
__device__ static inline void ssimu2_param_words(void *dst, const void *param)
{
#pragma unroll
    for (int i = 0; i < N; i++)
        ((int *)dst)[i] = ((const int *)param)[i];
}

/** Thread 0 of a convert task: each image's samples and colour into shared memory. */
__device__ static inline void ssimu2_convert_shared_init(const SSIMU2CudaParams &p, SSIMU2ConvertShared *sh)
{
#pragma unroll
    for (int i = 0; i < 2; i++) {
#pragma unroll
        for (int c = 0; c < 4; c++) {
            sh->src[i].ptr[c]      = (const unsigned char *)p.comp_data[i][c];
            sh->src[i].linesize[c] = p.comp_linesize[i][c];
        }
        ssimu2_param_words<sizeof(SSIMU2CudaFormat) / 4>(&sh->src[i].f, &p.fmt[i]);
        ssimu2_param_words<sizeof(SSIMU2Colour) / 4>(&sh->col[i], &p.colour[i]);
    }
}

/**
 * A convert task of the ring layout: the quads of band b x strip k of scale
 * 0 (both images; a warp's quads are of one image), ssimu2_convert_quad()
 * into the ring of XYB strips (strip k & ring_mask). The conversion of each
 * image is its convert kernel's (inlined, as ssimu2_convert_quad()).
 */
__device__ static inline __attribute__((always_inline))
void ssimu2_convert_task(const SSIMU2CudaParams &p, const SSIMU2ConvertShared *sh, int b, int k, int id)
{
    enum { Q = SSIMU2_CUDA_TILE / 2 };
    static_assert((Q * Q) % 32 == 0 && SSIMU2_CUDA_TASK_THREADS % 32 == 0,
                  "a warp converts quads of one image");
    const int mask = p.ring_mask ? p.ring_mask : -1;

    for (int i = id; i < 2 * Q * Q; i += SSIMU2_CUDA_TASK_THREADS) {
        int img = i / (Q * Q), ox = k * Q + i % Q, oy = b * Q + i / Q % Q;
        float *xyb = (float *)p.xyb + img * 3 * p.plane + ssimu2_strip((2 * ox) & mask, 2 * oy, p.h);
        if (ox >= (p.w + 1) >> 1 || oy >= (p.h + 1) >> 1)
            continue;
#define SSIMU2_CONVERT_AS(T, MODE, BE) \
    ssimu2_convert_quad<T, MODE, BE>(p, sh->src[img], sh->col[img], img, ox, oy, xyb, p.plane)
        switch (img ? p.conv_kind[1] : p.conv_kind[0]) {
        case SSIMU2_CONV_RGB8:    SSIMU2_CONVERT_AS(unsigned char,  SSIMU2_SRC_RGB,  false); break;
        case SSIMU2_CONV_RGB16:   SSIMU2_CONVERT_AS(unsigned short, SSIMU2_SRC_RGB,  false); break;
        case SSIMU2_CONV_RGB16BE: SSIMU2_CONVERT_AS(unsigned short, SSIMU2_SRC_RGB,  true);  break;
        case SSIMU2_CONV_YUV8:    SSIMU2_CONVERT_AS(unsigned char,  SSIMU2_SRC_YUV,  false); break;
        case SSIMU2_CONV_YUV16:   SSIMU2_CONVERT_AS(unsigned short, SSIMU2_SRC_YUV,  false); break;
        case SSIMU2_CONV_SEMI8:   SSIMU2_CONVERT_AS(unsigned char,  SSIMU2_SRC_SEMI, false); break;
        default:                  SSIMU2_CONVERT_AS(unsigned short, SSIMU2_SRC_SEMI, false); break;
        }
#undef SSIMU2_CONVERT_AS
    }
}

/**
 * Blur input s(n) of quantity q for one row of a task's band, from the
 * shared-memory ring: v[n - N - 1] + v[n + N - 1], zero outside the row.
 */
__device__ static inline float ssimu2_ring_in(SSIMU2RingRows *in,
                                              int row, int q, int len, int n)
{
    const int mask = 2 * SSIMU2_CUDA_TILE - 1;
    int l = n - SSIMU2_BLUR_N - 1, r = n + SSIMU2_BLUR_N - 1;
    int sl = SSIMU2_RING_GUARD + ((l - (SSIMU2_BLUR_N - 1)) & mask);
    int sr = SSIMU2_RING_GUARD + ((r - (SSIMU2_BLUR_N - 1)) & mask);
    float a = l >= 0  ? ssimu2_quantity_of(in[0][row][sl], in[1][row][sl], q) : 0.0f;
    float b = r < len ? ssimu2_quantity_of(in[0][row][sr], in[1][row][sr], q) : 0.0f;
    return a + b;
}

/**
 * ssimu2_ring_in() of the four steps n .. n + 3 of a block of the row form,
 * without its bounds tests and slot arithmetic: a is slot n of the ring row,
 * so the right taps are a[0 .. 3] and the left taps a[-2N .. -2N + 3], across
 * the ring's end through its guard. Blocks are steps 8 <= n < len - 7
 * (ssimu2_row_is_block()), so every tap is in the row.
 */
template<int Q>
__device__ static inline void ssimu2_ring_in4(const float *a, float *sum)
{
    const float *b = a + SSIMU2_CUDA_TILE * SSIMU2_RING_ROW; /* the same slot of in[1] */
#pragma unroll
    for (int j = 0; j < 4; j++) {
        int l = j - 2 * SSIMU2_BLUR_N;
        sum[j] = ssimu2_quantity_of(a[l], b[l], Q) + ssimu2_quantity_of(a[j], b[j], Q);
    }
}

/**
 * The row recursion of quantity Q from step n up to output end - 1 (chunk k
 * of the row phase), in the phases of ssimu2_row_is_block(); outputs go to the
 * shared-memory tile, state stays in n, prev and prev2. A chunk's blocks
 * start at multiples of 4 from its first column (a row starts at n = -N + 1
 * or, in a blur task, at a multiple of TILE, and takes single steps up to 8),
 * so they address the ring and the tile at constant offsets from one index.
 */
template<int Q>
__device__ static inline void ssimu2_row_steps(SSIMU2RingRows *in,
                                               float (*out)[SSIMU2_CUDA_TILE + 1],
                                               int lane, int w, int k, int end,
                                               int &n, float *prev, float *prev2)
{
    const int x0 = k * SSIMU2_CUDA_TILE;
    const float *a = &in[0][lane][SSIMU2_RING_GUARD + (x0 & (2 * SSIMU2_CUDA_TILE - 1))];
    float *o = out[lane];
    static_assert(SSIMU2_CUDA_TILE % 4 == 0,
                  "blocks of four start at multiples of 4 in every chunk");
    static_assert(SSIMU2_RING_GUARD >= 2 * SSIMU2_BLUR_N,
                  "the guard holds the left taps across the ring's end");
    while (n < end) {
        if (ssimu2_row_is_block(n, w)) {
            const int stop = min(end, w - 7) - x0;
            int m;
            for (m = n - x0; m < stop; m += 4) {
                float sum[4], y[4];
                ssimu2_ring_in4<Q>(a + m, sum);
                ssimu2_row_block4(sum, prev, prev2, y);
#pragma unroll
                for (int j = 0; j < 4; j++)
                    o[m + j] = y[j];
            }
            n = x0 + m;
        } else {
            float y = ssimu2_row_scalar(ssimu2_ring_in(in, lane, Q, w, n), prev, prev2);
            if (n >= 0)
                o[n - x0] = y;
            n++;
        }
    }
}

/**
 * Loads of chunk k of a band into registers: the input columns
 * [TILE * k + N - 1, TILE * k + TILE + N - 1) of the band's rows, zero
 * outside the plane; warp q loads both images' rows q, q + 5, ..., which
 * the strip layout puts a constant step apart. Column x is stored as
 * x & mask (-1, or a ring of strips).
 */
__device__ static inline void ssimu2_chunk_fetch(const float *src0, const float *src1, int w, int h,
                                                 int mask, int row0, int k, int lane, int q,
                                                 float *next)
{
    const int x = k * SSIMU2_CUDA_TILE + SSIMU2_BLUR_N - 1 + lane;
    /* row q + 5j is in the plane when 5j < rows */
    const int rows = x >= 0 && x < w ? h - row0 - q : 0;
    const long long o = ssimu2_strip(x & mask, row0 + q, h);
#pragma unroll
    for (int j = 0; j < SSIMU2_CUDA_TASK_ROWS; j++) {
        const int step = j * SSIMU2_NB_Q * SSIMU2_CUDA_TILE;
        int ok = j * SSIMU2_NB_Q < rows && q + j * SSIMU2_NB_Q < SSIMU2_CUDA_TILE;
        next[2 * j]     = ok ? src0[o + step] : 0.0f;
        next[2 * j + 1] = ok ? src1[o + step] : 0.0f;
    }
}

/**
 * The registers of ssimu2_chunk_fetch() into the ring slots of chunk k; the
 * slots from 2 TILE - GUARD also into the guard.
 */
__device__ static inline void ssimu2_chunk_put(SSIMU2RingRows *in,
                                               int k, int lane, int q, const float *next)
{
    const int slot = (k * SSIMU2_CUDA_TILE + lane) & (2 * SSIMU2_CUDA_TILE - 1);
    const int guard = slot - 2 * SSIMU2_CUDA_TILE + SSIMU2_RING_GUARD;
#pragma unroll
    for (int j = 0; j < SSIMU2_CUDA_TASK_ROWS; j++) {
        int r = q + j * SSIMU2_NB_Q;
        if (r < SSIMU2_CUDA_TILE) {
            in[0][r][SSIMU2_RING_GUARD + slot] = next[2 * j];
            in[1][r][SSIMU2_RING_GUARD + slot] = next[2 * j + 1];
            if (guard >= 0) {
                in[0][r][guard] = next[2 * j];
                in[1][r][guard] = next[2 * j + 1];
            }
        }
    }
}

/**
 * Rows first .. first + COUNT - 1 of a column of a blurred plane (hq: its
 * row 0, ssimu2_strip()), zero outside [0, h): loads of the column
 * recursion's window (COUNT a constant, so that the window stays in
 * registers). Windows whose rows are all in [0, h) load without tests.
 */
template<int COUNT>
__device__ static inline void ssimu2_vwin_fetch(const float *hq, int h, int in_col, int first, float *dst)
{
    const float *ptr = hq + first * SSIMU2_CUDA_TILE;
    if (in_col && first >= 0 && first + COUNT <= h) {
#pragma unroll
        for (int i = 0; i < COUNT; i++)
            dst[i] = ptr[i * SSIMU2_CUDA_TILE];
        return;
    }
#pragma unroll
    for (int i = 0; i < COUNT; i++)
        dst[i] = in_col && (unsigned)(first + i) < (unsigned)h ? ptr[i * SSIMU2_CUDA_TILE] : 0.0f;
}

/** A counter or state word another block writes during this launch: not from L1. */
template<typename T>
__device__ static inline T ssimu2_load_shared_state(const T *p)
{
    return *(const volatile T *)p;
}

/** Stores before it are seen by every block before stores after it. */
__device__ static inline void ssimu2_fence(void)
{
#if defined(__CUDA__) || defined(__CUDACC__)
    asm volatile("membar.gl;" ::: "memory");
#else
    ssimu2_emu_fence();
#endif
}

/**
 * Waits until *counter >= v; 0 then. Only for counters of tasks with lower
 * tickets: their blocks are running, so the wait ends. Should it not (a bug),
 * after SSIMU2_CUDA_WAIT_LIMIT the task raises *abort, every waiting task
 * gives up (-1), and the frame fails instead of the process hanging. The
 * emulation runs the tickets in order, so there the counter must already be
 * there, or its blocks at once (tests/tools/cuda-emu-kernels.cpp).
 */
__device__ static inline int ssimu2_wait(const int *counter, int v, int *abort)
{
#if defined(__CUDA__) || defined(__CUDACC__)
    unsigned long long t0 = ssimu2_now();
    /* one load per poll: the abort flag and the clock every 64 polls */
    for (unsigned i = 1; ssimu2_load_shared_state(counter) < v; i++) {
        if (i & 63)
            continue;
        if (ssimu2_load_shared_state(abort))
            return -1;
        if (ssimu2_now() - t0 > SSIMU2_CUDA_WAIT_LIMIT) {
            *(volatile int *)abort = 1;
            return -1;
        }
    }
#else
    ssimu2_emu_wait(counter, v);
#endif
    return 0;
}

/** Bits of a double: sign tests and negation without the fp64 unit. */
__device__ static inline long long ssimu2_bits(double v)
{
    long long b;
    __builtin_memcpy(&b, &v, sizeof(b));
    return b;
}

__device__ static inline double ssimu2_from_bits(long long b)
{
    double v;
    __builtin_memcpy(&v, &b, sizeof(v));
    return v;
}

/**
 * ssimu2_pixel_terms() with a quarter less double arithmetic, for GPUs whose
 * fp64 rate is 1/64 of fp32: for finite d and q, max(v, 0) is v or +0 by
 * the sign bit (as the branch-free form gives, -0 included), -q flips the
 * sign bit, and artifact and detail lost share one fourth power (at most one
 * is not zero, and q^2 = (-q)^2 exactly). Infinities and NaN (which the
 * branch-free form turns into NaN where a select would not) take that form,
 * and so do the infinite operands of the edge quotient's division (NaN
 * without its range check: ssimu2_edge_quotient()).
 */
__device__ static inline void ssimu2_pixel_terms_gpu(float x1, float x2, float mu1, float mu2,
                                                     float s11, float s22, float s12, double *v)
{
    const long long exp_mask = 0x7ff0000000000000LL, sign = (long long)0x8000000000000000ULL;
    double d = 1.0 - (double)ssimu2_ssim_ratio(mu1, mu2, s11, s22, s12);
    double q = ssimu2_edge_quotient(x1, x2, mu1, mu2, 1);
    long long bd = ssimu2_bits(d), bq = ssimu2_bits(q);
    double d2, q4;

    if ((bd & exp_mask) == exp_mask || (bq & exp_mask) == exp_mask) {
        ssimu2_pixel_terms(x1, x2, mu1, mu2, s11, s22, s12, v);
        return;
    }
    d  = bd < 0 ? 0.0 : d;
    d2 = d * d;
    q4 = q * q;
    q4 = q4 * q4;
    v[0] = d;
    v[1] = d2 * d2;
    v[2] = bq < 0 ? 0.0 : q;
    v[3] = bq < 0 ? 0.0 : q4;
    v[4] = bq < 0 ? ssimu2_from_bits(bq ^ sign) : 0.0;
    v[5] = bq < 0 ? q4 : 0.0;
}

/**
 * Loads of the XYB samples of the pixels this thread scores in rows n0 + q,
 * n0 + q + 5, ...; x1, x2: row 0 of the thread's column (ssimu2_strip()).
 */
__device__ static inline void ssimu2_vpix_fetch(const float *x1, const float *x2, int h, int in_col,
                                                int n0, int q, float *v1, float *v2)
{
    enum { PIX = (SSIMU2_CUDA_VROWS + SSIMU2_NB_Q - 1) / SSIMU2_NB_Q };
    const long long o = (long long)(n0 + q) * SSIMU2_CUDA_TILE;
    /* the rows of batches inside the plane load without tests */
    if (in_col && n0 >= 0 && n0 + SSIMU2_CUDA_VROWS <= h) {
#pragma unroll
        for (int j = 0; j < PIX; j++) {
            const int step = j * SSIMU2_NB_Q * SSIMU2_CUDA_TILE;
            int ok = q + j * SSIMU2_NB_Q < SSIMU2_CUDA_VROWS;
            v1[j] = ok ? x1[o + step] : 0.0f;
            v2[j] = ok ? x2[o + step] : 0.0f;
        }
        return;
    }
#pragma unroll
    for (int j = 0; j < PIX; j++) {
        const int step = j * SSIMU2_NB_Q * SSIMU2_CUDA_TILE;
        int n = n0 + q + j * SSIMU2_NB_Q;
        int ok = in_col && q + j * SSIMU2_NB_Q < SSIMU2_CUDA_VROWS && n >= 0 && n < h;
        v1[j] = ok ? x1[o + step] : 0.0f;
        v2[j] = ok ? x2[o + step] : 0.0f;
    }
}

/*
 * The column phase's pieces shared by ssimu2_vblur and ssimu2_blur, inlined
 * (a call would move the state through local memory).
 */

/**
 * The column recursion of quantity q over a batch of VROWS rows: inputs
 * s(n0 + u) = win[u] + win[u + 2N], outputs into mu[u][lane].
 */
__device__ static inline __attribute__((always_inline))
void ssimu2_col_batch(const float *win, float *prev, float *prev2, float (*mu)[SSIMU2_CUDA_TILE], int lane)
{
    const float n2[3] = SSIMU2_N2_INIT;
    const float d1[3] = SSIMU2_D1_INIT;
#pragma unroll
    for (int u = 0; u < SSIMU2_CUDA_VROWS; u++) {
        float sum = win[u] + win[u + 2 * SSIMU2_BLUR_N];
#pragma unroll
        for (int k = 0; k < 3; k++) {
            float y = ssimu2_col_step(n2[k], d1[k], sum, prev[k], prev2[k]);
            prev2[k] = prev[k];
            prev[k]  = y;
        }
        mu[u][lane] = ssimu2_blur_out(prev[0], prev[1], prev[2]);
    }
}

/**
 * Per-pixel terms of the batch's rows q, q + 5, ... from the five
 * quantities' blurred values; v1, v2: their XYB samples (ssimu2_vpix_fetch()).
 * Rows n0 + u outside [0, h) get +0 terms: every term is +0 or more (or NaN),
 * so a running sum is never -0 and adding +0 leaves its bits as they are.
 * INSIDE: the whole batch is inside the plane, no row is tested.
 */
template<bool INSIDE>
__device__ static inline __attribute__((always_inline))
void ssimu2_batch_rows_terms(float (*mu)[SSIMU2_CUDA_VROWS][SSIMU2_CUDA_TILE],
                             double (*terms)[SSIMU2_CUDA_VROWS][SSIMU2_CUDA_TILE],
                             const float *v1, const float *v2, int lane, int q, int n0, int h)
{
#pragma unroll
    for (int j = 0; j < (SSIMU2_CUDA_VROWS + SSIMU2_NB_Q - 1) / SSIMU2_NB_Q; j++) {
        int u = q + j * SSIMU2_NB_Q, n = n0 + u;
        if (u < SSIMU2_CUDA_VROWS) {
            double v[SSIMU2_NB_SUMS] = { 0.0 };
            if (INSIDE || (n >= 0 && n < h))
                ssimu2_pixel_terms_gpu(v1[j], v2[j], mu[SSIMU2_Q_X1][u][lane], mu[SSIMU2_Q_X2][u][lane],
                                       mu[SSIMU2_Q_X11][u][lane], mu[SSIMU2_Q_X22][u][lane],
                                       mu[SSIMU2_Q_X12][u][lane], v);
#pragma unroll
            for (int k = 0; k < SSIMU2_NB_SUMS; k++)
                terms[k][u][lane] = v[k];
        }
    }
}

/* the batches at the plane's ends take the copy with the row tests (the
 * tests, branches and zeroing were a tenth of a pixel's instructions) */
__device__ static inline __attribute__((always_inline))
void ssimu2_batch_terms(float (*mu)[SSIMU2_CUDA_VROWS][SSIMU2_CUDA_TILE],
                        double (*terms)[SSIMU2_CUDA_VROWS][SSIMU2_CUDA_TILE],
                        const float *v1, const float *v2, int lane, int q, int n0, int h)
{
    if (n0 >= 0 && n0 + SSIMU2_CUDA_VROWS <= h)
        ssimu2_batch_rows_terms<true>(mu, terms, v1, v2, lane, q, n0, h);
    else
        ssimu2_batch_rows_terms<false>(mu, terms, v1, v2, lane, q, n0, h);
}

/**
 * Column sums q and q + 5 (sums[0], sums[1]) of the batch's rows, top to
 * bottom (rows outside the plane add +0: ssimu2_batch_terms()). Unrolled,
 * so that the loads need not wait for the additions (a chain of 16
 * dependent ones).
 */
__device__ static inline __attribute__((always_inline))
void ssimu2_batch_sums(double (*terms)[SSIMU2_CUDA_VROWS][SSIMU2_CUDA_TILE],
                       int lane, int q, double *sums)
{
#pragma unroll
    for (int u = 0; u < SSIMU2_CUDA_VROWS; u++)
        sums[0] += terms[q][u][lane];
    if (q + SSIMU2_NB_Q < SSIMU2_NB_SUMS) {
#pragma unroll
        for (int u = 0; u < SSIMU2_CUDA_VROWS; u++)
            sums[1] += terms[q + SSIMU2_NB_Q][u][lane];
    }
}

extern "C" {

__global__ void ssimu2_convert_yuv8(const SSIMU2CudaParams p)
{
    ssimu2_convert<unsigned char, SSIMU2_SRC_YUV, false>(p);
}

__global__ void ssimu2_convert_yuv16(const SSIMU2CudaParams p)
{
    ssimu2_convert<unsigned short, SSIMU2_SRC_YUV, false>(p);
}

__global__ void ssimu2_convert_semi8(const SSIMU2CudaParams p)
{
    ssimu2_convert<unsigned char, SSIMU2_SRC_SEMI, false>(p);
}

__global__ void ssimu2_convert_semi16(const SSIMU2CudaParams p)
{
    ssimu2_convert<unsigned short, SSIMU2_SRC_SEMI, false>(p);
}

__global__ void ssimu2_convert_rgb8(const SSIMU2CudaParams p)
{
    ssimu2_convert<unsigned char, SSIMU2_SRC_RGB, false>(p);
}

__global__ void ssimu2_convert_rgb16(const SSIMU2CudaParams p)
{
    ssimu2_convert<unsigned short, SSIMU2_SRC_RGB, false>(p);
}

__global__ void ssimu2_convert_rgb16be(const SSIMU2CudaParams p)
{
    ssimu2_convert<unsigned short, SSIMU2_SRC_RGB, true>(p);
}

__global__ void ssimu2_pyramid(const SSIMU2CudaParams p)
{
    ssimu2_convert<float, SSIMU2_SRC_LINEAR, false>(p);
}

/**
 * Row blur of a tile of SSIMU2_CUDA_TILE rows: thread x = row of the tile,
 * thread y = quantity. The rows are walked in chunks of TILE columns; the
 * inputs reach shared memory and the outputs leave it with coalesced
 * accesses (a warp instruction reads a row segment of the input, which spans
 * two strips, and writes one of the output), while every thread runs the
 * sequential recursion of its row exactly as the row form (section 5.5).
 *
 * The input ring holds 2 * TILE columns (and a guard: SSIMU2RingRows): chunk
 * k loads columns [TILE * k + 4, TILE * k + TILE + 4), and outputs TILE * k
 * .. TILE * k + TILE - 1 read columns TILE * k - 6 .. TILE * k + TILE + 3,
 * all in the last two loads.
 *
 * grid.x * TILE >= rows of scale 0, grid.y = channel, grid.z = nb_scales;
 * block = TILE x SSIMU2_NB_Q.
 */
__global__ void ssimu2_hblur(const SSIMU2CudaParams p)
{
    enum { T = SSIMU2_CUDA_TILE };
    /* 46 KB a block, 4 KB of it spare: at most 4 blocks of the row pass on
     * one SM of the H200 (228 KB), and room beside them for a column-pass
     * block of another frame in flight; 3, 5 and 6 blocks per SM measured
     * 4 to 12 % slower (doc/notes.md) */
    __shared__ struct {
        SSIMU2RingRows in[2];
        float out[SSIMU2_NB_Q][T][T + 1];
        float spare[1056];
    } sh;
    SSIMU2RingRows *const in = sh.in;
    float (*const out)[T][T + 1] = sh.out;
    int lane = threadIdx.x, q = threadIdx.y;
    int row0 = blockIdx.x * T;
    int c = blockIdx.y;
    int scale = blockIdx.z;
    int w = ssimu2_sel_scale_i(p.widths, scale), h = ssimu2_sel_scale_i(p.heights, scale);
    long long plane = (long long)ssimu2_sel_scale_i(p.pitches, scale) * h;
    const float *xyb = (const float *)ssimu2_sel_scale_u(p.xybs, scale);
    float *dst = (float *)ssimu2_sel_scale_u(p.hblurs, scale) + (c * SSIMU2_NB_Q + q) * plane;
    const float *src0 = xyb + c * plane, *src1 = xyb + (3 + c) * plane;
    const int rows = min(T, h - row0);
    float next[2 * SSIMU2_CUDA_TASK_ROWS];
    float prev[3] = { 0.0f, 0.0f, 0.0f }, prev2[3] = { 0.0f, 0.0f, 0.0f };
    int n = -SSIMU2_BLUR_N + 1;

    if (row0 >= h)
        return; /* the whole block: no barrier is skipped by part of it */

    /* chunk -1 (columns 0 .. LEAD - 1), then one chunk per TILE outputs; the
     * next chunk's loads are issued before this chunk's recursion runs */
    ssimu2_chunk_fetch(src0, src1, w, h, -1, row0, -1, lane, q, next);
    for (int k = -1; k * T < w; k++) {
        int end = min(k * T + T, w);
        ssimu2_chunk_put(in, k, lane, q, next);
        __syncthreads();
        if ((k + 1) * T < w)
            ssimu2_chunk_fetch(src0, src1, w, h, -1, row0, k + 1, lane, q, next);
        if (k < 0) {
            __syncthreads();
            continue;
        }
        /* compute: the sequential recursion of this thread's row (the
         * barriers stay outside the switch: every thread passes the same ones) */
        switch (q) {
        case SSIMU2_Q_X1:  ssimu2_row_steps<SSIMU2_Q_X1>(in, out[q], lane, w, k, end, n, prev, prev2);  break;
        case SSIMU2_Q_X2:  ssimu2_row_steps<SSIMU2_Q_X2>(in, out[q], lane, w, k, end, n, prev, prev2);  break;
        case SSIMU2_Q_X11: ssimu2_row_steps<SSIMU2_Q_X11>(in, out[q], lane, w, k, end, n, prev, prev2); break;
        case SSIMU2_Q_X22: ssimu2_row_steps<SSIMU2_Q_X22>(in, out[q], lane, w, k, end, n, prev, prev2); break;
        default:           ssimu2_row_steps<SSIMU2_Q_X12>(in, out[q], lane, w, k, end, n, prev, prev2); break;
        }
        /* the next chunk's put overwrites columns this one reads */
        __syncthreads();
        /* store: one row segment of this warp's quantity per instruction,
         * the rows of strip k a constant step apart (ssimu2_strip()) */
        if (k * T + lane < w) {
            float *d = dst + ssimu2_strip(k * T + lane, row0, h);
            if (rows == T) {
#pragma unroll
                for (int r = 0; r < T; r++)
                    d[r * T] = out[q][r][lane];
            } else {
                for (int r = 0; r < rows; r++)
                    d[r * T] = out[q][r][lane];
            }
        }
    }
}

/**
 * Column blur fused with the per-pixel terms, for a strip of TILE columns,
 * in batches of SSIMU2_CUDA_VROWS rows:
 *   1. warp q runs the column recursion of quantity q (one column per lane)
 *      and leaves the blurred values in shared memory;
 *   2. all warps compute the per-pixel terms of the batch's pixels;
 *   3. warp q adds sums q (and q + 5) down each column, row by row from
 *      row 0, the order of the CPU filter's column sums.
 * The loads of the next batch are issued before the current one is finished.
 *
 * grid.x * TILE >= columns of scale 0, grid.y = channel, grid.z = nb_scales;
 * block = TILE x SSIMU2_NB_Q.
 */
__global__ void ssimu2_vblur(const SSIMU2CudaParams p)
{
    enum { T = SSIMU2_CUDA_TILE, R = SSIMU2_CUDA_VROWS,
           PIX = (SSIMU2_CUDA_VROWS + SSIMU2_NB_Q - 1) / SSIMU2_NB_Q };
    __shared__ float mu[SSIMU2_NB_Q][R][T];
    __shared__ double terms[SSIMU2_NB_SUMS][R][T];
    int lane = threadIdx.x, q = threadIdx.y;
    int x = blockIdx.x * T + lane;
    int c = blockIdx.y;
    int scale = blockIdx.z;
    int w = ssimu2_sel_scale_i(p.widths, scale), h = ssimu2_sel_scale_i(p.heights, scale);
    long long plane = (long long)ssimu2_sel_scale_i(p.pitches, scale) * h;
    const float *hq, *x1, *x2;
    /* rows n0 - N - 1 .. n0 + R + N - 2: the taps of the batch, s(n0 + u) =
     * win[u] + win[u + 2N]; the last 2N rows are the next batch's first */
    float win[R + 2 * SSIMU2_BLUR_N], v1[PIX], v2[PIX];
    float prev[3] = { 0.0f, 0.0f, 0.0f }, prev2[3] = { 0.0f, 0.0f, 0.0f };
    double sums[2] = { 0.0, 0.0 };
    int in_col = x < w;

    if (blockIdx.x * T >= w)
        return; /* the whole block: no barrier is skipped by part of it */
    hq = (const float *)ssimu2_sel_scale_u(p.hblurs, scale) + (c * SSIMU2_NB_Q + q) * plane +
         ssimu2_strip(x, 0, h);
    x1 = (const float *)ssimu2_sel_scale_u(p.xybs, scale) + c * plane + ssimu2_strip(x, 0, h);
    x2 = x1 + 3 * plane;

    ssimu2_vwin_fetch<R + 2 * SSIMU2_BLUR_N>(hq, h, in_col, -2 * SSIMU2_BLUR_N, win);
    ssimu2_vpix_fetch(x1, x2, h, in_col, -SSIMU2_BLUR_N + 1, q, v1, v2);
    for (int n0 = -SSIMU2_BLUR_N + 1; n0 < h; n0 += R) {
        /* 1. recursion of quantity q over the batch */
        ssimu2_col_batch(win, prev, prev2, mu[q], lane);
        if (n0 + R < h) {
#pragma unroll
            for (int i = 0; i < 2 * SSIMU2_BLUR_N; i++)
                win[i] = win[i + R];
            ssimu2_vwin_fetch<R>(hq, h, in_col, n0 + R + SSIMU2_BLUR_N - 1, win + 2 * SSIMU2_BLUR_N);
        }
        __syncthreads();
        /* 2. per-pixel terms, rows q, q + 5, ... of the batch */
        ssimu2_batch_terms(mu, terms, v1, v2, lane, q, n0, h);
        if (n0 + R < h)
            ssimu2_vpix_fetch(x1, x2, h, in_col, n0 + R, q, v1, v2);
        __syncthreads();
        /* 3. column sums q and q + 5, top to bottom */
        ssimu2_batch_sums(terms, lane, q, sums);
    }

    if (in_col) {
        double *col = (double *)p.colsum +
                      (long long)(((p.pass * SSIMU2_MAX_SCALES + scale) * 3 + c) * SSIMU2_NB_SUMS) *
                      p.colsum_len + x;
        col[(long long)q * p.colsum_len] = sums[0];
        if (q + SSIMU2_NB_Q < SSIMU2_NB_SUMS)
            col[(long long)(q + SSIMU2_NB_Q) * p.colsum_len] = sums[1];
    }
}

/**
 * Thread 0 of a convert task for band b x strip k of scale 0: waits until
 * the strip its ring slot held (k - RING_STRIPS) is read by every blur task
 * that reads it, in each channel: the row phases of strips up to
 * k - RING_STRIPS + 1 of band b, the column phases of bands b and b + 1 of
 * that strip. 0 if a wait gave up.
 */
__device__ static inline int ssimu2_ring_slot_free(const SSIMU2CudaParams &p, int *sync, int b, int k)
{
    const int old = k - SSIMU2_CUDA_RING_STRIPS;
    const int bands  = (p.heights[0] + SSIMU2_CUDA_TILE - 1) / SSIMU2_CUDA_TILE;
    const int strips = (p.widths[0] + SSIMU2_CUDA_TILE - 1) / SSIMU2_CUDA_TILE;

    if (old < 0)
        return 1;
    for (int c = 0; c < 3; c++) {
        int *row_done = sync + p.syncs[0] + c * (bands + strips), *col_done = row_done + bands;
        if (ssimu2_wait(&row_done[b], old + 2, &sync[2]) ||
            ssimu2_wait(&col_done[old], min(b + 2, bands), &sync[2]))
            return 0;
    }
    return 1;
}

}

/**
 * The blur of all scales and channels as tasks of TILE rows (a band) x TILE
 * columns (a strip), thread x = lane, thread y = quantity:
 *   1. row phase: lane = row of the band; the row recursion over the
 *      strip's columns, from the state the task to the left handed on (rows
 *      are walked left to right through the strips, as the row form), the
 *      inputs from the XYB planes through a shared-memory ring, the outputs
 *      into a shared tile; the state goes on to the right at once;
 *   2. column phase: lane = column of the strip; the column recursion over
 *      the band's rows from the tile, in batches of VROWS rows, carrying the
 *      last 2N rows and the resonators' state from the task above; per-pixel
 *      terms spread over the block; warp q adds sums q (and q + 5) down each
 *      column in row order, continuing the running sums of the tasks above
 *      (the CPU filter's order).
 * So the blurred planes never leave the block: a task hands on 6 floats per
 * row and 16 per column and quantity. Each block takes tickets until none is
 * left and runs their tasks; the ticket table (ff_ssimu2_cuda_tasks()) puts
 * the tasks a task waits for before it. A few blocks per frame, not one per
 * task: blocks that wait hold their SM, and other frames' blocks can only use
 * what is left. The last block to leave zeroes the counters for the next
 * launch.
 *
 * In the ring layout (ssimu2_blur_ring) the ticket table also holds convert
 * tasks: the XYB of a band x strip of scale 0 into a ring of RING_STRIPS
 * strips (scale 0's XYB is never whole in memory; the convert kernel before
 * made only the linear RGB of scale 1, for the pyramid). A blur task of
 * scale 0 waits for the strips it reads (conv_sync: per band, its strips
 * converted in order), a convert task for the blur tasks that read the strip
 * its slot held (ssimu2_ring_slot_free()); both wait for lower tickets only.
 *
 * 4 blocks per SM (96 registers, no spills): +3 % at 1080p and +9 % at 2160p
 * with 3 sets, 1 % slower with 1 set, against 3 per SM (doc/notes.md).
 *
 * grid.x = nb_blocks; block = TILE x SSIMU2_NB_Q.
 */
template<bool RING>
__device__ static inline __attribute__((always_inline)) void ssimu2_blur_tasks(const SSIMU2CudaParams &p)
{
    enum { T = SSIMU2_CUDA_TILE, R = SSIMU2_CUDA_VROWS,
           N = SSIMU2_BLUR_N, TT = SSIMU2_CUDA_TASK_THREADS,
           PIX = (SSIMU2_CUDA_VROWS + SSIMU2_NB_Q - 1) / SSIMU2_NB_Q };
    /* the row phase's ring and tile, then the column phase's batch */
    __shared__ union {
        struct {
            SSIMU2RingRows in[2];
            float out[SSIMU2_NB_Q][T][T + 1];
        } row;
        struct {
            float mu[SSIMU2_NB_Q][R][T];
            double terms[SSIMU2_NB_SUMS][R][T];
        } col;
        SSIMU2ConvertShared conv;
    } sh;
    /* volatile: written by thread 0 for all (clang would otherwise read them
     * before the barrier, the barrier not being an access in its eyes) */
    __shared__ volatile int task_sh, ok_sh, converted_sh, last_sh;
    const int lane = threadIdx.x, q = threadIdx.y, id = q * T + lane;
    int *const sync = (int *)p.sync;
    /* thread 0: the ticket (and its task) taken during the last column phase,
     * so that the next task starts without waiting for them; -1: none */
    int ahead = -1, ahead_task = -1;

    for (;;) {
        int task, scale, c, b, k, w, h, bands, strips, row0, x, in_col, mask, rows_in, end, n;
        long long plane;
        const float *xyb, *src0, *src1, *x1, *x2;
        float *rs, *cs;
        double *col;
        int *row_done, *col_done;
        float next[2][2 * SSIMU2_CUDA_TASK_ROWS], win[R + 2 * N], nxt[R], v1[PIX], v2[PIX];
        float prev[3] = { 0.0f, 0.0f, 0.0f }, prev2[3] = { 0.0f, 0.0f, 0.0f };
        double sums[2] = { 0.0, 0.0 };

        if (id == 0) {
            if (ahead < 0) {
                int t = atomicAdd(&sync[0], 1);
                ahead_task = t < p.nb_tasks ? ((const int *)p.tasks)[t] : -1;
            }
            task_sh = ahead_task;
            ahead   = -1;
        }
        __syncthreads();
        task = task_sh;
        if (task < 0)
            break;
        if (RING && SSIMU2_CUDA_TASK_IS_CONVERT(task)) {
            int *conv_done = sync + p.conv_sync;
            b = SSIMU2_CUDA_TASK_B(task);
            k = SSIMU2_CUDA_TASK_K(task);
            if (id == 0) {
                ssimu2_convert_shared_init(p, &sh.conv);
                ok_sh = ssimu2_ring_slot_free(p, sync, b, k);
                ssimu2_fence();
                if (ok_sh)
                    ahead = atomicAdd(&sync[0], 1);
            }
            __syncthreads();
            if (!ok_sh)
                continue;
            ssimu2_convert_task(p, &sh.conv, b, k, id);
            if (id == 0)
                ahead_task = ahead < p.nb_tasks ? ((const int *)p.tasks)[ahead] : -1;
            if (p.fence_all)
                ssimu2_fence();
            __syncthreads();
            /* published in order: strips 0 .. k of band b converted. The next
             * ticket was taken before this wait, which is for a lower ticket:
             * the lowest unfinished ticket still always runs */
            if (id == 0 && (k == 0 || !ssimu2_wait(&conv_done[b], k, &sync[2]))) {
                ssimu2_fence();
                *(volatile int *)&conv_done[b] = k + 1;
            }
            continue;
        }
        scale  = SSIMU2_CUDA_TASK_SCALE(task);
        c      = SSIMU2_CUDA_TASK_C(task);
        b      = SSIMU2_CUDA_TASK_B(task);
        k      = SSIMU2_CUDA_TASK_K(task);
        w      = ssimu2_sel_scale_i(p.widths, scale);
        h      = ssimu2_sel_scale_i(p.heights, scale);
        plane  = (long long)ssimu2_sel_scale_i(p.pitches, scale) * h;
        bands  = (h + T - 1) / T;
        strips = (w + T - 1) / T;
        row0   = b * T;
        x      = k * T + lane;
        in_col = x < w;
        mask   = !RING || scale || !p.ring_mask ? -1 : p.ring_mask;
        xyb    = (const float *)ssimu2_sel_scale_u(p.xybs, scale);
        src0   = xyb + c * plane;
        src1   = xyb + (3 + c) * plane;
        x1     = src0 + ssimu2_strip(x & mask, 0, h);
        x2     = x1 + 3 * plane;
        rs     = (float *)ssimu2_sel_scale_u(p.states, scale) +
                 (long long)(c * bands + b) * SSIMU2_CUDA_ROW_STATE * TT + id;
        cs     = (float *)ssimu2_sel_scale_u(p.states, scale) +
                 (long long)3 * bands * SSIMU2_CUDA_ROW_STATE * TT +
                 (long long)(c * strips + k) * SSIMU2_CUDA_COL_STATE * TT + id;
        col    = (double *)p.colsum + (long long)(((p.pass * SSIMU2_MAX_SCALES + scale) * 3 + c) *
                                                  SSIMU2_NB_SUMS + q) * p.colsum_len + x;
        row_done = sync + ssimu2_sel_scale_i(p.syncs, scale) + c * (bands + strips);
        col_done = row_done + bands;

        /* scale 0 of the ring layout: strips k - 1 .. k + 1 of the band
         * converted (and so those above, which the band above waited for) */
        if (RING && !scale) {
            /* a flag of its own: thread 0 writes ok_sh again before another barrier */
            if (id == 0) {
                converted_sh = !ssimu2_wait(&sync[p.conv_sync + b], min(k + 2, strips), &sync[2]);
                ssimu2_fence();
            }
            __syncthreads();
            if (!converted_sh)
                continue;
        }
        /* the XYB inputs of the row phase (columns TILE * k - 28 .. TILE * k + 35)
         * do not depend on other blur tasks: loaded while waiting, both chunks
         * in one round trip */
        ssimu2_chunk_fetch(src0, src1, w, h, mask, row0, k - 1, lane, q, next[0]);
        ssimu2_chunk_fetch(src0, src1, w, h, mask, row0, k, lane, q, next[1]);
        ssimu2_chunk_put(sh.row.in, k - 1, lane, q, next[0]);
        ssimu2_chunk_put(sh.row.in, k, lane, q, next[1]);
        if (id == 0) {
            ok_sh = k == 0 || !ssimu2_wait(&row_done[b], k, &sync[2]);
            ssimu2_fence();
        }
        __syncthreads();
        if (!ok_sh)
            continue;

        /* 1. row phase: the recursion of row row0 + lane, quantity q, from
         * output k * TILE (the state handed on) or from the row's start */
        n = -N + 1;
        if (k > 0) {
#pragma unroll
            for (int j = 0; j < 3; j++) {
                prev[j]  = ssimu2_load_shared_state(rs + j * TT);
                prev2[j] = ssimu2_load_shared_state(rs + (3 + j) * TT);
            }
            n = k * T;
        }
        end = min(k * T + T, w);
        /* the barriers stay outside the switch: every thread passes the same ones */
        switch (q) {
        case SSIMU2_Q_X1:  ssimu2_row_steps<SSIMU2_Q_X1>(sh.row.in, sh.row.out[q], lane, w, k, end, n, prev, prev2);  break;
        case SSIMU2_Q_X2:  ssimu2_row_steps<SSIMU2_Q_X2>(sh.row.in, sh.row.out[q], lane, w, k, end, n, prev, prev2);  break;
        case SSIMU2_Q_X11: ssimu2_row_steps<SSIMU2_Q_X11>(sh.row.in, sh.row.out[q], lane, w, k, end, n, prev, prev2); break;
        case SSIMU2_Q_X22: ssimu2_row_steps<SSIMU2_Q_X22>(sh.row.in, sh.row.out[q], lane, w, k, end, n, prev, prev2); break;
        default:           ssimu2_row_steps<SSIMU2_Q_X12>(sh.row.in, sh.row.out[q], lane, w, k, end, n, prev, prev2); break;
        }
        /* the state to the task on the right, which may start now; the
         * block's stores are ordered before the counter by the barrier and
         * thread 0's fence (cooperative groups' grid sync: from compute
         * capability 7 the fence is cumulative over the stores the barrier
         * made visible to thread 0; before, each thread fences its own) */
        if (k + 1 < strips) {
#pragma unroll
            for (int j = 0; j < 3; j++) {
                rs[j * TT]       = prev[j];
                rs[(3 + j) * TT] = prev2[j];
            }
            if (p.fence_all)
                ssimu2_fence();
        }
        __syncthreads();
        if (id == 0) {
            ssimu2_fence();
            *(volatile int *)&row_done[b] = k + 1;
            ok_sh = b == 0 || !ssimu2_wait(&col_done[k], b, &sync[2]);
            ssimu2_fence();
            /* this task will finish without waiting: the next ticket may be
             * taken (tasks still wait only for lower tickets, whose blocks run) */
            if (ok_sh)
                ahead = atomicAdd(&sync[0], 1);
        }
        __syncthreads();
        if (!ok_sh)
            continue;

        /* 2. column phase: column x, quantity q; batch i outputs rows
         * n0 .. n0 + R - 1 (n0 = R * i - N + 1) from win = blurred rows
         * n0 - N - 1 .. n0 + R + N - 2, the last R of them new: the band's rows
         * row0 .. row0 + R - 1, then row0 + R .. row0 + 2R - 1 (in nxt) */
        if (b > 0) {
#pragma unroll
            for (int j = 0; j < 2 * N; j++)
                win[j] = ssimu2_load_shared_state(cs + j * TT);
#pragma unroll
            for (int j = 0; j < 3; j++) {
                prev[j]  = ssimu2_load_shared_state(cs + (2 * N + j) * TT);
                prev2[j] = ssimu2_load_shared_state(cs + (2 * N + 3 + j) * TT);
            }
            if (in_col) {
                sums[0] = ssimu2_load_shared_state(col);
                if (q + SSIMU2_NB_Q < SSIMU2_NB_SUMS)
                    sums[1] = ssimu2_load_shared_state(col + (long long)SSIMU2_NB_Q * p.colsum_len);
            }
        } else {
#pragma unroll
            for (int j = 0; j < 2 * N; j++)
                win[j] = 0.0f;
#pragma unroll
            for (int j = 0; j < 3; j++)
                prev[j] = prev2[j] = 0.0f;
        }
        rows_in = in_col ? h - row0 : 0;
#pragma unroll
        for (int u = 0; u < R; u++) {
            win[2 * N + u] = u < rows_in ? sh.row.out[q][u][lane] : 0.0f;
            nxt[u]         = R + u < rows_in ? sh.row.out[q][R + u][lane] : 0.0f;
        }
        ssimu2_vpix_fetch(x1, x2, h, in_col, row0 - N + 1, q, v1, v2);
        __syncthreads(); /* the tile's memory becomes mu and terms */

        /* two batches per band; the last band goes on to the plane's end */
        for (int n0 = row0 - N + 1; n0 < h && (b == bands - 1 || n0 < row0 + T - N + 1); n0 += R) {
            ssimu2_col_batch(win, prev, prev2, sh.col.mu[q], lane);
#pragma unroll
            for (int j = 0; j < 2 * N; j++)
                win[j] = win[j + R];
#pragma unroll
            for (int u = 0; u < R; u++) {
                win[2 * N + u] = nxt[u];
                nxt[u] = 0.0f;
            }
            __syncthreads();
            ssimu2_batch_terms(sh.col.mu, sh.col.terms, v1, v2, lane, q, n0, h);
            if (n0 + R < h)
                ssimu2_vpix_fetch(x1, x2, h, in_col, n0 + R, q, v1, v2);
            __syncthreads();
            ssimu2_batch_sums(sh.col.terms, lane, q, sums);
        }

        if (id == 0)
            ahead_task = ahead < p.nb_tasks ? ((const int *)p.tasks)[ahead] : -1;
        /* hand on: the window and the resonators to the task below, the
         * running sums (final after the last band) in the column-sum arrays */
        if (b + 1 < bands) {
#pragma unroll
            for (int j = 0; j < 2 * N; j++)
                cs[j * TT] = win[j];
#pragma unroll
            for (int j = 0; j < 3; j++) {
                cs[(2 * N + j) * TT]     = prev[j];
                cs[(2 * N + 3 + j) * TT] = prev2[j];
            }
        }
        if (in_col) {
            col[0] = sums[0];
            if (q + SSIMU2_NB_Q < SSIMU2_NB_SUMS)
                col[(long long)SSIMU2_NB_Q * p.colsum_len] = sums[1];
        }
        if (p.fence_all)
            ssimu2_fence();
        /* also: every thread is done with this task's shared memory */
        __syncthreads();
        if (id == 0) {
            ssimu2_fence();
            *(volatile int *)&col_done[k] = b + 1;
        }
    }

    if (id == 0) {
        /* this block's counter stores land before the last block zeroes them */
        ssimu2_fence();
        last_sh = atomicAdd(&sync[1], 1) == p.nb_blocks - 1;
        ssimu2_fence();
        if (last_sh && ssimu2_load_shared_state(&sync[2]))
            ((unsigned long long *)p.result)[SSIMU2_CUDA_FAULT] = 1;
    }
    __syncthreads();
    if (last_sh)
        for (int i = id; i < p.nb_sync; i += TT)
            sync[i] = 0;
}

extern "C" {

/** The tasks layout's blur. */
__global__ void SSIMU2_BOUNDS(SSIMU2_CUDA_TASK_THREADS, 4) ssimu2_blur(const SSIMU2CudaParams p)
{
    ssimu2_blur_tasks<false>(p);
}

/** The ring layout's blur, with scale 0's convert tasks (a kernel of its own: their code and
 * registers stay out of ssimu2_blur). */
__global__ void SSIMU2_BOUNDS(SSIMU2_CUDA_TASK_THREADS, 4) ssimu2_blur_ring(const SSIMU2CudaParams p)
{
    ssimu2_blur_tasks<true>(p);
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
