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

enum SSIMULACRA2LogFormat {
    SSIMULACRA2_LOG_JSON,
    SSIMULACRA2_LOG_CSV,
    SSIMULACRA2_LOG_XML,
};

/** Statistic of the "SSIMULACRA2 score:" line (the pool option). */
enum SSIMU2Pool {
    SSIMU2_POOL_MEAN,
    SSIMU2_POOL_HARMONIC_MEAN,
    SSIMU2_POOL_MIN,
    SSIMU2_POOL_P1,
    SSIMU2_POOL_P5,
    SSIMU2_POOL_P10,
    SSIMU2_POOL_MEDIAN,
    SSIMU2_POOL_P95,
    SSIMU2_POOL_MAX,
};

/**
 * The scores of one filter instance and the files they go to. Kept, by
 * instance name, when ffmpeg rebuilds the graph (an input changed), so that
 * the new instance continues the frame numbers and the files.
 */
typedef struct SSIMULACRA2Run {
    char    *name;          ///< filter instance name, the same in a rebuilt graph
    char    *sources;       ///< names of the sources upstream of the inputs, likewise
    int      live;          ///< an instance is scoring into it
    int      resumable;     ///< the ffmpeg tool's graph: a rebuild of it continues the run
    double  *scores;        ///< every score, for the log and the summary
    int64_t *score_frames;  ///< frame index of each score
    unsigned nb_scores, scores_size;
    int64_t  nb_frames;     ///< distorted frames seen (scored or not)
    int64_t  nb_repeated;   ///< scored against a reference frame used before
    int64_t  nb_mismatched; ///< scored against a reference frame half a frame or more away
    int64_t  nb_unpaired;   ///< to be scored but without a reference frame
    int64_t  nb_unpaired_early; ///< of those, before the first reference frame
    int64_t  nb_lost;       ///< of those, lost by ffmpeg in a graph rebuild
    int64_t  nb_held;       ///< queued in a graph that was freed (CUDA filter): lost if it was rebuilt
    int64_t  nb_unpaired_rebuilt; ///< of those, in a rebuilt graph before its first reference frame
    int64_t  nb_disabled;   ///< not scored: outside the timeline's enable expression
    int64_t  nb_mismatched_rounded; ///< of the mismatched, a frame off by at most a rounding
    int64_t  nb_ref_skipped; ///< reference frames taken in but never paired
    int      ref_goes_on;   ///< the reference had frames after the distorted video ended
    int      ref_changes;   ///< two reference frames differ, or could not be compared (GPU frames)
    AVFrame *first_ref;     ///< the first reference frame paired, until one differs from it
    int64_t  nb_ref_compared; ///< reference frames compared with it
    int64_t  first_main_us; ///< the first distorted frame (AV_TIME_BASE)
    int64_t  past_end_us;   ///< the first distorted frame after the reference's end (AV_TIME_BASE)
    int64_t  last_main_end_us; ///< the last distorted frame's end (AV_TIME_BASE)
    int64_t  main_step_us;  ///< a frame of the distorted input (AV_TIME_BASE), 0 if unknown
    int64_t  last_main_us;  ///< the last distorted frame's time (AV_TIME_BASE)
    int64_t  step_min_us[2], step_max_us[2]; ///< shortest, longest steps but gaps (distorted, ref)
    int64_t  nb_no_pts;     ///< frame pairs refused: a frame of either input without a timestamp
    int64_t  nb_refused;    ///< frame pairs refused with an error (sizes, format, tags)
    int64_t  nb_back[2];    ///< timestamps that went back: distorted, reference
    int64_t  back_from_us[2], back_us[2]; ///< where they first did, from and to (AV_TIME_BASE)
    int      back_at_rebuild[2]; ///< that first time was a rebuilt graph's first frame
    int64_t  nb_steps[2];   ///< steps forward from frame to frame: distorted, reference
    int64_t  nb_gaps[2];    ///< of those, of more than 1.5 of the shortest
    int64_t  gap_from_us[2], gap_us[2]; ///< the first of them: where, and how long (AV_TIME_BASE)
    int      direct_written; ///< outputs written straight (not renamed into place): 1 stats, 2 log
    int64_t  start_gap_us;  ///< first distorted minus first reference timestamp
    int64_t  start_skipped; ///< reference frames before the one the first distorted frame was paired with
    int64_t  start_skipped_us; ///< the time from the reference's first frame to that one
    int      ref_seen;      ///< a reference frame has been paired
    int64_t  next_main_us;  ///< when the next distorted frame is due (AV_TIME_BASE)
    int      resumed;       ///< a rebuilt graph's instance has not had a frame yet
    int      nb_rebuilds;   ///< graphs rebuilt during the run
    char     turned[2][64]; ///< the turns ffmpeg gave each input in the last graph (check_turned())
    unsigned noted;         ///< colour messages already logged (one bit each; not again per rebuilt graph)
    int      said_sar;      ///< the sample aspect ratios' difference was said
    int64_t  nb_same;       ///< scored pairs whose two frames were one picture (one buffer)
    int      said_endless;  ///< the distorted input's going on long after the reference was said
    int64_t  ref_restart_us; ///< its last frame before the reference started again, or NOPTS
    double   profile_ms;    ///< summed time of scored frames
    int64_t  start_us;      ///< when the run started, for the log's fps
    char    *log_key, *stats_key; ///< absolute paths of the files, for conflicts
    struct SSIMULACRA2Run *next;
} SSIMULACRA2Run;

/**
 * Options and state common to both filters. Embedded as the member "common"
 * of each filter's private context, so that one option table
 * (SSIMULACRA2_COMMON_OPTIONS) and one output path serve both.
 */
typedef struct SSIMULACRA2Common {
    /* options */
    char *stats_file_str;   ///< per-frame stats file, "-" for stdout
    char *log_path;         ///< full-precision log (json/csv/xml)
    int   log_fmt;          ///< enum SSIMULACRA2LogFormat
    int   n_subsample;      ///< score every n-th frame
    int   matrix;           ///< AVColorSpace override, -1 = from the frames
    int   range;            ///< AVColorRange override, -1 = from the frames
    int   chroma_loc;       ///< AVChromaLocation override, -1 = from the frames
    int   transfer;         ///< enum SSIMU2Transfer
    int   profile;          ///< log the mean time per scored frame
    int   pool;             ///< enum SSIMU2Pool
    int   n_threads;        ///< libvmaf's name of the generic threads option (0: as it is)

    /* state */
    SSIMULACRA2Run *run;    ///< scores and counters, kept across graph rebuilds
    int64_t  last_ref_pts;  ///< pts of the last reference frame scored against
    int64_t  last_paired_pts; ///< pts of the last reference frame paired (scored or not)
    int64_t  nb_ref_paired; ///< reference frames of this instance paired at least once
    int      ref_seen;      ///< this instance (graph) has scored against a reference frame
    int      ts_nearest;    ///< framesync pairs by the nearest timestamp
    int      image_pair;    ///< both inputs decoded as RGB or gray (set when the output is configured)
    int      alpha_added;   ///< the distorted input's alpha is a conversion's (set there too)
    int      ref_alpha_added; ///< the reference's alpha is a conversion's (set there too)
    int      end_with_ref;  ///< shortest=1, eof_action=endall: the output ends with the reference
    int64_t  ref_shift;     ///< reference frames are moved this much earlier (framesync's time base)
    int64_t  nb_ref_looked; ///< reference frames looked at (and moved) before framesync took them
    int64_t  last_ref_in_pts; ///< the last of them (the reference link's time base)
    int      ref_restarted; ///< SSIMULACRA2_REF_*: its frames since are moved past any time
    int64_t  ref_far_pts;   ///< to there (the reference link's time base)
    AVFrame *first_picture; ///< the reference's first frame, while its frames keep its time
    int      first_differs; ///< a frame at that time is another picture (or a GPU frame)
    int64_t  nb_ref_at_first; ///< reference frames at its first frame's time
    int64_t  first_ref_us;  ///< the reference's first frame (AV_TIME_BASE), as framesync takes it in
    int      started;       ///< the graph ran (a graph refused while configured never does)
    int      finished;      ///< the inputs have ended and the outputs are written
    int      stdout_failed; ///< a stats line could not be written to standard output (said once)
    int      interlaced_run[2]; ///< scored frames in a row flagged interlaced, per input (reference, distorted)
} SSIMULACRA2Common;

#define SSIMULACRA2_COMMON_OPTIONS(ctxtype, flags)                                                          \
    { "stats_file", "Set file where to store per-frame scores ('-' = stdout)",                              \
        offsetof(ctxtype, common.stats_file_str), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, flags },      \
    { "f",          "Set file where to store per-frame scores ('-' = stdout)",                              \
        offsetof(ctxtype, common.stats_file_str), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, flags },      \
    { "log_path",   "Set file where to write the full-precision log",                                       \
        offsetof(ctxtype, common.log_path), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, flags },            \
    { "log_fmt",    "Set the log format",                                                                  \
        offsetof(ctxtype, common.log_fmt), AV_OPT_TYPE_INT, { .i64 = SSIMULACRA2_LOG_JSON },                \
        SSIMULACRA2_LOG_JSON, SSIMULACRA2_LOG_XML, flags, .unit = "log_fmt" },                              \
        { "json", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = SSIMULACRA2_LOG_JSON }, 0, 0, flags,                 \
          .unit = "log_fmt" },                                                                              \
        { "csv",  NULL, 0, AV_OPT_TYPE_CONST, { .i64 = SSIMULACRA2_LOG_CSV },  0, 0, flags,                 \
          .unit = "log_fmt" },                                                                              \
        { "xml",  NULL, 0, AV_OPT_TYPE_CONST, { .i64 = SSIMULACRA2_LOG_XML },  0, 0, flags,                 \
          .unit = "log_fmt" },                                                                              \
    { "n_subsample", "Score every n-th frame, pass the others through unscored",                           \
        offsetof(ctxtype, common.n_subsample), AV_OPT_TYPE_INT, { .i64 = 1 }, 1, INT_MAX, flags },         \
    { "matrix",     "Override the Y'CbCr matrix of both inputs",                                           \
        offsetof(ctxtype, common.matrix), AV_OPT_TYPE_INT, { .i64 = -1 }, -1, AVCOL_SPC_NB - 1, flags,     \
        .unit = "matrix" },                                                                                \
        { "auto",    "from the frames; untagged: the other input's, bt601 beside RGB, else bt709 from 720 lines", \
            0, AV_OPT_TYPE_CONST, { .i64 = -1 }, 0, 0, flags, .unit = "matrix" },                          \
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
    { "chroma_loc", "Override the chroma siting of both inputs",                                           \
        offsetof(ctxtype, common.chroma_loc), AV_OPT_TYPE_INT, { .i64 = -1 }, -1, AVCHROMA_LOC_NB - 1,    \
        flags, .unit = "chroma_loc" },                                                                     \
        { "auto",    "from the frames; untagged: the other input's, else left (beside RGB: center)",       \
            0, AV_OPT_TYPE_CONST,                                                                          \
            { .i64 = -1 }, 0, 0, flags, .unit = "chroma_loc" },                                            \
        { "left",    NULL, 0, AV_OPT_TYPE_CONST, { .i64 = AVCHROMA_LOC_LEFT },    0, 0, flags, .unit = "chroma_loc" }, \
        { "center",  NULL, 0, AV_OPT_TYPE_CONST, { .i64 = AVCHROMA_LOC_CENTER },  0, 0, flags, .unit = "chroma_loc" }, \
        { "topleft", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = AVCHROMA_LOC_TOPLEFT }, 0, 0, flags, .unit = "chroma_loc" }, \
        { "top",     NULL, 0, AV_OPT_TYPE_CONST, { .i64 = AVCHROMA_LOC_TOP },     0, 0, flags, .unit = "chroma_loc" }, \
        { "bottomleft", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = AVCHROMA_LOC_BOTTOMLEFT }, 0, 0, flags, .unit = "chroma_loc" }, \
        { "bottom",  NULL, 0, AV_OPT_TYPE_CONST, { .i64 = AVCHROMA_LOC_BOTTOM },  0, 0, flags, .unit = "chroma_loc" }, \
    { "transfer",   "Set how R'G'B' is linearised",                                                        \
        offsetof(ctxtype, common.transfer), AV_OPT_TYPE_INT, { .i64 = SSIMU2_TRC_SRGB },                   \
        SSIMU2_TRC_SRGB, SSIMU2_TRC_LINEAR, flags, .unit = "transfer" },                                   \
        { "srgb",    "the reference tool's sRGB curve", 0, AV_OPT_TYPE_CONST, { .i64 = SSIMU2_TRC_SRGB },   \
            0, 0, flags, .unit = "transfer" },                                                             \
        { "bt1886",  "pure power 2.4", 0, AV_OPT_TYPE_CONST, { .i64 = SSIMU2_TRC_BT1886 },                 \
            0, 0, flags, .unit = "transfer" },                                                             \
        { "linear",  "samples are linear light", 0, AV_OPT_TYPE_CONST, { .i64 = SSIMU2_TRC_LINEAR },       \
            0, 0, flags, .unit = "transfer" },                                                             \
    { "pool",       "Set the statistic of the final score line",                                           \
        offsetof(ctxtype, common.pool), AV_OPT_TYPE_INT, { .i64 = SSIMU2_POOL_MEAN },                      \
        SSIMU2_POOL_MEAN, SSIMU2_POOL_MAX, flags, .unit = "pool" },                                        \
        { "mean",          NULL, 0, AV_OPT_TYPE_CONST, { .i64 = SSIMU2_POOL_MEAN },          0, 0, flags, .unit = "pool" }, \
        { "harmonic_mean", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = SSIMU2_POOL_HARMONIC_MEAN }, 0, 0, flags, .unit = "pool" }, \
        { "min",           NULL, 0, AV_OPT_TYPE_CONST, { .i64 = SSIMU2_POOL_MIN },           0, 0, flags, .unit = "pool" }, \
        { "p1",            NULL, 0, AV_OPT_TYPE_CONST, { .i64 = SSIMU2_POOL_P1 },            0, 0, flags, .unit = "pool" }, \
        { "p5",            NULL, 0, AV_OPT_TYPE_CONST, { .i64 = SSIMU2_POOL_P5 },            0, 0, flags, .unit = "pool" }, \
        { "p10",           NULL, 0, AV_OPT_TYPE_CONST, { .i64 = SSIMU2_POOL_P10 },           0, 0, flags, .unit = "pool" }, \
        { "median",        NULL, 0, AV_OPT_TYPE_CONST, { .i64 = SSIMU2_POOL_MEDIAN },        0, 0, flags, .unit = "pool" }, \
        { "p95",           NULL, 0, AV_OPT_TYPE_CONST, { .i64 = SSIMU2_POOL_P95 },           0, 0, flags, .unit = "pool" }, \
        { "max",           NULL, 0, AV_OPT_TYPE_CONST, { .i64 = SSIMU2_POOL_MAX },           0, 0, flags, .unit = "pool" }, \
    { "profile",    "Log the mean processing time per scored frame",                                       \
        offsetof(ctxtype, common.profile), AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, flags },                  \
    { "n_threads",  "Set the threads the filter may use, as threads= does (libvmaf's name; 0: threads=)",   \
        offsetof(ctxtype, common.n_threads), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, INT_MAX, flags }

/**
 * Software pixel formats whose samples the filters can read, ending in
 * AV_PIX_FMT_NONE. The CUDA filter accepts the subset its hwcontext offers.
 */
extern const enum AVPixelFormat ff_ssimulacra2_pix_fmts[];

/**
 * Check one pair of frames, or of input links: same size, at least 8x8, and
 * each format in list (the two formats may differ: each input is read with
 * its own descriptor). Logs a message naming the problem and the fix.
 *
 * @param links the sizes are those of the links (graph configuration):
 *              sizes that differ are left to the frames, because ffmpeg
 *              rebuilds a graph as soon as one input changes, before the
 *              other input's frames of the new size arrive
 * @param list  supported formats, ending in AV_PIX_FMT_NONE
 */
int ff_ssimulacra2_check_pair(AVFilterContext *ctx, int links, int main_w, int main_h,
                              enum AVPixelFormat main_fmt, int ref_w, int ref_h,
                              enum AVPixelFormat ref_fmt, const enum AVPixelFormat *list);

/**
 * Reading of the samples of both frames of a pair: tags that one frame lacks
 * are taken from the other, options override both, and every inheritance,
 * disagreement or tag that is not honoured is logged once a run (c->run).
 *
 * @param fmt   software formats of the reference and the distorted frame
 * @param frame reference and distorted frame (colour tags, height)
 * @param p     receives the reading of each, [0] = reference
 * @return 0, or AVERROR(ENOSYS) for a matrix the filters cannot read
 */
int ff_ssimulacra2_colour_pair(AVFilterContext *ctx, SSIMULACRA2Common *c,
                               const enum AVPixelFormat fmt[2], const AVFrame *const frame[2],
                               SSIMU2Colour p[2]);

/**
 * A link's frame rate is known: 1/0 is FFmpeg's "variable or unknown" (concat
 * of parts of different rates, setpts=strip_fps=1), a frame of no length.
 */
static inline int ff_ssimulacra2_rate_known(AVRational rate)
{
    return rate.num > 0 && rate.den > 0;
}

/** The format of a frame's samples: of hardware frames, their software format. */
enum AVPixelFormat ff_ssimulacra2_sw_format(const AVFrame *frame);

/** The format of the samples of a link's frames (of CUDA frames: their software format). */
enum AVPixelFormat ff_ssimulacra2_link_sw_format(const AVFilterLink *link);

/**
 * Whether a link's frames were decoded as RGB or gray, not made so from Y'CbCr
 * in the graph: by the formats of the sources it is made from.
 */
int ff_ssimulacra2_link_decoded_rgb(const AVFilterLink *link);

/**
 * Whether a link's alpha was added by a conversion before it (an RGB BMP made
 * rgba beside an RGBA reference): opaque, not the source's.
 */
int ff_ssimulacra2_link_alpha_added(const AVFilterLink *link);

/** Pixel format has an alpha channel. */
int ff_ssimulacra2_has_alpha(enum AVPixelFormat fmt);

/** A matrix with Kr/Kb coefficients: the only kind the conversion reads. */
int ff_ssimulacra2_matrix_readable(enum AVColorSpace csp);

/**
 * The matrix of a Y'CbCr frame of this height without one: BT.601 beside an
 * RGB or gray frame (other: its format, or NULL), the matrix FFmpeg's
 * conversions make untagged Y'CbCr from RGB with; else by height, as
 * players guess (BT.709 from 720 lines).
 */
enum AVColorSpace ff_ssimulacra2_matrix_guess(const AVPixFmtDescriptor *other, int height);

/** yuvj formats are full range, whatever their tag or the range option says. */
int ff_ssimulacra2_is_yuvj(const AVPixFmtDescriptor *desc);

/**
 * The range a frame of format desc is read with: yuvj formats full; tag
 * (-1: untagged) else, an untagged frame by the convention of its format
 * (FFmpeg's: Y'CbCr limited; gray full, as the reference tool reads a gray
 * image).
 */
int ff_ssimulacra2_range_read(const AVPixFmtDescriptor *desc, int tag);

/**
 * Refuse a conversion lavfi inserted before input 0 or 1 that would change
 * what is scored (alpha, depth, chroma, colours, tags), naming a format the
 * filter reads; called when the output is configured.
 */
int ff_ssimulacra2_check_conversions(AVFilterContext *ctx);

/**
 * Final score from the per-scale sums.
 *
 * @param sums       sums[scale][channel][k], k as in ssimu2_pixel_terms()
 * @param nb_scales  number of scales evaluated
 * @param w, h       size of scale 0
 */
double ff_ssimulacra2_score(const double sums[][3][SSIMU2_NB_SUMS], int nb_scales,
                            int w, int h);

/**
 * Slice jobs a frame may use: the filter's threads, at least one (a graph
 * whose slice threading is off, thread_type 0, reports none: no job ran).
 */
int ff_ssimulacra2_nb_threads(AVFilterContext *ctx);

/** Log that memory ran out, naming what needed how many bytes for w x h frames. */
void ff_ssimulacra2_log_nomem(AVFilterContext *ctx, const char *what, int w, int h,
                              double bytes);

struct FFFrameSync;

/**
 * Format negotiation of the CPU filter: each input any supported format
 * (lavfi converts the others), the output the main input's format.
 */
int ff_ssimulacra2_query_formats(const AVFilterContext *ctx,
                                 AVFilterFormatsConfig **cfg_in,
                                 AVFilterFormatsConfig **cfg_out);

/**
 * Output link setup of both filters: dual-input framesync, size, SAR, frame
 * rate and time base of the main input; warns when the frame rates differ;
 * starts (or, in a rebuilt graph, continues) the run of scores.
 */
int ff_ssimulacra2_config_output(AVFilterLink *outlink, struct FFFrameSync *fs,
                                 SSIMULACRA2Common *c);

/**
 * ff_framesync_activate() after moving the reference frames framesync has
 * not seen yet by the pairing tolerance (ff_ssimulacra2_config_output()).
 */
int ff_ssimulacra2_framesync_activate(AVFilterContext *ctx, SSIMULACRA2Common *c,
                                      struct FFFrameSync *fs);

/**
 * Start the run of an instance whose graph is configured (ffmpeg also
 * creates instances that it discards unconfigured: they write nothing), or
 * continue the run of a rebuilt graph's instance of the same name. Refuses
 * output paths that another instance writes or that are open as inputs.
 */
int ff_ssimulacra2_start_run(AVFilterContext *ctx, SSIMULACRA2Common *c);

/** End the output at the distorted frame main, as framesync ends it; frees main. Returns 0. */
int ff_ssimulacra2_end_output(AVFilterContext *ctx, struct FFFrameSync *fs, AVFrame **main);

/** Check the output options; opens nothing (see ff_ssimulacra2_config_output()). */
av_cold int ff_ssimulacra2_common_init(AVFilterContext *ctx, SSIMULACRA2Common *c);

/**
 * Index (from 0, over the whole run) of the next distorted frame, and
 * whether it gets a score: n_subsample, timeline and a reference frame.
 * Counts the doubtful pairings of scored frames: a reference frame used
 * again (the reference ended, or has fewer frames per second) and
 * timestamps more than half a frame apart. A frame without a timestamp
 * cannot be paired: an error. AVERROR_EOF: the frame comes after the
 * reference's end and the output ends there (shortest=1, endall): the caller
 * returns ff_ssimulacra2_end_output().
 */
int ff_ssimulacra2_next_frame(AVFilterContext *ctx, SSIMULACRA2Common *c,
                              const struct FFFrameSync *fs, AVFrame *main,
                              const AVFrame *ref, int64_t *index);

/** The frame metadata of a score (a frame not scored has none, also not an earlier instance's). */
#define SSIMULACRA2_SCORE_KEY "lavfi.ssimulacra2.score"

/**
 * Container rounding: Matroska, WebM and FLV keep milliseconds, so a frame's
 * timestamp lies up to a millisecond either side of its pair's (41.708 ms
 * stored as 42). Timestamps this close (AV_TIME_BASE units) are the same time:
 * the pairing's tolerance, and the bound of every timing check.
 */
#define SSIMULACRA2_ROUNDING_US 2000

/** How the reference started again (SSIMULACRA2Common.ref_restarted): it
 * ends there; every frame at one time, a looped image, is paired with all. */
enum { SSIMULACRA2_REF_RESTARTED = 1, SSIMULACRA2_REF_STILL };

/** A time past any frame's (after the last one's, for times of the wall
 * clock), which a rescale into framesync's time base (at most AV_TIME_BASE /
 * 2 ticks a second) cannot overflow. */
#define SSIMULACRA2_PTS_FAR (INT64_MAX >> 24)

/** How long (AV_TIME_BASE) the distorted video may go on after the reference
 * before it is said at once, not at the end: an endless one has no end. */
#define SSIMULACRA2_ENDLESS_US (60 * (int64_t)AV_TIME_BASE)

/**
 * Record one score: frame metadata lavfi.ssimulacra2.score, the stats line
 * on standard output, the log entry. elapsed_ms is the processing time of
 * the frame (for the profile option).
 */
int ff_ssimulacra2_report(AVFilterContext *ctx, SSIMULACRA2Common *c, AVFrame *main,
                          int64_t frame_index, double score, double elapsed_ms);

/**
 * The inputs have ended: write the summary, the log and the stats file.
 * Returns an error (after a message naming the file) when a file could not
 * be written, so that ffmpeg exits with an error.
 */
int ff_ssimulacra2_finish(AVFilterContext *ctx, SSIMULACRA2Common *c, struct FFFrameSync *fs);

/**
 * Close the run of this instance. Without ff_ssimulacra2_finish() (the graph
 * is rebuilt, or the output was closed first) the files are written with
 * what was scored so far, and a rebuilt graph's instance continues them.
 */
av_cold void ff_ssimulacra2_common_uninit(AVFilterContext *ctx, SSIMULACRA2Common *c,
                                          struct FFFrameSync *fs);

#endif /* AVFILTER_SSIMULACRA2_H */
