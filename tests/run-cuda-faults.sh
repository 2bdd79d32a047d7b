#!/usr/bin/env bash
# The CUDA filter's error paths without a GPU: ffmpeg runs ssimulacra2_cuda on a stand-in
# libcuda.so.1 (tools/fake-libcuda.c: host memory as device memory, kernels that do nothing,
# one chosen driver call failing). Each fault must end the run with a non-zero exit status
# and a message naming the problem, never a crash or a hang; with no fault the run ends
# with exit 0 (its scores are meaningless: nothing is computed). Where a GPU and its
# driver are present, this script still uses the stand-in (LD_LIBRARY_PATH comes first).
. "$(dirname "$0")/lib/common.sh"
need_ffmpeg
if ! "$FFMPEG" -hide_banner -loglevel quiet -h filter=ssimulacra2_cuda 2>/dev/null | grep -q "#1: reference"; then
    skip "ssimulacra2_cuda not in this build"
fi
W=$SSIMU2_TEST_OUT/cuda-faults
rm -rf "$W"; mkdir -p "$W/lib"
"$CC" -O1 -shared -fPIC -o "$W/lib/libcuda.so.1" "$S2_TESTS/tools/fake-libcuda.c" ||
    die "cannot build the stand-in libcuda.so.1"
bad=0; n=0

# fault NAME EXPECT MESSAGE FAKE_CUDA_FAIL [filter options]: EXPECT ok or error; the run on
# two generated inputs (SIZE, default 64x48) given as software frames (the filter uploads
# them), under $WRAP if set
fault() {
    local name=$1 expect=$2 msg=$3 fail=$4 opts=${5:-} rc=0 s=${SIZE:-64x48}
    n=$((n + 1))
    FAKE_CUDA_FAIL=$fail LD_LIBRARY_PATH="$W/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        timeout -k 5 120 ${WRAP:-} "$FFMPEG" -nostdin -hide_banner -loglevel info \
        -f lavfi -i testsrc2=s=$s:r=10:d=0.5 -f lavfi -i testsrc2=s=$s:r=10:d=0.5 \
        -lavfi "[0:v][1:v]ssimulacra2_cuda${opts:+=$opts}" -f null - > "$W/$name.log" 2>&1 || rc=$?
    local problem=
    case $rc in
        124|137) problem="hung (killed after 120 s)" ;;
        99)      problem="valgrind: memory lost or misused" ;;
        0)       [ $expect = ok ] || problem="exit status 0, expected an error" ;;
        *)       [ $expect = error ] || problem="exit status $rc, expected 0" ;;
    esac
    case $rc in 132|134|135|136|139) problem="crashed (exit $rc: signal $((rc - 128)))" ;; esac
    [ -z "$problem" ] && [ -n "$msg" ] && ! grep -qF -- "$msg" "$W/$name.log" && problem="no \"$msg\" in the output"
    if [ -n "$problem" ]; then
        printf '  FAIL %-24s %s\n' "$name" "$problem"; tail -n 3 "$W/$name.log" | sed 's/^/      /'
        bad=$((bad + 1))
    else
        printf '  ok   %-24s exit %d%s\n' "$name" $rc "${msg:+, \"$msg\"}"
    fi
}

say "ssimulacra2_cuda on a stand-in driver:"
fault no-fault          ok    "SSIMULACRA2 score:" ""
fault no-device         error "Cannot open CUDA device 0 (the default)" cuInit:1:100
fault device-1          error "Cannot open CUDA device 1" "" device=1
fault old-driver        error "update the NVIDIA driver, or use the CPU filter" cuModuleLoadData:1:222
fault full-gpu          error "Free GPU memory, or use the CPU filter" cuMemAlloc_v2:1:2
fault no-stream         error "The GPU cannot take the filter's streams" cuStreamCreate:2:2
fault no-function       error "" cuModuleGetFunction:3:2
fault launch            error "" cuLaunchKernel:0:2
fault upload            error "" cuMemcpyHtoDAsync_v2:0:2
fault result-copy       error "" cuMemcpyDtoHAsync_v2:0:2
fault sync              error "" cuStreamSynchronize:0:2
fault wait              error "" cuStreamWaitEvent:0:2
# out of memory for the scratch sets only: the smallest layout, or the documented error
FAKE_CUDA_MAX_ALLOC=20000 fault scratch-too-big error "Out of memory" ""
# the same 320 columns wide, where each smaller layout is tried (planes, tasks, ring),
# under valgrind: no memory lost on the way (each retry had leaked the last one's tables)
if command -v valgrind > /dev/null; then
    WRAP="valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99" \
        SIZE=320x64 FAKE_CUDA_MAX_ALLOC=20000 fault layouts-leak error "needs 1.8 MiB" ""
else
    say "  SKIP layouts-leak: no valgrind"
fi

say "cuda faults: $n cases, $bad failed"
[ $bad = 0 ] || die "$bad fault case(s) failed"
say "PASS: run-cuda-faults"
