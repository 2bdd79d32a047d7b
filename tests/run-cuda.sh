#!/usr/bin/env bash
# Parity of ssimulacra2_cuda with the CPU filter ssimulacra2: the same frames through both,
# per-frame scores compared from the json logs (%.17g text, so equal text = equal doubles).
#   1. the 160 image pairs of $SSIMU2_SAMPLES/ssimulacra2-ref (uploaded as rgb0/bgr0/rgba/yuv444p);
#   2. the y4m clip pair of ssimulacra2-video (yuv420p upload), also with queue_depth 1 and 8,
#      n_subsample=3, and the frames' order/pts/metadata after the filter;
#   3. the NVDEC clips (h264 -> nv12, hevc10 -> p010; av1 if NVDEC has it) against software decode;
#   4. generated content of odd sizes in nv12, p010, yuv420p, yuv444p, yuv444p16, rgba, ...
#   5. inputs of different formats (one convert launch each) and of different colour tags;
#   6. robustness cases through the CUDA filter (tests/run-cuda-robustness.sh);
#   7. software frames given straight to ssimulacra2_cuda (it uploads them): image pairs in
#      their decoders' formats, the y4m pair, every format of the CPU filter, NVDEC + software;
#   8. the ring layout (max_memory=1): NVDEC clips, the y4m pair, generated content,
#      software frames, inputs of two formats; 9. the tasks layout likewise.
# Environment: FFMPEG [<repo>/build/ffmpeg], SSIMU2_SAMPLES [<repo>/../shared/testdata],
#              KEEP=1 keeps the work directory.
# Exit: 0 all equal (or no CUDA device: SKIP), 1 any mismatch or error.
set -u

. "$(dirname "$0")/lib/common.sh"
W=$(mktemp -d "${TMPDIR:-/tmp}/ssimu2-cuda.XXXXXX") || exit 1
if [ "${KEEP:-0}" = 1 ]; then echo "work directory: $W"; else trap 'rm -rf "$W"' EXIT; fi

[ -x "$FFMPEG" ] || { echo "FAIL: ffmpeg not found at $FFMPEG (build first, or set FFMPEG)"; exit 1; }
if ! "$FFMPEG" -hide_banner -loglevel error -nostdin -init_hw_device cuda=gpu \
        -f lavfi -i nullsrc -frames:v 1 -f null - >/dev/null 2>&1; then
    echo "SKIP: no CUDA device (ssimulacra2_cuda tests not run)"
    exit 0
fi
for f in ssimulacra2 ssimulacra2_cuda hwupload; do
    "$FFMPEG" -hide_banner -loglevel quiet -h "filter=$f" 2>/dev/null | grep -q "^Filter $f\$" ||
        { echo "FAIL: $FFMPEG has no $f filter"; exit 1; }
done

FF=("$FFMPEG" -hide_banner -nostdin -loglevel error)
HW=(-init_hw_device cuda=gpu -filter_hw_device gpu)
NVDEC=(-hwaccel cuda -hwaccel_output_format cuda)
frames=0 mismatches=0 errors=0 n=0

# compare LABEL CPU_LOG GPU_LOG: one output line; counts frames and mismatches
compare() {
    local label=$1 a=$2 b=$3 res
    if [ ! -s "$a" ] || [ ! -s "$b" ]; then
        local which=cpu err=${a%.json}.err
        [ -s "$a" ] && { which=gpu; err=${b%.json}.err; }
        printf 'ERROR  %-60s %s run failed: %s\n' "$label" "$which" "$(tail -n 1 "$err" 2>/dev/null)"
        errors=$((errors + 1)); mismatches=$((mismatches + 1)); return
    fi
    s2_frame_scores "$a" > "$a.txt"; s2_frame_scores "$b" > "$b.txt"
    res=$(awk 'NR == FNR { cpu[$1] = $2; order[++n] = $1; next }
               { gpu[$1] = $2; m++ }
               END {
                   bad = 0; worst = 0
                   for (i = 1; i <= n; i++) {
                       f = order[i]
                       if (!(f in gpu) || gpu[f] != cpu[f]) {
                           bad++
                           if (f in gpu) { d = gpu[f] - cpu[f]; if (d < 0) d = -d; if (d > worst) worst = d }
                           else worst = "missing"
                           if (!first) first = f
                       }
                   }
                   if (m != n) bad += (m > n ? m - n : 0)
                   printf "%d %d %s %s\n", n, bad, worst, first ""
               }' "$a.txt" "$b.txt")
    set -- $res
    frames=$((frames + $1))
    if [ "$1" = 0 ]; then
        printf 'ERROR  %-60s empty log\n' "$label"; errors=$((errors + 1)); mismatches=$((mismatches + 1))
    elif [ "$2" = 0 ]; then
        printf 'ok     %-60s %4d frames equal (first %s)\n' "$label" "$1" "$(head -n 1 "$a.txt" | cut -d' ' -f2)"
    else
        printf 'DIFF   %-60s %4d frames, %d differ (max |delta| %s, first frame %s)\n' "$label" "$1" "$2" "$3" "${4:-?}"
        mismatches=$((mismatches + $2))
    fi
}

# run_both LABEL PRE CPU-ARGS... -- GPU-ARGS...: one ffmpeg run of each filter on its
# arguments (inputs and their options), PRE being the graph before the filter (e.g.
# "[0:v][1:v]"), then compare
run_both() {
    local label=$1 pre=$2 cpu=()
    shift 2
    while [ "$1" != -- ]; do cpu+=("$1"); shift; done
    shift
    n=$((n + 1))
    local c=$W/c$n.json g=$W/g$n.json
    "${FF[@]}" "${cpu[@]}" -lavfi "${pre}ssimulacra2=log_path=$c:log_fmt=json" -f null - 2> "$W/c$n.err"
    "${FF[@]}" "$@" -lavfi "${pre}ssimulacra2_cuda=log_path=$g:log_fmt=json${GOPTS:-}" -f null - 2> "$W/g$n.err"
    compare "$label" "$c" "$g"
}

# run_pair LABEL FMT DIST REF [input options...]: image or clip pair, uploaded as FMT
run_pair() {
    local label=$1 fmt=$2 dist=$3 ref=$4; shift 4
    n=$((n + 1))
    local c=$W/c$n.json g=$W/g$n.json
    "${FF[@]}" "$@" -i "$dist" "$@" -i "$ref" -lavfi \
        "[0:v]format=$fmt[d];[1:v]format=$fmt[r];[d][r]ssimulacra2=log_path=$c:log_fmt=json" \
        -f null - 2> "$W/c$n.err"
    "${FF[@]}" "${HW[@]}" "$@" -i "$dist" "$@" -i "$ref" -lavfi \
        "[0:v]format=$fmt,hwupload[d];[1:v]format=$fmt,hwupload[r];[d][r]ssimulacra2_cuda=log_path=$g:log_fmt=json${GOPTS:-}" \
        -f null - 2> "$W/g$n.err"
    compare "$label" "$c" "$g"
}

# run_gen LABEL FMT SIZE SOURCE [OPTS [UPLOAD]]: generated reference and distortion (noise +
# blur), generated once and read by both filters (see s2_gen_pair); UPLOAD=0 gives the CUDA
# filter the software frames themselves
run_gen() {
    local label=$1 fmt=$2 size=$3 src=$4 opts=${5:-} upload=${6:-1}
    n=$((n + 1))
    local c=$W/c$n.json g=$W/g$n.json d=$W/d$n.raw r=$W/r$n.raw up="[0:v]hwupload[d];[1:v]hwupload[r];[d][r]"
    local in=(-f rawvideo -pix_fmt "$fmt" -video_size "$size" -framerate 10)
    [ "$upload" = 1 ] || up="[0:v][1:v]"
    s2_gen_pair "$src" "$size" "$fmt" 0.5 "$d" "$r" 2> "$W/c$n.err"
    "${FF[@]}" "${in[@]}" -i "$d" "${in[@]}" -i "$r" -lavfi \
        "[0:v][1:v]ssimulacra2=log_path=$c:log_fmt=json" -f null - 2>> "$W/c$n.err"
    "${FF[@]}" "${HW[@]}" "${in[@]}" -i "$d" "${in[@]}" -i "$r" -lavfi \
        "${up}ssimulacra2_cuda=log_path=$g:log_fmt=json$opts" -f null - 2> "$W/g$n.err"
    rm -f "$d" "$r"
    compare "$label" "$c" "$g"
}

# 1. image pairs
csv=$SSIMU2_SAMPLES/ssimulacra2-ref/scores.csv
if [ -f "$csv" ]; then
    fmts=(rgb0 bgr0 rgba yuv444p)
    i=0
    while IFS=, read -r ref dist score width height distortion; do
        [ "$ref" = ref ] && continue
        fmt=${fmts[$((i % 4))]}; i=$((i + 1))
        run_pair "image $(basename "$dist") $fmt" "$fmt" \
            "$SSIMU2_SAMPLES/ssimulacra2-ref/$dist" "$SSIMU2_SAMPLES/ssimulacra2-ref/$ref"
    done < "$csv"
else
    echo "SKIP: image pairs ($csv not found)"
fi

# 2. y4m clip pair
vd=$SSIMU2_SAMPLES/ssimulacra2-video
if [ -f "$vd/picosdeeuropa_320x240_24f_ref.y4m" ]; then
    vdist=$vd/picosdeeuropa_320x240_24f_x264_crf30.y4m vref=$vd/picosdeeuropa_320x240_24f_ref.y4m
    run_pair "video y4m yuv420p" yuv420p "$vdist" "$vref" -colorspace bt709
    for opt in queue_depth=1 queue_depth=8 n_subsample=3; do
        n=$((n + 1))
        c=$W/c$n.json g=$W/g$n.json
        copt=$opt; [ "${opt%%=*}" = queue_depth ] && copt=
        "${FF[@]}" -colorspace bt709 -i "$vdist" -colorspace bt709 -i "$vref" -lavfi \
            "[0:v][1:v]ssimulacra2=log_path=$c:log_fmt=json${copt:+:$copt},metadata=print:file=$W/c$n.meta" \
            -f null - 2> "$W/c$n.err"
        "${FF[@]}" "${HW[@]}" -colorspace bt709 -i "$vdist" -colorspace bt709 -i "$vref" -lavfi \
            "[0:v]hwupload[d];[1:v]hwupload[r];[d][r]ssimulacra2_cuda=log_path=$g:log_fmt=json:$opt,metadata=print:file=$W/g$n.meta" \
            -f null - 2> "$W/g$n.err"
        compare "video y4m $opt" "$c" "$g"
        # frame order, pts and metadata of every output frame (scored or not)
        if [ -s "$W/c$n.meta" ] && cmp -s "$W/c$n.meta" "$W/g$n.meta"; then
            printf 'ok     %-60s %4d output frames identical (pts, metadata)\n' "video y4m $opt output" \
                "$(grep -c '^frame:' "$W/c$n.meta")"
        else
            printf 'DIFF   %-60s output frames differ (order, pts or metadata)\n' "video y4m $opt output"
            mismatches=$((mismatches + 1))
        fi
    done
else
    echo "SKIP: y4m clip pair ($vd not found)"
fi

# 3. NVDEC vs software decode
cd_=$SSIMU2_SAMPLES/clips
for clip in h264_1080p hevc10_2160p av1_1080p; do
    d=$cd_/${clip}_dist.mp4 r=$cd_/${clip}_ref.mp4
    [ -f "$d" ] || { d=$cd_/${clip}_dist.mkv; r=$cd_/${clip}_ref.mkv; }
    [ -f "$d" ] || { echo "SKIP: $clip (clip not found)"; continue; }
    if ! "${FF[@]}" "${NVDEC[@]}" -i "$r" -frames:v 1 -f null - >/dev/null 2>&1; then
        echo "SKIP: $clip (NVDEC cannot decode it here)"; continue
    fi
    if ! "${FF[@]}" -i "$r" -frames:v 1 -f null - >/dev/null 2>&1; then
        echo "SKIP: $clip (no software decoder in this build)"; continue
    fi
    run_both "nvdec $clip" "[0:v][1:v]" -i "$d" -i "$r" -- "${NVDEC[@]}" -i "$d" "${NVDEC[@]}" -i "$r"
done

# 4. generated content
sizes="8x8 9x13 31x17 64x112 113x200 257x129 1001x751"
for fmt in nv12 p010 yuv420p yuv444p yuv444p16 rgba yuv422p yuv420p10 bgr0 nv16 p210; do
    for size in $sizes; do
        for src in testsrc2 testsrc; do
            [ $src = testsrc ] && [ "$size" != 113x200 ] && [ "$size" != 9x13 ] && continue
            run_gen "gen $src $size $fmt" "$fmt" "$size" "$src"
        done
    done
done
# alpha and queue variants on one size
run_gen "gen testsrc2 257x129 rgba queue_depth=1" rgba 257x129 testsrc2 ":queue_depth=1"
run_gen "gen testsrc2 257x129 nv12 queue_depth=8" nv12 257x129 testsrc2 ":queue_depth=8"

# 5. inputs of different formats and tags: each filter reads the same raw frames
# run_mixed LABEL DIST_FMT REF_FMT SIZE [DIST_TAGS REF_TAGS]: generated in yuv444p16, converted once
run_mixed() {
    local label=$1 df=$2 rf=$3 size=$4 dt=${5:-} rt=${6:-}
    n=$((n + 1))
    local c=$W/c$n.json g=$W/g$n.json d=$W/d$n.raw r=$W/r$n.raw
    s2_gen_pair testsrc2 "$size" yuv444p16 0.5 "$d.16" "$r.16" 2> "$W/c$n.err"
    local in=(-f rawvideo -pix_fmt yuv444p16 -video_size "$size" -framerate 10)
    "${FF[@]}" "${in[@]}" -i "$d.16" -pix_fmt "$df" -f rawvideo "$d" 2>> "$W/c$n.err"
    "${FF[@]}" "${in[@]}" -i "$r.16" -pix_fmt "$rf" -f rawvideo "$r" 2>> "$W/c$n.err"
    local din=(-f rawvideo -pix_fmt "$df" -video_size "$size" -framerate 10)
    local rin=(-f rawvideo -pix_fmt "$rf" -video_size "$size" -framerate 10)
    local tags="[0:v]${dt:-null}[d0];[1:v]${rt:-null}[r0]"
    "${FF[@]}" "${din[@]}" -i "$d" "${rin[@]}" -i "$r" -lavfi \
        "$tags;[d0][r0]ssimulacra2=log_path=$c:log_fmt=json" -f null - 2>> "$W/c$n.err"
    "${FF[@]}" "${HW[@]}" "${din[@]}" -i "$d" "${rin[@]}" -i "$r" -lavfi \
        "$tags;[d0]hwupload[d];[r0]hwupload[r];[d][r]ssimulacra2_cuda=log_path=$g:log_fmt=json${GOPTS:-}" \
        -f null - 2> "$W/g$n.err"
    rm -f "$d" "$r" "$d.16" "$r.16"
    compare "$label" "$c" "$g"
}
for pair in nv12,p010 p010,nv12 yuv420p,yuv444p16 rgba,nv12 nv12,rgba bgr0,yuv444p yuv444p,bgr0 p210,yuv420p; do
    run_mixed "mixed ${pair%,*} vs ${pair#*,} 257x129" "${pair%,*}" "${pair#*,}" 257x129
done
run_mixed "tags: distorted bt709/topleft, reference untagged" nv12 nv12 320x240 \
    "setparams=colorspace=bt709:range=tv:chroma_location=topleft" ""
run_mixed "tags: matrix differs, 8-bit vs 10-bit" yuv420p p010 320x240 \
    "setparams=colorspace=bt470bg" "setparams=colorspace=bt709:chroma_location=left"

# 7. software frames straight into the CUDA filter (no hwupload, no -init_hw_device)
# run_sw LABEL DIST REF [input options...]: both filters read the decoders' own frames
run_sw() {
    local label=$1 dist=$2 ref=$3; shift 3
    run_both "$label" "[0:v][1:v]" "$@" -i "$dist" "$@" -i "$ref" -- "$@" -i "$dist" "$@" -i "$ref"
}
if [ -f "$csv" ]; then
    i=0
    while IFS=, read -r ref dist score width height distortion; do
        [ "$ref" = ref ] && continue
        i=$((i + 1)); [ $((i % 4)) = 1 ] || continue
        run_sw "software image $(basename "$dist")" \
            "$SSIMU2_SAMPLES/ssimulacra2-ref/$dist" "$SSIMU2_SAMPLES/ssimulacra2-ref/$ref"
    done < "$csv"
fi
[ -n "${vdist:-}" ] && run_sw "software video y4m yuv420p" "$vdist" "$vref" -colorspace bt709
all_fmts=$(s2_code_formats "$S2_ROOT/libavfilter/ssimulacra2_formats.c" ff_ssimulacra2_pix_fmts)
[ -n "$all_fmts" ] || { echo "ERROR  the CPU filter's format list (libavfilter/ssimulacra2_formats.c)"; errors=$((errors + 1)); }
for fmt in $all_fmts; do
    for size in 9x13 257x129; do
        run_gen "software $size $fmt" "$fmt" "$size" testsrc2 "" 0
    done
done
run_gen "software 257x129 yuv420p queue_depth=1" yuv420p 257x129 testsrc2 ":queue_depth=1" 0
run_gen "software 257x129 rgba max_memory=1" rgba 257x129 testsrc2 ":max_memory=1" 0
run_gen "software 1001x751 p010 queue_depth=16" p010 1001x751 testsrc2 ":queue_depth=16" 0
# negative linesizes (vflip), and the copy on one thread
[ -n "${vdist:-}" ] && run_both "software video y4m, vflip (negative linesizes)" \
    "[0:v]vflip[a];[1:v]vflip[b];[a][b]" -i "$vdist" -i "$vref" -- -i "$vdist" -i "$vref"
d=$cd_/h264_1080p_dist.mp4 r=$cd_/h264_1080p_ref.mp4
[ -f "$d" ] && run_both "software h264_1080p, one filter thread" "[0:v][1:v]" -i "$d" -i "$r" -- \
    -filter_complex_threads 1 -i "$d" -i "$r"
# one input NVDEC, the other software
if [ -f "$d" ] && "${FF[@]}" "${NVDEC[@]}" -i "$r" -frames:v 1 -f null - >/dev/null 2>&1; then
    run_both "nvdec h264_1080p distorted, software reference" "[0:v][1:v]" -i "$d" -i "$r" -- \
        "${NVDEC[@]}" -i "$d" -i "$r"
fi

# 6. robustness cases through the CUDA filter
bash "$S2_TESTS/run-cuda-robustness.sh"
case $? in 0|77) ;; *) echo "FAIL: cuda robustness cases"; errors=$((errors + 1)); mismatches=$((mismatches + 1)) ;; esac

# 8. the ring layout, which the filter takes when not one set of the others fits in
# max_memory (here 1 MiB: every size below has larger sets of them)
GOPTS=:max_memory=1
for clip in h264_1080p hevc10_2160p; do
    d=$cd_/${clip}_dist.mp4 r=$cd_/${clip}_ref.mp4
    [ -f "$d" ] && "${FF[@]}" "${NVDEC[@]}" -i "$r" -frames:v 1 -f null - >/dev/null 2>&1 &&
        run_both "ring: nvdec $clip" "[0:v][1:v]" -i "$d" -i "$r" -- "${NVDEC[@]}" -i "$d" "${NVDEC[@]}" -i "$r"
done
[ -n "${vdist:-}" ] && run_pair "ring: video y4m yuv420p" yuv420p "$vdist" "$vref" -colorspace bt709
for fmt in nv12 p010 rgba yuv444p16; do
    for size in 113x200 257x129 1001x751; do
        run_gen "ring: gen testsrc2 $size $fmt" "$fmt" "$size" testsrc2 "$GOPTS"
    done
done
run_gen "ring: software 257x129 gbrp10" gbrp10 257x129 testsrc "$GOPTS" 0
# scale 0's ring of XYB strips wrapped many times, inputs of two formats converted by one launch
run_gen "ring: software 1001x751 yuv420p" yuv420p 1001x751 testsrc "$GOPTS" 0
run_mixed "ring: mixed nv12 vs p010 1001x751" nv12 p010 1001x751
run_mixed "ring: mixed rgba vs yuv420p 641x97" rgba yuv420p 641x97
# 9. the tasks layout (scale 0's XYB whole, converted by the convert kernels), where two of
# its sets fit and two of the planes do not: 1080p at 200 MiB, 2160p at 700, 1001x751 at 100
for clip in h264_1080p:200 hevc10_2160p:700; do
    GOPTS=:max_memory=${clip#*:} clip=${clip%:*}
    d=$cd_/${clip}_dist.mp4 r=$cd_/${clip}_ref.mp4
    [ -f "$d" ] && "${FF[@]}" "${NVDEC[@]}" -i "$r" -frames:v 1 -f null - >/dev/null 2>&1 &&
        run_both "tasks: nvdec $clip" "[0:v][1:v]" -i "$d" -i "$r" -- "${NVDEC[@]}" -i "$d" "${NVDEC[@]}" -i "$r"
done
GOPTS=:max_memory=100
for fmt in nv12 p010 rgba; do
    run_gen "tasks: gen testsrc2 1001x751 $fmt" "$fmt" 1001x751 testsrc2 "$GOPTS"
done
run_gen "tasks: software 1001x751 yuv420p" yuv420p 1001x751 testsrc "$GOPTS" 0
run_mixed "tasks: mixed nv12 vs p010 1001x751" nv12 p010 1001x751
GOPTS=

echo "cuda parity: $frames frames compared, $mismatches mismatches"
[ "$errors" = 0 ] || echo "($errors comparison(s) could not run; rerun with KEEP=1 to keep the logs)"
[ "$mismatches" = 0 ] || exit 1
exit 0
