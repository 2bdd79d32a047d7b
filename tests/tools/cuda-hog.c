/*
 * cuda-hog LEAVE_MIB SECONDS: takes the GPU's free memory but LEAVE_MIB (and
 * room for another process's context, taken to be the size of this one's), so
 * that a test sees a small card; prints "ready" once it holds it, and lets go
 * after SECONDS or when killed. The driver API through dlopen, as FFmpeg loads
 * it: no CUDA toolkit needed to build it.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef int (*InitFn)(unsigned);
typedef int (*DeviceGetFn)(int *, int);
typedef int (*CtxCreateFn)(void **, unsigned, int);
typedef int (*MemGetInfoFn)(size_t *, size_t *);
typedef int (*MemAllocFn)(unsigned long long *, size_t);

int main(int argc, char **argv)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    InitFn init;
    DeviceGetFn device_get;
    CtxCreateFn ctx_create;
    MemGetInfoFn mem_get_info;
    MemAllocFn mem_alloc;
    size_t free_bytes, total, leave, context, take;
    unsigned long long ptr;
    void *ctx;
    int dev;

    if (argc != 3) {
        fprintf(stderr, "usage: cuda-hog LEAVE_MIB SECONDS\n");
        return 2;
    }
    if (!lib) {
        fprintf(stderr, "cuda-hog: %s\n", dlerror());
        return 1;
    }
    init         = (InitFn)dlsym(lib, "cuInit");
    device_get   = (DeviceGetFn)dlsym(lib, "cuDeviceGet");
    ctx_create   = (CtxCreateFn)dlsym(lib, "cuCtxCreate_v2");
    mem_get_info = (MemGetInfoFn)dlsym(lib, "cuMemGetInfo_v2");
    mem_alloc    = (MemAllocFn)dlsym(lib, "cuMemAlloc_v2");
    if (!init || !device_get || !ctx_create || !mem_get_info || !mem_alloc ||
        init(0) || device_get(&dev, 0) || ctx_create(&ctx, 0, dev) ||
        mem_get_info(&free_bytes, &total)) {
        fprintf(stderr, "cuda-hog: no CUDA device\n");
        return 1;
    }
    leave   = (size_t)atoll(argv[1]) << 20;
    context = total - free_bytes; /* this process's context, on an otherwise idle GPU */
    if (free_bytes < leave + context + (64 << 20)) {
        fprintf(stderr, "cuda-hog: only %zu MiB free\n", free_bytes >> 20);
        return 1;
    }
    /* in pieces: one allocation may not take it all */
    for (take = free_bytes - leave - context; take >= (1 << 20);) {
        size_t piece = take < ((size_t)1 << 30) ? take : (size_t)1 << 30;
        if (mem_alloc(&ptr, piece)) {
            fprintf(stderr, "cuda-hog: %zu MiB not taken\n", take >> 20);
            return 1;
        }
        take -= piece;
    }
    mem_get_info(&free_bytes, &total);
    printf("ready: %zu MiB free, %zu MiB for a context\n", free_bytes >> 20, context >> 20);
    fflush(stdout);
    sleep(atoi(argv[2]));
    return 0;
}
