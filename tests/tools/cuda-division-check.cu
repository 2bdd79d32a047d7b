/*
 * The kernels' divisions without the range check (ssimu2_div_normal(),
 * ssimu2_ddiv_normal() in ssimulacra2_math.h) against the GPU's IEEE
 * division, on the operands their callers give them:
 *   - ssimu2_srgb_to_linear() for every float in [-1.25, 1.25] (samples give
 *     |x| <= 1; the margin shows that the bound is not tight);
 *   - ssimu2_edge_quotient(..., 1) for every non-negative float e1 (finite,
 *     infinite, NaN) against e2 from a hash of it, and every e2 against e1 from
 *     a hash: the same bits where the operands are finite, NaN where one is
 *     not (the caller then takes the pixel again through the IEEE form).
 * The header is included twice, once with plain divisions, so that both
 * forms come from the same source. Build: nvcc -O2 --fmad=false.
 * Exit 0: equal everywhere; 1: a difference (the first ones are printed).
 */
#include <stdio.h>
#include <string.h>

#define SSIMU2_DIV_NORMAL(a, b) ((a) / (b))
#define SSIMU2_DDIV_NORMAL(a, b) ((a) / (b))
namespace ieee {
#include "ssimulacra2_math.h"
}
#undef AVFILTER_SSIMULACRA2_MATH_H
#undef SSIMU2_DIV_NORMAL
#undef SSIMU2_DDIV_NORMAL
namespace fast {
#include "ssimulacra2_math.h"
}

struct Result {
    unsigned long long checked, differ;
    unsigned int first[4]; /* inputs of the first differences */
};

__device__ static void record(Result *r, unsigned int in)
{
    unsigned long long i = atomicAdd(&r->differ, 1ULL);
    if (i < 4)
        r->first[i] = in;
}

__device__ static float from_bits(unsigned int u)
{
    return __uint_as_float(u);
}

__device__ static unsigned int hash(unsigned int x)
{
    x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16;
    return x;
}

/* a float of any size: a hash's bits without the sign, or near v (below 2^-24 of it apart) */
__device__ static float partner(unsigned int i, unsigned int v)
{
    unsigned int h = hash(i);
    return from_bits(h & 1 ? (h >> 1) & 0x7fffffffU : v + (h >> 28) - 8);
}

__global__ void check_eotf(unsigned int first, unsigned int last, Result *r)
{
    unsigned int u = first + blockIdx.x * blockDim.x + threadIdx.x;
    if (u > last)
        return;
    for (int sign = 0; sign < 2; sign++) {
        unsigned int in = u | (sign ? 0x80000000U : 0);
        float a = fast::ssimu2_srgb_to_linear(from_bits(in));
        float b = ieee::ssimu2_srgb_to_linear(from_bits(in));
        if (__float_as_uint(a) != __float_as_uint(b))
            record(r, in);
    }
    if (threadIdx.x == 0)
        atomicAdd(&r->checked, 2ULL * min(blockDim.x, last - (u - threadIdx.x) + 1));
}

__global__ void check_edge(unsigned int base, Result *r)
{
    unsigned int u = base + blockIdx.x * blockDim.x + threadIdx.x;
    if (u > 0x7fffffffU)
        return;
    for (int side = 0; side < 2; side++) {
        float e = from_bits(u), o = partner(u, u);
        float e1 = side ? o : e, e2 = side ? e : o;
        double a = fast::ssimu2_edge_quotient(e1, e2, 0.0f, 0.0f, 1);
        double b = ieee::ssimu2_edge_quotient(e1, e2, 0.0f, 0.0f, 0);
        int finite = e1 - e1 == 0.0f && e2 - e2 == 0.0f;
        int same = __double_as_longlong(a) == __double_as_longlong(b);
        if (finite ? !same : a == a && !same)
            record(r, u | (side ? 0x80000000U : 0));
    }
    if (threadIdx.x == 0)
        atomicAdd(&r->checked, 2ULL * min(blockDim.x, 0x80000000U - (u - threadIdx.x)));
}

/* fails on a difference, and on any input left unchecked (a launch that did not run whole) */
static int report(const char *what, Result *r, unsigned long long expected)
{
    printf("%-58s %llu inputs, %llu differ", what, r->checked, r->differ);
    for (unsigned long long i = 0; i < r->differ && i < 4; i++)
        printf("%s0x%08x", i ? " " : " (first: ", r->first[i]);
    printf("%s\n", r->differ ? ")" : "");
    if (r->checked != expected)
        printf("  expected %llu inputs\n", expected);
    return r->differ != 0 || r->checked != expected;
}

int main(void)
{
    Result *r;
    int bad = 0;
    const unsigned int chunk = 1U << 28, threads = 256;

    if (cudaMallocManaged(&r, sizeof(*r)) != cudaSuccess) {
        fprintf(stderr, "cuda-division-check: no CUDA device\n");
        return 77;
    }
    memset(r, 0, sizeof(*r));
    /* |x| from +0 to 1.25 (0x3fa00000) */
    check_eotf<<<(0x3fa00000U + threads) / threads, threads>>>(0, 0x3fa00000U, r);
    if (cudaDeviceSynchronize() != cudaSuccess)
        return fprintf(stderr, "check_eotf: %s\n", cudaGetErrorString(cudaGetLastError())), 1;
    bad |= report("srgb_to_linear, every float x with |x| <= 1.25:", r, 2ULL * (0x3fa00000U + 1));

    memset(r, 0, sizeof(*r));
    for (unsigned long long base = 0; base <= 0x7fffffffULL; base += chunk)
        check_edge<<<chunk / threads, threads>>>((unsigned int)base, r);
    if (cudaDeviceSynchronize() != cudaSuccess)
        return fprintf(stderr, "check_edge: %s\n", cudaGetErrorString(cudaGetLastError())), 1;
    bad |= report("edge_quotient, every float e >= 0 against a partner:", r, 2ULL << 31);
    return bad;
}
