/*
 * SSIMULACRA 2.1 CUDA filter: kernel parameters shared by host and device
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
 * One parameter block, passed by value to every kernel of the filter, so the
 * host (C) and the device (CUDA C++) agree on one layout. Only fixed-size
 * types: device pointers travel as unsigned long long (CUdeviceptr).
 */

#ifndef AVFILTER_SSIMULACRA2_CUDA_H
#define AVFILTER_SSIMULACRA2_CUDA_H

#include "ssimulacra2_math.h"

/** Runs of the metric per frame: 2 with alpha (backgrounds 0.1 and 0.9). */
#define SSIMU2_CUDA_MAX_PASSES 2
/** Column-sum arrays (and reduced sums) per pass: scales x channels x sums. */
#define SSIMU2_CUDA_NB_ARRAYS (SSIMU2_MAX_SCALES * 3 * SSIMU2_NB_SUMS)
/** Doubles of reduced sums per frame, laid out [pass][scale][channel][k]. */
#define SSIMU2_CUDA_NB_SUMS (SSIMU2_CUDA_MAX_PASSES * SSIMU2_CUDA_NB_ARRAYS)
/** Timer words after the sums: [0] start, [1 + block] end of each reduce block. */
#define SSIMU2_CUDA_NB_TIMERS (1 + SSIMU2_CUDA_NB_SUMS)
/** Word after the timers: not 0 if a blur task gave up waiting (the sums are void). */
#define SSIMU2_CUDA_FAULT (SSIMU2_CUDA_NB_SUMS + SSIMU2_CUDA_NB_TIMERS)
/** Bytes of the per-frame result block copied to the host. */
#define SSIMU2_CUDA_RESULT_SIZE ((SSIMU2_CUDA_FAULT + 1) * 8)
/** A blur task that waits this long (ns) for another gives up, and the frame fails. */
#define SSIMU2_CUDA_WAIT_LIMIT 30000000000ULL

/** Rows of a band and columns of a strip: the blur's task is one band x one strip. */
#define SSIMU2_CUDA_TILE 32
/** Rows of a band whose input samples one warp of the row pass or a blur task loads: q, q + 5, ... (both images). */
#define SSIMU2_CUDA_TASK_ROWS ((SSIMU2_CUDA_TILE + SSIMU2_NB_Q - 1) / SSIMU2_NB_Q)
/** Rows per batch of a task's column phase. */
#define SSIMU2_CUDA_VROWS 16

/** Floats a task hands on per (row, quantity) of its band: the resonators' prev and prev2. */
#define SSIMU2_CUDA_ROW_STATE 6
/** Floats a task hands on per (column, quantity) of its strip: the last 2N blurred rows, prev, prev2. */
#define SSIMU2_CUDA_COL_STATE (2 * SSIMU2_BLUR_N + 6)
/** Threads of a task (TILE lanes x 5 quantities): the stride of the state arrays. */
#define SSIMU2_CUDA_TASK_THREADS (SSIMU2_CUDA_TILE * SSIMU2_NB_Q)

/** A blur task packed in an int of the ticket table: strip k, band b, scale, channel. */
#define SSIMU2_CUDA_TASK(scale, c, b, k) (((((scale) * 3 + (c)) << 13 | (b)) << 13) | (k))
#define SSIMU2_CUDA_TASK_K(t)     ((t) & 8191)
#define SSIMU2_CUDA_TASK_B(t)     ((t) >> 13 & 8191)
#define SSIMU2_CUDA_TASK_C(t)     (((t) >> 26 & 31) % 3)
#define SSIMU2_CUDA_TASK_SCALE(t) (((t) >> 26 & 31) / 3)
/** A convert task: XYB of band b x strip k of scale 0 into its ring, and
 * the linear RGB of scale 1 there (a field no scale and channel use). */
#define SSIMU2_CUDA_TASK_CONVERT(b, k)  ((30 << 26) | ((b) << 13) | (k))
#define SSIMU2_CUDA_TASK_IS_CONVERT(t)  (((t) >> 26 & 31) == 30)
/**
 * Strips of scale 0's XYB that the tasks layout keeps (a ring, converted by
 * the blur's convert tasks): a power of two, at least CONVERT_AHEAD + 2 so
 * that a convert task waits only for blur tasks of lower tickets.
 */
#define SSIMU2_CUDA_RING_STRIPS 8
/** Diagonals of tasks the convert tasks are ahead of the blur tasks in the ticket table. */
#define SSIMU2_CUDA_CONVERT_AHEAD 2

/** Conversions of the convert tasks, by input: those of the convert kernels. */
enum {
    SSIMU2_CONV_RGB8, SSIMU2_CONV_RGB16, SSIMU2_CONV_RGB16BE, SSIMU2_CONV_YUV8,
    SSIMU2_CONV_YUV16, SSIMU2_CONV_SEMI8, SSIMU2_CONV_SEMI16,
};
/** Blocks of a blur launch, each running tasks until none is left, where the
 * filter does not set them from the GPU (ff_ssimu2_cuda_blur_blocks()). */
#define SSIMU2_CUDA_BLUR_BLOCKS 128
/** Bands and strips of a scale, at most (the packing's limit). */
#define SSIMU2_CUDA_MAX_TILES 8192

/** Threads per block of the reduction (the tree itself is fixed). */
#define SSIMU2_CUDA_REDUCE_THREADS 256

/** Sample layout of one input's format, from its AVPixFmtDescriptor. */
typedef struct SSIMU2CudaFormat {
    int comp_step[4], comp_shift[4], comp_mask[4];
    int log2_chroma_w, log2_chroma_h;
    int chroma_w, chroma_h;
    int has_alpha;
    int gray;                   ///< one component read as R = G = B (clipped, as the CPU filter)
} SSIMU2CudaFormat;

typedef struct SSIMU2CudaParams {
    /* inputs' planes, read in place (through comp_data: the plan's input);
     * [0] = reference (x1), [1] = distorted (x2) */
    unsigned long long in_data[2][4];
    int in_linesize[2][4];
    SSIMU2Colour colour[2];

    /* layout of the sw_format, from its AVPixFmtDescriptor:
     * components Y, U, V (or R, G, B), then A; when the two inputs differ,
     * each gets its own convert launch (img0 = its index, one grid z) */
    int img0;
    /* first sample of each component and its line size, per image of the
     * launch: in_data and in_linesize of the component's plane, resolved by
     * the plan (each thread selected the plane through a chain of
     * branches: 3 % of a convert's instructions) */
    unsigned long long comp_data[2][4];
    int comp_linesize[2][4];
    SSIMU2CudaFormat fmt[2];
    float bg;                   ///< alpha background of this pass

    /* current pass and scale (convert / pyramid) */
    int pass, nb_scales;
    int w, h;                   ///< size of this scale
    /* geometry of every scale (blur launches: one grid z per scale) */
    int widths[SSIMU2_MAX_SCALES], heights[SSIMU2_MAX_SCALES];
    /** a row's floats rounded up to whole strips of TILE columns; planes are
     * pitch * height floats, stored by strips (ssimu2_strip() in the kernels) */
    int pitches[SSIMU2_MAX_SCALES];
    unsigned long long xybs[SSIMU2_MAX_SCALES];    ///< XYB planes of each scale
    unsigned long long hblurs[SSIMU2_MAX_SCALES];  ///< blurred planes of each scale (planes layout)

    /* linear RGB of this scale (scale >= 1): planes [image * 3 + c] */
    unsigned long long lin_src;
    long long lin_src_plane;    ///< floats between planes
    int lin_src_pitch;          ///< floats between rows
    /* linear RGB of the next scale, written by the converter, or 0 */
    unsigned long long lin_dst;
    long long lin_dst_plane;
    int lin_dst_pitch;

    /* XYB planes [image * 3 + c] of the current scale (xybs[scale]), with
     * this plane stride, written by the converter; the blur launches read
     * xybs[] (and hblur writes hblurs[] planes [c * 5 + q]) */
    unsigned long long xyb;
    long long plane;

    /* the tasks layout's blur (ssimu2_blur), taken in the order of the
     * ticket table; each continues the row state of the task to its left
     * and the column state of the task above */
    unsigned long long tasks;   ///< ints: SSIMU2_CUDA_TASK() by ticket
    int nb_tasks;
    int nb_blocks;              ///< grid.x of the launch (the plan's input: 0 for the default)
    /* every thread fences its own stores before a task publishes: GPUs before
     * compute capability 7, where the PTX memory model (a fence cumulative over
     * what a barrier made visible) is not promised; elsewhere thread 0's suffices */
    int fence_all;
    /* ints, zero between launches: [0] next ticket, [1] blocks done,
     * [2] a task gave up waiting, then from syncs[s] for each channel: bands'
     * chunks done, strips' bands done */
    unsigned long long sync;
    int nb_sync;
    int syncs[SSIMU2_MAX_SCALES];
    /* the blur launch of the ring layout (else 0): ints from sync[conv_sync],
     * one per band, its converted strips of scale 0; columns of scale 0's XYB
     * & ring_mask (0: the whole plane) is where they are (xyb, plane: the
     * ring); conv_kind: SSIMU2_CONV_* of each input */
    int conv_sync;
    int ring_mask;
    int conv_kind[2];
    /* floats from states[s]: the row state of each (channel, band), then
     * the column state of each (channel, strip) */
    unsigned long long states[SSIMU2_MAX_SCALES];

    /* column sums: array ((pass * SSIMU2_MAX_SCALES + scale) * 3 + c) * 6 + k,
     * each colsum_len doubles (running sums while the blur runs) */
    unsigned long long colsum;
    int colsum_len;

    /* per-frame results: SSIMU2_CUDA_NB_SUMS doubles, the timer words, the fault word */
    unsigned long long result;
} SSIMU2CudaParams;

#endif /* AVFILTER_SSIMULACRA2_CUDA_H */
