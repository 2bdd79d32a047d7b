#!/usr/bin/env bash
# Benchmark of ssimulacra2_cuda on the GPU of this machine; prints tables.
# Method of issue 10 (so that figures compare with it): two testsrc2 inputs at 25 fps, the
# distorted one with noise=alls=8:allf=t, 3 distinct frames repeated by loop=loop=L:size=3
# (9003 frames at 1080p, 3003 at 2160p), fps = frames / wall time of the whole ffmpeg process
# (CUDA start-up included), after a warm-up run (PTX JIT cached); "after start-up" beside it is
# ffmpeg -benchmark's rtime, which starts once the inputs are open and the device is created.
#   - metric only: loop after hwupload (CUDA frames on one -init_hw_device device);
#   - host frames: loop on software frames, given to the filter as they are (it uploads them),
#     and the same through hwupload for comparison;
#   - max_memory and queue_depth sweeps; peak device memory of the process (nvidia-smi);
#   - 4 processes on the GPU at once against one;
#   - NVDEC clip pairs end to end against decode only and against a graph that only passes the
#     two decoded streams through (what any two-input filter costs in ffmpeg).
# Environment: FFMPEG [<repo>/build/ffmpeg], SSIMU2_SAMPLES [<repo>/../shared/testdata],
#              LOOPS (NVDEC clip repetitions, default 5), SCALE (frame counts x SCALE, default 1),
#              RUNS (processes per figure of the first table, the sweeps and the NVDEC
#              table, whose median is printed; default 1),
#              QUICK=1 (the first table only: for trying a change), MEMORY=1 (the max_memory
#              sweep only), NVDEC=1 (the NVDEC table only).
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
FFMPEG=${FFMPEG:-$ROOT/build/ffmpeg}
SSIMU2_SAMPLES=${SSIMU2_SAMPLES:-$ROOT/../shared/testdata}
LOOPS=${LOOPS:-5}
SCALE=${SCALE:-1}
RUNS=${RUNS:-1}
W=$(mktemp -d "${TMPDIR:-/tmp}/ssimu2-bench.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT

[ -x "$FFMPEG" ] || { echo "ffmpeg not found at $FFMPEG (build first, or set FFMPEG)"; exit 1; }
# kernels whose variables spill to local memory (the row form once kept its state there and
# read its coefficients from memory at every step: 1.6x slower); from the build's PTX
PTX=$ROOT/build/obj/libavfilter/vf_ssimulacra2_cuda.ptx
if [ -f "$PTX" ]; then
    spill=$(awk '/^.visible .entry/ { k = $3; sub(/\(.*/, "", k) } /__local_depot/ && k { print k; k = "" }' "$PTX" | tr '\n' ' ')
    echo "kernels using local memory (PTX): ${spill:-none}"
fi
if ! "$FFMPEG" -hide_banner -loglevel error -nostdin -init_hw_device cuda=gpu \
        -f lavfi -i nullsrc -frames:v 1 -f null - >/dev/null 2>&1; then
    echo "SKIP: no CUDA device"; exit 0
fi
have_filter() { "$FFMPEG" -hide_banner -loglevel quiet -h "filter=$1" 2>/dev/null | grep -q "^Filter $1\$"; }
for f in ssimulacra2_cuda loop noise; do
    have_filter $f || { echo "$FFMPEG has no $f filter"; exit 1; }
done

FF=("$FFMPEG" -hide_banner -nostdin -nostats)
HW=(-init_hw_device cuda=gpu -filter_hw_device gpu)
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

# seconds from ffmpeg's -benchmark line: rtime starts after the inputs are opened and
# -init_hw_device has created the CUDA context, so it leaves the start-up out
rtime() { sed -n 's/.*bench: .*rtime=\([0-9.]*\)s.*/\1/p' "$1" | tail -n 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { print b - a }'; }
fps_of() { awk -v n="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.0f", n / t; else print "?" }'; }
loops() { awk -v s="$SCALE" -v n="$1" 'BEGIN { v = int(n * s); print v < 1 ? 1 : v }'; }

# graph SIZE FMT LOOPS WHERE OPTS: WHERE = gpu (loop on CUDA frames), host (loop on software
# frames given to the filter), hwupload (loop on software frames, then hwupload)
graph() {
    local size=$1 fmt=$2 l=$3 where=$4 opts=$5 pre= post=
    case $where in
    gpu)      pre=",hwupload" ;;
    hwupload) post=",hwupload" ;;
    esac
    echo "testsrc2=s=$size:r=25:d=0.12,format=$fmt$pre,loop=loop=$l:size=3$post[r];" \
         "testsrc2=s=$size:r=25:d=0.12,noise=alls=8:allf=t,format=$fmt$pre,loop=loop=$l:size=3$post[d];" \
         "[d][r]ssimulacra2_cuda=$opts" | tr -d '\n'
}

# peak used memory (MiB) of GPU 0 while a command runs, minus the idle value
mem_run() {
    local out=$1; shift
    local base peak pid t0
    base=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -i 0 2>/dev/null | head -n 1)
    nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -i 0 -lms 50 > "$W/mem.txt" 2>/dev/null &
    pid=$!
    # the poller's own start-up stays out of the timed region
    for _ in $(seq 40); do [ -s "$W/mem.txt" ] && break; sleep 0.05; done
    t0=$(now)
    "$@" > /dev/null 2> "$out"
    since "$t0" > "$W/wall.txt"
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
    peak=$(sort -n "$W/mem.txt" | tail -n 1)
    [ -n "$base" ] && [ -n "$peak" ] && echo $((peak - base)) || echo "?"
}

# the median of numbers (the upper one of an even count)
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int(NR / 2) + 1] }'; }

# run SIZE FMT WHERE OPTS [LOOPS]: prints "fps memory scratch fps_after_startup", the
# medians of RUNS processes (memory: the last one's)
run() {
    local size=$1 fmt=$2 where=$3 opts=$4 l=${5:-} n mem fps= fps_r= scratch sets layout
    [ -n "$l" ] || { [ "$size" = 1920x1080 ] && l=$(loops 3000) || l=$(loops 1000); }
    n=$((3 * (l + 1)))
    for _ in $(seq "$RUNS"); do
        mem=$(mem_run "$W/run.log" "${FF[@]}" "${HW[@]}" -benchmark -loglevel verbose \
              -filter_complex "$(graph "$size" "$fmt" "$l" "$where" "$opts")" -f null -)
        fps="$fps $(fps_of "$n" "$(cat "$W/wall.txt")")"
        fps_r="$fps_r $(fps_of "$n" "$(rtime "$W/run.log")")"
    done
    fps=$(median $fps)
    fps_r=$(median $fps_r)
    scratch=$(sed -n 's/.*scratch set(s) of \([0-9.]*\) MiB.*/\1/p' "$W/run.log" | tail -n 1)
    sets=$(sed -n 's/.*: \([0-9]*\) scratch set(s).*/\1/p' "$W/run.log" | tail -n 1)
    layout=$(sed -n 's/.*scratch set(s) .* MiB, blurred planes.*/planes/p; s/.*scratch set(s) .* MiB, blur tasks converting.*/ring/p; s/.*scratch set(s) .* MiB, blur tasks.*/tasks/p' "$W/run.log" | tail -n 1)
    [ "${layout:-planes}" != planes ] && layout=$layout:$(sed -n 's/.*blur: \([0-9]*\) blocks per frame.*/\1/p' "$W/run.log" | tail -n 1)
    grep -q "rror" "$W/run.log" && { fps="ERR"; grep "rror" "$W/run.log" | head -n 2 >&2; }
    echo "$fps $mem ${sets:-?}x${scratch:-?}${layout:+,$layout} $fps_r"
}

# end to end on NVDEC clips vs decode only, and vs a graph that passes both streams through
# (what any two-input graph costs in ffmpeg: its scheduler chokes the decoder of the input the
# graph does not want now, so the two decoders run in turn; doc/notes.md, NVDEC)
nvdec_table() {
    NV=(-hwaccel cuda -hwaccel_output_format cuda -stream_loop $((LOOPS - 1)))
    printf '\n%-22s %7s %11s %11s %11s %13s %11s\n' "NVDEC clips (x$LOOPS)" "frames" "metric fps" \
        "decode fps" "graph fps" "metric/decode" "metric/graph"
    nv_wall() {
        local t0
        t0=$(now)
        "${FF[@]}" -loglevel info "${NV[@]}" -i "$d" "${NV[@]}" -i "$r" "$@" -f null - > /dev/null 2> "$W/nv.log"
        since "$t0"
    }
    # the median of RUNS runs (the output of the last stays in $W/nv.log)
    nv_median() {
        local t=""
        for _ in $(seq "$RUNS"); do t="$t $(nv_wall "$@")"; done
        median $t
    }
    for clip in h264_1080p hevc10_2160p av1_1080p; do
        d=$SSIMU2_SAMPLES/clips/${clip}_dist.mp4 r=$SSIMU2_SAMPLES/clips/${clip}_ref.mp4
        [ -f "$d" ] || { d=${d%.mp4}.mkv; r=${r%.mp4}.mkv; }
        [ -f "$d" ] || { printf '%-22s %s\n' "$clip" "clip not found"; continue; }
        if ! "${FF[@]}" -loglevel error -hwaccel cuda -hwaccel_output_format cuda -i "$r" -frames:v 1 -f null - >/dev/null 2>&1; then
            printf '%-22s %s\n' "$clip" "SKIP (NVDEC cannot decode it)"; continue
        fi
        tm=$(nv_median -lavfi "[0:v][1:v]ssimulacra2_cuda")
        frames=$(sed -n 's/.*SSIMULACRA2 frames:\([0-9]*\).*/\1/p' "$W/nv.log" | tail -n 1)
        td=$(nv_median -map 0:v -map 1:v)
        tg=$(nv_median -lavfi "[0:v]null[a];[1:v]null[b]" -map "[a]" -map "[b]")
        printf '%-22s %7s %11s %11s %11s %13s %11s\n' "$clip" "${frames:-?}" "$(fps_of "${frames:-0}" "$tm")" \
            "$(fps_of "${frames:-0}" "$td")" "$(fps_of "${frames:-0}" "$tg")" \
            "$(awk -v a="$td" -v b="$tm" 'BEGIN { if (b > 0) printf "%.2f", a / b }')" \
            "$(awk -v a="$tg" -v b="$tm" 'BEGIN { if (b > 0) printf "%.2f", a / b }')"
    done
}

# warm-up: the first PTX JIT of this driver goes to ~/.nv/ComputeCache, not into the timings
"${FF[@]}" "${HW[@]}" -loglevel error -filter_complex "$(graph 64x64 nv12 1 gpu '')" -f null - >/dev/null 2>&1
[ "${NVDEC:-0}" = 1 ] && { nvdec_table; exit 0; }

if [ "${MEMORY:-0}" != 1 ]; then
    printf '\n%-40s %8s %15s %11s %14s\n' "defaults (9003 frames 1080p, 3003 2160p)" "fps" "after start-up" \
        "memory MiB" "scratch MiB"
    for row in "1920x1080 nv12 gpu" "1920x1080 p010 gpu" "3840x2160 nv12 gpu" "3840x2160 p010 gpu" \
               "1920x1080 yuv420p host" "3840x2160 yuv420p host" \
               "1920x1080 yuv420p hwupload" "3840x2160 yuv420p hwupload"; do
        read -r size fmt where <<< "$row"
        case $where in gpu) what="metric only" ;; host) what="host frames" ;; *) what="host, hwupload" ;; esac
        read -r fps mem scratch fps_r <<< "$(run "$size" "$fmt" "$where" "")"
        printf '%-40s %8s %15s %11s %14s\n' "$what ${size#*x}p $fmt" "$fps" "$fps_r" "$mem" "$scratch"
    done
fi
[ "${QUICK:-0}" = 1 ] && exit 0

# the sweeps compare settings on short runs: fps after start-up, which the ~0.3 s of CUDA
# start-up would flatten
printf '\n%-20s %10s %10s %16s %10s %10s %16s\n' "max_memory (MiB)" "1080p fps*" "1080p MiB" "1080p scratch" \
    "2160p fps*" "2160p MiB" "2160p scratch"
for m in 64 128 256 512 1024 2048 auto; do
    read -r _ am as a <<< "$(run 1920x1080 nv12 gpu "max_memory=$m" "$(loops 1000)")"
    read -r _ bm bs b <<< "$(run 3840x2160 p010 gpu "max_memory=$m" "$(loops 300)")"
    printf '%-20s %10s %10s %16s %10s %10s %16s\n' "  $m$([ $m = auto ] && echo ' (default)')" "$a" "$am" "$as" \
        "$b" "$bm" "$bs"
done

[ "${MEMORY:-0}" = 1 ] && exit 0

printf '\n%-28s %12s %12s\n' "queue_depth (nv12)" "1080p fps*" "2160p fps*"
for q in 1 2 4 8; do
    read -r _ _ _ a <<< "$(run 1920x1080 nv12 gpu "queue_depth=$q" "$(loops 1000)")"
    read -r _ _ _ b <<< "$(run 3840x2160 nv12 gpu "queue_depth=$q" "$(loops 300)")"
    printf '%-28s %12s %12s\n' "  $q" "$a" "$b"
done

# several processes on one GPU (encode ladders score rungs in parallel); both figures are
# whole processes, so the CUDA start-up counts on both sides
l=$(loops 1000); n=$((3 * (l + 1)))
t0=$(now)
"${FF[@]}" "${HW[@]}" -loglevel error -filter_complex "$(graph 1920x1080 nv12 "$l" gpu '')" -f null - \
    > /dev/null 2> "$W/p0.log"
one=$(fps_of "$n" "$(since "$t0")")
t0=$(now)
for i in 1 2 3 4; do
    "${FF[@]}" "${HW[@]}" -loglevel error -filter_complex "$(graph 1920x1080 nv12 "$l" gpu '')" -f null - \
        > /dev/null 2> "$W/p$i.log" &
done
wait
agg=$(fps_of $((4 * n)) "$(since "$t0")")
printf '\n%-40s %8s fps, one process %s fps: %s\n' "4 processes at once, 1080p nv12" "$agg" "$one" \
    "$(awk -v a="$agg" -v o="$one" 'BEGIN { if (o > 0) printf "%.2f", a / o }')"

nvdec_table
echo
echo "fps: frame pairs per second of the whole ffmpeg process (start-up included); after start-up"
echo "     (and fps*): the same frames over ffmpeg -benchmark's rtime (from open inputs and device"
echo "     to the end)."
echo "memory: peak nvidia-smi memory.used minus idle, whole process (CUDA context, frames, scratch)."
echo "scratch: sets x MiB (one set per frame in flight, within max_memory), and the layout:"
echo "     planes = the blurred planes (fastest), tasks = the blur tasks (small; taken where"
echo "     fewer than two sets of the planes fit and two of its own do, or not one of the"
echo "     planes; tasks:N = N blocks per frame)."
echo "NVDEC: whole-process times of the same inputs; metric/decode = decode-only time / metric time"
echo "     (1.00: scoring costs nothing), metric/graph = pass-through graph time / metric time."
