/*
 * SSIMULACRA 2.1 perceptual metric, CPU filter
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
 * reference input, bit-exact with the reference tool's AVX2 build.
 *
 * Per frame: both inputs to linear RGB; per scale (downsampled in linear
 * RGB) positive XYB; per channel a horizontal blur of the five quantities
 * (rows split over slice threads) and a vertical blur fused with the
 * per-pixel terms (columns split over slice threads), each column summing
 * its terms top to bottom. Column sums are combined by ssimu2_tree_sum(),
 * so the score does not depend on the thread count.
 */

#include <string.h>

#include "libavutil/internal.h"
#include "libavutil/intreadwrite.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "libavutil/time.h"

#include "avfilter.h"
#include "filters.h"
#include "formats.h"
#include "framesync.h"
#include "ssimulacra2.h"
#include "ssimulacra2_dsp.h"
#include "video.h"

/** Columns per block of the vertical pass (its state stays in cache). */
#define COL_BLOCK 256

typedef struct SSIMULACRA2Context {
    const AVClass *class;
    FFFrameSync fs;
    SSIMULACRA2Common common;

    int w, h, nb_scales, nb_jobs;
    float *lin[2][2][3];   ///< [ping-pong][image][R,G,B]; image 0 = reference
    float *xyb[2][3];      ///< [image][X,Y,B] of the current scale
    float *blur[SSIMU2_NB_Q]; ///< horizontally blurred quantities of one channel
    double *colsum[SSIMU2_NB_SUMS];
    float *zero;           ///< a row of zeros (blur input outside the image)
    float **job_tmp;       ///< per job: row scratch, column state and outputs
    float *lut[2];         ///< per image: code value -> linear (RGB, gray)
    SSIMU2Colour lut_colour[2]; ///< parameters the tables were made with
    enum AVPixelFormat lut_fmt[2];
    SSIMULACRA2DSPContext dsp;
} SSIMULACRA2Context;

typedef struct ThreadData {
    const AVFrame *in[2];  ///< reference, distorted
    SSIMU2Colour colour[2];
    float bg;              ///< alpha background
    int src, dst;          ///< ping-pong indices
    int w, h;              ///< current scale size
    int sw, sh;            ///< previous scale size (downsampling)
    int channel;
} ThreadData;

static int read_sample(const AVFrame *f, const AVPixFmtDescriptor *desc, int c, int x, int y)
{
    const AVComponentDescriptor *comp = &desc->comp[c];
    const uint8_t *p = f->data[comp->plane] + (ptrdiff_t)y * f->linesize[comp->plane] +
                       x * comp->step + comp->offset;
    int v = comp->depth <= 8 ? *p : desc->flags & AV_PIX_FMT_FLAG_BE ? AV_RB16(p) : AV_RL16(p);
    return (v >> comp->shift) & ((1 << comp->depth) - 1);
}

/** Bilinear chroma of component c at luma (x, y), as a raw code value. */
static float read_chroma(const AVFrame *f, const AVPixFmtDescriptor *desc, const SSIMU2Colour *p,
                         int c, int x, int y, int w, int h)
{
    int cw = AV_CEIL_RSHIFT(w, desc->log2_chroma_w), ch = AV_CEIL_RSHIFT(h, desc->log2_chroma_h);
    float wx = 0.0f, wy = 0.0f;
    int x0 = x, y0 = y, x1, y1;

    if (desc->log2_chroma_w)
        x0 = ssimu2_chroma_tap(x, p->chroma_x0, &wx);
    if (desc->log2_chroma_h)
        y0 = ssimu2_chroma_tap(y, p->chroma_y0, &wy);
    x1 = av_clip(x0 + 1, 0, cw - 1);
    y1 = av_clip(y0 + 1, 0, ch - 1);
    x0 = av_clip(x0, 0, cw - 1);
    y0 = av_clip(y0, 0, ch - 1);
    return ssimu2_bilinear(read_sample(f, desc, c, x0, y0), read_sample(f, desc, c, x1, y0),
                           read_sample(f, desc, c, x0, y1), read_sample(f, desc, c, x1, y1),
                           wx, wy);
}

/**
 * Lookup table of linear values for RGB and gray without alpha: every code
 * value through the same arithmetic as the other paths, so it is exact.
 */
static int update_lut(SSIMULACRA2Context *s, int i, const AVFrame *f, const SSIMU2Colour *p)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(f->format);
    const int gray = !(desc->flags & AV_PIX_FMT_FLAG_RGB);
    const int n = 1 << desc->comp[0].depth;

    if (p->is_yuv || (desc->flags & AV_PIX_FMT_FLAG_ALPHA))
        return 0;
    if (s->lut[i] && s->lut_fmt[i] == f->format && !memcmp(&s->lut_colour[i], p, sizeof(*p)))
        return 0;
    av_freep(&s->lut[i]);
    if (!(s->lut[i] = av_malloc_array(n, sizeof(float))))
        return AVERROR(ENOMEM);
    s->lut_fmt[i] = f->format;
    for (int v = 0; v < n; v++) {
        float e = (v - p->y_off) * p->y_scale;
        s->lut[i][v] = ssimu2_eotf(p->transfer, gray ? ssimu2_clip01(e) : e);
    }
    s->lut_colour[i] = *p;
    return 0;
}

/** One row of an input frame (image i) to linear RGB. */
static void convert_row(const SSIMULACRA2Context *s, int i, const AVFrame *f,
                        const SSIMU2Colour *p, float bg, int y, float *r, float *g, float *b)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(f->format);

    if (p->is_yuv) {
        for (int x = 0; x < s->w; x++) {
            float u = read_chroma(f, desc, p, 1, x, y, s->w, s->h);
            float v = read_chroma(f, desc, p, 2, x, y, s->w, s->h);
            ssimu2_yuv_to_rgb(p, read_sample(f, desc, 0, x, y), u, v, &r[x], &g[x], &b[x]);
        }
    } else if (!(desc->flags & AV_PIX_FMT_FLAG_RGB)) {
        for (int x = 0; x < s->w; x++)
            r[x] = g[x] = b[x] = s->lut[i][read_sample(f, desc, 0, x, y)];
        return;
    } else if (!(desc->flags & AV_PIX_FMT_FLAG_ALPHA)) {
        for (int x = 0; x < s->w; x++) {
            r[x] = s->lut[i][read_sample(f, desc, 0, x, y)];
            g[x] = s->lut[i][read_sample(f, desc, 1, x, y)];
            b[x] = s->lut[i][read_sample(f, desc, 2, x, y)];
        }
        return;
    } else {
        for (int x = 0; x < s->w; x++) {
            float a = read_sample(f, desc, 3, x, y) * p->a_scale;
            float *dst[3] = { &r[x], &g[x], &b[x] };
            for (int c = 0; c < 3; c++)
                *dst[c] = ssimu2_blend((read_sample(f, desc, c, x, y) - p->y_off) * p->y_scale,
                                       a, bg);
        }
    }
    s->dsp.eotf_row(r, s->w, p->transfer);
    s->dsp.eotf_row(g, s->w, p->transfer);
    s->dsp.eotf_row(b, s->w, p->transfer);
}

static int convert_slice(AVFilterContext *ctx, void *arg, int jobnr, int nb_jobs)
{
    SSIMULACRA2Context *s = ctx->priv;
    ThreadData *td = arg;
    int y0 = s->h * jobnr / nb_jobs, y1 = s->h * (jobnr + 1) / nb_jobs;

    for (int i = 0; i < 2; i++)
        for (int y = y0; y < y1; y++) {
            ptrdiff_t o = (ptrdiff_t)y * s->w;
            convert_row(s, i, td->in[i], &td->colour[i], td->bg, y,
                        s->lin[0][i][0] + o, s->lin[0][i][1] + o, s->lin[0][i][2] + o);
        }
    return 0;
}

/** Downsample the previous scale's linear RGB, then XYB of the current scale. */
static int scale_slice(AVFilterContext *ctx, void *arg, int jobnr, int nb_jobs)
{
    SSIMULACRA2Context *s = ctx->priv;
    ThreadData *td = arg;
    int y0 = td->h * jobnr / nb_jobs, y1 = td->h * (jobnr + 1) / nb_jobs;

    for (int i = 0; i < 2; i++) {
        float *const *dst = s->lin[td->dst][i];
        if (td->src != td->dst) {
            float *const *src = s->lin[td->src][i];
            for (int c = 0; c < 3; c++)
                for (int y = y0; y < y1; y++) {
                    const float *r0 = src[c] + (ptrdiff_t)(2 * y) * td->sw;
                    const float *r1 = src[c] + (ptrdiff_t)FFMIN(2 * y + 1, td->sh - 1) * td->sw;
                    float *d = dst[c] + (ptrdiff_t)y * td->w;
                    for (int x = 0; x < td->w; x++) {
                        int xa = 2 * x, xb = FFMIN(2 * x + 1, td->sw - 1);
                        d[x] = ssimu2_box4(r0[xa], r0[xb], r1[xa], r1[xb]);
                    }
                }
        }
        for (int y = y0; y < y1; y++) {
            ptrdiff_t o = (ptrdiff_t)y * td->w;
            s->dsp.xyb_row(dst[0] + o, dst[1] + o, dst[2] + o, td->w,
                           s->xyb[i][0] + o, s->xyb[i][1] + o, s->xyb[i][2] + o);
        }
    }
    return 0;
}

static int blur_rows_slice(AVFilterContext *ctx, void *arg, int jobnr, int nb_jobs)
{
    SSIMULACRA2Context *s = ctx->priv;
    ThreadData *td = arg;
    int y0 = td->h * jobnr / nb_jobs, y1 = td->h * (jobnr + 1) / nb_jobs;

    for (int y = y0; y < y1; y++) {
        ptrdiff_t o = (ptrdiff_t)y * td->w;
        float *out[SSIMU2_NB_Q];
        for (int q = 0; q < SSIMU2_NB_Q; q++)
            out[q] = s->blur[q] + o;
        s->dsp.blur_rows(s->xyb[0][td->channel] + o, s->xyb[1][td->channel] + o, td->w,
                         s->job_tmp[jobnr], out);
    }
    return 0;
}

static int blur_cols_slice(AVFilterContext *ctx, void *arg, int jobnr, int nb_jobs)
{
    SSIMULACRA2Context *s = ctx->priv;
    ThreadData *td = arg;
    int nb_blocks = (td->w + COL_BLOCK - 1) / COL_BLOCK;
    int b0 = nb_blocks * jobnr / nb_jobs, b1 = nb_blocks * (jobnr + 1) / nb_jobs;
    float *state = s->job_tmp[jobnr];
    float *out   = state + 2 * 3 * SSIMU2_NB_Q * COL_BLOCK;

    for (int b = b0; b < b1; b++) {
        int x0 = b * COL_BLOCK, x1 = FFMIN(x0 + COL_BLOCK, td->w);
        s->dsp.blur_cols((const float *const *)s->blur, s->xyb[0][td->channel],
                         s->xyb[1][td->channel], td->w, td->h, x0, x1, s->zero,
                         state, out, s->colsum);
    }
    return 0;
}

/** Score of one frame pair for one alpha background. */
static double compute_score(AVFilterContext *ctx, ThreadData *td)
{
    SSIMULACRA2Context *s = ctx->priv;
    double sums[SSIMU2_MAX_SCALES][3][SSIMU2_NB_SUMS];
    int nb_jobs = s->nb_jobs;

    td->w = s->w;
    td->h = s->h;
    ff_filter_execute(ctx, convert_slice, td, NULL, FFMIN(s->h, nb_jobs));
    for (int scale = 0; scale < s->nb_scales; scale++) {
        td->src = scale & 1 ? 0 : 1;
        td->dst = scale & 1;
        if (!scale)
            td->src = td->dst = 0;
        td->sw = td->w;
        td->sh = td->h;
        if (scale) {
            td->w = (td->w + 1) >> 1;
            td->h = (td->h + 1) >> 1;
        }
        ff_filter_execute(ctx, scale_slice, td, NULL, FFMIN(td->h, nb_jobs));
        for (int c = 0; c < 3; c++) {
            int nb_blocks = (td->w + COL_BLOCK - 1) / COL_BLOCK;
            td->channel = c;
            ff_filter_execute(ctx, blur_rows_slice, td, NULL, FFMIN(td->h, nb_jobs));
            for (int k = 0; k < SSIMU2_NB_SUMS; k++)
                memset(s->colsum[k], 0, td->w * sizeof(*s->colsum[k]));
            ff_filter_execute(ctx, blur_cols_slice, td, NULL, FFMIN(nb_blocks, nb_jobs));
            for (int k = 0; k < SSIMU2_NB_SUMS; k++)
                sums[scale][c][k] = ssimu2_tree_sum(s->colsum[k], td->w);
        }
    }
    return ff_ssimulacra2_score(sums, s->nb_scales, s->w, s->h);
}

static int alloc_buffers(AVFilterContext *ctx, int w, int h);

/** The frames of the pair, which may differ from the links' (no graph rebuild). */
static int check_frames(AVFilterContext *ctx, const AVFrame *main, const AVFrame *ref)
{
    SSIMULACRA2Context *s = ctx->priv;
    int ret = ff_ssimulacra2_check_pair(ctx, 0, main->width, main->height, main->format,
                                        ref->width, ref->height, ref->format,
                                        ff_ssimulacra2_pix_fmts);
    if (ret < 0)
        return ret;
    if (main->width == s->w && main->height == s->h)
        return 0;
    av_log(ctx, AV_LOG_VERBOSE, "Frame size changed from %dx%d to %dx%d.\n",
           s->w, s->h, main->width, main->height);
    return alloc_buffers(ctx, main->width, main->height);
}

static int do_ssimulacra2(FFFrameSync *fs)
{
    AVFilterContext *ctx = fs->parent;
    SSIMULACRA2Context *s = ctx->priv;
    AVFrame *main, *ref;
    ThreadData td = { 0 };
    int64_t index, t0;
    double score;
    int ret;

    ret = ff_framesync_dualinput_get(fs, &main, &ref);
    if (ret < 0)
        return ret;
    if (!ff_ssimulacra2_next_frame(ctx, &s->common, main, ref, &index))
        return ff_filter_frame(ctx->outputs[0], main);

    t0 = av_gettime_relative();
    td.in[0] = ref;
    td.in[1] = main;
    ret = check_frames(ctx, main, ref);
    if (ret >= 0) {
        const enum AVPixelFormat fmt[2] = { ref->format, main->format };
        ret = ff_ssimulacra2_colour_pair(ctx, &s->common, fmt, td.in, td.colour);
    }
    for (int i = 0; ret >= 0 && i < 2; i++)
        ret = update_lut(s, i, td.in[i], &td.colour[i]);
    if (ret < 0) {
        av_frame_free(&main);
        return ret;
    }
    if (ff_ssimulacra2_has_alpha(ref->format)) {
        /* the reference tool: reference with alpha -> worse of two backgrounds;
         * each image is blended only if it has alpha */
        td.bg = 0.1f;
        score = compute_score(ctx, &td);
        td.bg = 0.9f;
        score = FFMIN(score, compute_score(ctx, &td));
    } else {
        td.bg = 0.5f;
        score = compute_score(ctx, &td);
    }
    ret = ff_ssimulacra2_report(ctx, &s->common, main, index, score,
                                (av_gettime_relative() - t0) / 1000.0);
    if (ret < 0) {
        av_frame_free(&main);
        return ret;
    }
    return ff_filter_frame(ctx->outputs[0], main);
}

static av_cold int init(AVFilterContext *ctx)
{
    SSIMULACRA2Context *s = ctx->priv;

    s->fs.on_event = do_ssimulacra2;
    ff_ssimulacra2_dsp_init(&s->dsp);
    return ff_ssimulacra2_common_init(ctx, &s->common);
}

static void free_buffers(SSIMULACRA2Context *s)
{
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < 2; i++)
            for (int c = 0; c < 3; c++)
                av_freep(&s->lin[p][i][c]);
    for (int i = 0; i < 2; i++)
        for (int c = 0; c < 3; c++)
            av_freep(&s->xyb[i][c]);
    for (int q = 0; q < SSIMU2_NB_Q; q++)
        av_freep(&s->blur[q]);
    for (int k = 0; k < SSIMU2_NB_SUMS; k++)
        av_freep(&s->colsum[k]);
    av_freep(&s->zero);
    av_freep(&s->lut[0]);
    av_freep(&s->lut[1]);
    for (int j = 0; s->job_tmp && j < s->nb_jobs; j++)
        av_freep(&s->job_tmp[j]);
    av_freep(&s->job_tmp);
}

static int alloc_buffers(AVFilterContext *ctx, int w, int h)
{
    SSIMULACRA2Context *s = ctx->priv;
    size_t plane = (size_t)w * h;
    size_t half  = (size_t)((w + 1) >> 1) * ((h + 1) >> 1);
    /* column state and outputs, or one row of products */
    size_t job_floats = FFMAX((2 * 3 + 1) * SSIMU2_NB_Q * COL_BLOCK, w);
    int nb_jobs = ff_filter_get_nb_threads(ctx);

    free_buffers(s);
    s->w = s->h = 0;
    for (int i = 0; i < 2; i++)
        for (int c = 0; c < 3; c++) {
            s->lin[0][i][c] = av_malloc_array(plane, sizeof(float));
            s->lin[1][i][c] = av_malloc_array(half, sizeof(float));
            s->xyb[i][c]    = av_malloc_array(plane, sizeof(float));
            if (!s->lin[0][i][c] || !s->lin[1][i][c] || !s->xyb[i][c])
                goto nomem;
        }
    for (int q = 0; q < SSIMU2_NB_Q; q++)
        if (!(s->blur[q] = av_malloc_array(plane, sizeof(float))))
            goto nomem;
    for (int k = 0; k < SSIMU2_NB_SUMS; k++)
        if (!(s->colsum[k] = av_malloc_array(w, sizeof(double))))
            goto nomem;
    if (!(s->zero = av_calloc(w, sizeof(float))) ||
        !(s->job_tmp = av_calloc(nb_jobs, sizeof(*s->job_tmp))))
        goto nomem;
    s->nb_jobs = nb_jobs;
    for (int j = 0; j < nb_jobs; j++)
        if (!(s->job_tmp[j] = av_malloc_array(job_floats, sizeof(float))))
            goto nomem;
    s->w         = w;
    s->h         = h;
    s->nb_scales = ssimu2_nb_scales(w, h);
    return 0;
nomem:
    free_buffers(s);
    ff_ssimulacra2_log_nomem(ctx, "ssimulacra2", w, h,
                             ((2 * 3 * 2 + SSIMU2_NB_Q) * (double)plane + 2 * 3 * (double)half) *
                             sizeof(float) + SSIMU2_NB_SUMS * (double)w * sizeof(double) +
                             (double)nb_jobs * job_floats * sizeof(float));
    return AVERROR(ENOMEM);
}

static int config_input_ref(AVFilterLink *inlink)
{
    AVFilterContext *ctx = inlink->dst;
    AVFilterLink *mainlink = ctx->inputs[0];
    int ret;

    if (mainlink->format == AV_PIX_FMT_CUDA || inlink->format == AV_PIX_FMT_CUDA) {
        av_log(ctx, AV_LOG_ERROR, "CUDA frames given to the CPU filter ssimulacra2: use "
               "ssimulacra2_cuda, or hwdownload,format=<sw format> on both inputs.\n");
        return AVERROR(EINVAL);
    }
    ret = ff_ssimulacra2_check_pair(ctx, 1, mainlink->w, mainlink->h, mainlink->format,
                                    inlink->w, inlink->h, inlink->format, ff_ssimulacra2_pix_fmts);
    if (ret < 0)
        return ret;
    return alloc_buffers(ctx, inlink->w, inlink->h);
}

static int config_output(AVFilterLink *outlink)
{
    SSIMULACRA2Context *s = outlink->src->priv;
    return ff_ssimulacra2_config_output(outlink, &s->fs, &s->common);
}

static int activate(AVFilterContext *ctx)
{
    SSIMULACRA2Context *s = ctx->priv;
    int ret = ff_framesync_activate(&s->fs);

    /* the end of the inputs: the files are written now, so that an error
     * writing them fails the run */
    if (ret >= 0 && s->fs.eof)
        ret = ff_ssimulacra2_finish(ctx, &s->common);
    return ret;
}

static av_cold void uninit(AVFilterContext *ctx)
{
    SSIMULACRA2Context *s = ctx->priv;

    ff_ssimulacra2_common_uninit(ctx, &s->common);
    ff_framesync_uninit(&s->fs);
    free_buffers(s);
}

#define FLAGS AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM

static const AVOption ssimulacra2_options[] = {
    SSIMULACRA2_COMMON_OPTIONS(SSIMULACRA2Context, FLAGS),
    { NULL }
};

FRAMESYNC_DEFINE_CLASS(ssimulacra2, SSIMULACRA2Context, fs);

static const AVFilterPad ssimulacra2_inputs[] = {
    {
        .name         = "main",
        .type         = AVMEDIA_TYPE_VIDEO,
    },
    {
        .name         = "reference",
        .type         = AVMEDIA_TYPE_VIDEO,
        .config_props = config_input_ref,
    },
};

static const AVFilterPad ssimulacra2_outputs[] = {
    {
        .name          = "default",
        .type          = AVMEDIA_TYPE_VIDEO,
        .config_props  = config_output,
    },
};

const FFFilter ff_vf_ssimulacra2 = {
    .p.name        = "ssimulacra2",
    .p.description = NULL_IF_CONFIG_SMALL("Calculate the SSIMULACRA 2.1 score between two video streams "
                                          "(input 0 distorted, input 1 reference)."),
    .p.priv_class  = &ssimulacra2_class,
    .p.flags       = AVFILTER_FLAG_SUPPORT_TIMELINE_INTERNAL |
                     AVFILTER_FLAG_SLICE_THREADS             |
                     AVFILTER_FLAG_METADATA_ONLY,
    .preinit       = ssimulacra2_framesync_preinit,
    .init          = init,
    .uninit        = uninit,
    .activate      = activate,
    .priv_size     = sizeof(SSIMULACRA2Context),
    FILTER_INPUTS(ssimulacra2_inputs),
    FILTER_OUTPUTS(ssimulacra2_outputs),
    FILTER_QUERY_FUNC2(ff_ssimulacra2_query_formats),
};
