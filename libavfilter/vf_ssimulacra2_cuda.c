/*
 * SSIMULACRA 2.1 perceptual metric, CUDA filter
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
 * SSIMULACRA 2.1 between a distorted input ("main", passed through) and a
 * reference input, with the same score as the CPU filter ssimulacra2, bit
 * for bit. Each input is CUDA frames, read in place, or software frames of
 * any format the CPU filter reads, uploaded by the filter: copied by the
 * filter's threads into pinned buffers, then sent asynchronously on the
 * frame's stream, so that uploads overlap the kernels of earlier frames.
 *
 * Per frame, one chain of kernel launches on a stream of the filter (the
 * plan of vf_ssimulacra2_cuda_plan.c); the per-frame block of reduced sums
 * (a few KB) comes back to the host, which pools and scores it with the CPU
 * filter's function. Frames stay in a small queue (queue_depth) so
 * that the host never waits for the frame it has just queued, and frames
 * overlap on the GPU when there is scratch memory for more than one.
 */

#include <string.h>

#include "config.h"
#include "libavutil/common.h"
#include "libavutil/cuda_check.h"
#include "libavutil/hwcontext.h"
#include "libavutil/hwcontext_cuda_internal.h"
#include "libavutil/imgutils.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "libavutil/time.h"

#include "avfilter.h"
#include "filters.h"
#include "formats.h"
#include "framesync.h"
#include "ssimulacra2.h"
#include "vf_ssimulacra2_cuda.h"
#include "vf_ssimulacra2_cuda_plan.h"

#include "cuda/load_helper.h"

#define CHECK_CU(x) FF_CUDA_CHECK_DL(ctx, s->hwctx->internal->cuda_dl, x)

#define MAX_QUEUE 16

/* CUDA_ERROR_OUT_OF_MEMORY of the driver API, not in ffnvcodec's subset of the enum */
#define CU_OUT_OF_MEMORY 2
/* CU_MEMHOSTALLOC_WRITECOMBINED, likewise: host memory that the CPU writes
 * past its caches (no line is read before it is written) and that transfers
 * are not snooped against; the upload buffers are only ever written by the
 * CPU. On x86 only (measured there: +2 % for 2160p software frames), where the
 * locked operations of the threads' completion drain the write-combining
 * buffers before the copy is sent. */
#define CU_MEMHOSTALLOC_WRITECOMBINED 0x04
#define UPLOAD_HOST_FLAGS (ARCH_X86 ? CU_MEMHOSTALLOC_WRITECOMBINED : 0)

/* Pinned host memory, which ffnvcodec's function table lacks: looked up in the
 * driver library it has loaded. Without it, uploads go from pageable memory. */
typedef CUresult CUDAAPI tcuMemHostAlloc(void **pp, size_t bytesize, unsigned int flags);
typedef CUresult CUDAAPI tcuMemFreeHost(void *p);
/* likewise the occupancy query, for the blur's blocks per launch */
typedef CUresult CUDAAPI tcuOccupancyMaxActiveBlocksPerMultiprocessor(int *nb, CUfunction f,
                                                                      int threads, size_t shared);

/* software frames of at least this many bytes are copied by all the filter's threads */
#define PARALLEL_COPY_BYTES (1 << 20)

/** A software frame's planes on the device, and the pinned host copy they are sent from. */
typedef struct Upload {
    CUdeviceptr dev;
    uint8_t *host;
    int pinned;             ///< host from cuMemHostAlloc, else av_malloc
    size_t size;
} Upload;

/** Upload buffers of one frame pair: [0] reference, [1] distorted. */
typedef struct UploadPair {
    Upload img[2];
    CUevent done;           ///< recorded after the kernels that read the frames
    int used;
} UploadPair;

/** Device memory for the work of one frame, laid out by ff_ssimu2_cuda_layout(). */
typedef struct Scratch {
    CUdeviceptr mem;
    CUevent done;           ///< recorded after the last launch that used it
    int used;
} Scratch;

/** One frame in the queue, in output order. */
typedef struct Slot {
    AVFrame *main;          ///< distorted frame, output when collected
    AVFrame *ref;           ///< reference, kept alive while kernels read it
    int64_t index;          ///< input frame index (from 0)
    int scored;             ///< kernels queued, results to collect
    int nb_passes, nb_scales, w, h;
    CUstream stream;
    CUevent ready;          ///< the inputs' stream at submission
    CUdeviceptr result;     ///< sums and timers of this frame
    double host[SSIMU2_CUDA_RESULT_SIZE / sizeof(double)];
} Slot;

typedef struct SSIMULACRA2CudaContext {
    const AVClass *class;
    FFFrameSync fs;
    SSIMULACRA2Common common;
    int queue_depth;
    int max_memory;         ///< MiB of scratch memory for the frames in flight (0: auto)
    char *device;           ///< CUDA device for software frames (option)

    AVBufferRef *device_ref;
    AVCUDADeviceContext *hwctx;
    tcuMemHostAlloc *mem_host_alloc;       ///< NULL: pageable upload buffers
    tcuMemFreeHost *mem_free_host;
    CUmodule module;
    CUfunction fn[SSIMU2_KERNEL_NB];

    SSIMU2CudaLayout layout;               ///< of every scratch set (w, h 0 before the first)
    int nb_scratch, next_scratch;
    int resident_blocks;                   ///< blocks of ssimu2_blur the GPU runs at once
    int blur_blocks;                       ///< per launch, for the scratch sets allocated
    int blur_fence_all;                    ///< SSIMU2CudaParams.fence_all
    Scratch scratch[MAX_QUEUE];
    SSIMU2CudaLaunch plan[SSIMU2_CUDA_MAX_LAUNCHES];
    /* software frames: a ring of upload buffers, two more than the scratch sets (at
     * most queue_depth), so that the host fills one while the GPU still works on
     * the frames before it */
    UploadPair uploads[MAX_QUEUE];
    int nb_uploads, next_upload;

    Slot slots[MAX_QUEUE];
    int nb_slots;                          ///< slots with a stream (queue_depth once configured)
    int head, count;
    int deferred_err;                      ///< an error at a frame, returned once the queue is out
    int failed;                            ///< the error returned, again at every activation
    int closed_first;                      ///< the output was closed with deferred_err pending
} SSIMULACRA2CudaContext;

/** Make the filter's CUDA context current (pop_context() gives it back). */
static int push_context(AVFilterContext *ctx)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    return CHECK_CU(s->hwctx->internal->cuda_dl->cuCtxPushCurrent(s->hwctx->cuda_ctx));
}

/** Give the context back: ret, or the pop's error where ret is not one. */
static int pop_context(AVFilterContext *ctx, int ret)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    CUcontext dummy;
    int ret2 = CHECK_CU(s->hwctx->internal->cuda_dl->cuCtxPopCurrent(&dummy));
    return ret < 0 ? ret : ret2;
}

static int launch(AVFilterContext *ctx, CUstream stream, SSIMU2CudaLaunch *l)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    CudaFunctions *cu = s->hwctx->internal->cuda_dl;
    void *args[] = { &l->p };

    return CHECK_CU(cu->cuLaunchKernel(s->fn[l->kernel], l->grid[0], l->grid[1], l->grid[2],
                                       l->block[0], l->block[1], 1, 0, stream, args, NULL));
}

static void free_upload(AVFilterContext *ctx, Upload *up)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    CudaFunctions *cu = s->hwctx->internal->cuda_dl;

    if (up->dev)
        CHECK_CU(cu->cuMemFree(up->dev));
    if (up->pinned)
        CHECK_CU(s->mem_free_host(up->host));
    else
        av_free(up->host);
    memset(up, 0, sizeof(*up));
}

/**
 * Upload buffers of at least size bytes; the context must be pushed.
 * AVERROR(ENOMEM), unlogged, when the memory is short.
 */
static int alloc_upload(AVFilterContext *ctx, Upload *up, size_t size)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    CudaFunctions *cu = s->hwctx->internal->cuda_dl;
    CUresult res;
    int ret;

    if (up->size >= size)
        return 0;
    free_upload(ctx, up);
    res = cu->cuMemAlloc(&up->dev, size);
    if (res != CUDA_SUCCESS)
        up->dev = 0;
    if (res == CU_OUT_OF_MEMORY)
        return AVERROR(ENOMEM);
    if ((ret = CHECK_CU(res)) < 0)
        return ret;
    /* pinned memory is a scarce system resource: pageable (slower copies) if
     * refused, write-combined or not */
    up->pinned = s->mem_host_alloc &&
                 (s->mem_host_alloc((void **)&up->host, size, UPLOAD_HOST_FLAGS) == CUDA_SUCCESS ||
                  (UPLOAD_HOST_FLAGS && s->mem_host_alloc((void **)&up->host, size, 0) == CUDA_SUCCESS));
    if (!up->pinned) {
        if (s->mem_host_alloc)
            av_log(ctx, AV_LOG_VERBOSE, "No pinned memory for a %.1f MiB upload buffer: "
                   "pageable memory instead.\n", size / 1048576.0);
        if (!(up->host = av_malloc(size))) {
            free_upload(ctx, up);
            return AVERROR(ENOMEM);
        }
    }
    up->size = size;
    return 0;
}

static void log_upload_nomem(AVFilterContext *ctx, size_t size)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    ff_ssimulacra2_log_nomem(ctx, "the upload buffers of ssimulacra2_cuda", s->layout.w,
                             s->layout.h, size);
}

/** A software frame's planes into an upload buffer: rows of 64-byte aligned pitch, planes in turn. */
typedef struct CopyJob {
    const AVFrame *frame;
    uint8_t *dst[4];
    ptrdiff_t dst_offset[4];
    int dst_linesize[4];
    int bytes[4], rows[4];
    int nb_planes;
} CopyJob;

/** The upload buffer's layout for w x h frames of format fmt (c->frame is left to the caller). */
static int copy_layout(enum AVPixelFormat fmt, int w, int h, CopyJob *c, size_t *size)
{
    ptrdiff_t linesizes[4] = { 0 };
    size_t sizes[4];
    int ret = av_image_fill_linesizes(c->bytes, fmt, w);

    if (ret < 0)
        return ret;
    c->nb_planes = av_pix_fmt_count_planes(fmt);
    for (int p = 0; p < c->nb_planes; p++)
        linesizes[p] = c->dst_linesize[p] = FFALIGN(c->bytes[p], 64);
    ret = av_image_fill_plane_sizes(sizes, fmt, h, linesizes);
    if (ret < 0)
        return ret;
    *size = 0;
    for (int p = 0; p < c->nb_planes; p++) {
        c->rows[p]       = sizes[p] / c->dst_linesize[p];
        c->dst_offset[p] = *size;
        *size += sizes[p];
    }
    return 0;
}

/**
 * The ring of upload buffers for w x h software frames of the inputs' formats
 * (none for CUDA frames), two pairs more than the scratch sets; buffers of
 * pairs beyond it are freed. The context must be pushed.
 *
 * @param ring_bytes receives the size of the whole ring
 */
static int alloc_uploads(AVFilterContext *ctx, int w, int h, size_t *ring_bytes)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    /* uploads[].img[0] is the reference's (inputs[1]), img[1] the distorted input's */
    const enum AVPixelFormat fmt[2] = { ctx->inputs[1]->format, ctx->inputs[0]->format };
    size_t size[2] = { 0, 0 };
    CopyJob c;
    int ret;

    /* at most queue_depth frames are submitted and not collected */
    s->nb_uploads  = FFMIN(s->queue_depth, s->nb_scratch + 2);
    s->next_upload = 0;
    for (int k = 0; k < 2; k++)
        if (fmt[k] != AV_PIX_FMT_CUDA && (ret = copy_layout(fmt[k], w, h, &c, &size[k])) < 0)
            return ret;
    *ring_bytes = s->nb_uploads * (size[0] + size[1]);
    for (int i = 0; i < MAX_QUEUE; i++)
        for (int k = 0; k < 2; k++) {
            if (i >= s->nb_uploads || !size[k])
                free_upload(ctx, &s->uploads[i].img[k]);
            else if ((ret = alloc_upload(ctx, &s->uploads[i].img[k], size[k])) < 0)
                return ret;
        }
    return 0;
}

static void free_set(AVFilterContext *ctx, Scratch *sc)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    CudaFunctions *cu = s->hwctx->internal->cuda_dl;

    if (sc->mem)
        CHECK_CU(cu->cuMemFree(sc->mem));
    if (sc->done)
        CHECK_CU(cu->cuEventDestroy(sc->done));
    memset(sc, 0, sizeof(*sc));
}

/** Free the scratch sets; the queue must be empty and the context pushed. */
static void free_scratch(AVFilterContext *ctx)
{
    SSIMULACRA2CudaContext *s = ctx->priv;

    for (int i = 0; i < MAX_QUEUE; i++)
        free_set(ctx, &s->scratch[i]);
    s->nb_scratch = s->next_scratch = 0;
    s->layout.w = s->layout.h = 0;
}

/**
 * Allocate the scratch sets for w x h frames, and the upload ring of software
 * frames (a set yields to it where the GPU's memory is short); the context
 * must be pushed.
 */
static int alloc_scratch(AVFilterContext *ctx, int w, int h)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    CudaFunctions *cu = s->hwctx->internal->cuda_dl;
    SSIMU2CudaLayout *l = &s->layout;
    uint8_t *init = NULL;
    size_t init_bytes = 0, ring_bytes = 0;
    size_t max_memory = s->max_memory ? (size_t)s->max_memory << 20 :
                        ff_ssimu2_cuda_auto_memory(w, h, s->queue_depth);
    int ret = 0, nb_sets, yielded = 0;

    free_scratch(ctx);
    ff_ssimu2_cuda_layout(l, w, h, max_memory, s->queue_depth);
retry:
    if (l->blur != SSIMU2_BLUR_PLANES) {
        /* every set starts with the blur's counters at zero and its ticket table */
        init_bytes = l->tasks_off + l->tasks_bytes - l->sync_off;
        init = av_mallocz(init_bytes);
        if (!init) {
            ret = AVERROR(ENOMEM);
            goto fail;
        }
        ff_ssimu2_cuda_tasks(l, (int *)(init + (l->tasks_off - l->sync_off)));
    }
    /* frames overlap on the GPU only as far as their scratch sets fit */
    nb_sets = ff_ssimu2_cuda_nb_sets(l, max_memory, s->queue_depth);

    for (int i = 0; i < nb_sets; i++) {
        Scratch *sc = &s->scratch[i];
        CUresult res = cu->cuMemAlloc(&sc->mem, l->bytes);
        if (res != CUDA_SUCCESS)
            sc->mem = 0;
        if (res == CU_OUT_OF_MEMORY && i == 0 && l->blur != SSIMU2_BLUR_RING) {
            /* not one set of this layout: the next smaller one (enum order) may fit */
            SSIMU2CudaLayout tried = *l;
            ff_ssimu2_cuda_layout_of(l, w, h, l->blur + 1);
            if (l->blur != SSIMU2_BLUR_PLANES && l->bytes < tried.bytes) {
                av_log(ctx, AV_LOG_WARNING, "A scratch set of %.2f MiB does not fit in the GPU's "
                       "free memory: a smaller layout (%.2f MiB per set), slower.\n",
                       tried.bytes / 1048576.0, l->bytes / 1048576.0);
                av_freep(&init);
                goto retry;
            }
            *l = tried;     /* the error names the set that did not fit */
        }
        if (res == CU_OUT_OF_MEMORY && i > 0) {
            /* fewer frames in flight, the same scores */
            av_log(ctx, AV_LOG_WARNING, "Only %d of %d scratch sets of %.1f MiB fit in the GPU's "
                   "free memory: fewer frames in flight.\n", i, nb_sets, l->bytes / 1048576.0);
            break;
        }
        if (res == CU_OUT_OF_MEMORY) {
            ff_ssimulacra2_log_nomem(ctx, "the GPU memory of ssimulacra2_cuda", w, h, l->bytes);
            ret = AVERROR(ENOMEM);
            goto fail;
        }
        ret = CHECK_CU(res);
        if (ret < 0)
            goto fail;
        s->nb_scratch = i + 1;
        if (init && (ret = CHECK_CU(cu->cuMemcpyHtoD(sc->mem + l->sync_off, init, init_bytes))) < 0)
            goto fail;
        ret = CHECK_CU(cu->cuEventCreate(&sc->done, CU_EVENT_DISABLE_TIMING));
        if (ret < 0)
            goto fail;
    }
    /* the copies from pageable memory may still be in flight on the legacy
     * stream, which the filter's (non-blocking) streams do not wait for */
    if (init && (ret = CHECK_CU(cu->cuStreamSynchronize(NULL))) < 0)
        goto fail;
    av_freep(&init);
    /* software frames' upload buffers now, not at the first frame: where the sets
     * took the GPU's free memory, the last yields to them (fewer frames in flight) */
    while ((ret = alloc_uploads(ctx, w, h, &ring_bytes)) == AVERROR(ENOMEM) && s->nb_scratch > 1) {
        free_set(ctx, &s->scratch[--s->nb_scratch]);
        yielded++;
    }
    if (ret == AVERROR(ENOMEM))
        log_upload_nomem(ctx, ring_bytes);
    if (ret < 0)
        goto fail;
    if (yielded)
        av_log(ctx, AV_LOG_WARNING, "%d scratch set(s) of %.1f MiB freed for the upload "
               "buffers of software frames: %d frame(s) in flight.\n", yielded,
               l->bytes / 1048576.0, s->nb_scratch);
    s->blur_blocks = ff_ssimu2_cuda_blur_blocks(s->resident_blocks, s->nb_scratch);
    av_log(ctx, AV_LOG_VERBOSE, "%dx%d, %d scales: %d scratch set(s) of %.1f MiB, %s "
           "(twice for a reference with alpha)\n",
           w, h, l->nb_scales, s->nb_scratch, l->bytes / 1048576.0,
           l->blur == SSIMU2_BLUR_PLANES ? "blurred planes (the fastest layout)" :
           l->blur == SSIMU2_BLUR_TASKS  ? "blur tasks (the small layout, for the memory available)" :
           "blur tasks converting in a ring (the smallest layout, for the memory available)");
    if (l->blur != SSIMU2_BLUR_PLANES)
        av_log(ctx, AV_LOG_VERBOSE, "blur: %d blocks per frame, %d at once on the GPU\n",
               s->blur_blocks, s->resident_blocks);
    return 0;
fail:
    av_freep(&init);
    free_scratch(ctx);
    return ret;
}

/** Rows job * rows / nb_jobs .. of every plane, so that the threads share each plane. */
static int copy_rows(AVFilterContext *ctx, void *arg, int job, int nb_jobs)
{
    const CopyJob *c = arg;

    for (int p = 0; p < c->nb_planes; p++) {
        int y0 = (int64_t)c->rows[p] * job / nb_jobs, y1 = (int64_t)c->rows[p] * (job + 1) / nb_jobs;
        av_image_copy_plane(c->dst[p] + (ptrdiff_t)y0 * c->dst_linesize[p], c->dst_linesize[p],
                            c->frame->data[p] + (ptrdiff_t)y0 * c->frame->linesize[p],
                            c->frame->linesize[p], c->bytes[p], y1 - y0);
    }
    return 0;
}

/** The kernels read image i (0 reference, 1 distorted) of CUDA frames in place. */
static void read_in_place(const AVFrame *f, int i, SSIMU2CudaParams *p)
{
    for (int k = 0; k < 4; k++) {
        p->in_data[i][k]     = (uintptr_t)f->data[k];
        p->in_linesize[i][k] = f->linesize[k];
    }
}

/**
 * The kernels read image i (0 reference, 1 distorted) of software frames
 * from an upload buffer: the frame copied into its pinned memory by the
 * filter's threads, then sent on the stream. The context must be pushed.
 */
static int stage_input(AVFilterContext *ctx, Upload *up, CUstream stream, int i,
                       const AVFrame *f, SSIMU2CudaParams *p)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    CudaFunctions *cu = s->hwctx->internal->cuda_dl;
    CopyJob c;
    size_t size;
    int ret;

    if ((ret = copy_layout(f->format, f->width, f->height, &c, &size)) < 0)
        return ret;
    if ((ret = alloc_upload(ctx, up, size)) < 0) {
        if (ret == AVERROR(ENOMEM))
            log_upload_nomem(ctx, size);
        return ret;
    }
    c.frame = f;
    for (int k = 0; k < c.nb_planes; k++) {
        c.dst[k]             = up->host + c.dst_offset[k];
        p->in_data[i][k]     = up->dev + c.dst_offset[k];
        p->in_linesize[i][k] = c.dst_linesize[k];
    }
    ff_filter_execute(ctx, copy_rows, &c, NULL,
                      size < PARALLEL_COPY_BYTES ? 1 : ff_ssimulacra2_nb_threads(ctx));
    return CHECK_CU(cu->cuMemcpyHtoDAsync(up->dev, up->host, size, stream));
}

/**
 * A pair with software frames: those to the next upload buffers, on the
 * frame's stream; the caller records pair->done after the kernels.
 */
static int upload_pair(AVFilterContext *ctx, CUstream stream, const AVFrame *const frames[2],
                       SSIMU2CudaParams *p, UploadPair **used)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    CudaFunctions *cu = s->hwctx->internal->cuda_dl;
    UploadPair *pair = &s->uploads[s->next_upload];
    int ret = 0;

    s->next_upload = (s->next_upload + 1) % s->nb_uploads;
    /* the frame that used these buffers nb_uploads frames ago (the GPU is
     * that far behind only when it is the bottleneck) */
    if (!pair->done)
        ret = CHECK_CU(cu->cuEventCreate(&pair->done, CU_EVENT_DISABLE_TIMING));
    else if (pair->used)
        ret = CHECK_CU(cu->cuEventSynchronize(pair->done));
    pair->used = 0;
    for (int i = 0; ret >= 0 && i < 2; i++) {
        if (frames[i]->hw_frames_ctx)
            read_in_place(frames[i], i, p);
        else
            ret = stage_input(ctx, &pair->img[i], stream, i, frames[i], p);
    }
    *used = pair;
    return ret;
}

/** Queue the kernels of one frame pair (its plan) on the slot's stream. */
static int submit(AVFilterContext *ctx, Slot *slot, const AVFrame *main, const AVFrame *ref,
                  const SSIMU2Colour colour[2])
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    CudaFunctions *cu = s->hwctx->internal->cuda_dl;
    const AVPixFmtDescriptor *const desc[2] = { av_pix_fmt_desc_get(ff_ssimulacra2_sw_format(ref)),
                                                av_pix_fmt_desc_get(ff_ssimulacra2_sw_format(main)) };
    const AVFrame *const frames[2] = { ref, main };
    SSIMU2CudaParams p;
    Scratch *sc = &s->scratch[s->next_scratch];
    UploadPair *pair = NULL;
    int ret, nb_launches;

    memset(&p, 0, sizeof(p));
    memcpy(p.colour, colour, sizeof(p.colour));
    ret = push_context(ctx);
    if (ret < 0)
        return ret;
    s->next_scratch = (s->next_scratch + 1) % s->nb_scratch;
    if (!ref->hw_frames_ctx || !main->hw_frames_ctx)
        ret = upload_pair(ctx, slot->stream, frames, &p, &pair);
    else
        for (int i = 0; i < 2; i++)
            read_in_place(frames[i], i, &p);
    p.result    = slot->result;
    p.nb_blocks = s->blur_blocks;
    p.fence_all = s->blur_fence_all;
    nb_launches = ff_ssimu2_cuda_plan(&s->layout, &p, sc->mem, desc, s->plan);
    /* decoder / upload work on the frames' stream comes first */
    if (ret >= 0)
        ret = CHECK_CU(cu->cuEventRecord(slot->ready, s->hwctx->stream));
    if (ret >= 0)
        ret = CHECK_CU(cu->cuStreamWaitEvent(slot->stream, slot->ready, 0));
    /* and the previous frame that used this scratch set */
    if (ret >= 0 && sc->used)
        ret = CHECK_CU(cu->cuStreamWaitEvent(slot->stream, sc->done, 0));
    for (int i = 0; ret >= 0 && i < nb_launches; i++)
        ret = launch(ctx, slot->stream, &s->plan[i]);
    if (ret >= 0)
        ret = CHECK_CU(cu->cuEventRecord(sc->done, slot->stream));
    if (ret >= 0 && pair && (ret = CHECK_CU(cu->cuEventRecord(pair->done, slot->stream))) >= 0)
        pair->used = 1;
    if (ret >= 0) {
        sc->used        = 1;
        slot->scored    = 1;
        slot->nb_passes = ff_ssimu2_cuda_nb_passes(desc[0]);
        slot->nb_scales = s->layout.nb_scales;
        slot->w         = s->layout.w;
        slot->h         = s->layout.h;
    }
    return pop_context(ctx, ret);
}

/* A driver call failed for a frame (CHECK_CU's AVERROR_EXTERNAL; an upload
 * buffer's ENOMEM has said its own): CHECK_CU named the call, this says what it means. */
static void gpu_failed(AVFilterContext *ctx, int64_t index, int err)
{
    SSIMULACRA2CudaContext *s = ctx->priv;

    if (err != AVERROR_EXTERNAL)
        return;
    av_log(ctx, AV_LOG_ERROR, "The GPU failed while scoring frame %"PRId64" (the driver's error "
           "is above): the run stops, and the frames in flight (up to %d) are not scored. The "
           "CPU filter ssimulacra2 gives the same scores.\n", index, s->queue_depth);
}

/** Wait for the oldest frame of the queue, score it and output it. */
static int collect(AVFilterContext *ctx)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    CudaFunctions *cu = s->hwctx->internal->cuda_dl;
    Slot *slot = &s->slots[s->head];
    AVFrame *main = slot->main;
    int ret = 0, idle = !slot->scored;  /* no kernel reads its frames */

    slot->main = NULL;
    s->head = (s->head + 1) % s->nb_slots;
    s->count--;

    if (slot->scored) {
        slot->scored = 0;
        ret = push_context(ctx);
        if (ret >= 0) {
            /* pageable destination: returns when this slot's work is done */
            ret = CHECK_CU(cu->cuMemcpyDtoHAsync(slot->host, slot->result,
                                                 SSIMU2_CUDA_RESULT_SIZE, slot->stream));
            if (ret >= 0)
                idle = (ret = CHECK_CU(cu->cuStreamSynchronize(slot->stream))) >= 0;
            ret = pop_context(ctx, ret);
        }
        if (ret < 0)
            gpu_failed(ctx, slot->index, ret);
        if (ret >= 0) {
            uint64_t fault;
            memcpy(&fault, &slot->host[SSIMU2_CUDA_FAULT], sizeof(fault));
            if (fault) {
                av_log(ctx, AV_LOG_ERROR, "A blur task of frame %"PRId64" waited for another one "
                       "for %.0f s and gave up: a bug of ssimulacra2_cuda; please report it. The "
                       "CPU filter ssimulacra2 gives the same scores.\n", slot->index,
                       SSIMU2_CUDA_WAIT_LIMIT / 1e9);
                ret = AVERROR_BUG;
            }
        }
        if (ret >= 0) {
            const double (*sums)[3][SSIMU2_NB_SUMS] = (const double (*)[3][SSIMU2_NB_SUMS])slot->host;
            const double *timer = slot->host + SSIMU2_CUDA_NB_SUMS;
            int nb_blocks = slot->nb_passes * slot->nb_scales * 3 * SSIMU2_NB_SUMS;
            uint64_t start, end, t;
            double score;

            score = ff_ssimulacra2_score(sums, slot->nb_scales, slot->w, slot->h);
            if (slot->nb_passes > 1)
                score = FFMIN(score, ff_ssimulacra2_score(sums + SSIMU2_MAX_SCALES,
                                                          slot->nb_scales, slot->w, slot->h));
            /* device time: first kernel's start to the last reduction block's end */
            memcpy(&start, &timer[0], sizeof(start));
            end = start;
            for (int i = 1; i <= nb_blocks; i++) {
                memcpy(&t, &timer[i], sizeof(t));
                end = FFMAX(end, t);
            }
            ret = ff_ssimulacra2_report(ctx, &s->common, main, slot->index, score,
                                        (end - start) / 1e6);
        }
    }
    /* kernels may still read the frames (a failed copy or sync): the error
     * ends the run, and uninit frees them after it has waited for every stream */
    if (!idle) {
        slot->main = main;
        return ret;
    }
    /* the reference's clone goes with its slot, scored or not (a submit that
     * failed after the clone left it to the slot's next frame), once the
     * kernels reading it are done: its surface may go back to a decoder */
    av_frame_free(&slot->ref);
    if (ret < 0) {
        av_frame_free(&main);
        return ret;
    }
    return ff_filter_frame(ctx->outputs[0], main);
}

static int drain(AVFilterContext *ctx)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    int ret = 0;

    while (s->count && ret >= 0)
        ret = collect(ctx);
    return ret;
}

/* Per-frame checks of the frames themselves (sizes, sw_format, device). */

/* Each hwupload_cuda opens a device context of its own, so two of them give
 * two contexts even on one GPU: say how to share one. */
static int different_devices(AVFilterContext *ctx)
{
    av_log(ctx, AV_LOG_ERROR, "The inputs are on different CUDA device contexts. Use one device "
           "for both: decode both with -hwaccel cuda -hwaccel_output_format cuda, give the filter "
           "software frames (it uploads them itself), or upload with one device (-init_hw_device "
           "cuda=gpu -filter_hw_device gpu and hwupload on each input; two hwupload_cuda filters "
           "open two contexts).\n");
    return AVERROR(EINVAL);
}

static AVHWFramesContext *frames_ctx_of(AVBufferRef *hw_frames_ctx)
{
    return hw_frames_ctx ? (AVHWFramesContext *)hw_frames_ctx->data : NULL;
}

/** Per-frame checks: sizes and formats of the pair; CUDA frames on the filter's device. */
static int check_frames(AVFilterContext *ctx, const AVFrame *main, const AVFrame *ref)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    AVHWFramesContext *fm = frames_ctx_of(main->hw_frames_ctx), *fr = frames_ctx_of(ref->hw_frames_ctx);
    AVHWDeviceContext *dev = (AVHWDeviceContext *)s->device_ref->data;
    int ret;

    for (int i = 0; i < 2; i++) {
        const AVFrame *f = i ? ref : main;
        /* crop on CUDA frames (and a decoder's top or left cropping) only
         * sets these: the frame would be scored whole, silently (checked
         * before the sizes, which such a frame keeps) */
        if (f->hw_frames_ctx && (f->crop_top || f->crop_bottom || f->crop_left || f->crop_right)) {
            av_log(ctx, AV_LOG_ERROR, "The %s input's CUDA frames are cropped by their crop "
                   "fields (crop on CUDA frames, or a decoder's top or left cropping), which "
                   "ssimulacra2_cuda does not read: crop before the upload, or give the filter "
                   "software frames (it uploads them itself).\n", i ? "reference" : "distorted");
            return AVERROR(ENOSYS);
        }
    }
    ret = ff_ssimulacra2_check_pair(ctx, 0, main->width, main->height,
                                    ff_ssimulacra2_sw_format(main), ref->width, ref->height,
                                    ff_ssimulacra2_sw_format(ref),
                                    ff_ssimulacra2_pix_fmts);
    if (ret < 0)
        return ret;
    if ((fm && fm->device_ctx != dev) || (fr && fr->device_ctx != dev))
        return different_devices(ctx);
    /* the convert launches' grid height: 8 quads of rows a block, at most 65535 blocks */
    if (main->height > 8 * 2 * 65535) {
        av_log(ctx, AV_LOG_ERROR, "Frames of %d rows are more than ssimulacra2_cuda takes "
               "(%d); use the CPU filter ssimulacra2.\n", main->height, 8 * 2 * 65535);
        return AVERROR(ENOSYS);
    }
    return 0;
}

/**
 * An error at a frame (inputs of different sizes from it on): the frames
 * queued before it are scored and passed on first, as the CPU filter had
 * scored and passed them on (they had been dropped, unscored and unsaid);
 * finish_queue() returns the error once ffmpeg has taken them.
 */
static int fail_after_queue(AVFilterContext *ctx, AVFrame **main, int err)
{
    SSIMULACRA2CudaContext *s = ctx->priv;

    av_frame_free(main);
    s->deferred_err = err;
    ff_filter_set_ready(ctx, 100);
    return 0;
}

/**
 * After an error at a frame: the frames queued before it go out one at a
 * time, as the output asks for them, as the CPU filter had passed them on
 * (all at once, those the output never took were scored). The error is
 * returned once the output's queue is empty: returned with frames in it, or
 * at the next activation, which ffmpeg's push of the next input frame runs,
 * they were scored but not written. An output closed first (trim after the
 * filter, -frames) never wanted the frame that failed, read ahead: no error
 * (said at uninit).
 */
static int finish_queue(AVFilterContext *ctx)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    AVFilterLink *outlink = ctx->outputs[0];
    /* (the link's own queue, read as its consumer reads it) */
    size_t unread = ff_inlink_queued_frames(outlink);

    if (ff_outlink_get_status(outlink))
        s->closed_first = 1;
    FF_FILTER_FORWARD_STATUS_BACK_ALL(outlink, ctx);
    if (s->count)
        return ff_outlink_frame_wanted(outlink) ? collect(ctx) : 0;
    return unread ? 0 : s->deferred_err;
}

static int do_ssimulacra2_cuda(FFFrameSync *fs)
{
    AVFilterContext *ctx = fs->parent;
    SSIMULACRA2CudaContext *s = ctx->priv;
    AVFrame *main, *ref;
    SSIMU2Colour colour[2];
    Slot *slot;
    int64_t index;
    int ret, scored;

    ret = ff_framesync_dualinput_get(fs, &main, &ref);
    if (ret < 0)
        return ret;
    scored = ff_ssimulacra2_next_frame(ctx, &s->common, fs, main, ref, &index);
    if (scored == AVERROR_EOF)
        return ff_ssimulacra2_end_output(ctx, fs, &main);
    if (scored < 0)
        return fail_after_queue(ctx, &main, scored);
    if (!scored && !s->count)
        return ff_filter_frame(ctx->outputs[0], main);

    if (scored) {
        const enum AVPixelFormat fmt[2] = { ff_ssimulacra2_sw_format(ref),
                                            ff_ssimulacra2_sw_format(main) };
        const AVFrame *const frames[2] = { ref, main };

        ret = check_frames(ctx, main, ref);
        if (ret >= 0)
            ret = ff_ssimulacra2_colour_pair(ctx, &s->common, fmt, frames, colour);
        if (ret < 0) {
            s->common.run->nb_refused++;
            return fail_after_queue(ctx, &main, ret);
        }
        if (main->width != s->layout.w || main->height != s->layout.h) {
            /* new geometry: finish the frames that use the old buffers */
            ret = drain(ctx);
            if (ret < 0) {
                av_frame_free(&main);
                return ret;
            }
            ret = push_context(ctx);
            if (ret >= 0) {
                ret = alloc_scratch(ctx, main->width, main->height);
                ret = pop_context(ctx, ret);
            }
            /* (the frames drained go out before the error) */
            if (ret < 0)
                return fail_after_queue(ctx, &main, ret);
        }
    }

    slot = &s->slots[(s->head + s->count) % s->nb_slots];
    slot->main   = main;
    slot->index  = index;
    slot->scored = 0;
    s->count++;
    if (scored) {
        /* a CUDA reference is read in place: kept until its kernels are done
         * (a software one is copied when submitted) */
        if (ref->hw_frames_ctx && !(slot->ref = av_frame_clone(ref)))
            return AVERROR(ENOMEM);
        ret = submit(ctx, slot, main, ref, colour);
        if (ret < 0) {
            gpu_failed(ctx, index, ret);
            return ret;
        }
    }
    /* frame N is collected once frame N + queue_depth - 1 is queued */
    while (s->count >= s->queue_depth) {
        ret = collect(ctx);
        if (ret < 0)
            return ret;
    }
    return 0;
}

static av_cold int init(AVFilterContext *ctx)
{
    SSIMULACRA2CudaContext *s = ctx->priv;

    s->fs.on_event = do_ssimulacra2_cuda;
    return ff_ssimulacra2_common_init(ctx, &s->common);
}

static int config_input(AVFilterLink *inlink)
{
    AVFilterContext *ctx = inlink->dst;

    if (inlink->format == AV_PIX_FMT_CUDA && !ff_filter_link(inlink)->hw_frames_ctx) {
        av_log(ctx, AV_LOG_ERROR, "No CUDA frames context on input '%s'.\n",
               inlink->dstpad->name);
        return AVERROR(EINVAL);
    }
    return 0;
}

static int config_input_ref(AVFilterLink *inlink)
{
    AVFilterContext *ctx = inlink->dst;
    AVFilterLink *mainlink = ctx->inputs[0];
    AVHWFramesContext *fm, *fr;
    int ret;

    ret = config_input(inlink);
    if (ret < 0)
        return ret;
    ret = ff_ssimulacra2_check_pair(ctx, 1, mainlink->w, mainlink->h,
                                    ff_ssimulacra2_link_sw_format(mainlink), inlink->w, inlink->h,
                                    ff_ssimulacra2_link_sw_format(inlink),
                                    ff_ssimulacra2_pix_fmts);
    if (ret < 0)
        return ret;
    fm = frames_ctx_of(ff_filter_link(mainlink)->hw_frames_ctx);
    fr = frames_ctx_of(ff_filter_link(inlink)->hw_frames_ctx);
    if (fm && fr && fm->device_ctx != fr->device_ctx)
        return different_devices(ctx);
    return 0;
}

/**
 * The CUDA device: that of the CUDA frames on an input, else the device
 * option, else the filter's device (-filter_hw_device) if it is CUDA, else
 * the first CUDA device.
 */
static int open_device(AVFilterContext *ctx)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    AVHWFramesContext *frames = NULL;
    int ret;

    av_buffer_unref(&s->device_ref);   /* (a configuration tried again) */
    for (int i = 0; i < 2 && !frames; i++)
        frames = frames_ctx_of(ff_filter_link(ctx->inputs[i])->hw_frames_ctx);
    if (frames) {
        s->device_ref = av_buffer_ref(frames->device_ref);
    } else if (ctx->hw_device_ctx && !s->device &&
               ((AVHWDeviceContext *)ctx->hw_device_ctx->data)->type == AV_HWDEVICE_TYPE_CUDA) {
        s->device_ref = av_buffer_ref(ctx->hw_device_ctx);
    } else {
        /* ffmpeg hands filters its last device when -filter_hw_device is not
         * given, e.g. that of another input's -hwaccel */
        if (ctx->hw_device_ctx && !s->device)
            av_log(ctx, AV_LOG_WARNING, "The filter device is a %s device, not CUDA: the frames "
                   "are uploaded to CUDA device 0 (name another with the device option).\n",
                   av_hwdevice_get_type_name(((AVHWDeviceContext *)ctx->hw_device_ctx->data)->type));
        /* the CUDA device type reads the string as a number: "gpu" (the name
         * given to -init_hw_device) was device 0, "1abc" device 1 */
        if (s->device && (!*s->device || s->device[strspn(s->device, "0123456789")])) {
            av_log(ctx, AV_LOG_ERROR, "device='%s' is not a CUDA device number (0, 1, ...). For a "
                   "device made with -init_hw_device, name it with -filter_hw_device instead.\n",
                   s->device);
            return AVERROR(EINVAL);
        }
        ret = av_hwdevice_ctx_create(&s->device_ref, AV_HWDEVICE_TYPE_CUDA, s->device, NULL, 0);
        if (ret < 0) {
            av_log(ctx, AV_LOG_ERROR, "Cannot open CUDA device %s (see the message above). "
                   "ssimulacra2_cuda needs an NVIDIA GPU and driver; without one, use the CPU "
                   "filter ssimulacra2.\n", s->device ? s->device : "0 (the default)");
            return ret;
        }
    }
    if (!s->device_ref)
        return AVERROR(ENOMEM);
    s->hwctx = ((AVHWDeviceContext *)s->device_ref->data)->hwctx;
    /* pinned upload buffers where the driver library has them */
    s->mem_host_alloc = (tcuMemHostAlloc *)FFNV_SYM_FUNC(s->hwctx->internal->cuda_dl->lib, "cuMemHostAlloc");
    s->mem_free_host  = (tcuMemFreeHost *)FFNV_SYM_FUNC(s->hwctx->internal->cuda_dl->lib, "cuMemFreeHost");
    if (!s->mem_host_alloc || !s->mem_free_host) {
        s->mem_host_alloc = NULL;
        s->mem_free_host  = NULL;
    }
    return 0;
}

/**
 * What the tasks layout's blur needs to know of the GPU: how many of its
 * blocks run at once, and whether every thread must fence (the context must
 * be pushed).
 */
static av_cold int probe_blur_gpu(AVFilterContext *ctx)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    CudaFunctions *cu = s->hwctx->internal->cuda_dl;
    CUdevice dev = s->hwctx->internal->cuda_device;
    tcuOccupancyMaxActiveBlocksPerMultiprocessor *occupancy;
    int sms, major, per_sm = 1, ret;

    ret = CHECK_CU(cu->cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
    if (ret >= 0)
        ret = CHECK_CU(cu->cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    if (ret < 0)
        return ret;
    s->blur_fence_all = major < 7;
    occupancy = (tcuOccupancyMaxActiveBlocksPerMultiprocessor *)
        FFNV_SYM_FUNC(cu->lib, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    /* without the query, one per SM: slower with one frame in flight, never wrong */
    if (!occupancy ||
        occupancy(&per_sm, s->fn[SSIMU2_KERNEL_BLUR], SSIMU2_CUDA_TASK_THREADS, 0) != CUDA_SUCCESS ||
        per_sm < 1)
        per_sm = 1;
    s->resident_blocks = sms * per_sm;
    av_log(ctx, AV_LOG_DEBUG, "%d multiprocessors, %d blur blocks each\n", sms, per_sm);
    return 0;
}

/**
 * Load the module, get the kernels, size the blur's grid for this GPU, and
 * create the slots' streams and result buffers (the context must be pushed).
 */
static av_cold int load_module(AVFilterContext *ctx)
{
    extern const unsigned char ff_vf_ssimulacra2_cuda_ptx_data[];
    extern const unsigned int ff_vf_ssimulacra2_cuda_ptx_len;
    SSIMULACRA2CudaContext *s = ctx->priv;
    CudaFunctions *cu = s->hwctx->internal->cuda_dl;
    int64_t t0 = av_gettime_relative();
    int ret;

    ret = ff_cuda_load_module(ctx, s->hwctx, &s->module, ff_vf_ssimulacra2_cuda_ptx_data,
                              ff_vf_ssimulacra2_cuda_ptx_len);
    if (ret < 0) {
        av_log(ctx, AV_LOG_ERROR, "The driver cannot load the filter's kernels (see the message "
               "above; an unsupported PTX version means a driver older than the CUDA headers "
               "they were built with): update the NVIDIA driver, or use the CPU filter "
               "ssimulacra2.\n");
        return ret;
    }
    av_log(ctx, AV_LOG_VERBOSE, "PTX module loaded in %.1f ms\n",
           (av_gettime_relative() - t0) / 1000.0);
    for (int k = 0; k < SSIMU2_KERNEL_NB; k++)
        if ((ret = CHECK_CU(cu->cuModuleGetFunction(&s->fn[k], s->module,
                                                    ff_ssimu2_cuda_kernel_names[k]))) < 0)
            return ret;
    if ((ret = probe_blur_gpu(ctx)) < 0)
        return ret;

    for (int i = 0; i < s->queue_depth; i++) {
        Slot *slot = &s->slots[i];
        if ((ret = CHECK_CU(cu->cuStreamCreate(&slot->stream, CU_STREAM_NON_BLOCKING))) < 0 ||
            (ret = CHECK_CU(cu->cuEventCreate(&slot->ready, CU_EVENT_DISABLE_TIMING))) < 0 ||
            (ret = CHECK_CU(cu->cuMemAlloc(&slot->result, SSIMU2_CUDA_RESULT_SIZE))) < 0 ||
            /* slots of absent scales and passes are copied back too: defined zeros */
            (ret = CHECK_CU(cu->cuMemsetD8Async(slot->result, 0, SSIMU2_CUDA_RESULT_SIZE,
                                                slot->stream))) < 0) {
            /* the first allocations of the filter: a GPU already full fails here */
            av_log(ctx, AV_LOG_ERROR, "The GPU cannot take the filter's streams and result "
                   "buffers (see the message above; out of memory: the GPU is full, other "
                   "processes included). Free GPU memory, or use the CPU filter ssimulacra2.\n");
            return ret;
        }
        s->nb_slots = i + 1;
    }
    return 0;
}

static int config_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    SSIMULACRA2CudaContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0];
    FilterLink *il = ff_filter_link(mainlink);
    FilterLink *ol = ff_filter_link(outlink);
    int ret;

    if (s->module) {
        av_log(ctx, AV_LOG_ERROR, "ssimulacra2_cuda cannot be reconfigured.\n");
        return AVERROR(ENOSYS);
    }
    ret = open_device(ctx);
    if (ret < 0)
        return ret;

    /* the main input's frames pass through, CUDA or not */
    av_buffer_unref(&ol->hw_frames_ctx);
    if (il->hw_frames_ctx && !(ol->hw_frames_ctx = av_buffer_ref(il->hw_frames_ctx)))
        return AVERROR(ENOMEM);

    ret = push_context(ctx);
    if (ret < 0)
        return ret;
    ret = load_module(ctx);
    if (ret >= 0)
        ret = alloc_scratch(ctx, mainlink->w, mainlink->h);
    ret = pop_context(ctx, ret);
    if (ret < 0)
        return ret;

    return ff_ssimulacra2_config_output(outlink, &s->fs, &s->common);
}

static int run_queue(AVFilterContext *ctx)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    int64_t nb_frames = s->common.run ? s->common.run->nb_frames : 0;
    int ret;

    if (s->deferred_err)
        return finish_queue(ctx);
    ret = ff_ssimulacra2_framesync_activate(ctx, &s->common, &s->fs);
    if (ret < 0 || s->deferred_err)
        return ret;
    if (s->fs.eof) {
        /* framesync has ended the output: the frames still queued follow,
         * then the files are written, so that an error writing them fails the run */
        ret = drain(ctx);
        return ret < 0 ? ret : ff_ssimulacra2_finish(ctx, &s->common, &s->fs);
    }
    /* a frame was taken and maybe only queued: run again for the next one */
    if (s->common.run && s->common.run->nb_frames != nb_frames)
        ff_filter_set_ready(ctx, 100);
    return 0;
}

/* An error stays: after it the queue is not to be trusted (a submit that
 * failed part way leaves a slot that looks idle while kernels may read its
 * frames), for an API user who goes on activating the graph. */
static int activate(AVFilterContext *ctx)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    int ret;

    if (s->failed < 0)
        return s->failed;
    ret = run_queue(ctx);
    if (ret < 0 && ret != FFERROR_NOT_READY)
        s->failed = ret;
    return ret;
}

static av_cold void uninit(AVFilterContext *ctx)
{
    SSIMULACRA2CudaContext *s = ctx->priv;

    /* (-frames is not told to the graph: ffmpeg stops taking frames) */
    if (s->deferred_err && !s->failed)
        av_log(ctx, AV_LOG_WARNING, "The error above was at a frame read ahead (queue_depth) "
               "%s: it does not fail the run%s.\n", s->closed_first ?
               "past the last one the output took" : "and was not returned: ffmpeg stopped "
               "taking frames first (-frames, q, or an error elsewhere)", s->closed_first ?
               ", as the CPU filter ssimulacra2 never reads that frame" :
               "; where -frames ended the output, the CPU filter ssimulacra2 never reads that "
               "frame either");
    if (s->hwctx) {
        CudaFunctions *cu = s->hwctx->internal->cuda_dl;

        /* frames still queued (the output was closed early, or ffmpeg rebuilds
         * the graph) cannot be output: not scored either, as the CPU filter
         * scores only what it passes on; a rebuilt graph counts them lost */
        for (int i = 0; s->common.run && i < s->count; i++)
            s->common.run->nb_held += s->slots[(s->head + i) % s->nb_slots].scored;
        if (push_context(ctx) >= 0) {
            /* their kernels end before the memory goes */
            for (int i = 0; i < MAX_QUEUE; i++)
                if (s->slots[i].stream)
                    CHECK_CU(cu->cuStreamSynchronize(s->slots[i].stream));
            free_scratch(ctx);
            for (int i = 0; i < MAX_QUEUE; i++) {
                UploadPair *pair = &s->uploads[i];
                for (int k = 0; k < 2; k++)
                    free_upload(ctx, &pair->img[k]);
                if (pair->done)
                    CHECK_CU(cu->cuEventDestroy(pair->done));
            }
            for (int i = 0; i < MAX_QUEUE; i++) {
                Slot *slot = &s->slots[i];
                if (slot->result)
                    CHECK_CU(cu->cuMemFree(slot->result));
                if (slot->ready)
                    CHECK_CU(cu->cuEventDestroy(slot->ready));
                if (slot->stream)
                    CHECK_CU(cu->cuStreamDestroy(slot->stream));
            }
            if (s->module)
                CHECK_CU(cu->cuModuleUnload(s->module));
            pop_context(ctx, 0);
        }
    }
    for (int i = 0; i < MAX_QUEUE; i++) {
        av_frame_free(&s->slots[i].main);
        av_frame_free(&s->slots[i].ref);
    }
    /* (before framesync goes: the reference frames it holds are counted) */
    ff_ssimulacra2_common_uninit(ctx, &s->common, &s->fs);
    ff_framesync_uninit(&s->fs);
    av_buffer_unref(&s->device_ref);
    s->hwctx = NULL;
}

#define OFFSET(x) offsetof(SSIMULACRA2CudaContext, x)
#define FLAGS AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM

static const AVOption ssimulacra2_cuda_options[] = {
    SSIMULACRA2_COMMON_OPTIONS(SSIMULACRA2CudaContext, FLAGS),
    { "queue_depth", "Set how many frames are in flight on the GPU (1: each frame is scored before it is passed on)",
        OFFSET(queue_depth), AV_OPT_TYPE_INT, { .i64 = 8 }, 1, MAX_QUEUE, FLAGS },
    { "max_memory", "Set the scratch memory (MiB) the frames in flight may use; at least one frame's is always allocated",
        OFFSET(max_memory), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, INT_MAX / 2, FLAGS, .unit = "max_memory" },
        { "auto", "enough for about 8 megapixels of frames in flight (4 frames at 1080p, 2 at 2160p), at most 2048 MiB",
            0, AV_OPT_TYPE_CONST, { .i64 = 0 }, 0, 0, FLAGS, .unit = "max_memory" },
    { "device", "Set the CUDA device that software frames are uploaded to, when no input is CUDA frames (default: -filter_hw_device, else the first)",
        OFFSET(device), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { NULL }
};

FRAMESYNC_DEFINE_CLASS(ssimulacra2_cuda, SSIMULACRA2CudaContext, fs);

static const AVFilterPad ssimulacra2_cuda_inputs[] = {
    {
        .name         = "main",
        .type         = AVMEDIA_TYPE_VIDEO,
        .config_props = config_input,
    },
    {
        .name         = "reference",
        .type         = AVMEDIA_TYPE_VIDEO,
        .config_props = config_input_ref,
    },
};

static const AVFilterPad ssimulacra2_cuda_outputs[] = {
    {
        .name          = "default",
        .type          = AVMEDIA_TYPE_VIDEO,
        .config_props  = config_output,
    },
};

const FFFilter ff_vf_ssimulacra2_cuda = {
    .p.name         = "ssimulacra2_cuda",
    .p.description  = NULL_IF_CONFIG_SMALL("Calculate the SSIMULACRA 2.1 score between two video streams on "
                                           "an NVIDIA GPU (input 0 distorted, input 1 reference)."),
    .p.priv_class   = &ssimulacra2_cuda_class,
    .p.flags        = AVFILTER_FLAG_METADATA_ONLY | AVFILTER_FLAG_SUPPORT_TIMELINE_INTERNAL |
                      AVFILTER_FLAG_SLICE_THREADS | AVFILTER_FLAG_HWDEVICE,
    .preinit        = ssimulacra2_cuda_framesync_preinit,
    .init           = init,
    .uninit         = uninit,
    .activate       = activate,
    .priv_size      = sizeof(SSIMULACRA2CudaContext),
    FILTER_INPUTS(ssimulacra2_cuda_inputs),
    FILTER_OUTPUTS(ssimulacra2_cuda_outputs),
    FILTER_QUERY_FUNC2(ff_ssimulacra2_query_formats),
    .flags_internal = FF_FILTER_FLAG_HWFRAME_AWARE,
};
