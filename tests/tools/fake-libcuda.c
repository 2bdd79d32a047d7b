/*
 * A stand-in libcuda.so.1 for tests/run-cuda-faults.sh: the CUDA error paths
 * of ssimulacra2_cuda (and of FFmpeg's CUDA device it opens) on a machine
 * without a GPU. Device memory is host memory, kernels do nothing (the
 * scores are meaningless: the faults are what is tested), and one chosen
 * call fails:
 *
 *   FAKE_CUDA_FAIL=NAME:N:CODE   the N-th call of NAME (1-based; 0: every
 *                                call) returns CUDA error CODE (2: out of
 *                                memory, 222: unsupported PTX version)
 *   FAKE_CUDA_MAX_ALLOC=BYTES    allocations above BYTES fail (out of memory)
 *
 * Built by the test: cc -shared -fPIC -o libcuda.so.1 fake-libcuda.c
 * (FFmpeg loads the library by name; LD_LIBRARY_PATH picks this one).
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long DevPtr;

enum { OK = 0, OUT_OF_MEMORY = 2, INVALID_DEVICE = 101 };

/* FAKE_CUDA_FAIL's answer for a call of fn: 0 or the error to return */
static int injected(const char *fn)
{
    static char name[64];
    static int nth = -1, code = OUT_OF_MEMORY, calls;
    const char *e;

    if (nth == -1) {
        nth = -2;
        if ((e = getenv("FAKE_CUDA_FAIL")) && sscanf(e, "%63[^:]:%d:%d", name, &nth, &code) < 2)
            nth = -2;
    }
    if (nth < 0 || strcmp(name, fn))
        return 0;
    if (nth && ++calls != nth)
        return 0;
    fprintf(stderr, "[fake libcuda] %s fails with %d\n", fn, code);
    return code;
}

#define FAULT(fn) do { int err_ = injected(#fn); if (err_) return err_; } while (0)

static void *dev_alloc(size_t n)
{
    const char *max = getenv("FAKE_CUDA_MAX_ALLOC");
    if (max && n > (size_t)atoll(max))
        return NULL;
    return calloc(1, n ? n : 1);
}

static int handle;   /* what contexts, modules and functions point to */

int cuInit(unsigned flags) { FAULT(cuInit); return OK; }
int cuDriverGetVersion(int *v) { *v = 12080; return OK; }
int cuDeviceGetCount(int *n) { FAULT(cuDeviceGetCount); *n = 1; return OK; }
int cuDeviceGet(int *dev, int ordinal)
{
    FAULT(cuDeviceGet);
    if (ordinal != 0)
        return INVALID_DEVICE;
    *dev = 0;
    return OK;
}
int cuDeviceGetAttribute(int *v, int attr, int dev)
{
    FAULT(cuDeviceGetAttribute);
    switch (attr) {
    case 1:  *v = 1024;   break;  /* max threads per block */
    case 8:  *v = 49152;  break;  /* shared memory per block */
    case 14: *v = 512;    break;  /* texture pitch alignment */
    case 16: *v = 4;      break;  /* multiprocessors */
    case 39: *v = 2048;   break;  /* threads per multiprocessor */
    case 75: *v = 8;      break;  /* compute capability major */
    case 76: *v = 0;      break;  /* minor */
    case 97: *v = 101376; break;  /* shared memory per block, opt-in */
    default: *v = 1;
    }
    return OK;
}
int cuDeviceGetName(char *s, int len, int dev) { snprintf(s, len, "fake CUDA device"); return OK; }
int cuDeviceComputeCapability(int *major, int *minor, int dev) { *major = 8; *minor = 0; return OK; }
int cuCtxCreate_v2(void **ctx, unsigned flags, int dev) { FAULT(cuCtxCreate_v2); *ctx = &handle; return OK; }
int cuCtxGetCurrent(void **ctx) { *ctx = &handle; return OK; }
int cuCtxPushCurrent_v2(void *ctx) { FAULT(cuCtxPushCurrent_v2); return OK; }
int cuCtxPopCurrent_v2(void **ctx) { if (ctx) *ctx = &handle; return OK; }
int cuCtxGetDevice(int *dev) { *dev = 0; return OK; }
int cuDevicePrimaryCtxRetain(void **ctx, int dev) { FAULT(cuDevicePrimaryCtxRetain); *ctx = &handle; return OK; }
int cuDevicePrimaryCtxGetState(int dev, unsigned *flags, int *active) { *flags = 0; *active = 0; return OK; }

int cuMemAlloc_v2(DevPtr *p, size_t n)
{
    void *m;
    FAULT(cuMemAlloc_v2);
    if (!(m = dev_alloc(n)))
        return OUT_OF_MEMORY;
    *p = (DevPtr)(uintptr_t)m;
    return OK;
}
int cuMemAllocPitch_v2(DevPtr *p, size_t *pitch, size_t w, size_t h, unsigned elem)
{
    void *m;
    FAULT(cuMemAllocPitch_v2);
    *pitch = (w + 511) & ~(size_t)511;
    if (!(m = dev_alloc(*pitch * h)))
        return OUT_OF_MEMORY;
    *p = (DevPtr)(uintptr_t)m;
    return OK;
}
int cuMemAllocManaged(DevPtr *p, size_t n, unsigned flags) { return cuMemAlloc_v2(p, n); }
int cuMemFree_v2(DevPtr p) { free((void *)(uintptr_t)p); return OK; }
int cuMemHostAlloc(void **p, size_t n, unsigned flags)
{
    FAULT(cuMemHostAlloc);
    return (*p = calloc(1, n ? n : 1)) ? OK : OUT_OF_MEMORY;
}
int cuMemFreeHost(void *p) { free(p); return OK; }
int cuMemsetD8Async(DevPtr d, unsigned char v, size_t n, void *stream)
{
    FAULT(cuMemsetD8Async);
    memset((void *)(uintptr_t)d, v, n);
    return OK;
}
int cuMemcpy(DevPtr d, DevPtr s, size_t n) { memcpy((void *)(uintptr_t)d, (void *)(uintptr_t)s, n); return OK; }
int cuMemcpyAsync(DevPtr d, DevPtr s, size_t n, void *stream) { return cuMemcpy(d, s, n); }
int cuMemcpyDtoD_v2(DevPtr d, DevPtr s, size_t n) { return cuMemcpy(d, s, n); }
int cuMemcpyDtoDAsync_v2(DevPtr d, DevPtr s, size_t n, void *stream) { return cuMemcpy(d, s, n); }
int cuMemcpyHtoD_v2(DevPtr d, const void *s, size_t n)
{
    FAULT(cuMemcpyHtoD_v2);
    memcpy((void *)(uintptr_t)d, s, n);
    return OK;
}
int cuMemcpyHtoDAsync_v2(DevPtr d, const void *s, size_t n, void *stream)
{
    FAULT(cuMemcpyHtoDAsync_v2);
    memcpy((void *)(uintptr_t)d, s, n);
    return OK;
}
int cuMemcpyDtoH_v2(void *d, DevPtr s, size_t n)
{
    FAULT(cuMemcpyDtoH_v2);
    memcpy(d, (void *)(uintptr_t)s, n);
    return OK;
}
int cuMemcpyDtoHAsync_v2(void *d, DevPtr s, size_t n, void *stream)
{
    FAULT(cuMemcpyDtoHAsync_v2);
    memcpy(d, (void *)(uintptr_t)s, n);
    return OK;
}

/* CUDA_MEMCPY2D: memory type 1 is host memory, the others are device memory here */
typedef struct Copy2D {
    size_t src_x, src_y;
    int src_type;
    const void *src_host;
    DevPtr src_dev;
    void *src_array;
    size_t src_pitch;
    size_t dst_x, dst_y;
    int dst_type;
    void *dst_host;
    DevPtr dst_dev;
    void *dst_array;
    size_t dst_pitch;
    size_t width, height;
} Copy2D;

int cuMemcpy2D_v2(const Copy2D *c)
{
    const char *src = c->src_type == 1 ? c->src_host : (const char *)(uintptr_t)c->src_dev;
    char *dst = c->dst_type == 1 ? c->dst_host : (char *)(uintptr_t)c->dst_dev;

    FAULT(cuMemcpy2D_v2);
    for (size_t y = 0; y < c->height; y++)
        memcpy(dst + (c->dst_y + y) * c->dst_pitch + c->dst_x,
               src + (c->src_y + y) * c->src_pitch + c->src_x, c->width);
    return OK;
}
int cuMemcpy2DAsync_v2(const Copy2D *c, void *stream) { FAULT(cuMemcpy2DAsync_v2); return cuMemcpy2D_v2(c); }

int cuGetErrorName(int err, const char **s)
{
    *s = err == OUT_OF_MEMORY ? "CUDA_ERROR_OUT_OF_MEMORY" :
         err == 222 ? "CUDA_ERROR_UNSUPPORTED_PTX_VERSION" : "CUDA_ERROR_UNKNOWN";
    return OK;
}
int cuGetErrorString(int err, const char **s) { *s = "fake libcuda"; return OK; }

int cuStreamCreate(void **s, unsigned flags) { FAULT(cuStreamCreate); *s = &handle; return OK; }
int cuStreamSynchronize(void *s) { FAULT(cuStreamSynchronize); return OK; }
int cuStreamWaitEvent(void *s, void *e, unsigned flags) { FAULT(cuStreamWaitEvent); return OK; }
int cuEventCreate(void **e, unsigned flags) { FAULT(cuEventCreate); *e = &handle; return OK; }
int cuEventSynchronize(void *e) { FAULT(cuEventSynchronize); return OK; }
int cuEventRecord(void *e, void *s) { FAULT(cuEventRecord); return OK; }
int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                   unsigned bz, unsigned shared, void *s, void **params, void **extra)
{
    FAULT(cuLaunchKernel);
    return OK;
}
int cuModuleLoadData(void **m, const void *image) { FAULT(cuModuleLoadData); *m = &handle; return OK; }
int cuModuleGetFunction(void **f, void *m, const char *name) { FAULT(cuModuleGetFunction); *f = &handle; return OK; }
int cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void *f, int threads, size_t shared)
{
    FAULT(cuOccupancyMaxActiveBlocksPerMultiprocessor);
    *n = 2;
    return OK;
}

/* the rest of what FFmpeg's loader looks up, never called by the filter: succeed */
#define NOOP(fn) int fn(void) { return OK; }
NOOP(cuCtxSetLimit) NOOP(cuCtxDestroy_v2) NOOP(cuDevicePrimaryCtxRelease)
NOOP(cuDevicePrimaryCtxSetFlags) NOOP(cuDevicePrimaryCtxReset) NOOP(cuStreamQuery)
NOOP(cuStreamDestroy_v2) NOOP(cuStreamAddCallback) NOOP(cuEventDestroy_v2) NOOP(cuEventQuery)
NOOP(cuLinkCreate) NOOP(cuLinkAddData) NOOP(cuLinkComplete) NOOP(cuLinkDestroy)
NOOP(cuModuleUnload) NOOP(cuModuleGetGlobal) NOOP(cuTexObjectCreate) NOOP(cuTexObjectDestroy)
NOOP(cuGLGetDevices_v2) NOOP(cuGraphicsGLRegisterImage) NOOP(cuGraphicsUnregisterResource)
NOOP(cuGraphicsMapResources) NOOP(cuGraphicsUnmapResources)
NOOP(cuGraphicsSubResourceGetMappedArray) NOOP(cuGraphicsResourceGetMappedPointer_v2)
NOOP(cuArrayCreate_v2) NOOP(cuArray3DCreate_v2) NOOP(cuArrayDestroy) NOOP(cuD3D11GetDevice)
NOOP(cuD3D11GetDevices) NOOP(cuGraphicsD3D11RegisterResource)
