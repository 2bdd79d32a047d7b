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
fault launch            error "The GPU failed while scoring frame" cuLaunchKernel:0:2
fault upload            error "The GPU failed while scoring frame" cuMemcpyHtoDAsync_v2:0:2
fault result-copy       error "The GPU failed while scoring frame" cuMemcpyDtoHAsync_v2:0:2
fault sync              error "The GPU failed while scoring frame" cuStreamSynchronize:0:2
fault wait              error "The GPU failed while scoring frame" cuStreamWaitEvent:0:2
# out of memory for the scratch sets only: the smallest layout, or the documented error
FAKE_CUDA_MAX_ALLOC=20000 fault scratch-too-big error "Out of memory" ""
# the same 320 columns wide, where each smaller layout is tried (planes, tasks, ring),
# under valgrind: no memory lost on the way (each retry had leaked the last one's tables)
# (not a sanitizer build, which valgrind cannot run: LeakSanitizer finds it there)
if ldd "$FFMPEG" 2> /dev/null | grep -q 'lib[at]san'; then
    say "  SKIP layouts-leak: a sanitizer build (LeakSanitizer checks it)"
elif command -v valgrind > /dev/null; then
    WRAP="valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99" \
        SIZE=320x64 FAKE_CUDA_MAX_ALLOC=20000 fault layouts-leak error "needs 1.8 MiB" ""
else
    say "  SKIP layouts-leak: no valgrind"
fi

# The host logic beside the CPU filter's (the stand-in computes nothing: frame counts and
# messages only). An error at a frame (sizes that differ from frame 12 on) keeps the frames
# queued before it: scored and written as the CPU filter scores and passes them on (the
# queue had been dropped: 4 of 11 at the default depth, none at 16; then scored but not
# written, the error returned with them)
say "ssimulacra2_cuda's frames in flight, against ssimulacra2:"
# (AFTER: what follows the filter in the graph; the rest of the arguments: output options)
frames_before_error() {   # FILTER [OPTIONS]: "SCORED scored, WRITTEN written, exit STATUS"
    local rc=0
    rm -f "$W/q.json" "$W/q.crc"
    LD_LIBRARY_PATH="$W/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" timeout -k 5 60 "$FFMPEG" -nostdin \
        -loglevel warning -reinit_filter 0 -f lavfi -i \
        "testsrc2=s=96x64:r=10:d=3,scale=w='if(lt(n,12),96,64)':h='if(lt(n,12),64,48)':eval=frame" \
        -f lavfi -i testsrc2=s=96x64:r=10:d=3 -lavfi "[0:v][1:v]$1=${2:+$2:}log_path=q.json${AFTER:-}" \
        ${OUTPUT_OPTS:-} -f framecrc q.crc 2> q.log || rc=$?
    # (with -frames, ffmpeg's threads decide whether one frame past the last is scored)
    [ -n "${UNSCORED:-}" ] || printf '%s scored, ' "$(grep -cs '"frameNum"' "$W/q.json")"
    echo "$(grep -vcs '^#' "$W/q.crc") written, exit $rc"
}
# error_keeps_queue NAME CPU_EXPECTED [MESSAGE]: each queue depth as the CPU filter
error_keeps_queue() {
    local name=$1 want=$2 msg=${3:-} cpu got opts
    cpu=$(cd "$W" && frames_before_error ssimulacra2)
    # (frames 0-10 are scored before the sizes differ: a run that writes no log must not pass)
    n=$((n + 1))
    [ "$cpu" = "$want" ] ||
        { printf '  FAIL %-24s the CPU filter: %s, not %s\n' "$name-cpu" "$cpu" "$want"; bad=$((bad + 1)); }
    for opts in "" queue_depth=2 queue_depth=16; do
        n=$((n + 1))
        got=$(cd "$W" && frames_before_error ssimulacra2_cuda $opts)
        if [ "$got" != "$cpu" ]; then
            printf '  FAIL %-24s before the error %s; the CPU filter %s\n' "$name${opts:+:$opts}" "$got" "$cpu"
            bad=$((bad + 1))
        elif [ -n "$msg" ] && grep -q "Input sizes differ" "$W/q.log" && ! grep -qF -- "$msg" "$W/q.log"; then
            printf '  FAIL %-24s no "%s" in the output\n' "$name${opts:+:$opts}" "$msg"
            bad=$((bad + 1))
        else
            printf '  ok   %-24s %s, as the CPU filter\n' "$name${opts:+:$opts}" "$got"
        fi
    done
}
error_keeps_queue error-keeps-queue "11 scored, 11 written, exit 234"
# an output that ends before the frame of the error (read ahead by the queue, never read by
# the CPU filter): exit 0 as the CPU filter, the frames it took scored, the error, where
# one was read, said not to count (it had failed the run, and had scored all 11)
AFTER=,trim=end_frame=5 error_keeps_queue error-after-trim "6 scored, 5 written, exit 0" \
    "read ahead (queue_depth)"
UNSCORED=1 OUTPUT_OPTS="-frames:v 5" error_keeps_queue error-after-frames "5 written, exit 0" \
    "read ahead (queue_depth)"
# a refusal of the frames' own (premultiplied alpha) is not the GPU's failure
n=$((n + 1))
LD_LIBRARY_PATH="$W/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" timeout -k 5 60 "$FFMPEG" -nostdin \
    -hide_banner -f lavfi -i testsrc2=s=64x48:r=10:d=1 -f lavfi -i testsrc2=s=64x48:r=10:d=1 \
    -lavfi "[0:v]format=yuva420p,setparams=alpha_mode=premultiplied[a];[a][1:v]ssimulacra2_cuda" \
    -f null - > "$W/premultiplied.log" 2>&1
if grep -q "alpha is premultiplied" "$W/premultiplied.log" && ! grep -q "The GPU failed" "$W/premultiplied.log"; then
    printf '  ok   %-24s refused for its alpha, not blamed on the GPU\n' premultiplied-not-gpu
else
    printf '  FAIL %-24s %s\n' premultiplied-not-gpu "$(grep -E 'premultiplied|GPU failed' "$W/premultiplied.log" | head -n 2)"
    bad=$((bad + 1))
fi
# frames in flight lost at every rebuild (a size change every 5 frames, the queue never
# full): the end says so, not that the reference had no frame
n=$((n + 1))
LD_LIBRARY_PATH="$W/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" timeout -k 5 60 "$FFMPEG" -nostdin \
    -hide_banner -f lavfi -i "testsrc2=s=64x64:r=25:d=2,scale=w='if(lt(mod(n,10),5),64,32)':h=64:eval=frame" \
    -f lavfi -i testsrc2=s=64x64:r=25:d=2 -lavfi "[0:v]scale=64:64[a];[1:v]scale=64:64[b];[a][b]ssimulacra2_cuda" \
    -f null - > "$W/rebuild.log" 2>&1
if grep -q "were lost when ffmpeg rebuilt the filter graph.*queue_depth=1 loses the fewest" "$W/rebuild.log" &&
        ! grep -q "the reference had no frame at or before them" "$W/rebuild.log"; then
    printf '  ok   %-24s the frames lost at rebuilds are said, with queue_depth\n' rebuild-loses-queue
else
    printf '  FAIL %-24s %s\n' rebuild-loses-queue "$(grep -E 'No frame|lost' "$W/rebuild.log" | head -n 1)"
    bad=$((bad + 1))
fi
say "cuda faults: $n cases, $bad failed"
[ $bad = 0 ] || die "$bad fault case(s) failed"
say "PASS: run-cuda-faults"
