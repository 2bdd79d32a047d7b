#!/usr/bin/env bash
# Benchmark of ssimulacra2_cuda on the GPU of this machine; prints a table.
#   - metric only: frames uploaded once and re-sent (loop filter), nv12 and p010 at 1080p and 4K;
#     fps from two run lengths (so start-up, PTX load and the first frames cancel out);
#   - mean device time per frame (profile=1), peak device memory of the process (nvidia-smi),
#     kernel launches per frame and scratch size (verbose log), PTX load time (verbose log);
#   - end to end on the NVDEC clip pairs, beside decode only of the same inputs.
# Environment: FFMPEG [<repo>/build/ffmpeg], SSIMU2_SAMPLES [<repo>/../shared/testdata],
#              LOOPS (NVDEC clip repetitions, default 5).
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
FFMPEG=${FFMPEG:-$ROOT/build/ffmpeg}
SSIMU2_SAMPLES=${SSIMU2_SAMPLES:-$ROOT/../shared/testdata}
LOOPS=${LOOPS:-5}
W=$(mktemp -d "${TMPDIR:-/tmp}/ssimu2-bench.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT

[ -x "$FFMPEG" ] || { echo "ffmpeg not found at $FFMPEG (build first, or set FFMPEG)"; exit 1; }
if ! "$FFMPEG" -hide_banner -loglevel error -nostdin -init_hw_device cuda=gpu \
        -f lavfi -i nullsrc -frames:v 1 -f null - >/dev/null 2>&1; then
    echo "SKIP: no CUDA device"; exit 0
fi
have_filter() { "$FFMPEG" -hide_banner -loglevel quiet -h "filter=$1" 2>/dev/null | grep -q "^Filter $1\$"; }
have_filter ssimulacra2_cuda || { echo "$FFMPEG has no ssimulacra2_cuda filter"; exit 1; }
HAVE_LOOP=0
have_filter loop && HAVE_LOOP=1
[ $HAVE_LOOP = 1 ] || echo "note: no loop filter in this build: frames are generated and uploaded" \
    "every time, so the metric-only numbers are bounded by testsrc2/noise/upload (add 'loop')"

FF=("$FFMPEG" -hide_banner -nostdin -nostats)
HW=(-init_hw_device cuda=gpu -filter_hw_device gpu)
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

# seconds of wall time of a command (ffmpeg's -benchmark rtime)
rtime() { sed -n 's/.*bench: .*rtime=\([0-9.]*\)s.*/\1/p' "$1" | tail -n 1; }

# graph SIZE FMT N OPTS: N frame pairs, 10 distinct ones uploaded once and looped
graph() {
    local size=$1 fmt=$2 nb=$3 opts=$4
    local src="testsrc2=s=$size:r=25:d=0.4,format=yuv420p,split[a][b];[a]noise=alls=12:allf=t,format=$fmt,hwupload"
    if [ $HAVE_LOOP = 1 ]; then
        echo "$src,loop=loop=-1:size=10,trim=end_frame=$nb[d];[b]format=$fmt,hwupload,loop=loop=-1:size=10,trim=end_frame=$nb[r];[d][r]ssimulacra2_cuda=$opts"
    else
        src="testsrc2=s=$size:r=25:d=$(awk -v n="$nb" 'BEGIN { print n / 25 }'),format=yuv420p,split[a][b];[a]noise=alls=12:allf=t,format=$fmt,hwupload"
        echo "$src[d];[b]format=$fmt,hwupload[r];[d][r]ssimulacra2_cuda=$opts"
    fi
}

# peak used memory (MiB) of GPU 0 while a command runs, minus the idle value
mem_run() {
    local out=$1; shift
    local base peak pid
    base=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -i 0 2>/dev/null | head -n 1)
    nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -i 0 -lms 50 > "$W/mem.txt" 2>/dev/null &
    pid=$!
    "$@" > /dev/null 2> "$out"
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
    peak=$(sort -n "$W/mem.txt" | tail -n 1)
    [ -n "$base" ] && [ -n "$peak" ] && echo $((peak - base)) || echo "?"
}

# warm-up: the first PTX JIT of this driver goes to ~/.nv/ComputeCache, not into the timings
"${FF[@]}" "${HW[@]}" -loglevel error -filter_complex "$(graph 64x64 nv12 2 '')" -f null - >/dev/null 2>&1

printf '\n%-28s %10s %12s %11s %12s %9s %10s\n' "metric only (defaults)" "fps" "device ms" \
    "memory MiB" "scratch MiB" "launches" "PTX ms"
for size in 1920x1080 3840x2160; do
    for fmt in nv12 p010; do
        if [ $size = 1920x1080 ]; then n1=200 n2=2200; else n1=50 n2=650; fi
        "${FF[@]}" "${HW[@]}" -benchmark -loglevel info -filter_complex "$(graph $size $fmt $n1 '')" \
            -f null - > /dev/null 2> "$W/a.log"
        mem=$(mem_run "$W/b.log" "${FF[@]}" "${HW[@]}" -benchmark -loglevel verbose \
            -filter_complex "$(graph $size $fmt $n2 profile=1)" -f null -)
        t1=$(rtime "$W/a.log") t2=$(rtime "$W/b.log")
        fps=$(awk -v a="$t1" -v b="$t2" -v n=$((n2 - n1)) 'BEGIN { if (b > a) printf "%.1f", n / (b - a); else print "?" }')
        ms=$(sed -n 's/.*SSIMULACRA2 profile: \([0-9.]*\) ms.*/\1/p' "$W/b.log" | tail -n 1)
        scratch=$(sed -n 's/.*scratch set(s) of \([0-9.]*\) MiB.*/\1/p' "$W/b.log" | tail -n 1)
        sets=$(sed -n 's/.*: \([0-9]*\) scratch set(s).*/\1/p' "$W/b.log" | tail -n 1)
        launches=$(sed -n 's/.*MiB, \([0-9]*\) kernel launches.*/\1/p' "$W/b.log" | tail -n 1)
        ptx=$(sed -n 's/.*PTX module loaded in \([0-9.]*\) ms.*/\1/p' "$W/b.log" | tail -n 1)
        printf '%-28s %10s %12s %11s %12s %9s %10s\n' "$size $fmt" "$fps" "${ms:-?}" "$mem" \
            "${sets:-?}x${scratch:-?}" "${launches:-?}" "${ptx:-?}"
        grep -q "rror" "$W/b.log" && { echo "  errors:"; grep "rror" "$W/b.log" | head -n 3; }
    done
done

# throughput vs frames in flight (queue_depth; max_memory caps the scratch sets)
printf '\n%-28s %10s %10s\n' "nv12, queue_depth" "1080p fps" "4K fps"
for q in 1 2 4 8; do
    line=
    for size in 1920x1080 3840x2160; do
        if [ $size = 1920x1080 ]; then n1=200 n2=2200; else n1=50 n2=650; fi
        "${FF[@]}" "${HW[@]}" -benchmark -loglevel info \
            -filter_complex "$(graph $size nv12 $n1 queue_depth=$q)" -f null - > /dev/null 2> "$W/a.log"
        "${FF[@]}" "${HW[@]}" -benchmark -loglevel info \
            -filter_complex "$(graph $size nv12 $n2 queue_depth=$q)" -f null - > /dev/null 2> "$W/b.log"
        t1=$(rtime "$W/a.log") t2=$(rtime "$W/b.log")
        line="$line $(awk -v a="$t1" -v b="$t2" -v n=$((n2 - n1)) 'BEGIN { if (b > a) printf "%10.1f", n / (b - a); else printf "%10s", "?" }')"
    done
    printf '%-28s%s\n' "  $q" "$line"
done

# end to end on NVDEC clips vs decode only
NV=(-hwaccel cuda -hwaccel_output_format cuda -stream_loop $((LOOPS - 1)))
printf '\n%-28s %8s %14s %14s %12s\n' "NVDEC clips (x$LOOPS)" "frames" "metric fps" "decode fps" "device ms"
for clip in h264_1080p hevc10_2160p av1_1080p; do
    d=$SSIMU2_SAMPLES/clips/${clip}_dist.mp4 r=$SSIMU2_SAMPLES/clips/${clip}_ref.mp4
    [ -f "$d" ] || { d=${d%.mp4}.mkv; r=${r%.mp4}.mkv; }
    [ -f "$d" ] || { printf '%-28s %s\n' "$clip" "clip not found"; continue; }
    if ! "${FF[@]}" -loglevel error -hwaccel cuda -hwaccel_output_format cuda -i "$r" -frames:v 1 -f null - >/dev/null 2>&1; then
        printf '%-28s %s\n' "$clip" "SKIP (NVDEC cannot decode it)"; continue
    fi
    "${FF[@]}" -benchmark -loglevel info "${NV[@]}" -i "$d" "${NV[@]}" -i "$r" \
        -lavfi "[0:v][1:v]ssimulacra2_cuda=profile=1" -f null - > /dev/null 2> "$W/m.log"
    "${FF[@]}" -benchmark -loglevel info "${NV[@]}" -i "$d" "${NV[@]}" -i "$r" \
        -map 0:v -map 1:v -f null - > /dev/null 2> "$W/d.log"
    frames=$(sed -n 's/.*SSIMULACRA2 frames:\([0-9]*\).*/\1/p' "$W/m.log" | tail -n 1)
    tm=$(rtime "$W/m.log") td=$(rtime "$W/d.log")
    ms=$(sed -n 's/.*SSIMULACRA2 profile: \([0-9.]*\) ms.*/\1/p' "$W/m.log" | tail -n 1)
    printf '%-28s %8s %14s %14s %12s\n' "$clip" "${frames:-?}" \
        "$(awk -v n="${frames:-0}" -v t="$tm" 'BEGIN { if (t > 0) printf "%.1f", n / t; else print "?" }')" \
        "$(awk -v n="${frames:-0}" -v t="$td" 'BEGIN { if (t > 0) printf "%.1f", n / t; else print "?" }')" \
        "${ms:-?}"
done
echo
echo "fps: frame pairs per second; metric only = (N2 - N1) / (t(N2) - t(N1)) with frames resent on the GPU."
echo "device ms: mean %globaltimer span of one frame's kernel chain (overlapping frames overlap here)."
echo "memory: peak nvidia-smi memory.used minus idle, whole process (CUDA context, looped frames, scratch)."
echo "NVDEC: whole runs incl. start-up; decode fps = both inputs decoded, no filter."
