#!/usr/bin/env bash
# Repeats small generated cases of the CUDA parity test many times, to catch
# timing-dependent (racy) results that one run of tests/run-cuda.sh can miss.
# Usage: tools/cuda-stress.sh [RUNS]   (default 20)
# Environment: FFMPEG [<repo>/build/ffmpeg]. Exit 1 if any run differs from the CPU filter.
set -u
. "$(dirname "$0")/../tests/lib/common.sh"
RUNS=${1:-20}
W=$(mktemp -d "${TMPDIR:-/tmp}/ssimu2-stress.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
FF=("$FFMPEG" -hide_banner -nostdin -loglevel error)
HW=(-init_hw_device cuda=gpu -filter_hw_device gpu)
rc=0
for t in "testsrc 9x13 bgr0" "testsrc 9x13 rgba" "testsrc2 8x8 nv12" "testsrc 31x17 yuv420p" \
         "testsrc 113x200 bgr0" "testsrc2 257x129 p010"; do
    set -- $t
    in=(-f rawvideo -pix_fmt "$3" -video_size "$2" -framerate 10)
    s2_gen_pair "$1" "$2" "$3" 1 "$W/d.raw" "$W/r.raw"
    "${FF[@]}" "${in[@]}" -i "$W/d.raw" "${in[@]}" -i "$W/r.raw" \
        -lavfi "[0:v][1:v]ssimulacra2=log_path=$W/c.json:log_fmt=json" -f null - && s2_frame_scores "$W/c.json" > "$W/c.txt"
    bad=0
    for i in $(seq "$RUNS"); do
        rm -f "$W/g.json"   # a failed run then compares as empty, not as the previous one
        "${FF[@]}" "${HW[@]}" "${in[@]}" -i "$W/d.raw" "${in[@]}" -i "$W/r.raw" -lavfi \
            "[0:v]hwupload[d];[1:v]hwupload[r];[d][r]ssimulacra2_cuda=log_path=$W/g.json:log_fmt=json" \
            -f null -
        s2_frame_scores "$W/g.json" > "$W/g.txt" 2>/dev/null
        cmp -s "$W/c.txt" "$W/g.txt" || { bad=$((bad + 1)); paste "$W/c.txt" "$W/g.txt" | awk '$2 != $4 { print "    frame " $1 ": cpu " $2 " gpu " $4 }' | head -n 3; }
    done
    printf '%-28s %3d runs of %d frames, %d with a difference\n' "$t" "$RUNS" "$(wc -l < "$W/c.txt")" "$bad"
    [ $bad = 0 ] || rc=1
done
exit $rc
