#!/usr/bin/env bash
# Packs what the GPU checks need into .device/ (git-ignored), for a lent GPU machine
# that has neither this build's libraries nor the reference data: the make-dist tarball
# (ffmpeg, ffprobe and their libraries, xz) and the samples the checks read.
# Usage: tools/device-pack.sh [--no-images]   (then run tools/device-check.sh there,
#        carrying .device). --no-images leaves out the 160 reference image pairs (36 MB)
#        that only the parity check reads, to stay under the transfer limit.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SSIMU2_SAMPLES=${SSIMU2_SAMPLES:-$ROOT/../shared/testdata}
P=$ROOT/.device
images=yes; [ "${1:-}" = --no-images ] && images=no
FFMPEG=$ROOT/build/ffmpeg
[ -x "$FFMPEG" ] || { echo "build/ffmpeg missing: run make first" >&2; exit 1; }
[ -d "$SSIMU2_SAMPLES" ] || { echo "SSIMU2_SAMPLES ($SSIMU2_SAMPLES) not found" >&2; exit 1; }
rm -rf "$P" && mkdir -p "$P/testdata/ssimulacra2-video" "$P/testdata/clips" "$P/media"
dist=$("$ROOT/tools/make-dist.sh" "$ROOT/build/dist")
cp "$dist" "$P/ffmpeg-dist.tar.xz"
[ $images = yes ] && cp -r "$SSIMU2_SAMPLES/ssimulacra2-ref" "$P/testdata/"
cp "$SSIMU2_SAMPLES/ssimulacra2-video/scores.csv" "$P/testdata/ssimulacra2-video/"
for f in "$SSIMU2_SAMPLES"/ssimulacra2-video/*.y4m; do
    gzip -9 -c "$f" > "$P/testdata/ssimulacra2-video/$(basename "$f").gz"
done
# the H200's NVDEC has no AV1: only the H.264 and HEVC clip pairs travel
cp "$SSIMU2_SAMPLES"/clips/h264_* "$SSIMU2_SAMPLES"/clips/hevc10_* "$P/testdata/clips/"
# FATE: FFmpeg's runner (with refcmp_metadata_cuda) and the reference files, for
# tools/fate-run-mak.sh
mkdir -p "$P/fate/ref/fate"
cp -L "$ROOT/build/src/tests/fate-run.sh" "$ROOT/build/src/tests/md5.sh" "$ROOT/build/src/tests/refcmp-metadata.awk" "$P/fate/"
cp -L "$ROOT"/tests/ref/fate/filter-refcmp-ssimulacra2-* "$P/fate/ref/fate/"
# H.264 that changes size mid-stream, for the NVDEC cases of tests/run-cuda-robustness.sh
for s in 96x64 64x48; do
    "$FFMPEG" -nostdin -loglevel error -f lavfi -i "testsrc2=s=$s:r=10:d=1" -pix_fmt yuv420p \
        -c:v libx264 -crf 30 -f h264 "$P/media/$s.264"
done
cat "$P/media/96x64.264" "$P/media/64x48.264" > "$P/media/reschange.264"
rm -f "$P/media/96x64.264" "$P/media/64x48.264"
du -sh "$P"
