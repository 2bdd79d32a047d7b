/*
 * api-locale: the filter in a program that sets a C locale of its own (a
 * decimal comma), as a GUI or a server may: the numbers of the JSON and CSV
 * logs, the stats file and the frame metadata must keep a '.' (printf
 * follows LC_NUMERIC: "25,39" split CSV fields and broke the JSON).
 *
 *   api-locale LOCALE DIR   (writes DIR/s.txt, DIR/l.json, DIR/l.csv, DIR/m.txt)
 *
 * Exit status 0 when the graph ran (the shell checks the files), 77 when the
 * locale cannot be set.
 */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "libavfilter/avfilter.h"
#include "libavutil/error.h"

int main(int argc, char **argv)
{
    AVFilterGraph *g = avfilter_graph_alloc();
    AVFilterInOut *in = NULL, *out = NULL;
    char desc[1024];
    int ret;

    if (argc < 3 || !g)
        return 2;
    if (!setlocale(LC_ALL, argv[1]) || !strcmp(localeconv()->decimal_point, "."))
        return 77;
    snprintf(desc, sizeof(desc),
             "testsrc2=s=64x64:d=0.2,split=4[a][b][c][d];[b]noise=alls=20[n1];[d]noise=alls=30[n2];"
             "[n1][a]ssimulacra2=log_path=%s/l.json:stats_file=%s/s.txt,"
             "metadata=print:file=%s/m.txt,nullsink;"
             "[n2][c]ssimulacra2=log_path=%s/l.csv:log_fmt=csv,nullsink",
             argv[2], argv[2], argv[2], argv[2]);
    ret = avfilter_graph_parse2(g, desc, &in, &out);
    if (ret >= 0)
        ret = avfilter_graph_config(g, NULL);
    /* EAGAIN: a source had nothing for this request (the split's other branches) */
    for (int i = 0; (ret >= 0 || ret == AVERROR(EAGAIN)) && i < 100000; i++)
        ret = avfilter_graph_request_oldest(g);
    avfilter_graph_free(&g);
    if (ret != AVERROR_EOF) {
        fprintf(stderr, "api-locale: %s\n", av_err2str(ret));
        return 1;
    }
    return 0;
}
