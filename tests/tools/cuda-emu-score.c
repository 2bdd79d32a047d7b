/*
 * Scores raw frame pairs with the CUDA filter's kernels run on the host
 * (cuda-emu-kernels.cpp), executing the filter's own plan
 * (vf_ssimulacra2_cuda_plan.c: the scratch layout and the launches of each
 * frame), device memory replaced by host memory filled with NaN bytes, so
 * that a read of anything a kernel did not write shows. With the tasks
 * and ring layouts (the small ones, for a short max_memory), the blur's counters zeroed
 * and its ticket table written, as the filter does once per set, and the
 * counters must be zero again after every frame.
 *
 * Usage: cuda-emu-score FMT[,DIST_FMT] W H REF.raw DIST.raw [planes|tasks|ring [CHROMA_LOC]]
 * Prints one score per frame (%.17g), as the filters' json log has them;
 * CHROMA_LOC: the chroma_loc option (a name of av_chroma_location_name()).
 * Environment: SSIMU2_EMU_OFFSET=N moves the distorted frame N bytes from
 * its aligned buffer; SSIMU2_EMU_TRACE=1 prints the convert kernels of each
 * frame to stderr (which one the plan takes depends on the alignment);
 * SSIMU2_EMU_BLOCKS=N runs the tasks layout's blur on N blocks at once (a
 * process each, cuda-emu-kernels.cpp), not one after the other.
 * Or: cuda-emu-score layout W H MAX_MEMORY_MIB|auto MAX_SETS
 * Prints the layout the filter takes, its sets and its MiB per set.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "libavutil/common.h"
#include "libavutil/frame.h"
#include "libavutil/imgutils.h"
#include "libavutil/pixdesc.h"
#include "ssimulacra2.h"
#include "vf_ssimulacra2_cuda.h"
#include "vf_ssimulacra2_cuda_plan.h"

static const char *const layout_names[] = {
    [SSIMU2_BLUR_PLANES] = "planes", [SSIMU2_BLUR_TASKS] = "tasks", [SSIMU2_BLUR_RING] = "ring",
};

int emu_launch(const char *name, const SSIMU2CudaParams *p, unsigned gx, unsigned gy,
               unsigned gz, unsigned bx, unsigned by);
void emu_set_concurrent(int on);

/** Zeroed memory that processes forked later share (the device memory of concurrent blocks). */
static void *shared_alloc(size_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static int read_frame(FILE *f, uint8_t *buf, int size)
{
    return fread(buf, 1, size, f) == (size_t)size;
}

int main(int argc, char **argv)
{
    enum AVPixelFormat fmt[2];
    const AVPixFmtDescriptor *desc[2];
    int w, h, size[2], nb_passes;
    enum SSIMU2CudaBlur blur;
    SSIMULACRA2Run run = { 0 };     /* (the colour notes said once a run) */
    SSIMULACRA2Common common = { .matrix = -1, .range = -1, .chroma_loc = -1, .run = &run };
    static SSIMU2CudaLaunch plan[SSIMU2_CUDA_MAX_LAUNCHES];
    SSIMU2CudaLayout layout;
    SSIMU2CudaParams p;
    uint8_t *buf[2], *mem;
    double *result;
    FILE *in[2];
    char *comma;
    const char *env_offset = getenv("SSIMU2_EMU_OFFSET"), *env_trace = getenv("SSIMU2_EMU_TRACE");
    const char *env_trc = getenv("SSIMU2_EMU_TRANSFER"), *env_blocks = getenv("SSIMU2_EMU_BLOCKS");
    int offset = env_offset ? atoi(env_offset) : 0, trace = env_trace && atoi(env_trace);

    if (argc == 6 && !strcmp(argv[1], "layout")) {
        int max_sets = atoi(argv[5]);
        size_t max_memory = !strcmp(argv[4], "auto") ?
                            ff_ssimu2_cuda_auto_memory(atoi(argv[2]), atoi(argv[3]), max_sets) :
                            (size_t)atoi(argv[4]) << 20;
        ff_ssimu2_cuda_layout(&layout, atoi(argv[2]), atoi(argv[3]), max_memory, max_sets);
        printf("%s %d %.1f\n", layout_names[layout.blur],
               ff_ssimu2_cuda_nb_sets(&layout, max_memory, max_sets), layout.bytes / 1048576.0);
        return 0;
    }
    if (argc < 6) {
        fprintf(stderr, "usage: %s FMT[,DIST_FMT] W H REF.raw DIST.raw [planes|tasks|ring [CHROMA_LOC]]\n", argv[0]);
        return 2;
    }
    if (offset < 0 || offset > 64) {
        fprintf(stderr, "SSIMU2_EMU_OFFSET must be 0 to 64\n");
        return 2;
    }
    /* the transfer option (srgb by default, as the filters) */
    if (env_trc && *env_trc) {
        static const char *const trc_names[] = { "srgb", "bt1886", "linear" };
        common.transfer = -1;
        for (int i = 0; i < FF_ARRAY_ELEMS(trc_names); i++)
            if (!strcmp(env_trc, trc_names[i]))
                common.transfer = i;
        if (common.transfer < 0) {
            fprintf(stderr, "SSIMU2_EMU_TRANSFER must be srgb, bt1886 or linear\n");
            return 2;
        }
    }
    if (argc > 7 && (common.chroma_loc = av_chroma_location_from_name(argv[7])) < 0) {
        fprintf(stderr, "unknown chroma location %s\n", argv[7]);
        return 2;
    }
    comma  = strchr(argv[1], ',');
    fmt[1] = av_get_pix_fmt(comma ? comma + 1 : argv[1]);
    if (comma)
        *comma = 0;
    fmt[0] = av_get_pix_fmt(argv[1]);
    w = atoi(argv[2]);
    h = atoi(argv[3]);
    for (int i = 0; i < 2; i++) {
        desc[i] = av_pix_fmt_desc_get(fmt[i]);
        if (!desc[i] || w < 1 || h < 1 || (size[i] = av_image_get_buffer_size(fmt[i], w, h, 1)) < 0) {
            fprintf(stderr, "bad format or size\n");
            return 2;
        }
    }
    blur = SSIMU2_BLUR_PLANES;
    for (int i = 0; argc > 6 && i < FF_ARRAY_ELEMS(layout_names); i++)
        if (!strcmp(argv[6], layout_names[i]))
            blur = i;
    ff_ssimu2_cuda_layout_of(&layout, w, h, blur);
    nb_passes = ff_ssimu2_cuda_nb_passes(desc[0]);

    mem    = shared_alloc(layout.bytes);
    result = shared_alloc(SSIMU2_CUDA_RESULT_SIZE);
    emu_set_concurrent(env_blocks && atoi(env_blocks) > 1);
    for (int i = 0; i < 2; i++) {
        buf[i] = av_malloc(size[i] + 64 + offset);
        in[i]  = fopen(argv[4 + i], "rb");
        if (!in[i]) {
            fprintf(stderr, "cannot open %s\n", argv[4 + i]);
            return 1;
        }
    }
    if (!mem || !result || !buf[0] || !buf[1])
        return 1;

    while (read_frame(in[0], buf[0], size[0]) && read_frame(in[1], buf[1] + offset, size[1])) {
        AVFrame *fr[2];
        double score;
        int nb_launches;

        memset(mem, 0xff, layout.bytes);
        if (layout.blur != SSIMU2_BLUR_PLANES) {
            memset(mem + layout.sync_off, 0, layout.sync_bytes);
            ff_ssimu2_cuda_tasks(&layout, (int *)(mem + layout.tasks_off));
        }
        memset(&p, 0, sizeof(p));
        for (int i = 0; i < 2; i++) {
            fr[i] = av_frame_alloc();
            if (!fr[i])
                return 1;
            fr[i]->width  = w;
            fr[i]->height = h;
            fr[i]->format = fmt[i];
            av_image_fill_arrays(fr[i]->data, fr[i]->linesize, buf[i] + (i ? offset : 0),
                                 fmt[i], w, h, 1);
            for (int c = 0; c < 4; c++) {
                p.in_data[i][c]     = (uintptr_t)fr[i]->data[c];
                p.in_linesize[i][c] = fr[i]->linesize[c];
            }
        }
        if (ff_ssimulacra2_colour_pair(NULL, &common, fmt, (const AVFrame *const *)fr, p.colour) < 0)
            return 1;
        p.result    = (uintptr_t)result;
        p.nb_blocks = env_blocks ? atoi(env_blocks) : 0;
        /* submit(): the filter's plan, executed in order */
        nb_launches = ff_ssimu2_cuda_plan(&layout, &p, (uintptr_t)mem, desc, plan);
        for (int i = 0; i < nb_launches; i++) {
            const SSIMU2CudaLaunch *l = &plan[i];
            /* the convert kernels come first in enum SSIMU2CudaKernel */
            if (trace && l->kernel < SSIMU2_KERNEL_PYRAMID)
                fprintf(stderr, "%s\n", ff_ssimu2_cuda_kernel_names[l->kernel]);
            /* the blur tasks' state shares memory with the linear RGB, which the
             * pyramid leaves finite: NaN again, as nothing may be read there
             * that a task did not hand on in this launch */
            if (l->kernel == SSIMU2_KERNEL_BLUR || l->kernel == SSIMU2_KERNEL_BLUR_RING)
                memset(mem + layout.state_off[0], 0xff, layout.colsum_off - layout.state_off[0]);
            if (emu_launch(ff_ssimu2_cuda_kernel_names[l->kernel], &l->p, l->grid[0], l->grid[1],
                           l->grid[2], l->block[0], l->block[1]) < 0)
                return 1;
        }
        for (size_t i = 0; i < layout.sync_bytes; i++)
            if (mem[layout.sync_off + i]) {
                fprintf(stderr, "the blur left its counters dirty (byte %zu)\n", i);
                return 1;
            }
        /* collect() */
        score = ff_ssimulacra2_score((const double (*)[3][SSIMU2_NB_SUMS])result, layout.nb_scales, w, h);
        if (nb_passes > 1)
            score = FFMIN(score, ff_ssimulacra2_score((const double (*)[3][SSIMU2_NB_SUMS])result +
                                                      SSIMU2_MAX_SCALES, layout.nb_scales, w, h));
        printf("%.17g\n", score);
        av_frame_free(&fr[0]);
        av_frame_free(&fr[1]);
    }
    return 0;
}
