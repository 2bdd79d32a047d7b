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
 * How the SSIMULACRA2 filters read the samples of a frame pair: the colour
 * tags of each frame, one taken from the other where a frame lacks it, the
 * options over both, and what an image carries that is not applied (PNG
 * gAMA and iCCP chunks), each said once.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "libavutil/csp.h"
#include "libavutil/dovi_meta.h"
#include "libavutil/intreadwrite.h"
#include "libavutil/pixdesc.h"
#include "libavutil/thread.h"

#include "filters.h"
#include "ssimulacra2.h"

/* Colour properties read from the tags of each frame; the first three have
 * an option that overrides both inputs. */
enum { PROP_MATRIX, PROP_RANGE, PROP_LOC, PROP_PRIM, PROP_TRC, PROP_NB };

static const char *const prop_names[PROP_NB] = {
    "matrix", "range", "chroma siting", "primaries", "transfer",
};

/* bits of SSIMULACRA2Run.noted: each message once per run (a graph rebuilt
 * for each image of a sequence of mixed formats had said them per image) */
#define NOTE_INHERIT(prop)  (1u << (prop))
#define NOTE_DIFFER(prop)   (1u << (PROP_NB + (prop)))
#define NOTE_TRC            (1u << (2 * PROP_NB))
#define NOTE_PRIM           (1u << (2 * PROP_NB + 1))
#define NOTE_RESERVED       (1u << (2 * PROP_NB + 2))
#define NOTE_ICC            (1u << (2 * PROP_NB + 3))
#define NOTE_INTERLACED     (1u << (2 * PROP_NB + 4))
#define NOTE_REF_ALPHA      (1u << (2 * PROP_NB + 5))
#define NOTE_NO_EFFECT(prop) (1u << (2 * PROP_NB + 6 + (prop)))
#define NOTE_MATRIX_GUESS   (1u << (3 * PROP_NB + 6))
#define NOTE_SITING_GUESS   (1u << (3 * PROP_NB + 7))
#define NOTE_FILM_GRAIN     (1u << (3 * PROP_NB + 8))
#define NOTE_DIST_ALPHA     (1u << (3 * PROP_NB + 9))
#define NOTE_ODD_CHROMA     (1u << (3 * PROP_NB + 10))
#define NOTE_DOVI_IPT       (1u << (3 * PROP_NB + 11))

static const char *const input_names[2] = { "reference", "distorted" };

static int prop_tag(const AVFrame *f, int prop)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(ff_ssimulacra2_sw_format(f));

    switch (prop) {
    case PROP_MATRIX:
        /* GBR planes are never subsampled: the tag of a gray or RGB source
         * passed on by a conversion (a gray PNG encoded by libx264 comes out
         * yuvj420p tagged gbr), not the frame's */
        if (f->colorspace == AVCOL_SPC_RGB && desc &&
            !(desc->flags & AV_PIX_FMT_FLAG_RGB) && desc->nb_components >= 3 &&
            (desc->log2_chroma_w || desc->log2_chroma_h))
            return AVCOL_SPC_UNSPECIFIED;
        return f->colorspace;
    case PROP_RANGE:  return f->color_range;
    case PROP_LOC:    return f->chroma_location;
    case PROP_PRIM:   return f->color_primaries;
    }
    /* FFmpeg's TIFF decoder tags every gray (BlackIsZero) image gamma 2.2,
     * whatever the file says; its frames carry the TIFF's tags as metadata */
    if (f->color_trc == AVCOL_TRC_GAMMA22 && desc &&
        !(desc->flags & AV_PIX_FMT_FLAG_RGB) && desc->nb_components <= 2 &&
        av_dict_get(f->metadata, "PhotometricInterpretation", NULL, 0))
        return AVCOL_TRC_UNSPECIFIED;
    return f->color_trc;
}

static const char *prop_value_name(int prop, int v)
{
    const char *name;
    switch (prop) {
    case PROP_MATRIX: name = av_color_space_name(v);      break;
    case PROP_RANGE:  name = av_color_range_name(v);      break;
    case PROP_LOC:    name = av_chroma_location_name(v);  break;
    case PROP_PRIM:   name = av_color_primaries_name(v);  break;
    default:          name = av_color_transfer_name(v);   break;
    }
    return name ? name : "reserved";
}

static int prop_unspecified(int prop, int v)
{
    switch (prop) {
    case PROP_MATRIX: return v == AVCOL_SPC_UNSPECIFIED || v == AVCOL_SPC_RESERVED;
    case PROP_RANGE:  return v == AVCOL_RANGE_UNSPECIFIED;
    case PROP_LOC:    return v == AVCHROMA_LOC_UNSPECIFIED;
    case PROP_PRIM:   return v == AVCOL_PRI_UNSPECIFIED || v == AVCOL_PRI_RESERVED ||
                             v == AVCOL_PRI_RESERVED0;
    default:          return v == AVCOL_TRC_UNSPECIFIED || v == AVCOL_TRC_RESERVED ||
                             v == AVCOL_TRC_RESERVED0;
    }
}

/* Whether a property means something for a format: the matrix for Y'CbCr,
 * the range for Y'CbCr and gray, the siting for subsampled chroma. */
static int prop_applies(int prop, const AVPixFmtDescriptor *desc)
{
    int rgb = !!(desc->flags & AV_PIX_FMT_FLAG_RGB), yuv = !rgb && desc->nb_components > 2;
    switch (prop) {
    case PROP_MATRIX: return yuv;
    case PROP_RANGE:  return !rgb;
    case PROP_LOC:    return yuv && (desc->log2_chroma_w || desc->log2_chroma_h);
    default:          return 1;
    }
}

static void note_once(AVFilterContext *ctx, SSIMULACRA2Common *c, unsigned bit, int level,
                      const char *fmt, ...)
{
    va_list vl;
    if (c->run->noted & bit)
        return;
    c->run->noted |= bit;
    va_start(vl, fmt);
    av_vlog(ctx, level, fmt, vl);
    va_end(vl);
}

/* Matrices with Kr/Kb coefficients, the only kind the conversion reads. */
int ff_ssimulacra2_matrix_readable(enum AVColorSpace csp)
{
    return csp == AVCOL_SPC_BT709 || csp == AVCOL_SPC_FCC || csp == AVCOL_SPC_BT470BG ||
           csp == AVCOL_SPC_SMPTE170M || csp == AVCOL_SPC_SMPTE240M ||
           csp == AVCOL_SPC_BT2020_NCL;
}

/* Transfers whose samples are display-referred SDR, which the sRGB reading
 * of the reference tool (or transfer=bt1886) suits. */
static int transfer_is_sdr(enum AVColorTransferCharacteristic trc)
{
    return trc == AVCOL_TRC_BT709 || trc == AVCOL_TRC_SMPTE170M || trc == AVCOL_TRC_SMPTE240M ||
           trc == AVCOL_TRC_IEC61966_2_4 || trc == AVCOL_TRC_BT1361_ECG ||
           trc == AVCOL_TRC_IEC61966_2_1 || trc == AVCOL_TRC_BT2020_10 ||
           trc == AVCOL_TRC_BT2020_12;
}

/* Primaries close enough to BT.709 that displays differ more (the SD sets;
 * not System M's 1953 set, whose green is far wider): the reference tool
 * reads every frame as sRGB. */
static int primaries_near_bt709(enum AVColorPrimaries prim)
{
    return prim == AVCOL_PRI_BT709 || prim == AVCOL_PRI_BT470BG ||
           prim == AVCOL_PRI_SMPTE170M || prim == AVCOL_PRI_SMPTE240M || prim == AVCOL_PRI_EBU3213;
}

/* The advice's colour converters that this build lacks (FFmpeg built
 * without zimg and libplacebo has neither zscale nor libplacebo): looked up
 * once, not at each frame whose warning is already said */
static AVOnce converters_once = AV_ONCE_INIT;
static int have_converters;

static void find_converters(void)
{
    have_converters = avfilter_get_by_name("zscale") || avfilter_get_by_name("libplacebo");
}

static const char *converters_note(void)
{
    ff_thread_once(&converters_once, find_converters);
    return have_converters ? "" : ", in an FFmpeg built with them: this one has neither";
}

/* Whether a chroma siting puts the samples between two columns (center, top,
 * bottom), not on the left one. */
static int loc_centred(int loc)
{
    return loc == AVCHROMA_LOC_CENTER || loc == AVCHROMA_LOC_TOP || loc == AVCHROMA_LOC_BOTTOM;
}

/* The siting of loc's row with the other horizontal position. */
static int loc_other_column(int loc)
{
    switch (loc) {
    case AVCHROMA_LOC_LEFT:       return AVCHROMA_LOC_CENTER;
    case AVCHROMA_LOC_CENTER:     return AVCHROMA_LOC_LEFT;
    case AVCHROMA_LOC_TOPLEFT:    return AVCHROMA_LOC_TOP;
    case AVCHROMA_LOC_TOP:        return AVCHROMA_LOC_TOPLEFT;
    case AVCHROMA_LOC_BOTTOMLEFT: return AVCHROMA_LOC_BOTTOM;
    case AVCHROMA_LOC_BOTTOM:     return AVCHROMA_LOC_BOTTOMLEFT;
    default:                      return loc;
    }
}

/* Whether two tags of a property are read the same: one matrix (smpte170m
 * and bt470bg), one set of primaries (smpte170m and smpte240m), one curve
 * (bt709, smpte170m and the BT.2020 transfers). */
static int same_reading(int prop, int a, int b)
{
    static const int sdr_video[] = { AVCOL_TRC_BT709, AVCOL_TRC_SMPTE170M, AVCOL_TRC_BT2020_10,
                                     AVCOL_TRC_BT2020_12 };
    const AVLumaCoefficients *la, *lb;
    const AVColorPrimariesDesc *pa, *pb;
    int ia = 0, ib = 0;

    if (a == b)
        return 1;
    switch (prop) {
    case PROP_MATRIX:
        la = av_csp_luma_coeffs_from_avcsp(a);
        lb = av_csp_luma_coeffs_from_avcsp(b);
        return la && lb && !av_cmp_q(la->cr, lb->cr) && !av_cmp_q(la->cb, lb->cb);
    case PROP_PRIM:
        pa = av_csp_primaries_desc_from_id(a);
        pb = av_csp_primaries_desc_from_id(b);
        return pa && pb && !memcmp(pa, pb, sizeof(*pa));
    case PROP_TRC:
        for (int i = 0; i < FF_ARRAY_ELEMS(sdr_video); i++) {
            ia |= a == sdr_video[i];
            ib |= b == sdr_video[i];
        }
        return ia && ib;
    }
    return 0;
}

/* Transfers FFmpeg's colorspace filter converts from (not PQ, HLG, logs). */
static int colorspace_filter_reads(enum AVColorTransferCharacteristic trc)
{
    return trc == AVCOL_TRC_LINEAR || trc == AVCOL_TRC_GAMMA22 || trc == AVCOL_TRC_GAMMA28 ||
           (transfer_is_sdr(trc) && trc != AVCOL_TRC_BT1361_ECG);
}

enum AVColorSpace ff_ssimulacra2_matrix_guess(const AVPixFmtDescriptor *other, int height)
{
    if (other && !(other->flags & AV_PIX_FMT_FLAG_HWACCEL) &&
        ((other->flags & AV_PIX_FMT_FLAG_RGB) || other->nb_components <= 2))
        return AVCOL_SPC_SMPTE170M;
    return height >= 720 ? AVCOL_SPC_BT709 : AVCOL_SPC_SMPTE170M;
}

int ff_ssimulacra2_is_yuvj(const AVPixFmtDescriptor *desc)
{
    return !strncmp(desc->name, "yuvj", 4);
}

int ff_ssimulacra2_range_read(const AVPixFmtDescriptor *desc, int tag)
{
    if (ff_ssimulacra2_is_yuvj(desc))
        return AVCOL_RANGE_JPEG;
    if (tag >= 0)
        return tag;
    return desc->nb_components <= 2 ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG;
}

/**
 * Range, unlike the other properties, is never taken from the other input:
 * a full-range tag says how that input was made (a JPEG decoder, a
 * conversion), not that an untagged source beside it is full range. Inputs
 * read with different ranges, one of them tagged, get a warning.
 */
static void resolve_range(AVFilterContext *ctx, SSIMULACRA2Common *c,
                          const AVPixFmtDescriptor *const desc[2], const int app[2],
                          const int tag[2])
{
    int r[2];

    if (!app[0] || !app[1] || (tag[0] < 0 && tag[1] < 0))
        return;
    for (int i = 0; i < 2; i++)
        r[i] = ff_ssimulacra2_range_read(desc[i], tag[i]);
    if (r[0] != r[1])
        note_once(ctx, c, NOTE_DIFFER(PROP_RANGE), AV_LOG_WARNING, "The inputs are read with "
                  "different ranges: distorted %s%s, reference %s%s; each as it says, which is "
                  "right for an encode that converted the range (a full-range source encoded "
                  "limited). Only if a tag is wrong, set range= to read both the same way.\n",
                  prop_value_name(PROP_RANGE, r[1]),
                  tag[1] < 0 ? " (untagged)" : "", prop_value_name(PROP_RANGE, r[0]),
                  tag[0] < 0 ? " (untagged)" : "");
}

/**
 * The value of each property for both inputs: the override, else each tag,
 * a missing one taken from the other input (when the property means
 * something for both formats); -1 where neither says.
 */
static void resolve_tags(AVFilterContext *ctx, SSIMULACRA2Common *c,
                         const AVPixFmtDescriptor *const desc[2], const AVFrame *const frame[2],
                         int v[2][PROP_NB])
{
    const int override[PROP_NB] = { c->matrix, c->range, c->chroma_loc, -1, -1 };
    static const char *const option[PROP_NB] = { "matrix", "range", "chroma_loc", NULL, NULL };
    static const char *const applies_to[PROP_NB] = {
        "Y'CbCr inputs", "Y'CbCr and gray inputs other than yuvj (always full range)",
        "inputs with subsampled chroma", NULL, NULL };

    for (int prop = 0; prop < PROP_NB; prop++) {
        int app[2], tag[2];
        for (int i = 0; i < 2; i++) {
            app[i] = prop_applies(prop, desc[i]);
            tag[i] = prop_tag(frame[i], prop);
            if (prop == PROP_MATRIX && app[i] && tag[i] == AVCOL_SPC_RESERVED && override[prop] < 0)
                note_once(ctx, c, NOTE_RESERVED, AV_LOG_WARNING, "The %s input has a reserved "
                          "matrix value; it is read as untagged.\n", input_names[i]);
            if (prop_unspecified(prop, tag[i]))
                tag[i] = -1;
        }
        if (override[prop] >= 0) {
            int read = 0;
            for (int i = 0; i < 2; i++)
                read |= app[i] && !(prop == PROP_RANGE && ff_ssimulacra2_is_yuvj(desc[i]));
            if (!read)
                note_once(ctx, c, NOTE_NO_EFFECT(prop), AV_LOG_WARNING, "%s=%s has no effect "
                          "on these inputs: it applies to %s only.\n", option[prop],
                          prop_value_name(prop, override[prop]), applies_to[prop]);
            v[0][prop] = v[1][prop] = override[prop];
            continue;
        }
        if (prop == PROP_RANGE) {
            resolve_range(ctx, c, desc, app, tag);
            v[0][prop] = tag[0];
            v[1][prop] = tag[1];
            continue;
        }
        if (app[0] && app[1]) {
            /* a matrix the conversion cannot read stays with its input, whose
             * error then names it */
            for (int i = 0; i < 2; i++)
                if (tag[i] < 0 && tag[!i] >= 0 &&
                    (prop != PROP_MATRIX || ff_ssimulacra2_matrix_readable(tag[!i]))) {
                    /* an SD input read with another's non-BT.601 matrix: right where
                     * only the tag was set (x264's colormatrix) or the SD input was
                     * scaled from BT.709 HD, wrong where FFmpeg converted from it,
                     * reading it as BT.601 (-colorspace bt709 on a 360-line source:
                     * -2.0 instead of 79.7); the frames cannot tell. Said for a
                     * reference (a source) only: an untagged encode was not converted
                     * from, and a crop of HD (1280x536) is not SD */
                    int sd = prop == PROP_MATRIX && i == 0 && frame[i]->height < 720 &&
                             frame[i]->width < 1280 &&
                             !same_reading(prop, tag[!i], AVCOL_SPC_SMPTE170M);
                    note_once(ctx, c, NOTE_INHERIT(prop), sd ? AV_LOG_WARNING : AV_LOG_INFO,
                              "The %s input has no %s tag; it is read as the %s input's: %s.%s\n",
                              input_names[i], prop_names[prop], input_names[!i],
                              prop_value_name(prop, tag[!i]), sd ? " Players read an untagged "
                              "video of fewer than 720 lines as BT.601, and FFmpeg's conversions "
                              "any untagged video: if the other input was converted from this "
                              "one (ffmpeg's -colorspace converts the samples), give this one "
                              "setparams=colorspace=smpte170m before the filter. If only the tag "
                              "was set (x264's colormatrix), or this one was scaled down from a "
                              "BT.709 source (a ladder's rung), the reading is right." : "");
                    tag[i] = tag[!i];
                }
            /* a matrix the conversion cannot read: its error follows */
            if (tag[0] >= 0 && tag[1] >= 0 && !same_reading(prop, tag[0], tag[1]) &&
                (prop != PROP_MATRIX || (ff_ssimulacra2_matrix_readable(tag[0]) &&
                                         ff_ssimulacra2_matrix_readable(tag[1])))) {
                /* an encoder does not move chroma samples: a distorted
                 * video of its source's subsampling has its siting,
                 * whatever its tag says (a Y4M pipe tags untagged 4:2:0
                 * center, H.264 without VUI means left); read with two
                 * sitings, a pair scored 49.8 against 54.6 and 54.3 for
                 * either one. Another subsampling was resampled: its own. */
                if (prop == PROP_LOC && desc[0]->log2_chroma_w == desc[1]->log2_chroma_w &&
                    desc[0]->log2_chroma_h == desc[1]->log2_chroma_h) {
                    note_once(ctx, c, NOTE_DIFFER(prop), AV_LOG_WARNING, "The inputs' chroma "
                              "siting tags differ: distorted %s, reference %s; both are read as "
                              "the reference's (an encoder keeps its source's chroma samples). "
                              "Set chroma_loc= to read both another way.\n",
                              prop_value_name(prop, tag[1]), prop_value_name(prop, tag[0]));
                    tag[1] = tag[0];
                } else if (prop == PROP_LOC && desc[0]->log2_chroma_w == desc[1]->log2_chroma_w &&
                           loc_centred(tag[0]) != loc_centred(tag[1])) {
                    /* only the rows were resampled (a 4:2:2 MJPEG source encoded as
                     * 4:2:0 H.264, untagged: left): the columns are the source's
                     * (read left, a lossless encode scored 90.3 against 93.0) */
                    note_once(ctx, c, NOTE_DIFFER(prop), AV_LOG_WARNING, "The inputs' chroma "
                              "siting tags differ: distorted %s, reference %s; the distorted "
                              "input's chroma columns are read as the reference's (%s: a "
                              "conversion between their subsamplings resamples only the rows). "
                              "Set chroma_loc= to read both another way.\n",
                              prop_value_name(prop, tag[1]), prop_value_name(prop, tag[0]),
                              prop_value_name(prop, loc_other_column(tag[1])));
                    tag[1] = loc_other_column(tag[1]);
                } else if (option[prop])
                    note_once(ctx, c, NOTE_DIFFER(prop), AV_LOG_WARNING, "The inputs' %s tags "
                              "differ: distorted %s, reference %s; each input is read with its "
                              "own, which is right for an encode that converted its source (an "
                              "SD source encoded as BT.709; chroma resampled to another "
                              "subsampling). Only if a tag is wrong, set %s= to read both the "
                              "same way%s.\n", prop_names[prop],
                              prop_value_name(prop, tag[1]), prop_value_name(prop, tag[0]),
                              option[prop], prop == PROP_MATRIX &&
                              tag[1] == AVCOL_SPC_BT470BG && tag[0] == AVCOL_SPC_BT709 ?
                              " (FFmpeg's VP8 and JPEG decoders tag every frame bt470bg, those "
                              "codecs' own matrix, as WebP and JPEG images are shown; for VP8 or "
                              "MJPEG video whose container says bt709: matrix=bt709, or -c:v "
                              "libvpx before a VP8 input's -i)" : "");
                else
                    note_once(ctx, c, NOTE_DIFFER(prop), AV_LOG_WARNING, "The inputs' %s tags "
                              "differ: distorted %s, reference %s; both are read with the "
                              "transfer option's curve and as sRGB primaries.\n", prop_names[prop],
                              prop_value_name(prop, tag[1]), prop_value_name(prop, tag[0]));
            }
        }
        /* a distorted input of subsampled chroma beside a reference of full
         * chroma was subsampled from it, and the usual conversions site the
         * chroma at the centre (swscale, so ffmpeg and the encoders' own
         * programs; libjpeg, libwebp, libavif), while H.264, HEVC and MPEG-2
         * streams that say nothing are left-sited (a PNG made yuv420p by
         * ffmpeg: 88.0 read left, 89.2 centre; made left-sited by swscale:
         * 89.1 left, 86.3 centre) */
        if (prop == PROP_LOC && !app[0] && app[1] && desc[0]->nb_components >= 3 &&
            desc[1]->log2_chroma_w && (tag[1] < 0 || tag[1] == AVCHROMA_LOC_LEFT)) {
            note_once(ctx, c, NOTE_SITING_GUESS, AV_LOG_INFO, "The distorted input's chroma "
                      "siting is %s; beside a reference of full chroma, which it was made "
                      "from, it is read as centre-sited, as FFmpeg (swscale), libjpeg, libwebp "
                      "and libavif subsample. Set chroma_loc=left if it was made left-sited "
                      "(zscale, VapourSynth).\n", tag[1] < 0 ? "unspecified" :
                      "left (also what H.264 and HEVC streams that do not say are)");
            tag[1] = AVCHROMA_LOC_CENTER;
        }
        v[0][prop] = tag[0];
        v[1][prop] = tag[1];
    }
}

/** SSIMU2Colour of one input from its format and resolved properties. */
static int colour_params(AVFilterContext *ctx, const SSIMULACRA2Common *c,
                         const AVPixFmtDescriptor *desc, enum AVColorSpace guess,
                         const int v[PROP_NB], const char *input, SSIMU2Colour *p)
{
    int depth  = desc->comp[0].depth;
    int is_rgb = !!(desc->flags & AV_PIX_FMT_FLAG_RGB);
    int is_gray = desc->nb_components <= 2 && !is_rgb;
    double max = (double)((1 << depth) - 1);
    enum AVColorSpace csp = v[PROP_MATRIX];
    const AVLumaCoefficients *lc;
    double kr, kb, kg;
    int full, xpos = 0, ypos = 128;

    memset(p, 0, sizeof(*p));
    p->transfer = c->transfer;
    /* the reference tool scales integers by the float reciprocal of 2^bits - 1 */
    p->y_scale  = (float)(1.0 / max);
    p->a_scale  = (float)(1.0 / max);
    if (is_rgb)
        return 0;

    full = ff_ssimulacra2_range_read(desc, v[PROP_RANGE]) == AVCOL_RANGE_JPEG;

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
        return 0;

    if ((int)csp < 0)
        csp = guess;
    if (!ff_ssimulacra2_matrix_readable(csp) || !(lc = av_csp_luma_coeffs_from_avcsp(csp))) {
        av_log(ctx, AV_LOG_ERROR, "The %s input is tagged with the %s matrix, which is not a "
               "Kr/Kb Y'CbCr matrix: neither the filter nor FFmpeg's scale filter converts "
               "it to RGB. Convert it first (zscale or libplacebo%s), or set matrix= if "
               "the tag is wrong.\n",
               input, av_color_space_name(csp) ? av_color_space_name(csp) : "reserved",
               converters_note());
        return AVERROR(ENOSYS);
    }
    p->is_yuv = 1;
    kr = av_q2d(lc->cr);
    kb = av_q2d(lc->cb);
    kg = 1.0 - kr - kb;
    p->cr_r = (float)(2.0 * (1.0 - kr));
    p->cb_b = (float)(2.0 * (1.0 - kb));
    p->cb_g = (float)(2.0 * kb * (1.0 - kb) / kg);
    p->cr_g = (float)(2.0 * kr * (1.0 - kr) / kg);

    /* unspecified siting: left (MPEG-2, H.264, HEVC) */
    if (v[PROP_LOC] >= 0)
        av_chroma_location_enum_to_pos(&xpos, &ypos, v[PROP_LOC]);
    p->chroma_x0 = xpos / 256.0f;
    p->chroma_y0 = ypos / 256.0f;
    return 0;
}

/**
 * Whether a description of n characters (each the last byte of a unit of
 * unit bytes, big-endian) names sRGB: the word, as in "sRGB IEC61966-2.1"
 * or "Artifex Software sRGB ICC Profile", not a part of one ("e-sRGB",
 * "esRGB": other encodings).
 */
static int names_srgb(const uint8_t *s, size_t n, int unit)
{
#define ICC_CHAR(k) ((k) < n && (unit == 1 || !s[(k) * 2]) ? s[(k) * unit + unit - 1] : 0)
    for (size_t k = 0; k + 4 <= n; k++) {
        int before = k ? ICC_CHAR(k - 1) : ' ', after = ICC_CHAR(k + 4);
        if (ICC_CHAR(k) == 's' && ICC_CHAR(k + 1) == 'R' && ICC_CHAR(k + 2) == 'G' &&
            ICC_CHAR(k + 3) == 'B' && before == ' ' && (after == ' ' || !after))
            return 1;
    }
    return 0;
#undef ICC_CHAR
}

/**
 * Whether an ICC profile is another than sRGB's, by the name in its
 * description tag (cameras and image editors embed "sRGB IEC61966-2.1",
 * "sRGB built-in", ...): without a colour management library, the name is
 * what can be read. ICC.1: a tag table at byte 128; the description is a
 * v2 textDescriptionType (ASCII) or a v4 multiLocalizedUnicodeType (UTF-16BE).
 */
static int icc_not_srgb(const AVFrameSideData *icc)
{
    const uint8_t *d = icc ? icc->data : NULL;
    size_t size = icc ? icc->size : 0;
    uint32_t nb_tags;

    if (!icc)
        return 0;
    if (size < 132)
        return 1;
    nb_tags = AV_RB32(d + 128);
    for (uint32_t i = 0; i < nb_tags && 132 + 12 * (size_t)(i + 1) <= size; i++) {
        const uint8_t *e = d + 132 + 12 * i;
        size_t off = AV_RB32(e + 4), len = AV_RB32(e + 8);
        const uint8_t *t = d + off;
        if (memcmp(e, "desc", 4) || off > size || len > size - off || len < 12)
            continue;
        if (!memcmp(t, "desc", 4))
            return len < 16 || !names_srgb(t + 12, FFMIN(AV_RB32(t + 8), len - 12), 1);
        if (!memcmp(t, "mluc", 4) && len >= 28) {
            size_t slen = AV_RB32(t + 20), soff = AV_RB32(t + 24);
            return soff > len || !names_srgb(t + soff, FFMIN(slen, len - soff) / 2, 2);
        }
    }
    return 1;
}

/**
 * How to convert an input before the filter in this FFmpeg, for its transfer
 * or (gamut) for both inputs' primaries: the colorspace filter reads Y'CbCr
 * of the SDR transfers and of linear light (not PQ, HLG), given every input
 * property (it refuses unknown ones: the resolved ones are named, an unknown
 * transfer or set of primaries as BT.709's); zscale and libplacebo the rest,
 * where the build has them.
 */
static const char *convert_advice(const AVPixFmtDescriptor *desc, const int v[PROP_NB],
                                  enum AVColorSpace guess, int gamut, char *buf, size_t size)
{
    int yuv = !(desc->flags & AV_PIX_FMT_FLAG_RGB) && desc->nb_components > 2;
    int trc = v[PROP_TRC] >= 0 ? v[PROP_TRC] : AVCOL_TRC_BT709;

    if (yuv && colorspace_filter_reads(trc))
        snprintf(buf, size, "convert %s first: colorspace=all=bt709:ispace=%s:iprimaries=%s:"
                 "itrc=%s on %s", gamut ? "both inputs to BT.709 primaries" : "this input",
                 prop_value_name(PROP_MATRIX, v[PROP_MATRIX] >= 0 ? v[PROP_MATRIX] : guess),
                 prop_value_name(PROP_PRIM, v[PROP_PRIM] >= 0 ? v[PROP_PRIM] : AVCOL_PRI_BT709),
                 prop_value_name(PROP_TRC, trc), gamut ? "this input, and on the other with "
                 "its own properties" : "it (on both if both are so)");
    else
        snprintf(buf, size, "%s first (zscale%s, or libplacebo%s)",
                 gamut ? "convert both inputs to BT.709 primaries" : "tone-map both inputs to SDR",
                 gamut ? "" : " and tonemap", converters_note());
    return buf;
}

/**
 * What an image carries about its colour encoding that the filter does not
 * apply (trc: its own transfer tag, -1 if none), or NULL: a PNG gAMA chunk
 * (FFmpeg's PNG decoder tags 2.2, 2.6, 2.8 and 1.0; other values only in the
 * frame's metadata), a video transfer in a pair of images (decoded as RGB or
 * gray: a PNG cICP chunk, which FFmpeg's encoder writes for a tagged frame and
 * the reference tool reads, 68.2 here against about 65.8 there), or a profile
 * that is not sRGB. Video, made RGB in the graph or not, is read as sRGB.
 */
static const char *image_encoding(const AVFrame *f, const AVPixFmtDescriptor *desc, int trc,
                                  int image_pair, char *buf, size_t size, int *no_curve)
{
    const AVDictionaryEntry *gama = trc < 0 ? av_dict_get(f->metadata, "gamma", NULL, 0) : NULL;
    /* as PNG decodes: a video's Y'CbCr tagged bt470m / bt470bg is read as the others */
    int rgb_or_gray = (desc->flags & AV_PIX_FMT_FLAG_RGB) || desc->nb_components <= 2;
    int num, den;

    /* a profile, or a gamma of no standard curve: zscale and libplacebo do not
     * apply them */
    *no_curve = 1;
    if (gama && sscanf(gama->value, "%d/%d", &num, &den) == 2 && num > 0 && den > 0)
        snprintf(buf, size, "the transfer gamma %.2f (a PNG gAMA chunk)", (double)den / num);
    else if (gama)
        snprintf(buf, size, "a PNG gAMA chunk (%s)", gama->value);
    else if (rgb_or_gray && (trc == AVCOL_TRC_GAMMA22 || trc == AVCOL_TRC_GAMMA28))
        snprintf(buf, size, "the transfer gamma %s (a PNG gAMA chunk, %s)",
                 trc == AVCOL_TRC_GAMMA22 ? "2.2" : "2.8", prop_value_name(PROP_TRC, trc));
    else if (image_pair && trc >= 0 && trc != AVCOL_TRC_IEC61966_2_1 && transfer_is_sdr(trc))
        snprintf(buf, size, "the transfer %s (its own tag: a PNG cICP chunk, which FFmpeg "
                 "writes for a frame so tagged, or an RGB video's)",
                 prop_value_name(PROP_TRC, trc));
    else if (icc_not_srgb(av_frame_get_side_data(f, AV_FRAME_DATA_ICC_PROFILE)))
        return "an ICC profile (a PNG iCCP chunk, a JPEG APP2)";
    else
        return NULL;
    *no_curve = !!gama;
    return buf;
}

/**
 * Input i (0: the reference) has alpha of its own and the other input none,
 * or only a conversion's (not format=rgba on both inputs): the other's may
 * have been dropped by its decoder.
 */
static int alpha_on_one_only(const AVPixFmtDescriptor *const desc[2], const int added[2], int i)
{
    return (desc[i]->flags & AV_PIX_FMT_FLAG_ALPHA) && !added[i] &&
           (!(desc[!i]->flags & AV_PIX_FMT_FLAG_ALPHA) || added[!i]);
}

/**
 * The least alpha sample of a row, for alpha in whole bytes, as every format
 * with alpha that the filter reads has it (av_read_image_line2() for every
 * pixel of an opaque input had cost 3.5 % of a single-thread run).
 */
static unsigned row_min_alpha(const uint8_t *p, const AVComponentDescriptor *ca, int be, int width)
{
    const unsigned mask = (1u << ca->depth) - 1;
    const uint8_t *a = p + ca->offset;
    unsigned least = mask;

    if (ca->depth == 8 && (ca->step == 4 || ca->step == 1)) {
        /* all 255, the usual row, a 32-bit word at a time (packed RGBA, alpha planes) */
        uint32_t all = UINT32_MAX;
        unsigned all8;
        uint8_t b[4];
        int x = 0;

        if (ca->step == 4) {
            for (; x < width; x++)
                all &= AV_RN32(p + 4 * x);
            AV_WN32(b, all);
            all8 = b[ca->offset];
        } else {
            for (; x + 4 <= width; x += 4)
                all &= AV_RN32(a + x);
            AV_WN32(b, all);
            all8 = b[0] & b[1] & b[2] & b[3];
            for (; x < width; x++)
                all8 &= a[x];
        }
        if (all8 == 255)
            return 255;
    }
    for (int x = 0; x < width; x++) {
        const uint8_t *s = a + x * ca->step;
        unsigned v = ca->depth <= 8 ? *s : (be ? AV_RB16(s) : AV_RL16(s)) >> ca->shift;
        least = FFMIN(least, v & mask);
    }
    return least;
}

/**
 * Opaque: within two 8-bit steps of it (99.2 %), where swscale's conversions
 * put 8-bit 255 (65532 or 65280 in 16 bits, 1021 in 10) and 254 (255 in
 * yuva420p), and where so little alpha moves no score.
 */
static int alpha_opaque(uint32_t least, int depth)
{
    return 255ULL * least >= 253ULL * ((1u << depth) - 1);
}

#define MAX_ALPHA_JOBS 64

/* A frame's alpha, read by slice threads: rows job * h / nb_jobs onwards. */
typedef struct AlphaScan {
    const AVFrame *f;
    const AVComponentDescriptor *ca;  ///< the alpha component (the last)
    int be;                           ///< its bytes big-endian
    uint32_t least[MAX_ALPHA_JOBS];   ///< each job's least sample
} AlphaScan;

static int scan_alpha(AVFilterContext *ctx, void *arg, int job, int nb_jobs)
{
    AlphaScan *s = arg;
    const AVFrame *f = s->f;
    const AVComponentDescriptor *ca = s->ca;
    const int y1 = (int)((int64_t)f->height * (job + 1) / nb_jobs);
    uint32_t least = (1u << ca->depth) - 1;

    for (int y = (int)((int64_t)f->height * job / nb_jobs);
         y < y1 && alpha_opaque(least, ca->depth); y++) {
        const uint8_t *p = f->data[ca->plane] + (ptrdiff_t)y * f->linesize[ca->plane];
        least = FFMIN(least, row_min_alpha(p, ca, s->be, f->width));
    }
    s->least[job] = least;
    return 0;
}

/**
 * Whether a frame with alpha has a pixel that is not opaque (a palette: an
 * entry). All-opaque alpha scores as none: a GIF, a lossless WebP or an RGBA
 * PNG of an opaque picture is no cause to warn. CUDA frames, which the host
 * does not read, count as having one. An opaque input is read in every frame,
 * on the slice threads (on one, a 1080p RGBA reference had made
 * ssimulacra2_cuda 1.6x slower).
 */
static int has_transparency(AVFilterContext *ctx, const AVFrame *f, const AVPixFmtDescriptor *desc)
{
    const AVComponentDescriptor *ca = &desc->comp[desc->nb_components - 1];
    const uint32_t opaque = (1u << ca->depth) - 1;
    AlphaScan s = { .f = f, .ca = ca, .be = !!(desc->flags & AV_PIX_FMT_FLAG_BE) };
    /* (no filter: a caller outside a graph, as the kernel emulation) */
    int nb_jobs = ctx ? FFMIN(ff_ssimulacra2_nb_threads(ctx), FFMIN(MAX_ALPHA_JOBS, f->height)) : 1;
    uint32_t least = opaque;

    /* (alpha not in whole bytes, of no format the filter reads, counts as one too) */
    int whole_bytes = ca->depth == 8 ? !ca->shift :
                      ca->depth > 8 && ca->shift + ca->depth <= 16 && ca->step % 2 == 0;

    if (f->hw_frames_ctx || (desc->flags & AV_PIX_FMT_FLAG_FLOAT) || !whole_bytes)
        return 1;
    if (desc->flags & AV_PIX_FMT_FLAG_PAL) {
        for (int k = 0; k < 256; k++)
            if (AV_RN32(f->data[1] + 4 * k) >> 24 != 0xff)
                return 1;
        return 0;
    }
    if (ctx)
        ff_filter_execute(ctx, scan_alpha, &s, NULL, nb_jobs);
    else
        scan_alpha(NULL, &s, 0, 1);
    for (int job = 0; job < nb_jobs; job++)
        least = FFMIN(least, s.least[job]);
    return !alpha_opaque(least, ca->depth);
}

/* A warning about input i's alpha, due once it has a pixel not opaque. */
static int alpha_warning_due(AVFilterContext *ctx, const SSIMULACRA2Common *c, unsigned bit,
                             const AVPixFmtDescriptor *const desc[2], const int added[2],
                             const AVFrame *const frame[2], int i)
{
    return !(c->run->noted & bit) && alpha_on_one_only(desc, added, i) &&
           has_transparency(ctx, frame[i], desc[i]);
}

/**
 * Dolby Vision profile 5, as FFmpeg tells it (ff_dovi_guess_profile_hevc()):
 * no compatible base layer, its samples are IPT-PQ-c2, not Y'CbCr.
 */
static int dovi_ipt(const AVFrame *f)
{
    const AVFrameSideData *sd = av_frame_get_side_data(f, AV_FRAME_DATA_DOVI_METADATA);
    const AVDOVIRpuDataHeader *hdr;

    if (!sd)
        return 0;
    hdr = av_dovi_get_header((const AVDOVIMetadata *)sd->data);
    return hdr->vdr_rpu_profile == 0 && hdr->bl_video_full_range_flag;
}

/**
 * Chroma subsampled along an odd width or height, beside an input of full
 * chroma, has no one reading: codecs and libjpeg put a sample every second
 * pixel (read so), swscale spreads ceil(n / 2) samples over the whole picture
 * (ffmpeg -pix_fmt yuv420p of a 431x287 photo: 81.4 read so, 89.2 as made).
 * Said for limited range, as swscale makes it: full range is a JPEG's or an
 * avifenc AVIF's, placed as codecs place it. (A tag tells who wrote the file,
 * not who subsampled: a WebP that libwebp subsampled from RGB reads right,
 * one of ffmpeg's -pix_fmt yuv420p does not; both are tagged bt470bg.)
 */
static void note_odd_chroma(AVFilterContext *ctx, SSIMULACRA2Common *c,
                            const AVPixFmtDescriptor *const desc[2], const AVFrame *const frame[2],
                            const int v[2][PROP_NB])
{
    for (int i = 0; i < 2; i++) {
        int odd_w = desc[i]->log2_chroma_w && !desc[!i]->log2_chroma_w && frame[i]->width % 2;
        int odd_h = desc[i]->log2_chroma_h && !desc[!i]->log2_chroma_h && frame[i]->height % 2;

        if ((odd_w || odd_h) && desc[!i]->nb_components >= 3 &&
            ff_ssimulacra2_range_read(desc[i], v[i][PROP_RANGE]) != AVCOL_RANGE_JPEG)
            note_once(ctx, c, NOTE_ODD_CHROMA, AV_LOG_WARNING, "The %s input has subsampled "
                      "chroma at an odd %s (%dx%d), read a sample every second pixel as codecs "
                      "place it (and libwebp given RGB subsamples it). If ffmpeg made it from "
                      "RGB (-pix_fmt yuv420p), swscale spread the samples over the whole %s "
                      "instead, and it reads several points low (a 431x287 photo: 81.4 against "
                      "89.2): read it with scale=flags=bilinear+full_chroma_inp,format=gbrp16le "
                      "on that input, or encode even sizes.\n",
                      input_names[i],
                      odd_w && odd_h ? "width and height" : odd_w ? "width" : "height",
                      frame[i]->width, frame[i]->height,
                      odd_w && odd_h ? "picture" : odd_w ? "width" : "height");
    }
}

int ff_ssimulacra2_colour_pair(AVFilterContext *ctx, SSIMULACRA2Common *c,
                               const enum AVPixelFormat fmt[2], const AVFrame *const frame[2],
                               SSIMU2Colour p[2])
{
    const AVPixFmtDescriptor *desc[2] = { av_pix_fmt_desc_get(fmt[0]), av_pix_fmt_desc_get(fmt[1]) };
    const int alpha_added[2] = { c->ref_alpha_added, c->alpha_added };
    int v[2][PROP_NB], ret;
    enum AVColorSpace guess;

    /* alpha is blended as straight alpha, as the reference tool reads it */
    for (int i = 0; i < 2; i++)
        if ((desc[i]->flags & AV_PIX_FMT_FLAG_ALPHA) &&
            frame[i]->alpha_mode == AVALPHA_MODE_PREMULTIPLIED) {
            av_log(ctx, AV_LOG_ERROR, "The %s input's alpha is premultiplied (its colours are "
                   "multiplied by it); the filter reads straight alpha. Convert it first: "
                   "unpremultiply=inplace=1 on that input.\n", input_names[i]);
            return AVERROR(ENOSYS);
        }
    resolve_tags(ctx, c, desc, frame, v);
    note_odd_chroma(ctx, c, desc, frame, v);
    if (alpha_warning_due(ctx, c, NOTE_REF_ALPHA, desc, alpha_added, frame, 0))
        note_once(ctx, c, NOTE_REF_ALPHA, AV_LOG_WARNING, "The reference has alpha and the "
                  "distorted input has none: the distorted video is scored as opaque against "
                  "a reference with transparent pixels, as the reference tool scores them. If "
                  "it had alpha, it was dropped: VP9 in WebM by "
                  "FFmpeg's own decoder (-c:v libvpx-vp9 before its -i keeps it); an AVIF's "
                  "alpha is a stream of its own (join it: [0:v:0][0:v:1]alphamerge); FFmpeg's BMP "
                  "decoder reads 16-bit ARGB as RGB.\n");
    /* the mirror: a reference whose alpha a decoder dropped scored -72
     * against its own alpha encode (83 with both alphas kept), unwarned */
    if (alpha_warning_due(ctx, c, NOTE_DIST_ALPHA, desc, alpha_added, frame, 1))
        note_once(ctx, c, NOTE_DIST_ALPHA, AV_LOG_WARNING, "The distorted input has alpha and "
                  "the reference has none: the distorted video's transparent pixels are blended "
                  "over grey (0.5) and the reference scored as opaque, as the reference tool "
                  "scores them. If the reference had alpha, it was dropped: VP9 in WebM by "
                  "FFmpeg's own decoder (-c:v libvpx-vp9 before its -i keeps it); an AVIF's "
                  "alpha is a stream of its own (join it: [1:v:0][1:v:1]alphamerge).\n");
    for (int i = 0; i < 2; i++) {
        /* the input's own tags: one taken from the other input is that one's to name */
        int trc  = prop_unspecified(PROP_TRC, prop_tag(frame[i], PROP_TRC)) ? -1 : v[i][PROP_TRC];
        int prim = prop_unspecified(PROP_PRIM, prop_tag(frame[i], PROP_PRIM)) ? -1 : v[i][PROP_PRIM];
        int gamma = trc == AVCOL_TRC_GAMMA22 || trc == AVCOL_TRC_GAMMA28;
        char buf[128], advice[256];
        int no_curve;
        const char *what = image_encoding(frame[i], desc[i], trc, c->image_pair, buf,
                                          sizeof(buf), &no_curve);

        guess = ff_ssimulacra2_matrix_guess(desc[!i], frame[i]->height);
        /* an image's own encoding (PNG gAMA or iCCP chunks): the reference
         * tool converts the image to sRGB with it; the filter does not */
        if (what)
            note_once(ctx, c, NOTE_ICC, AV_LOG_WARNING, "The %s input carries %s, which the "
                      "filter does not apply: it reads the samples as sRGB, where the reference "
                      "tool converts such an image to sRGB first, so the score differs from the "
                      "reference tool's. Convert both inputs to sRGB first for its score "
                      "(%s%s).\n", input_names[i], what, no_curve ? "outside FFmpeg, with "
                      "the image's profile or gamma: an image editor, ImageMagick" :
                      "zscale or libplacebo", no_curve ? "" : converters_note());
        if (trc >= 0 && !gamma && !transfer_is_sdr(trc) &&
            !(trc == AVCOL_TRC_LINEAR && c->transfer == SSIMU2_TRC_LINEAR))
            note_once(ctx, c, NOTE_TRC, AV_LOG_WARNING, "The %s input's transfer is %s; the "
                      "samples are linearised with the %s curve (transfer=%s), as the reference "
                      "tool reads an untagged RGB export, without tone mapping (FFmpeg's PNG "
                      "encoder writes cICP for a tagged frame, which the reference tool then "
                      "converts). Set transfer= "
                      "for another reading, or %s.\n",
                      input_names[i], prop_value_name(PROP_TRC, trc),
                      c->transfer == SSIMU2_TRC_SRGB ? "sRGB" :
                      c->transfer == SSIMU2_TRC_BT1886 ? "2.4 power" : "identity",
                      c->transfer == SSIMU2_TRC_SRGB ? "srgb" :
                      c->transfer == SSIMU2_TRC_BT1886 ? "bt1886" : "linear",
                      convert_advice(desc[i], v[i], guess, 0, advice, sizeof(advice)));
        if (prim >= 0 && !primaries_near_bt709(prim))
            note_once(ctx, c, NOTE_PRIM, AV_LOG_WARNING, "The %s input's primaries are %s; "
                      "the samples are read as BT.709/sRGB primaries, as the reference tool "
                      "reads an untagged RGB export (a PNG without cICP), without gamut "
                      "conversion. For a "
                      "colorimetric reading, %s.\n", input_names[i],
                      prop_value_name(PROP_PRIM, prim),
                      convert_advice(desc[i], v[i], guess, 1, advice, sizeof(advice)));
        /* vertically subsampled chroma is read as one picture's, not per field;
         * said from two flagged frames in a row (a soft-telecined progressive
         * stream has a few flagged frames: 5 of 72) */
        c->interlaced_run[i] = (frame[i]->flags & AV_FRAME_FLAG_INTERLACED) ?
                               c->interlaced_run[i] + 1 : 0;
        if (c->interlaced_run[i] >= 2 && desc[i]->log2_chroma_h &&
            !(desc[i]->flags & AV_PIX_FMT_FLAG_RGB) && desc[i]->nb_components >= 3)
            note_once(ctx, c, NOTE_INTERLACED, AV_LOG_WARNING, "The %s input is interlaced: its "
                      "%s chroma is read as a progressive frame's, not per field (about 10 "
                      "points lower for moving content). Deinterlace both inputs alike, or "
                      "read the chroma per field first with scale=interl=1,format=yuv444p10 "
                      "on both.\n", input_names[i], desc[i]->name);
        /* grain the decoder left to the player (AV1 and H.264 film grain with
         * -export_side_data film_grain): the frames scored lack what viewers see
         * (an SVT-AV1 film-grain=50 encode: 47.0, 42.1 with its grain) */
        if (av_frame_get_side_data(frame[i], AV_FRAME_DATA_FILM_GRAIN_PARAMS))
            note_once(ctx, c, NOTE_FILM_GRAIN, AV_LOG_WARNING, "The %s input's frames carry "
                      "film grain parameters that their decoder did not apply (-export_side_data "
                      "film_grain, or libdav1d's -filmgrain 0): they are scored without the grain "
                      "a player adds. Leave those out to score the frames viewers see.\n",
                      input_names[i]);
        /* FFmpeg's HEVC decoder passes profile 5 on with its metadata, which
         * alone makes the samples RGB */
        if (dovi_ipt(frame[i]))
            note_once(ctx, c, NOTE_DOVI_IPT, AV_LOG_WARNING, "The %s input is Dolby Vision "
                      "profile 5 (AV1: 10.0): its samples are IPT, which only its Dolby Vision "
                      "metadata makes RGB, and are read as Y'CbCr, in wrong colours. Convert both "
                      "inputs with a Dolby Vision aware tool first (an FFmpeg built with "
                      "libplacebo: its libplacebo filter applies the metadata), or score a "
                      "version with an HDR10 or SDR base layer.\n", input_names[i]);
        /* beside RGB or gray, Y'CbCr without a tag was made from it, and FFmpeg's
         * conversions make it with BT.601 (an RGB source of 720 lines encoded by
         * libx264: 9.3 read as BT.709, 87.5 as BT.601); else the guess goes by
         * the frames' height (a graph that scaled them cannot be seen). Not said
         * beside a Y'CbCr input whose tag could not be taken: its error follows */
        if (v[i][PROP_MATRIX] < 0 && prop_applies(PROP_MATRIX, desc[i])) {
            /* loud where players would guess otherwise (beside RGB: beside gray the
             * chroma is neutral): an HD encode of BT.709 data piped untagged to an
             * encoder's own tool reads right as BT.709 */
            if (!prop_applies(PROP_MATRIX, desc[!i])) {
                int hd = frame[i]->height >= 720 && (desc[!i]->flags & AV_PIX_FMT_FLAG_RGB);
                note_once(ctx, c, NOTE_MATRIX_GUESS, hd ? AV_LOG_WARNING : AV_LOG_INFO,
                          "The %s input has %s: beside an RGB or gray input it is read as "
                          "BT.601, the matrix FFmpeg converts untagged Y'CbCr from and to RGB "
                          "with (an encode of that RGB, or the source it was made from by "
                          "FFmpeg).%s\n", input_names[i],
                          frame[i]->colorspace == AVCOL_SPC_RGB ? "the RGB matrix tag, which "
                          "subsampled chroma cannot have (passed on from an RGB or gray source)" :
                          "no Y'CbCr matrix tag",
                          hd ? " If its Y'CbCr was made by another tool from BT.709 data (a Y4M "
                          "pipe into an encoder's own program), set matrix=bt709, as players "
                          "read HD." : " Set matrix= if its source says otherwise.");
            } else if (prop_unspecified(PROP_MATRIX, prop_tag(frame[!i], PROP_MATRIX)) ||
                     ff_ssimulacra2_matrix_readable(prop_tag(frame[!i], PROP_MATRIX)))
                note_once(ctx, c, NOTE_MATRIX_GUESS, AV_LOG_INFO, "Neither input is tagged "
                          "with a Y'CbCr matrix: read as %s, the convention for frames of %s "
                          "720 lines (these have %d). Set matrix= if the source says otherwise: "
                          "a standard-definition source scaled up in the graph is still "
                          "BT.601.\n", frame[i]->height >= 720 ? "BT.709" : "BT.601",
                          frame[i]->height >= 720 ? "at least" : "fewer than", frame[i]->height);
        }
        ret = colour_params(ctx, c, desc[i], guess, v[i], input_names[i], &p[i]);
        if (ret < 0)
            return ret;
    }
    return 0;
}
