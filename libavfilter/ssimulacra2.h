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

#ifndef AVFILTER_SSIMULACRA2_H
#define AVFILTER_SSIMULACRA2_H

#include <stdint.h>
#include <stdio.h>

#include "libavutil/frame.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"

#include "avfilter.h"
#include "ssimulacra2_math.h"

enum SSIMU2LogFormat {
    SSIMU2_LOG_JSON,
    SSIMU2_LOG_CSV,
    SSIMU2_LOG_XML,
};

/**
 * Options and output state common to both filters. Embedded as the member
 * "common" of each filter's private context, so that one option table
 * (SSIMULACRA2_COMMON_OPTIONS) and one output path serve both.
 */
typedef struct SSIMULACRA2Common {
    /* options */
    char *stats_file_str;   ///< per-frame stats file, "-" for stdout
    char *log_path;         ///< full-precision log (json/csv/xml)
    int   log_fmt;          ///< enum SSIMU2LogFormat
    int   n_subsample;      ///< score every n-th frame
    int   matrix;           ///< AVColorSpace override, -1 = from the frame
    int   range;            ///< AVColorRange override, -1 = from the frame
    int   transfer;         ///< enum SSIMU2Transfer
    int   profile;          ///< log the mean time per scored frame

    /* state */
    FILE    *stats_file;
    FILE    *log_file;
    double  *scores;        ///< every score, for the log and the summary
    int64_t *score_frames;  ///< input frame index of each score
    unsigned nb_scores, scores_size;
    int64_t  nb_frames;     ///< main frames seen (scored or not)
    double   profile_ms;    ///< summed time of scored frames
} SSIMULACRA2Common;

#define SSIMULACRA2_COMMON_OPTIONS(ctxtype, flags)                                                          \
    { "stats_file", "Set file where to store per-frame scores ('-' = stdout)",                              \
        offsetof(ctxtype, common.stats_file_str), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, flags },      \
    { "f",          "Set file where to store per-frame scores ('-' = stdout)",                              \
        offsetof(ctxtype, common.stats_file_str), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, flags },      \
    { "log_path",   "Set file where to write the full-precision log",                                       \
        offsetof(ctxtype, common.log_path), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, flags },            \
    { "log_fmt",    "Set the log format",                                                                  \
        offsetof(ctxtype, common.log_fmt), AV_OPT_TYPE_INT, { .i64 = SSIMU2_LOG_JSON },                    \
        SSIMU2_LOG_JSON, SSIMU2_LOG_XML, flags, .unit = "log_fmt" },                                       \
        { "json", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = SSIMU2_LOG_JSON }, 0, 0, flags, .unit = "log_fmt" }, \
        { "csv",  NULL, 0, AV_OPT_TYPE_CONST, { .i64 = SSIMU2_LOG_CSV },  0, 0, flags, .unit = "log_fmt" }, \
        { "xml",  NULL, 0, AV_OPT_TYPE_CONST, { .i64 = SSIMU2_LOG_XML },  0, 0, flags, .unit = "log_fmt" }, \
    { "n_subsample", "Score every n-th frame, pass the others through unscored",                           \
        offsetof(ctxtype, common.n_subsample), AV_OPT_TYPE_INT, { .i64 = 1 }, 1, INT_MAX, flags },         \
    { "matrix",     "Override the Y'CbCr matrix of both inputs",                                           \
        offsetof(ctxtype, common.matrix), AV_OPT_TYPE_INT, { .i64 = -1 }, -1, AVCOL_SPC_NB - 1, flags,     \
        .unit = "matrix" },                                                                                \
        { "auto",    "from the frames; untagged: bt709 from 720 lines, else bt601", 0, AV_OPT_TYPE_CONST,  \
            { .i64 = -1 }, 0, 0, flags, .unit = "matrix" },                                                \
        { "bt709",   NULL, 0, AV_OPT_TYPE_CONST, { .i64 = AVCOL_SPC_BT709 },      0, 0, flags, .unit = "matrix" }, \
        { "bt601",   NULL, 0, AV_OPT_TYPE_CONST, { .i64 = AVCOL_SPC_SMPTE170M },  0, 0, flags, .unit = "matrix" }, \
        { "bt470bg", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = AVCOL_SPC_BT470BG },    0, 0, flags, .unit = "matrix" }, \
        { "smpte170m", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = AVCOL_SPC_SMPTE170M }, 0, 0, flags, .unit = "matrix" }, \
        { "smpte240m", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = AVCOL_SPC_SMPTE240M }, 0, 0, flags, .unit = "matrix" }, \
        { "fcc",     NULL, 0, AV_OPT_TYPE_CONST, { .i64 = AVCOL_SPC_FCC },        0, 0, flags, .unit = "matrix" }, \
        { "bt2020",  NULL, 0, AV_OPT_TYPE_CONST, { .i64 = AVCOL_SPC_BT2020_NCL }, 0, 0, flags, .unit = "matrix" }, \
    { "range",      "Override the range of both inputs",                                                   \
        offsetof(ctxtype, common.range), AV_OPT_TYPE_INT, { .i64 = -1 }, -1, AVCOL_RANGE_NB - 1, flags,   \
        .unit = "range" },                                                                                 \
        { "auto",    "from the frames; untagged: limited for Y'CbCr, full otherwise", 0, AV_OPT_TYPE_CONST, \
            { .i64 = -1 }, 0, 0, flags, .unit = "range" },                                                 \
        { "tv",      NULL, 0, AV_OPT_TYPE_CONST, { .i64 = AVCOL_RANGE_MPEG }, 0, 0, flags, .unit = "range" }, \
        { "limited", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = AVCOL_RANGE_MPEG }, 0, 0, flags, .unit = "range" }, \
        { "pc",      NULL, 0, AV_OPT_TYPE_CONST, { .i64 = AVCOL_RANGE_JPEG }, 0, 0, flags, .unit = "range" }, \
        { "full",    NULL, 0, AV_OPT_TYPE_CONST, { .i64 = AVCOL_RANGE_JPEG }, 0, 0, flags, .unit = "range" }, \
    { "transfer",   "Set how R'G'B' is linearised",                                                        \
        offsetof(ctxtype, common.transfer), AV_OPT_TYPE_INT, { .i64 = SSIMU2_TRC_SRGB },                   \
        SSIMU2_TRC_SRGB, SSIMU2_TRC_LINEAR, flags, .unit = "transfer" },                                   \
        { "srgb",    "the reference tool's sRGB curve", 0, AV_OPT_TYPE_CONST, { .i64 = SSIMU2_TRC_SRGB },   \
            0, 0, flags, .unit = "transfer" },                                                             \
        { "bt1886",  "pure power 2.4", 0, AV_OPT_TYPE_CONST, { .i64 = SSIMU2_TRC_BT1886 },                 \
            0, 0, flags, .unit = "transfer" },                                                             \
        { "linear",  "samples are linear light", 0, AV_OPT_TYPE_CONST, { .i64 = SSIMU2_TRC_LINEAR },       \
            0, 0, flags, .unit = "transfer" },                                                             \
    { "profile",    "Log the mean processing time per scored frame",                                       \
        offsetof(ctxtype, common.profile), AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, flags }

/**
 * Software pixel formats whose samples the filters can read, ending in
 * AV_PIX_FMT_NONE. The CUDA filter accepts the subset its hwcontext offers.
 */
extern const enum AVPixelFormat ff_ssimulacra2_pix_fmts[];

int ff_ssimulacra2_pix_fmt_supported(enum AVPixelFormat fmt);

/** Log an error listing the supported formats; returns AVERROR(ENOSYS). */
int ff_ssimulacra2_unsupported_format(AVFilterContext *ctx, const char *what,
                                      enum AVPixelFormat fmt,
                                      const enum AVPixelFormat *list);

/**
 * Check the geometry and formats of the two inputs (same size, size at
 * least 8x8, same format); logs a message naming the problem and the fix.
 */
int ff_ssimulacra2_check_inputs(AVFilterContext *ctx, int main_w, int main_h,
                                enum AVPixelFormat main_fmt, int ref_w, int ref_h,
                                enum AVPixelFormat ref_fmt);

/**
 * Fill the normalisation parameters for frames of format fmt with the colour
 * tags of frame (options override the tags).
 */
void ff_ssimulacra2_colour_params(const SSIMULACRA2Common *c, enum AVPixelFormat fmt,
                                  const AVFrame *frame, SSIMU2Colour *p);

/** Pixel format has an alpha channel (the score is then the minimum over two backgrounds). */
int ff_ssimulacra2_has_alpha(enum AVPixelFormat fmt);

/**
 * Final score from the per-scale sums.
 *
 * @param sums       sums[scale][channel][k], k as in ssimu2_pixel_terms()
 * @param nb_scales  number of scales evaluated
 * @param w, h       size of scale 0
 * @param pooled     if not NULL, receives the 18 * nb_scales pooled values
 *                   in the weight order of the reference
 */
double ff_ssimulacra2_score(const double sums[][3][SSIMU2_NB_SUMS], int nb_scales,
                            int w, int h, double *pooled);

struct FFFrameSync;

/**
 * Format negotiation of both filters: any format on each input, checked
 * later with a clear error; the output takes the main input's format.
 */
int ff_ssimulacra2_query_formats(const AVFilterContext *ctx,
                                 AVFilterFormatsConfig **cfg_in,
                                 AVFilterFormatsConfig **cfg_out);

/**
 * Output link setup of both filters: dual-input framesync, size, SAR, frame
 * rate and time base of the main input.
 */
int ff_ssimulacra2_config_output(AVFilterLink *outlink, struct FFFrameSync *fs);

av_cold int ff_ssimulacra2_common_init(AVFilterContext *ctx, SSIMULACRA2Common *c);

/** Whether the frame with this index (counted from 0) gets a score. */
int ff_ssimulacra2_scored(const SSIMULACRA2Common *c, int64_t frame_index);

/**
 * Record one score: frame metadata lavfi.ssimulacra2.score, the stats line,
 * the log entry. elapsed_ms is the processing time of the frame (for the
 * profile option).
 */
int ff_ssimulacra2_report(AVFilterContext *ctx, SSIMULACRA2Common *c, AVFrame *main,
                          int64_t frame_index, double score, double elapsed_ms);

/** Write the log and the summary line, close the files, free the state. */
av_cold void ff_ssimulacra2_common_uninit(AVFilterContext *ctx, SSIMULACRA2Common *c);

#endif /* AVFILTER_SSIMULACRA2_H */
