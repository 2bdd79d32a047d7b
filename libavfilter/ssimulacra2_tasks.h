/*
 * SSIMULACRA 2.1 CPU filter: the work of a frame as ordered tasks for threads
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

#ifndef AVFILTER_SSIMULACRA2_TASKS_H
#define AVFILTER_SSIMULACRA2_TASKS_H

#include <stdatomic.h>

#include "libavutil/thread.h"

#include "ssimulacra2_math.h"

/** Rows per band. Even (row pairs feed the 2x2 average) and at least
 *  SSIMU2_BLUR_N - 1 (the column pass looks 4 rows ahead). */
#define SSIMU2_BAND 16
/**
 * Rows of the rings of XYB and blurred rows, a power of two. Rows of band k
 * reuse the slots of band k - n (n = ring rows / SSIMU2_BAND), which the
 * column tasks of bands k - n - 1 .. k - n + 1 read (6 rows above a band, 4
 * below): at least 4 bands. Tall frames get 8 bands when several threads
 * run, so that rows run further ahead of the columns; short ones a ring of
 * their height (no wrap).
 */
#define SSIMU2_RING_ROWS_MIN 64
#define SSIMU2_RING_ROWS_MAX 128
/** Columns per block of the vertical pass (its state stays in cache; narrow
 *  enough that the small scales have several blocks for the threads). */
#define SSIMU2_COL_BLOCK 64

typedef struct SSIMU2Scale {
    int w, h, nb_bands, nb_blocks;
    int band0;   ///< index of its first band in the progress counters
    int chain0;  ///< index of its first column block (3 channels x nb_blocks)
    int col0;    ///< offset of its columns in the per-column arrays
} SSIMU2Scale;

/**
 * A row task blurs the rows of a row pair of a band horizontally and
 * averages them into the next scale; a column task advances one channel's
 * vertical blur of one block of columns through a band.
 */
typedef struct SSIMU2Task {
    int scale, band;
    int is_col;
    int index;   ///< row pair in the band, or channel * nb_blocks + block
} SSIMU2Task;

/**
 * The tasks of a frame pair in an order that any number of threads can
 * take them in: each task's inputs come from earlier tasks, so a thread
 * that takes the next task only waits for tasks already being run.
 */
typedef struct SSIMU2Tasks {
    int nb_scales, nb_cols;  ///< nb_cols: columns of all scales
    int ring_rows;
    int lag;                 ///< bands between a band's rows and its columns in the order
    SSIMU2Scale scale[SSIMU2_MAX_SCALES];
    SSIMU2Task *task;
    int nb_tasks, nb_bands, nb_chains;
    atomic_int next;
    atomic_int *rows_done;   ///< per band: row tasks finished
    atomic_int *cols_done;   ///< per band: column tasks finished
    atomic_int *chain_done;  ///< per column block: bands finished
    atomic_int waiters;
    atomic_int *waiting;     ///< per thread: 1 + the task it sleeps on, or 0
    int nb_threads;
    AVMutex mutex;
    AVCond cond;
    int sync_ready;          ///< mutex and cond initialised
} SSIMU2Tasks;

int ff_ssimu2_tasks_init(SSIMU2Tasks *t, int w, int h, int nb_threads);
void ff_ssimu2_tasks_uninit(SSIMU2Tasks *t);
/** Before each pass over a frame pair (not while tasks run). */
void ff_ssimu2_tasks_reset(SSIMU2Tasks *t);
/** The next task once its inputs are ready, or NULL when all are taken;
 *  thread: 0 .. nb_threads - 1, a different one for each thread. */
const SSIMU2Task *ff_ssimu2_tasks_next(SSIMU2Tasks *t, int thread);
void ff_ssimu2_tasks_done(SSIMU2Tasks *t, const SSIMU2Task *task);
/** Whether the inputs of a task are ready (the tasks it reads from are done). */
int ff_ssimu2_tasks_ready(SSIMU2Tasks *t, const SSIMU2Task *task);
/** Row pairs (row tasks) of a band. */
int ff_ssimu2_band_pairs(const SSIMU2Scale *sc, int band);

#endif /* AVFILTER_SSIMULACRA2_TASKS_H */
