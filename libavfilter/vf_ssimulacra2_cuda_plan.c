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

#include <string.h>

#include "libavutil/avassert.h"
#include "libavutil/common.h"

#include "vf_ssimulacra2_cuda_plan.h"

/* launch shapes of the convert/pyramid kernels (one thread per 2x2 quad) */
#define CONVERT_BX 32
#define CONVERT_BY 8
#define DIV_UP(a, b) (((a) + (b) - 1) / (b))

const char *const ff_ssimu2_cuda_kernel_names[SSIMU2_KERNEL_NB] = {
    [SSIMU2_KERNEL_CONVERT_RGB8]    = "ssimu2_convert_rgb8",
    [SSIMU2_KERNEL_CONVERT_RGB16]   = "ssimu2_convert_rgb16",
    [SSIMU2_KERNEL_CONVERT_RGB16BE] = "ssimu2_convert_rgb16be",
    [SSIMU2_KERNEL_CONVERT_YUV8]    = "ssimu2_convert_yuv8",
    [SSIMU2_KERNEL_CONVERT_YUV16]   = "ssimu2_convert_yuv16",
    [SSIMU2_KERNEL_CONVERT_SEMI8]   = "ssimu2_convert_semi8",
    [SSIMU2_KERNEL_CONVERT_SEMI16]  = "ssimu2_convert_semi16",
    [SSIMU2_KERNEL_PYRAMID]         = "ssimu2_pyramid",
    [SSIMU2_KERNEL_HBLUR]           = "ssimu2_hblur",
    [SSIMU2_KERNEL_VBLUR]           = "ssimu2_vblur",
    [SSIMU2_KERNEL_BLUR]            = "ssimu2_blur",
    [SSIMU2_KERNEL_BLUR_RING]       = "ssimu2_blur_ring",
    [SSIMU2_KERNEL_REDUCE]          = "ssimu2_reduce",
};

static size_t align256(size_t n)
{
    return (n + 255) & ~(size_t)255;
}

/** Floats of the planes of scale s (pitch x height). */
static size_t plane_floats(const SSIMU2CudaLayout *l, int s)
{
    return (size_t)l->pitch[s] * l->scale_h[s];
}

/**
 * Every layout begins with the XYB planes of every scale (pitch[] as set),
 * then the linear RGB of scales >= 1; *xyb_bytes (aligned) and *lin_bytes
 * receive their sizes.
 */
static void layout_xyb_lin(SSIMU2CudaLayout *l, size_t *xyb_bytes, size_t *lin_bytes)
{
    *xyb_bytes = *lin_bytes = 0;
    for (int s = 0; s < l->nb_scales; s++) {
        l->xyb_off[s] = *xyb_bytes;
        *xyb_bytes   += 6 * plane_floats(l, s) * sizeof(float);
    }
    *xyb_bytes = align256(*xyb_bytes);
    for (int s = 1; s < l->nb_scales; s++) {
        l->lin_off[s] = *xyb_bytes + *lin_bytes;
        *lin_bytes   += 6 * plane_floats(l, s) * sizeof(float);
    }
}

/**
 * The planes layout: XYB planes, then the 15 blurred planes of every scale,
 * whose memory the linear RGB of scales >= 1 (lin_bytes) shares (per pass
 * the convert/pyramid chain is done with it before the first hblur, and the
 * next pass's convert comes after the last vblur: one stream), then the
 * column sums.
 */
static void layout_planes(SSIMU2CudaLayout *l, size_t xyb_bytes, size_t lin_bytes,
                          size_t colsum_bytes)
{
    size_t planes_f = 0;

    for (int s = 0; s < l->nb_scales; s++) {
        l->hblur_off[s] = xyb_bytes + planes_f * 15 * sizeof(float);
        planes_f += plane_floats(l, s);
    }
    l->colsum_off = xyb_bytes + align256(FFMAX(15 * planes_f * sizeof(float), lin_bytes));
    l->bytes      = l->colsum_off + colsum_bytes;
}

/** Floats of the state the blur tasks of scale s hand on: per (channel, band)
 * the row state, per (channel, strip) the column state. */
static size_t state_floats(const SSIMU2CudaLayout *l, int s)
{
    return (size_t)3 * SSIMU2_CUDA_TASK_THREADS *
           (l->bands[s] * SSIMU2_CUDA_ROW_STATE + l->strips[s] * SSIMU2_CUDA_COL_STATE);
}

/**
 * The tasks and ring layouts: XYB planes (the ring layout: of scale 0 a ring
 * of strips, which convert tasks of the blur fill), the linear RGB of scales
 * >= 1 sharing its memory with the state the blur tasks hand on, the column
 * sums, the counters, the ticket table. The state may share: per pass the
 * pyramid is done with the linear RGB before the blur launch (one stream),
 * and a task reads only state that the task before it in its chain wrote in
 * the same launch (the first tasks of a chain start from zero).
 */
static void layout_tasks(SSIMU2CudaLayout *l, size_t colsum_bytes)
{
    const int ring = l->blur == SSIMU2_BLUR_RING;
    size_t bytes, lin_bytes, state_f = 0, sync_i = 3;

    if (ring && l->strips[0] > SSIMU2_CUDA_RING_STRIPS) {
        l->ring_mask = SSIMU2_CUDA_RING_STRIPS * SSIMU2_CUDA_TILE - 1;
        l->pitch[0]  = SSIMU2_CUDA_RING_STRIPS * SSIMU2_CUDA_TILE;
    }
    layout_xyb_lin(l, &bytes, &lin_bytes);
    for (int s = 0; s < l->nb_scales; s++) {
        l->state_off[s] = bytes + state_f * sizeof(float);
        state_f        += state_floats(l, s);
    }
    for (int s = 0; s < l->nb_scales; s++) {
        /* per channel, each band's strips done, each strip's bands done */
        l->sync_ints[s] = sync_i;
        sync_i += 3 * (l->bands[s] + l->strips[s]);
    }
    for (int s = 0; s < l->nb_scales; s++)
        l->nb_tasks += 3 * l->bands[s] * l->strips[s];
    if (ring) {
        /* and scale 0's convert tasks */
        l->conv_sync = sync_i;
        sync_i      += l->bands[0];
        l->nb_tasks += l->bands[0] * l->strips[0];
    }
    l->bytes       = bytes + align256(FFMAX(lin_bytes, state_f * sizeof(float)));
    l->colsum_off  = l->bytes;
    l->bytes      += colsum_bytes;
    l->sync_off    = l->bytes;
    l->sync_bytes  = sync_i * sizeof(int);
    l->bytes      += align256(l->sync_bytes);
    l->tasks_off   = l->bytes;
    l->tasks_bytes = (size_t)l->nb_tasks * sizeof(int);
    l->bytes      += align256(l->tasks_bytes);
}

/** Sets of set_bytes each in max_memory, at most max_sets (in size_t: a large
 * max_memory over a small set exceeds INT_MAX). */
static size_t sets_within(size_t set_bytes, size_t max_memory, int max_sets)
{
    return FFMIN(max_memory / set_bytes, (size_t)max_sets);
}

void ff_ssimu2_cuda_layout_of(SSIMU2CudaLayout *l, int w, int h, enum SSIMU2CudaBlur blur)
{
    size_t xyb_bytes, lin_bytes, colsum_bytes;
    int tasks_ok = 1;

    memset(l, 0, sizeof(*l));
    l->w = w;
    l->h = h;
    /* every scale keeps its own XYB planes (and blurred planes or task
     * state), so that the blur launches cover all scales at once */
    l->nb_scales = ssimu2_nb_scales(w, h);
    for (int s = 0; s < l->nb_scales; s++) {
        l->scale_w[s] = s ? ssimu2_half_size(l->scale_w[s - 1]) : w;
        l->scale_h[s] = s ? ssimu2_half_size(l->scale_h[s - 1]) : h;
        l->pitch[s]  = FFALIGN(l->scale_w[s], SSIMU2_CUDA_TILE);
        l->bands[s]  = DIV_UP(l->scale_h[s], SSIMU2_CUDA_TILE);
        l->strips[s] = DIV_UP(l->scale_w[s], SSIMU2_CUDA_TILE);
        /* (beyond the task packing, over 262144 pixels a side, planes only) */
        tasks_ok    &= l->bands[s] <= SSIMU2_CUDA_MAX_TILES && l->strips[s] <= SSIMU2_CUDA_MAX_TILES;
    }
    /* room for two passes (a reference with alpha) whatever the frames' formats */
    colsum_bytes = align256((size_t)SSIMU2_CUDA_MAX_PASSES * SSIMU2_CUDA_NB_ARRAYS * w * sizeof(double));
    l->blur = tasks_ok ? blur : SSIMU2_BLUR_PLANES;
    if (l->blur != SSIMU2_BLUR_PLANES) {
        layout_tasks(l, colsum_bytes);
        return;
    }
    layout_xyb_lin(l, &xyb_bytes, &lin_bytes);
    layout_planes(l, xyb_bytes, lin_bytes, colsum_bytes);
}

void ff_ssimu2_cuda_layout(SSIMU2CudaLayout *l, int w, int h, size_t max_memory, int max_sets)
{
    /* fastest first, at the same number of sets */
    static const enum SSIMU2CudaBlur order[] = { SSIMU2_BLUR_PLANES, SSIMU2_BLUR_TASKS, SSIMU2_BLUR_RING };
    SSIMU2CudaLayout kinds[FF_ARRAY_ELEMS(order)];
    int nb_kinds = FF_ARRAY_ELEMS(order);

    for (int i = 0; i < nb_kinds; i++)
        ff_ssimu2_cuda_layout_of(&kinds[i], w, h, order[i]);
    /* up to 8 strips the ring is the whole plane: the tasks layout and more */
    if (kinds[2].bytes >= kinds[1].bytes)
        nb_kinds--;
    /* frames in flight win: two sets of a slower layout beat one of a faster
     * (H100: 1080p at 128 MiB 3 ring sets 2406 fps against 1 tasks set 1780;
     * 2160p at 512 MiB 3 ring sets 649 against 650-667) */
    for (int min_sets = 2; min_sets >= 1; min_sets--)
        for (int i = 0; i < nb_kinds; i++)
            if (sets_within(kinds[i].bytes, max_memory, max_sets) >= min_sets) {
                *l = kinds[i];
                return;
            }
    /* not one set fits: the smallest */
    *l = kinds[nb_kinds - 1];
}

/** The tasks of diagonal d (b + k = d) of scale s: its blur tasks, or its convert tasks. */
static int *diagonal(const SSIMU2CudaLayout *l, int s, int d, int convert, int *table)
{
    for (int b = FFMAX(0, d - l->strips[s] + 1); b <= FFMIN(d, l->bands[s] - 1); b++) {
        if (convert) {
            *table++ = SSIMU2_CUDA_TASK_CONVERT(b, d - b);
            continue;
        }
        for (int c = 0; c < 3; c++)
            *table++ = SSIMU2_CUDA_TASK(s, c, b, d - b);
    }
    return table;
}

void ff_ssimu2_cuda_tasks(const SSIMU2CudaLayout *l, int *table)
{
    const int ahead = l->blur == SSIMU2_BLUR_RING ? SSIMU2_CUDA_CONVERT_AHEAD : 0;
    const int last0 = l->bands[0] + l->strips[0] - 2;

    /* diagonal d of a scale holds the tasks with b + k = d: each waits only
     * for tasks of diagonal d - 1; scale 0 first, its chains being the
     * longest. In the ring layout a blur task of scale 0 also waits for
     * convert tasks of diagonals up to d + 1: they come AHEAD diagonals
     * earlier (and wait for blur tasks of diagonal d - RING_STRIPS + 1) */
    for (int d = -ahead; d <= last0; d++) {
        if (ahead && d + ahead <= last0)
            table = diagonal(l, 0, d + ahead, 1, table);
        for (int s = 0; d >= 0 && s < l->nb_scales; s++)
            table = diagonal(l, s, d, 0, table);
    }
}

size_t ff_ssimu2_cuda_auto_memory(int w, int h, int max_sets)
{
    const int64_t pixels = 4 * 1920 * 1080;
    SSIMU2CudaLayout l;
    int sets = av_clip((pixels + (int64_t)w * h - 1) / ((int64_t)w * h), 2, FFMAX(max_sets, 2));

    /* room for sets of the planes layout */
    ff_ssimu2_cuda_layout_of(&l, w, h, SSIMU2_BLUR_PLANES);
    return FFMIN(sets * l.bytes, (size_t)2048 << 20);
}

int ff_ssimu2_cuda_nb_sets(const SSIMU2CudaLayout *l, size_t max_memory, int max_sets)
{
    return FFMAX(1, sets_within(l->bytes, max_memory, max_sets));
}

int ff_ssimu2_cuda_blur_blocks(int resident, int nb_sets)
{
    return FFMAX(1, resident / av_clip(nb_sets, 1, 3));
}

int ff_ssimu2_cuda_nb_passes(const AVPixFmtDescriptor *ref_desc)
{
    return ssimu2_nb_passes(!!(ref_desc->flags & AV_PIX_FMT_FLAG_ALPHA));
}

static SSIMU2CudaLaunch *add(SSIMU2CudaLaunch *out, enum SSIMU2CudaKernel k, const SSIMU2CudaParams *p,
                             unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by)
{
    out->kernel   = k;
    out->grid[0]  = gx;
    out->grid[1]  = gy;
    out->grid[2]  = gz;
    out->block[0] = bx;
    out->block[1] = by;
    out->p        = *p;
    return out + 1;
}

/** A blur launch of the tasks and ring layouts: nb_tasks tickets from table, on at most blocks blocks. */
static SSIMU2CudaLaunch *add_blur(SSIMU2CudaLaunch *out, enum SSIMU2CudaKernel k, SSIMU2CudaParams *p,
                                  unsigned long long table, int nb_tasks, int blocks)
{
    p->tasks     = table;
    p->nb_tasks  = nb_tasks;
    p->nb_blocks = FFMIN(nb_tasks, blocks);
    return add(out, k, p, p->nb_blocks, 1, 1, SSIMU2_CUDA_TILE, SSIMU2_NB_Q);
}

/** One component (gray): read by the RGB kernels as R = G = B, as the CPU filter does. */
static int is_gray(const AVPixFmtDescriptor *desc)
{
    return !(desc->flags & AV_PIX_FMT_FLAG_RGB) && desc->nb_components <= 2;
}

/** Whether image i is one of the images of a convert launch (img < 0: both). */
static int in_launch(int img, int i)
{
    return img < 0 || i == img;
}

/**
 * Sample layout of one input's format, from its AVPixFmtDescriptor, in the
 * images of a convert launch (img < 0: both).
 */
static void set_layout(SSIMU2CudaParams *p, const AVPixFmtDescriptor *desc, int w, int h, int img)
{
    for (int i = 0; i < 2; i++) {
        SSIMU2CudaFormat *f = &p->fmt[i];
        if (!in_launch(img, i))
            continue;
        for (int c = 0; c < desc->nb_components && c < 4; c++) {
            const AVComponentDescriptor *comp = &desc->comp[c];
            p->comp_data[i][c]     = p->in_data[i][comp->plane] + comp->offset;
            p->comp_linesize[i][c] = p->in_linesize[i][comp->plane];
            f->comp_step[c]        = comp->step;
            f->comp_shift[c]       = comp->shift;
            f->comp_mask[c]        = (1 << comp->depth) - 1;
        }
        f->gray          = is_gray(desc);
        f->log2_chroma_w = desc->log2_chroma_w;
        f->log2_chroma_h = desc->log2_chroma_h;
        f->chroma_w      = AV_CEIL_RSHIFT(w, desc->log2_chroma_w);
        f->chroma_h      = AV_CEIL_RSHIFT(h, desc->log2_chroma_h);
        f->has_alpha     = !!(desc->flags & AV_PIX_FMT_FLAG_ALPHA);
    }
}

/**
 * Whether the chroma of a Y'CbCr format can be read in pairs (the SEMI
 * kernels) in the images of a convert launch (img < 0: both; their layout
 * set by set_layout()): U and V side by side, U first, and every pair
 * aligned for one load (U's first sample and line size).
 */
static int uv_pair(const SSIMU2CudaParams *p, const AVPixFmtDescriptor *desc, int img)
{
    const AVComponentDescriptor *u = &desc->comp[1], *v = &desc->comp[2];
    int bytes = desc->comp[0].depth > 8 ? 2 : 1;

    if (u->plane != v->plane || u->step != 2 * bytes || v->step != 2 * bytes ||
        v->offset != u->offset + bytes)
        return 0;
    for (int i = 0; i < 2; i++)
        if (in_launch(img, i) &&
            (p->comp_data[i][1] % (2 * bytes) || p->comp_linesize[i][1] % (2 * bytes)))
            return 0;
    return 1;
}

/**
 * The convert kernel of a format in the images of a convert launch (img < 0:
 * both): by kind (RGB and gray, Y'CbCr, Y'CbCr read in pairs), sample size
 * and byte order (ff_ssimulacra2_pix_fmts has no big-endian Y'CbCr).
 */
static enum SSIMU2CudaKernel convert_kernel(const SSIMU2CudaParams *p,
                                            const AVPixFmtDescriptor *desc, int img)
{
    int wide = desc->comp[0].depth > 8, be = wide && (desc->flags & AV_PIX_FMT_FLAG_BE);
    /* the 8-bit kernels take each byte as the sample */
    for (int c = 0; c < desc->nb_components; c++)
        av_assert0(wide || (desc->comp[c].depth == 8 && !desc->comp[c].shift));
    if ((desc->flags & AV_PIX_FMT_FLAG_RGB) || is_gray(desc))
        return be ? SSIMU2_KERNEL_CONVERT_RGB16BE :
               wide ? SSIMU2_KERNEL_CONVERT_RGB16 : SSIMU2_KERNEL_CONVERT_RGB8;
    av_assert0(!be);
    if (uv_pair(p, desc, img))
        return wide ? SSIMU2_KERNEL_CONVERT_SEMI16 : SSIMU2_KERNEL_CONVERT_SEMI8;
    return wide ? SSIMU2_KERNEL_CONVERT_YUV16 : SSIMU2_KERNEL_CONVERT_YUV8;
}

/** The convert tasks' SSIMU2_CONV_* of each convert kernel. */
static const int conv_kinds[SSIMU2_KERNEL_CONVERT_SEMI16 + 1] = {
    [SSIMU2_KERNEL_CONVERT_RGB8]    = SSIMU2_CONV_RGB8,
    [SSIMU2_KERNEL_CONVERT_RGB16]   = SSIMU2_CONV_RGB16,
    [SSIMU2_KERNEL_CONVERT_RGB16BE] = SSIMU2_CONV_RGB16BE,
    [SSIMU2_KERNEL_CONVERT_YUV8]    = SSIMU2_CONV_YUV8,
    [SSIMU2_KERNEL_CONVERT_YUV16]   = SSIMU2_CONV_YUV16,
    [SSIMU2_KERNEL_CONVERT_SEMI8]   = SSIMU2_CONV_SEMI8,
    [SSIMU2_KERNEL_CONVERT_SEMI16]  = SSIMU2_CONV_SEMI16,
};

int ff_ssimu2_cuda_plan(const SSIMU2CudaLayout *l, const SSIMU2CudaParams *frame,
                        unsigned long long scratch, const AVPixFmtDescriptor *const desc[2],
                        SSIMU2CudaLaunch *launches)
{
    const int nb_passes = ff_ssimu2_cuda_nb_passes(desc[0]);
    /* one convert launch for both images, or one each when their formats differ */
    const int nb_convert = desc[0] == desc[1] ? 1 : 2;
    SSIMU2CudaLaunch *out = launches;
    SSIMU2CudaParams p = *frame;
    const int blocks = frame->nb_blocks > 0 ? frame->nb_blocks : SSIMU2_CUDA_BLUR_BLOCKS;

    p.nb_scales = l->nb_scales;
    for (int s = 0; s < l->nb_scales; s++) {
        p.widths[s]  = l->scale_w[s];
        p.heights[s] = l->scale_h[s];
        p.pitches[s] = l->pitch[s];
        p.xybs[s]    = scratch + l->xyb_off[s];
        if (l->blur == SSIMU2_BLUR_PLANES) {
            p.hblurs[s] = scratch + l->hblur_off[s];
        } else {
            p.states[s] = scratch + l->state_off[s];
            p.syncs[s]  = l->sync_ints[s];
        }
    }
    if (l->blur != SSIMU2_BLUR_PLANES) {
        p.sync      = scratch + l->sync_off;
        p.nb_sync   = l->sync_bytes / sizeof(int);
        p.ring_mask = l->ring_mask;
    }
    p.colsum     = scratch + l->colsum_off;
    p.colsum_len = l->w;

    for (int pass = 0; pass < nb_passes; pass++) {
        p.pass = pass;
        p.bg   = ssimu2_background(nb_passes, pass);  /* (unused without alpha) */
        /* the linear RGB of scale s + 1 comes from scale s: one chain */
        for (int s = 0; s < l->nb_scales; s++) {
            unsigned gx = DIV_UP(ssimu2_half_size(l->scale_w[s]), CONVERT_BX);
            unsigned gy = DIV_UP(ssimu2_half_size(l->scale_h[s]), CONVERT_BY);
            p.w     = l->scale_w[s];
            p.h     = l->scale_h[s];
            p.xyb   = p.xybs[s];
            p.plane = (long long)l->pitch[s] * l->scale_h[s];
            if (s) {
                p.lin_src       = scratch + l->lin_off[s];
                p.lin_src_pitch = l->pitch[s];
                p.lin_src_plane = (long long)l->pitch[s] * l->scale_h[s];
            }
            if (s + 1 < l->nb_scales) {
                p.lin_dst       = scratch + l->lin_off[s + 1];
                p.lin_dst_pitch = l->pitch[s + 1];
                p.lin_dst_plane = (long long)l->pitch[s + 1] * l->scale_h[s + 1];
            } else {
                p.lin_dst = 0;
            }
            if (s) {
                out = add(out, SSIMU2_KERNEL_PYRAMID, &p, gx, gy, 2, CONVERT_BX, CONVERT_BY);
                continue;
            }
            /* the ring layout: only the linear RGB of scale 1, the blur converts scale 0 */
            if (l->blur == SSIMU2_BLUR_RING)
                p.xyb = 0;
            for (int i = 0; i < nb_convert; i++) {
                set_layout(&p, desc[i], l->w, l->h, nb_convert > 1 ? i : -1);
                p.img0 = nb_convert > 1 ? i : 0;
                out = add(out, convert_kernel(&p, desc[i], nb_convert > 1 ? i : -1), &p, gx, gy,
                          3 - nb_convert, CONVERT_BX, CONVERT_BY);
            }
            p.img0 = 0;
        }
        /* the scales are independent from here: all of them in each launch */
        if (l->blur == SSIMU2_BLUR_PLANES) {
            out = add(out, SSIMU2_KERNEL_HBLUR, &p, DIV_UP(l->h, SSIMU2_CUDA_TILE), 3, l->nb_scales,
                      SSIMU2_CUDA_TILE, SSIMU2_NB_Q);
            out = add(out, SSIMU2_KERNEL_VBLUR, &p, DIV_UP(l->w, SSIMU2_CUDA_TILE), 3, l->nb_scales,
                      SSIMU2_CUDA_TILE, SSIMU2_NB_Q);
        } else if (l->blur == SSIMU2_BLUR_TASKS) {
            out = add_blur(out, SSIMU2_KERNEL_BLUR, &p, scratch + l->tasks_off, l->nb_tasks, blocks);
        } else {
            /* its convert tasks: scale 0 into the ring, each input as its convert kernel */
            p.w       = l->scale_w[0];
            p.h       = l->scale_h[0];
            p.xyb     = p.xybs[0];
            p.plane   = (long long)l->pitch[0] * l->scale_h[0];
            p.lin_dst = 0;
            for (int i = 0; i < 2; i++) {
                set_layout(&p, desc[i], l->w, l->h, i);
                p.conv_kind[i] = conv_kinds[convert_kernel(&p, desc[i], i)];
            }
            p.conv_sync = l->conv_sync;
            out = add_blur(out, SSIMU2_KERNEL_BLUR_RING, &p, scratch + l->tasks_off, l->nb_tasks, blocks);
            p.conv_sync = 0;
        }
    }
    out = add(out, SSIMU2_KERNEL_REDUCE, &p, nb_passes * l->nb_scales * 3 * SSIMU2_NB_SUMS, 1, 1,
              SSIMU2_CUDA_REDUCE_THREADS, 1);
    return out - launches;
}
