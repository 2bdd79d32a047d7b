/*
 * Checks the task order of the CPU filter (libavfilter/ssimulacra2_tasks.c) against a model of
 * what each task reads and writes, written here from the algorithm rather than from the
 * scheduler: for many frame sizes and thread counts, a random schedule of T threads that take
 * the tasks in order (a taken task waits until ff_ssimu2_tasks_ready()) must
 *  - never deadlock (all threads waiting for tasks nobody runs),
 *  - never run two tasks at once that share a ring slot while one of them writes it, nor tasks
 *    of two scales at once (the rings are shared), nor two bands of one column block,
 *  - only start a column task when every row it reads is in the ring (written, not yet reused),
 *    and a row task of scale s > 0 when scale s - 1 is finished (its rows are the input).
 * Usage: tasks-check   (prints one line per size; exit status 1 on the first violation)
 */
#include <stdio.h>
#include <stdlib.h>

#include "ssimulacra2_tasks.h"

#define MAX_T 16

static int fail(int w, int h, int threads, const char *what, const SSIMU2Task *t)
{
    printf("FAIL %dx%d, %d threads: %s (scale %d band %d %s %d)\n", w, h, threads, what,
           t ? t->scale : -1, t ? t->band : -1, t && t->is_col ? "column block" : "row pair",
           t ? t->index : -1);
    return 1;
}

/* Rows of the ring a task touches: [*r0, *r1). Row tasks write theirs; column tasks read
 * blurred rows from 6 above their band to 4 below it (XYB rows of the band itself). */
static void footprint(const SSIMU2Tasks *t, const SSIMU2Task *k, int *r0, int *r1)
{
    const SSIMU2Scale *sc = &t->scale[k->scale];
    if (!k->is_col) {
        *r0 = k->band * SSIMU2_BAND + 2 * k->index;
        *r1 = FFMIN(*r0 + 2, sc->h);
    } else {
        int n0 = k->band * SSIMU2_BAND, n1 = FFMIN(n0 + SSIMU2_BAND, sc->h);
        *r0 = FFMAX(n0 - SSIMU2_BLUR_N - 1, 0);
        *r1 = FFMIN(n1 + SSIMU2_BLUR_N - 1, sc->h);
    }
}

static int overlap(const SSIMU2Tasks *t, const SSIMU2Task *a, const SSIMU2Task *b)
{
    int a0, a1, b0, b1;
    if (a->scale != b->scale)
        return 1;
    if (a->is_col && b->is_col)
        return a->index == b->index;                     /* same column block */
    footprint(t, a, &a0, &a1);
    footprint(t, b, &b0, &b1);
    for (int i = a0; i < a1; i++)
        for (int j = b0; j < b1; j++)
            if (i % t->ring_rows == j % t->ring_rows)
                return 1;                                /* one of them writes the slot */
    return 0;
}

static int run(int w, int h, int threads, unsigned seed)
{
    SSIMU2Tasks t;
    const SSIMU2Task *slot[MAX_T] = { 0 };
    int running[MAX_T] = { 0 }, *ring_row, *pairs_done, *chain_band, taken = 0, left, ret = 0;
    int ring_scale = -1;

    if (ff_ssimu2_tasks_init(&t, w, h, threads) < 0)
        return fail(w, h, threads, "init", NULL);
    ff_ssimu2_tasks_reset(&t);
    ring_row   = malloc(t.ring_rows * sizeof(*ring_row));
    pairs_done = calloc(t.nb_scales, sizeof(*pairs_done));
    chain_band = calloc(t.nb_chains, sizeof(*chain_band));
    for (int i = 0; i < t.ring_rows; i++)
        ring_row[i] = -1;
    srand(seed);
    left = t.nb_tasks;
    while (left && !ret) {
        int acts[3 * MAX_T], n = 0, a, i;
        for (i = 0; i < threads; i++) {
            if (!slot[i] && taken < t.nb_tasks)
                acts[n++] = i;                          /* take the next task */
            else if (slot[i] && !running[i] && ff_ssimu2_tasks_ready(&t, slot[i]))
                acts[n++] = MAX_T + i;                  /* start a waiting one */
            else if (slot[i] && running[i])
                acts[n++] = 2 * MAX_T + i;              /* finish a running one */
        }
        if (!n) {
            ret = fail(w, h, threads, "deadlock: every thread waits", slot[0]);
            break;
        }
        a = acts[rand() % n];
        i = a % MAX_T;
        if (a < MAX_T) {
            slot[i] = &t.task[taken++];       /* as ff_ssimu2_tasks_next() hands them out */
        } else if (a < 2 * MAX_T) {
            const SSIMU2Task *k = slot[i];
            const SSIMU2Scale *sc = &t.scale[k->scale];
            for (int j = 0; j < threads; j++)
                if (j != i && slot[j] && running[j] && overlap(&t, k, slot[j]))
                    ret = fail(w, h, threads, "runs beside a task it conflicts with", k);
            if (k->scale && pairs_done[k->scale - 1] < (t.scale[k->scale - 1].h + 1) / 2)
                ret = fail(w, h, threads, "starts before the previous scale's rows", k);
            if (k->scale != ring_scale) {      /* a new scale: the ring holds none of its rows */
                for (int r = 0; r < t.ring_rows; r++)
                    ring_row[r] = -1;
                ring_scale = k->scale;
            }
            if (k->is_col) {
                int r0, r1;
                footprint(&t, k, &r0, &r1);
                for (int r = r0; r < r1; r++)
                    if (ring_row[r % t.ring_rows] != r)
                        ret = fail(w, h, threads, "reads a row that is not in the ring", k);
                if (chain_band[sc->chain0 + k->index] != k->band)
                    ret = fail(w, h, threads, "column block out of band order", k);
            }
            running[i] = 1;
        } else {
            const SSIMU2Task *k = slot[i];
            if (k->is_col) {
                chain_band[t.scale[k->scale].chain0 + k->index]++;
            } else {
                int r0, r1;
                footprint(&t, k, &r0, &r1);
                for (int r = r0; r < r1; r++)
                    ring_row[r % t.ring_rows] = r;
                pairs_done[k->scale]++;
            }
            ff_ssimu2_tasks_done(&t, k);
            slot[i] = NULL;
            running[i] = 0;
            left--;
        }
    }
    free(ring_row);
    free(pairs_done);
    free(chain_band);
    ff_ssimu2_tasks_uninit(&t);
    return ret;
}

int main(void)
{
    static const int hs[] = { 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129,
                              200, 255, 256, 257, 300, 511, 512, 513, 700, 1080, 2160 };
    static const int ws[] = { 8, 129, 1000 };
    static const int ts[] = { 1, 2, 5, 16 };
    int runs = 0;

    for (int a = 0; a < FF_ARRAY_ELEMS(hs); a++)
        for (int b = 0; b < FF_ARRAY_ELEMS(ws); b++)
            for (int c = 0; c < FF_ARRAY_ELEMS(ts); c++)
                for (unsigned seed = 1; seed <= 3; seed++, runs++)
                    if (run(ws[b], hs[a], ts[c], seed * 7919 + hs[a]))
                        return 1;
    printf("tasks: %d cases, 0 failed (random schedules of 1-16 threads: no deadlock, no conflicting "
           "tasks at once, no row read before it is written)\n", runs);
    return 0;
}
