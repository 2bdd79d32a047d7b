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
 * Per frame and scale, the rows are processed in bands of SSIMU2_BAND rows:
 * each row is converted to linear RGB (scale 0) or read from the pyramid,
 * turned into XYB, blurred horizontally (15 recursions side by side, one per
 * channel and quantity) into a ring of rows, and averaged 2x2 into the next
 * scale; a few bands later, each block of columns advances its vertical blur
 * through the band, fused with the per-pixel terms, each column summing its
 * terms top to bottom. Row pairs and column blocks are the tasks that the
 * threads of one slice-thread call per frame take in order
 * (ssimulacra2_tasks.c), so a frame needs rings instead of whole planes.
 * Column sums are combined by ssimu2_tree_sum(), so the score does not
 * depend on the thread count.
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
#include "ssimulacra2_tasks.h"
#include "video.h"

#if SSIMU2_COL_BLOCK != SSIMU2_TILE
#error "a column block must be one tile of the blurred rows"
#endif

/** Floats per column of a block: recursion state (2 x 3 x 5) and outputs (5). */
#define COL_FLOATS (2 * 3 * SSIMU2_NB_Q + SSIMU2_NB_Q)
/**
 * Per column of a thread's row scratch: linear RGB of two rows of both images
 * (2 x 2 x 3 floats), then the unpacked samples (ints: luma and two rows of
 * each chroma plane, or up to four RGBA planes), then the blur lanes.
 */
#define ROW_RGB_FLOATS  (2 * 2 * 3)
#define ROW_UNPACK_INTS 5

typedef struct SSIMULACRA2Context {
    const AVClass *class;
    FFFrameSync fs;
    SSIMULACRA2Common common;

    int w, h;              ///< frame size the buffers are for (0: none)
    SSIMU2Tasks tasks;     ///< geometry of the scales, ring size, order of the work
    float *pyr[SSIMU2_MAX_SCALES][2][3]; ///< linear RGB of scales 1.., [image][R,G,B]; image 0 = reference
    float *xyb[2][3];      ///< ring of XYB rows, [image][X,Y,B]
    float *blur[3 * SSIMU2_NB_Q]; ///< ring of horizontally blurred rows in tiles, [channel][quantity]
    float *blur_buf;       ///< the blur planes, one allocation
    ptrdiff_t tile_stride; ///< floats from one tile of a blur plane to the next
    float *col_state[3];   ///< per channel: COL_FLOATS per column (all scales), in blocks
    double *colsum[3][SSIMU2_NB_SUMS]; ///< per channel and sum: columns of all scales
    float **row_tmp;       ///< per thread: linear RGB rows, unpacked samples, lanes
    int nb_threads;
    float *lut[2];         ///< per image: code value -> linear (RGB, gray)
    int *tap0[2], *tap1[2]; ///< per image and column: chroma columns of the bilinear taps
    float *tap_w[2];       ///< per image and column: weight of the second tap
    SSIMU2Colour lut_colour[2]; ///< parameters the tables were made with
    enum AVPixelFormat lut_fmt[2];
    SSIMULACRA2DSPContext dsp;
} SSIMULACRA2Context;

typedef struct ThreadData {
    const AVFrame *in[2];  ///< reference, distorted
    SSIMU2Colour colour[2];
    float bg;              ///< alpha background
} ThreadData;

/** Code values of component c of row y, samples [0, n). */
static void unpack_row(const SSIMULACRA2Context *s, const AVFrame *f,
                       const AVPixFmtDescriptor *desc, int c, int y, int n, int *dst)
{
    const AVComponentDescriptor *comp = &desc->comp[c];
    const uint8_t *p = f->data[comp->plane] + (ptrdiff_t)y * f->linesize[comp->plane] +
                       comp->offset;
    const int step = comp->step, shift = comp->shift, mask = (1 << comp->depth) - 1;
    const int native = !(desc->flags & AV_PIX_FMT_FLAG_BE) == !HAVE_BIGENDIAN;

    if (comp->depth == 8 && !shift)
        s->dsp.unpack8(p, n, step, dst);
    else if (comp->depth > 8 && step == 2 && native && !((uintptr_t)p & 1))
        s->dsp.unpack16((const uint16_t *)p, n, shift, mask, dst);
    else if (comp->depth <= 8)
        for (int x = 0; x < n; x++)
            dst[x] = (p[x * step] >> shift) & mask;
    else if (desc->flags & AV_PIX_FMT_FLAG_BE)
        for (int x = 0; x < n; x++)
            dst[x] = (AV_RB16(p + x * step) >> shift) & mask;
    else
        for (int x = 0; x < n; x++)
            dst[x] = (AV_RL16(p + x * step) >> shift) & mask;
}

/** Clamped chroma taps of luma coordinate v on an axis subsampled by log2 (or not). */
static int chroma_taps(int v, int log2, float x0, int n, int *v1, float *w1)
{
    int v0 = v;
    *w1 = 0.0f;
    if (log2)
        v0 = ssimu2_chroma_tap(v, x0, w1);
    *v1 = av_clip(v0 + 1, 0, n - 1);
    return av_clip(v0, 0, n - 1);
}

/** Horizontal chroma taps of every column of image i (they are the same on every row). */
static void update_taps(SSIMULACRA2Context *s, int i, const AVFrame *f, const SSIMU2Colour *p)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(f->format);
    const int cw = AV_CEIL_RSHIFT(s->w, desc->log2_chroma_w);

    if (p->is_yuv)
        for (int x = 0; x < s->w; x++)
            s->tap0[i][x] = chroma_taps(x, desc->log2_chroma_w, p->chroma_x0, cw,
                                        &s->tap1[i][x], &s->tap_w[i][x]);
}

/** Y'CbCr row y of image i to clipped R'G'B', chroma interpolated bilinearly at the siting. */
static void yuv_row(const SSIMULACRA2Context *s, int i, const AVFrame *f,
                    const AVPixFmtDescriptor *desc, const SSIMU2Colour *p,
                    int y, int *tmp, float *r, float *g, float *b)
{
    const int w = s->w, cw = AV_CEIL_RSHIFT(w, desc->log2_chroma_w);
    const int ch = AV_CEIL_RSHIFT(s->h, desc->log2_chroma_h);
    int *luma = tmp, *c[2][2] = { { tmp + w, tmp + w + cw }, { tmp + w + 2 * cw, tmp + w + 3 * cw } };
    float wy;
    int y1, y0 = chroma_taps(y, desc->log2_chroma_h, p->chroma_y0, ch, &y1, &wy);

    unpack_row(s, f, desc, 0, y, w, luma);
    for (int k = 0; k < 2; k++) {
        unpack_row(s, f, desc, 1 + k, y0, cw, c[k][0]);
        unpack_row(s, f, desc, 1 + k, y1, cw, c[k][1]);
    }
    s->dsp.yuv_row(luma, (const int *const (*)[2])c, s->tap0[i], s->tap1[i], s->tap_w[i], wy,
                   p, w, r, g, b);
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

/** One row of an input frame (image i) to linear RGB; tmp: ROW_UNPACK_INTS * w ints. */
static void convert_row(const SSIMULACRA2Context *s, int i, const AVFrame *f,
                        const SSIMU2Colour *p, float bg, int y, int *tmp,
                        float *r, float *g, float *b)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(f->format);
    const int w = s->w;
    int *v[4] = { tmp, tmp + w, tmp + 2 * w, tmp + 3 * w };

    if (p->is_yuv) {
        yuv_row(s, i, f, desc, p, y, tmp, r, g, b);
        /* with alpha (yuva: WebP, ProRes 4444), blended as the reference
         * tool blends the RGBA image a decoder gives it */
        if (desc->flags & AV_PIX_FMT_FLAG_ALPHA) {
            unpack_row(s, f, desc, 3, y, w, v[0]);
            for (int x = 0; x < w; x++) {
                const float a = v[0][x] * p->a_scale;
                r[x] = ssimu2_blend(r[x], a, bg);
                g[x] = ssimu2_blend(g[x], a, bg);
                b[x] = ssimu2_blend(b[x], a, bg);
            }
        }
    } else if (!(desc->flags & AV_PIX_FMT_FLAG_RGB)) {
        unpack_row(s, f, desc, 0, y, w, v[0]);
        for (int x = 0; x < w; x++)
            r[x] = g[x] = b[x] = s->lut[i][v[0][x]];
        return;
    } else if (!(desc->flags & AV_PIX_FMT_FLAG_ALPHA)) {
        float *dst[3] = { r, g, b };
        for (int c = 0; c < 3; c++) {
            unpack_row(s, f, desc, c, y, w, v[c]);
            for (int x = 0; x < w; x++)
                dst[c][x] = s->lut[i][v[c][x]];
        }
        return;
    } else {
        float *dst[3] = { r, g, b };
        for (int c = 0; c < 4; c++)
            unpack_row(s, f, desc, c, y, w, v[c]);
        for (int c = 0; c < 3; c++)
            for (int x = 0; x < w; x++)
                dst[c][x] = ssimu2_blend((v[c][x] - p->y_off) * p->y_scale,
                                         v[3][x] * p->a_scale, bg);
    }
    s->dsp.eotf_row(r, w, p->transfer);
    s->dsp.eotf_row(g, w, p->transfer);
    s->dsp.eotf_row(b, w, p->transfer);
}

/** Row y of image i of scale sc, as linear RGB. */
static void linear_row(const SSIMULACRA2Context *s, const ThreadData *td, int sc, int i, int y,
                       float *tmp, int *unpack, float *rgb[3])
{
    const int w = s->tasks.scale[sc].w;
    for (int c = 0; c < 3; c++)
        rgb[c] = sc ? s->pyr[sc][i][c] + (ptrdiff_t)y * w : tmp + c * w;
    if (!sc)
        convert_row(s, i, td->in[i], &td->colour[i], td->bg, y, unpack, rgb[0], rgb[1], rgb[2]);
}

/** Rows y and y + 1 (if any) of scale sc: XYB and horizontal blur into the
 *  rings, 2x2 average into the next scale. */
static void row_pair(SSIMULACRA2Context *s, const ThreadData *td, int sc, int y, float *tmp)
{
    const int w = s->tasks.scale[sc].w, last = FFMIN(y + 1, s->tasks.scale[sc].h - 1);
    int *unpack = (int *)(tmp + ROW_RGB_FLOATS * w);
    float *lanes = tmp + (ROW_RGB_FLOATS + ROW_UNPACK_INTS) * w;
    float *rgb[2][2][3]; /* [row][image][R,G,B] */

    for (int r = 0; r <= last - y; r++) {
        const int slot = (y + r) & (s->tasks.ring_rows - 1);
        const ptrdiff_t o = (ptrdiff_t)slot * w;
        const float *x[2][3];
        float *out[3 * SSIMU2_NB_Q];
        for (int i = 0; i < 2; i++) {
            linear_row(s, td, sc, i, y + r, tmp + (r * 2 + i) * 3 * w, unpack, rgb[r][i]);
            for (int c = 0; c < 3; c++)
                x[i][c] = s->xyb[i][c] + o;
            s->dsp.xyb_row(rgb[r][i][0], rgb[r][i][1], rgb[r][i][2], w,
                           s->xyb[i][0] + o, s->xyb[i][1] + o, s->xyb[i][2] + o);
        }
        for (int q = 0; q < 3 * SSIMU2_NB_Q; q++)
            out[q] = s->blur[q] + slot * SSIMU2_TILE;
        s->dsp.blur_rows(x[0], x[1], w, lanes, out, s->tile_stride);
    }
    if (sc + 1 < s->tasks.nb_scales) {
        const int nw = ssimu2_half_size(w);
        for (int i = 0; i < 2; i++)
            for (int c = 0; c < 3; c++)
                s->dsp.box_row(rgb[0][i][c], rgb[last - y][i][c], w,
                               s->pyr[sc + 1][i][c] + (ptrdiff_t)(y >> 1) * nw);
    }
}

/** Vertical pass of one band of scale sc over block b of channel c. */
static void col_block(SSIMULACRA2Context *s, int sc, int band, int c, int b)
{
    const SSIMU2Scale *g = &s->tasks.scale[sc];
    const int x0 = b * SSIMU2_COL_BLOCK, bw = FFMIN(SSIMU2_COL_BLOCK, g->w - x0);
    const int n0 = band ? band * SSIMU2_BAND : -SSIMU2_BLUR_N + 1;
    const int n1 = FFMIN((band + 1) * SSIMU2_BAND, g->h);
    float *state = s->col_state[c] + (ptrdiff_t)(g->col0 + x0) * COL_FLOATS;
    const float *blur[SSIMU2_NB_Q];
    double *colsum[SSIMU2_NB_SUMS];

    for (int q = 0; q < SSIMU2_NB_Q; q++)
        blur[q] = s->blur[c * SSIMU2_NB_Q + q] + b * s->tile_stride;
    for (int k = 0; k < SSIMU2_NB_SUMS; k++)
        colsum[k] = s->colsum[c][k] + g->col0 + x0;
    /* the block starts from zero state and sums (in its own thread's cache) */
    if (!band) {
        memset(state, 0, bw * COL_FLOATS * sizeof(*state));
        for (int k = 0; k < SSIMU2_NB_SUMS; k++)
            memset(colsum[k], 0, bw * sizeof(*colsum[k]));
    }
    s->dsp.blur_cols(blur, s->xyb[0][c] + x0, s->xyb[1][c] + x0, g->w, g->h,
                     s->tasks.ring_rows - 1, n0, n1, bw, state,
                     state + (COL_FLOATS - SSIMU2_NB_Q) * bw,
                     colsum);
}

/** One thread's share of a frame pair: tasks in order until none is left. */
static int frame_worker(AVFilterContext *ctx, void *arg, int jobnr, int nb_jobs)
{
    SSIMULACRA2Context *s = ctx->priv;
    const SSIMU2Task *t;

    while ((t = ff_ssimu2_tasks_next(&s->tasks, jobnr))) {
        const SSIMU2Scale *g = &s->tasks.scale[t->scale];
        if (t->is_col)
            col_block(s, t->scale, t->band, t->index / g->nb_blocks, t->index % g->nb_blocks);
        else
            row_pair(s, arg, t->scale, t->band * SSIMU2_BAND + 2 * t->index, s->row_tmp[jobnr]);
        ff_ssimu2_tasks_done(&s->tasks, t);
    }
    return 0;
}

/** Score of one frame pair for one alpha background. */
static double compute_score(AVFilterContext *ctx, ThreadData *td)
{
    SSIMULACRA2Context *s = ctx->priv;
    double sums[SSIMU2_MAX_SCALES][3][SSIMU2_NB_SUMS];

    ff_ssimu2_tasks_reset(&s->tasks);
    ff_filter_execute(ctx, frame_worker, td, NULL, s->nb_threads);
    for (int sc = 0; sc < s->tasks.nb_scales; sc++)
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < SSIMU2_NB_SUMS; k++)
                sums[sc][c][k] = ssimu2_tree_sum(s->colsum[c][k] + s->tasks.scale[sc].col0,
                                                 s->tasks.scale[sc].w);
    return ff_ssimulacra2_score(sums, s->tasks.nb_scales, s->w, s->h);
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
    double score = 0.0;
    int ret, nb_passes;

    ret = ff_framesync_dualinput_get(fs, &main, &ref);
    if (ret < 0)
        return ret;
    ret = ff_ssimulacra2_next_frame(ctx, &s->common, fs, main, ref, &index);
    if (ret == AVERROR_EOF)
        return ff_ssimulacra2_end_output(ctx, fs, &main);
    if (ret <= 0) {
        if (ret < 0)
            av_frame_free(&main);
        return ret < 0 ? ret : ff_filter_frame(ctx->outputs[0], main);
    }

    t0 = av_gettime_relative();
    td.in[0] = ref;
    td.in[1] = main;
    ret = check_frames(ctx, main, ref);
    if (ret >= 0) {
        const enum AVPixelFormat fmt[2] = { ref->format, main->format };
        ret = ff_ssimulacra2_colour_pair(ctx, &s->common, fmt, td.in, td.colour);
    }
    for (int i = 0; ret >= 0 && i < 2; i++) {
        ret = update_lut(s, i, td.in[i], &td.colour[i]);
        update_taps(s, i, td.in[i], &td.colour[i]);
    }
    if (ret < 0) {
        s->common.run->nb_refused++;
        av_frame_free(&main);
        return ret;
    }
    /* each image is blended only if it has alpha */
    nb_passes = ssimu2_nb_passes(ff_ssimulacra2_has_alpha(ref->format));
    for (int pass = 0; pass < nb_passes; pass++) {
        double pass_score;
        td.bg = ssimu2_background(nb_passes, pass);
        pass_score = compute_score(ctx, &td);
        score = pass ? FFMIN(score, pass_score) : pass_score;
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
    for (int sc = 0; sc < SSIMU2_MAX_SCALES; sc++)
        for (int i = 0; i < 2; i++)
            for (int c = 0; c < 3; c++)
                av_freep(&s->pyr[sc][i][c]);
    for (int i = 0; i < 2; i++)
        for (int c = 0; c < 3; c++)
            av_freep(&s->xyb[i][c]);
    av_freep(&s->blur_buf);
    for (int c = 0; c < 3; c++) {
        av_freep(&s->col_state[c]);
        for (int k = 0; k < SSIMU2_NB_SUMS; k++)
            av_freep(&s->colsum[c][k]);
    }
    for (int j = 0; s->row_tmp && j < s->nb_threads; j++)
        av_freep(&s->row_tmp[j]);
    av_freep(&s->row_tmp);
    ff_ssimu2_tasks_uninit(&s->tasks);
    for (int i = 0; i < 2; i++) {
        av_freep(&s->lut[i]);
        av_freep(&s->tap0[i]);
        av_freep(&s->tap1[i]);
        av_freep(&s->tap_w[i]);
    }
}

/**
 * Scratch of a w x h frame pair: the pyramid of linear RGB below scale 0
 * (about 8 bytes per pixel), rings of XYB and blurred rows, per-column state
 * and sums of every scale, rows of each thread. Returns the bytes asked for;
 * *ok is cleared if an allocation fails; *largest: the largest block.
 */
static double alloc_scratch(SSIMULACRA2Context *s, int w, int *ok, double *largest)
{
    const size_t ring = (size_t)s->tasks.ring_rows * w, cols = s->tasks.nb_cols;
    size_t tiled;
    const size_t row_tmp = (ROW_RGB_FLOATS + ROW_UNPACK_INTS) * (size_t)w + SSIMU2_ROW_SCRATCH(w);
    double bytes = 0.0;

#define ALLOC(ptr, n, size) do { bytes += (double)(n) * (size); \
        *largest = FFMAX(*largest, (double)(n) * (size));         \
        if (!((ptr) = av_malloc_array(n, size))) *ok = 0; } while (0)
    for (int sc = 1; sc < s->tasks.nb_scales; sc++)
        for (int i = 0; i < 2; i++)
            for (int c = 0; c < 3; c++)
                ALLOC(s->pyr[sc][i][c], (size_t)s->tasks.scale[sc].w * s->tasks.scale[sc].h,
                      sizeof(float));
    for (int i = 0; i < 2; i++)
        for (int c = 0; c < 3; c++)
            ALLOC(s->xyb[i][c], ring, sizeof(float));
    /* one block, planes 32 floats apart modulo 4 KiB: the row pass
     * writes all 15 at once, and equal offsets modulo 4 KiB would compete
     * for the same cache sets */
    s->tile_stride = (ptrdiff_t)s->tasks.ring_rows * SSIMU2_TILE;
    tiled = s->tile_stride * ((w + SSIMU2_TILE - 1) / SSIMU2_TILE) + 32;
    ALLOC(s->blur_buf, 3 * SSIMU2_NB_Q * tiled, sizeof(float));
    for (int q = 0; s->blur_buf && q < 3 * SSIMU2_NB_Q; q++)
        s->blur[q] = s->blur_buf + q * tiled;
    for (int c = 0; c < 3; c++) {
        ALLOC(s->col_state[c], cols * COL_FLOATS, sizeof(float));
        for (int k = 0; k < SSIMU2_NB_SUMS; k++)
            ALLOC(s->colsum[c][k], cols, sizeof(double));
    }
    bytes += s->nb_threads * sizeof(*s->row_tmp);
    if (!(s->row_tmp = av_calloc(s->nb_threads, sizeof(*s->row_tmp))))
        *ok = 0;
    for (int j = 0; s->row_tmp && j < s->nb_threads; j++)
        ALLOC(s->row_tmp[j], row_tmp, sizeof(float));
    for (int i = 0; i < 2; i++) {
        ALLOC(s->tap0[i], w, sizeof(int));
        ALLOC(s->tap1[i], w, sizeof(int));
        ALLOC(s->tap_w[i], w, sizeof(float));
    }
#undef ALLOC
    return bytes;
}

static int alloc_buffers(AVFilterContext *ctx, int w, int h)
{
    SSIMULACRA2Context *s = ctx->priv;
    int ok = 1, ret;
    double bytes, largest = 0.0;

    free_buffers(s);
    s->w = s->h = 0;
    s->nb_threads = ff_ssimulacra2_nb_threads(ctx);
    if ((ret = ff_ssimu2_tasks_init(&s->tasks, w, h, s->nb_threads)) < 0)
        return ret;
    bytes = alloc_scratch(s, w, &ok, &largest);
    if (!ok) {
        free_buffers(s);
        ff_ssimulacra2_log_nomem(ctx, "ssimulacra2", w, h, bytes);
        /* (the blurred rows grow with the width alone: frames 300000 wide) */
        if (largest > INT_MAX)
            av_log(ctx, AV_LOG_ERROR, "One of its blocks is %.0f MiB, more than FFmpeg's "
                   "default limit for one allocation (2 GiB): if it was not raised, give "
                   "-max_alloc with a larger size before the inputs.\n", largest / 1048576.0);
        return AVERROR(ENOMEM);
    }
    av_log(ctx, AV_LOG_DEBUG, "Scratch for %dx%d: %.1f MiB (%.1f bytes per pixel).\n",
           w, h, bytes / 1048576.0, bytes / ((double)w * h));
    s->w         = w;
    s->h         = h;
    return 0;
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
    int ret = ff_ssimulacra2_framesync_activate(ctx, &s->common, &s->fs);

    /* the end of the inputs: the files are written now, so that an error
     * writing them fails the run */
    if (ret >= 0 && s->fs.eof)
        ret = ff_ssimulacra2_finish(ctx, &s->common, &s->fs);
    return ret;
}

static av_cold void uninit(AVFilterContext *ctx)
{
    SSIMULACRA2Context *s = ctx->priv;

    ff_ssimulacra2_common_uninit(ctx, &s->common, &s->fs);
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
