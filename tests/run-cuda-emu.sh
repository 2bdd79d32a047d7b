#!/usr/bin/env bash
# The CUDA filter's kernels without a GPU: vf_ssimulacra2_cuda.cu compiled as host C++
# (tools/cuda-emu-kernels.cpp: block threads as fibers, real barriers), driven with the
# filter's scratch layout and launch sequence (tools/cuda-emu-score.c), must give the CPU
# filter's scores bit for bit on generated frames of many formats and sizes (odd sizes,
# sides below 113, alpha), with each of the three scratch layouts (blurred planes, blur
# tasks, blur tasks converting scale 0 into a ring). Catches kernel logic errors in CI; the GPU itself is covered by run-cuda.sh.
# Also: which layout the filter takes for a max_memory and queue_depth, and which convert
# kernel for the alignment of the frames (U and V read as pairs or one at a time).
# Env: CXX (default clang++, else g++; g++ for a sanitized build), BUILD_OBJ (default
#      <repo>/build/obj), SSIMU2_SANITIZE_FLAGS (default: the -fsanitize=* and -static-lib*san
#      flags of BUILD_OBJ's LDFLAGS, as in make check-asan's build-asan/obj).
. "$(dirname "$0")/lib/common.sh"
need_ffmpeg
need_build_tree
# sanitized static libs need the sanitizer runtime: the helpers are compiled and linked alike
[ -n "${SSIMU2_SANITIZE_FLAGS+set}" ] || SSIMU2_SANITIZE_FLAGS=$(build_tree_san_flags)
san=($SSIMU2_SANITIZE_FLAGS)
[ ${#san[@]} = 0 ] || san+=(-fno-omit-frame-pointer -g)
if [ -z "${CXX:-}" ] && [ ${#san[@]} != 0 ]; then
    # gcc's runtime, as FFmpeg's (configure builds it with gcc); clang's differs
    CXX=$(command -v g++) || skip "no g++ for the sanitized build"
elif [ -z "${CXX:-}" ]; then
    CXX=$(command -v clang++ || command -v g++) || skip "no C++ compiler (clang++ or g++)"
fi
W=$SSIMU2_TEST_OUT/cuda-emu
mkdir -p "$W" "$S2_BIN"
EMU=$S2_BIN/cuda-emu-score
libs=$(build_tree_libs)
inc=(-I"$SRC/libavfilter" -I"$SRC" -I"$OBJ")
# -ffp-contract=off as for the filters: the same float operations in the same order
"$CXX" -O2 -ffp-contract=off -std=c++11 -w "${inc[@]}" "${san[@]}" -c "$S2_TESTS/tools/cuda-emu-kernels.cpp" \
    -o "$W/kernels.o" || die "cannot compile the kernels as C++"
"$CC" -O2 -ffp-contract=off -w "${inc[@]}" "${san[@]}" -c "$S2_TESTS/tools/cuda-emu-score.c" -o "$W/score.o" ||
    die "cannot compile cuda-emu-score.c"
"$CXX" -o "$EMU" "$W/score.o" "$W/kernels.o" -Wl,--start-group "$OBJ"/lib*/lib*.a -Wl,--end-group \
    "${san[@]}" $libs || die "cannot link cuda-emu-score"

cases=0 failed=0
# compare WHAT CPU_SCORES REF DIST FMT SIZE [CHROMA_LOC]: the emulation with each scratch
# layout (EMU_LAYOUTS: those only) against the CPU filter's scores; SSIMU2_EMU_BLOCKS: see
# cuda-emu-score.c
compare() {
    local what=$1${SSIMU2_EMU_BLOCKS:+, $SSIMU2_EMU_BLOCKS blocks at once} cpu=$2 r=$3 d=$4 fmt=$5 size=$6
    local loc=${7:-} layout emu
    for layout in ${EMU_LAYOUTS:-planes tasks ring}; do
        emu=$("$EMU" "$fmt" "${size%x*}" "${size#*x}" "$r" "$d" $layout $loc | tr '\n' ' ')
        cases=$((cases + 1))
        if [ -n "$cpu" ] && [ "$cpu" = "$emu" ]; then
            printf 'ok     %-34s %-6s %s\n' "$what" $layout "$cpu"
        else
            printf 'DIFF   %-34s %-6s cpu %s emu %s\n' "$what" $layout "$cpu" "$emu"
            failed=$((failed + 1))
        fi
    done
}

# case FMT SIZE SOURCE [CHROMA_LOC]; SSIMU2_EMU_TRANSFER: the transfer option of both;
# EMU_SECONDS: of frames at 10 fps (0.2)
run_case() {
    local fmt=$1 size=$2 src=$3 loc=${4:-} trc=${SSIMU2_EMU_TRANSFER:-} in cpu
    in=(-f rawvideo -pix_fmt "$fmt" -video_size "$size" -framerate 10)
    s2_gen_pair "$src" "$size" "$fmt" "${EMU_SECONDS:-0.2}" "$W/d.raw" "$W/r.raw" || die "cannot generate $fmt $size"
    "$FFMPEG" -hide_banner -nostdin -loglevel error "${in[@]}" -i "$W/d.raw" "${in[@]}" -i "$W/r.raw" \
        -lavfi "[0:v][1:v]ssimulacra2=log_path=$W/cpu.json:log_fmt=json${loc:+:chroma_loc=$loc}${trc:+:transfer=$trc}" \
        -f null - || die "CPU filter failed on $fmt $size"
    cpu=$(s2_frame_scores "$W/cpu.json" | awk '{ print $2 }' | tr '\n' ' ')
    compare "$fmt $size $src${loc:+ $loc}${trc:+ $trc}" "$cpu" "$W/r.raw" "$W/d.raw" "$fmt" "$size" "$loc"
}
run_case nv12    8x8      testsrc2
run_case nv12    9x13     testsrc
run_case bgr0    9x13     testsrc
run_case rgba    31x17    testsrc2
run_case yuv420p 33x65    testsrc
run_case gray    40x200   testsrc2
run_case p010    100x8    testsrc
run_case yuv444p 113x75   testsrc2
run_case nv12    257x129  testsrc2
run_case rgba    70x33    testsrc
# the tasks layout's 32 x 32 tasks: bands whose column pass needs a batch after the
# last band's rows (heights 32m + 29 .. 32m + 32), strips at every scale
run_case yuv420p 64x64    testsrc2
run_case nv12    70x95    testsrc
run_case yuv444p 300x190  testsrc2
run_case yuv444p16 129x67 testsrc2
# scale 0's XYB in a ring of 8 strips, filled by the convert tasks: wrapped several times,
# odd sizes at the ring's end, both pair and single chroma reads
run_case nv12    641x97   testsrc2
run_case yuv420p 803x45   testsrc
run_case rgba    579x40   testsrc2
# every other kind of format the CPU filter reads, as software frames given to the CUDA
# filter reach the kernels: packed and planar RGB of 8 and 16 bits, big-endian samples,
# gray of 16 bits, full-range and 12-bit Y'CbCr
run_case rgb24   21x15    testsrc2
run_case bgr24   21x15    testsrc
run_case gbrp    23x19    testsrc2
run_case gbrp10  23x19    testsrc
run_case gbrp16be 17x9    testsrc2
run_case rgb48be 25x11    testsrc2
run_case bgr48   25x11    testsrc
run_case rgba64be 19x13   testsrc2
run_case argb    19x13    testsrc
run_case gray16le 27x21   testsrc2
run_case gray16be 27x21   testsrc
run_case yuvj420p 35x23   testsrc2
run_case yuv420p12 35x23  testsrc
run_case yuv422p10 22x14  testsrc2
# every chroma siting: a quad's chroma taps come from one 3 x 3 window of samples, whose
# first column and row depend on the siting (odd sizes: the last quad's pixels repeat)
for loc in left center topleft top bottomleft bottom; do
    run_case yuv420p 33x19 testsrc2 $loc
done
run_case nv16    21x9     testsrc center
# U and V side by side read as one pair where the buffer aligns them (above, nv12 9x13 and
# nv16 21x9 start their chroma plane at an odd byte: one sample at a time)
run_case nv12    33x16    testsrc
run_case p010    34x17    testsrc2
run_case nv16    22x9     testsrc center
# the other transfers (the kernels take sRGB, the default, on a path of its own)
for trc in bt1886 linear; do
    for fmt in nv12 yuv420p rgba gray16le; do
        SSIMU2_EMU_TRANSFER=$trc run_case $fmt 19x11 testsrc2
    done
done
# and the whole list of the CPU filter at one odd size
for fmt in $(s2_code_formats "$S2_ROOT/libavfilter/ssimulacra2_formats.c" ff_ssimulacra2_pix_fmts); do
    run_case "$fmt" 17x11 testsrc2
done
# a pair generated in yuv444p16 and converted once to DIST_FMT and REF_FMT (d.raw, r.raw),
# and the CPU filter's scores of it in $cpu
# gen_mixed DIST_FMT REF_FMT SIZE
gen_mixed() {
    local df=$1 rf=$2 size=$3
    local in=(-f rawvideo -pix_fmt yuv444p16 -video_size "$size" -framerate 10)
    s2_gen_pair testsrc2 "$size" yuv444p16 0.2 "$W/d16.raw" "$W/r16.raw" || die "cannot generate $size"
    "$FFMPEG" -hide_banner -nostdin -loglevel error "${in[@]}" -i "$W/d16.raw" -pix_fmt "$df" -f rawvideo -y "$W/d.raw" &&
    "$FFMPEG" -hide_banner -nostdin -loglevel error "${in[@]}" -i "$W/r16.raw" -pix_fmt "$rf" -f rawvideo -y "$W/r.raw" ||
        die "cannot convert to $df / $rf"
    "$FFMPEG" -hide_banner -nostdin -loglevel error -f rawvideo -pix_fmt "$df" -video_size "$size" -framerate 10 -i "$W/d.raw" \
        -f rawvideo -pix_fmt "$rf" -video_size "$size" -framerate 10 -i "$W/r.raw" \
        -lavfi "[0:v][1:v]ssimulacra2=log_path=$W/cpu.json:log_fmt=json" -f null - || die "CPU filter failed on $df vs $rf"
    cpu=$(s2_frame_scores "$W/cpu.json" | awk '{ print $2 }' | tr '\n' ' ')
}
# inputs of different formats (one convert launch each)
# run_mixed DIST_FMT REF_FMT SIZE
run_mixed() {
    gen_mixed "$1" "$2" "$3"
    compare "$1 vs $2 $3" "$cpu" "$W/r.raw" "$W/d.raw" "$2,$1" "$3"
}
run_mixed nv12 p010 33x65
run_mixed p010 nv12 34x18
run_mixed p216 nv16 22x9
run_mixed rgba nv12 31x17
run_mixed yuv420p rgba 40x24
run_mixed bgr0 yuv444p16 9x13
run_mixed p010 yuv420p 611x37
# the blur of the tasks and ring layouts on 8 blocks at once (a process each, some slow:
# cuda-emu-kernels.cpp), so that tasks finish in any order, as on a GPU: a convert task
# overwriting a ring slot that a blur task has still to read, or a blur task reading a strip
# not yet converted, changes scores. Each of those waits weakened by one: the strip wait and
# the column phases' wait changed scores in every run, the row phases' wait in most (0 to 2
# of 4 frames of a case); races inside a block are the sanitizers' (tools/device-check.sh)
# run_concurrent FMT SIZE
run_concurrent() {
    SSIMU2_EMU_BLOCKS=8 EMU_LAYOUTS="tasks ring" EMU_SECONDS=0.6 run_case "$1" "$2" testsrc2
}
run_concurrent nv12    642x98
run_concurrent yuv420p 577x131
run_concurrent yuva420p 545x65
# U and V side by side are read as pairs where every pair of each image of a launch is
# aligned: the distorted frame moved OFFSET bytes in memory takes the kernels expected, and
# scores as the CPU filter does (the format list above: both kernels of the 16-bit formats)
# convert_is REF_FMT[,DIST_FMT] SIZE OFFSET EXPECTED (the convert kernels of a frame, sorted)
convert_is() {
    local fmt=$1 size=$2 offset=$3 want=$4 emu got
    gen_mixed "${fmt#*,}" "${fmt%,*}" "$size"
    emu=$(SSIMU2_EMU_OFFSET=$offset SSIMU2_EMU_TRACE=1 "$EMU" "$fmt" "${size%x*}" "${size#*x}" \
          "$W/r.raw" "$W/d.raw" 2> "$W/trace.txt" | tr '\n' ' ')
    got=$(sed -n 's/^ssimu2_convert_//p' "$W/trace.txt" | sort -u | tr '\n' ' ')
    cases=$((cases + 1))
    if [ "$cpu" = "$emu" ] && [ "$got" = "$want " ]; then
        printf 'ok     convert %s %s, distorted %s bytes off: %s\n' "$fmt" "$size" "$offset" "$got"
    else
        printf 'DIFF   convert %s %s, distorted %s bytes off: %s(expected %s), cpu %s emu %s\n' \
            "$fmt" "$size" "$offset" "$got" "$want" "$cpu" "$emu"
        failed=$((failed + 1))
    fi
}
convert_is nv12      34x18 0 "semi8"
convert_is nv12      34x18 1 "yuv8"
convert_is nv12      34x18 2 "semi8"
convert_is p010      34x18 2 "yuv16"
convert_is p010      34x18 4 "semi16"
convert_is nv12,p010 34x18 2 "semi8 yuv16"
convert_is nv12,p010 34x18 4 "semi16 semi8"
convert_is p010,nv12 34x18 1 "semi16 yuv8"
convert_is rgb48be   17x9  0 "rgb16be"
# the layout for max_memory and queue_depth, as documented (max_memory in doc/ssimulacra2.texi):
# the planes where two of its sets fit (225 / 892 MiB at 1080p / 2160p), else the tasks where
# two of theirs fit (82 / 323 MiB), else the ring where two of its fit (41 / 146 MiB), else the
# first of them of which one set fits, else the ring
# layout_is W H MAX_MEMORY QUEUE_DEPTH EXPECTED (layout and sets)
layout_is() {
    local got
    got=$("$EMU" layout "$1" "$2" "$3" "$4" | awk '{ print $1, $2 }')
    cases=$((cases + 1))
    if [ "$got" = "$5" ]; then
        printf 'ok     layout %sx%s max_memory=%s queue_depth=%s: %s\n' "$1" "$2" "$3" "$4" "$got"
    else
        printf 'DIFF   layout %sx%s max_memory=%s queue_depth=%s: %s, expected %s\n' "$1" "$2" "$3" "$4" "$got" "$5"
        failed=$((failed + 1))
    fi
}
layout_is 1920 1080 2048 8 "planes 8"
layout_is 1920 1080 512  8 "planes 2"
layout_is 1920 1080 256  8 "tasks 3"
layout_is 1920 1080 256  1 "planes 1"
layout_is 1920 1080 128  8 "ring 3"
layout_is 1920 1080 64   8 "ring 1"
layout_is 1920 1080 1    8 "ring 1"
layout_is 3840 2160 2048 8 "planes 2"
layout_is 3840 2160 1024 8 "tasks 3"
layout_is 3840 2160 1024 1 "planes 1"
layout_is 3840 2160 512  8 "ring 3"
layout_is 3840 2160 256  8 "ring 1"
# up to 8 strips the ring layout holds the whole plane: nothing smaller than the tasks layout
layout_is 256  1080 1    8 "tasks 1"
# as many frames in flight as queue_depth when max_memory holds billions of small sets
layout_is 8 8 1073741823 16 "planes 16"
# the default (auto): about 8 megapixels in flight, at least 2 frames, at most queue_depth
# frames ...
layout_is 1920 1080 auto 8 "planes 4"
layout_is 1920 1080 auto 2 "planes 2"
layout_is 2560 1440 auto 8 "planes 3"
layout_is 3840 2160 auto 8 "planes 2"
layout_is 1280 720  auto 8 "planes 8"
layout_is 640 360   auto 16 "planes 16"
layout_is 1920 1080 auto 1 "planes 1"
# ... where two sets of the planes layout exceed 2048 MiB (from about 10 megapixels), as
# max_memory=2048
layout_is 5120 2880 auto 8 "tasks 3"
layout_is 7680 4320 auto 8 "ring 3"
echo "cuda-emu: $cases cases, $failed failed"
[ "$failed" = 0 ] || exit 1
