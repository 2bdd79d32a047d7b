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
 * Final score and frame pairing of the two SSIMULACRA2 filters, so that a
 * script cannot tell them apart except by speed. The formats they take are in
 * ssimulacra2_formats.c, the colour reading in ssimulacra2_colour.c, their
 * outputs in ssimulacra2_report.c.
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/imgutils.h"
#include "libavutil/mem.h"
#include "libavutil/pixdesc.h"

#include "filters.h"
#include "framesync.h"
#include "ssimulacra2.h"

/* reference frames at its first time that make it an image looped: of one
 * picture, or of any (GPU frames, not compared) */
#define STILL_SAME_FRAMES 3
#define STILL_FRAMES      8

static int same_picture(const AVFrame *a, const AVFrame *b);

/**
 * Whether the reference's frames at its first time are one picture, as an
 * image looped by movie= gives (0, 0, 0, 1, ... of other pictures, from file
 * times, had been taken for one: 22 of 24 frames scored against the third).
 */
static void note_first_pictures(SSIMULACRA2Common *c, const AVFrame *f, int at_first)
{
    if (!at_first || c->first_differs) {
        av_frame_free(&c->first_picture);
        return;
    }
    if (!c->first_picture) {
        c->first_picture = f->hw_frames_ctx ? NULL : av_frame_clone(f);
        c->first_differs = !c->first_picture;
    } else
        c->first_differs = f->hw_frames_ctx || !same_picture(c->first_picture, f);
}

double ff_ssimulacra2_score(const double sums[][3][SSIMU2_NB_SUMS], int nb_scales,
                            int w, int h)
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
            int scale_w = w, scale_h = h;
            double inv, v[2][3];
            for (int k = 0; k < s; k++) {
                scale_w = ssimu2_half_size(scale_w);
                scale_h = ssimu2_half_size(scale_h);
            }
            inv = 1.0 / ((double)scale_w * scale_h);
            for (int m = 0; m < 3; m++) {
                v[0][m] = inv * sums[s][c][2 * m];
                v[1][m] = sqrt(sqrt(inv * sums[s][c][2 * m + 1]));
            }
            for (int n = 0; n < 2; n++) {
                for (int m = 0; m < 3; m++) {
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

int ff_ssimulacra2_nb_threads(AVFilterContext *ctx)
{
    return FFMAX(1, ff_filter_get_nb_threads(ctx));
}

void ff_ssimulacra2_log_nomem(AVFilterContext *ctx, const char *what, int w, int h,
                              double bytes)
{
    /* (small frames: in tenths, not "needs 0 MiB") */
    av_log(ctx, AV_LOG_ERROR, "Out of memory: %s for %dx%d frames needs %.*f MiB. Free memory "
           "(or raise -max_alloc, if given), or score smaller frames (scale both inputs down, "
           "which changes what is measured).\n",
           what, w, h, bytes < 100 * 1048576.0, bytes / 1048576.0);
}

/**
 * Pair with the reference frame at or before the distorted frame's time plus
 * SSIMULACRA2_ROUNDING_US, at most a quarter frame (framesync pairs a
 * distorted frame with the reference frame at or before it: a reference
 * rounded up, or a distorted frame rounded down, took the reference frame
 * before, a third of the frames at 24000/1001 fps, 3.8 instead of 40.9 for an
 * MP4 encode of an MKV source): the reference frames are moved
 * that much earlier before framesync takes them in. framesync's time base
 * holds both inputs' timestamps (a tolerance in the reference's own may be 0
 * ticks: 1001/24000 against milliseconds), so they are given in it. A start
 * offset is kept as it is, not taken for the next frame (which nearest would).
 * The reference's last frame is repeated whatever the options (see
 * ff_ssimulacra2_config_output()): framesync's own end rules would end it a
 * tick after its last frame's moved time, before the distorted frame paired
 * with it.
 */
static void set_pair_tolerance(FFFrameSync *fs, SSIMULACRA2Common *c,
                               AVRational rate_main, AVRational rate_ref)
{
    int64_t tol = SSIMULACRA2_ROUNDING_US;

    if (ff_ssimulacra2_rate_known(rate_main))
        tol = FFMIN(tol, av_rescale_q(1, av_inv_q(rate_main), AV_TIME_BASE_Q) / 4);
    if (ff_ssimulacra2_rate_known(rate_ref))
        tol = FFMIN(tol, av_rescale_q(1, av_inv_q(rate_ref), AV_TIME_BASE_Q) / 4);
    c->ref_shift = c->ts_nearest ? 0 :
                   av_rescale_q_rnd(tol, AV_TIME_BASE_Q, fs->time_base, AV_ROUND_DOWN);
    if (c->ref_shift > 0)
        fs->in[1].time_base = fs->time_base;
}

/* the timestamps of input i (0 distorted, 1 reference) from one frame to the
 * next (us): going back by more than the rounding of a container, the frames
 * after are paired with the wrong frames of the other input; rebuilt: to_us is
 * the first frame of a rebuilt graph */
static void note_back(SSIMULACRA2Run *run, int i, int64_t from_us, int64_t to_us, int rebuilt)
{
    if (to_us >= from_us - SSIMULACRA2_ROUNDING_US)
        return;
    if (!run->nb_back[i]++) {
        run->back_from_us[i]    = from_us;
        run->back_us[i]         = to_us;
        run->back_at_rebuild[i] = rebuilt;
    }
}

/* a step forward of input i from one frame to the next (us): its spread
 * tells variable timing (log_pairing_warnings()); more than 1.5 of the
 * shortest steps so far is a gap, not counted in the spread: a looped input's
 * passes are offset by the file's longest stream (-stream_loop with an audio
 * track longer than the video: every pair after the gap a fraction of a frame
 * off). The link's frame rate does not tell: a Matroska file's may be a guess */
static void note_step(SSIMULACRA2Run *run, int i, int64_t from_us, int64_t to_us)
{
    int64_t step = to_us - from_us;

    if (step <= 0)
        return;
    run->nb_steps[i]++;
    if (run->step_min_us[i] != INT64_MAX &&
        step > run->step_min_us[i] * 3 / 2 + SSIMULACRA2_ROUNDING_US) {
        if (!run->nb_gaps[i]++) {
            run->gap_from_us[i] = from_us;
            run->gap_us[i]      = step;
        }
        return;
    }
    run->step_min_us[i] = FFMIN(run->step_min_us[i], step);
    run->step_max_us[i] = FFMAX(run->step_max_us[i], step);
}

int ff_ssimulacra2_framesync_activate(AVFilterContext *ctx, SSIMULACRA2Common *c,
                                      FFFrameSync *fs)
{
    AVFilterLink *rl = ctx->inputs[1];
    size_t queued = ff_inlink_queued_frames(rl);

    /* every frame framesync consumes was queued at an earlier call: each is
     * looked at once before, for the reference's first time (where the first
     * pair is measured from), timestamps that go back, and the move of the
     * pairing tolerance */
    int64_t start = c->nb_ref_looked - ff_filter_link(rl)->frame_count_out;

    c->started = 1;
    if (start < 0) {    /* (only framesync consumes them, after this loop) */
        c->nb_ref_looked = ff_filter_link(rl)->frame_count_out;
        start = 0;
    }
    for (size_t i = start; i < queued; i++) {
        AVFrame *f = ff_inlink_peek_frame(rl, i);

        if (f->pts != AV_NOPTS_VALUE) {
            int64_t us = av_rescale_q(f->pts, rl->time_base, AV_TIME_BASE_Q);
            /* (exactly: frames 1 ms apart at 1000 fps are not one time) */
            if (!c->nb_ref_looked)
                c->first_ref_us = us;
            c->nb_ref_at_first += us <= c->first_ref_us;
            note_first_pictures(c, f, us <= c->first_ref_us);
            if (c->nb_ref_looked && c->last_ref_in_pts != AV_NOPTS_VALUE) {
                int64_t prev = av_rescale_q(c->last_ref_in_pts, rl->time_base, AV_TIME_BASE_Q);
                /* back to its first frame's time, or a third frame of its
                 * picture at it: the reference starts again (a looped movie=
                 * source, files joined with -copyts); pairs after would be of
                 * other pictures, and past its end framesync read on for a frame
                 * later than the last distorted one, for ever with loop=0 (ffmpeg
                 * hung, deaf to signals). It ends here: its frames from this one
                 * on are moved past any time. Every frame at one time: an image
                 * looped, which every distorted frame is paired with, as with
                 * -loop 1 */
                if (c->ref_restarted || c->nb_ref_at_first >=
                    (c->first_differs ? STILL_FRAMES : STILL_SAME_FRAMES) ||
                    (us < prev - SSIMULACRA2_ROUNDING_US &&
                     us <= c->first_ref_us + SSIMULACRA2_ROUNDING_US)) {
                    if (!c->ref_restarted) {
                        c->ref_restarted = c->nb_ref_at_first > c->nb_ref_looked ?
                                           SSIMULACRA2_REF_STILL : SSIMULACRA2_REF_RESTARTED;
                        if (c->ref_restarted == SSIMULACRA2_REF_RESTARTED)
                            c->run->ref_restart_us = prev;
                        /* past wall-clock times kept by -copyts too (before them,
                         * the moved frames went back: framesync read for ever) */
                        c->ref_far_pts = SSIMULACRA2_PTS_FAR;
                        if (c->last_ref_in_pts > 0 && c->last_ref_in_pts < INT64_MAX / 4)
                            c->ref_far_pts += c->last_ref_in_pts;
                    }
                    f->pts = c->ref_far_pts;
                    c->nb_ref_looked++;
                    continue;
                }
                note_back(c->run, 1, prev, us, 0);
                note_step(c->run, 1, prev, us);
            }
            c->last_ref_in_pts = f->pts;
            if (c->ref_shift > 0)
                f->pts = av_rescale_q_rnd(f->pts, rl->time_base, fs->time_base,
                                          AV_ROUND_NEAR_INF | AV_ROUND_PASS_MINMAX) - c->ref_shift;
        }
        c->nb_ref_looked++;
    }
    return ff_framesync_activate(fs);
}

int ff_ssimulacra2_end_output(AVFilterContext *ctx, FFFrameSync *fs, AVFrame **main)
{
    fs->eof = 1;
    ff_outlink_set_status(ctx->outputs[0], AVERROR_EOF, (*main)->pts);
    av_frame_free(main);
    return 0;
}

/* A link's sample aspect ratio; an unset one is shown square (beside 4:3 it
 * had gone unwarned) */
static AVRational sar_or_square(const AVFilterLink *link)
{
    return link->sample_aspect_ratio.num > 0 ? link->sample_aspect_ratio : (AVRational){ 1, 1 };
}

int ff_ssimulacra2_config_output(AVFilterLink *outlink, FFFrameSync *fs, SSIMULACRA2Common *c)
{
    AVFilterContext *ctx = outlink->src;
    AVFilterLink *mainlink = ctx->inputs[0];
    AVRational rate_main = ff_filter_link(mainlink)->frame_rate;
    AVRational rate_ref  = ff_filter_link(ctx->inputs[1])->frame_rate;
    AVRational sar_main, sar_ref;
    int ret;

    if ((ret = ff_ssimulacra2_check_conversions(ctx)) < 0)
        return ret;
    ret = ff_framesync_init_dualinput(fs, ctx);
    if (ret < 0)
        return ret;
    /* The output is the distorted video: it ends with it. Dual-input
     * framesync would go on repeating its last frame at each frame of a
     * longer reference, and score it against pictures it never showed. */
    fs->in[0].after = EXT_STOP;
    outlink->w = mainlink->w;
    outlink->h = mainlink->h;
    outlink->time_base = mainlink->time_base;
    outlink->sample_aspect_ratio = mainlink->sample_aspect_ratio;
    ff_filter_link(outlink)->frame_rate = rate_main;
    /* The reference is read as with the defaults whatever the framesync
     * options (both time bases, sync 1, its last frame repeated), and the
     * filter keeps their end rules itself (past_reference_end(), end_with_ref
     * in ff_ssimulacra2_next_frame()): framesync's own ended the reference a
     * tick after its last frame, out of the pairing tolerance's reach, and
     * with sync 0 before its next frame was read (doc/notes.md, "framesync's
     * other options"). */
    fs->time_base = av_gcd_q(mainlink->time_base, ctx->inputs[1]->time_base,
                             AV_TIME_BASE / 2, AV_TIME_BASE_Q);
    ret = ff_framesync_configure(fs);
    if (ret < 0)
        return ret;
    c->end_with_ref = fs->opt_shortest;
    fs->in[1].sync  = 1;
    fs->in[1].after = EXT_INFINITY;
    outlink->time_base = fs->time_base;
    c->ts_nearest = fs->opt_ts_sync_mode == TS_NEAREST;
    c->image_pair = ff_ssimulacra2_link_decoded_rgb(mainlink) &&
                    ff_ssimulacra2_link_decoded_rgb(ctx->inputs[1]);
    c->alpha_added     = ff_ssimulacra2_link_alpha_added(mainlink);
    c->ref_alpha_added = ff_ssimulacra2_link_alpha_added(ctx->inputs[1]);
    set_pair_tolerance(fs, c, rate_main, rate_ref);
    if (av_cmp_q(mainlink->time_base, outlink->time_base) ||
        av_cmp_q(ctx->inputs[1]->time_base, outlink->time_base))
        av_log(ctx, AV_LOG_VERBOSE, "Time bases differ: distorted %d/%d, reference %d/%d; "
               "framesync pairs the frames in their common time base.\n",
               mainlink->time_base.num, mainlink->time_base.den,
               ctx->inputs[1]->time_base.num, ctx->inputs[1]->time_base.den);
    if ((ret = ff_ssimulacra2_start_run(ctx, c)) < 0)
        return ret;
    /* once a run (a rebuilt graph had said it again) */
    sar_main = sar_or_square(mainlink);
    sar_ref  = sar_or_square(ctx->inputs[1]);
    /* (within 1 %: WebM keeps whole display pixels, scale= rounds: 853:720 for 32:27) */
    if (fabs(av_q2d(sar_main) / av_q2d(sar_ref) - 1.0) > 0.01 && !c->run->said_sar) {
        c->run->said_sar = 1;
        av_log(ctx, AV_LOG_WARNING, "The inputs' sample aspect ratios differ (distorted %d:%d%s, "
               "reference %d:%d%s): they are shown with different shapes, and their pixels are "
               "compared as they are.\n", sar_main.num, sar_main.den,
               mainlink->sample_aspect_ratio.num > 0 ? "" : " (unset: square)",
               sar_ref.num, sar_ref.den,
               ctx->inputs[1]->sample_aspect_ratio.num > 0 ? "" : " (unset: square)");
    }
    return 0;
}

/**
 * Frames ffmpeg dropped inside the old graph when it rebuilt it: the gap
 * between where the first distorted frame of the new one was due and where
 * it is. They count as frames (so the numbering stays the input's) due a
 * score without one. A longer gap is a jump in the timestamps, not a loss.
 * Whether frames were counted lost.
 */
static int count_lost_frames(SSIMULACRA2Common *c, int64_t now, int64_t step)
{
    SSIMULACRA2Run *run = c->run;
    int64_t lost;

    if (now == AV_NOPTS_VALUE || run->next_main_us == AV_NOPTS_VALUE || step <= 0)
        return 0;
    lost = (now - run->next_main_us + step / 2) / step;
    if (lost <= 0 || lost > 16)
        return 0;
    for (; lost > 0; lost--)
        if (run->nb_frames++ % c->n_subsample == 0) {
            run->nb_unpaired++;
            run->nb_lost++;
        }
    return 1;
}

/* A frame without a timestamp cannot be paired: framesync would take it as
 * earlier than every other (a reference of such frames is scored as its
 * last frame, a distorted input gets no score at all). */
static int check_timestamp(AVFilterContext *ctx, const FFFrameSync *fs, int input)
{
    static const char *const names[2] = { "distorted", "reference" };

    /* framesync keeps a frame's own pts (the event's replaces the distorted one's) */
    if (!fs->in[input].frame || fs->in[input].pts != AV_NOPTS_VALUE)
        return 0;
    av_log(ctx, AV_LOG_ERROR, "A frame of the %s input has no timestamp (a raw H.264/HEVC "
           "stream read by movie= has none): frames are paired by timestamp. Give that input "
           "timestamps, e.g. setpts=N/(RATE*TB) with its frame rate RATE.\n", names[input]);
    return AVERROR(EINVAL);
}

/* the distance between the two timestamps is a frame, give or take the
 * rounding of a container (Matroska: milliseconds on each side) or uneven
 * timestamps (a quarter frame): a pair the nearest pairing mends */
static int off_by_rounding(int64_t diff_us, int64_t step_us)
{
    return step_us > 0 && llabs(llabs(diff_us) - step_us) <=
                          FFMAX(SSIMULACRA2_ROUNDING_US, step_us / 4);
}

/* a reference frame's own time, in framesync's time base (the pairing
 * tolerance moved its pts earlier) */
static int64_t ref_time(const SSIMULACRA2Common *c, const AVFrame *ref)
{
    return ref->pts + c->ref_shift;
}

/**
 * framesync repeats the reference's last frame once the reference has ended
 * (it holds the status, not a frame, as its next): a distorted frame due
 * after that frame's time has no reference frame. Such frames came from a
 * shorter reference, or from ffmpeg stopping (q, Ctrl-C, a signal) while the
 * distorted input's decoder still held frames: the two last frames of an
 * H.264 encode with B-frames were scored against the last reference frame.
 */
static int past_reference_end(AVFilterContext *ctx, const SSIMULACRA2Common *c,
                              const FFFrameSync *fs, const AVFrame *main, const AVFrame *ref,
                              int64_t dur)
{
    AVRational rate = ff_filter_link(ctx->inputs[1])->frame_rate;
    int64_t ref_dur = ff_ssimulacra2_rate_known(rate) ?
                      av_rescale_q(1, av_inv_q(rate), ctx->outputs[0]->time_base) : dur;

    /* a next frame of a reference that started again is none: it ended (an
     * image looped by movie= never does); framesync gave the frame its time
     * base, at least as fine as the input's */
    if (c->ref_restarted == SSIMULACRA2_REF_STILL || !fs->in[1].have_next ||
        (fs->in[1].frame_next && (!c->ref_restarted || fs->in[1].frame_next->pts <
                                  av_rescale_q(c->ref_far_pts, ctx->inputs[1]->time_base,
                                               fs->time_base))))
        return 0;
    /* a last frame held longer (a GIF's final delay: its duration, which
     * framesync leaves in the input's time base) */
    if (ref->duration > 0)
        ref_dur = FFMAX(ref_dur, av_rescale_q(ref->duration, ctx->inputs[1]->time_base,
                                              ctx->outputs[0]->time_base));
    /* where its next frame would have been, as the pairing takes the next one
     * (at or before, ref->pts moved by the tolerance): a start offset of a
     * fraction of a frame keeps the last pair (MKV remux of an MP4 with AAC,
     * 23 ms); without a duration, after its time */
    return ref_dur > 0 ? main->pts - ref->pts >= ref_dur : main->pts > ref_time(c, ref);
}

/**
 * Where the first pair is: the distorted frame's time from its reference
 * frame's (now, ref_us), and the reference frames framesync took in before
 * that one (it holds the paired frame, and perhaps the next). The distorted
 * video of an AVI with B-frames starts two frames late, and every frame was
 * scored against the reference two frames on.
 */
static void note_start(AVFilterContext *ctx, SSIMULACRA2Common *c, const FFFrameSync *fs,
                       int64_t now, int64_t ref_us)
{
    SSIMULACRA2Run *run = c->run;
    int64_t skipped = ff_filter_link(ctx->inputs[1])->frame_count_out - 1 - !!fs->in[1].frame_next;

    run->start_gap_us = now - ref_us;
    /* (a distorted video that starts earlier had its first frames unpaired instead) */
    if (c->first_ref_us == AV_NOPTS_VALUE || ref_us - c->first_ref_us <= SSIMULACRA2_ROUNDING_US ||
        skipped <= 0 || run->first_main_us - c->first_ref_us <= SSIMULACRA2_ROUNDING_US)
        return;
    run->start_skipped    = skipped;
    run->start_skipped_us = ref_us - c->first_ref_us;
}

/** Whether two software frames hold the same picture, sample for sample. */
static int same_picture(const AVFrame *a, const AVFrame *b)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(a->format);

    if (a->format != b->format || a->width != b->width || a->height != b->height || !desc)
        return 0;
    for (int p = 0; p < av_pix_fmt_count_planes(a->format); p++) {
        int bytes = av_image_get_linesize(a->format, a->width, p);
        int rows  = p == 1 || p == 2 ? AV_CEIL_RSHIFT(a->height, desc->log2_chroma_h) : a->height;
        /* one buffer (the loop filter hands out the same one) */
        if (a->data[p] == b->data[p] && a->linesize[p] == b->linesize[p])
            continue;
        for (int y = 0; y < rows; y++)
            if (memcmp(a->data[p] + (ptrdiff_t)y * a->linesize[p],
                       b->data[p] + (ptrdiff_t)y * b->linesize[p], bytes))
                return 0;
    }
    return 1;
}

/**
 * Whether the reference changes: a still picture (an image looped with -loop
 * 1) is the same whichever of its frames a distorted frame is paired with,
 * and the pairing warnings would be false alarms. Each reference frame paired
 * is compared with the first until one differs (mostly in its first rows), in
 * the whole run (a rebuilt graph's frames of another size differ); GPU frames
 * are taken as changing.
 */
static void note_ref_change(SSIMULACRA2Run *run, const AVFrame *ref)
{
    if (run->ref_changes)
        return;
    if (!run->first_ref) {
        if (ref->hw_frames_ctx || !(run->first_ref = av_frame_clone(ref)))
            run->ref_changes = 1;
        return;
    }
    run->nb_ref_compared++;
    if (ref->hw_frames_ctx || !same_picture(run->first_ref, ref)) {
        run->ref_changes = 1;
        av_frame_free(&run->first_ref);
    }
}

/* a frame passed through unscored: no score key, also not one an earlier
 * instance of the filter set (two references scored in a chain) */
static int unscored(AVFrame *main)
{
    av_dict_set(&main->metadata, SSIMULACRA2_SCORE_KEY, NULL, 0);
    return 0;
}

int ff_ssimulacra2_next_frame(AVFilterContext *ctx, SSIMULACRA2Common *c, const FFFrameSync *fs,
                              AVFrame *main, const AVFrame *ref, int64_t *index)
{
    SSIMULACRA2Run *run = c->run;
    AVFilterLink *ml = ctx->inputs[0];
    AVRational tb = ctx->outputs[0]->time_base, rate = ff_filter_link(ml)->frame_rate;
    const AVFrame *paired;
    int64_t dur, now, step;
    int ret, past, rebuilt, lost;

    if ((ret = check_timestamp(ctx, fs, 0)) < 0 || (ret = check_timestamp(ctx, fs, 1)) < 0) {
        run->nb_no_pts++;
        return ret;
    }
    /* framesync gives the frame the output's time base, its duration stays in
     * the input's: a VFR frame that looked 5x shorter was dropped downstream */
    if (main->duration > 0)
        main->duration = av_rescale_q(main->duration, ml->time_base, tb);
    /* every reference frame framesync pairs, scored or not: the others it
     * took in were skipped (ff_ssimulacra2_finish() counts them); outside
     * the timeline's enable expression framesync gives none, but holds it */
    paired = ref ? ref : ctx->is_disabled ? fs->in[1].frame : NULL;
    /* a frame of the main input (half of it: the tolerance of timestamp rounding) */
    dur  = ff_ssimulacra2_rate_known(rate) ? av_rescale_q(1, av_inv_q(rate), tb) :
                                             FFMAX(main->duration, 0);
    past = paired && past_reference_end(ctx, c, fs, main, paired, dur);
    /* shortest=1, endall: this frame is not output, not counted */
    if (past && c->end_with_ref)
        return AVERROR_EOF;
    now  = av_rescale_q(main->pts, tb, AV_TIME_BASE_Q);
    step = ff_ssimulacra2_rate_known(rate) ? av_rescale_q(1, av_inv_q(rate), AV_TIME_BASE_Q) : 0;
    rebuilt = run->resumed;
    lost = rebuilt && count_lost_frames(c, now, step);
    run->resumed      = 0;
    run->next_main_us = step > 0 ? now + step : AV_NOPTS_VALUE;
    *index = run->nb_frames++;
    if (!*index) {
        run->first_main_us = now;
    } else {
        note_back(run, 0, run->last_main_us, now, rebuilt);
        /* (a step over frames lost at a rebuild, counted above, had been
         * said a jump too) */
        if (!lost)
            note_step(run, 0, run->last_main_us, now);
    }
    run->last_main_us = now;
    if (paired && paired->pts != c->last_paired_pts) {
        c->nb_ref_paired++;
        c->last_paired_pts = paired->pts;
        note_ref_change(run, paired);
        if (run->start_gap_us == AV_NOPTS_VALUE)
            note_start(ctx, c, fs, now, av_rescale_q(ref_time(c, paired), tb, AV_TIME_BASE_Q));
    }
    /* how long the distorted video goes on after the reference, every frame
     * counted (a start that late by as long: the same frames, shifted) */
    if (past && run->past_end_us == AV_NOPTS_VALUE)
        run->past_end_us = now;
    /* a distorted input that never ends (-loop 1 on it, a live source): ffmpeg
     * would run on, scoring nothing, until stopped */
    if (past && !run->said_endless && now - run->past_end_us >= SSIMULACRA2_ENDLESS_US) {
        run->said_endless = 1;
        av_log(ctx, AV_LOG_WARNING, "The reference ended %d s of distorted video ago, and the "
               "distorted input goes on: its frames pass through unscored. If it is a looped "
               "image (-loop 1 before its -i) or another endless source, ffmpeg runs until "
               "stopped: loop the reference instead, or set shortest=1 to end with it.\n",
               (int)(SSIMULACRA2_ENDLESS_US / AV_TIME_BASE));
    }
    run->last_main_end_us = now + av_rescale_q(dur, tb, AV_TIME_BASE_Q);
    run->main_step_us = step;
    if (*index % c->n_subsample)
        return unscored(main);
    if (ctx->is_disabled) {
        run->nb_disabled++;
        return unscored(main);
    }
    if (!ref || past) {
        run->nb_unpaired++;
        /* a rebuilt graph starts without the reference frames the old one held */
        if (!run->ref_seen)
            run->nb_unpaired_early++;
        else if (!c->ref_seen)
            run->nb_unpaired_rebuilt++;
        return unscored(main);
    }
    run->ref_seen = c->ref_seen = 1;
    if (ref->pts == c->last_ref_pts)
        run->nb_repeated++;
    c->last_ref_pts = ref->pts;
    /* framesync gives both frames its time base, the output's; a frame of
     * no known length (rate 1/0, no duration: setpts=strip_fps=1) has no
     * half to be off by (39 of 41 right pairs had been counted) */
    if (dur > 0 && llabs(ref_time(c, ref) - main->pts) > dur / 2) {
        run->nb_mismatched++;
        run->nb_mismatched_rounded +=
            off_by_rounding(av_rescale_q(ref_time(c, ref) - main->pts, tb, AV_TIME_BASE_Q),
                            av_rescale_q(dur, tb, AV_TIME_BASE_Q));
    }
    /* one picture in both (one stream given to both inputs, [0:v][0:v], or a
     * split of it): counted, said with the summary */
    if (main->data[0] && main->data[0] == ref->data[0])
        run->nb_same++;
    return 1;
}
