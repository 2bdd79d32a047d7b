#!/usr/bin/env bash
# The unpacked make-dist tarball on a machine with nothing installed: every library found
# inside the tarball (or the C library), and the inputs and graphs of users' pipelines.
# Usage: tools/dist-smoke.sh DIR     (DIR: the unpacked tarball, with bin/ and lib/)
set -u
D=$(cd "${1:?usage: dist-smoke.sh DIR}" && pwd)
F=$D/bin/ffmpeg
W=$(mktemp -d "${TMPDIR:-/tmp}/dist-smoke.XXXXXX")
trap 'rm -rf "$W"' EXIT
bad=0
t() { # t NAME COMMAND...: one check, in $W
    local name=$1; shift
    if (cd "$W" && "$@") > "$W/out.log" 2>&1; then echo "  ok   $name"
    else echo "  FAIL $name"; tail -n 3 "$W/out.log" | sed 's/^/      /'; bad=$((bad + 1)); fi
}
"$F" -hide_banner -version | head -n 1
echo "libraries:"
ldd "$F" "$D/bin/ffprobe" | awk '$2 == "=>" { print "    " $1 " -> " $3 }' | sort -u
if ldd "$F" "$D/bin/ffprobe" | grep -q "not found"; then
    echo "  FAIL a library is not found"; bad=$((bad + 1))
fi
. "$(dirname "$0")/dist-system-libs.sh"
outside=$(dist_outside_libs "$D" "$F")
[ -z "$outside" ] && echo "  ok   every library but the C library from the tarball" ||
    { echo "  FAIL libraries from outside the tarball: $outside"; bad=$((bad + 1)); }
ff() { "$F" -nostdin -hide_banner -loglevel error -y "$@"; }
t "libx264 + aac encode (MP4 with an audio track)" ff -f lavfi -i testsrc2=s=320x180:d=1 -f lavfi -i sine=d=1 -c:v libx264 -c:a aac ref.mp4
t "libx265 encode" ff -i ref.mp4 -an -c:v libx265 -crf 35 -x265-params log-level=error dist.mkv
t "libsvtav1 encode" ff -i ref.mp4 -an -c:v libsvtav1 -crf 50 -preset 12 av1.mkv
t "libvpx-vp9 + libopus encode (WebM)" ff -i ref.mp4 -c:v libvpx-vp9 -b:v 0 -crf 50 -deadline realtime -c:a libopus vp9.webm
t "MPEG-TS (mpeg4 + mp2)" ff -i ref.mp4 -c:v mpeg4 -c:a mp2 ref.ts
t "score an MP4 with AAC against HEVC (no -an)" bash -c "'$F' -nostdin -hide_banner -i dist.mkv -i ref.mp4 -lavfi '[0:v][1:v]ssimulacra2' -f null - 2>&1 | grep 'SSIMULACRA2 score:'"
t "reference piped on standard input (-i -), setsar in the graph" bash -c "'$F' -loglevel error -i ref.mp4 -f yuv4mpegpipe - | '$F' -nostdin -hide_banner -i av1.mkv -i - -lavfi '[0:v]setsar=1[d];[1:v]setsar=1[r];[d][r]ssimulacra2' -f null - 2>&1 | grep 'SSIMULACRA2 score:'"
t "NVDEC decode into ssimulacra2_cuda" bash -c "'$F' -nostdin -hide_banner -hwaccel cuda -hwaccel_output_format cuda -i ref.mp4 -hwaccel cuda -hwaccel_output_format cuda -i ref.mp4 -lavfi '[0:v][1:v]ssimulacra2_cuda' -f null - 2>&1 | grep 'SSIMULACRA2 score: 100.0'"
echo "dist: $bad failure(s)"
[ $bad = 0 ]
