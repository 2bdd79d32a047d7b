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
 * The pixel formats the SSIMULACRA2 filters take: the list, the checks of a
 * frame pair's sizes and formats, the negotiation, and the conversions lavfi
 * inserts before them, refused where they would change what is scored.
 */

#include <stdlib.h>
#include <string.h>

#include "libavutil/bprint.h"
#include "libavutil/hwcontext.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"

#include "filters.h"
#include "formats.h"
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
        char fix[384];
        /* the sizes of a video and of its rotated copy */
        if (main_w == ref_h && main_h == ref_w)
            snprintf(fix, sizeof(fix), "Is one rotated? ffmpeg turns a video with a rotation "
                     "tag as it decodes it: -noautorotate before its -i.");
        /* a few more rows or columns: an encoder's padding to its block size (up to
         * 64: 2160 -> 2176, 480 -> 512) */
        else if (main_w >= ref_w && main_h >= ref_h && main_w - ref_w < 64 && main_h - ref_h < 64 &&
                 (main_w == ref_w || main_h == ref_h || (main_w - ref_w < 16 && main_h - ref_h < 16)))
            snprintf(fix, sizeof(fix), "Is the distorted video padded by its encoder? Crop it "
                     "(crop=%d:%d:0:0:exact=1 on the main input: exact keeps an odd size of "
                     "4:2:0); bars added around the picture are cropped where they are "
                     "(crop=%d:%d:X:Y:exact=1); scaling would compare other pixels.",
                     ref_w, ref_h, ref_w, ref_h);
        /* smaller, and not the reference's shape give or take a pixel: cut from it
         * (scaling it back compared other pixels: -9.3 instead of 50.9 for an encode
         * cropped by 8 rows) */
        else if (main_w <= ref_w && main_h <= ref_h &&
                 llabs((int64_t)main_w * ref_h - (int64_t)main_h * ref_w) > ref_w)
            snprintf(fix, sizeof(fix), "Was the distorted video cropped? Crop the reference the "
                     "same way (crop=%d:%d:X:Y:exact=1 on the reference input, X and Y where "
                     "the encode was cut; without them, the centre); if it was scaled, scale it "
                     "back (scale=%d:%d on the main input).", main_w, main_h, ref_w, ref_h);
        /* a few rows and columns fewer, the same shape: a container's crop (an AVIF clap
         * box, which FFmpeg applies and libavif does not) */
        else if (main_w <= ref_w && main_h <= ref_h && ref_w - main_w < 16 && ref_h - main_h < 16)
            snprintf(fix, sizeof(fix), "Does its container crop the distorted image (an AVIF "
                     "clap box, which libavif ignores)? -apply_cropping 0 before its -i reads it "
                     "whole; else crop the reference alike (crop=%d:%d:X:Y:exact=1 on the "
                     "reference input), or if it was scaled, scale it back (scale=%d:%d on the "
                     "main input).", main_w, main_h, ref_w, ref_h);
        /* larger, and not the reference's shape: bars added (a letterbox: scaled
         * back, the bars squashed into the picture scored -144 instead of 54.2) */
        else if (main_w >= ref_w && main_h >= ref_h &&
                 llabs((int64_t)main_w * ref_h - (int64_t)main_h * ref_w) > main_w) {
            /* the picture within the bars, at the reference's shape (scaled up too,
             * it is larger than the reference) */
            int wide = (int64_t)main_w * ref_h > (int64_t)main_h * ref_w;
            int pw = wide ? (int)((int64_t)ref_w * main_h / ref_h) : main_w;
            int ph = wide ? main_h : (int)((int64_t)ref_h * main_w / ref_w);
            char back[32] = "";
            if (pw != ref_w || ph != ref_h)
                snprintf(back, sizeof(back), ",scale=%d:%d", ref_w, ref_h);
            snprintf(fix, sizeof(fix), "Were bars added to the distorted video (pad: a %s)? Crop "
                     "them, then scale the picture back if it was scaled (crop=%d:%d:X:Y:exact=1"
                     "%s on the main input, X and Y where the picture starts; without them, the "
                     "centre).", wide ? "pillarbox" : "letterbox", pw, ph, back);
        } else
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

enum AVPixelFormat ff_ssimulacra2_sw_format(const AVFrame *frame)
{
    if (!frame->hw_frames_ctx)
        return frame->format;
    return ((const AVHWFramesContext *)frame->hw_frames_ctx->data)->sw_format;
}

enum AVPixelFormat ff_ssimulacra2_link_sw_format(const AVFilterLink *link)
{
    const FilterLink *l = ff_filter_link((AVFilterLink *)link);

    if (!l->hw_frames_ctx)
        return link->format;
    return ((const AVHWFramesContext *)l->hw_frames_ctx->data)->sw_format;
}

int ff_ssimulacra2_has_alpha(enum AVPixelFormat fmt)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(fmt);
    return desc && (desc->flags & AV_PIX_FMT_FLAG_ALPHA);
}

/**
 * One list for the distorted input and the output, where its frames pass
 * through. Each list is referenced as soon as it is made: where
 * ff_formats_ref() fails, it frees a list that no link holds yet.
 */
static int ref_main_and_out(AVFilterFormats *f, AVFilterFormats **in, AVFilterFormats **out)
{
    int ret = ff_formats_ref(f, in);
    return ret < 0 ? ret : ff_formats_ref(f, out);
}

int ff_ssimulacra2_query_formats(const AVFilterContext *ctx,
                                 AVFilterFormatsConfig **cfg_in,
                                 AVFilterFormatsConfig **cfg_out)
{
    int ret;

    /* each input negotiates its own format (each frame is read with its own
     * descriptor). CUDA frames are accepted too, so that they get our error
     * naming the CUDA filter instead of a failed negotiation */
    for (int i = 0; i < 2; i++) {
        AVFilterFormats *fmts = ff_make_format_list(ff_ssimulacra2_pix_fmts);
        if (!fmts)
            return AVERROR(ENOMEM);
        if ((ret = ff_add_format(&fmts, AV_PIX_FMT_CUDA)) < 0 ||
            (ret = i ? ff_formats_ref(fmts, &cfg_in[1]->formats) :
                       ref_main_and_out(fmts, &cfg_in[0]->formats, &cfg_out[0]->formats)) < 0)
            return ret;
    }
    /* colour tags and the alpha mode are read per frame: the reference is not
     * converted to the distorted input's (one list for all links made lavfi
     * premultiply a reference to match a premultiplied distorted input); the
     * output shares the distorted input's lists (lists of its own let a filter
     * after it take the frames as converted when they were not) */
    if ((ret = ref_main_and_out(ff_all_color_spaces(), &cfg_in[0]->color_spaces,
                                &cfg_out[0]->color_spaces)) < 0 ||
        (ret = ref_main_and_out(ff_all_color_ranges(), &cfg_in[0]->color_ranges,
                                &cfg_out[0]->color_ranges)) < 0 ||
        (ret = ref_main_and_out(ff_all_alpha_modes(), &cfg_in[0]->alpha_modes,
                                &cfg_out[0]->alpha_modes)) < 0)
        return ret;
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

/* *left: filters that may still be visited (layers of split and hstack would
 * make the paths many), none left: not decoded RGB, as a graph too large to tell */
static int decoded_rgb(const AVFilterLink *link, int *left)
{
    const AVPixFmtDescriptor *d;

    while (link->src && link->src->nb_inputs == 1 && link->src->inputs[0] && --*left > 0)
        link = link->src->inputs[0];
    if (*left <= 0)
        return 0;
    /* a filter that joins inputs (overlay, hstack, concat): each of them */
    if (link->src && link->src->nb_inputs > 1) {
        for (unsigned i = 0; i < link->src->nb_inputs; i++)
            if (!link->src->inputs[i] || !decoded_rgb(link->src->inputs[i], left))
                return 0;
        return 1;
    }
    d = av_pix_fmt_desc_get(ff_ssimulacra2_link_sw_format(link));
    return d && (rgb_kind(d) || d->nb_components < 3);
}

int ff_ssimulacra2_link_decoded_rgb(const AVFilterLink *link)
{
    int left = 256; /* as the other walks upstream */
    return decoded_rgb(link, &left);
}

/**
 * Packed RGB that swscale converts wrongly, and the format= chain advised in
 * *fix. Samples under 8 bits have no exact conversion: made 8-bit they are
 * widened by a shift or by repeating their high bits (rgb444: white 0.94,
 * +1.6 points; rgb565 +0.2 to +0.5 on a photograph, -2.0 on noise: the
 * nearest there is, warned), made
 * 16-bit multiplied by a power of two, and in the other byte order read as
 * this machine's (rgb565be: -79.5 instead of 42.0). 10-bit samples in 32-bit
 * words are rounded to other depths; gbrp10 unpacks them exactly. NULL if
 * none of these, else what goes wrong.
 */
static const char *packed_rgb_flaw(const AVPixFmtDescriptor *from, enum AVPixelFormat to,
                                   char *fix, size_t size)
{
    int depth = from->comp[0].depth;

    if (!(from->flags & AV_PIX_FMT_FLAG_RGB) || (from->flags & (AV_PIX_FMT_FLAG_PLANAR |
                                                                 AV_PIX_FMT_FLAG_BAYER)) ||
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
           "short of 1; rgb24 is the nearest, within about 2 points)" : NULL;
}

/* swscale's matrix for a tag: an untagged one is BT.601 (bt470bg, smpte170m) */
static enum AVColorSpace sws_matrix(enum AVColorSpace csp)
{
    return csp == AVCOL_SPC_UNSPECIFIED || csp == AVCOL_SPC_SMPTE170M ? AVCOL_SPC_BT470BG : csp;
}

static int range_of_link(const AVPixFmtDescriptor *desc, enum AVColorRange range)
{
    return ff_ssimulacra2_range_read(desc, range == AVCOL_RANGE_UNSPECIFIED ? -1 : range);
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
 * NULL; *setparams: a setparams between them (else left as it is);
 * *user_format: filters of the user's are between them, which asked
 * for that conversion (a format=), but not for the tags lavfi gives it: the
 * lists of a filter that passes frames on are one for its links, so lavfi's
 * narrowing reaches back through it (ab-av1's setpts and settb after its
 * format=, a crop).
 */
static AVFilterContext *lavfi_conversion(const AVFilterLink *link, int *user_format,
                                         AVFilterContext **setparams)
{
    AVFilterContext *src = link->src;

    *user_format = 0;
    while (!is_auto_scale(src) && src->filter && src->nb_inputs == 1 && src->inputs[0] &&
           src->nb_outputs == 1 && (!sets_tags(src) || !strcmp(src->filter->name, "setparams"))) {
        if (!strcmp(src->filter->name, "setparams"))
            *setparams = src;
        src = src->inputs[0]->src;
        *user_format = 1;
    }
    return is_auto_scale(src) ? src : NULL;
}

/* Filters that pass alpha on as it is: one that writes it (colorkey, fade,
 * geq, lut...) makes it real, whatever conversion gave the link its alpha */
static int keeps_alpha(const AVFilterContext *f)
{
    static const char *const names[] = {
        "null", "format", "setpts", "settb", "fps", "trim", "select", "crop", "setsar",
        "setdar", "setparams", "setrange", "setfield", "copy", "loop", "framestep",
    };
    for (int k = 0; k < FF_ARRAY_ELEMS(names); k++)
        if (!strcmp(f->filter->name, names[k]))
            return 1;
    return 0;
}

int ff_ssimulacra2_link_alpha_added(const AVFilterLink *link)
{
    AVFilterContext *conv, *setparams = NULL;
    const AVPixFmtDescriptor *from, *to;
    int user_format;

    if (!(conv = lavfi_conversion(link, &user_format, &setparams)) ||
        !(from = av_pix_fmt_desc_get(conv->inputs[0]->format)) ||
        !(to = av_pix_fmt_desc_get(conv->outputs[0]->format)))
        return 0;
    /* the filters between the conversion and this input: none may write alpha */
    for (AVFilterContext *f = link->src; f && f != conv && f->nb_inputs; f = f->inputs[0]->src)
        if (!keeps_alpha(f))
            return 0;
    return (to->flags & AV_PIX_FMT_FLAG_ALPHA) && !(from->flags & AV_PIX_FMT_FLAG_ALPHA);
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
 * Float gray made integer by the user's format=: FFmpeg 8.1's swscale reads
 * it as limited range (gray16le: 30.4 instead of 36.3; a setparams after it
 * does not mend the values), but for 8-bit gray; into Y'CbCr it keeps the
 * values, which are full range, untagged: refused but for that one.
 */
static int check_float_gray(AVFilterContext *ctx, int i, const AVPixFmtDescriptor *from,
                            const AVPixFmtDescriptor *to, AVFilterContext *setparams)
{
    static const char *const pads[2] = { "distorted", "reference" };
    int64_t range = -1;

    if (!(from->flags & AV_PIX_FMT_FLAG_FLOAT) || from->nb_components > 2 ||
        (to->flags & AV_PIX_FMT_FLAG_FLOAT) || (to->nb_components <= 2 && to->comp[0].depth == 8))
        return 0;
    if (!rgb_kind(to) && to->nb_components >= 3) {
        /* the values kept: right where a setparams tags them full range */
        if (setparams)
            av_opt_get_int(setparams, "range", AV_OPT_SEARCH_CHILDREN, &range);
        if (range == AVCOL_RANGE_JPEG)
            return 0;
        av_log(ctx, AV_LOG_ERROR, "The conversion lavfi inserted for format=%s on the %s input "
               "keeps its float gray's values, full range, but tags no range, so they would be "
               "read as limited range. Add setparams=range=pc after that format=.\n",
               to->name, pads[i]);
        return AVERROR(EINVAL);
    }
    av_log(ctx, AV_LOG_ERROR, "The conversion lavfi inserted for format=%s on the %s input "
           "reads its float gray as limited range (FFmpeg's swscale): the score would be of "
           "another video. Use format=%s,setparams=range=pc instead.\n", to->name, pads[i],
           from->nb_components == 2 ? "yuva444p16le" : "yuv444p16le");
    return AVERROR(EINVAL);
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
    /* the matrix the filter takes for an untagged input: the other's, or the guess */
    const AVPixFmtDescriptor *other_desc =
        other ? av_pix_fmt_desc_get(ff_ssimulacra2_link_sw_format(other)) : NULL;
    enum AVColorSpace read = other && other->colorspace != AVCOL_SPC_UNSPECIFIED &&
                             other->colorspace != AVCOL_SPC_RGB ? other->colorspace :
                             ff_ssimulacra2_matrix_guess(other_desc, out->h);
    int ret;

    /* RGB made Y'CbCr untagged: swscale's BT.601, read by the filter with the
     * other input's matrix or the guess (ab-av1's format= on a PNG
     * reference against a BT.709 encode: 5.0 instead of 56.9) */
    if (rgb_kind(from) && !rgb_kind(to) && to->nb_components >= 3 &&
        out->colorspace == AVCOL_SPC_UNSPECIFIED && sws_matrix(read) != AVCOL_SPC_BT470BG) {
        av_log(ctx, AV_LOG_ERROR, "The conversion lavfi inserted for format=%s on the %s input "
               "makes its RGB Y'CbCr with swscale's BT.601 matrix and no tag, which the filter "
               "would read as %s: the score would be of another video. Drop that format= to "
               "score the RGB as it is (the filter reads it; the reference tool's score), or add "
               "setparams=colorspace=bt470bg after it to score against its converted copy (its "
               "chroma subsampling then counts as no loss).\n",
               to->name, pads[i], av_color_space_name(read));
        return AVERROR(EINVAL);
    }
    /* the reference's RGB subsampled by the user's format= (ab-av1's
     * format=yuv420p10le on a PNG source): the chroma an encode lost is no
     * loss against that copy (68.8 against 66.3 for the RGB, silently) */
    if (i && rgb_kind(from) && !rgb_kind(to) && to->nb_components >= 3 &&
        (to->log2_chroma_w || to->log2_chroma_h))
        av_log(ctx, AV_LOG_WARNING, "format=%s on the reference subsamples its RGB's chroma: "
               "the score is against that copy, where the chroma the distorted video lost "
               "counts as no loss (higher than the reference tool's against the RGB). Drop that "
               "format= to score against the RGB as it is.\n", to->name);
    if ((ret = check_float_gray(ctx, i, from, to, NULL)) < 0)
        return ret;
    /* a yuvj format is full range: its range is the user's choice */
    if (!setparams || (ff_ssimulacra2_is_yuvj(to) &&
                       sws_matrix(in->colorspace) == sws_matrix(out->colorspace)))
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
    int bayer, nearest_depth;
    int in_range, user_format;
    enum AVColorSpace in_csp;
    AVFilterContext *setparams = NULL;
    char tags[80] = "", packed_fix[48];
    const char *packed;
    AVBPrint bp;

    if (!(conv = lavfi_conversion(ctx->inputs[i], &user_format, &setparams)) ||
        !(from = av_pix_fmt_desc_get(conv->inputs[0]->format)) ||
        (from->flags & AV_PIX_FMT_FLAG_HWACCEL))
        return 0;
    out      = conv->outputs[0];
    to       = av_pix_fmt_desc_get(out->format);
    /* a setparams of the user's after it sets the tags it wants; it does not
     * mend float gray's values */
    if (setparams)
        return check_float_gray(ctx, i, from, to, setparams);
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
    bayer   = !!(from->flags & AV_PIX_FMT_FLAG_BAYER);  /* demosaiced: no reading of its own */
    low_rgb = rgb_kind(from) && !(from->flags & AV_PIX_FMT_FLAG_PAL) && from->comp[0].depth < 8 &&
              !bayer;
    widened = to->comp[0].depth > from->comp[0].depth && from->comp[0].depth > 1 &&
              !low_rgb && !bayer &&
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
    /* widened, and no format the filter reads does better (yuva420p9: its
     * alpha, 511 of 511 made 1022 of 1023): the nearest, said (it had been
     * refused, advising the very conversion) */
    nearest_depth = widened && best == out->format;
    if (!yuv_rgb && !retag && !packed && !resampled && (!widened || nearest_depth) && !float_gray &&
        (!loss || best == out->format)) {
        if (nearest_chroma)
            warn_nearest(ctx, pads[i], from, to, "chroma is upsampled by swscale",
                         "format of its chroma subsampling (the score depends on swscale's "
                         "resampling)");
        if (low_rgb)
            warn_nearest(ctx, pads[i], from, to, "samples are widened by swscale, inexactly",
                         "packed RGB under 8 bits (the score is within about 2 points)");
        if (nearest_depth)
            warn_nearest(ctx, pads[i], from, to, "samples are widened by swscale by a shift "
                         "(alpha's highest value stays just short of 1)", "format of their depth");
        if (bayer)
            warn_nearest(ctx, pads[i], from, to, "samples are demosaiced by swscale",
                         from->comp[1].step > 1 && to->comp[0].depth <= 8 ?
                         "Bayer format (the score depends on swscale's demosaicing; "
                         "format=rgb48 on that input first keeps 16 bits)" :
                         "Bayer format (the score depends on swscale's demosaicing)");
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

int ff_ssimulacra2_check_conversions(AVFilterContext *ctx)
{
    int ret = check_conversion(ctx, 0);
    return ret < 0 ? ret : check_conversion(ctx, 1);
}
