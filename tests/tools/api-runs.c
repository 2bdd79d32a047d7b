/*
 * api-runs: the filter used through the libavfilter API, as a program that
 * scores one job after another does (not the ffmpeg tool). Each job is a
 * graph of two buffer sources, ssimulacra2 and a buffer sink.
 *
 *   api-runs STATS_FILE [norss]   (STATS_FILE.jobs too)
 *
 * 1. a job freed before its inputs end, then a job of the same names that
 *    ends: the second job's stats file holds its own 2 frames only (it had
 *    continued the first one's: frames:5);
 * 2. 40 jobs of 640x480 frames, of names of their own, freed before their
 *    end: the process grows by less than 8 MiB (each had kept a reference
 *    frame for ever); not checked with norss (a sanitizer's quarantine holds
 *    freed memory);
 * 3. a job whose frames have no timestamps: the summary says so (it had
 *    said that the distorted input had no frame);
 * 4. a graph whose slice threading is off (thread_type 0, nb_threads 0)
 *    scores as a default graph (it ran no job: 100 from memory never written);
 * 5. reference frames with Dolby Vision metadata of profile 5 (IPT samples,
 *    as FFmpeg's HEVC decoder gives them) are warned, of profile 8 not.
 * Exit status 0 when all hold; the reasons on stderr otherwise.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavfilter/avfilter.h"
#include "libavfilter/buffersink.h"
#include "libavfilter/buffersrc.h"
#include "libavutil/dovi_meta.h"
#include "libavutil/frame.h"
#include "libavutil/log.h"
#include "libavutil/opt.h"

static AVFilterGraph *make_graph(const char *name, const char *stats, int w, int h,
                                 AVFilterContext **src, AVFilterContext **sink)
{
    AVFilterGraph *g = avfilter_graph_alloc();
    AVFilterContext *s2;
    char args[128], opts[256];

    if (g && !strcmp(name, "unthreaded"))
        g->thread_type = 0;
    snprintf(args, sizeof(args), "video_size=%dx%d:pix_fmt=yuv420p:time_base=1/25", w, h);
    snprintf(opts, sizeof(opts), "stats_file=%s", stats);
    if (!g ||
        avfilter_graph_create_filter(&src[0], avfilter_get_by_name("buffer"), "in0", args, NULL, g) < 0 ||
        avfilter_graph_create_filter(&src[1], avfilter_get_by_name("buffer"), "in1", args, NULL, g) < 0 ||
        avfilter_graph_create_filter(&s2, avfilter_get_by_name("ssimulacra2"), name, opts, NULL, g) < 0 ||
        avfilter_graph_create_filter(sink, avfilter_get_by_name("buffersink"), "out", NULL, NULL, g) < 0 ||
        avfilter_link(src[0], 0, s2, 0) < 0 || avfilter_link(src[1], 0, s2, 1) < 0 ||
        avfilter_link(s2, 0, *sink, 0) < 0 || avfilter_graph_config(g, NULL) < 0) {
        avfilter_graph_free(&g);
        return NULL;
    }
    return g;
}

/* Dolby Vision metadata given to the reference frames: profile 5, 8, or none (0) */
static int dovi_profile;

static int attach_dovi(AVFrame *f, int profile)
{
    size_t size;
    AVDOVIMetadata *dovi = av_dovi_metadata_alloc(&size);
    AVBufferRef *buf = dovi ? av_buffer_create((uint8_t *)dovi, size, NULL, NULL, 0) : NULL;
    AVDOVIRpuDataHeader *hdr;

    if (!buf) {
        av_free(dovi);
        return -1;
    }
    /* as ff_dovi_guess_profile_hevc() tells them */
    hdr = av_dovi_get_header(dovi);
    hdr->vdr_rpu_profile = profile == 5 ? 0 : 1;
    hdr->bl_video_full_range_flag = profile == 5;
    if (!av_frame_new_side_data_from_buf(f, AV_FRAME_DATA_DOVI_METADATA, buf)) {
        av_buffer_unref(&buf);
        return -1;
    }
    return 0;
}

/* frames n of the distorted (input 0) and the reference (input 1), at pts */
static int push_pair(AVFilterContext **src, int w, int h, int n, int64_t pts)
{
    for (int i = 0; i < 2; i++) {
        AVFrame *f = av_frame_alloc();
        int ret;
        if (!f)
            return -1;
        f->width = w;
        f->height = h;
        f->format = AV_PIX_FMT_YUV420P;
        f->pts = pts;
        if (av_frame_get_buffer(f, 0) < 0) {
            av_frame_free(&f);
            return -1;
        }
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                f->data[0][y * f->linesize[0] + x] = (x * 7 + y * 3 + n * 5 + i * ((x * y) % 13)) & 0xff;
        for (int p = 1; p < 3; p++)
            for (int y = 0; y < h / 2; y++)
                memset(f->data[p] + y * f->linesize[p], 128, w / 2);
        ret = i && dovi_profile ? attach_dovi(f, dovi_profile) : 0;
        if (ret >= 0)
            ret = av_buffersrc_add_frame(src[i], f);
        av_frame_free(&f);
        if (ret < 0)
            return -1;
    }
    return 0;
}

/* takes the frames out; the first one's score, if any */
static double drain(AVFilterContext *sink)
{
    AVFrame *f = av_frame_alloc();
    double score = -1e9;
    while (f && av_buffersink_get_frame(sink, f) >= 0) {
        AVDictionaryEntry *e = av_dict_get(f->metadata, "lavfi.ssimulacra2.score", NULL, 0);
        if (e && score == -1e9)
            score = strtod(e->value, NULL);
        av_frame_unref(f);
    }
    av_frame_free(&f);
    return score;
}

/* the score of frame pair 1 at 96x64 in a graph of that name */
static double score_in_graph(const char *name, const char *stats)
{
    AVFilterContext *src[2], *sink;
    AVFilterGraph *g = make_graph(name, stats, 96, 64, src, &sink);
    double score = -1e9;

    if (g && push_pair(src, 96, 64, 1, 0) >= 0 &&
        av_buffersrc_add_frame(src[0], NULL) >= 0 && av_buffersrc_add_frame(src[1], NULL) >= 0)
        score = drain(sink);
    avfilter_graph_free(&g);
    return score;
}

/* the log, kept to be searched */
static char logged[16384];

static void keep_log(void *avcl, int level, const char *fmt, va_list vl)
{
    size_t len = strlen(logged);
    if (level <= AV_LOG_WARNING && len < sizeof(logged) - 1)
        vsnprintf(logged + len, sizeof(logged) - len, fmt, vl);
}

static long rss_kib(void)
{
    char line[256];
    long kib = -1;
    FILE *fp = fopen("/proc/self/status", "r");
    while (fp && fgets(line, sizeof(line), fp))
        if (!strncmp(line, "VmRSS:", 6))
            kib = atol(line + 6);
    if (fp)
        fclose(fp);
    return kib;
}

int main(int argc, char **argv)
{
    AVFilterContext *src[2], *sink;
    AVFilterGraph *g;
    char last[512] = "", line[512], jobs[1024];
    FILE *fp;
    long before, after;
    int bad = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: api-runs STATS_FILE [norss]\n");
        return 2;
    }
    av_log_set_level(AV_LOG_ERROR);
    /* 1. a job freed mid-way, then one of the same names that ends */
    if (!(g = make_graph("s", argv[1], 64, 48, src, &sink)))
        return 2;
    for (int n = 0; n < 3; n++)
        if (push_pair(src, 64, 48, n, n) < 0)
            return 2;
    drain(sink);
    avfilter_graph_free(&g);
    if (!(g = make_graph("s", argv[1], 64, 48, src, &sink)))
        return 2;
    for (int n = 0; n < 2; n++)
        if (push_pair(src, 64, 48, n, n) < 0)
            return 2;
    if (av_buffersrc_add_frame(src[0], NULL) < 0 || av_buffersrc_add_frame(src[1], NULL) < 0)
        return 2;
    drain(sink);
    avfilter_graph_free(&g);
    if (!(fp = fopen(argv[1], "r"))) {
        fprintf(stderr, "no stats file %s\n", argv[1]);
        return 1;
    }
    while (fgets(line, sizeof(line), fp))
        strcpy(last, line);
    fclose(fp);
    if (strncmp(last, "SSIMULACRA2 frames:2 ", 21)) {
        fprintf(stderr, "the second job's summary: %s", last);
        bad = 1;
    } else
        printf("  ok   a job freed before its end: the next one of the same names "
               "scores its own frames\n");
    /* 2. jobs freed before their end keep nothing */
    snprintf(jobs, sizeof(jobs), "%s.jobs", argv[1]);
    before = rss_kib();
    for (int job = 0; job < 40; job++) {
        char name[32];
        snprintf(name, sizeof(name), "job%d", job);
        if (!(g = make_graph(name, jobs, 640, 480, src, &sink)))
            return 2;
        if (push_pair(src, 640, 480, 0, 0) < 0)
            return 2;
        drain(sink);
        avfilter_graph_free(&g);
    }
    after = rss_kib();
    if (argc < 3 && after - before > 8192) {
        fprintf(stderr, "40 jobs freed before their end: the process grew by %ld KiB\n",
                after - before);
        bad = 1;
    } else if (argc < 3)
        printf("  ok   40 jobs freed before their end: no memory kept (%ld KiB)\n", after - before);
    /* 3. frames without timestamps (each refused with an error) */
    av_log_set_callback(keep_log);
    if (!(g = make_graph("nopts", jobs, 64, 48, src, &sink)))
        return 2;
    for (int n = 0; n < 2; n++) {
        push_pair(src, 64, 48, n, AV_NOPTS_VALUE);
        drain(sink);
    }
    if (av_buffersrc_add_frame(src[0], NULL) >= 0 && av_buffersrc_add_frame(src[1], NULL) >= 0)
        drain(sink);
    avfilter_graph_free(&g);
    av_log_set_callback(av_log_default_callback);
    if (!strstr(logged, "without a timestamp were refused")) {
        fprintf(stderr, "frames without timestamps, the log said:\n%s", logged);
        bad = 1;
    } else
        printf("  ok   frames without timestamps: the summary says so\n");
    /* 4. slice threading off */
    {
        double threaded = score_in_graph("threaded", jobs);
        double unthreaded = score_in_graph("unthreaded", jobs);
        if (threaded == -1e9 || threaded != unthreaded) {
            fprintf(stderr, "a graph without slice threading scored %.17g, a default graph %.17g\n",
                    unthreaded, threaded);
            bad = 1;
        } else
            printf("  ok   a graph without slice threading scores as a default one (%.17g)\n",
                   threaded);
    }
    /* 5. Dolby Vision profile 5 */
    av_log_set_callback(keep_log);
    for (dovi_profile = 5; dovi_profile <= 8; dovi_profile += 3) {
        char name[16];
        int warned;
        logged[0] = 0;
        snprintf(name, sizeof(name), "dovi%d", dovi_profile);
        score_in_graph(name, jobs);
        warned = !!strstr(logged, "is Dolby Vision profile 5");
        if (warned != (dovi_profile == 5)) {
            fprintf(stderr, "Dolby Vision profile %d: %s\n", dovi_profile,
                    warned ? "warned as IPT" : "not warned");
            bad = 1;
        } else
            printf("  ok   Dolby Vision profile %d reference: %s\n", dovi_profile,
                   warned ? "warned as IPT" : "not warned");
    }
    dovi_profile = 0;
    av_log_set_callback(av_log_default_callback);
    return bad;
}
