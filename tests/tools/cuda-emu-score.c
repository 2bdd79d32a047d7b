/*
 * Scores raw frame pairs with the CUDA filter's kernels run on the host
 * (cuda-emu-kernels.cpp): the scratch layout and the launch sequence of
 * vf_ssimulacra2_cuda.c, device memory replaced by host memory filled with
 * NaN bytes, so that a read of anything a kernel did not write shows.
 *
 * Usage: cuda-emu-score FMT[,DIST_FMT] W H REF.raw DIST.raw [MAX_MEMORY_MIB]
 * Prints one score per frame (%.17g), as the filters' json log has them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/common.h"
#include "libavutil/frame.h"
#include "libavutil/imgutils.h"
#include "libavutil/pixdesc.h"
#include "ssimulacra2.h"
#include "vf_ssimulacra2_cuda.h"

/* the launch shapes of vf_ssimulacra2_cuda.c */
#define CONVERT_BX 32
#define CONVERT_BY 8
#define DIV_UP(a, b) (((a) + (b) - 1) / (b))

int emu_launch(const char *name, const SSIMU2CudaParams *p, unsigned gx, unsigned gy,
               unsigned gz, unsigned bx, unsigned by);

static size_t align256(size_t n)
{
    return (n + 255) & ~(size_t)255;
}

static int read_frame(FILE *f, uint8_t *buf, int size)
{
    return fread(buf, 1, size, f) == (size_t)size;
}

int main(int argc, char **argv)
{
    enum AVPixelFormat fmt[2];
    const AVPixFmtDescriptor *desc[2];
    int w, h, size[2], nb_scales, nb_passes, groups;
    size_t max_memory;
    int sw[SSIMU2_MAX_SCALES], sh[SSIMU2_MAX_SCALES], pitch[SSIMU2_MAX_SCALES];
    size_t xyb_off[SSIMU2_MAX_SCALES], hblur_off[SSIMU2_MAX_SCALES], lin_off[SSIMU2_MAX_SCALES];
    size_t xyb_f = 0, planes_f = 0, lin_f = 0, hblur_f, colsum_d, fixed, total;
    const char *convert[2];
    SSIMULACRA2Common common = { .matrix = -1, .range = -1, .chroma_loc = -1 };
    char *comma;
    SSIMU2CudaParams p;
    uint8_t *buf[2], *mem;
    double *result;
    FILE *in[2];

    if (argc < 6) {
        fprintf(stderr, "usage: %s FMT[,DIST_FMT] W H REF.raw DIST.raw [MAX_MEMORY_MIB]\n", argv[0]);
        return 2;
    }
    comma  = strchr(argv[1], ',');
    fmt[1] = av_get_pix_fmt(comma ? comma + 1 : argv[1]);
    if (comma)
        *comma = 0;
    fmt[0] = av_get_pix_fmt(argv[1]);
    w = atoi(argv[2]);
    h = atoi(argv[3]);
    max_memory = (size_t)(argc > 6 ? atoi(argv[6]) : 2048) << 20;
    for (int i = 0; i < 2; i++) {
        desc[i] = av_pix_fmt_desc_get(fmt[i]);
        if (!desc[i] || w < 1 || h < 1 || (size[i] = av_image_get_buffer_size(fmt[i], w, h, 1)) < 0) {
            fprintf(stderr, "bad format or size\n");
            return 2;
        }
        if (desc[i]->flags & AV_PIX_FMT_FLAG_RGB)
            convert[i] = "ssimu2_convert_rgb8";
        else
            convert[i] = desc[i]->comp[0].depth > 8 ? "ssimu2_convert_yuv16" : "ssimu2_convert_yuv8";
    }
    nb_scales = ssimu2_nb_scales(w, h);
    nb_passes = ff_ssimulacra2_has_alpha(fmt[0]) ? 2 : 1;

    /* alloc_scratch() */
    for (int s = 0; s < nb_scales; s++) {
        size_t plane;
        sw[s]    = s ? (sw[s - 1] + 1) >> 1 : w;
        sh[s]    = s ? (sh[s - 1] + 1) >> 1 : h;
        pitch[s] = FFALIGN(sw[s], 32);
        plane    = (size_t)pitch[s] * sh[s];
        xyb_off[s]   = xyb_f;
        xyb_f       += 6 * plane;
        hblur_off[s] = planes_f;
        planes_f    += plane;
        if (s) {
            lin_off[s] = lin_f;
            lin_f     += 6 * plane;
        }
    }
    colsum_d = (size_t)SSIMU2_CUDA_MAX_PASSES * SSIMU2_CUDA_NB_ARRAYS * w;
    fixed    = align256(xyb_f * sizeof(float)) + align256(colsum_d * sizeof(double));
    groups   = fixed + align256(FFMAX(15 * planes_f, lin_f) * sizeof(float)) <= max_memory ? 3 : 1;
    hblur_f  = FFMAX(5 * groups * planes_f, lin_f);
    for (int s = 0; s < nb_scales; s++)
        hblur_off[s] *= 5 * groups;
    total = fixed + align256(hblur_f * sizeof(float));

    mem    = malloc(total);
    result = calloc(1, SSIMU2_CUDA_RESULT_SIZE);
    for (int i = 0; i < 2; i++) {
        buf[i] = av_malloc(size[i] + 64);
        in[i]  = fopen(argv[4 + i], "rb");
        if (!in[i]) {
            fprintf(stderr, "cannot open %s\n", argv[4 + i]);
            return 1;
        }
    }
    if (!mem || !result || !buf[0] || !buf[1])
        return 1;

    while (read_frame(in[0], buf[0], size[0]) && read_frame(in[1], buf[1], size[1])) {
        AVFrame *fr[2];
        uintptr_t xyb = (uintptr_t)mem, hb = xyb + align256(xyb_f * sizeof(float));
        double score;

        memset(mem, 0xff, total);
        memset(&p, 0, sizeof(p));
        for (int i = 0; i < 2; i++) {
            fr[i] = av_frame_alloc();
            if (!fr[i])
                return 1;
            fr[i]->width  = w;
            fr[i]->height = h;
            fr[i]->format = fmt[i];
            av_image_fill_arrays(fr[i]->data, fr[i]->linesize, buf[i], fmt[i], w, h, 1);
            for (int c = 0; c < 4; c++) {
                p.in_data[i][c]     = (uintptr_t)fr[i]->data[c];
                p.in_linesize[i][c] = fr[i]->linesize[c];
            }
        }
        if (ff_ssimulacra2_colour_pair(NULL, &common, fmt, (const AVFrame *const *)fr, p.colour) < 0)
            return 1;
        /* submit() */
        p.nb_scales     = nb_scales;
        p.nb_passes     = nb_passes;
        for (int s = 0; s < nb_scales; s++) {
            p.widths[s]  = sw[s];
            p.heights[s] = sh[s];
            p.pitches[s] = pitch[s];
            p.xybs[s]    = xyb + xyb_off[s] * sizeof(float);
            p.hblurs[s]  = hb + hblur_off[s] * sizeof(float);
        }
        p.colsum     = hb + align256(hblur_f * sizeof(float));
        p.colsum_len = w;
        p.result     = (uintptr_t)result;
        for (int pass = 0; pass < nb_passes; pass++) {
            p.pass = pass;
            p.bg   = nb_passes > 1 ? (pass ? 0.9f : 0.1f) : 0.5f;
            for (int s = 0; s < nb_scales; s++) {
                p.scale = s;
                p.w     = sw[s];
                p.h     = sh[s];
                p.xyb   = p.xybs[s];
                p.pitch = pitch[s];
                p.plane = (long long)pitch[s] * sh[s];
                if (s) {
                    p.lin_src       = hb + lin_off[s] * sizeof(float);
                    p.lin_src_pitch = pitch[s];
                    p.lin_src_plane = (long long)pitch[s] * sh[s];
                }
                if (s + 1 < nb_scales) {
                    p.lin_dst       = hb + lin_off[s + 1] * sizeof(float);
                    p.lin_dst_pitch = pitch[s + 1];
                    p.lin_dst_plane = (long long)pitch[s + 1] * sh[s + 1];
                    p.dst_w         = sw[s + 1];
                    p.dst_h         = sh[s + 1];
                } else {
                    p.lin_dst = 0;
                }
                if (s && emu_launch("ssimu2_pyramid", &p, DIV_UP((sw[s] + 1) >> 1, CONVERT_BX),
                                    DIV_UP((sh[s] + 1) >> 1, CONVERT_BY), 2, CONVERT_BX, CONVERT_BY) < 0)
                    return 1;
                /* launch_convert(): one launch for both images, or one each */
                for (int i = 0; !s && i < 1 + (fmt[0] != fmt[1]); i++) {
                    const AVPixFmtDescriptor *d = desc[i];
                    for (int c = 0; c < d->nb_components; c++) {
                        p.comp_plane[c]  = d->comp[c].plane;
                        p.comp_offset[c] = d->comp[c].offset;
                        p.comp_step[c]   = d->comp[c].step;
                        p.comp_shift[c]  = d->comp[c].shift;
                        p.comp_mask[c]   = (1 << d->comp[c].depth) - 1;
                    }
                    p.log2_chroma_w = d->log2_chroma_w;
                    p.log2_chroma_h = d->log2_chroma_h;
                    p.chroma_w      = AV_CEIL_RSHIFT(w, d->log2_chroma_w);
                    p.chroma_h      = AV_CEIL_RSHIFT(h, d->log2_chroma_h);
                    p.has_alpha     = ff_ssimulacra2_has_alpha(fmt[i]);
                    p.img0          = fmt[0] != fmt[1] ? i : 0;
                    if (emu_launch(convert[i], &p, DIV_UP((w + 1) >> 1, CONVERT_BX),
                                   DIV_UP((h + 1) >> 1, CONVERT_BY), 2 - (fmt[0] != fmt[1]),
                                   CONVERT_BX, CONVERT_BY) < 0)
                        return 1;
                }
                p.img0 = 0;
            }
            for (int c0 = 0; c0 < 3; c0 += groups) {
                p.c0   = c0;
                p.nb_c = groups;
                if (emu_launch("ssimu2_hblur", &p, DIV_UP(h, SSIMU2_CUDA_TILE), groups, nb_scales,
                               SSIMU2_CUDA_TILE, SSIMU2_NB_Q) < 0 ||
                    emu_launch("ssimu2_vblur", &p, DIV_UP(w, SSIMU2_CUDA_TILE), groups, nb_scales,
                               SSIMU2_CUDA_TILE, SSIMU2_NB_Q) < 0)
                    return 1;
            }
        }
        if (emu_launch("ssimu2_reduce", &p, nb_passes * nb_scales * 3 * SSIMU2_NB_SUMS, 1, 1,
                       SSIMU2_CUDA_REDUCE_THREADS, 1) < 0)
            return 1;
        score = ff_ssimulacra2_score((const double (*)[3][SSIMU2_NB_SUMS])result, nb_scales, w, h);
        if (nb_passes > 1)
            score = FFMIN(score, ff_ssimulacra2_score((const double (*)[3][SSIMU2_NB_SUMS])result +
                                                      SSIMU2_MAX_SCALES, nb_scales, w, h));
        printf("%.17g\n", score);
        av_frame_free(&fr[0]);
        av_frame_free(&fr[1]);
    }
    return 0;
}
