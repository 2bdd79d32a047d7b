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

/**
 * @file
 * One slice-thread call per frame pair: the threads take tasks in a fixed
 * order from a shared counter and wait, if needed, for the tasks whose
 * output they read. Band by band, the order is: the column tasks of band
 * k - lag (they read 4 rows of the next band ahead), then the row tasks of
 * band k; a lag of several bands lets the rows run ahead, so that a thread
 * seldom takes a task whose inputs are not done. Each column block's state
 * goes through the bands in order, and each scale starts when the previous
 * one is finished (the rings are shared). The order does not change the
 * results: every sum is made by one task in a fixed order.
 */

#include "libavutil/avassert.h"
#include "libavutil/common.h"
#include "libavutil/mem.h"

#include "ssimulacra2_tasks.h"

/** Checks before a thread sleeps on the condition variable: short, as the
 *  threads may outnumber the cores. */
#define SPINS 500

int ff_ssimu2_band_pairs(const SSIMU2Scale *sc, int band)
{
    return (FFMIN(SSIMU2_BAND, sc->h - band * SSIMU2_BAND) + 1) / 2;
}

void ff_ssimu2_tasks_uninit(SSIMU2Tasks *t)
{
    if (t->sync_ready) {
        ff_mutex_destroy(&t->mutex);
        ff_cond_destroy(&t->cond);
        t->sync_ready = 0;
    }
    av_freep(&t->task);
    av_freep(&t->rows_done);
    av_freep(&t->cols_done);
    av_freep(&t->chain_done);
    av_freep(&t->waiting);
}

int ff_ssimu2_tasks_init(SSIMU2Tasks *t, int w, int h, int nb_threads)
{
    int n = 0;

    memset(t, 0, sizeof(*t));
    t->nb_threads = nb_threads;
    t->nb_scales = ssimu2_nb_scales(w, h);
    t->ring_rows = nb_threads > 1 && h >= 4 * SSIMU2_RING_ROWS_MAX ? SSIMU2_RING_ROWS_MAX
                                                                  : SSIMU2_RING_ROWS_MIN;
    while (t->ring_rows / 2 >= h)
        t->ring_rows /= 2;
    /* the columns of band k - lag come before the rows of band k: they need
     * rows of band k - lag + 1, and rows of band k need the columns of band
     * k - ring bands + 1 done, both placed earlier for 2 <= lag <= ring bands - 2
     * (a ring of fewer than 4 bands never wraps) */
    t->lag = FFMAX(2, t->ring_rows / SSIMU2_BAND / 2);
    for (int s = 0; s < t->nb_scales; s++) {
        SSIMU2Scale *sc = &t->scale[s];
        sc->w         = w;
        sc->h         = h;
        sc->nb_bands  = (h + SSIMU2_BAND - 1) / SSIMU2_BAND;
        sc->nb_blocks = (w + SSIMU2_COL_BLOCK - 1) / SSIMU2_COL_BLOCK;
        sc->band0     = t->nb_bands;
        sc->chain0    = t->nb_chains;
        sc->col0      = t->nb_cols;
        t->nb_bands  += sc->nb_bands;
        t->nb_chains += 3 * sc->nb_blocks;
        t->nb_cols   += w;
        t->nb_tasks  += (h + 1) / 2 + sc->nb_bands * 3 * sc->nb_blocks;
        w = ssimu2_half_size(w);
        h = ssimu2_half_size(h);
    }
    t->task       = av_malloc_array(t->nb_tasks, sizeof(*t->task));
    t->rows_done  = av_malloc_array(t->nb_bands, sizeof(*t->rows_done));
    t->cols_done  = av_malloc_array(t->nb_bands, sizeof(*t->cols_done));
    t->chain_done = av_malloc_array(t->nb_chains, sizeof(*t->chain_done));
    t->waiting    = av_malloc_array(nb_threads, sizeof(*t->waiting));
    if (!t->task || !t->rows_done || !t->cols_done || !t->chain_done || !t->waiting) {
        ff_ssimu2_tasks_uninit(t);
        return AVERROR(ENOMEM);
    }
    if (ff_mutex_init(&t->mutex, NULL)) {
        ff_ssimu2_tasks_uninit(t);
        return AVERROR(ENOMEM);
    }
    if (ff_cond_init(&t->cond, NULL)) {
        ff_mutex_destroy(&t->mutex);
        ff_ssimu2_tasks_uninit(t);
        return AVERROR(ENOMEM);
    }
    t->sync_ready = 1;
    for (int s = 0; s < t->nb_scales; s++) {
        const SSIMU2Scale *sc = &t->scale[s];
        for (int k = 0; k < sc->nb_bands + t->lag; k++) {
            for (int i = 0; k >= t->lag && i < 3 * sc->nb_blocks; i++)
                t->task[n++] = (SSIMU2Task){ .scale = s, .band = k - t->lag, .is_col = 1,
                                             .index = i };
            for (int i = 0; k < sc->nb_bands && i < ff_ssimu2_band_pairs(sc, k); i++)
                t->task[n++] = (SSIMU2Task){ .scale = s, .band = k, .index = i };
        }
    }
    av_assert0(n == t->nb_tasks);
    return 0;
}

void ff_ssimu2_tasks_reset(SSIMU2Tasks *t)
{
    atomic_init(&t->next, 0);
    atomic_init(&t->waiters, 0);
    for (int i = 0; i < t->nb_bands; i++) {
        atomic_init(&t->rows_done[i], 0);
        atomic_init(&t->cols_done[i], 0);
    }
    for (int i = 0; i < t->nb_chains; i++)
        atomic_init(&t->chain_done[i], 0);
    for (int i = 0; i < t->nb_threads; i++)
        atomic_init(&t->waiting[i], 0);
}

static int reached(atomic_int *counter, int value)
{
    return atomic_load(counter) >= value;
}

int ff_ssimu2_tasks_ready(SSIMU2Tasks *t, const SSIMU2Task *task)
{
    const SSIMU2Scale *sc = &t->scale[task->scale];
    const int k = task->band;

    if (!task->is_col) {
        const SSIMU2Scale *prev = sc - 1;
        /* the previous scale is finished: its rows are our input, its
         * ring slots ours */
        if (task->scale &&
            !reached(&t->cols_done[prev->band0 + prev->nb_bands - 1], 3 * prev->nb_blocks))
            return 0;
        /* the columns are done with the ring slots this band reuses (rows
         * k * SSIMU2_BAND - ring_rows ..., read by bands up to reused) */
        if (FFMIN((k + 1) * SSIMU2_BAND, sc->h) > t->ring_rows) {
            const int reused = k - t->ring_rows / SSIMU2_BAND + 1;
            return reached(&t->cols_done[sc->band0 + reused], 3 * sc->nb_blocks);
        }
        return 1;
    }
    /* this block's state after band k - 1, which also read rows up to band k */
    if (!reached(&t->chain_done[sc->chain0 + task->index], k))
        return 0;
    if (!k && !reached(&t->rows_done[sc->band0], ff_ssimu2_band_pairs(sc, 0)))
        return 0;
    return k + 1 >= sc->nb_bands ||
           reached(&t->rows_done[sc->band0 + k + 1], ff_ssimu2_band_pairs(sc, k + 1));
}

/*
 * A waiter publishes the task it waits for, then checks it under the mutex;
 * a finishing task updates its counters, then wakes the sleepers if a
 * published task has become ready (all sequentially consistent): either the
 * waiter sees the update or the finishing task sees the waiter. Waking only
 * then keeps the threads that wait at the end of a scale asleep until the
 * scale is done.
 */
const SSIMU2Task *ff_ssimu2_tasks_next(SSIMU2Tasks *t, int thread)
{
    const int n = atomic_fetch_add(&t->next, 1);
    const SSIMU2Task *task;

    if (n >= t->nb_tasks)
        return NULL;
    task = &t->task[n];
    for (int i = 0; i < SPINS; i++)
        if (ff_ssimu2_tasks_ready(t, task))
            return task;
    ff_mutex_lock(&t->mutex);
    atomic_store(&t->waiting[thread], n + 1);
    atomic_fetch_add(&t->waiters, 1);
    while (!ff_ssimu2_tasks_ready(t, task))
        ff_cond_wait(&t->cond, &t->mutex);
    atomic_fetch_sub(&t->waiters, 1);
    atomic_store(&t->waiting[thread], 0);
    ff_mutex_unlock(&t->mutex);
    return task;
}

void ff_ssimu2_tasks_done(SSIMU2Tasks *t, const SSIMU2Task *task)
{
    const SSIMU2Scale *sc = &t->scale[task->scale];

    if (task->is_col) {
        atomic_fetch_add(&t->chain_done[sc->chain0 + task->index], 1);
        atomic_fetch_add(&t->cols_done[sc->band0 + task->band], 1);
    } else {
        atomic_fetch_add(&t->rows_done[sc->band0 + task->band], 1);
    }
    if (!atomic_load(&t->waiters))
        return;
    for (int i = 0; i < t->nb_threads; i++) {
        int n = atomic_load(&t->waiting[i]);
        if (n && ff_ssimu2_tasks_ready(t, &t->task[n - 1])) {
            ff_mutex_lock(&t->mutex);
            ff_cond_broadcast(&t->cond);
            ff_mutex_unlock(&t->mutex);
            return;
        }
    }
}
