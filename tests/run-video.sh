#!/usr/bin/env bash
# The YUV path against the reference tool: the 24-frame BT.709 limited-range 4:2:0 clip pair
# of $SSIMU2_SAMPLES/ssimulacra2-video; every per-frame score within 0.05 of scores.csv.
. "$(dirname "$0")/lib/common.sh"
need_ffmpeg
need_samples ssimulacra2-video
V=$SSIMU2_SAMPLES/ssimulacra2-video
W=$SSIMU2_TEST_OUT/video
mkdir -p "$W"
ref=$(awk -F, 'NR == 2 { print $1 }' "$V/scores.csv")
dist=$(awk -F, 'NR == 2 { print $2 }' "$V/scores.csv")
rm -f "$W/log.csv"
( cd "$W" && "$FFMPEG" -nostdin -hide_banner -loglevel error \
    -colorspace bt709 -i "$V/$dist" -colorspace bt709 -i "$V/$ref" \
    -lavfi "[0:v][1:v]ssimulacra2=log_path=log.csv:log_fmt=csv" -f null - ) ||
    die "ffmpeg failed"
awk -f "$S2_AWK/parselog.awk" "$W/log.csv" | awk '$1 == "frame" { print $2, $3 }' > "$W/ours.txt"
awk -F, 'NR > 1 { print $3, $4 }' "$V/scores.csv" > "$W/expected.txt"
awk -v tol=0.05 '
    FNR == NR { exp_[$1] = $2; ne++; next }
    { got[$1] = $2; ng++ }
    END {
        for (f in exp_) {
            if (!(f in got)) { printf "  FAIL frame %s: no score\n", f; bad++; continue }
            d = got[f] - exp_[f]; if (d < 0) d = -d
            if (d > tol) { printf "  FAIL frame %s: expected %s got %s (|delta| %.4g)\n", f, exp_[f], got[f], d; bad++ }
            if (d > max || worst == "") { max = d; worst = f }
            sum += d
        }
        if (ng != ne) { printf "  FAIL: %d scored frames, expected %d\n", ng, ne; bad++ }
        printf "video: %d frames, %d failed, max |delta| %.4g (frame %s), mean |delta| %.4g\n", ne, bad, max, worst, ne ? sum / ne : 0
        exit bad > 0 || ne == 0
    }' "$W/expected.txt" "$W/ours.txt" || die "per-frame scores differ from the reference"
say "PASS: $s2_name"
