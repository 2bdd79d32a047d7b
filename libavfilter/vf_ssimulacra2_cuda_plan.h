/*
 * SSIMULACRA 2.1 CUDA filter: scratch layout and launch plan of one frame
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
 * What the CUDA filter does for one frame, as data: the layout of a scratch
 * set and the ordered list of kernel launches with their parameters. Pure
 * host code without CUDA calls, so that the filter executes the plan with
 * cuLaunchKernel and the kernel emulation test (tests/tools) executes the
 * very same plan on the CPU.
 */

#ifndef AVFILTER_SSIMULACRA2_CUDA_PLAN_H
#define AVFILTER_SSIMULACRA2_CUDA_PLAN_H

#include <stddef.h>

#include "libavutil/pixdesc.h"

#include "vf_ssimulacra2_cuda.h"

enum SSIMU2CudaKernel {
    SSIMU2_KERNEL_CONVERT_RGB8,
    SSIMU2_KERNEL_CONVERT_RGB16,
    SSIMU2_KERNEL_CONVERT_RGB16BE,
    SSIMU2_KERNEL_CONVERT_YUV8,
    SSIMU2_KERNEL_CONVERT_YUV16,
    SSIMU2_KERNEL_CONVERT_SEMI8,
    SSIMU2_KERNEL_CONVERT_SEMI16,
    SSIMU2_KERNEL_PYRAMID,
    SSIMU2_KERNEL_HBLUR,
    SSIMU2_KERNEL_VBLUR,
    SSIMU2_KERNEL_BLUR,
    SSIMU2_KERNEL_BLUR_RING,
    SSIMU2_KERNEL_REDUCE,
    SSIMU2_KERNEL_NB,
};

/** Kernel names in the PTX module, by enum SSIMU2CudaKernel. */
extern const char *const ff_ssimu2_cuda_kernel_names[SSIMU2_KERNEL_NB];

/** How a frame is blurred, and so what its scratch set holds: the fastest and largest first. */
enum SSIMU2CudaBlur {
    /** the 15 blurred planes of every scale (about 114 bytes per pixel): the fastest */
    SSIMU2_BLUR_PLANES,
    /** tasks that keep the blurred values on chip (about 42 bytes per pixel) */
    SSIMU2_BLUR_TASKS,
    /** the same tasks, with scale 0's XYB converted by tasks of their launch
     * into a ring of strips (about 20 bytes per pixel) */
    SSIMU2_BLUR_RING,
};

/** Geometry of one scratch set; offsets are bytes from the set's base. */
typedef struct SSIMU2CudaLayout {
    enum SSIMU2CudaBlur blur;
    int w, h, nb_scales;
    int scale_w[SSIMU2_MAX_SCALES], scale_h[SSIMU2_MAX_SCALES];
    /** a row's floats rounded up to whole strips of TILE columns, for each
     * scale: the XYB and blurred planes are stored by strips, the linear RGB
     * by rows (pitch floats apart); in the ring layout the ring's width for
     * scale 0 */
    int pitch[SSIMU2_MAX_SCALES];
    int bands[SSIMU2_MAX_SCALES];       ///< blur tasks per column of tasks (TILE rows each)
    int strips[SSIMU2_MAX_SCALES];      ///< blur tasks per row of tasks (TILE columns each)
    int nb_tasks;                       ///< tasks and ring layouts: tickets of one pass (all scales and channels)
    int ring_mask;                      ///< ring layout: scale 0's XYB is column & ring_mask (0: whole)
    int conv_sync;                      ///< ring layout: ints before the convert tasks' counters
    size_t xyb_off[SSIMU2_MAX_SCALES];  ///< XYB planes [image * 3 + c] of each scale
    size_t lin_off[SSIMU2_MAX_SCALES];  ///< linear RGB of scales >= 1
    size_t hblur_off[SSIMU2_MAX_SCALES];///< planes: blurred planes [c * 5 + q] of each scale
    size_t state_off[SSIMU2_MAX_SCALES];///< tasks: state the blur tasks hand on, of each scale
    int sync_ints[SSIMU2_MAX_SCALES];   ///< ints before each scale's progress counters
    size_t sync_off, sync_bytes;        ///< the blur's counters: zero before the first launch
    size_t tasks_off, tasks_bytes;      ///< the ticket table, ff_ssimu2_cuda_tasks()
    size_t colsum_off;                  ///< column sums
    size_t bytes;                       ///< size of the set
} SSIMU2CudaLayout;

/**
 * Layout of a scratch set for w x h frames, with up to max_sets sets (frames
 * in flight) in max_memory bytes: the first of planes, tasks and ring of
 * which two sets fit, else the first of which one set fits, else the
 * smallest (the ring layout, where it is smaller than the tasks layout).
 * Frames in flight win: two sets of a slower layout beat one of a faster
 * (figures: doc/notes.md and the max_memory option's documentation).
 */
void ff_ssimu2_cuda_layout(SSIMU2CudaLayout *l, int w, int h, size_t max_memory, int max_sets);

/**
 * The layout of kind blur for w x h frames (the tasks and ring layouts have
 * a limit on the tiles of a scale: blur is SSIMU2_BLUR_PLANES beyond it).
 */
void ff_ssimu2_cuda_layout_of(SSIMU2CudaLayout *l, int w, int h, enum SSIMU2CudaBlur blur);

/**
 * Scratch memory of max_memory=auto (0) for w x h frames: sets of the planes
 * layout for about 8 megapixels of frames in flight (4 at 1080p, 3 at 1440p),
 * at least 2 and at most FFMAX(max_sets, 2) of them, within 2048 MiB (from
 * about 10 megapixels a frame two sets need more: then as max_memory=2048).
 * On an H200 at 1080p, 4 frames in flight are as fast as 8 (3700 fps), 3 are
 * 4 % slower, 2 are 17 % slower.
 */
size_t ff_ssimu2_cuda_auto_memory(int w, int h, int max_sets);

/** Sets (frames in flight) of layout l in max_memory bytes: 1 to max_sets. */
int ff_ssimu2_cuda_nb_sets(const SSIMU2CudaLayout *l, size_t max_memory, int max_sets);

/**
 * The ticket table of the blur tasks (l->nb_tasks ints, to be copied to
 * tasks_off of every set): by anti-diagonal band + strip, so that the tasks a
 * task waits for (left and above) hold lower tickets. Blocks take tickets in
 * the order they start, so whatever the GPU schedules, a waiting block waits
 * for blocks that are running: no deadlock.
 */
void ff_ssimu2_cuda_tasks(const SSIMU2CudaLayout *l, int *table);

/**
 * Blocks per launch of the tasks layout's blur: with one frame in flight, all
 * that the GPU holds at once (a frame's diagonals have more tasks than that),
 * with more, a share of them, at least a third (blocks that wait for tasks of
 * their own frame hold their place on the GPU).
 *
 * @param resident blocks of ssimu2_blur the GPU runs at once
 * @param nb_sets  frames in flight
 */
int ff_ssimu2_cuda_blur_blocks(int resident, int nb_sets);

typedef struct SSIMU2CudaLaunch {
    enum SSIMU2CudaKernel kernel;
    unsigned grid[3], block[2];
    SSIMU2CudaParams p;
} SSIMU2CudaLaunch;

/** Most launches of one frame: per pass the scales, a second convert, hblur and vblur; the reduction. */
#define SSIMU2_CUDA_MAX_LAUNCHES (SSIMU2_CUDA_MAX_PASSES * (SSIMU2_MAX_SCALES + 3) + 1)

/**
 * The launches of one frame pair, in order, on one stream.
 *
 * @param frame    in_data, in_linesize, colour and result of the pair; the
 *                 rest is filled here
 * @param scratch  device address of the scratch set
 * @param desc     formats of the reference and the distorted frame
 * @param launches receives at most SSIMU2_CUDA_MAX_LAUNCHES launches
 * @return the number of launches
 */
int ff_ssimu2_cuda_plan(const SSIMU2CudaLayout *l, const SSIMU2CudaParams *frame,
                        unsigned long long scratch, const AVPixFmtDescriptor *const desc[2],
                        SSIMU2CudaLaunch *launches);

/** Passes of the metric for a reference of this format: 2 with alpha (backgrounds 0.1, 0.9). */
int ff_ssimu2_cuda_nb_passes(const AVPixFmtDescriptor *ref_desc);

#endif /* AVFILTER_SSIMULACRA2_CUDA_PLAN_H */
