#!/usr/bin/env bash
# Repeats small generated cases of the CUDA parity test many times, to catch
# timing-dependent (racy) results that one run of tests/run-cuda.sh can miss.
# Usage: tools/cuda-stress.sh [RUNS]   (default 20)
# Environment: FFMPEG [<repo>/build/ffmpeg]. Exit 1 if any run differs from the CPU filter.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FFMPEG=${FFMPEG:-$ROOT/build/ffmpeg}
RUNS=${1:-20}
W=$(mktemp -d "${TMPDIR:-/tmp}/ssimu2-stress.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
FF=("$FFMPEG" -hide_banner -nostdin -loglevel error)
HW=(-init_hw_device cuda=gpu -filter_hw_device gpu)
scores() { sed -n 's/.*"frameNum".*"ssimulacra2": *\([^}]*\)}}.*/\1/p' "$1"; }
rc=0
for t in "testsrc 9x13 bgr0" "testsrc 9x13 rgba" "testsrc2 8x8 nv12" "testsrc 31x17 yuv420p" \
         "testsrc 113x200 bgr0" "testsrc2 257x129 p010"; do
    set -- $t
    in=(-f rawvideo -pix_fmt "$3" -video_size "$2" -framerate 10)
    # generated once: the generators are not bit-reproducible on every CPU
    "${FF[@]}" -filter_complex \
        "$1=s=$2:r=10:d=1,format=yuv444p,split[a][b];[a]noise=alls=18:allf=t,gblur=sigma=0.6,format=$3[d];[b]format=$3[r]" \
        -map "[d]" -f rawvideo -y "$W/d.raw" -map "[r]" -f rawvideo -y "$W/r.raw"
    "${FF[@]}" "${in[@]}" -i "$W/d.raw" "${in[@]}" -i "$W/r.raw" \
        -lavfi "[0:v][1:v]ssimulacra2=log_path=$W/c.json:log_fmt=json" -f null - && scores "$W/c.json" > "$W/c.txt"
    bad=0
    for i in $(seq "$RUNS"); do
        "${FF[@]}" "${HW[@]}" "${in[@]}" -i "$W/d.raw" "${in[@]}" -i "$W/r.raw" -lavfi \
            "[0:v]hwupload[d];[1:v]hwupload[r];[d][r]ssimulacra2_cuda=log_path=$W/g.json:log_fmt=json" \
            -f null - && scores "$W/g.json" > "$W/g.txt"
        cmp -s "$W/c.txt" "$W/g.txt" || { bad=$((bad + 1)); paste "$W/c.txt" "$W/g.txt" | awk '$1 != $2 { print "    frame " NR - 1 ": cpu " $1 " gpu " $2 }' | head -n 3; }
    done
    printf '%-28s %3d runs of %d frames, %d with a difference\n' "$t" "$RUNS" "$(wc -l < "$W/c.txt")" "$bad"
    [ $bad = 0 ] || rc=1
done
exit $rc
