/*
 * SSIMULACRA 2.1: the outputs of the ssimulacra2 and ssimulacra2_cuda filters
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
 * Frame metadata, stats file, log (json/csv/xml) and summary line.
 *
 * Scores are kept in memory and the files are written whole when the inputs
 * end, each to a temporary file renamed over the target, so that a full
 * disk leaves an error and the previous file, never a truncated one (in
 * place where no rename can replace the target: writable_in_place()). A run
 * of scores outlives its filter instance: ffmpeg rebuilds the graph when an
 * input changes mid-stream, and the new instance (same name) continues the
 * frame numbers and the files.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#if HAVE_UNISTD_H
#include <unistd.h>
#endif
#if defined(__linux__)
#include <dirent.h>
#include <sys/vfs.h>
#endif

#include "libavutil/avstring.h"
#include "libavutil/bprint.h"
#include "libavutil/file_open.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/random_seed.h"
#include "libavutil/thread.h"
#include "libavutil/time.h"

#include "filters.h"
#include "framesync.h"
#include "version.h"

#include "ssimulacra2.h"

static AVMutex runs_lock = AV_MUTEX_INITIALIZER;
static SSIMULACRA2Run *runs;

/* "-", or a name of this process's standard output (the same stream) */
static int is_stdout(const char *path)
{
    return path && (!strcmp(path, "-") || !strcmp(path, "/dev/stdout") ||
                    !strcmp(path, "/dev/fd/1") || !strcmp(path, "/proc/self/fd/1"));
}

/** A descriptor of this process (/dev/stderr, /dev/fd/3): written in place, never replaced. */
static int is_fd_path(const char *path)
{
    return !strcmp(path, "/dev/stderr") ||
           av_strstart(path, "/dev/fd/", NULL) || av_strstart(path, "/proc/self/fd/", NULL);
}

#if HAVE_UNISTD_H && !defined(_WIN32)
/** The descriptor a name of one stands for (/dev/stderr, /dev/fd/N, /proc/self/fd/N), else -1. */
static int fd_of_path(const char *path)
{
    const char *num;
    char *end;
    long fd;

    if (!strcmp(path, "/dev/stderr"))
        return STDERR_FILENO;
    if (!av_strstart(path, "/dev/fd/", &num) && !av_strstart(path, "/proc/self/fd/", &num))
        return -1;
    fd = strtol(num, &end, 10);
    return *num >= '0' && *num <= '9' && !*end && fd <= INT_MAX ? fd : -1;
}
#endif

/** An output written straight into, not replaced: a descriptor, a pipe, a device. */
static int is_direct(const char *key)
{
    struct stat sb;
    return is_fd_path(key) || (!stat(key, &sb) && !S_ISREG(sb.st_mode));
}

/**
 * The file a symbolic link leads to (its target, even one that does not
 * exist yet), so that the output replaces that file and not the link; path
 * itself when it is no link.
 */
static char *follow_links(const char *path)
{
    char *cur = av_strdup(path);
#if HAVE_UNISTD_H && !defined(_WIN32)
    for (int depth = 0; cur && depth < 40; depth++) {
        char target[PATH_MAX], *next;
        const char *slash;
        struct stat sb;
        ssize_t len;

        /* a descriptor's name: what it leads to is the descriptor's (a pipe:[N]) */
        if (is_stdout(cur) || is_fd_path(cur) || lstat(cur, &sb) < 0 || !S_ISLNK(sb.st_mode) ||
            (len = readlink(cur, target, sizeof(target) - 1)) < 0)
            break;
        target[len] = 0;
        slash = strrchr(cur, '/');
        next  = target[0] == '/' || !slash ? av_strdup(target) :
                av_asprintf("%.*s/%s", (int)(slash - cur), cur, target);
        av_free(cur);
        cur = next;
    }
#endif
    return cur;
}

/**
 * Absolute path of the file an output is written to (its directory
 * resolved, links followed), or NULL; the path itself for a descriptor.
 */
static char *output_key(AVFilterContext *ctx, const char *path, const char *what, int *err)
{
    char dir[PATH_MAX];
    const char *slash, *base;
    char *parent, *key, *file;

    *err = 0;
    if (!path)
        return NULL;
    if (is_stdout(path))
        return av_strdup("-");
    if (!(file = follow_links(path))) {
        *err = AVERROR(ENOMEM);
        return NULL;
    }
    /* a link to a descriptor (a container's log file linked to /dev/stdout):
     * written as that descriptor is, never replaced */
    if (is_stdout(file)) {
        av_free(file);
        return av_strdup("-");
    }
#if HAVE_UNISTD_H && !defined(_WIN32)
    /* one name per descriptor, so that two outputs on it are seen as one */
    {
        int fd = fd_of_path(file);
        if (fd >= 0) {
            av_free(file);
            return fd == STDOUT_FILENO ? av_strdup("-") : av_asprintf("/dev/fd/%d", fd);
        }
    }
#endif
    if (is_fd_path(file))
        return file;
    path   = file;
    slash  = strrchr(path, '/');
    base   = slash ? slash + 1 : path;
    parent = slash ? av_strndup(path, slash - path + (slash == path)) : av_strdup(".");
    if (!parent) {
        av_free(file);
        *err = AVERROR(ENOMEM);
        return NULL;
    }
#if HAVE_UNISTD_H && !defined(_WIN32)
    if (!realpath(parent, dir)) {
        *err = AVERROR(errno);
        av_log(ctx, AV_LOG_ERROR, "Could not open %s '%s': directory '%s': %s. "
               "Check that the directory exists and is writable.\n",
               what, path, parent, av_err2str(*err));
        av_free(parent);
        av_free(file);
        return NULL;
    }
#else
    av_strlcpy(dir, parent, sizeof(dir));
#endif
    av_free(parent);
    if (!*base) {
        *err = AVERROR(EINVAL);
        av_log(ctx, AV_LOG_ERROR, "The %s '%s' names a directory; give a file name.\n", what, path);
        av_free(file);
        return NULL;
    }
    key = av_asprintf("%s/%s", strcmp(dir, "/") ? dir : "", base);
    av_free(file);
    if (!key)
        *err = AVERROR(ENOMEM);
    return key;
}

/**
 * Whether this process has path open, as one of ffmpeg's inputs or outputs
 * would be: writing the log there would destroy that file.
 */
static int open_in_process(const char *path)
{
#if defined(__linux__)
    struct stat target, st;
    struct dirent *e;
    DIR *d;
    int found = 0;

    if (stat(path, &target) < 0 || !S_ISREG(target.st_mode) || !(d = opendir("/proc/self/fd")))
        return 0;
    while (!found && (e = readdir(d))) {
        int fd = atoi(e->d_name);
        /* an input, or an output of ffmpeg's (a muxer's file); standard output
         * or error sent to the file for writing are the user's choice */
        found = e->d_name[0] >= '0' && e->d_name[0] <= '9' &&
                ((fd != STDOUT_FILENO && fd != STDERR_FILENO) ||
                 (fcntl(fd, F_GETFL) & O_ACCMODE) != O_WRONLY) &&
                !fstat(fd, &st) && st.st_dev == target.st_dev && st.st_ino == target.st_ino;
    }
    closedir(d);
    return found;
#else
    return 0;
#endif
}

/* no room: space or inodes, or the user's quota */
static int disk_full(int err)
{
#ifdef EDQUOT
    if (err == AVERROR(EDQUOT))
        return 1;
#endif
    return err == AVERROR(ENOSPC);
}

static long name_max(const char *key);

/**
 * A temporary file beside key: the same folder (so that it can be renamed
 * over key), hidden, named after key (one a killed run leaves says whose it
 * is), cut so that a name near the file system's limit still has one.
 */
static char *temp_name(const char *key)
{
    const char *slash = strrchr(key, '/'), *base = slash ? slash + 1 : key;
    long max = name_max(key);
    /* ".", base, ".ssimu2-XXXXXXXX.tmp": 21 bytes more, within the name's and
     * the path's limits (a path the target fits in still gets one) */
    size_t room = FFMIN(max > 0 ? (size_t)FFMAX(max - 21, 0) : 64,
                        (size_t)FFMAX(PATH_MAX - 22 - (base - key), 0));

    room = FFMIN(room, strlen(base));
    while (room && (base[room] & 0xC0) == 0x80)     /* (not within a UTF-8 character) */
        room--;
    return av_asprintf("%.*s.%.*s.ssimu2-%08x.tmp", (int)(base - key), key, (int)room, base,
                       av_get_random_seed());
}

/**
 * A new file, never one that exists (the temporary files); where it replaces
 * key (if not NULL), with the permissions of the file there before, if any
 * (a log kept private stays private).
 */
static FILE *create_new(const char *path, const char *key)
{
    int fd = avpriv_open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
    FILE *f;

    if (fd < 0)
        return NULL;
#if HAVE_UNISTD_H && !defined(_WIN32)
    {
        struct stat sb;
        if (key && !stat(key, &sb) && S_ISREG(sb.st_mode))
            fchmod(fd, sb.st_mode & 0777);
    }
#endif
    if (!(f = fdopen(fd, "w"))) {
        int err = errno;    /* (the caller's message names this one) */
        close(fd);
        remove(path);
        errno = err;
    }
    return f;
}

/**
 * A regular file the process may write where it may not create one beside it
 * (a directory of another user's), or that a rename cannot replace (a file
 * bind-mounted on its own, as docker run -v host.json:/out/scores.json does):
 * written in place then, as the psnr filter writes its stats file.
 */
static int writable_in_place(const char *key)
{
#if HAVE_UNISTD_H && !defined(_WIN32)
    struct stat sb;
    return !stat(key, &sb) && S_ISREG(sb.st_mode) && !access(key, W_OK);
#else
    return 0;
#endif
}

/**
 * A finished document (in, read from its start) copied into key in place, in
 * one write: the window in which a killed process leaves part of it is that
 * write's, not the document's making.
 */
static int copy_into(FILE *in, const char *key)
{
    uint8_t *buf = NULL;
    long len;
    FILE *out;
    int fd, err = 0;

    if (fseek(in, 0, SEEK_END) || (len = ftell(in)) < 0 || fseek(in, 0, SEEK_SET))
        return AVERROR(errno ? errno : EIO);
    if (!(buf = av_malloc(len + 1)))
        return AVERROR(ENOMEM);
    if (fread(buf, 1, len, in) != (size_t)len) {
        av_free(buf);
        return AVERROR(EIO);
    }
    /* not created: O_CREAT on another user's file in a sticky directory (/tmp)
     * is refused where fs.protected_regular is set (systemd's default) */
    if ((fd = avpriv_open(key, O_WRONLY | O_TRUNC)) < 0 || !(out = fdopen(fd, "wb"))) {
        err = AVERROR(errno);
        if (fd >= 0)
            close(fd);
        av_free(buf);
        return err;
    }
    if (fwrite(buf, 1, len, out) != (size_t)len || fflush(out))
        err = AVERROR(errno ? errno : EIO);
    if (fclose(out) && !err)
        err = AVERROR(errno ? errno : EIO);
    av_free(buf);
    return err;
}

static int same_key(const char *a, const char *b)
{
    return a && b && !strcmp(a, b);
}

/** Both name the same file, or neither names one. */
static int same_output(const char *a, const char *b)
{
    return same_key(a, b) || (!a && !b);
}

static void free_run(SSIMULACRA2Run *run)
{
    av_freep(&run->name);
    av_freep(&run->sources);
    av_freep(&run->scores);
    av_freep(&run->score_frames);
    av_freep(&run->log_key);
    av_freep(&run->stats_key);
    av_frame_free(&run->first_ref);
    av_free(run);
}

/**
 * The sources upstream of the inputs (ffmpeg names its buffer sources after
 * their graph and stream: "graph 0 input from stream 0:0"). With the instance
 * name they find an instance's run again in a rebuilt graph, and not the run
 * of another graph's instance of the same name.
 */
static char *sources_of(AVFilterContext *ctx)
{
    AVBPrint bp;
    char *str = NULL;

    av_bprint_init(&bp, 0, AV_BPRINT_SIZE_UNLIMITED);
    for (unsigned i = 0; i < ctx->nb_inputs; i++) {
        AVFilterContext *f = ctx->inputs[i] ? ctx->inputs[i]->src : NULL;
        for (int depth = 0; f && f->nb_inputs && f->inputs[0] && depth < 256; depth++)
            f = f->inputs[0]->src;
        av_bprintf(&bp, "%s\n", f && f->name ? f->name : "");
    }
    if (av_bprint_is_complete(&bp))
        av_bprint_finalize(&bp, &str);
    else
        av_bprint_finalize(&bp, NULL);
    return str;
}

/**
 * Whether a line of sources_of() names one of the ffmpeg tool's buffer
 * sources, "graph G input from stream F:S"; its file and stream if so.
 */
static int cli_source(const char *line, int *file, int *stream)
{
    int g;
    return line && sscanf(line, "graph %d input from stream %d:%d", &g, file, stream) == 3;
}

/**
 * Whether a graph could be the ffmpeg tool's rebuild of this one: an input
 * comes from the tool's buffer sources (the other may be a movie= source in
 * the graph). A program of its own (a server scoring one job after another)
 * frees a graph before its end, and the next one, of the same names, had
 * continued its scores (8 frames where 3 were given) and kept its memory for
 * ever.
 */
static int cli_sources(const char *sources)
{
    int file, stream;

    for (const char *s = sources; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL)
        if (cli_source(s, &file, &stream))
            return 1;
    return 0;
}

/* A path's extension, lower-cased into ext (empty if none). */
static void extension_of(const char *path, char ext[8])
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    int i = 0;

    if (dot && !strchr(dot, '/'))
        for (dot++; *dot && i < 7; dot++)
            ext[i++] = av_tolower(*dot);
    ext[i] = 0;
}

/**
 * Outputs that will not hold what their names say: a log_fmt without a log,
 * a log whose extension names another format, a stats file named as a log
 * (the first option without a name is stats_file: ssimulacra2=scores.json).
 */
static void check_output_names(AVFilterContext *ctx, const SSIMULACRA2Common *c)
{
    static const char *const fmts[] = { "json", "csv", "xml" };
    static const char *const names[] = { "JSON", "CSV", "XML" };
    char ext[8];

    if (!c->log_path && c->log_fmt != SSIMULACRA2_LOG_JSON)
        av_log(ctx, AV_LOG_WARNING, "log_fmt=%s has no effect without log_path: no log is "
               "written.\n", fmts[c->log_fmt]);
    extension_of(c->log_path, ext);
    for (int i = 0; i < FF_ARRAY_ELEMS(fmts); i++)
        if (!strcmp(ext, fmts[i]) && i != c->log_fmt)
            av_log(ctx, AV_LOG_WARNING, "The log '%s' will hold %s (log_fmt=%s), not %s: give "
                   "log_fmt=%s for %s.\n", c->log_path, names[c->log_fmt], fmts[c->log_fmt],
                   names[i], fmts[i], names[i]);
    extension_of(c->stats_file_str, ext);
    for (int i = 0; i < FF_ARRAY_ELEMS(fmts); i++) {
        AVBPrint arg;
        if (strcmp(ext, fmts[i]))
            continue;
        /* the path as a graph takes it back: 'a\:b.json' (a colon ends an option) */
        av_bprint_init(&arg, 0, AV_BPRINT_SIZE_AUTOMATIC);
        if (strpbrk(c->stats_file_str, ":\\'[],;= ")) {
            av_bprint_chars(&arg, '\'', 1);
            av_bprint_escape(&arg, c->stats_file_str, ":\\'", AV_ESCAPE_MODE_BACKSLASH, 0);
            av_bprint_chars(&arg, '\'', 1);
        } else {
            av_bprintf(&arg, "%s", c->stats_file_str);
        }
        if (c->log_path)    /* (a log of its own already: the stats file misnamed) */
            av_log(ctx, AV_LOG_WARNING, "The stats file '%s' will hold lines 'n:N score:S', "
                   "not %s: name it .txt (the %s log is log_path).\n", c->stats_file_str,
                   names[i], names[c->log_fmt]);
        else
            av_log(ctx, AV_LOG_WARNING, "The stats file '%s' will hold lines 'n:N score:S', "
                   "not %s (the first option without a name is stats_file): for a log in %s, "
                   "give log_path=%s%s%s.\n", c->stats_file_str, names[i], names[i],
                   av_bprint_is_complete(&arg) ? arg.str : c->stats_file_str,
                   i ? ":log_fmt=" : "", i ? fmts[i] : "");
        av_bprint_finalize(&arg, NULL);
    }
}

av_cold int ff_ssimulacra2_common_init(AVFilterContext *ctx, SSIMULACRA2Common *c)
{
    c->last_ref_pts    = AV_NOPTS_VALUE;
    c->last_paired_pts = AV_NOPTS_VALUE;
    c->first_ref_us    = AV_NOPTS_VALUE;
    c->last_ref_in_pts = AV_NOPTS_VALUE;
    /* graphs written for libvmaf (ab-av1, Av1an) pass n_threads */
    if (c->n_threads > 0)
        ctx->nb_threads = c->n_threads;
    if ((c->log_path && !*c->log_path) || (c->stats_file_str && !*c->stats_file_str)) {
        av_log(ctx, AV_LOG_ERROR, "%s is empty; give a file name, or - for standard output.\n",
               c->log_path && !*c->log_path ? "log_path" : "stats_file");
        return AVERROR(EINVAL);
    }
    if (c->matrix >= 0 && !ff_ssimulacra2_matrix_readable(c->matrix)) {
        av_log(ctx, AV_LOG_ERROR, "matrix=%d (%s) is not a Kr/Kb Y'CbCr matrix; give one of "
               "bt709, bt601, bt470bg, smpte170m, smpte240m, fcc, bt2020.\n", c->matrix,
               av_color_space_name(c->matrix) ? av_color_space_name(c->matrix) : "unknown");
        return AVERROR(EINVAL);
    }
    /* 0 is FFmpeg's "unspecified", which would read tagged frames as untagged
     * (range=0 made full-range frames limited: 4.9 instead of 11.9) */
    if (!c->range || !c->chroma_loc) {
        av_log(ctx, AV_LOG_ERROR, "%s=0 (unspecified) is not a reading; give auto or one of "
               "the named values (ffmpeg -h filter=%s).\n", !c->range ? "range" : "chroma_loc",
               ctx->filter->name);
        return AVERROR(EINVAL);
    }
    if (c->stats_file_str && c->log_path && !strcmp(c->stats_file_str, c->log_path)) {
        av_log(ctx, AV_LOG_ERROR, "stats_file ('%s') and log_path ('%s') are the same file; "
               "the two would mix into one unreadable file. Give them different paths.\n",
               c->stats_file_str, c->log_path);
        return AVERROR(EINVAL);
    }
    return 0;
}

/** Check the paths of a new run against the other live runs and the inputs. */
static int check_paths(AVFilterContext *ctx, SSIMULACRA2Run *run)
{
    const char *keys[2] = { run->log_key, run->stats_key };
    static const char *const what[2] = { "log_path", "stats_file" };

    if (same_key(run->log_key, run->stats_key)) {
        av_log(ctx, AV_LOG_ERROR, "stats_file and log_path are the same file (%s); give them "
               "different paths.\n", run->log_key);
        return AVERROR(EINVAL);
    }
    for (SSIMULACRA2Run *r = runs; r; r = r->next) {
        if (r == run || !r->live)
            continue;
        for (int i = 0; i < 2; i++)
            if (same_key(keys[i], r->log_key) || same_key(keys[i], r->stats_key)) {
                /* (ffmpeg numbers each -filter_complex from 0: the names may be one) */
                av_log(ctx, AV_LOG_ERROR, "%s '%s' is written by another filter instance (%s%s) "
                       "already; give each instance its own file.\n", what[i],
                       strcmp(keys[i], "-") ? keys[i] : "- (standard output)", r->name,
                       strcmp(r->name, run->name) ? "" : " of another filter graph");
                return AVERROR(EINVAL);
            }
    }
    for (int i = 0; i < 2; i++)
        if (keys[i] && strcmp(keys[i], "-") && !is_fd_path(keys[i]) && open_in_process(keys[i])) {
            av_log(ctx, AV_LOG_ERROR, "%s '%s' is open in this process (an input, or the output "
                   "file of ffmpeg); writing it would destroy that file. Give another path.\n",
                   what[i], keys[i]);
            return AVERROR(EINVAL);
        }
    return 0;
}

/** The directory of key ("." for a bare name, "/" for a file in the root); NULL: no memory. */
static av_unused char *dir_of(const char *key)
{
    const char *slash = strrchr(key, '/');
    return slash ? av_strndup(key, FFMAX(slash - key, 1)) : av_strdup(".");
}

/** The longest file name the directory of key takes, or -1 if unknown. */
static long name_max(const char *key)
{
#if HAVE_UNISTD_H && !defined(_WIN32) && defined(_PC_NAME_MAX)
    char *dir = dir_of(key);
    long max = dir ? pathconf(dir, _PC_NAME_MAX) : -1;

    av_free(dir);
    return max;
#else
    return -1;
#endif
}

/* a name the file system refuses (checked before the run: the temporary file
 * beside the target has a short name of its own) */
static int name_too_long(const char *key)
{
    const char *slash = strrchr(key, '/');
    long max = name_max(key);

    return max > 0 && strlen(slash ? slash + 1 : key) > (size_t)max;
}

/* /proc, /sys and their kind: a root run would write its document into a kernel setting */
static int on_kernel_fs(const char *key)
{
#if defined(__linux__)
    static const unsigned long kinds[] = {
        0x9fa0,         /* proc */          0x62656572,     /* sysfs */
        0x27e0eb,       /* cgroup */        0x63677270,     /* cgroup2 */
        0x64626720,     /* debugfs */       0x74726163,     /* tracefs */
        0x73636673,     /* securityfs */    0x62656570,     /* configfs */
        0x42494e4d,     /* binfmt_misc */   0xf97cff8c,     /* selinuxfs */
        0xde5e81e4,     /* efivarfs */      0xcafe4a11,     /* bpf */
        0x6165676c,     /* pstore */
    };
    char *dir = dir_of(key);
    struct statfs fs;
    int ret = dir && !statfs(dir, &fs);

    av_free(dir);
    for (int i = 0; ret && i < FF_ARRAY_ELEMS(kinds); i++)
        if ((unsigned long)fs.f_type == kinds[i])
            return 1;
#endif
    return 0;
}

/* Fail now rather than after the whole run: a file can be created beside the
 * target (key: the file written, output_key(); path: as the user gave it). */
static int check_writable(AVFilterContext *ctx, const char *key, const char *path, const char *what)
{
    struct stat sb;
    char *tmp;
    FILE *f;
    int err = 0;
#if HAVE_UNISTD_H && !defined(_WIN32)
    /* a descriptor not open, or open for reading only, fails once every frame
     * is scored: standard output closed (>&-), or then taken by an input file
     * ffmpeg opened (an output file there cannot be told from standard output
     * sent to a file) */
    int fd = !key ? -1 : !strcmp(key, "-") ? STDOUT_FILENO : fd_of_path(key), fl;

    if (fd >= 0 && ((fl = fcntl(fd, F_GETFL)) < 0 || (fl & O_ACCMODE) == O_RDONLY)) {
        if (fd == STDOUT_FILENO)
            av_log(ctx, AV_LOG_ERROR, "The %s '%s' is standard output, which is closed: "
                   "leave it open, or give a file.\n", what, path);
        else
            av_log(ctx, AV_LOG_ERROR, "The %s '%s' names descriptor %d, which is %s.\n",
                   what, path, fd, fl < 0 ? "not open" : "open for reading only");
        return AVERROR(EBADF);
    }
#endif
    if (!key || is_stdout(key) || is_fd_path(key))
        return 0;
    if (!stat(key, &sb) && S_ISDIR(sb.st_mode)) {
        av_log(ctx, AV_LOG_ERROR, "The %s '%s' names a directory; give a file name.\n", what, path);
        return AVERROR(EISDIR);
    }
    /* a disk: a root run wrote its document over the start of it */
    if (!stat(key, &sb) && S_ISBLK(sb.st_mode)) {
        av_log(ctx, AV_LOG_ERROR, "The %s '%s' is a block device (a disk or partition); give "
               "a file name.\n", what, path);
        return AVERROR(EINVAL);
    }
    if (!stat(key, &sb) && !S_ISREG(sb.st_mode))
        return 0;
    if (on_kernel_fs(key)) {
        av_log(ctx, AV_LOG_ERROR, "The %s '%s' is on a kernel file system (/proc, /sys): "
               "what is written there sets the kernel, it is not a file. Give a file name.\n",
               what, path);
        return AVERROR(EINVAL);
    }
    if (name_too_long(key)) {
        av_log(ctx, AV_LOG_ERROR, "Could not open %s '%s': %s (its file system takes names of "
               "up to %ld bytes).\n", what, path, av_err2str(AVERROR(ENAMETOOLONG)),
               name_max(key));
        return AVERROR(ENAMETOOLONG);
    }
    /* the whole path too (the temporary file's is cut to fit as long as this fits) */
    if (strlen(key) >= PATH_MAX) {
        av_log(ctx, AV_LOG_ERROR, "Could not open %s '%s': %s (its full path has %zu bytes, "
               "the system takes up to %d): choose a shorter one.\n", what, path,
               av_err2str(AVERROR(ENAMETOOLONG)), strlen(key), PATH_MAX - 1);
        return AVERROR(ENAMETOOLONG);
    }
    tmp = temp_name(key);
    if (!tmp)
        return AVERROR(ENOMEM);
    f = create_new(tmp, NULL);
    err = f ? 0 : AVERROR(errno);
    if (!f && (err == AVERROR(EACCES) || err == AVERROR(EPERM)) && writable_in_place(key)) {
        err = 0;
        av_log(ctx, AV_LOG_VERBOSE, "The %s '%s' is written in place: its directory takes "
               "no new file.\n", what, path);
    } else if (!f) {
        /* the file itself may be writable: its directory is what must be */
        av_log(ctx, AV_LOG_ERROR, "Could not create a file beside the %s '%s': %s. It is "
               "written whole beside it, then renamed over it: %s.\n", what, path,
               av_err2str(err), disk_full(err) ? "make room on its file system (space, or "
               "inodes: df -i)" : err == AVERROR(EMFILE) || err == AVERROR(ENFILE) ?
               "raise the limit on open files (ulimit -n)" :
               "check that its directory exists and is writable");
    } else {
        fclose(f);
        remove(tmp);
    }
    av_free(tmp);
    return err;
}

/**
 * Both inputs other streams of one input file of ffmpeg (cli_source()):
 * unlabeled inputs (-lavfi ssimulacra2) take the first file's video streams
 * in order, so a second video track or cover art of the distorted file became
 * the reference, and the reference file was never read (-1801 instead of 53.1).
 */
static void check_one_file(AVFilterContext *ctx, const char *sources)
{
    const char *second = sources ? strchr(sources, '\n') : NULL;
    int file[2], stream[2];

    if (cli_source(sources, &file[0], &stream[0]) && second &&
        cli_source(second + 1, &file[1], &stream[1]) &&
        file[0] == file[1] && stream[0] != stream[1])
        av_log(ctx, AV_LOG_WARNING, "Both inputs are streams of input file #%d (%d:%d distorted, "
               "%d:%d reference). If the reference is another file, name the inputs: "
               "[0:v][1:v]ssimulacra2 (without labels, ffmpeg takes the first file's video "
               "streams in order: a second track or cover art becomes the reference); labelled "
               "so on purpose, this is no concern.\n",
               file[0], file[0], stream[0], file[1], stream[1]);
}

/**
 * How ffmpeg turned input i as its display matrix says (a rotation tag, an
 * image's EXIF orientation): the filters it inserts are named after
 * themselves ("transpose", "hflip", ...), those of a graph string
 * "Parsed_...". Empty if not turned.
 */
static void turned_by(AVFilterContext *ctx, int i, char *buf, size_t size)
{
    static const char *const turns[] = { "transpose", "hflip", "vflip", "rotate" };
    AVFilterContext *f = ctx->inputs[i] ? ctx->inputs[i]->src : NULL;

    *buf = 0;
    for (int depth = 0; f && depth < 256; depth++) {
        for (int k = 0; k < FF_ARRAY_ELEMS(turns); k++)
            if (f->name && !strcmp(f->name, turns[k]) && !strcmp(f->filter->name, turns[k])) {
                /* which way: transpose's direction, rotate's angle */
                uint8_t *how = NULL;
                av_opt_get(f, k ? "angle" : "dir", AV_OPT_SEARCH_CHILDREN, &how);
                av_strlcatf(buf, size, "%s%s%s%s", *buf ? "," : "", turns[k],
                            how ? "=" : "", how ? (const char *)how : "");
                av_free(how);
            }
        f = f->nb_inputs && f->inputs[0] ? f->inputs[0]->src : NULL;
    }
}

/**
 * One input turned by ffmpeg and not the other: the reference tool scores
 * the pixels as stored, and a JPEG tagged with an EXIF orientation of 3
 * against the same pixels untagged scored -926.6 instead of 100, silently
 * (where the sizes turn too, the size check says so).
 */
static void check_turned(AVFilterContext *ctx, SSIMULACRA2Run *run)
{
    char turned[2][64], what[192], from[64] = "";

    turned_by(ctx, 0, turned[0], sizeof(turned[0]));
    turned_by(ctx, 1, turned[1], sizeof(turned[1]));
    /* a rebuilt graph: a rotation tag that starts or changes mid-stream (an
     * H.264 display orientation SEI) turns the frames from there on; the
     * same turns as the last graph's were said already */
    if (run->resumed && !strcmp(turned[0], run->turned[0]) && !strcmp(turned[1], run->turned[1]))
        return;
    memcpy(run->turned, turned, sizeof(turned));
    if (!strcmp(turned[0], turned[1]))
        return;
    /* a quarter turn of a frame that is not square: without it the sizes would
     * differ, so the stored pictures differ too (a phone video's tag against an
     * encode that ffmpeg turned as it made it): the turn pairs them */
    if (!strstr(turned[0], "transpose") != !strstr(turned[1], "transpose") &&
        ctx->inputs[0] && ctx->inputs[0]->w != ctx->inputs[0]->h)
        return;
    if (*turned[0] && *turned[1])
        snprintf(what, sizeof(what), "the distorted input (%s) and the reference (%s) "
                 "differently", turned[0], turned[1]);
    else
        snprintf(what, sizeof(what), "the %s (%s) and not the %s",
                 *turned[0] ? "distorted input" : "reference", *turned[0] ? turned[0] : turned[1],
                 *turned[0] ? "reference" : "distorted input");
    if (run->resumed)
        snprintf(from, sizeof(from), "From frame %"PRId64" (the graph was rebuilt), ", run->nb_frames);
    av_log(ctx, AV_LOG_WARNING, "%sffmpeg turned %s, as rotation tags or EXIF orientations say. "
           "The reference tool scores pixels as stored: if the two are the same picture as "
           "stored, give -noautorotate before the inputs' -i. If one was made from the picture "
           "as shown (ffmpeg turns what it encodes), or you turned one yourself to match, the "
           "pairs are right.\n", from, what);
}

int ff_ssimulacra2_start_run(AVFilterContext *ctx, SSIMULACRA2Common *c)
{
    SSIMULACRA2Run *run = c->run, *old = NULL;
    int ret = 0;

    if (run)    /* the output link is configured again */
        return 0;
    run = av_mallocz(sizeof(*run));
    if (!run)
        return AVERROR(ENOMEM);
    run->name      = av_strdup(ctx->name ? ctx->name : "");
    run->sources   = sources_of(ctx);
    run->resumable = run->sources && cli_sources(run->sources);
    run->log_key   = output_key(ctx, c->log_path, "log file", &ret);
    if (ret >= 0)
        run->stats_key = output_key(ctx, c->stats_file_str, "stats file", &ret);
    if (ret >= 0 && (!run->name || !run->sources))
        ret = AVERROR(ENOMEM);
    if (ret >= 0)
        ret = check_writable(ctx, run->log_key, c->log_path, "log file");
    if (ret >= 0)
        ret = check_writable(ctx, run->stats_key, c->stats_file_str, "stats file");
    if (ret < 0) {
        free_run(run);
        return ret;
    }

    ff_mutex_lock(&runs_lock);
    ret = check_paths(ctx, run);
    if (ret >= 0) {
        /* a rebuilt graph: the instance of the same name left its run */
        SSIMULACRA2Run **p;
        for (p = &runs; *p; p = &(*p)->next)
            if (!(*p)->live && run->resumable && !strcmp((*p)->name, run->name) &&
                !strcmp((*p)->sources, run->sources) &&
                same_output((*p)->log_key, run->log_key) &&
                same_output((*p)->stats_key, run->stats_key))
                break;
        if (*p) {
            old  = *p;
            free_run(run);
            run  = old;
        } else {
            run->next = runs;
            runs = run;
        }
        run->live = 1;
    }
    ff_mutex_unlock(&runs_lock);
    if (ret < 0) {
        free_run(run);
        return ret;
    }
    if (!old) {
        check_output_names(ctx, c);     /* (once: ffmpeg initialises a graph twice) */
        check_one_file(ctx, run->sources);
        check_turned(ctx, run);
        run->start_us     = av_gettime_relative();
        run->next_main_us = AV_NOPTS_VALUE;
        run->start_gap_us = AV_NOPTS_VALUE;
        run->past_end_us  = AV_NOPTS_VALUE;
        run->ref_restart_us = AV_NOPTS_VALUE;
        run->step_min_us[0] = run->step_min_us[1] = INT64_MAX;
    } else {
        /* the frames the old graph's CUDA filter held: not output, not scored */
        run->nb_unpaired += run->nb_held;
        run->nb_lost     += run->nb_held;
        run->nb_held      = 0;
        run->resumed = 1;
        run->nb_rebuilds++;
        av_log(ctx, AV_LOG_INFO, "The filter graph was rebuilt: scores continue from frame %"PRId64
               " (%u scored so far) in the same summary and files.\n", run->nb_frames, run->nb_scores);
        check_turned(ctx, run);
    }
    c->run = run;
    return 0;
}

/* the longest number written: %.17g of a double, or %.15f of a score */
#define NUM_LEN 48

/**
 * A number for the files, the metadata and standard output, which programs
 * read: with a '.' whatever the C locale of a program that uses the library
 * (printf follows LC_NUMERIC: a decimal comma split CSV fields and broke the
 * JSON log). The ffmpeg tool never sets a locale.
 */
static const char *num(char *buf, const char *fmt, double v)
{
    const char *dp = localeconv()->decimal_point;
    char *p;

    snprintf(buf, NUM_LEN, fmt, v);
    if (dp && *dp && strcmp(dp, ".") && (p = strstr(buf, dp))) {
        size_t n = strlen(dp);
        *p = '.';
        memmove(p + 1, p + n, strlen(p + n) + 1);
    }
    return buf;
}

int ff_ssimulacra2_report(AVFilterContext *ctx, SSIMULACRA2Common *c, AVFrame *main,
                          int64_t frame_index, double score, double elapsed_ms)
{
    SSIMULACRA2Run *run = c->run;
    char buf[NUM_LEN];
    int ret;

    if (run->nb_scores == run->scores_size) {
        unsigned size = run->scores_size ? 2 * run->scores_size : 256;
        double *scores;
        int64_t *frames;
        scores = av_realloc_array(run->scores, size, sizeof(*scores));
        if (scores)
            run->scores = scores;
        frames = scores ? av_realloc_array(run->score_frames, size, sizeof(*frames)) : NULL;
        if (!frames) {
            /* (ffmpeg's own line names no cause) */
            av_log(ctx, AV_LOG_ERROR, "Out of memory for the scores of %u frames (%.1f MiB): "
                   "the run stops; the files hold the frames scored. Free memory (or raise "
                   "-max_alloc, if given), or score fewer frames at a time.\n", size,
                   size * (sizeof(*scores) + sizeof(*frames)) / 1048576.0);
            return AVERROR(ENOMEM);
        }
        run->score_frames = frames;
        run->scores_size  = size;
    }
    run->scores[run->nb_scores]       = score;
    run->score_frames[run->nb_scores] = frame_index;
    run->nb_scores++;
    run->profile_ms += elapsed_ms;

    num(buf, "%.15f", score);
    ret = av_dict_set(&main->metadata, SSIMULACRA2_SCORE_KEY, buf, 0);
    if (ret < 0)
        return ret;
    /* standard output is a stream: lines as the frames are scored, also into a
     * pipe (where stdout is buffered) */
    if (is_stdout(c->run->stats_key) && !c->stdout_failed) {
        errno = 0;  /* (ferror() alone: EIO, not an earlier call's errno) */
        printf("n:%"PRId64" score:%s\n", frame_index + 1, buf);
        /* a reader that has gone (| head): stop now, not after the whole
         * video (ffmpeg ignores SIGPIPE); the other outputs get what was scored */
        if (fflush(stdout) || ferror(stdout)) {
            ret = AVERROR(errno ? errno : EIO);
            av_log(ctx, AV_LOG_ERROR, "Could not write the scores to standard output: %s; "
                   "stopping.\n", av_err2str(ret));
            c->stdout_failed = 1;
            return ret;
        }
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

enum { ST_MIN, ST_MAX, ST_MEAN, ST_HMEAN, ST_P1, ST_P5, ST_P10, ST_MEDIAN, ST_P95, ST_STDDEV, ST_NB };

/* names in the logs (libvmaf's pooled_metrics keys) */
static const char *const stat_names[ST_NB] = {
    "min", "max", "mean", "harmonic_mean", "p1", "p5", "p10", "median", "p95", "stddev",
};

/* the statistic of each pool option value */
static const int pool_stat[] = {
    [SSIMU2_POOL_MEAN]          = ST_MEAN,
    [SSIMU2_POOL_HARMONIC_MEAN] = ST_HMEAN,
    [SSIMU2_POOL_MIN]           = ST_MIN,
    [SSIMU2_POOL_P1]            = ST_P1,
    [SSIMU2_POOL_P5]            = ST_P5,
    [SSIMU2_POOL_P10]           = ST_P10,
    [SSIMU2_POOL_MEDIAN]        = ST_MEDIAN,
    [SSIMU2_POOL_P95]           = ST_P95,
    [SSIMU2_POOL_MAX]           = ST_MAX,
};

/** Percentile of sorted values, linear between closest ranks (rank = p/100 (n-1)). */
static double percentile(const double *sorted, unsigned n, double p)
{
    double rank = p / 100.0 * (n - 1);
    unsigned lo = (unsigned)rank;
    double f = rank - lo;
    if (lo + 1 >= n)
        return sorted[n - 1];
    return sorted[lo] + f * (sorted[lo + 1] - sorted[lo]);
}

static int pooled_stats(const SSIMULACRA2Run *run, double st[ST_NB])
{
    unsigned n = run->nb_scores;
    double *sorted = av_memdup(run->scores, n * sizeof(*sorted));
    double sum = 0.0, inv_sum = 0.0, var = 0.0;
    int nonpositive = 0;

    if (!sorted)
        return AVERROR(ENOMEM);
    qsort(sorted, n, sizeof(*sorted), cmp_double);
    for (unsigned i = 0; i < n; i++) {
        sum += run->scores[i];
        if (run->scores[i] <= 0.0)
            nonpositive = 1;
        else
            inv_sum += 1.0 / run->scores[i];
    }
    st[ST_MEAN] = sum / n;
    for (unsigned i = 0; i < n; i++)
        var += (run->scores[i] - st[ST_MEAN]) * (run->scores[i] - st[ST_MEAN]);
    st[ST_MIN]    = sorted[0];
    st[ST_MAX]    = sorted[n - 1];
    /* the mean, and the harmonic mean of positive scores, lie within [min, max];
     * rounding may step out (n / (n x 1/100) != 100) */
    st[ST_MEAN]   = av_clipd(st[ST_MEAN], st[ST_MIN], st[ST_MAX]);
    st[ST_HMEAN]  = nonpositive ? 0.0 : av_clipd(n / inv_sum, st[ST_MIN], st[ST_MAX]);
    st[ST_P1]     = percentile(sorted, n, 1);
    st[ST_P5]     = percentile(sorted, n, 5);
    st[ST_P10]    = percentile(sorted, n, 10);
    st[ST_MEDIAN] = percentile(sorted, n, 50);
    st[ST_P95]    = percentile(sorted, n, 95);
    st[ST_STDDEV] = n > 1 ? sqrt(var / (n - 1)) : 0.0;
    av_free(sorted);
    return 0;
}

/* ended: the inputs ended (EOF); not when the graph was freed before (an output limit, a
 * rebuild, an error): files that hold part of a run say so */
static void write_log(const SSIMULACRA2Run *run, int fmt, FILE *f, const double st[ST_NB],
                      int ended)
{
    unsigned n = run->nb_scores;
    double seconds = (av_gettime_relative() - run->start_us) / 1e6;
    char a[NUM_LEN];

    switch (fmt) {
    case SSIMULACRA2_LOG_JSON:
        /* "version" is the metric's, "software_version" the filter's (libvmaf's
         * "version" is its library's) */
        fprintf(f, "{\n  \"version\": \"2.1\",\n  \"software_version\": \"%s\",\n"
                "  \"fps\": %s,\n  \"frames_ref_repeated\": %"PRId64",\n"
                "  \"frames_ts_mismatched\": %"PRId64",\n  \"frames_unpaired\": %"PRId64",\n"
                "  \"frames_ref_skipped\": %"PRId64",\n  \"frames\": [",
                LIBAVFILTER_IDENT, num(a, "%.2f", seconds > 0 ? n / seconds : 0.0),
                run->nb_repeated, run->nb_mismatched, run->nb_unpaired, run->nb_ref_skipped);
        for (unsigned i = 0; i < n; i++)
            fprintf(f, "%s\n    {\"frameNum\": %"PRId64", \"metrics\": {\"ssimulacra2\": %s}}",
                    i ? "," : "", run->score_frames[i], num(a, "%.17g", run->scores[i]));
        fprintf(f, "\n  ],\n  \"pooled_metrics\": {\"ssimulacra2\": {");
        for (int s = 0; st && s < ST_NB; s++)
            fprintf(f, "%s\"%s\": %s", s ? ", " : "", stat_names[s], num(a, "%.17g", st[s]));
        fprintf(f, "}},\n  \"frames_scored\": %u,\n  \"inputs_ended\": %s\n}\n", n,
                ended ? "true" : "false");
        break;
    case SSIMULACRA2_LOG_CSV:
        /* one table of numbers, as libvmaf's: the statistics are in the summary */
        fprintf(f, "frame,score\n");
        for (unsigned i = 0; i < n; i++)
            fprintf(f, "%"PRId64",%s\n", run->score_frames[i], num(a, "%.17g", run->scores[i]));
        break;
    case SSIMULACRA2_LOG_XML:
        fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ssimulacra2 version=\"2.1\">\n  <frames>\n");
        for (unsigned i = 0; i < n; i++)
            fprintf(f, "    <frame frameNum=\"%"PRId64"\" ssimulacra2=\"%s\"/>\n",
                    run->score_frames[i], num(a, "%.17g", run->scores[i]));
        fprintf(f, "  </frames>\n  <pooled_metrics>\n    <metric name=\"ssimulacra2\"");
        for (int s = 0; st && s < ST_NB; s++)
            fprintf(f, " %s=\"%s\"", stat_names[s], num(a, "%.17g", st[s]));
        fprintf(f, "/>\n  </pooled_metrics>\n  <frames_scored>%u</frames_scored>\n"
                "  <frames_ref_repeated>%"PRId64"</frames_ref_repeated>\n"
                "  <frames_ts_mismatched>%"PRId64"</frames_ts_mismatched>\n"
                "  <frames_unpaired>%"PRId64"</frames_unpaired>\n"
                "  <frames_ref_skipped>%"PRId64"</frames_ref_skipped>\n"
                "  <inputs_ended>%d</inputs_ended>\n</ssimulacra2>\n",
                n, run->nb_repeated, run->nb_mismatched, run->nb_unpaired, run->nb_ref_skipped,
                !!ended);
        break;
    }
}

/**
 * The summary line, in the log and at the end of the stats file. Its keys
 * are distinct words, none the end of another, for scripts that match "key:".
 */
static void summary_line(AVBPrint *bp, const SSIMULACRA2Run *run, const double st[ST_NB])
{
    static const struct { int st; const char *key; } keys[] = {
        { ST_MEAN, "mean" }, { ST_HMEAN, "harmonic" }, { ST_MIN, "min" }, { ST_P1, "p1" },
        { ST_P5, "p5" }, { ST_P10, "p10" }, { ST_MEDIAN, "median" }, { ST_P95, "p95" },
        { ST_MAX, "max" }, { ST_STDDEV, "stddev" },
    };

    char a[NUM_LEN];

    av_bprintf(bp, "SSIMULACRA2 frames:%u", run->nb_scores);
    for (int i = 0; st && i < FF_ARRAY_ELEMS(keys); i++)
        av_bprintf(bp, " %s:%s", keys[i].key, num(a, "%.8f", st[keys[i].st]));
    av_bprintf(bp, " ref_repeated:%"PRId64" ts_mismatched:%"PRId64" unpaired:%"PRId64
               " ref_skipped:%"PRId64, run->nb_repeated, run->nb_mismatched, run->nb_unpaired,
               run->nb_ref_skipped);
}

/* the stats file's last line: as xpsnr's, for scripts run with -loglevel error */
static void write_stats_end(const SSIMULACRA2Run *run, FILE *f, const double st[ST_NB], int ended)
{
    AVBPrint bp;

    av_bprint_init(&bp, 0, AV_BPRINT_SIZE_AUTOMATIC);
    summary_line(&bp, run, st);
    fprintf(f, "%s inputs_ended:%d\n", bp.str, !!ended);
    av_bprint_finalize(&bp, NULL);
}

static void write_stats(const SSIMULACRA2Run *run, FILE *f, const double st[ST_NB], int ended)
{
    char a[NUM_LEN];

    for (unsigned i = 0; i < run->nb_scores; i++)
        fprintf(f, "n:%"PRId64" score:%s\n", run->score_frames[i] + 1,
                num(a, "%.15f", run->scores[i]));
    write_stats_end(run, f, st, ended);
}

/**
 * Open an output that is not a regular file. A descriptor is written
 * through, at its position (ffmpeg may have written there already). A FIFO
 * without a reader is an error, not a wait: the run would hang after scoring
 * every frame, where no signal but SIGKILL ends it.
 */
static FILE *open_direct(const char *key)
{
#if HAVE_UNISTD_H && !defined(_WIN32)
    struct stat sb;
    int fd;

    if (!is_fd_path(key) && !stat(key, &sb) && S_ISFIFO(sb.st_mode)) {
        FILE *f;
        if ((fd = avpriv_open(key, O_WRONLY | O_NONBLOCK)) < 0)
            return NULL;
        if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0 || !(f = fdopen(fd, "w"))) {
            close(fd);
            return NULL;
        }
        return f;
    }
    /* a descriptor is written through itself: opened again, a regular file it
     * leads to (2> err.txt) got the log at its end, where ffmpeg's own later
     * lines, at the descriptor's position, wrote over it */
    if ((fd = fd_of_path(key)) >= 0) {
        FILE *f;
        if ((fd = dup(fd)) < 0)
            return NULL;
        if (!(f = fdopen(fd, "w")))
            close(fd);
        return f;
    }
#endif
    return avpriv_fopen_utf8(key, is_fd_path(key) ? "a" : "w");
}

/**
 * Write one output: into a temporary file renamed over key (the file path
 * leads to), or straight into it when it is not a regular file (/dev/stdout,
 * a pipe, /dev/full); in place where no rename can replace it.
 */
static int write_attempt(AVFilterContext *ctx, const SSIMULACRA2Common *c, const char *key,
                         const char *path, int is_log, const double *st)
{
    char *tmp = NULL;
    FILE *f;
    int err = 0, direct = is_direct(key);
    int in_place = 0;

    if (!direct && !(tmp = temp_name(key)))
        return AVERROR(ENOMEM);
    /* a descriptor is written at its position (ffmpeg may have written there already) */
    f = direct ? open_direct(key) : create_new(tmp, key);
    err = f ? 0 : AVERROR(errno);
    /* a directory the user may not write: the document made aside, then copied in */
    if (!f && !direct && (err == AVERROR(EACCES) || err == AVERROR(EPERM)) &&
        writable_in_place(key)) {
        av_freep(&tmp);
        f = tmpfile();
        err = f ? 0 : AVERROR(errno);
        in_place = !!f;
    }
    if (!f) {
        if (err == AVERROR(ENXIO))
            av_log(ctx, AV_LOG_ERROR, "The %s '%s' is a FIFO that no process reads: %s.\n",
                   is_log ? "log file" : "stats file", path, c->run->direct_written & (1 << is_log) ?
                   "its reader stopped after the document written when ffmpeg rebuilt the filter "
                   "graph (one document per graph; a regular file gets one for the whole run)" :
                   "start its reader before ffmpeg");
    } else {
        errno = 0;  /* (ferror() alone: EIO, not an earlier call's errno) */
        if (is_log)
            write_log(c->run, c->log_fmt, f, c->run->nb_scores ? st : NULL, c->finished);
        else
            write_stats(c->run, f, c->run->nb_scores ? st : NULL, c->finished);
        if (fflush(f) || ferror(f))
            err = AVERROR(errno ? errno : EIO);
        if (!err && in_place)
            err = copy_into(f, key);
        if (fclose(f) && !err)
            err = AVERROR(errno ? errno : EIO);
    }
    if (!err && direct)
        c->run->direct_written |= 1 << is_log;
    if (!err && tmp && rename(tmp, key) < 0) {
        FILE *done;
        err = AVERROR(errno);
        /* a file no rename can replace (a mount; another user's, writable, in a
         * sticky directory such as /tmp): the document copied into it */
        if ((err == AVERROR(EBUSY) || err == AVERROR(EXDEV) || err == AVERROR(EPERM) ||
             err == AVERROR(EACCES)) && writable_in_place(key) &&
            (done = avpriv_fopen_utf8(tmp, "rb"))) {
            err = copy_into(done, key);
            fclose(done);
            if (!err)
                remove(tmp);
        }
    }
    if (err < 0 && tmp)
        remove(tmp);
    av_free(tmp);
    return err;
}

/**
 * Write one output. On a full disk where the earlier run's file takes the room
 * the new one needs beside it, that file, which the new one replaces (or whose
 * failure removes), goes first, and the write is tried again.
 */
static int write_output(AVFilterContext *ctx, const SSIMULACRA2Common *c, const char *key,
                        const char *path, int is_log, const double *st)
{
    int err = write_attempt(ctx, c, key, path, is_log, st);
    struct stat sb;

    if (disk_full(err) && !is_direct(key) && !stat(key, &sb) && S_ISREG(sb.st_mode) &&
        !remove(key)) {
        av_log(ctx, AV_LOG_WARNING, "No room for the new %s '%s' beside the earlier run's: "
               "that was removed to make room.\n", is_log ? "log file" : "stats file", path);
        err = write_attempt(ctx, c, key, path, is_log, st);
#if HAVE_UNISTD_H && !defined(_WIN32)
        /* the mode the replaced file had (a private log stays private) */
        if (!err)
            chmod(key, sb.st_mode & 0777);
#endif
    }
    if (err < 0)
        av_log(ctx, AV_LOG_ERROR, "Could not write the %s '%s': %s.\n",
               is_log ? "log file" : "stats file", path, av_err2str(err));
    return err;
}

/**
 * A file that could not be written: the file there before goes, so that no
 * script reads an earlier run's scores as this one's. ffmpeg's exit status
 * cannot always show the error: the output was closed first (-frames, -t), a
 * signal stopped the run (timeout, Ctrl-C: its own status), or the graph is an
 * input of its own (-f lavfi movie=...: status 0).
 */
static void remove_stale(AVFilterContext *ctx, const char *key, const char *path, int closed)
{
    const char *unseen = closed ? "The output was closed before the inputs ended (-frames, -t), "
                         "so ffmpeg's exit status cannot show this error" : NULL;
    struct stat sb;
    int gone;

    if (!key || is_stdout(key) || is_fd_path(key) || stat(key, &sb) || !S_ISREG(sb.st_mode)) {
        if (unseen)
            av_log(ctx, AV_LOG_ERROR, "%s.\n", unseen);
        return;
    }
    gone = !remove(key);
#if HAVE_UNISTD_H && !defined(_WIN32)
    /* a file written in place (a mount, a directory of another user's) is
     * emptied: neither an earlier run's nor part of this one's is left */
    if (!gone && writable_in_place(key) && !truncate(key, 0))
        gone = 2;
#endif
    av_log(ctx, AV_LOG_ERROR, "%s%s'%s', %s.\n", unseen ? unseen : "", unseen ? ": " : "",
           path, gone == 2 ? "which cannot be removed (a mount, or a directory the user may not "
           "write), was emptied, so that it is not read as this run's" : gone ? "from an earlier "
           "run, was removed, so that it is not read as this run's" : "from an earlier run, "
           "could be neither removed nor emptied: it is NOT this run's output");
}

/* closed: ffmpeg has closed the output, an error can no longer fail the run;
 * files_only: regular files only, not outputs written straight into (standard
 * output, a FIFO), which would get a second document from a rebuilt graph */
static int write_outputs(AVFilterContext *ctx, SSIMULACRA2Common *c, const double *st,
                         int closed, int files_only)
{
    int ret = 0, r;

    if (c->stats_file_str && !is_stdout(c->run->stats_key) &&
        !(files_only && is_direct(c->run->stats_key)) &&
        (r = write_output(ctx, c, c->run->stats_key, c->stats_file_str, 0, st)) < 0) {
        ret = r;
        remove_stale(ctx, c->run->stats_key, c->stats_file_str, closed);
    }
    if (c->log_path && !is_stdout(c->run->log_key) && !(files_only && is_direct(c->run->log_key)) &&
        (r = write_output(ctx, c, c->run->log_key, c->log_path, 1, st)) < 0) {
        ret = r;
        remove_stale(ctx, c->run->log_key, c->log_path, closed);
    }
    if (files_only)
        return ret;
    errno = 0;
    if (is_stdout(c->run->log_key))
        write_log(c->run, c->log_fmt, stdout, c->run->nb_scores ? st : NULL, c->finished);
    if (is_stdout(c->run->stats_key))
        write_stats_end(c->run, stdout, c->run->nb_scores ? st : NULL, c->finished);
    if ((is_stdout(c->run->log_key) || is_stdout(c->run->stats_key)) && !c->stdout_failed) {
        if (fflush(stdout) || ferror(stdout)) {
            av_log(ctx, AV_LOG_ERROR, "Could not write the scores to standard output: %s.\n",
                   av_err2str(AVERROR(errno ? errno : EIO)));
            ret = AVERROR(EIO);
        }
    }
    return ret;
}

static void log_summary(AVFilterContext *ctx, const SSIMULACRA2Common *c, const double st[ST_NB])
{
    const SSIMULACRA2Run *run = c->run;
    AVBPrint bp;
    char a[NUM_LEN];

    av_bprint_init(&bp, 0, AV_BPRINT_SIZE_AUTOMATIC);
    summary_line(&bp, run, st);
    av_log(ctx, AV_LOG_INFO, "%s\n", bp.str);
    av_bprint_finalize(&bp, NULL);
    if (c->profile)
        av_log(ctx, AV_LOG_INFO, "SSIMULACRA2 profile: %.3f ms per scored frame\n",
               run->profile_ms / run->nb_scores);
    /* the one number, as libvmaf's "VMAF score:" line */
    av_log(ctx, AV_LOG_INFO, "SSIMULACRA2 score: %s\n", num(a, "%f", st[pool_stat[c->pool]]));
}

/* Frames are paired by timestamp (framesync), so different rates pair a
 * frame with a neighbour of its reference: scores of unrelated frames. Said
 * where the pairings went wrong (one image against another has the rates of
 * their formats, 1 and 25 fps, and nothing to pair wrongly). */
static int rates_differ(AVFilterContext *ctx, AVRational *rate_main, AVRational *rate_ref)
{
    /* links a graph being freed has already dropped */
    if (!ctx->inputs[0] || !ctx->inputs[1])
        return 0;
    *rate_main = ff_filter_link(ctx->inputs[0])->frame_rate;
    *rate_ref  = ff_filter_link(ctx->inputs[1])->frame_rate;
    return ff_ssimulacra2_rate_known(*rate_main) && ff_ssimulacra2_rate_known(*rate_ref) &&
           av_cmp_q(*rate_main, *rate_ref);
}

static void log_rate_advice(AVFilterContext *ctx)
{
    AVRational rate_main, rate_ref;
    char raw[320] = "";

    if (!rates_differ(ctx, &rate_main, &rate_ref))
        return;
    /* a raw MJPEG, AV1 OBU or H.264 stream without timing: a 24 fps encode
     * was paired as 25 fps, and fps=25 on the reference (the advice) scored
     * it -0.9 instead of 75.7, unwarned. Such a stream's time base is 1/25
     * (MJPEG) or 1/1200000 (the others); a 25 fps MP4's is not */
    for (int i = 0; i < 2; i++) {
        AVRational r = i ? rate_ref : rate_main, other = i ? rate_main : rate_ref;
        AVRational tb = ctx->inputs[i]->time_base;
        if (!av_cmp_q(r, (AVRational){ 25, 1 }) && tb.num == 1 &&
            (tb.den == 25 || tb.den == 1200000))
            snprintf(raw, sizeof(raw), " 25 fps is also what ffmpeg gives a raw stream that "
                     "carries no timing (.mjpeg, AV1 .obu, H.264 or HEVC without timing): if "
                     "the %s is one, give it its rate (-framerate %d/%d before its -i) "
                     "instead.", i ? "reference" : "distorted input", other.num, other.den);
    }
    av_log(ctx, AV_LOG_WARNING, "Frame rates differ: distorted %d/%d, reference %d/%d fps. "
           "Frames are paired by timestamp, so some are scored against another frame of "
           "the reference. If the distorted video was made at another rate (fps=, -r), "
           "score it against the reference converted the same way (e.g. [1:v]fps=%d/%d "
           "before the filter for fps=; for an output -r, the reference made with the same "
           "-r in a run of its own: -r picks other frames than fps= does, and pairing by "
           "timestamp others again). If the frames correspond one to one, give the distorted input "
           "the reference's timestamps instead (-r %d/%d before its -i, or "
           "settb=AVTB,setpts=N*%d/%d/TB: in a coarse time base, as a Y4M or IVF file's, "
           "setpts alone rounds some frames a tick early).%s\n",
           rate_main.num, rate_main.den, rate_ref.num, rate_ref.den, rate_main.num,
           rate_main.den, rate_ref.num, rate_ref.den, rate_ref.den, rate_ref.num, raw);
}

/* what leaves a rare gap in timestamps, and the fix */
#define GAP_CAUSES "An input looped with -stream_loop has each pass offset by its file's "   \
    "longest stream: an audio track longer than the video (-an keeps the passes to the "    \
    "video's length). Files joined by the concat demuxer can leave a gap between them (a " \
    "Matroska file's duration counts from its first timestamp): numbered timestamps on "   \
    "both inputs, setpts=N/(FRAME_RATE*TB), pair their frames one to one."

/* the inputs in the pairing messages (the filter's input order) */
static const char *const pairing_names[2] = { "distorted input", "reference" };

/* The CUDA filter's frames in flight go with a rebuilt graph: how to lose fewer. */
static const char *in_flight_note(const AVFilterContext *ctx)
{
    return strcmp(ctx->filter->name, "ssimulacra2_cuda") ? "" : " ssimulacra2_cuda loses "
           "the frames it has in flight at each rebuild (up to queue_depth; queue_depth=1 "
           "loses the fewest).";
}

/* Why no frame was scored. */
static void log_no_score(AVFilterContext *ctx, const SSIMULACRA2Run *run)
{
    if (!run->nb_frames && run->nb_no_pts)
        av_log(ctx, AV_LOG_WARNING, "No frame was scored: %"PRId64" frame(s) without a "
               "timestamp were refused.\n", run->nb_no_pts);
    else if (!run->nb_frames)
        av_log(ctx, AV_LOG_WARNING, "No frame was scored: the distorted input had no "
               "frame.\n");
    else if (run->nb_refused)
        /* (the reference had been blamed, "an empty reference", for an
         * image pair refused as of different sizes) */
        av_log(ctx, AV_LOG_WARNING, "No frame was scored (%"PRId64" distorted frames seen): "
               "the filter refused a frame pair with the error above.\n", run->nb_frames);
    else if (run->nb_disabled == run->nb_frames)
        av_log(ctx, AV_LOG_WARNING, "No frame was scored: the enable expression excluded "
               "all %"PRId64" distorted frames.\n", run->nb_frames);
    else if (run->nb_lost)
        av_log(ctx, AV_LOG_WARNING, "No frame was scored (%"PRId64" distorted frames seen): "
               "%"PRId64" of them were lost when ffmpeg rebuilt the filter graph (an input "
               "changed mid-stream). -reinit_filter 0 on both inputs keeps the graph, where "
               "both change together.%s\n", run->nb_frames, run->nb_lost, in_flight_note(ctx));
    else if (run->past_end_us != AV_NOPTS_VALUE && !run->ref_seen && run->nb_disabled)
        /* (the reference had been said to have no frame at or before them) */
        av_log(ctx, AV_LOG_WARNING, "No frame was scored (%"PRId64" distorted frames seen): "
               "the reference ends before %.3f s, before every frame the enable expression "
               "keeps, and frames past the reference's end are not scored.\n",
               run->nb_frames, run->past_end_us / 1e6);
    else if (run->past_end_us != AV_NOPTS_VALUE && !run->ref_seen && run->nb_ref_skipped)
        /* (a distorted input later than the whole reference: "no frame at or
         * before them" had been said of a reference all before them) */
        av_log(ctx, AV_LOG_WARNING, "No frame was scored (%"PRId64" distorted frames seen): "
               "they all come after the reference's last frame (the reference ends before "
               "the distorted input's first timestamp, %.3f s), and frames past the "
               "reference's end are not scored. Align the timestamps with setpts=PTS-STARTPTS "
               "on both inputs.\n", run->nb_frames, run->first_main_us / 1e6);
    else
        av_log(ctx, AV_LOG_WARNING, "No frame was scored (%"PRId64" distorted frames seen): "
               "the reference had no frame at or before them (an empty reference, or "
               "timestamps that do not overlap; align them with setpts=PTS-STARTPTS on both "
               "inputs).\n", run->nb_frames);
}

/* Timestamps that go back: the pairs after are wrong, and the other warnings
 * would name causes it does not have. Whether any did. */
static int log_timestamps_back(AVFilterContext *ctx, const SSIMULACRA2Run *run)
{
    for (int i = 0; i < 2; i++)
        if (run->nb_back[i] && run->back_at_rebuild[i])
            /* a filter before this one that counts from the start did again in the
             * rebuilt graph (an MPEG-TS of two parts, the second of another format,
             * with setpts=PTS-STARTPTS: a score of 18 to 76 from run to run) */
            av_log(ctx, AV_LOG_ERROR, "The %s's timestamps go back where ffmpeg rebuilt the "
                   "filter graph (from %.3f s to %.3f s): an input changed (size, format), and a "
                   "filter before this one that counts from the start (setpts=PTS-STARTPTS, "
                   "setpts=N/..., trim) started again in the new graph; its frames after that were "
                   "paired with the wrong frames of the other input. Give -reinit_filter 0 before "
                   "both -i (the graph is kept; numbered frames, setpts=N/(FRAME_RATE*TB) on both, "
                   "if the timestamps also jump there).\n", pairing_names[i],
                   run->back_from_us[i] / 1e6, run->back_us[i] / 1e6);
        else if (run->nb_back[i])
            /* the reference's frames behind the distorted input's clock are
             * skipped: right where they repeat earlier pictures (the concat
             * demuxer's inpoint off a keyframe gives the frames from that
             * keyframe twice; numbered timestamps turned 83.4 into -14.2) */
            av_log(ctx, AV_LOG_ERROR, "The %s's timestamps go back (from %.3f s to %.3f s; "
                   "%"PRId64" time(s) in all). %s If its clock started again (concatenated files "
                   "read with -copyts, a stream that restarts its clock), let ffmpeg make them "
                   "increasing (without -copyts), or give both inputs new ones "
                   "(setpts=N/(FRAME_RATE*TB)).\n",
                   pairing_names[i], run->back_from_us[i] / 1e6, run->back_us[i] / 1e6,
                   run->nb_back[i], i ?
                   "If its frames there repeat earlier pictures (the concat demuxer's inpoint "
                   "between keyframes, segments that overlap), they were skipped (ref_skipped) "
                   "and the pairs are right; if not, its frames after that were paired with the "
                   "wrong frames of the distorted input." :
                   "Its frames after that were paired with the wrong frames of the reference. "
                   "If they repeat earlier pictures (the concat demuxer's inpoint between "
                   "keyframes, segments that overlap), drop them: "
                   "select='isnan(prev_selected_t)+gt(t,prev_selected_t)' on that input.");
    return run->nb_back[0] || run->nb_back[1];
}

/** What the pairing counters say, worked out once for the warnings. */
typedef struct PairingReading {
    int64_t late;       ///< distorted frames after the reference's end, not told otherwise
    int64_t late_at_restart; ///< those, where the reference's clock started again
    int64_t rebuilt;    ///< distorted frames before a rebuilt graph's first reference frame
    int still;          ///< the reference frames paired were all one picture
    int offset;         ///< the first pair's times differ by more than rounding
    int ref_shifted;    ///< the reference starts late and goes on after the distorted video
    int shifted;        ///< the distorted video starts late and goes on as long after
    int gapped[2];      ///< rare jumps in an input's otherwise even steps
    int gap_late;       ///< the distorted input's jumps account for its late frames
    int rounded;        ///< frames a frame off from rounded timestamps: nearest mends them
    int uneven;         ///< the reference's steps vary: nearest mends them
    int cfr_of_vfr;     ///< reference with gaps, distorted input even: an encode made constant-rate
    AVRational rate_main; ///< the distorted input's frame rate (0/0 if unknown)
} PairingReading;

static void read_pairing(AVFilterContext *ctx, const SSIMULACRA2Common *c,
                         const SSIMULACRA2Run *run, PairingReading *r)
{
    AVRational rate_main = { 0, 0 }, rate_ref = { 0, 0 };
    int nearest_mends, rates_apart = rates_differ(ctx, &rate_main, &rate_ref);

    /* a rebuilt graph that never had a reference frame in: the reference had ended */
    r->rebuilt = c->ref_seen || c->nb_ref_looked ? run->nb_unpaired_rebuilt : 0;
    r->late    = run->nb_unpaired - run->nb_unpaired_early - run->nb_lost - r->rebuilt;
    r->offset  = run->start_gap_us != AV_NOPTS_VALUE &&
                 llabs(run->start_gap_us) > SSIMULACRA2_ROUNDING_US;
    /* a still reference: every pairing gives the same picture */
    r->still = (!run->ref_changes && run->nb_ref_compared) ||
               c->ref_restarted == SSIMULACRA2_REF_STILL;
    /* the mirror of a distorted video that starts late: a reference that starts
     * late and goes on after the distorted video (an AVI with B-frames as the
     * reference of its own re-encode: -34.4 instead of 62.6) */
    r->ref_shifted = !r->still && run->nb_unpaired_early && run->ref_goes_on;
    /* about as many frames late at the end as at the start: the same frames,
     * shifted (give or take an eighth: -ss with -copyts on an MPEG-TS that
     * starts at 1.4 s and an MKV, 38 frames late at the start, 37 at the end) */
    r->shifted = !r->still && run->start_skipped && run->past_end_us != AV_NOPTS_VALUE &&
                 llabs(run->last_main_end_us - run->past_end_us - run->start_skipped_us) <=
                 FFMAX3(run->start_skipped_us / (2 * run->start_skipped), SSIMULACRA2_ROUNDING_US,
                        run->start_skipped_us / 8);
    /* frames past a reference whose clock started again are told with it */
    if (run->ref_restart_us != AV_NOPTS_VALUE) {
        r->late_at_restart = r->late;
        r->late = 0;
    }
    /* rare gaps in an input whose other steps are even: a looped input, whose
     * pairs after one are off by a fraction of a frame, which nearest does not
     * mend (-stream_loop with audio: 38.7 as it should be, 3.4, 5.1 with
     * nearest), or joined files (the concat demuxer's Matroska segments: 9.4
     * instead of 77.0); frequent ones keep a slower rate on a faster grid (a
     * GIF's frames at 25 fps steps), which nearest mends. A gap in the
     * distorted input leaves reference frames skipped: from joined files its
     * later pairs are off (its last frames past a reference as long), from an
     * encoder's dropped frames they are right; where none runs past the
     * reference's end, both readings are said */
    for (int i = 0; i < 2; i++)
        r->gapped[i] = !r->still && run->nb_gaps[i] && run->nb_gaps[i] * 16 <= run->nb_steps[i] &&
                       run->step_max_us[i] - run->step_min_us[i] <= SSIMULACRA2_ROUNDING_US &&
                       (run->nb_mismatched || run->nb_repeated ||
                        (!i && (r->late || run->nb_ref_skipped > run->start_skipped)));
    /* the late frames, where the distorted input's gaps account for them */
    r->gap_late = r->gapped[0] && r->late * run->step_min_us[0] <=
                  run->nb_gaps[0] * (run->gap_us[0] - run->step_min_us[0]) + run->step_min_us[0];
    /* what the nearest pairing mends, where the start is not offset (it would
     * shift that: a phone video's AAC priming): pairs each off by a frame, give
     * or take a quarter frame, at equal rates (rounded or uneven timestamps; not
     * a doubled rate, whose frames are each a frame off), or a reference whose
     * steps differ by more than container rounding, variable timing an encoder
     * moved onto its own grid (a GIF's 50 and 40 ms against 41.7: 27.9 instead
     * of 35.3) */
    nearest_mends = !c->ts_nearest && !r->gapped[0] && !r->gapped[1] &&
                    (!r->offset || llabs(run->start_gap_us) <= run->main_step_us / 4);
    r->uneven  = nearest_mends &&
                 (run->step_max_us[1] - run->step_min_us[1] > SSIMULACRA2_ROUNDING_US ||
                  run->nb_gaps[1]);
    r->rounded = nearest_mends && run->nb_mismatched_rounded == run->nb_mismatched &&
                 !rates_apart;
    r->rate_main = rate_main;
    /* a variable-rate reference with gaps, a constant-rate distorted input:
     * ffmpeg's -r fills a gap with a neighbour, at times the next picture
     * early, which nearest leaves as a tie (47.7, -39 frames left; the
     * reference made constant-rate the same way: 63.6) */
    r->cfr_of_vfr = r->uneven && run->nb_gaps[1] && !run->nb_gaps[0] &&
                    !rates_apart &&  /* (that has advice of its own) */
                    run->step_max_us[0] - run->step_min_us[0] <= SSIMULACRA2_ROUNDING_US;
}

/* Every score 100, from two inputs of their own: the same file twice? */
static int all_identical(const SSIMULACRA2Run *run)
{
    for (unsigned i = 0; i < run->nb_scores; i++)
        if (run->scores[i] != 100.0)
            return 0;
    return run->nb_scores > 0;
}

/* A reference frame paired again, or one picture throughout. */
static void log_reference_reuse(AVFilterContext *ctx, const SSIMULACRA2Run *run,
                                const PairingReading *r)
{
    /* one stream given to both inputs ([0:v][0:v]: the reference file never
     * read; silent, it had scored 100), or a split straight into both */
    if (run->nb_same)
        av_log(ctx, AV_LOG_WARNING, "%"PRId64" of %u scored frames were one picture in both "
               "inputs (%s\n", run->nb_same, run->nb_scores, run->nb_same == run->nb_scores ?
               "one stream given to both: [0:v][0:v], or a split straight into both). To score "
               "an encode against its source, give each its own input: [0:v][1:v]; done on "
               "purpose, this is no concern." : "left as they were by a filter on one branch of "
               "a split: its enable= timeline, or frames it repeats).");
    else if (all_identical(run))
        av_log(ctx, AV_LOG_WARNING, "Every scored frame scored 100: the two inputs are the "
               "same pictures. A lossless encode scores so; if the reference is another file, "
               "check the inputs (the same file given twice?).\n");
    if (r->still)
        av_log(ctx, AV_LOG_INFO, "The reference frames paired were all one picture (a still "
               "image, as -loop 1 gives): every distorted frame was scored against it.\n");
    if (!r->still && (run->nb_repeated || run->nb_mismatched || run->nb_ref_skipped))
        log_rate_advice(ctx);
    if (run->nb_repeated && !r->still)
        av_log(ctx, AV_LOG_WARNING, "%"PRId64" of %u scored frames were paired with a reference "
               "frame used before (the reference has fewer frames per second, or its timestamps "
               "are later); unless the distorted video repeats those frames, their scores "
               "compare different pictures.\n", run->nb_repeated, run->nb_scores);
}

/* Distorted frames passed through unscored: before the reference, after it, at rebuilds. */
static void log_unscored(AVFilterContext *ctx, const SSIMULACRA2Run *run, const PairingReading *r)
{
    if (r->ref_shifted)
        av_log(ctx, AV_LOG_ERROR, "%"PRId64" distorted frames before the reference's first "
               "frame were passed through unscored: the reference starts later, and goes on "
               "after the distorted video's last frame. If both begin with the same picture "
               "(the reference's timestamps start late: an AVI with B-frames, a file whose video "
               "starts after its audio), every frame was scored against another picture: align "
               "the starts with setpts=PTS-STARTPTS on both inputs. If the distorted video has "
               "frames the reference lacks at its start (both cut with -ss, at a time one "
               "container rounded), the pairs are right.\n", run->nb_unpaired_early);
    else if (run->nb_unpaired_early)
        av_log(ctx, AV_LOG_WARNING, "%"PRId64" distorted frames before the reference's first "
               "frame were passed through unscored: the reference starts later. If both begin "
               "with the same picture (the reference's timestamps start late), align the starts "
               "with setpts=PTS-STARTPTS on both inputs. If the distorted video begins earlier "
               "with its timestamps kept (both cut with -ss -noaccurate_seek, each at the "
               "keyframe before the cut), the pairs are right.\n", run->nb_unpaired_early);
    if (run->ref_restart_us != AV_NOPTS_VALUE) {
        char late_buf[96];
        snprintf(late_buf, sizeof(late_buf), ": %"PRId64" distorted frames after it were passed "
                 "through unscored", r->late_at_restart);
        av_log(ctx, r->late_at_restart ? AV_LOG_WARNING : AV_LOG_INFO, "The reference starts "
               "again after its frame at %.3f s: its timestamps go back to its first frame's "
               "(a looped source, movie=...:loop=, or files joined and read with -copyts). It is "
               "taken as ending there%s.\n", run->ref_restart_us / 1e6,
               r->late_at_restart ? late_buf : "");
    }
    /* frames of either input that an old graph held are lost at a rebuild,
     * each input's at its own changes (an image sequence of mixed formats: 1
     * to 3 of 3 frames scored from run to run) */
    if (r->late && run->nb_rebuilds && !run->nb_lost)
        av_log(ctx, AV_LOG_WARNING, "ffmpeg rebuilt the filter graph %d time(s) (an input "
               "changed mid-stream: its size or format, as in an image sequence of mixed "
               "formats), and frames the old graph held were lost: the likeliest cause of the "
               "unscored frames below. -reinit_filter 0 before both -i keeps the graph.\n",
               run->nb_rebuilds);
    if (r->late && !r->shifted && !r->gap_late)
        av_log(ctx, AV_LOG_WARNING, "%"PRId64" distorted frames to be scored came after the "
               "reference's last frame and were passed through unscored: the reference is "
               "shorter. It was cut on its own (-ss, -t or trim on the reference only; after a "
               "cut at its start every pair is shifted: cut both alike), a still image needs "
               "-loop 1 before its -i, ffmpeg was stopped (q, Ctrl-C, an output limit: -frames, "
               "-t, -fs; an output it could not write) while the distorted input's decoder "
               "still held frames, or the distorted "
               "video has frames the reference lacks (a stream copy cut with -ss starts at the "
               "keyframe before that point, and its frames are then paired with later ones; "
               "an input cut with concat's inpoint starts at its keyframe before it, and ffmpeg "
               "moves each start to 0: keep the timestamps with -copyts).\n",
               r->late);
    if (run->nb_lost)
        av_log(ctx, AV_LOG_WARNING, "%"PRId64" distorted frames to be scored were lost when "
               "ffmpeg rebuilt the filter graph (an input changed mid-stream): they are not in "
               "the output either. -reinit_filter 0 on both inputs keeps the graph, where both "
               "change together.%s\n", run->nb_lost, in_flight_note(ctx));
    if (r->rebuilt)
        av_log(ctx, AV_LOG_WARNING, "%"PRId64" distorted frames to be scored came before the "
               "first reference frame of the rebuilt filter graph and were passed through "
               "unscored: ffmpeg drops the reference frames the old graph held. -reinit_filter 0 "
               "on both inputs keeps the graph.\n", r->rebuilt);
}

/* Jumps in an input's timestamps. */
static void log_gaps(AVFilterContext *ctx, const SSIMULACRA2Run *run, const PairingReading *r)
{
    /* a gap in the distorted input with none of its frames past the
     * reference's end: dropped frames (pairs right) or joined files (off) */
    for (int i = 0; i < 2; i++) {
        int readings = !i && !r->late && !run->nb_mismatched && !run->nb_repeated;
        if (r->gapped[i])
            av_log(ctx, AV_LOG_WARNING, "The %s's timestamps jump forward by %.1f ms at %.3f s "
                   "(%"PRId64" time(s); its other frames %.1f ms apart)%s\n", pairing_names[i],
                   run->gap_us[i] / 1000.0, run->gap_from_us[i] / 1e6, run->nb_gaps[i],
                   run->step_min_us[i] / 1000.0, readings ?
                   ". If it dropped frames there (an encoder's dropped frames keep their "
                   "timestamps), the pairs are right. If files were joined there (the concat "
                   "demuxer can leave a gap: a Matroska file's duration counts from its first "
                   "timestamp), every pair after it is off: numbered timestamps on both inputs, "
                   "setpts=N/(FRAME_RATE*TB), pair their frames one to one." : i ?
                   ": the pairs after a jump are off. " GAP_CAUSES :
                   ": unless the distorted video lost frames there, the pairs after a jump are "
                   "off. " GAP_CAUSES);
    }
}

/* Pairs apart in time: mismatches, an offset start, a distorted video that starts late. */
static void log_offsets(AVFilterContext *ctx, const SSIMULACRA2Run *run, const PairingReading *r)
{
    char cfr_advice[480], rate[32] = "RATE";

    if (ff_ssimulacra2_rate_known(r->rate_main))
        snprintf(rate, sizeof(rate), "%d/%d", r->rate_main.num, r->rate_main.den);
    snprintf(cfr_advice, sizeof(cfr_advice), "The reference's frames come at uneven times, with "
             "gaps (a variable frame rate), the distorted input's at a constant rate: an encode "
             "made constant-rate (-r, -fps_mode cfr) fills each gap with a neighbouring picture, "
             "at times the next one early, which no pairing by time mends. Score it against the "
             "reference made constant-rate the same way, in a run of its own: ffmpeg -i "
             "REFERENCE -fps_mode cfr -r %s -c:v ffv1 reference-cfr.mkv.", rate);
    if (run->nb_mismatched && !r->still)
        av_log(ctx, AV_LOG_WARNING, "%"PRId64" of %u scored frames were paired with a reference "
               "frame more than half a frame away in time. %s\n", run->nb_mismatched,
               run->nb_scores, r->cfr_of_vfr ? cfr_advice :
               r->rounded ?
               "Each is a frame off, give or take a quarter frame: the timestamps are rounded "
               "(Matroska keeps milliseconds) or uneven more than the pairing allows: use "
               "ts_sync_mode=nearest." :
               r->uneven ?
               "The reference's frames come at uneven times (a variable frame rate, as animated "
               "GIFs and phone videos have): if both have the same frames, use "
               "ts_sync_mode=nearest; else check the frame rates and start times." :
               "Check the frame rates and start times (setpts=PTS-STARTPTS on both inputs if "
               "neither was cut; -copyts before both -i if both were cut with -ss).");
    if (r->offset && !r->still && !(r->rounded && run->nb_mismatched))
        av_log(ctx, AV_LOG_WARNING, "The first distorted frame is %.1f ms %s the reference frame "
               "it was paired with: the inputs' timestamps are offset (MPEG-TS and MP4 files often "
               "start the video a little after the audio), and frames may be paired with a "
               "neighbour. If both start with the same picture, align them with "
               "setpts=PTS-STARTPTS on both inputs. If both were cut (-ss, trim) at a time "
               "between frames, each may start at another frame (containers round timestamps "
               "differently) and setpts would pair every frame with a neighbour: keep the "
               "source's timestamps with -copyts before both -i instead.\n",
               llabs(run->start_gap_us) / 1000.0,
               run->start_gap_us > 0 ? "after" : "before");
    /* said loud where both ends agree: the same frames with late timestamps is
     * likelier than windows of one source that kept them (-ss -copyts); a part
     * of the reference, or one whose decoder dropped its first frames (open-GOP
     * HEVC cut with -ss on both: 2 frames, pairs right), does not go on after
     * the reference */
    if (run->start_skipped && !r->still)
        av_log(ctx, r->shifted ? AV_LOG_ERROR : AV_LOG_WARNING, "The distorted video starts "
               "%"PRId64" reference frames (%.1f ms) after the reference%s. Files whose "
               "containers start at different times (an MPEG-TS starts at 1.4 s) are offset so "
               "when read with -copyts: add -start_at_zero beside it. If both begin with the "
               "same picture (the distorted video's timestamps start late, as in AVI files with "
               "B-frames), every frame was scored against another picture: align them with "
               "setpts=PTS-STARTPTS on both inputs.%s\n",
               run->start_skipped, run->start_skipped_us / 1000.0, r->shifted ?
               ", and goes on as long after the reference's last frame (those frames unscored)" :
               ": the reference's first frames were not scored", r->shifted ?
               " If the two were cut from one source at different times, both keeping its "
               "timestamps (-ss with -copyts, files whose containers start alike), the pairs "
               "are right." :
               run->nb_mismatched * 2 > run->nb_scores ? "" :
               " If the distorted video is a part of the reference that kept its timestamps "
               "(trim, -ss with -copyts), or its decoder dropped its first frames (the leading "
               "pictures of an open GOP, as x265 makes, where a cut with -ss starts), the pairs "
               "are right: do not align them.");
}

/* Reference frames left unscored. */
static void log_reference_left(AVFilterContext *ctx, const SSIMULACRA2Run *run,
                               const PairingReading *r)
{
    if (run->nb_ref_skipped > run->start_skipped && !r->still)
        av_log(ctx, AV_LOG_WARNING, "%"PRId64" reference frames were paired with no distorted "
               "frame (the reference has more frames per second, its timestamps jump or go "
               "back, the distorted video starts later, ffmpeg was stopped, q or Ctrl-C, "
               "while the distorted input's decoder held frames, or the distorted video "
               "dropped frames and kept its timestamps: an encoder's dropped frames, whose "
               "pairs are then right).\n",
               run->nb_ref_skipped - run->start_skipped);
    if (run->ref_goes_on && r->still)
        av_log(ctx, AV_LOG_INFO, "The reference goes on after the last distorted frame, as a "
               "looped image does (if it is a video that opens on a still scene, the distorted "
               "video may have been cut on its own: cut both alike).\n");
    else if (run->ref_goes_on && !r->ref_shifted && run->ref_restart_us == AV_NOPTS_VALUE)
        av_log(ctx, AV_LOG_WARNING, "The reference goes on after the last distorted frame: its "
               "later frames were not scored. If the two should have the same frames: the "
               "distorted video was cut at its end (-t, -frames or trim on it only: the pairs "
               "are right), ffmpeg was stopped (q, Ctrl-C), or the distorted video was cut at "
               "its start or lost frames and got new timestamps (then the pairs are shifted: "
               "cut both alike; stream copies cut with -ss start at their own keyframes: score "
               "the uncut files, cut in the graph with the same trim on both).\n");
}

/* Pairings that make a score doubtful, said where the summary is. */
static void log_pairing_warnings(AVFilterContext *ctx, const SSIMULACRA2Common *c,
                                 const SSIMULACRA2Run *run)
{
    PairingReading r = { 0 };

    if (run->resumed)
        av_log(ctx, AV_LOG_WARNING, "ffmpeg rebuilt the filter graph and the inputs ended before "
               "a frame reached the new one: the distorted frames it held in the old graph (a "
               "few) were not scored, and cannot be counted.\n");
    if (!run->nb_scores) {
        log_no_score(ctx, run);
        return;
    }
    if (log_timestamps_back(ctx, run))
        return;
    read_pairing(ctx, c, run, &r);
    log_reference_reuse(ctx, run, &r);
    log_unscored(ctx, run, &r);
    log_gaps(ctx, run, &r);
    log_offsets(ctx, run, &r);
    log_reference_left(ctx, run, &r);
}

/**
 * What framesync left of the reference at the end: the frames it took in
 * and paired with no distorted frame, and whether it goes on although the
 * output ended: framesync holds a frame of it that was not paired (its
 * current one, or the next), or frames wait in its link.
 */
static void count_ends(AVFilterContext *ctx, SSIMULACRA2Common *c, FFFrameSync *fs, int eof)
{
    SSIMULACRA2Run *run = c->run;
    const FFFrameSyncIn *ref = fs->in ? &fs->in[1] : NULL;
    int64_t taken, tail;

    if (!ref || !ctx->inputs[1])
        return;
    tail  = (ref->frame && ref->frame->pts != c->last_paired_pts) +
            (ref->have_next && ref->frame_next);
    taken = ff_filter_link(ctx->inputs[1])->frame_count_out;
    run->nb_ref_skipped += FFMAX(taken - c->nb_ref_paired - tail, 0);
    if (!eof)
        return;
    run->ref_goes_on = tail || ff_inlink_queued_frames(ctx->inputs[1]);
}

/**
 * The pooled statistics of the scores so far, logged: 1, or 0 with no score.
 * Out of memory for them, an error: the outputs are still written, with the
 * per-frame scores only (an earlier run's files had been left).
 */
static int summarize(AVFilterContext *ctx, SSIMULACRA2Common *c, double st[ST_NB])
{
    int ret;

    if (!c->run->nb_scores)
        return 0;
    if ((ret = pooled_stats(c->run, st)) < 0) {
        av_log(ctx, AV_LOG_ERROR, "Out of memory for the pooled statistics: the outputs hold "
               "the per-frame scores only.\n");
        return ret;
    }
    log_summary(ctx, c, st);
    return 1;
}

int ff_ssimulacra2_finish(AVFilterContext *ctx, SSIMULACRA2Common *c, FFFrameSync *fs)
{
    double st[ST_NB];
    int have, ret;

    if (!c->run || c->finished)
        return 0;
    c->finished = 1;
    count_ends(ctx, c, fs, 1);
    have = summarize(ctx, c, st);
    log_pairing_warnings(ctx, c, c->run);
    ret = write_outputs(ctx, c, have > 0 ? st : NULL, 0, 0);
    return have < 0 ? have : ret;
}

av_cold void ff_ssimulacra2_common_uninit(AVFilterContext *ctx, SSIMULACRA2Common *c,
                                          FFFrameSync *fs)
{
    SSIMULACRA2Run *run = c->run;
    double st[ST_NB];
    int ends;

    av_frame_free(&c->first_picture);
    if (!run)
        return;
    /* The graph is rebuilt, or its output was closed before the inputs
     * ended (-frames): the summary and the outputs get what was scored so
     * far, and a rebuilt graph's instance continues them (its summary, the
     * last one, covers the whole run; on standard output, a new document).
     * Files are written even if no frame was scored: an older file would be
     * read as this run's (-frames before an enable= expression's first); not
     * standard output or a FIFO, which a rebuilt graph gives a document.
     * Not by a graph that never ran: refused while configured by another
     * filter (a crop too big, another instance's file), it leaves an earlier
     * run's files as this filter's own refusals do. */
    ends = c->finished || !run->resumable;
    if (!c->finished && c->started) {
        int have;
        count_ends(ctx, c, fs, 0);
        have = summarize(ctx, c, st);
        write_outputs(ctx, c, have > 0 ? st : NULL, 1, !have && !ends);
    }
    ff_mutex_lock(&runs_lock);
    run->live = 0;
    if (ends) {
        for (SSIMULACRA2Run **p = &runs; *p; p = &(*p)->next)
            if (*p == run) {
                *p = run->next;
                break;
            }
        free_run(run);
    }
    ff_mutex_unlock(&runs_lock);
    c->run = NULL;
}
