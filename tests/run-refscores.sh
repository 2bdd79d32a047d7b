#!/usr/bin/env bash
# Exactness against the SSIMULACRA 2.1 reference tool's scores.
#   1. the committed subset tests/data/scores.csv (always);
#   2. every pair of $SSIMU2_SAMPLES/ssimulacra2-ref/scores.csv (if present);
#   3. the spec's golden test vectors in $SSIMU2_SPEC_VECTORS/golden.txt (AVX2 column).
# Each pair goes through the real ffmpeg binary: dist = input 0, ref = input 1.
# Tolerance: csv scores have 8 decimals -> |ours - csv| <= 1e-7 + 0.5e-8;
# golden scores have 17 digits -> |ours - golden| <= 1e-9. Identity pairs must be exactly 100.
# Usage: tests/run-refscores.sh [--subset-only]
. "$(dirname "$0")/lib/common.sh"
need_ffmpeg
subset_only=0
[ "${1:-}" = --subset-only ] && subset_only=1

W=$SSIMU2_TEST_OUT/refscores
mkdir -p "$W"
fails=0

# check_csv DIR LABEL: score every pair of DIR/scores.csv
check_csv() {
    local dir=$1 label=$2 res=$W/$label.txt
    : > "$res"
    local n=0 ref dist score width height distortion ours
    while IFS=, read -r ref dist score width height distortion; do
        [ "$ref" = ref ] && continue
        n=$((n + 1))
        ours=$(s2_score "$dir/$dist" "$dir/$ref" "$W/log.json")
        [ -n "$ours" ] || ours=ERROR
        printf '%s %s %s %s\n' "$dist" "$ref" "$score" "$ours" >> "$res"
    done < "$dir/scores.csv"
    awk -v label="$label" -v tol=1.05e-7 '
        { d = ($4 == "ERROR") ? 1e30 : $4 - $3; if (d < 0) d = -d
          if ($4 == "ERROR" || d > tol || ($2 == $1 && $4 != 100)) {
              bad++; printf "  FAIL %s vs %s: expected %s got %s (|delta| %.3g)\n", $1, $2, $3, $4, d }
          if (d > max) { max = d; worst = $1 " vs " $2 } }
        END { printf "%s: %d pairs, %d failed, max |delta| %.3g (%s)\n", label, NR, bad, max, worst
              exit bad > 0 }' "$res" || fails=$((fails + 1))
}

check_csv "$S2_TESTS/data" subset

if [ $subset_only = 1 ]; then
    :
elif [ -n "${SSIMU2_SAMPLES:-}" ] && [ -f "$SSIMU2_SAMPLES/ssimulacra2-ref/scores.csv" ]; then
    check_csv "$SSIMU2_SAMPLES/ssimulacra2-ref" full
else
    say "SKIP: refscores full set (SSIMU2_SAMPLES not set / not found)"
fi

if [ $subset_only = 1 ]; then
    :
elif [ -n "${SSIMU2_SPEC_VECTORS:-}" ] && [ -f "$SSIMU2_SPEC_VECTORS/golden.txt" ]; then
    res=$W/golden.txt
    : > "$res"
    grep -v '^#' "$SSIMU2_SPEC_VECTORS/golden.txt" | while IFS='|' read -r files avx2 rest; do
        set -- $files
        [ $# = 2 ] || continue
        ours=$(s2_score "$SSIMU2_SPEC_VECTORS/$2" "$SSIMU2_SPEC_VECTORS/$1" "$W/log.json")
        printf '%s %s %s %s\n' "$2" "$1" "$(echo $avx2)" "${ours:-ERROR}" >> "$res"
    done
    awk -v tol=1e-9 '
        { d = ($4 == "ERROR") ? 1e30 : $4 - $3; if (d < 0) d = -d
          if ($4 == "ERROR" || d > tol || ($2 == $1 && $4 != 100)) {
              bad++; printf "  FAIL %s vs %s: expected %s got %s (|delta| %.3g)\n", $1, $2, $3, $4, d }
          if (d > max) { max = d; worst = $1 " vs " $2 } }
        END { printf "spec vectors: %d pairs, %d failed, max |delta| %.3g (%s)\n", NR, bad, max, worst
              exit bad > 0 || NR == 0 }' "$res" || fails=$((fails + 1))
else
    say "SKIP: refscores spec vectors (SSIMU2_SPEC_VECTORS not set / not found)"
fi

[ $fails = 0 ] || die "$fails group(s) failed"
say "PASS: $s2_name"
