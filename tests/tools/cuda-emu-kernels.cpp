/*
 * The CUDA filter's kernels compiled as host C++, for tests without a GPU.
 * Grids are loops; the threads of a block run as ucontext fibers, and
 * __syncthreads() switches to the next fiber, so a barrier holds until every
 * thread of the block has reached it. __shared__ arrays become statics
 * (one block runs at a time). Blocks run one after the other in grid order,
 * so the blur's first block takes every ticket in order, and each task's
 * waits must hold when it comes to them: one that does not would wait
 * forever (a wrong ticket table or counter), and fails the run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

struct EmuDim { unsigned x, y, z; };
static EmuDim emu_block_idx, emu_thread_idx, emu_block_dim;
static ucontext_t emu_sched, *emu_cur;

static void emu_sync(void)
{
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
static inline int atomicAdd(int *p, int v) { int old = *p; *p += v; return old; }

static void ssimu2_emu_wait_failed(const int *counter, int v)
{
    fprintf(stderr, "emu_launch: a blur task waits for counter %d to reach %d, which no earlier "
            "ticket does: on a GPU it would wait forever\n", *counter, v);
    exit(1);
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
    { "ssimu2_reduce",          ssimu2_reduce          },
};

enum { EMU_MAX_THREADS = 1024, EMU_STACK = 256 << 10 };
static EmuKernel emu_fn;
static const SSIMU2CudaParams *emu_params;
static int emu_done[EMU_MAX_THREADS], emu_running;

static void emu_thread(void)
{
    emu_fn(*emu_params);
    emu_done[emu_running] = 1;
}

/** Runs kernel NAME over the grid; returns 0, or -1 with a message. */
extern "C" int emu_launch(const char *name, const SSIMU2CudaParams *p, unsigned gx,
                          unsigned gy, unsigned gz, unsigned bx, unsigned by)
{
    static ucontext_t ctx[EMU_MAX_THREADS];
    static char *stacks[EMU_MAX_THREADS];
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
        if (!stacks[i] && !(stacks[i] = (char *)malloc(EMU_STACK)))
            return -1;
    for (unsigned z = 0; z < gz; z++)
        for (unsigned y = 0; y < gy; y++)
            for (unsigned x = 0; x < gx; x++) {
                unsigned left = nt;
                emu_block_idx = (EmuDim){ x, y, z };
                for (unsigned i = 0; i < nt; i++) {
                    getcontext(&ctx[i]);
                    ctx[i].uc_stack.ss_sp   = stacks[i];
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
                        emu_thread_idx = (EmuDim){ i % bx, i / bx, 0 };
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
            }
    return 0;
}
