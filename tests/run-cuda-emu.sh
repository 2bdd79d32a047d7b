#!/usr/bin/env bash
# The CUDA filter's kernels without a GPU: vf_ssimulacra2_cuda.cu compiled as host C++
# (tools/cuda-emu-kernels.cpp: block threads as fibers, real barriers), driven with the
# filter's scratch layout and launch sequence (tools/cuda-emu-score.c), must give the CPU
# filter's scores bit for bit on generated frames of many formats and sizes (odd sizes,
# sides below 113, alpha, one channel per launch). Catches kernel logic errors in CI; the
# GPU itself is covered by run-cuda.sh.
# Env: CXX (default clang++, else g++), BUILD_OBJ (default <repo>/build/obj).
. "$(dirname "$0")/lib/common.sh"
need_ffmpeg
OBJ=${BUILD_OBJ:-$S2_ROOT/build/obj}
SRC=$(dirname "$OBJ")/src
[ -f "$OBJ/libavfilter/libavfilter.a" ] && [ -f "$OBJ/ffbuild/config.mak" ] ||
    skip "no FFmpeg build tree at $OBJ (run ./configure && make)"
if [ -z "${CXX:-}" ]; then
    CXX=$(command -v clang++ || command -v g++) || skip "no C++ compiler (clang++ or g++)"
fi
W=$SSIMU2_TEST_OUT/cuda-emu
mkdir -p "$W" "$S2_BIN"
EMU=$S2_BIN/cuda-emu-score
libs=$(sed -n 's/^EXTRALIBS-[a-z_]*=//p' "$OBJ/ffbuild/config.mak" | tr ' ' '\n' | awk 'NF && !seen[$0]++' | tr '\n' ' ')
inc=(-I"$SRC/libavfilter" -I"$SRC" -I"$OBJ")
# -ffp-contract=off as for the filters: the same float operations in the same order
"$CXX" -O2 -ffp-contract=off -std=c++11 -w "${inc[@]}" -c "$S2_TESTS/tools/cuda-emu-kernels.cpp" \
    -o "$W/kernels.o" || die "cannot compile the kernels as C++"
"$CC" -O2 -ffp-contract=off -w "${inc[@]}" -c "$S2_TESTS/tools/cuda-emu-score.c" -o "$W/score.o" ||
    die "cannot compile cuda-emu-score.c"
"$CXX" -o "$EMU" "$W/score.o" "$W/kernels.o" -Wl,--start-group "$OBJ"/lib*/lib*.a -Wl,--end-group \
    $libs || die "cannot link cuda-emu-score"

cases=0 failed=0
# case FMT SIZE SOURCE [MAX_MEMORY_MIB]
run_case() {
    local fmt=$1 size=$2 src=$3 mem=${4:-2048} in cpu emu
    in=(-f rawvideo -pix_fmt "$fmt" -video_size "$size" -framerate 10)
    s2_gen_pair "$src" "$size" "$fmt" 0.2 "$W/d.raw" "$W/r.raw" || die "cannot generate $fmt $size"
    "$FFMPEG" -hide_banner -nostdin -loglevel error "${in[@]}" -i "$W/d.raw" "${in[@]}" -i "$W/r.raw" \
        -lavfi "[0:v][1:v]ssimulacra2=log_path=$W/cpu.json:log_fmt=json" -f null - || die "CPU filter failed on $fmt $size"
    cpu=$(s2_frame_scores "$W/cpu.json" | awk '{ print $2 }' | tr '\n' ' ')
    emu=$("$EMU" "$fmt" "${size%x*}" "${size#*x}" "$W/r.raw" "$W/d.raw" "$mem" | tr '\n' ' ')
    cases=$((cases + 1))
    if [ -n "$cpu" ] && [ "$cpu" = "$emu" ]; then
        printf 'ok     %-8s %-10s %-9s %5s MiB  %s\n' "$fmt" "$size" "$src" "$mem" "$cpu"
    else
        printf 'DIFF   %-8s %-10s %-9s %5s MiB  cpu %s emu %s\n' "$fmt" "$size" "$src" "$mem" "$cpu" "$emu"
        failed=$((failed + 1))
    fi
}
run_case nv12    8x8      testsrc2
run_case nv12    9x13     testsrc
run_case bgr0    9x13     testsrc
run_case rgba    31x17    testsrc2
run_case yuv420p 33x65    testsrc
run_case gray    40x200   testsrc2
run_case p010    100x8    testsrc
run_case yuv444p 113x75   testsrc2
run_case nv12    257x129  testsrc2 1
run_case rgba    70x33    testsrc  1
run_case yuv444p16 129x67 testsrc2
echo "cuda-emu: $cases cases, $failed failed"
[ "$failed" = 0 ] || exit 1
