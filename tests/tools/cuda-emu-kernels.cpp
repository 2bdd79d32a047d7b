/*
 * The CUDA filter's kernels compiled as host C++, for tests without a GPU.
 * Grids are loops; the threads of a block run as ucontext fibers, and
 * __syncthreads() switches to the next fiber, so a barrier holds until every
 * thread of the block has reached it. __shared__ arrays become statics
 * (one block runs at a time). Blocks run one after the other in grid order,
 * so the blur's first block takes every ticket in order, and each task's
 * waits must hold when it comes to them: one that does not would wait
 * forever (a wrong ticket table or counter), and fails the run.
 *
 * emu_set_concurrent(1): the blocks of the blur kernels run at once instead, one
 * process each (their own __shared__ statics; device memory must be
 * MAP_SHARED), with random pauses, so that blocks take tickets and finish
 * tasks in any order, as on a GPU: a wait of a task then holds until another
 * block's task meets it, and one missing (a task reading what another may
 * not have written, or may have overwritten) gives wrong scores.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <sys/wait.h>

struct EmuDim { unsigned x, y, z; };
static EmuDim emu_block_idx, emu_thread_idx, emu_block_dim;
static ucontext_t emu_sched, *emu_cur;
static int emu_concurrent, emu_forked, emu_slow, emu_running;

/**
 * Pauses of a block's process (its thread 0, at barriers and after waits):
 * now and then, long ones in a slow block, so that blocks overtake one
 * another by many tasks.
 */
static void emu_jitter(void)
{
    if (!emu_forked || emu_running)
        return;
    if (emu_slow && rand() % 16 == 0)
        usleep(rand() % 100000);
    else if (rand() % 64 == 0)
        usleep(rand() % 1000);
}

static void emu_sync(void)
{
    emu_jitter();
    swapcontext(emu_cur, &emu_sched);
}

#define blockIdx emu_block_idx
#define threadIdx emu_thread_idx
#define blockDim emu_block_dim
#define __global__
#define __device__
#define __shared__ static
#define __syncthreads() emu_sync()
static inline int min(int a, int b) { return a < b ? a : b; }
static inline int atomicAdd(int *p, int v) { return __sync_fetch_and_add(p, v); }

static void ssimu2_emu_fence(void)
{
    __sync_synchronize();
}

static void ssimu2_emu_wait(const int *counter, int v)
{
    struct timespec t0, t;

    if (!emu_concurrent) {
        if (*counter >= v)
            return;
        fprintf(stderr, "emu_launch: a blur task waits for counter %d to reach %d, which no "
                "earlier ticket does: on a GPU it would wait forever\n", *counter, v);
        exit(1);
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (*(const volatile int *)counter < v) {
        usleep(20); /* not sched_yield(): the waiting processes would take the CPUs */
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (t.tv_sec - t0.tv_sec > 60) {
            fprintf(stderr, "emu_launch: a blur task waited 60 s for counter %d to reach %d: "
                    "a deadlock\n", *counter, v);
            exit(1);
        }
    }
    emu_jitter();
}

#include "vf_ssimulacra2_cuda.cu"

typedef void (*EmuKernel)(const SSIMU2CudaParams);

static const struct { const char *name; EmuKernel fn; } emu_kernels[] = {
    { "ssimu2_convert_yuv8",    ssimu2_convert_yuv8    },
    { "ssimu2_convert_yuv16",   ssimu2_convert_yuv16   },
    { "ssimu2_convert_semi8",   ssimu2_convert_semi8   },
    { "ssimu2_convert_semi16",  ssimu2_convert_semi16  },
    { "ssimu2_convert_rgb8",    ssimu2_convert_rgb8    },
    { "ssimu2_convert_rgb16",   ssimu2_convert_rgb16   },
    { "ssimu2_convert_rgb16be", ssimu2_convert_rgb16be },
    { "ssimu2_pyramid",         ssimu2_pyramid         },
    { "ssimu2_hblur",           ssimu2_hblur           },
    { "ssimu2_vblur",           ssimu2_vblur           },
    { "ssimu2_blur",            ssimu2_blur            },
    { "ssimu2_blur_ring",       ssimu2_blur_ring       },
    { "ssimu2_reduce",          ssimu2_reduce          },
};

enum { EMU_MAX_THREADS = 1024, EMU_STACK = 256 << 10 };
static EmuKernel emu_fn;
static const SSIMU2CudaParams *emu_params;
static int emu_done[EMU_MAX_THREADS];
static char *emu_stacks[EMU_MAX_THREADS];

static void emu_thread(void)
{
    emu_fn(*emu_params);
    emu_done[emu_running] = 1;
}

extern "C" void emu_set_concurrent(int on)
{
    emu_concurrent = on;
}

/** Runs block (x, y, z) of emu_fn; 0, or -1 with a message. */
static int emu_block(const char *name, unsigned x, unsigned y, unsigned z, unsigned nt)
{
    static ucontext_t ctx[EMU_MAX_THREADS];
    unsigned left = nt;

    emu_block_idx = (EmuDim){ x, y, z };
    for (unsigned i = 0; i < nt; i++) {
        getcontext(&ctx[i]);
        ctx[i].uc_stack.ss_sp   = emu_stacks[i];
        ctx[i].uc_stack.ss_size = EMU_STACK;
        ctx[i].uc_link          = &emu_sched;
        makecontext(&ctx[i], emu_thread, 0);
        emu_done[i] = 0;
    }
    /* round robin: each thread runs to its next barrier or its end */
    while (left) {
        for (unsigned i = 0; i < nt; i++) {
            if (emu_done[i])
                continue;
            emu_thread_idx = (EmuDim){ i % emu_block_dim.x, i / emu_block_dim.x, 0 };
            emu_cur = &ctx[i];
            emu_running = (int)i;
            swapcontext(&emu_sched, &ctx[i]);
            left -= emu_done[i];
        }
        if (left && left != nt) {
            fprintf(stderr, "emu_launch: %s: a barrier not reached by every thread "
                    "of block (%u,%u,%u)\n", name, x, y, z);
            return -1;
        }
    }
    return 0;
}

/** The blocks of a launch at once, a process each; 0, or -1 if one failed. */
static int emu_blocks_at_once(const char *name, unsigned gx, unsigned nt)
{
    unsigned started = 0;
    int ret = 0, status;

    fflush(NULL);
    for (unsigned x = 0; x < gx; x++, started++) {
        pid_t pid = fork();
        if (pid < 0) {
            /* those started take every ticket and end (no wait is for a block) */
            ret = -1;
            break;
        }
        if (!pid) {
            /* one block in four slow */
            srand(getpid());
            emu_forked = 1;
            emu_slow   = rand() % 4 == 0;
            _exit(emu_block(name, x, 0, 0, nt) ? 1 : 0);
        }
    }
    for (unsigned x = 0; x < started; x++)
        if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
            ret = -1;
    return ret;
}

/** Runs kernel NAME over the grid; returns 0, or -1 with a message. */
extern "C" int emu_launch(const char *name, const SSIMU2CudaParams *p, unsigned gx,
                          unsigned gy, unsigned gz, unsigned bx, unsigned by)
{
    unsigned nt = bx * by;

    emu_fn = NULL;
    for (size_t i = 0; i < sizeof(emu_kernels) / sizeof(emu_kernels[0]); i++)
        if (!strcmp(emu_kernels[i].name, name))
            emu_fn = emu_kernels[i].fn;
    if (!emu_fn || nt > EMU_MAX_THREADS) {
        fprintf(stderr, "emu_launch: unknown kernel %s or block too large\n", name);
        return -1;
    }
    emu_params    = p;
    emu_block_dim = (EmuDim){ bx, by, 1 };
    for (unsigned i = 0; i < nt; i++)
        if (!emu_stacks[i] && !(emu_stacks[i] = (char *)malloc(EMU_STACK)))
            return -1;
    if (emu_concurrent && (emu_fn == ssimu2_blur || emu_fn == ssimu2_blur_ring) && gy == 1 && gz == 1)
        return emu_blocks_at_once(name, gx, nt);
    for (unsigned z = 0; z < gz; z++)
        for (unsigned y = 0; y < gy; y++)
            for (unsigned x = 0; x < gx; x++)
                if (emu_block(name, x, y, z, nt) < 0)
                    return -1;
    return 0;
}
