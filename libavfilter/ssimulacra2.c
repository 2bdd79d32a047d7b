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
 * Final score, colour reading, input checks, negotiation and frame pairing
 * of the two SSIMULACRA2 filters, so that a script cannot tell them apart
 * except by speed. Their outputs are in ssimulacra2_report.c.
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/bprint.h"
#include "libavutil/csp.h"
#include "libavutil/imgutils.h"
#include "libavutil/intreadwrite.h"
#include "libavutil/mem.h"
#include "libavutil/pixdesc.h"

#include "filters.h"
#include "formats.h"
#include "framesync.h"
#include "ssimulacra2.h"

const enum AVPixelFormat ff_ssimulacra2_pix_fmts[] = {
    AV_PIX_FMT_GBRP, AV_PIX_FMT_GBRP9, AV_PIX_FMT_GBRP10, AV_PIX_FMT_GBRP12,
    AV_PIX_FMT_GBRP14, AV_PIX_FMT_GBRP16,
    /* read as they are: lavfi's conversion to 16 bits rounds v * 65535 / (2^n - 1)
     * (a CineForm gbrap12 frame scored 96.055 instead of 95.990) */
    AV_PIX_FMT_GBRAP, AV_PIX_FMT_GBRAP10, AV_PIX_FMT_GBRAP12, AV_PIX_FMT_GBRAP14,
    AV_PIX_FMT_GBRAP16,
    AV_PIX_FMT_RGB24, AV_PIX_FMT_BGR24, AV_PIX_FMT_RGB48, AV_PIX_FMT_BGR48,
    AV_PIX_FMT_RGBA, AV_PIX_FMT_BGRA, AV_PIX_FMT_ARGB, AV_PIX_FMT_ABGR,
    AV_PIX_FMT_RGBA64, AV_PIX_FMT_BGRA64,
    AV_PIX_FMT_RGB0, AV_PIX_FMT_BGR0, AV_PIX_FMT_0RGB, AV_PIX_FMT_0BGR,
    AV_PIX_FMT_GRAY8, AV_PIX_FMT_GRAY9, AV_PIX_FMT_GRAY10, AV_PIX_FMT_GRAY12, AV_PIX_FMT_GRAY14,
    AV_PIX_FMT_GRAY16,
    AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUV444P,
    AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P,
    /* 4:4:0, a 4:2:2 JPEG turned a quarter (converted, its chroma had been
     * upsampled by swscale: 1 point under libjpeg's reading) */
    AV_PIX_FMT_YUV440P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUV440P10, AV_PIX_FMT_YUV440P12,
    AV_PIX_FMT_YUV420P10, AV_PIX_FMT_YUV422P10, AV_PIX_FMT_YUV444P10,
    AV_PIX_FMT_YUV420P12, AV_PIX_FMT_YUV422P12, AV_PIX_FMT_YUV444P12,
    AV_PIX_FMT_YUV420P16, AV_PIX_FMT_YUV422P16, AV_PIX_FMT_YUV444P16,
    AV_PIX_FMT_YUVA420P, AV_PIX_FMT_YUVA422P, AV_PIX_FMT_YUVA444P,
    AV_PIX_FMT_YUVA420P10, AV_PIX_FMT_YUVA422P10, AV_PIX_FMT_YUVA444P10,
    AV_PIX_FMT_YUVA422P12, AV_PIX_FMT_YUVA444P12,
    AV_PIX_FMT_YUVA420P16, AV_PIX_FMT_YUVA422P16, AV_PIX_FMT_YUVA444P16,
    AV_PIX_FMT_NV12, AV_PIX_FMT_P010, AV_PIX_FMT_P016,
    AV_PIX_FMT_NV16, AV_PIX_FMT_P210, AV_PIX_FMT_P216,
#ifdef AV_PIX_FMT_YUV444P10MSB
    AV_PIX_FMT_YUV444P10MSB, AV_PIX_FMT_YUV444P12MSB,
#endif
#ifdef AV_PIX_FMT_GBRP10MSB
    /* read as they are: swscale converts them with rounding (0.085 off for one image) */
    AV_PIX_FMT_GBRP10MSB, AV_PIX_FMT_GBRP12MSB,
#endif
    /* the other byte order, as decoders such as png output it */
    AV_PIX_FMT_GBRP9BE, AV_PIX_FMT_GBRP10BE, AV_PIX_FMT_GBRP12BE, AV_PIX_FMT_GBRP14BE,
    AV_PIX_FMT_GBRP16BE, AV_PIX_FMT_GBRAP10BE, AV_PIX_FMT_GBRAP12BE, AV_PIX_FMT_GBRAP14BE,
    AV_PIX_FMT_GBRAP16BE,
#ifdef AV_PIX_FMT_GBRP10MSB
    AV_PIX_FMT_GBRP10MSBBE, AV_PIX_FMT_GBRP12MSBBE,
#endif
    AV_PIX_FMT_RGB48BE, AV_PIX_FMT_BGR48BE, AV_PIX_FMT_RGBA64BE, AV_PIX_FMT_BGRA64BE,
    /* gray9be .. gray14be too: lavfi's conversion of gray tags it full range, whatever its
     * frames say (a limited-range gray10be scored 92.28 instead of 94.79) */
    AV_PIX_FMT_GRAY9BE, AV_PIX_FMT_GRAY10BE, AV_PIX_FMT_GRAY12BE, AV_PIX_FMT_GRAY14BE,
    AV_PIX_FMT_GRAY16BE,
    AV_PIX_FMT_NONE
};

static int unsupported_format(AVFilterContext *ctx, const char *input, enum AVPixelFormat fmt,
                              const enum AVPixelFormat *list)
{
    AVBPrint bp;

    av_bprint_init(&bp, 0, AV_BPRINT_SIZE_AUTOMATIC);
    for (int i = 0; list[i] != AV_PIX_FMT_NONE; i++)
        av_bprintf(&bp, "%s%s", i ? " " : "", av_get_pix_fmt_name(list[i]));
    av_log(ctx, AV_LOG_ERROR, "Unsupported pixel format %s on the %s input. Supported formats: %s. "
           "Convert it with format=<one of these>.\n",
           av_get_pix_fmt_name(fmt) ? av_get_pix_fmt_name(fmt) : "none", input, bp.str);
    av_bprint_finalize(&bp, NULL);
    return AVERROR(ENOSYS);
}

static int format_in_list(enum AVPixelFormat fmt, const enum AVPixelFormat *list)
{
    for (int i = 0; list[i] != AV_PIX_FMT_NONE; i++)
        if (list[i] == fmt)
            return 1;
    return 0;
}

int ff_ssimulacra2_check_pair(AVFilterContext *ctx, int links, int main_w, int main_h,
                              enum AVPixelFormat main_fmt, int ref_w, int ref_h,
                              enum AVPixelFormat ref_fmt, const enum AVPixelFormat *list)
{
    if (links && (main_w != ref_w || main_h != ref_h)) {
        av_log(ctx, AV_LOG_VERBOSE, "Input links of different sizes (%dx%d, %dx%d): "
               "checked on each frame pair.\n", main_w, main_h, ref_w, ref_h);
        ref_w = main_w;
        ref_h = main_h;
    }
    if (main_w != ref_w || main_h != ref_h) {
        char fix[256];
        /* the sizes of a video and of its rotated copy */
        if (main_w == ref_h && main_h == ref_w)
            snprintf(fix, sizeof(fix), "Is one rotated? ffmpeg turns a video with a rotation "
                     "tag as it decodes it: -noautorotate before its -i.");
        /* a few more rows or columns: an encoder's padding to its block size */
        else if (main_w >= ref_w && main_h >= ref_h && main_w - ref_w < 16 && main_h - ref_h < 16)
            snprintf(fix, sizeof(fix), "Is the distorted video padded by its encoder? Crop it "
                     "(crop=%d:%d:0:0 on the main input); scaling would compare other pixels.",
                     ref_w, ref_h);
        /* smaller, and not the reference's shape give or take a pixel: cut from it
         * (scaling it back compared other pixels: -9.3 instead of 50.9 for an encode
         * cropped by 8 rows) */
        else if (main_w <= ref_w && main_h <= ref_h &&
                 llabs((int64_t)main_w * ref_h - (int64_t)main_h * ref_w) > ref_w)
            snprintf(fix, sizeof(fix), "Was the distorted video cropped? Crop the reference the "
                     "same way (crop=%d:%d:X:Y on the reference input, X and Y where the encode "
                     "was cut; without them, the centre); if it was scaled, scale it back "
                     "(scale=%d:%d on the main input).", main_w, main_h, ref_w, ref_h);
        /* a few rows and columns fewer, the same shape: a container's crop (an AVIF clap
         * box, which FFmpeg applies and libavif does not) */
        else if (main_w <= ref_w && main_h <= ref_h && ref_w - main_w < 16 && ref_h - main_h < 16)
            snprintf(fix, sizeof(fix), "Does its container crop the distorted image (an AVIF "
                     "clap box, which libavif ignores)? -apply_cropping 0 before its -i reads it "
                     "whole; else crop the reference alike (crop=%d:%d:X:Y on the reference "
                     "input).", main_w, main_h);
        else
            snprintf(fix, sizeof(fix), "Scale one input to the other's size (e.g. scale=%d:%d "
                     "on the main input).", ref_w, ref_h);
        av_log(ctx, AV_LOG_ERROR, "Input sizes differ: main (distorted) is %dx%d, reference is "
               "%dx%d. %s\n", main_w, main_h, ref_w, ref_h, fix);
        return AVERROR(EINVAL);
    }
    if (main_w < SSIMU2_MIN_SIZE || main_h < SSIMU2_MIN_SIZE) {
        av_log(ctx, AV_LOG_ERROR, "Input is %dx%d; SSIMULACRA2 needs at least 8x8 pixels. "
               "Use larger inputs (or upscale both, which changes what is measured).\n",
               main_w, main_h);
        return AVERROR(EINVAL);
    }
    if (!format_in_list(main_fmt, list))
        return unsupported_format(ctx, "main (distorted)", main_fmt, list);
    if (!format_in_list(ref_fmt, list))
        return unsupported_format(ctx, "reference", ref_fmt, list);
    return 0;
}

int ff_ssimulacra2_has_alpha(enum AVPixelFormat fmt)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(fmt);
    return desc && (desc->flags & AV_PIX_FMT_FLAG_ALPHA);
}

/* Colour properties read from the tags of each frame; the first three have
 * an option that overrides both inputs. */
enum { PROP_MATRIX, PROP_RANGE, PROP_LOC, PROP_PRIM, PROP_TRC, PROP_NB };

static const char *const prop_names[PROP_NB] = {
    "matrix", "range", "chroma siting", "primaries", "transfer",
};

/* bits of SSIMULACRA2Common.noted: each message once per run */
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

static const char *const input_names[2] = { "reference", "distorted" };

static int prop_tag(const AVFrame *f, int prop)
{
    switch (prop) {
    case PROP_MATRIX: return f->colorspace;
    case PROP_RANGE:  return f->color_range;
    case PROP_LOC:    return f->chroma_location;
    case PROP_PRIM:   return f->color_primaries;
    }
    /* FFmpeg's TIFF decoder tags every gray (BlackIsZero) image gamma 2.2,
     * whatever the file says; its frames carry the TIFF's tags as metadata */
    if (f->color_trc == AVCOL_TRC_GAMMA22 && av_dict_get(f->metadata, "PhotometricInterpretation", NULL, 0))
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
    if (c->noted & bit)
        return;
    c->noted |= bit;
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

/* yuvj formats are full range, whatever their tag or the range option says */
static int is_yuvj(const AVPixFmtDescriptor *desc)
{
    return !strncmp(desc->name, "yuvj", 4);
}

/* The range an input is read with: yuvj formats are full range; an untagged
 * frame has the convention of its format (FFmpeg's: Y'CbCr limited; gray is
 * read full, as the reference tool reads a gray image). */
static int range_read(const AVPixFmtDescriptor *desc, int tag)
{
    if (is_yuvj(desc))
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
        r[i] = range_read(desc[i], tag[i]);
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
                read |= app[i] && !(prop == PROP_RANGE && is_yuvj(desc[i]));
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
                    note_once(ctx, c, NOTE_INHERIT(prop), AV_LOG_INFO, "The %s input has no %s "
                              "tag; it is read as the %s input's: %s.\n", input_names[i],
                              prop_names[prop], input_names[!i], prop_value_name(prop, tag[!i]));
                    tag[i] = tag[!i];
                }
            if (tag[0] >= 0 && tag[1] >= 0 && tag[0] != tag[1]) {
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
                } else if (option[prop])
                    note_once(ctx, c, NOTE_DIFFER(prop), AV_LOG_WARNING, "The inputs' %s tags "
                              "differ: distorted %s, reference %s; each input is read with its "
                              "own, which is right for an encode that converted its source (an "
                              "SD source encoded as BT.709). Only if a tag is wrong, set %s= to "
                              "read both the same way.\n", prop_names[prop],
                              prop_value_name(prop, tag[1]), prop_value_name(prop, tag[0]),
                              option[prop]);
                else
                    note_once(ctx, c, NOTE_DIFFER(prop), AV_LOG_WARNING, "The inputs' %s tags "
                              "differ: distorted %s, reference %s; both are read with the "
                              "transfer option's curve and as sRGB primaries.\n", prop_names[prop],
                              prop_value_name(prop, tag[1]), prop_value_name(prop, tag[0]));
            }
        }
        v[0][prop] = tag[0];
        v[1][prop] = tag[1];
    }
}

/** SSIMU2Colour of one input from its format and resolved properties. */
static int colour_params(AVFilterContext *ctx, const SSIMULACRA2Common *c,
                         const AVPixFmtDescriptor *desc, int height, const int v[PROP_NB],
                         const char *input, SSIMU2Colour *p)
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

    full = range_read(desc, v[PROP_RANGE]) == AVCOL_RANGE_JPEG;

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
        csp = height >= 720 ? AVCOL_SPC_BT709 : AVCOL_SPC_SMPTE170M;
    if (!ff_ssimulacra2_matrix_readable(csp) || !(lc = av_csp_luma_coeffs_from_avcsp(csp))) {
        av_log(ctx, AV_LOG_ERROR, "The %s input is tagged with the %s matrix, which is not a "
               "Kr/Kb Y'CbCr matrix: the filter cannot convert it to RGB. Convert it to RGB "
               "first, or set matrix= if the tag is wrong.\n",
               input, av_color_space_name(csp) ? av_color_space_name(csp) : "reserved");
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
 * What an image carries about its colour encoding that the filter does not
 * apply (trc: its own transfer tag, -1 if none), or NULL: a PNG gAMA chunk
 * (FFmpeg's PNG decoder tags 2.2, 2.6, 2.8 and 1.0; other values only in the
 * frame's metadata), or a profile that is not sRGB.
 */
static const char *image_encoding(const AVFrame *f, int trc, char *buf, size_t size)
{
    const AVDictionaryEntry *gama = trc < 0 ? av_dict_get(f->metadata, "gamma", NULL, 0) : NULL;
    int num, den;

    if (gama && sscanf(gama->value, "%d/%d", &num, &den) == 2 && num > 0 && den > 0)
        snprintf(buf, size, "the transfer gamma %.2f (a PNG gAMA chunk)", (double)den / num);
    else if (gama)
        snprintf(buf, size, "a PNG gAMA chunk (%s)", gama->value);
    else if (trc == AVCOL_TRC_GAMMA22 || trc == AVCOL_TRC_GAMMA28)
        snprintf(buf, size, "the transfer gamma %s (a PNG gAMA chunk, %s)",
                 trc == AVCOL_TRC_GAMMA22 ? "2.2" : "2.8", prop_value_name(PROP_TRC, trc));
    else if (icc_not_srgb(av_frame_get_side_data(f, AV_FRAME_DATA_ICC_PROFILE)))
        return "an ICC profile (a PNG iCCP chunk, a JPEG APP2)";
    else
        return NULL;
    return buf;
}

int ff_ssimulacra2_colour_pair(AVFilterContext *ctx, SSIMULACRA2Common *c,
                               const enum AVPixelFormat fmt[2], const AVFrame *const frame[2],
                               SSIMU2Colour p[2])
{
    const AVPixFmtDescriptor *desc[2] = { av_pix_fmt_desc_get(fmt[0]), av_pix_fmt_desc_get(fmt[1]) };
    int v[2][PROP_NB], ret;

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
    if ((desc[0]->flags & AV_PIX_FMT_FLAG_ALPHA) && !(desc[1]->flags & AV_PIX_FMT_FLAG_ALPHA))
        note_once(ctx, c, NOTE_REF_ALPHA, AV_LOG_WARNING, "The reference has alpha and the "
                  "distorted input has none: the distorted video is scored as opaque, as the "
                  "reference tool scores it (nothing is lost where the reference is opaque: "
                  "GIFs are decoded with alpha). If it had alpha, it was dropped: VP9 in WebM by "
                  "FFmpeg's own decoder (-c:v libvpx-vp9 before its -i keeps it); an AVIF's "
                  "alpha is a stream of its own (join it: [0:v:0][0:v:1]alphamerge).\n");
    for (int i = 0; i < 2; i++) {
        /* the input's own tags: one taken from the other input is that one's to name */
        int trc  = prop_unspecified(PROP_TRC, prop_tag(frame[i], PROP_TRC)) ? -1 : v[i][PROP_TRC];
        int prim = prop_unspecified(PROP_PRIM, prop_tag(frame[i], PROP_PRIM)) ? -1 : v[i][PROP_PRIM];
        int gamma = trc == AVCOL_TRC_GAMMA22 || trc == AVCOL_TRC_GAMMA28;
        char buf[64];
        const char *what = image_encoding(frame[i], trc, buf, sizeof(buf));
        /* an image's own encoding (PNG gAMA or iCCP chunks): the reference
         * tool converts the image to sRGB with it; the filter does not */
        if (what)
            note_once(ctx, c, NOTE_ICC, AV_LOG_WARNING, "The %s input carries %s, which the "
                      "filter does not apply: it reads the samples as sRGB, where the reference "
                      "tool converts such an image to sRGB first, so the score differs from the "
                      "reference tool's. Convert both inputs to sRGB first for its score.\n",
                      input_names[i], what);
        if (trc >= 0 && !gamma && !transfer_is_sdr(trc) &&
            !(trc == AVCOL_TRC_LINEAR && c->transfer == SSIMU2_TRC_LINEAR))
            note_once(ctx, c, NOTE_TRC, AV_LOG_WARNING, "The %s input's transfer is %s; the "
                      "samples are linearised with the %s curve (transfer=%s), as the reference "
                      "tool reads a frame exported to PNG, without tone mapping. Set transfer= "
                      "for another reading, or tone-map both inputs to SDR first.\n",
                      input_names[i], prop_value_name(PROP_TRC, trc),
                      c->transfer == SSIMU2_TRC_SRGB ? "sRGB" :
                      c->transfer == SSIMU2_TRC_BT1886 ? "2.4 power" : "identity",
                      c->transfer == SSIMU2_TRC_SRGB ? "srgb" :
                      c->transfer == SSIMU2_TRC_BT1886 ? "bt1886" : "linear");
        if (prim >= 0 && !primaries_near_bt709(prim))
            note_once(ctx, c, NOTE_PRIM, AV_LOG_WARNING, "The %s input's primaries are %s; "
                      "the samples are read as BT.709/sRGB primaries, as the reference tool "
                      "reads a frame exported to PNG, without gamut conversion. Convert both "
                      "inputs to BT.709 primaries first (e.g. zscale or libplacebo) for a "
                      "colorimetric reading.\n", input_names[i], prop_value_name(PROP_PRIM, prim));
        /* vertically subsampled chroma is read as one picture's, not per field */
        if ((frame[i]->flags & AV_FRAME_FLAG_INTERLACED) && desc[i]->log2_chroma_h &&
            !(desc[i]->flags & AV_PIX_FMT_FLAG_RGB) && desc[i]->nb_components >= 3)
            note_once(ctx, c, NOTE_INTERLACED, AV_LOG_WARNING, "The %s input is interlaced: its "
                      "%s chroma is read as a progressive frame's, not per field (about 10 "
                      "points lower for moving content). Deinterlace both inputs alike, or "
                      "read the chroma per field first with scale=interl=1,format=yuv444p10 "
                      "on both.\n", input_names[i], desc[i]->name);
        /* the guess goes by the frames' height here: a graph that scaled them cannot be seen
         * (not said beside a Y'CbCr input whose tag could not be taken: its error follows) */
        if (v[i][PROP_MATRIX] < 0 && prop_applies(PROP_MATRIX, desc[i]) &&
            !(prop_applies(PROP_MATRIX, desc[!i]) &&
              !prop_unspecified(PROP_MATRIX, prop_tag(frame[!i], PROP_MATRIX)) &&
              !ff_ssimulacra2_matrix_readable(prop_tag(frame[!i], PROP_MATRIX))))
            note_once(ctx, c, NOTE_MATRIX_GUESS, AV_LOG_INFO, "Neither input is tagged with a "
                      "Y'CbCr matrix: read as %s, the convention for frames of %s 720 lines "
                      "(these have %d). Set matrix= if the source says otherwise: a "
                      "standard-definition source scaled up in the graph is still BT.601.\n",
                      frame[i]->height >= 720 ? "BT.709" : "BT.601",
                      frame[i]->height >= 720 ? "at least" : "fewer than", frame[i]->height);
        ret = colour_params(ctx, c, desc[i], frame[i]->height, v[i], input_names[i], &p[i]);
        if (ret < 0)
            return ret;
    }
    return 0;
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

void ff_ssimulacra2_log_nomem(AVFilterContext *ctx, const char *what, int w, int h,
                              double bytes)
{
    av_log(ctx, AV_LOG_ERROR, "Out of memory: %s for %dx%d frames needs %.0f MiB. Free memory, "
           "or score smaller frames (scale both inputs down, which changes what is measured).\n",
           what, w, h, bytes / 1048576.0);
}

int ff_ssimulacra2_query_formats(const AVFilterContext *ctx,
                                 AVFilterFormatsConfig **cfg_in,
                                 AVFilterFormatsConfig **cfg_out)
{
    /* CUDA frames are accepted too, so that they get our error naming the
     * CUDA filter instead of a failed negotiation */
    static const enum AVPixelFormat cuda[] = { AV_PIX_FMT_CUDA, AV_PIX_FMT_NONE };
    AVFilterFormats *main_fmts = ff_make_format_list(ff_ssimulacra2_pix_fmts);
    AVFilterFormats *ref_fmts  = ff_make_format_list(ff_ssimulacra2_pix_fmts);
    AVFilterFormats *main_csp, *main_range, *main_alpha;
    int ret;

    if ((ret = ff_add_format(&main_fmts, cuda[0])) < 0 ||
        (ret = ff_add_format(&ref_fmts, cuda[0])) < 0)
        return ret;
    /* each input negotiates its own format (each frame is read with its own
     * descriptor); frames of the main input pass through to the output */
    if ((ret = ff_formats_ref(main_fmts, &cfg_in[0]->formats)) < 0 ||
        (ret = ff_formats_ref(ref_fmts, &cfg_in[1]->formats)) < 0 ||
        (ret = ff_formats_ref(main_fmts, &cfg_out[0]->formats)) < 0)
        return ret;
    /* colour tags and the alpha mode are read per frame: the reference is not
     * converted to the distorted input's (one list for all links made lavfi
     * premultiply a reference to match a premultiplied distorted input); the
     * distorted frames pass through, so the output shares their lists (lists of
     * its own let a filter after it take them as converted when they were not) */
    main_csp   = ff_all_color_spaces();
    main_range = ff_all_color_ranges();
    main_alpha = ff_all_alpha_modes();
    for (int i = 0; i < 2; i++) {
        AVFilterFormatsConfig *cfg = i ? cfg_out[0] : cfg_in[0];
        if ((ret = ff_formats_ref(main_csp, &cfg->color_spaces)) < 0 ||
            (ret = ff_formats_ref(main_range, &cfg->color_ranges)) < 0 ||
            (ret = ff_formats_ref(main_alpha, &cfg->alpha_modes)) < 0)
            return ret;
    }
    if ((ret = ff_formats_ref(ff_all_color_spaces(), &cfg_in[1]->color_spaces)) < 0 ||
        (ret = ff_formats_ref(ff_all_color_ranges(), &cfg_in[1]->color_ranges)) < 0 ||
        (ret = ff_formats_ref(ff_all_alpha_modes(), &cfg_in[1]->alpha_modes)) < 0)
        return ret;
    return 0;
}

/* RGB or paletted, as against Y'CbCr. XYZ (JPEG 2000 digital cinema) counts as
 * RGB: swscale makes it R'G'B' on the way to anything, and lavfi chose untagged
 * Y'CbCr, read with a guessed matrix (59.1 instead of 44.1) */
static int rgb_kind(const AVPixFmtDescriptor *d)
{
    return !!(d->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_XYZ));
}

/**
 * Packed RGB that swscale converts wrongly, and the format= chain advised in
 * *fix. Samples under 8 bits have no exact conversion: made 8-bit they are
 * widened by a shift or by repeating their high bits (rgb444: white 0.94,
 * +1.6 points; rgb565 +0.2 to +0.5: the nearest there is, warned), made
 * 16-bit multiplied by a power of two, and in the other byte order read as
 * this machine's (rgb565be: -79.5 instead of 42.0). 10-bit samples in 32-bit
 * words are rounded to other depths; gbrp10 unpacks them exactly. NULL if
 * none of these, else what goes wrong.
 */
static const char *packed_rgb_flaw(const AVPixFmtDescriptor *from, enum AVPixelFormat to,
                                   char *fix, size_t size)
{
    int depth = from->comp[0].depth;

    if (!(from->flags & AV_PIX_FMT_FLAG_RGB) || (from->flags & AV_PIX_FMT_FLAG_PLANAR) ||
        (depth >= 8 && depth != 10))
        return NULL;
    if (depth == 10) {
        snprintf(fix, size, "gbrp10");
        return av_pix_fmt_desc_get(to)->comp[0].depth != 10 ?
               "its 10-bit steps (rounded to another depth's)" : NULL;
    }
    if (from->comp[0].step == 2 && !!(from->flags & AV_PIX_FMT_FLAG_BE) != HAVE_BIGENDIAN) {
        snprintf(fix, size, "%s,format=rgb24",
                 av_get_pix_fmt_name(av_pix_fmt_swap_endianness(av_pix_fmt_desc_get_id(from))));
        return "its byte order (swscale reads it as this machine's)";
    }
    snprintf(fix, size, "rgb24");
    return av_pix_fmt_desc_get(to)->comp[0].depth > 8 ?
           "the full scale of its samples (swscale multiplies them by a power of two: white "
           "short of 1; rgb24 is the nearest, within about 1.6 points)" : NULL;
}

/* swscale's matrix for a tag: an untagged one is BT.601 (bt470bg, smpte170m) */
static enum AVColorSpace sws_matrix(enum AVColorSpace csp)
{
    return csp == AVCOL_SPC_UNSPECIFIED || csp == AVCOL_SPC_SMPTE170M ? AVCOL_SPC_BT470BG : csp;
}

static int range_of_link(const AVPixFmtDescriptor *desc, enum AVColorRange range)
{
    return range_read(desc, range == AVCOL_RANGE_UNSPECIFIED ? -1 : range);
}

/**
 * Whether swscale's conversion from link in to link out changes the matrix
 * or the range of Y'CbCr or gray: the distorted input's lists are the
 * output's, which lavfi narrows to the reference's tags, and swscale converts
 * to them (the matrix through RGB), so a tag difference the filter would warn
 * of, or read as the other input's, is gone.
 */
static int tags_converted(const AVFilterLink *in, const AVFilterLink *out)
{
    const AVPixFmtDescriptor *from = av_pix_fmt_desc_get(in->format);
    const AVPixFmtDescriptor *to   = av_pix_fmt_desc_get(out->format);

    /* gray links are full range whatever their frames (lavfi sets them so):
     * their tags say nothing */
    if (rgb_kind(from) || rgb_kind(to) || from->nb_components < 3 || to->nb_components < 3)
        return 0;
    return sws_matrix(in->colorspace) != sws_matrix(out->colorspace) ||
           range_of_link(from, in->color_range) != range_of_link(to, out->color_range);
}

static int is_auto_scale(const AVFilterContext *f)
{
    return f->name && !strncmp(f->name, "auto_scale", 10) && f->nb_inputs == 1 &&
           f->inputs[0] && f->nb_outputs == 1 && f->outputs[0];
}

/* A filter that sets tags or converts colours itself: the tags before it
 * are not lavfi's narrowing of this filter's lists */
static int sets_tags(const AVFilterContext *f)
{
    static const char *const names[] = {
        "setparams", "scale", "zscale", "colorspace", "colormatrix", "libplacebo", "tonemap",
    };
    for (int k = 0; k < FF_ARRAY_ELEMS(names); k++)
        if (!strcmp(f->filter->name, names[k]))
            return 1;
    return 0;
}

/**
 * The conversion lavfi inserted before input link (an auto_scale filter), or
 * NULL; *user_format: filters of the user's are between them, which asked
 * for that conversion (a format=), but not for the tags lavfi gives it: the
 * lists of a filter that passes frames on are one for its links, so lavfi's
 * narrowing reaches back through it (ab-av1's setpts and settb after its
 * format=, a crop).
 */
static AVFilterContext *lavfi_conversion(const AVFilterLink *link, int *user_format)
{
    AVFilterContext *src = link->src;

    *user_format = 0;
    while (!is_auto_scale(src) && src->filter && src->nb_inputs == 1 && src->inputs[0] &&
           src->nb_outputs == 1 && !sets_tags(src)) {
        src = src->inputs[0]->src;
        *user_format = 1;
    }
    return is_auto_scale(src) ? src : NULL;
}

/* Whether the filter reads a Y'CbCr format of from's chroma subsampling (none
 * of 4:1:1 or 4:1:0) */
static int reads_subsampling(const AVPixFmtDescriptor *from)
{
    for (int k = 0; ff_ssimulacra2_pix_fmts[k] != AV_PIX_FMT_NONE; k++) {
        const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(ff_ssimulacra2_pix_fmts[k]);
        if (!rgb_kind(d) && d->nb_components >= 3 && d->log2_chroma_w == from->log2_chroma_w &&
            d->log2_chroma_h == from->log2_chroma_h)
            return 1;
    }
    return 0;
}

/**
 * A format the filter reads, to convert from to first: of the same kind, with
 * alpha if it has alpha (RGB for gray with alpha), and where one is read, of
 * its chroma subsampling and depth (swscale resamples chroma its own way, and
 * widens full-scale samples by a shift).
 */
static enum AVPixelFormat advised_format(const AVPixFmtDescriptor *from, enum AVPixelFormat fmt)
{
    int alpha = !!(from->flags & AV_PIX_FMT_FLAG_ALPHA);
    int gray_alpha = alpha && from->nb_components == 2;
    int colour = from->nb_components - alpha >= 3;
    enum AVPixelFormat best = AV_PIX_FMT_NONE;

    /* strict: the same subsampling and depth; then any */
    for (int strict = 1; strict >= 0 && best == AV_PIX_FMT_NONE; strict--)
        for (int k = 0; ff_ssimulacra2_pix_fmts[k] != AV_PIX_FMT_NONE; k++) {
            const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(ff_ssimulacra2_pix_fmts[k]);
            if (d->nb_components >= 3 && rgb_kind(d) != rgb_kind(from) && !gray_alpha)
                continue;
            /* gray has no chroma to lose by the loss score (yuv444p14 to gray14) */
            if (colour && d->nb_components - !!(d->flags & AV_PIX_FMT_FLAG_ALPHA) < 3)
                continue;
            if (alpha && !(d->flags & AV_PIX_FMT_FLAG_ALPHA))
                continue;
            if (strict && (d->log2_chroma_w != from->log2_chroma_w ||
                           d->log2_chroma_h != from->log2_chroma_h ||
                           d->comp[0].depth != from->comp[0].depth))
                continue;
            best = av_find_best_pix_fmt_of_2(best, ff_ssimulacra2_pix_fmts[k], fmt, alpha, NULL);
        }
    return best;
}

/**
 * A conversion lavfi inserted for filters of the user's (a format=), from
 * link in to link out: refused where lavfi, not the user, decided what it
 * does to the colours. setparams: the tags to set back, or NULL.
 */
static int check_user_conversion(AVFilterContext *ctx, int i, const AVFilterLink *in,
                                 const AVFilterLink *out, const char *setparams)
{
    static const char *const pads[2] = { "distorted", "reference" };
    const AVPixFmtDescriptor *from = av_pix_fmt_desc_get(in->format);
    const AVPixFmtDescriptor *to   = av_pix_fmt_desc_get(out->format);
    const AVFilterLink *other = ctx->inputs[!i];
    /* the matrix the filter takes for an untagged input: the other's, or the guess by height */
    enum AVColorSpace read = other && other->colorspace != AVCOL_SPC_UNSPECIFIED &&
                             other->colorspace != AVCOL_SPC_RGB ? other->colorspace :
                             out->h >= 720 ? AVCOL_SPC_BT709 : AVCOL_SPC_BT470BG;

    /* RGB made Y'CbCr untagged: swscale's BT.601, read by the filter with the
     * other input's matrix or the guess by height (ab-av1's format= on a PNG
     * reference against a BT.709 encode: 5.0 instead of 56.9) */
    if (rgb_kind(from) && !rgb_kind(to) && to->nb_components >= 3 &&
        out->colorspace == AVCOL_SPC_UNSPECIFIED && sws_matrix(read) != AVCOL_SPC_BT470BG) {
        av_log(ctx, AV_LOG_ERROR, "The conversion lavfi inserted for format=%s on the %s input "
               "makes its RGB Y'CbCr with swscale's BT.601 matrix and no tag, which the filter "
               "would read as %s: the score would be of another video. Drop that format= (the "
               "filter reads RGB as it is), or add setparams=colorspace=bt470bg after it.\n",
               to->name, pads[i], av_color_space_name(read));
        return AVERROR(EINVAL);
    }
    /* FFmpeg 8.1's swscale reads float gray as limited range when it makes it
     * integer (gray16le: 30.4 instead of 36.3), but for 8-bit gray; Y'CbCr
     * keeps the values, which are then full range, untagged */
    if ((from->flags & AV_PIX_FMT_FLAG_FLOAT) && from->nb_components <= 2 &&
        !(to->flags & AV_PIX_FMT_FLAG_FLOAT) && !(to->nb_components <= 2 && to->comp[0].depth == 8)) {
        av_log(ctx, AV_LOG_ERROR, "The conversion lavfi inserted for format=%s on the %s input "
               "reads its float gray as limited range (FFmpeg's swscale): the score would be of "
               "another video. Use format=%s,setparams=range=pc instead.\n", to->name, pads[i],
               from->nb_components == 2 ? "yuva444p16le" : "yuv444p16le");
        return AVERROR(EINVAL);
    }
    /* a yuvj format is full range: its range is the user's choice */
    if (!setparams || (is_yuvj(to) && sws_matrix(in->colorspace) == sws_matrix(out->colorspace)))
        return 0;
    av_log(ctx, AV_LOG_ERROR, "The conversion lavfi inserted for format=%s on the %s input "
           "changes its tags (%s %s made %s %s%s): the score would be of another video. Add %s "
           "after that format=.\n", to->name, pads[i], av_color_space_name(in->colorspace),
           av_color_range_name(range_of_link(from, in->color_range)),
           av_color_space_name(out->colorspace),
           av_color_range_name(range_of_link(to, out->color_range)),
           i ? "" : ", the reference's: lavfi gives them to the distorted input", setparams);
    return AVERROR(EINVAL);
}

/* A conversion that no format the filter reads would do better: scored, and said. */
static void warn_nearest(AVFilterContext *ctx, const char *pad, const AVPixFmtDescriptor *from,
                         const AVPixFmtDescriptor *to, const char *what, const char *unread)
{
    av_log(ctx, AV_LOG_WARNING, "The %s input's %s %s (to %s): the filter reads no %s.\n",
           pad, from->name, what, to->name, unread);
}

/**
 * lavfi converts an input in a format the filter does not read. For the
 * distorted input it takes the reference's format whenever it can (the
 * output shares the input's list), a paletted input becomes RGB without the
 * palette's alpha, Y'CbCr with alpha becomes RGB. Conversions that drop
 * alpha, depth, chroma samples or colours, that resample chroma, widen
 * full-scale samples or convert between Y'CbCr and RGB (swscale's arithmetic,
 * not the filter's reading), or that change the tags would score another
 * video, so they are refused, naming a format the filter reads.
 */
static int check_conversion(AVFilterContext *ctx, int i)
{
    static const char *const pads[2] = { "distorted", "reference" };
    AVFilterContext *conv;
    const AVFilterLink *out;
    const AVPixFmtDescriptor *from, *to;
    enum AVPixelFormat best;
    int alpha, float_gray, loss, yuv_rgb, retag, resampled, widened, low_rgb, nearest_chroma;
    int in_range, user_format;
    enum AVColorSpace in_csp;
    char tags[80] = "", packed_fix[48];
    const char *packed;
    AVBPrint bp;

    if (!(conv = lavfi_conversion(ctx->inputs[i], &user_format)) ||
        !(from = av_pix_fmt_desc_get(conv->inputs[0]->format)) ||
        (from->flags & AV_PIX_FMT_FLAG_HWACCEL))
        return 0;
    out      = conv->outputs[0];
    to       = av_pix_fmt_desc_get(out->format);
    in_csp   = conv->inputs[0]->colorspace;
    in_range = range_of_link(from, conv->inputs[0]->color_range);
    retag    = tags_converted(conv->inputs[0], out);
    /* setparams after format: the conversion before it then keeps the tags
     * (an untagged matrix: the one the filter would take, the reference's) */
    if (retag && from->nb_components >= 3)
        snprintf(tags, sizeof(tags), ",setparams=colorspace=%s:range=%s",
                 av_color_space_name(in_csp != AVCOL_SPC_UNSPECIFIED ? in_csp : out->colorspace),
                 av_color_range_name(in_range));
    else if (retag)
        snprintf(tags, sizeof(tags), ",setparams=range=%s", av_color_range_name(in_range));
    if (user_format)
        return check_user_conversion(ctx, i, conv->inputs[0], out, retag ? tags + 1 : NULL);
    alpha = !!(from->flags & AV_PIX_FMT_FLAG_ALPHA);
    loss  = av_get_pix_fmt_loss(out->format, conv->inputs[0]->format, alpha) &
            (FF_LOSS_RESOLUTION | FF_LOSS_DEPTH | FF_LOSS_ALPHA | FF_LOSS_COLORQUANT | FF_LOSS_CHROMA);
    /* Y'CbCr made RGB (or back) by swscale: its matrix and rounding, not the
     * filter's, and the matrix, range and chroma_loc options unused */
    yuv_rgb = from->nb_components >= 3 && !(from->flags & AV_PIX_FMT_FLAG_PAL) &&
              rgb_kind(from) != rgb_kind(to);
    /* chroma upsampled by swscale (nv21, yuyv422 against a 4:4:4 reference:
     * 5 to 18 points off), not read at its siting */
    resampled = !yuv_rgb && !rgb_kind(from) && from->nb_components >= 3 &&
                !(loss & FF_LOSS_RESOLUTION) && (to->log2_chroma_w != from->log2_chroma_w ||
                                                 to->log2_chroma_h != from->log2_chroma_h);
    /* samples read at full scale widened by a shift (255 became 65280: full
     * range, gray, alpha, RGB); only limited-range Y'CbCr (and 1-bit
     * black and white) widens exactly */
    low_rgb = rgb_kind(from) && !(from->flags & AV_PIX_FMT_FLAG_PAL) && from->comp[0].depth < 8;
    widened = to->comp[0].depth > from->comp[0].depth && from->comp[0].depth > 1 && !low_rgb &&
              (rgb_kind(from) || from->nb_components < 3 || alpha || in_range == AVCOL_RANGE_JPEG);
    /* FFmpeg 8.1's swscale reads float gray as limited range when it makes it
     * integer gray or RGB (0.2176 became 0.1807: 72.3 instead of 81.7); into
     * Y'CbCr it keeps the values, which are then full range */
    float_gray = (from->flags & AV_PIX_FMT_FLAG_FLOAT) && from->nb_components <= 2;
    packed = packed_rgb_flaw(from, out->format, packed_fix, sizeof(packed_fix));
    /* no format of the filter's reads these samples as they are: lavfi's
     * conversion is the nearest (4:1:1 DV, 16-bit BMP, float RGB made 16-bit),
     * said, not refused */
    nearest_chroma = resampled && !reads_subsampling(from);
    resampled     &= !nearest_chroma;
    best = float_gray ? (alpha ? AV_PIX_FMT_YUVA444P16 : AV_PIX_FMT_YUV444P16) :
           advised_format(from, conv->inputs[0]->format);
    if (!yuv_rgb && !retag && !packed && !resampled && !widened && !float_gray &&
        (!loss || best == out->format)) {
        if (nearest_chroma)
            warn_nearest(ctx, pads[i], from, to, "chroma is upsampled by swscale",
                         "format of its chroma subsampling (the score depends on swscale's "
                         "resampling)");
        if (low_rgb)
            warn_nearest(ctx, pads[i], from, to, "samples are widened by swscale, inexactly",
                         "packed RGB under 8 bits (the score is within about 1.6 points)");
        if (loss)
            warn_nearest(ctx, pads[i], from, to, "samples lose bit depth in swscale's "
                         "conversion", "format that keeps them");
        return 0;
    }
    av_bprint_init(&bp, 0, AV_BPRINT_SIZE_AUTOMATIC);
    av_bprintf(&bp, "%s%s%s%s%s%s", loss & FF_LOSS_ALPHA ? ", alpha" : "",
               loss & FF_LOSS_DEPTH ? ", bit depth" : "",
               loss & FF_LOSS_RESOLUTION ? ", chroma resolution" : "",
               loss & FF_LOSS_CHROMA ? ", colour" : "",
               loss & FF_LOSS_COLORQUANT ? ", colour precision" : "",
               yuv_rgb && (from->flags & AV_PIX_FMT_FLAG_XYZ) ? ", its colours (XYZ made untagged "
               "Y'CbCr, whose matrix the filter would guess)" :
               yuv_rgb ? ", the filter's own Y'CbCr reading (swscale's matrix instead)" : "");
    if (resampled)
        av_bprintf(&bp, ", its chroma samples (resampled by swscale, not read at their siting)");
    if (packed)
        av_bprintf(&bp, ", %s", packed);
    else if (widened)
        av_bprintf(&bp, ", its sample values (swscale widens %d to %d bits by a shift, not to "
                   "full scale)", from->comp[0].depth, to->comp[0].depth);
    if (float_gray)
        av_bprintf(&bp, ", its range (swscale reads float gray as limited range)");
    if (retag)
        av_bprintf(&bp, ", its tags (%s %s made %s %s)", av_color_space_name(in_csp),
                   av_color_range_name(in_range), av_color_space_name(out->colorspace),
                   av_color_range_name(range_of_link(to, out->color_range)));
    if (float_gray)
        snprintf(tags, sizeof(tags), ",setparams=range=pc");
    av_log(ctx, AV_LOG_ERROR, "The %s input's pixel format %s is not read directly, and the "
           "conversion lavfi chose (to %s) loses %s: the score would be of another video. "
           "Convert it first, e.g. with format=%s%s on that input.%s\n", pads[i], from->name,
           to->name, bp.str + 2, packed ? packed_fix : av_get_pix_fmt_name(best), tags,
           from->flags & AV_PIX_FMT_FLAG_PAL ? " (A palette counts as alpha whether or not "
           "a colour in it is transparent: for an opaque image format=rgb24 does as well.)" :
           from->flags & AV_PIX_FMT_FLAG_FLOAT ? " (The filter reads integer samples: that "
           "conversion clips values outside 0..1 and keeps 16 bits. Float images, EXR and PFM, "
           "are usually linear light: add transfer=linear.)" : "");
    av_bprint_finalize(&bp, NULL);
    return AVERROR(EINVAL);
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

    if (rate_main.num > 0)
        tol = FFMIN(tol, av_rescale_q(1, av_inv_q(rate_main), AV_TIME_BASE_Q) / 4);
    if (rate_ref.num > 0)
        tol = FFMIN(tol, av_rescale_q(1, av_inv_q(rate_ref), AV_TIME_BASE_Q) / 4);
    c->ref_shift = c->ts_nearest ? 0 :
                   av_rescale_q_rnd(tol, AV_TIME_BASE_Q, fs->time_base, AV_ROUND_DOWN);
    if (c->ref_shift > 0)
        fs->in[1].time_base = fs->time_base;
}

/* the timestamps of input i (0 distorted, 1 reference) from one frame to the
 * next (us): going back by more than the rounding of a container, the frames
 * after are paired with the wrong frames of the other input */
static void note_back(SSIMULACRA2Run *run, int i, int64_t from_us, int64_t to_us)
{
    if (to_us >= from_us - SSIMULACRA2_ROUNDING_US)
        return;
    if (!run->nb_back[i]++) {
        run->back_from_us[i] = from_us;
        run->back_us[i]      = to_us;
    }
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

    if (start < 0) {    /* (only framesync consumes them, after this loop) */
        c->nb_ref_looked = ff_filter_link(rl)->frame_count_out;
        start = 0;
    }
    for (size_t i = start; i < queued; i++) {
        AVFrame *f = ff_inlink_peek_frame(rl, i);

        if (f->pts != AV_NOPTS_VALUE) {
            int64_t us = av_rescale_q(f->pts, rl->time_base, AV_TIME_BASE_Q);
            if (!c->nb_ref_looked)
                c->first_ref_us = us;
            else if (c->last_ref_in_pts != AV_NOPTS_VALUE) {
                int64_t prev = av_rescale_q(c->last_ref_in_pts, rl->time_base, AV_TIME_BASE_Q);
                note_back(c->run, 1, prev, us);
                /* the steps' spread: variable timing (log_pairing_warnings()) */
                if (us > prev) {
                    c->run->ref_step_min_us = FFMIN(c->run->ref_step_min_us, us - prev);
                    c->run->ref_step_max_us = FFMAX(c->run->ref_step_max_us, us - prev);
                }
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

int ff_ssimulacra2_config_output(AVFilterLink *outlink, FFFrameSync *fs, SSIMULACRA2Common *c)
{
    AVFilterContext *ctx = outlink->src;
    AVFilterLink *mainlink = ctx->inputs[0];
    AVRational rate_main = ff_filter_link(mainlink)->frame_rate;
    AVRational rate_ref  = ff_filter_link(ctx->inputs[1])->frame_rate;
    AVRational sar_main, sar_ref;
    int ret;

    if ((ret = check_conversion(ctx, 0)) < 0 || (ret = check_conversion(ctx, 1)) < 0)
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
     * with sync 0 before its next frame was read (doc/notes.md, stop 29). */
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
    set_pair_tolerance(fs, c, rate_main, rate_ref);
    sar_main = mainlink->sample_aspect_ratio;
    sar_ref  = ctx->inputs[1]->sample_aspect_ratio;
    if (sar_main.num > 0 && sar_ref.num > 0 && av_cmp_q(sar_main, sar_ref))
        av_log(ctx, AV_LOG_WARNING, "The inputs' sample aspect ratios differ (distorted %d:%d, "
               "reference %d:%d): they are shown with different shapes, and their pixels are "
               "compared as they are.\n", sar_main.num, sar_main.den, sar_ref.num, sar_ref.den);
    if (av_cmp_q(mainlink->time_base, outlink->time_base) ||
        av_cmp_q(ctx->inputs[1]->time_base, outlink->time_base))
        av_log(ctx, AV_LOG_VERBOSE, "Time bases differ: distorted %d/%d, reference %d/%d; "
               "framesync pairs the frames in their common time base.\n",
               mainlink->time_base.num, mainlink->time_base.den,
               ctx->inputs[1]->time_base.num, ctx->inputs[1]->time_base.den);
    return ff_ssimulacra2_start_run(ctx, c);
}

/**
 * Frames ffmpeg dropped inside the old graph when it rebuilt it: the gap
 * between where the first distorted frame of the new one was due and where
 * it is. They count as frames (so the numbering stays the input's) due a
 * score without one. A longer gap is a jump in the timestamps, not a loss.
 */
static void count_lost_frames(SSIMULACRA2Common *c, int64_t now, int64_t step)
{
    SSIMULACRA2Run *run = c->run;
    int64_t lost;

    if (now == AV_NOPTS_VALUE || run->next_main_us == AV_NOPTS_VALUE || step <= 0)
        return;
    lost = (now - run->next_main_us + step / 2) / step;
    if (lost <= 0 || lost > 16)
        return;
    for (; lost > 0; lost--)
        if (run->nb_frames++ % c->n_subsample == 0) {
            run->nb_unpaired++;
            run->nb_lost++;
        }
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
    int64_t ref_dur = rate.num > 0 ?
                      av_rescale_q(1, av_inv_q(rate), ctx->outputs[0]->time_base) : dur;

    if (!fs->in[1].have_next || fs->in[1].frame_next)
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
    int ret, past;

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
    dur  = rate.num > 0 ? av_rescale_q(1, av_inv_q(rate), tb) : FFMAX(main->duration, 0);
    past = paired && past_reference_end(ctx, c, fs, main, paired, dur);
    /* shortest=1, endall: this frame is not output, not counted */
    if (past && c->end_with_ref)
        return AVERROR_EOF;
    now  = av_rescale_q(main->pts, tb, AV_TIME_BASE_Q);
    step = rate.num > 0 ? av_rescale_q(1, av_inv_q(rate), AV_TIME_BASE_Q) : 0;
    if (run->resumed)
        count_lost_frames(c, now, step);
    run->resumed      = 0;
    run->next_main_us = step > 0 ? now + step : AV_NOPTS_VALUE;
    *index = run->nb_frames++;
    if (!*index)
        run->first_main_us = now;
    else
        note_back(run, 0, run->last_main_us, now);
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
    /* framesync gives both frames its time base, the output's */
    if (llabs(ref_time(c, ref) - main->pts) > dur / 2) {
        run->nb_mismatched++;
        run->nb_mismatched_rounded +=
            off_by_rounding(av_rescale_q(ref_time(c, ref) - main->pts, tb, AV_TIME_BASE_Q),
                            av_rescale_q(dur, tb, AV_TIME_BASE_Q));
    }
    return 1;
}

