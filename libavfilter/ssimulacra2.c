/*
 * SSIMULACRA 2.1: host code shared by the ssimulacra2 and ssimulacra2_cuda filters
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
 * Pooling, final score, colour parameters, input checks and every output
 * (metadata, stats file, log, summary) of the two SSIMULACRA2 filters, so a
 * script cannot tell them apart except by speed.
 */

#include <math.h>
#include <stdlib.h>

#include "libavutil/bprint.h"
#include "libavutil/csp.h"
#include "libavutil/file_open.h"
#include "libavutil/mem.h"

#include "filters.h"
#include "formats.h"
#include "framesync.h"
#include "ssimulacra2.h"

const enum AVPixelFormat ff_ssimulacra2_pix_fmts[] = {
    AV_PIX_FMT_GBRP, AV_PIX_FMT_GBRP10, AV_PIX_FMT_GBRP12, AV_PIX_FMT_GBRP16,
    AV_PIX_FMT_RGB24, AV_PIX_FMT_BGR24, AV_PIX_FMT_RGB48, AV_PIX_FMT_BGR48,
    AV_PIX_FMT_RGBA, AV_PIX_FMT_BGRA, AV_PIX_FMT_ARGB, AV_PIX_FMT_ABGR,
    AV_PIX_FMT_RGBA64, AV_PIX_FMT_BGRA64,
    AV_PIX_FMT_RGB0, AV_PIX_FMT_BGR0, AV_PIX_FMT_0RGB, AV_PIX_FMT_0BGR,
    AV_PIX_FMT_GRAY8, AV_PIX_FMT_GRAY16,
    AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUV444P,
    AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P,
    AV_PIX_FMT_YUV420P10, AV_PIX_FMT_YUV422P10, AV_PIX_FMT_YUV444P10,
    AV_PIX_FMT_YUV420P12, AV_PIX_FMT_YUV422P12, AV_PIX_FMT_YUV444P12,
    AV_PIX_FMT_YUV420P16, AV_PIX_FMT_YUV422P16, AV_PIX_FMT_YUV444P16,
    AV_PIX_FMT_NV12, AV_PIX_FMT_P010, AV_PIX_FMT_P016,
    AV_PIX_FMT_NV16, AV_PIX_FMT_P210, AV_PIX_FMT_P216,
#ifdef AV_PIX_FMT_YUV444P10MSB
    AV_PIX_FMT_YUV444P10MSB, AV_PIX_FMT_YUV444P12MSB,
#endif
    /* the other byte order, as decoders such as png output it */
    AV_PIX_FMT_GBRP10BE, AV_PIX_FMT_GBRP12BE, AV_PIX_FMT_GBRP16BE,
    AV_PIX_FMT_RGB48BE, AV_PIX_FMT_BGR48BE, AV_PIX_FMT_RGBA64BE, AV_PIX_FMT_BGRA64BE,
    AV_PIX_FMT_GRAY16BE,
    AV_PIX_FMT_NONE
};

int ff_ssimulacra2_pix_fmt_supported(enum AVPixelFormat fmt)
{
    for (int i = 0; ff_ssimulacra2_pix_fmts[i] != AV_PIX_FMT_NONE; i++)
        if (ff_ssimulacra2_pix_fmts[i] == fmt)
            return 1;
    return 0;
}

int ff_ssimulacra2_unsupported_format(AVFilterContext *ctx, const char *what,
                                      enum AVPixelFormat fmt,
                                      const enum AVPixelFormat *list)
{
    AVBPrint bp;

    av_bprint_init(&bp, 0, AV_BPRINT_SIZE_AUTOMATIC);
    for (int i = 0; list[i] != AV_PIX_FMT_NONE; i++)
        av_bprintf(&bp, "%s%s", i ? " " : "", av_get_pix_fmt_name(list[i]));
    av_log(ctx, AV_LOG_ERROR, "Unsupported pixel format %s for %s. Supported formats: %s. "
           "Convert both inputs with format=<one of these>.\n",
           av_get_pix_fmt_name(fmt) ? av_get_pix_fmt_name(fmt) : "none", what, bp.str);
    av_bprint_finalize(&bp, NULL);
    return AVERROR(ENOSYS);
}

int ff_ssimulacra2_check_inputs(AVFilterContext *ctx, int main_w, int main_h,
                                enum AVPixelFormat main_fmt, int ref_w, int ref_h,
                                enum AVPixelFormat ref_fmt)
{
    if (main_w != ref_w || main_h != ref_h) {
        av_log(ctx, AV_LOG_ERROR, "Input sizes differ: main (distorted) is %dx%d, reference is %dx%d. "
               "Scale one input to the other's size (e.g. scale=%d:%d on the main input).\n",
               main_w, main_h, ref_w, ref_h, ref_w, ref_h);
        return AVERROR(EINVAL);
    }
    if (main_w < SSIMU2_MIN_SIZE || main_h < SSIMU2_MIN_SIZE) {
        av_log(ctx, AV_LOG_ERROR, "Input is %dx%d; SSIMULACRA2 needs at least 8x8 pixels. "
               "Use larger inputs (or upscale both, which changes what is measured).\n",
               main_w, main_h);
        return AVERROR(EINVAL);
    }
    if (main_fmt != ref_fmt) {
        av_log(ctx, AV_LOG_ERROR, "Pixel formats differ: main (distorted) is %s, reference is %s. "
               "Convert one input, e.g. format=%s on the main input.\n",
               av_get_pix_fmt_name(main_fmt), av_get_pix_fmt_name(ref_fmt),
               av_get_pix_fmt_name(ref_fmt));
        return AVERROR(EINVAL);
    }
    return 0;
}

int ff_ssimulacra2_has_alpha(enum AVPixelFormat fmt)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(fmt);
    return desc && (desc->flags & AV_PIX_FMT_FLAG_ALPHA);
}

void ff_ssimulacra2_colour_params(const SSIMULACRA2Common *c, enum AVPixelFormat fmt,
                                  const AVFrame *frame, SSIMU2Colour *p)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(fmt);
    int depth = desc->comp[0].depth;
    int is_rgb = !!(desc->flags & AV_PIX_FMT_FLAG_RGB);
    int is_gray = desc->nb_components <= 2 && !is_rgb;
    double max = (double)((1 << depth) - 1);
    enum AVColorRange range = c->range >= 0 ? c->range : frame->color_range;
    int full;

    memset(p, 0, sizeof(*p));
    p->transfer = c->transfer;
    /* the reference tool scales integers by the float reciprocal of 2^bits - 1 */
    p->y_scale  = (float)(1.0 / max);
    p->a_scale  = (float)(1.0 / max);
    if (is_rgb)
        return;

    if (fmt == AV_PIX_FMT_YUVJ420P || fmt == AV_PIX_FMT_YUVJ422P || fmt == AV_PIX_FMT_YUVJ444P)
        full = 1;
    else if (range == AVCOL_RANGE_UNSPECIFIED)
        full = is_gray;
    else
        full = range == AVCOL_RANGE_JPEG;

    if (!full) {
        double shift = (double)(1 << (depth - 8));
        p->y_off   = (float)(16.0 * shift);
        p->y_scale = (float)(1.0 / (219.0 * shift));
        p->c_off   = (float)(128.0 * shift);
        p->c_scale = (float)(1.0 / (224.0 * shift));
    } else {
        p->c_off   = (float)(1 << (depth - 1));
        p->c_scale = (float)(1.0 / max);
    }
    if (is_gray)
        return;

    p->is_yuv = 1;
    {
        enum AVColorSpace csp = c->matrix >= 0 ? c->matrix : frame->colorspace;
        const AVLumaCoefficients *lc = av_csp_luma_coeffs_from_avcsp(csp);
        double kr, kb, kg;
        int xpos = 0, ypos = 128;

        if (!lc || csp == AVCOL_SPC_RGB || csp == AVCOL_SPC_UNSPECIFIED)
            lc = av_csp_luma_coeffs_from_avcsp(frame->height >= 720 ? AVCOL_SPC_BT709
                                                                     : AVCOL_SPC_SMPTE170M);
        kr = av_q2d(lc->cr);
        kb = av_q2d(lc->cb);
        kg = 1.0 - kr - kb;
        p->cr_r = (float)(2.0 * (1.0 - kr));
        p->cb_b = (float)(2.0 * (1.0 - kb));
        p->cb_g = (float)(2.0 * kb * (1.0 - kb) / kg);
        p->cr_g = (float)(2.0 * kr * (1.0 - kr) / kg);

        /* unspecified siting: left (MPEG-2, H.264, HEVC) */
        if (frame->chroma_location != AVCHROMA_LOC_UNSPECIFIED)
            av_chroma_location_enum_to_pos(&xpos, &ypos, frame->chroma_location);
        p->chroma_x0 = xpos / 256.0f;
        p->chroma_y0 = ypos / 256.0f;
    }
}

double ff_ssimulacra2_score(const double sums[][3][SSIMU2_NB_SUMS], int nb_scales,
                            int w, int h, double *pooled)
{
    static const double weight[SSIMU2_NB_STATS] = {
        0.0, 0.0007376606707406586, 0.0, 0.0, 0.0007793481682867309, 0.0,
        0.0, 0.0004371155730107379, 0.0, 1.1041726426657346, 0.00066284834129271, 0.00015231632783718752,
        0.0, 0.0016406437456599754, 0.0, 1.8422455520539298, 11.441172603757666, 0.0,
        0.0007989109436015163, 0.000176816438078653, 0.0, 1.8787594979546387, 10.94906990605142, 0.0,
        0.0007289346991508072, 0.9677937080626833, 0.0, 0.00014003424285435884, 0.9981766977854967, 0.00031949755934435053,
        0.0004550992113792063, 0.0, 0.0, 0.0013648766163243398, 0.0, 0.0,
        0.0, 0.0, 0.0, 7.466890328078848, 0.0, 17.445833984131262,
        0.0006235601634041466, 0.0, 0.0, 6.683678146179332, 0.00037724407979611296, 1.027889937768264,
        225.20515300849274, 0.0, 0.0, 19.213238186143016, 0.0011401524586618361, 0.001237755635509985,
        176.39317598450694, 0.0, 0.0, 24.43300999870476, 0.28520802612117757, 0.0004485436923833408,
        0.0, 0.0, 0.0, 34.77906344483772, 44.835625328877896, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0008680556573291698, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0005313191874358747, 0.0, 0.00016533814161379112, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0004179171803251336, 0.0017290828234722833, 0.0,
        0.0020827005846636437, 0.0, 0.0, 8.826982764996862, 23.19243343998926, 0.0,
        95.1080498811086, 0.9863978034400682, 0.9834382792465353, 0.0012286405048278493, 171.2667255897307, 0.9807858872435379,
        0.0, 0.0, 0.0, 0.0005130064588990679, 0.0, 0.00010854057858411537,
    };
    double raw = 0.0, a, b;
    int i = 0;

    /* weights are consumed in order, so fewer scales shift the channels'
     * weights (the reference's compaction, spec section 7.2) */
    for (int c = 0; c < 3; c++) {
        for (int s = 0; s < nb_scales; s++) {
            int sw = w, sh = h;
            double inv, v[2][3];
            for (int k = 0; k < s; k++) {
                sw = (sw + 1) >> 1;
                sh = (sh + 1) >> 1;
            }
            inv = 1.0 / ((double)sw * sh);
            for (int m = 0; m < 3; m++) {
                v[0][m] = inv * sums[s][c][2 * m];
                v[1][m] = sqrt(sqrt(inv * sums[s][c][2 * m + 1]));
            }
            for (int n = 0; n < 2; n++) {
                for (int m = 0; m < 3; m++) {
                    if (pooled)
                        pooled[i] = v[n][m];
                    raw += weight[i] * fabs(v[n][m]);
                    i++;
                }
            }
        }
    }
    a = raw * 0.9562382616834844;
    b = 2.326765642916932 * a - 0.020884521182843837 * a * a +
        6.248496625763138e-05 * a * a * a;
    return b > 0.0 ? 100.0 - 10.0 * pow(b, 0.6276336467831387) : 100.0;
}

static int open_output(AVFilterContext *ctx, const char *path, const char *what, FILE **f)
{
    int err;
    if (!strcmp(path, "-")) {
        *f = stdout;
        return 0;
    }
    *f = avpriv_fopen_utf8(path, "w");
    if (*f)
        return 0;
    err = AVERROR(errno);
    av_log(ctx, AV_LOG_ERROR, "Could not open %s '%s': %s. "
           "Check that the directory exists and is writable.\n",
           what, path, av_err2str(err));
    return err;
}

int ff_ssimulacra2_query_formats(const AVFilterContext *ctx,
                                 AVFilterFormatsConfig **cfg_in,
                                 AVFilterFormatsConfig **cfg_out)
{
    AVFilterFormats *main_fmts, *ref_fmts;
    int ret;

    /* Any format is accepted here, so that an unsupported one (or software
     * frames for the CUDA filter) gets our error naming the problem instead
     * of a failed negotiation, and the two inputs negotiate independently,
     * so that different formats get our error too. The main input and the
     * output share one list: frames pass through. */
    main_fmts = ff_formats_pixdesc_filter(0, AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_PAL);
    ref_fmts  = ff_formats_pixdesc_filter(0, AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_PAL);
    if ((ret = ff_formats_ref(main_fmts, &cfg_in[0]->formats)) < 0 ||
        (ret = ff_formats_ref(ref_fmts, &cfg_in[1]->formats)) < 0 ||
        (ret = ff_formats_ref(main_fmts, &cfg_out[0]->formats)) < 0)
        return ret;
    /* colour tags are read per frame: no conversion between the inputs */
    for (int i = 0; i < 3; i++) {
        AVFilterFormatsConfig *cfg = i < 2 ? cfg_in[i] : cfg_out[0];
        if ((ret = ff_formats_ref(ff_all_color_spaces(), &cfg->color_spaces)) < 0 ||
            (ret = ff_formats_ref(ff_all_color_ranges(), &cfg->color_ranges)) < 0)
            return ret;
    }
    return 0;
}

int ff_ssimulacra2_config_output(AVFilterLink *outlink, FFFrameSync *fs)
{
    AVFilterContext *ctx = outlink->src;
    AVFilterLink *mainlink = ctx->inputs[0];
    int ret;

    ret = ff_framesync_init_dualinput(fs, ctx);
    if (ret < 0)
        return ret;
    outlink->w = mainlink->w;
    outlink->h = mainlink->h;
    outlink->time_base = mainlink->time_base;
    outlink->sample_aspect_ratio = mainlink->sample_aspect_ratio;
    ff_filter_link(outlink)->frame_rate = ff_filter_link(mainlink)->frame_rate;
    ret = ff_framesync_configure(fs);
    if (ret < 0)
        return ret;
    outlink->time_base = fs->time_base;
    if (av_cmp_q(mainlink->time_base, outlink->time_base) ||
        av_cmp_q(ctx->inputs[1]->time_base, outlink->time_base))
        av_log(ctx, AV_LOG_WARNING, "not matching timebases found between first input: %d/%d and second input %d/%d, results may be incorrect!\n",
               mainlink->time_base.num, mainlink->time_base.den,
               ctx->inputs[1]->time_base.num, ctx->inputs[1]->time_base.den);
    return 0;
}

av_cold int ff_ssimulacra2_common_init(AVFilterContext *ctx, SSIMULACRA2Common *c)
{
    int ret = 0;
    if (c->stats_file_str)
        ret = open_output(ctx, c->stats_file_str, "stats file", &c->stats_file);
    /* the log is opened now, so a bad path fails before any work is done */
    if (ret >= 0 && c->log_path)
        ret = open_output(ctx, c->log_path, "log file", &c->log_file);
    return ret;
}

int ff_ssimulacra2_scored(const SSIMULACRA2Common *c, int64_t frame_index)
{
    return frame_index % c->n_subsample == 0;
}

int ff_ssimulacra2_report(AVFilterContext *ctx, SSIMULACRA2Common *c, AVFrame *main,
                          int64_t frame_index, double score, double elapsed_ms)
{
    char buf[64];
    int ret;

    if (c->nb_scores == c->scores_size) {
        unsigned size = c->scores_size ? 2 * c->scores_size : 256;
        double *scores;
        int64_t *frames;
        scores = av_realloc_array(c->scores, size, sizeof(*scores));
        if (!scores)
            return AVERROR(ENOMEM);
        c->scores = scores;
        frames = av_realloc_array(c->score_frames, size, sizeof(*frames));
        if (!frames)
            return AVERROR(ENOMEM);
        c->score_frames = frames;
        c->scores_size  = size;
    }
    c->scores[c->nb_scores]       = score;
    c->score_frames[c->nb_scores] = frame_index;
    c->nb_scores++;
    c->profile_ms += elapsed_ms;

    snprintf(buf, sizeof(buf), "%.15f", score);
    ret = av_dict_set(&main->metadata, "lavfi.ssimulacra2.score", buf, 0);
    if (ret < 0)
        return ret;
    if (c->stats_file)
        fprintf(c->stats_file, "n:%"PRId64" score:%s\n", frame_index + 1, buf);
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

enum { ST_MIN, ST_MAX, ST_MEAN, ST_HMEAN, ST_P1, ST_P5, ST_P10, ST_MEDIAN, ST_P95, ST_STDDEV, ST_NB };

static const char *const stat_names[ST_NB] = {
    "min", "max", "mean", "harmonic_mean", "p1", "p5", "p10", "median", "p95", "stddev",
};

/** Percentile of sorted values, linear between closest ranks (rank = p/100 (n-1)). */
static double percentile(const double *sorted, unsigned n, double p)
{
    double rank = p / 100.0 * (n - 1);
    unsigned lo = (unsigned)rank;
    double f = rank - lo;
    if (lo + 1 >= n)
        return sorted[n - 1];
    return sorted[lo] + f * (sorted[lo + 1] - sorted[lo]);
}

static int pooled_stats(const SSIMULACRA2Common *c, double st[ST_NB])
{
    unsigned n = c->nb_scores;
    double *sorted = av_memdup(c->scores, n * sizeof(*sorted));
    double sum = 0.0, inv_sum = 0.0, var = 0.0;
    int nonpositive = 0;

    if (!sorted)
        return AVERROR(ENOMEM);
    qsort(sorted, n, sizeof(*sorted), cmp_double);
    for (unsigned i = 0; i < n; i++) {
        sum += c->scores[i];
        if (c->scores[i] <= 0.0)
            nonpositive = 1;
        else
            inv_sum += 1.0 / c->scores[i];
    }
    st[ST_MEAN] = sum / n;
    for (unsigned i = 0; i < n; i++)
        var += (c->scores[i] - st[ST_MEAN]) * (c->scores[i] - st[ST_MEAN]);
    st[ST_MIN]    = sorted[0];
    st[ST_MAX]    = sorted[n - 1];
    st[ST_HMEAN]  = nonpositive ? 0.0 : n / inv_sum;
    st[ST_P1]     = percentile(sorted, n, 1);
    st[ST_P5]     = percentile(sorted, n, 5);
    st[ST_P10]    = percentile(sorted, n, 10);
    st[ST_MEDIAN] = percentile(sorted, n, 50);
    st[ST_P95]    = percentile(sorted, n, 95);
    st[ST_STDDEV] = n > 1 ? sqrt(var / (n - 1)) : 0.0;
    av_free(sorted);
    return 0;
}

static void write_log(const SSIMULACRA2Common *c, FILE *f, const double st[ST_NB])
{
    unsigned n = c->nb_scores;

    switch (c->log_fmt) {
    case SSIMU2_LOG_JSON:
        fprintf(f, "{\n  \"version\": \"2.1\",\n  \"frames\": [");
        for (unsigned i = 0; i < n; i++)
            fprintf(f, "%s\n    {\"frameNum\": %"PRId64", \"metrics\": {\"ssimulacra2\": %.17g}}",
                    i ? "," : "", c->score_frames[i], c->scores[i]);
        fprintf(f, "\n  ],\n  \"pooled_metrics\": {\"ssimulacra2\": {");
        for (int s = 0; st && s < ST_NB; s++)
            fprintf(f, "%s\"%s\": %.17g", s ? ", " : "", stat_names[s], st[s]);
        fprintf(f, "}},\n  \"frames_scored\": %u\n}\n", n);
        break;
    case SSIMU2_LOG_CSV:
        fprintf(f, "frame,score\n");
        for (unsigned i = 0; i < n; i++)
            fprintf(f, "%"PRId64",%.17g\n", c->score_frames[i], c->scores[i]);
        for (int s = 0; st && s < ST_NB; s++)
            fprintf(f, "%s,%.17g\n", stat_names[s], st[s]);
        break;
    case SSIMU2_LOG_XML:
        fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ssimulacra2 version=\"2.1\">\n  <frames>\n");
        for (unsigned i = 0; i < n; i++)
            fprintf(f, "    <frame frameNum=\"%"PRId64"\" ssimulacra2=\"%.17g\"/>\n",
                    c->score_frames[i], c->scores[i]);
        fprintf(f, "  </frames>\n  <pooled_metrics>\n    <metric name=\"ssimulacra2\"");
        for (int s = 0; st && s < ST_NB; s++)
            fprintf(f, " %s=\"%.17g\"", stat_names[s], st[s]);
        fprintf(f, "/>\n  </pooled_metrics>\n  <frames_scored>%u</frames_scored>\n</ssimulacra2>\n", n);
        break;
    }
}

av_cold void ff_ssimulacra2_common_uninit(AVFilterContext *ctx, SSIMULACRA2Common *c)
{
    double st[ST_NB];
    int have_stats = c->nb_scores > 0 && pooled_stats(c, st) >= 0;

    if (have_stats) {
        AVBPrint bp;
        av_bprint_init(&bp, 0, AV_BPRINT_SIZE_AUTOMATIC);
        av_bprintf(&bp, "SSIMULACRA2 frames:%u", c->nb_scores);
        for (int s = 0; s < ST_NB; s++) {
            static const int order[ST_NB] = { ST_MEAN, ST_HMEAN, ST_MIN, ST_P1, ST_P5, ST_P10,
                                              ST_MEDIAN, ST_P95, ST_MAX, ST_STDDEV };
            av_bprintf(&bp, " %s:%.8f", stat_names[order[s]], st[order[s]]);
        }
        av_log(ctx, AV_LOG_INFO, "%s\n", bp.str);
        av_bprint_finalize(&bp, NULL);
        if (c->profile)
            av_log(ctx, AV_LOG_INFO, "SSIMULACRA2 profile: %.3f ms per scored frame\n",
                   c->profile_ms / c->nb_scores);
    }
    if (c->log_file) {
        write_log(c, c->log_file, have_stats ? st : NULL);
        if (c->log_file != stdout)
            fclose(c->log_file);
        else
            fflush(stdout);
    }
    if (c->stats_file && c->stats_file != stdout)
        fclose(c->stats_file);
    c->log_file = c->stats_file = NULL;
    av_freep(&c->scores);
    av_freep(&c->score_frames);
    c->nb_scores = c->scores_size = 0;
}
