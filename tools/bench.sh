#!/usr/bin/env bash
# Benchmark (not a test) of the CPU ssimulacra2 filter. Three tables:
#
# 1. Threads sweep: milliseconds per frame of the whole ffmpeg process (wall time / frames) on
#    yuv420p pairs read from raw files (-stream_loop of a one-frame file, so no decoding), for
#    -filter_complex_threads 1, 2, 4, ... up to the machine's CPUs, at 1920x1080 and 3840x2160;
#    speed-up over 1 thread. Targets (16-core host): >= 12x at 16 threads, <= 25 ms per 1080p
#    frame and <= 100 ms per 2160p frame.
# 2. One thread beside the reference yardstick: one 1080p pair, whole process (PPM decoding
#    included), -filter_complex_threads 1, against the independent oracle (ssimu2-oracle.c,
#    single-threaded C) on the same pair, best of 3 each. Target: ratio <= 0.18.
# 3. Memory: the filter's scratch (its own figure, -loglevel debug) and the process's peak
#    resident set for a one-frame gray8 pair at several sizes. Target: scratch <= 32 bytes per pixel.
#
# Frames: the committed photo tests/data/coffee_431x287.png scaled to each size (reference) and
# a blurred + noisy copy (distorted).
#
# Usage: tools/bench.sh [SIZES...]     (sizes of table 1; default 1920x1080 3840x2160)
# Env:   FFMPEG [build/ffmpeg], SSIMU2_ORACLE_SRC, BENCH_THREADS [1 2 4 ... nproc],
#        BENCH_FRAMES_1080 [24], BENCH_FRAMES_2160 [8], BENCH_MEM_SIZES
set -u
. "$(dirname "$0")/../tests/lib/common.sh"
s2_name=bench
need_ffmpeg
ORACLE=$(build_oracle 2>/dev/null) || ORACLE=
W=$SSIMU2_TEST_OUT/bench
mkdir -p "$W"
[ $# -gt 0 ] || set -- 1920x1080 3840x2160
cpus=$(nproc)
if [ -z "${BENCH_THREADS:-}" ]; then
    BENCH_THREADS=1
    for ((t = 2; t < cpus; t *= 2)); do BENCH_THREADS="$BENCH_THREADS $t"; done
    [ "$cpus" -gt 1 ] && BENCH_THREADS="$BENCH_THREADS $cpus"
fi
PHOTO=$S2_TESTS/data/coffee_431x287.png

now_ms() { echo "${EPOCHREALTIME/./}" | awk '{ printf "%.3f\n", $1 / 1000 }'; }
frames_for() { case $1 in 3840x2160) echo "${BENCH_FRAMES_2160:-8}" ;; *) echo "${BENCH_FRAMES_1080:-24}" ;; esac; }
# make_frames SIZE: one-frame raw yuv420p and PPM files of the pair in $W/SIZE
make_frames() {
    local d=$W/$1
    mkdir -p "$d"
    [ -s "$d/dist.yuv" ] && [ -s "$d/dist.ppm" ] && return 0
    "$FFMPEG" -nostdin -hide_banner -loglevel error -y -i "$PHOTO" -lavfi \
        "[0:v]scale=${1/x/:}:flags=bicubic,format=rgb24,split[r0][r1];[r1]avgblur=1,noise=alls=6:all_seed=7[d0];[r0]split[r2][r3];[d0]split[d2][d3]" \
        -map "[r2]" -pix_fmt yuv420p -f rawvideo "$d/ref.yuv" -map "[r3]" -f image2 -c:v ppm "$d/ref.ppm" \
        -map "[d2]" -pix_fmt yuv420p -f rawvideo "$d/dist.yuv" -map "[d3]" -f image2 -c:v ppm "$d/dist.ppm" ||
        die "cannot make frames for $1"
}
# wall_ms CMD...: wall time of one run in ms (output discarded; failure is fatal)
wall_ms() {
    local t0; t0=$(now_ms)
    "$@" > /dev/null 2> "$W/last.err" || { cat "$W/last.err" >&2; die "failed: $*"; }
    awk -v a="$t0" -v b="$(now_ms)" 'BEGIN { printf "%.1f", b - a }'
}
best_of() { # best_of N CMD...: smallest wall time of N runs
    local n=$1 best= t; shift
    for ((i = 0; i < n; i++)); do
        t=$(wall_ms "$@")
        [ -z "$best" ] || awk -v o="$t" -v b="$best" 'BEGIN { exit !(o < b) }' && best=$t
    done
    echo "$best"
}

echo "1. threads sweep: ms per frame, whole ffmpeg process, yuv420p raw pairs (speed-up over 1 thread);"
echo "   last column: $cpus one-thread processes at once, ms per frame of all together (the machine's"
echo "   ceiling for the sweep: shared caches, memory bandwidth and all-core clocks, without threading)"
printf '%-10s %6s' size frames
for t in $BENCH_THREADS; do printf ' %14s' "${t}T"; done
printf ' %14s\n' "${cpus}x1T"
for size in "$@"; do
    make_frames "$size"
    d=$W/$size; n=$(frames_for "$size")
    in=(-stream_loop $((n - 1)) -f rawvideo -pix_fmt yuv420p -s "$size" -framerate 25 -i "$d/dist.yuv"
        -stream_loop $((n - 1)) -f rawvideo -pix_fmt yuv420p -s "$size" -framerate 25 -i "$d/ref.yuv")
    "$FFMPEG" -nostdin -hide_banner -loglevel error -filter_complex_threads 1 -i "$d/dist.ppm" \
        -i "$d/ref.ppm" -lavfi ssimulacra2 -f null - || die "warm-up failed"
    printf '%-10s %6d' "$size" "$n"
    ms1=
    for t in $BENCH_THREADS; do
        ms=$(wall_ms "$FFMPEG" -nostdin -hide_banner -loglevel error -filter_complex_threads "$t" \
             "${in[@]}" -lavfi "[0:v][1:v]ssimulacra2" -f null -)
        ms=$(awk -v m="$ms" -v n="$n" 'BEGIN { printf "%.1f", m / n }')
        [ -n "$ms1" ] || ms1=$ms
        printf ' %14s' "$ms ($(awk -v a="$ms1" -v b="$ms" 'BEGIN { printf "%.1fx", a / b }'))"
    done
    t0=$(now_ms)
    for ((p = 0; p < cpus; p++)); do
        "$FFMPEG" -nostdin -hide_banner -loglevel error -filter_complex_threads 1 "${in[@]}" \
            -lavfi "[0:v][1:v]ssimulacra2" -f null - > /dev/null 2>&1 &
    done
    wait
    ms=$(awk -v a="$t0" -v b="$(now_ms)" -v n="$n" -v p="$cpus" 'BEGIN { printf "%.1f", (b - a) / n / p }')
    printf ' %14s\n' "$ms ($(awk -v a="$ms1" -v b="$ms" 'BEGIN { printf "%.1fx", a / b }'))"
done
echo "targets (16-core host): >= 12x at 16 threads; <= 25 ms at 1920x1080, <= 100 ms at 3840x2160"

echo
echo "2. one thread beside the oracle: one 1920x1080 pair, whole process, best of 3"
make_frames 1920x1080
d=$W/1920x1080
ours=$(best_of 3 "$FFMPEG" -nostdin -hide_banner -loglevel error -filter_complex_threads 1 \
       -i "$d/dist.ppm" -i "$d/ref.ppm" -lavfi ssimulacra2 -f null -)
if [ -n "$ORACLE" ]; then
    orc=$(best_of 3 "$ORACLE" "$d/ref.ppm" "$d/dist.ppm")
    printf 'ffmpeg %s ms, oracle %s ms, ratio %s (target <= 0.18)\n' "$ours" "$orc" \
        "$(awk -v a="$ours" -v b="$orc" 'BEGIN { printf "%.3f", a / b }')"
else
    printf 'ffmpeg %s ms, oracle n/a (set SSIMU2_ORACLE_SRC)\n' "$ours"
fi

echo
echo "3. memory: one gray8 frame pair; scratch from the filter, peak RSS of the process"
printf '%-10s %12s %10s %14s\n' size "scratch MiB" "bytes/px" "peak RSS MiB"
for size in ${BENCH_MEM_SIZES:-640x360 1920x1080 3840x2160 8192x8192}; do
    px=$(( ${size%x*} * ${size#*x} ))
    rss=$(python3 - "$FFMPEG" "$size" "$W/mem.log" <<'EOF'
import resource, subprocess, sys
ffmpeg, size, log = sys.argv[1:]
src = "gradients=s=%s:d=0.04,format=gray" % size
with open(log, "w") as f:
    subprocess.run([ffmpeg, "-nostdin", "-hide_banner", "-loglevel", "debug", "-filter_complex_threads", "1",
                    "-f", "lavfi", "-i", src, "-f", "lavfi", "-i", src,
                    "-lavfi", "ssimulacra2", "-f", "null", "-"], stderr=f, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
EOF
) || die "memory run failed ($size)"
    mib=$(sed -n 's/.*Scratch for [0-9x]*: \([0-9.]*\) MiB.*/\1/p' "$W/mem.log" | tail -n 1)
    printf '%-10s %12s %10s %14s\n' "$size" "${mib:--}" \
        "$(awk -v m="$mib" -v p="$px" 'BEGIN { if (m == "") print "-"; else printf "%.1f", m * 1048576 / p }')" "$rss"
done
echo "target: scratch <= 32 bytes per pixel"
echo "machine: $cpus CPU(s), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
echo "load average at the end: $(cut -d" " -f1-3 /proc/loadavg) (timings are only meaningful on an idle machine)"
