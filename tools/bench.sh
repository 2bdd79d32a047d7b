#!/usr/bin/env bash
# Benchmark (not a test): milliseconds per frame of the CPU ssimulacra2 filter at 640x360,
# 1920x1080 and 3840x2160 with 1 and 2 filter threads, beside the independent oracle
# (ssimu2-oracle.c, single-threaded C) on the same frames.
#
# Frames: the committed photo tests/data/coffee_431x287.png scaled to each size (reference)
# and a blurred + noisy copy (distorted), pre-generated as raw rgb24 (for ffmpeg, looped with
# -stream_loop so that no decoding happens) and as PPM (for the oracle).
# ffmpeg time per frame = (wall time of the scoring run - wall time of the same run without the
# filter) / frames, shown as "(wall)"; the main figure is the filter's own profile=1 report
# (mean ms per scored frame), which the speed-up uses when present.
# Oracle time = best of 2 runs, PPM reading included (a few ms at 1080p).
#
# Usage: tools/bench.sh [SIZES...]     e.g. tools/bench.sh 1920x1080
# Env:   FFMPEG [build/ffmpeg], SSIMU2_ORACLE_SRC, BENCH_THREADS ["1 2"]
set -u
. "$(dirname "$0")/../tests/lib/common.sh"
s2_name=bench
need_ffmpeg
ORACLE=$(build_oracle 2>/dev/null) || ORACLE=
W=$SSIMU2_TEST_OUT/bench
mkdir -p "$W"
[ $# -gt 0 ] || set -- 640x360 1920x1080 3840x2160
THREADS=${BENCH_THREADS:-1 2}
PHOTO=$S2_TESTS/data/coffee_431x287.png

now_ms() { echo "${EPOCHREALTIME/./}" | awk '{ printf "%.3f\n", $1 / 1000 }'; }
frames_for() { case $1 in 640x360) echo 24 ;; 1920x1080) echo 6 ;; *) echo 3 ;; esac; }

printf '%-10s %6s' size frames
for t in $THREADS; do printf ' %9s %9s' "${t}T ms" "(wall)"; done
printf ' %10s %10s\n' "oracle ms" "1T speedup"
for size in "$@"; do
    w=${size%x*}; h=${size#*x}
    d=$W/$size; mkdir -p "$d"
    if [ ! -s "$d/dist.rgb" ]; then
        "$FFMPEG" -nostdin -hide_banner -loglevel error -y -i "$PHOTO" -lavfi \
            "[0:v]scale=$w:$h:flags=bicubic,format=rgb24,split[r0][r1];[r1]avgblur=1,noise=alls=6:all_seed=7[d0];[r0]split[r2][r3];[d0]split[d2][d3]" \
            -map "[r2]" -f rawvideo "$d/ref.rgb" -map "[r3]" -f image2 -c:v ppm "$d/ref.ppm" \
            -map "[d2]" -f rawvideo "$d/dist.rgb" -map "[d3]" -f image2 -c:v ppm "$d/dist.ppm" ||
            die "cannot make frames for $size"
    fi
    n=$(frames_for "$size")
    in=(-stream_loop $((n - 1)) -f rawvideo -pix_fmt rgb24 -s "$size" -framerate 25 -i "$d/dist.rgb"
        -stream_loop $((n - 1)) -f rawvideo -pix_fmt rgb24 -s "$size" -framerate 25 -i "$d/ref.rgb")
    t0=$(now_ms)
    "$FFMPEG" -nostdin -hide_banner -loglevel error "${in[@]}" -map 0:v -map 1:v -f null - || die "baseline failed"
    base=$(awk -v a="$t0" -v b="$(now_ms)" 'BEGIN { print b - a }')
    printf '%-10s %6d' "$size" "$n"
    ms1=
    for t in $THREADS; do
        t0=$(now_ms)
        "$FFMPEG" -nostdin -hide_banner -loglevel info -filter_complex_threads "$t" "${in[@]}" \
            -lavfi "[0:v][1:v]ssimulacra2=profile=1" -f null - 2> "$d/ffmpeg-$t.log" || die "ffmpeg failed ($size, $t threads)"
        ms=$(awk -v a="$t0" -v b="$(now_ms)" -v base="$base" -v n="$n" 'BEGIN { printf "%.1f", (b - a - base) / n }')
        prof=$(sed -n 's/.*SSIMULACRA2 profile: *\([0-9.]*\) ms.*/\1/p' "$d/ffmpeg-$t.log" | tail -n 1)
        printf ' %9s %9s' "${prof:--}" "($ms)"
        [ "$t" = 1 ] && ms1=${prof:-$ms}
    done
    if [ -n "$ORACLE" ]; then
        best=
        for r in 1 2; do
            t0=$(now_ms); "$ORACLE" "$d/ref.ppm" "$d/dist.ppm" > /dev/null || die "oracle failed"
            o=$(awk -v a="$t0" -v b="$(now_ms)" 'BEGIN { printf "%.1f", b - a }')
            [ -z "$best" ] || awk -v o="$o" -v b="$best" 'BEGIN { exit !(o < b) }' && best=$o
        done
        sp=$(awk -v o="$best" -v m="$ms1" 'BEGIN { if (m > 0) printf "%.2fx", o / m; else print "-" }')
        printf ' %10s %10s' "$best" "$sp"
    else
        printf ' %10s %10s' "n/a" "-"
    fi
    printf '\n'
done
echo "target: 1-thread 1920x1080 speed-up over the oracle >= 3.3x"
echo "machine: $(nproc) CPU(s), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
echo "load average at the end: $(cut -d" " -f1-3 /proc/loadavg) (timings are only meaningful on an idle machine)"
