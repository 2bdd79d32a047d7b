#!/usr/bin/env bash
# Demo: score a short degraded clip against its reference, as a user would.
#
# From the committed photo tests/data/coffee_431x287.png (CC0, Rachel Michetti; see
# tests/data/README.md) it makes a 48-frame 640x360 reference clip that pans and zooms over the
# photo, and a degraded version of it (blur, temporal noise, coarse quantisation), then scores
# the pair with ssimulacra2_cuda when a CUDA device works, else with the CPU ssimulacra2 filter.
#
# Usage: tools/demo.sh [OUTDIR]      (default tests/out/demo)
# Env:   FFMPEG [build/ffmpeg]; S2_DEMO_CPU=1 forces the CPU filter.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FFMPEG=${FFMPEG:-$ROOT/build/ffmpeg}
OUT=${1:-$ROOT/tests/out/demo}
PHOTO=$ROOT/tests/data/coffee_431x287.png
die() { echo "demo: $*" >&2; exit 1; }
[ -x "$FFMPEG" ] || die "ffmpeg not found at $FFMPEG (build first, or set FFMPEG)"
mkdir -p "$OUT" && cd "$OUT" || die "cannot use $OUT"
ff() { "$FFMPEG" -nostdin -hide_banner -loglevel error -y "$@"; }

echo "1. reference clip: 48 frames 640x360 @24 fps, pan + zoom over $(basename "$PHOTO")"
# the photo is enlarged 2x, then a zoom factor z(t) from 1.0 to 1.35 and a pan along x and y
ff -loop 1 -framerate 24 -t 2 -i "$PHOTO" -vf "
    scale=862:574:flags=bicubic,
    scale=w='trunc(862*(1+0.35*t/2)/2)*2':h='trunc(574*(1+0.35*t/2)/2)*2':eval=frame:flags=bicubic,
    crop=w=640:h=360:x='(in_w-out_w)*t/2':y='(in_h-out_h)*(0.5+0.4*sin(3*t))',
    format=yuv420p" \
    -color_range tv -colorspace bt709 -color_primaries bt709 -color_trc bt709 \
    -f yuv4mpegpipe ref.y4m || die "making the reference clip failed"

degrade="gblur=sigma=0.7,noise=c0s=8:c1s=4:c2s=4:allf=t"; what="blur, temporal noise"
if "$FFMPEG" -hide_banner -loglevel quiet -h filter=lutyuv 2>/dev/null | grep -q "^Filter lutyuv"; then
    degrade="$degrade,lutyuv=y='bitand(val,248)+4'"; what="$what, 5-bit luma quantisation"
fi
echo "2. degraded clip: $what"
ff -i ref.y4m -vf "$degrade" -f yuv4mpegpipe dist.y4m || die "making the degraded clip failed"

filter=ssimulacra2; up=; hw=()
if [ "${S2_DEMO_CPU:-0}" != 1 ] &&
   "$FFMPEG" -hide_banner -loglevel quiet -h filter=ssimulacra2_cuda 2>/dev/null | grep -q '^Filter ssimulacra2_cuda' &&
   "$FFMPEG" -hide_banner -loglevel quiet -init_hw_device cuda=cu -f lavfi -i nullsrc=s=16x16:d=0.04 \
       -filter_hw_device cu -vf format=yuv420p,hwupload -f null - 2>/dev/null; then
    filter=ssimulacra2_cuda
    hw=(-init_hw_device cuda=cu -filter_hw_device cu)
    # hwupload (not hwupload_cuda, which opens a CUDA device of its own per instance) puts both
    # inputs on the one device given by -filter_hw_device
    up="hwupload,"
fi
score() {
    echo "3. scoring with $filter (input 0 = distorted, input 1 = reference)"
    "$FFMPEG" -nostdin -hide_banner -loglevel info -y "${hw[@]}" \
        -colorspace bt709 -i dist.y4m -colorspace bt709 -i ref.y4m \
        -lavfi "[0:v]${up}null[d];[1:v]${up}null[r];[d][r]$filter=log_path=scores.csv:log_fmt=csv:stats_file=stats.log" \
        -f null - 2> ffmpeg.log
}
if ! score; then
    tail -n 3 ffmpeg.log
    [ $filter = ssimulacra2 ] && die "scoring failed"
    echo "demo: $filter failed (above); falling back to the CPU filter" >&2
    filter=ssimulacra2; up=; hw=()
    score || { tail -n 5 ffmpeg.log; die "scoring failed"; }
fi

echo
echo "per-frame scores: $OUT/scores.csv ($(grep -c '^[0-9]' scores.csv) frames), $OUT/stats.log"
head -n 4 scores.csv | sed 's/^/    /'; echo "    ..."
grep -o 'SSIMULACRA2 frames:.*' ffmpeg.log | tail -1
