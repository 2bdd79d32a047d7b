#!/usr/bin/env bash
# Packs what the GPU checks need into .device/ (git-ignored), for a lent GPU machine
# that has neither this build's libraries nor the reference data: build/ffmpeg and
# libdav1d (gzip'd, to stay under the transfer limit) and the samples the checks read.
# Usage: tools/device-pack.sh   (then run tools/device-check.sh there, carrying .device)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SSIMU2_SAMPLES=${SSIMU2_SAMPLES:-$ROOT/../shared/testdata}
P=$ROOT/.device
[ -x "$ROOT/build/ffmpeg" ] || { echo "build/ffmpeg missing: run make first" >&2; exit 1; }
[ -d "$SSIMU2_SAMPLES" ] || { echo "SSIMU2_SAMPLES ($SSIMU2_SAMPLES) not found" >&2; exit 1; }
rm -rf "$P" && mkdir -p "$P/lib" "$P/testdata/ssimulacra2-video" "$P/testdata/clips"
gzip -9 -c "$ROOT/build/ffmpeg" > "$P/ffmpeg.gz"
ldd "$ROOT/build/ffmpeg" | awk '/libdav1d/ { print $3 }' | while read -r lib; do
    gzip -9 -c "$lib" > "$P/lib/$(basename "$lib").gz"
done
cp -r "$SSIMU2_SAMPLES/ssimulacra2-ref" "$P/testdata/"
cp "$SSIMU2_SAMPLES/ssimulacra2-video/scores.csv" "$P/testdata/ssimulacra2-video/"
for f in "$SSIMU2_SAMPLES"/ssimulacra2-video/*.y4m; do
    gzip -9 -c "$f" > "$P/testdata/ssimulacra2-video/$(basename "$f").gz"
done
# the H200's NVDEC has no AV1: only the H.264 and HEVC clip pairs travel
cp "$SSIMU2_SAMPLES"/clips/h264_* "$SSIMU2_SAMPLES"/clips/hevc10_* "$P/testdata/clips/"
# H.264 that changes size mid-stream, for the NVDEC cases of tests/run-cuda-robustness.sh
if command -v x264 > /dev/null; then
    mkdir -p "$P/media"
    for s in 96x64 64x48; do
        "$ROOT/build/ffmpeg" -nostdin -loglevel error -f lavfi -i "testsrc2=s=$s:r=10:d=1" \
            -pix_fmt yuv420p "$P/media/$s.y4m"
        x264 --quiet --crf 30 -o "$P/media/$s.264" "$P/media/$s.y4m" 2> /dev/null
    done
    cat "$P/media/96x64.264" "$P/media/64x48.264" > "$P/media/reschange.264"
    rm -f "$P/media"/*.y4m "$P/media/96x64.264" "$P/media/64x48.264"
else
    echo "note: no x264: the NVDEC size-change cases will be skipped"
fi
du -sh "$P"
