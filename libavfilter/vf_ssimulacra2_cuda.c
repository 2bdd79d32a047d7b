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
 * reference input, both CUDA frames, with the same score as the CPU filter
 * ssimulacra2, bit for bit.
 *
 * Per frame, one chain of kernel launches on a stream of the filter (the
 * plan of vf_ssimulacra2_cuda_plan.c), reading the input surfaces in place;
 * the only copy is the per-frame block of
 * reduced sums (a few KB) back to the host, which pools and scores it with
 * the CPU filter's function. Frames stay in a small queue (queue_depth) so
 * that the host never waits for the frame it has just queued, and frames
 * overlap on the GPU when there is scratch memory for more than one.
 */

#include <string.h>

#include "libavutil/common.h"
#include "libavutil/cuda_check.h"
#include "libavutil/hwcontext.h"
#include "libavutil/hwcontext_cuda_internal.h"
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
    int max_memory;         ///< MiB of scratch memory for the frames in flight

    AVBufferRef *device_ref;
    AVCUDADeviceContext *hwctx;
    CUmodule module;
    CUfunction fn[SSIMU2_KERNEL_NB];

    SSIMU2CudaLayout layout;               ///< of every scratch set (w, h 0 before the first)
    int nb_scratch, next_scratch;
    Scratch scratch[MAX_QUEUE];
    SSIMU2CudaLaunch plan[SSIMU2_CUDA_MAX_LAUNCHES];

    Slot slots[MAX_QUEUE];
    int nb_slots;                          ///< slots with a stream (queue_depth once configured)
    int head, count;
} SSIMULACRA2CudaContext;

/* The sw_formats of 8.1's CUDA hwcontext that the CPU filter reads (the RGB32
 * aliases of the hwcontext are rgba/bgra/rgb0/bgr0 on little-endian hosts). */
static const enum AVPixelFormat cuda_sw_formats[] = {
    AV_PIX_FMT_NV12, AV_PIX_FMT_P010, AV_PIX_FMT_P016,
    AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUV444P,
    AV_PIX_FMT_YUV420P10, AV_PIX_FMT_YUV422P10, AV_PIX_FMT_YUV444P10,
    AV_PIX_FMT_YUV444P16, AV_PIX_FMT_NV16, AV_PIX_FMT_P210, AV_PIX_FMT_P216,
#ifdef AV_PIX_FMT_YUV444P10MSB
    AV_PIX_FMT_YUV444P10MSB, AV_PIX_FMT_YUV444P12MSB,
#endif
    AV_PIX_FMT_RGB0, AV_PIX_FMT_BGR0, AV_PIX_FMT_0RGB, AV_PIX_FMT_0BGR,
    AV_PIX_FMT_RGBA, AV_PIX_FMT_BGRA, AV_PIX_FMT_ARGB, AV_PIX_FMT_ABGR,
    AV_PIX_FMT_NONE
};

static enum AVPixelFormat sw_format_of(const AVFrame *frame)
{
    return ((AVHWFramesContext *)frame->hw_frames_ctx->data)->sw_format;
}

static int launch(AVFilterContext *ctx, CUstream stream, SSIMU2CudaLaunch *l)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    CudaFunctions *cu = s->hwctx->internal->cuda_dl;
    void *args[] = { &l->p };

    return CHECK_CU(cu->cuLaunchKernel(s->fn[l->kernel], l->grid[0], l->grid[1], l->grid[2],
                                       l->block[0], l->block[1], 1, 0, stream, args, NULL));
}

/** Free the scratch sets; the queue must be empty and the context pushed. */
static void free_scratch(AVFilterContext *ctx)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    CudaFunctions *cu = s->hwctx->internal->cuda_dl;

    for (int i = 0; i < MAX_QUEUE; i++) {
        Scratch *sc = &s->scratch[i];
        if (sc->mem)
            CHECK_CU(cu->cuMemFree(sc->mem));
        if (sc->done)
            CHECK_CU(cu->cuEventDestroy(sc->done));
        memset(sc, 0, sizeof(*sc));
    }
    s->nb_scratch = s->next_scratch = 0;
    s->layout.w = s->layout.h = 0;
}

/** Allocate the scratch sets for w x h frames; the context must be pushed. */
static int alloc_scratch(AVFilterContext *ctx, int w, int h)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    CudaFunctions *cu = s->hwctx->internal->cuda_dl;
    SSIMU2CudaLayout *l = &s->layout;
    int ret = 0, nb_sets;

    free_scratch(ctx);
    ff_ssimu2_cuda_layout(l, w, h, (size_t)s->max_memory << 20);
    /* frames overlap on the GPU only as far as their scratch sets fit */
    nb_sets = av_clip(((size_t)s->max_memory << 20) / l->bytes, 1, s->queue_depth);

    for (int i = 0; i < nb_sets; i++) {
        Scratch *sc = &s->scratch[i];
        CUresult res = cu->cuMemAlloc(&sc->mem, l->bytes);
        if (res == CU_OUT_OF_MEMORY && i > 0) {
            /* fewer frames in flight, the same scores */
            av_log(ctx, AV_LOG_WARNING, "Only %d of %d scratch sets of %.1f MiB fit in the GPU's "
                   "free memory: fewer frames in flight.\n", i, nb_sets, l->bytes / 1048576.0);
            sc->mem = 0;
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
        ret = CHECK_CU(cu->cuEventCreate(&sc->done, CU_EVENT_DISABLE_TIMING));
        if (ret < 0)
            goto fail;
    }
    av_log(ctx, AV_LOG_VERBOSE, "%dx%d, %d scales: %d scratch set(s) of %.1f MiB, "
           "%d kernel launches per frame, blur of all scales at once, %s "
           "(twice for a reference with alpha)\n",
           w, h, l->nb_scales, s->nb_scratch, l->bytes / 1048576.0,
           l->nb_scales + 2 * (3 / l->groups) + 1,
           l->groups == 3 ? "3 channels per launch" : "1 channel per launch (max_memory)");
    return 0;
fail:
    free_scratch(ctx);
    return ret;
}

/** Queue the kernels of one frame pair (its plan) on the slot's stream. */
static int submit(AVFilterContext *ctx, Slot *slot, const AVFrame *main, const AVFrame *ref)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    CudaFunctions *cu = s->hwctx->internal->cuda_dl;
    const enum AVPixelFormat fmt[2] = { sw_format_of(ref), sw_format_of(main) };
    const AVPixFmtDescriptor *const desc[2] = { av_pix_fmt_desc_get(fmt[0]),
                                                av_pix_fmt_desc_get(fmt[1]) };
    const AVFrame *const frames[2] = { ref, main };
    SSIMU2CudaParams p;
    Scratch *sc = &s->scratch[s->next_scratch];
    CUcontext dummy;
    int ret, ret2, nb_launches;

    memset(&p, 0, sizeof(p));
    for (int i = 0; i < 4; i++) {
        p.in_data[0][i]     = (uintptr_t)ref->data[i];
        p.in_linesize[0][i] = ref->linesize[i];
        p.in_data[1][i]     = (uintptr_t)main->data[i];
        p.in_linesize[1][i] = main->linesize[i];
    }
    ret = ff_ssimulacra2_colour_pair(ctx, &s->common, fmt, frames, p.colour);
    if (ret < 0)
        return ret;
    p.result    = slot->result;
    nb_launches = ff_ssimu2_cuda_plan(&s->layout, &p, sc->mem, desc, s->plan);

    ret = CHECK_CU(cu->cuCtxPushCurrent(s->hwctx->cuda_ctx));
    if (ret < 0)
        return ret;
    s->next_scratch = (s->next_scratch + 1) % s->nb_scratch;
    /* decoder / upload work on the frames' stream comes first */
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
    if (ret >= 0) {
        sc->used        = 1;
        slot->scored    = 1;
        slot->nb_passes = ff_ssimu2_cuda_nb_passes(desc[0]);
        slot->nb_scales = s->layout.nb_scales;
        slot->w         = s->layout.w;
        slot->h         = s->layout.h;
    }
    ret2 = CHECK_CU(cu->cuCtxPopCurrent(&dummy));
    return ret < 0 ? ret : ret2;
}

/** Wait for the oldest frame of the queue, score it and output it (or drop it). */
static int collect(AVFilterContext *ctx, int output)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    CudaFunctions *cu = s->hwctx->internal->cuda_dl;
    Slot *slot = &s->slots[s->head];
    AVFrame *main = slot->main;
    int ret = 0;

    slot->main = NULL;
    s->head = (s->head + 1) % s->nb_slots;
    s->count--;

    if (slot->scored) {
        CUcontext dummy;
        int ret2;

        slot->scored = 0;
        ret = CHECK_CU(cu->cuCtxPushCurrent(s->hwctx->cuda_ctx));
        if (ret >= 0) {
            /* pageable destination: returns when this slot's work is done */
            ret = CHECK_CU(cu->cuMemcpyDtoHAsync(slot->host, slot->result,
                                                 SSIMU2_CUDA_RESULT_SIZE, slot->stream));
            if (ret >= 0)
                ret = CHECK_CU(cu->cuStreamSynchronize(slot->stream));
            ret2 = CHECK_CU(cu->cuCtxPopCurrent(&dummy));
            if (ret >= 0)
                ret = ret2;
        }
        av_frame_free(&slot->ref);
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
    if (ret < 0 || !output) {
        av_frame_free(&main);
        return ret;
    }
    return ff_filter_frame(ctx->outputs[0], main);
}

static int drain(AVFilterContext *ctx, int output)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    int ret = 0;

    while (s->count) {
        int r = collect(ctx, output);
        if (ret >= 0)
            ret = r;
        if (ret < 0 && output)
            return ret;
    }
    return ret;
}

/** Per-frame checks of the frames themselves (sizes, sw_format, device). */

/* Each hwupload_cuda opens a device context of its own, so two of them give
 * two contexts even on one GPU: say how to share one. */
static int different_devices(AVFilterContext *ctx)
{
    av_log(ctx, AV_LOG_ERROR, "The inputs are on different CUDA device contexts. Use one device "
           "for both: decode both with -hwaccel cuda -hwaccel_output_format cuda, or create one "
           "device and upload with it (-init_hw_device cuda=gpu -filter_hw_device gpu and "
           "format=nv12,hwupload on each input; two hwupload_cuda filters open two contexts).\n");
    return AVERROR(EINVAL);
}

static int check_frames(AVFilterContext *ctx, const AVFrame *main, const AVFrame *ref)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    AVHWFramesContext *fm, *fr;
    int ret;

    if (!main->hw_frames_ctx || !ref->hw_frames_ctx) {
        av_log(ctx, AV_LOG_ERROR, "A frame without a CUDA frames context reached ssimulacra2_cuda.\n");
        return AVERROR(EINVAL);
    }
    fm = (AVHWFramesContext *)main->hw_frames_ctx->data;
    fr = (AVHWFramesContext *)ref->hw_frames_ctx->data;
    ret = ff_ssimulacra2_check_pair(ctx, 0, main->width, main->height, fm->sw_format,
                                    ref->width, ref->height, fr->sw_format, cuda_sw_formats);
    if (ret < 0)
        return ret;
    if (fm->device_ctx != (AVHWDeviceContext *)s->device_ref->data ||
        fr->device_ctx != (AVHWDeviceContext *)s->device_ref->data) {
        return different_devices(ctx);
    }
    return 0;
}

static int do_ssimulacra2_cuda(FFFrameSync *fs)
{
    AVFilterContext *ctx = fs->parent;
    SSIMULACRA2CudaContext *s = ctx->priv;
    AVFrame *main, *ref;
    Slot *slot;
    int64_t index;
    int ret, scored;

    ret = ff_framesync_dualinput_get(fs, &main, &ref);
    if (ret < 0)
        return ret;
    scored = ff_ssimulacra2_next_frame(ctx, &s->common, main, ref, &index);
    if (!scored && !s->count)
        return ff_filter_frame(ctx->outputs[0], main);

    if (scored) {
        ret = check_frames(ctx, main, ref);
        if (ret >= 0 && (main->width != s->layout.w || main->height != s->layout.h)) {
            CudaFunctions *cu = s->hwctx->internal->cuda_dl;
            CUcontext dummy;
            int ret2;
            /* new geometry: finish the frames that use the old buffers */
            ret = drain(ctx, 1);
            if (ret >= 0)
                ret = CHECK_CU(cu->cuCtxPushCurrent(s->hwctx->cuda_ctx));
            if (ret >= 0) {
                ret  = alloc_scratch(ctx, main->width, main->height);
                ret2 = CHECK_CU(cu->cuCtxPopCurrent(&dummy));
                if (ret >= 0)
                    ret = ret2;
            }
        }
        if (ret < 0) {
            av_frame_free(&main);
            return ret;
        }
    }

    slot = &s->slots[(s->head + s->count) % s->nb_slots];
    slot->main   = main;
    slot->index  = index;
    slot->scored = 0;
    s->count++;
    if (scored) {
        slot->ref = av_frame_clone(ref);
        if (!slot->ref)
            return AVERROR(ENOMEM);
        ret = submit(ctx, slot, main, ref);
        if (ret < 0)
            return ret;
    }
    /* frame N is collected once frame N + queue_depth - 1 is queued */
    while (s->count >= s->queue_depth) {
        ret = collect(ctx, 1);
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
    FilterLink *l = ff_filter_link(inlink);

    if (inlink->format != AV_PIX_FMT_CUDA) {
        av_log(ctx, AV_LOG_ERROR, "ssimulacra2_cuda needs CUDA frames but input '%s' is %s: "
               "decode with -hwaccel cuda -hwaccel_output_format cuda, or upload both inputs on one "
               "device (-init_hw_device cuda=gpu -filter_hw_device gpu, format=nv12,hwupload), "
               "or use the CPU filter ssimulacra2\n",
               inlink->dstpad->name, av_get_pix_fmt_name(inlink->format));
        return AVERROR(EINVAL);
    }
    if (!l->hw_frames_ctx) {
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
    /* the main input's config_input has run, the error is ours if it is not CUDA */
    fm = (AVHWFramesContext *)ff_filter_link(mainlink)->hw_frames_ctx->data;
    fr = (AVHWFramesContext *)ff_filter_link(inlink)->hw_frames_ctx->data;
    ret = ff_ssimulacra2_check_pair(ctx, 1, mainlink->w, mainlink->h, fm->sw_format,
                                    inlink->w, inlink->h, fr->sw_format, cuda_sw_formats);
    if (ret < 0)
        return ret;
    if (fm->device_ctx != fr->device_ctx)
        return different_devices(ctx);
    return 0;
}

/** Load the module, get the kernels, create the slots' streams (the context must be pushed). */
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
    if (ret < 0)
        return ret;
    av_log(ctx, AV_LOG_VERBOSE, "PTX module loaded in %.1f ms\n",
           (av_gettime_relative() - t0) / 1000.0);
    for (int k = 0; k < SSIMU2_KERNEL_NB; k++)
        if ((ret = CHECK_CU(cu->cuModuleGetFunction(&s->fn[k], s->module,
                                                    ff_ssimu2_cuda_kernel_names[k]))) < 0)
            return ret;

    for (int i = 0; i < s->queue_depth; i++) {
        Slot *slot = &s->slots[i];
        if ((ret = CHECK_CU(cu->cuStreamCreate(&slot->stream, CU_STREAM_NON_BLOCKING))) < 0 ||
            (ret = CHECK_CU(cu->cuEventCreate(&slot->ready, CU_EVENT_DISABLE_TIMING))) < 0 ||
            (ret = CHECK_CU(cu->cuMemAlloc(&slot->result, SSIMU2_CUDA_RESULT_SIZE))) < 0 ||
            /* slots of absent scales and passes are copied back too: defined zeros */
            (ret = CHECK_CU(cu->cuMemsetD8Async(slot->result, 0, SSIMU2_CUDA_RESULT_SIZE,
                                                slot->stream))) < 0)
            return ret;
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
    AVHWFramesContext *frames = (AVHWFramesContext *)il->hw_frames_ctx->data;
    CudaFunctions *cu;
    CUcontext dummy;
    int ret, ret2;

    if (s->module) {
        av_log(ctx, AV_LOG_ERROR, "ssimulacra2_cuda cannot be reconfigured.\n");
        return AVERROR(ENOSYS);
    }
    s->device_ref = av_buffer_ref(frames->device_ref);
    if (!s->device_ref)
        return AVERROR(ENOMEM);
    s->hwctx = ((AVHWDeviceContext *)s->device_ref->data)->hwctx;
    cu = s->hwctx->internal->cuda_dl;

    av_buffer_unref(&ol->hw_frames_ctx);
    ol->hw_frames_ctx = av_buffer_ref(il->hw_frames_ctx);
    if (!ol->hw_frames_ctx)
        return AVERROR(ENOMEM);

    ret = CHECK_CU(cu->cuCtxPushCurrent(s->hwctx->cuda_ctx));
    if (ret < 0)
        return ret;
    ret = load_module(ctx);
    if (ret >= 0)
        ret = alloc_scratch(ctx, mainlink->w, mainlink->h);
    ret2 = CHECK_CU(cu->cuCtxPopCurrent(&dummy));
    if (ret < 0)
        return ret;
    if (ret2 < 0)
        return ret2;

    return ff_ssimulacra2_config_output(outlink, &s->fs, &s->common);
}

static int activate(AVFilterContext *ctx)
{
    SSIMULACRA2CudaContext *s = ctx->priv;
    int64_t nb_frames = s->common.run ? s->common.run->nb_frames : 0;
    int ret;

    ret = ff_framesync_activate(&s->fs);
    if (ret < 0)
        return ret;
    if (s->fs.eof) {
        /* framesync has ended the output: the frames still queued follow,
         * then the files are written, so that an error writing them fails the run */
        ret = drain(ctx, 1);
        return ret < 0 ? ret : ff_ssimulacra2_finish(ctx, &s->common);
    }
    /* a frame was taken and maybe only queued: run again for the next one */
    if (s->common.run && s->common.run->nb_frames != nb_frames)
        ff_filter_set_ready(ctx, 100);
    return 0;
}

static av_cold void uninit(AVFilterContext *ctx)
{
    SSIMULACRA2CudaContext *s = ctx->priv;

    ff_framesync_uninit(&s->fs);
    if (s->hwctx) {
        CudaFunctions *cu = s->hwctx->internal->cuda_dl;
        CUcontext dummy;

        /* frames still queued (the output was closed early) are scored, not output */
        drain(ctx, 0);
        if (CHECK_CU(cu->cuCtxPushCurrent(s->hwctx->cuda_ctx)) >= 0) {
            free_scratch(ctx);
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
            CHECK_CU(cu->cuCtxPopCurrent(&dummy));
        }
    }
    for (int i = 0; i < MAX_QUEUE; i++) {
        av_frame_free(&s->slots[i].main);
        av_frame_free(&s->slots[i].ref);
    }
    ff_ssimulacra2_common_uninit(ctx, &s->common);
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
        OFFSET(max_memory), AV_OPT_TYPE_INT, { .i64 = 2048 }, 1, INT_MAX / 2, FLAGS },
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
    .p.description  = NULL_IF_CONFIG_SMALL("Calculate the SSIMULACRA 2.1 score between two CUDA video streams "
                                           "(input 0 distorted, input 1 reference)."),
    .p.priv_class   = &ssimulacra2_cuda_class,
    .p.flags        = AVFILTER_FLAG_METADATA_ONLY | AVFILTER_FLAG_SUPPORT_TIMELINE_INTERNAL,
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
