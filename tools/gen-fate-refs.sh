#!/usr/bin/env bash
# Regenerate tests/ref/fate/filter-refcmp-ssimulacra2-* from the independent oracle.
#
# refcmp_metadata (FFmpeg's tests/fate-run.sh) runs
#   ffmpeg -auto_conversion_filters -lavfi "testsrc2=size=300x200:rate=1:duration=5,format=PIXFMT,
#          split[ref][tmp];[tmp]avgblur=4[enc];[enc][ref]ssimulacra2,metadata=print:file=-" ...
# This script builds the same [enc] and [ref] frames with ffmpeg and writes them as PPM/PGM
# (8 or 16 bits; the conversions between packed and planar RGB of one depth that auto-conversion
# inserts around avgblur are lossless), scores each pair with ssimu2-oracle
# (reference = [ref], distorted = [enc]) and writes the lines that metadata=print + refcmp-metadata.awk
# print, with the oracle's values. Finally it runs the real refcmp command with our filter (when
# the build has it) and reports the largest difference.
#
# Usage: tools/gen-fate-refs.sh [PIXFMT...]   (default: rgb24 gbrp rgb48 gray gray16)
# Env: FFMPEG [build/ffmpeg], SSIMU2_ORACLE_SRC [../shared/tools/ssimu2-oracle.c]
set -u
. "$(dirname "$0")/../tests/lib/common.sh"
s2_name=gen-fate-refs
[ -x "$FFMPEG" ] || die "ffmpeg not found at $FFMPEG"
ORACLE=$(build_oracle) || die "oracle not available (set SSIMU2_ORACLE_SRC)"
REFDIR=$S2_TESTS/ref/fate
W=$SSIMU2_TEST_OUT/gen-fate-refs
mkdir -p "$REFDIR"
[ $# -gt 0 ] || set -- rgb24 gbrp rgb48 gray gray16

for pf in "$@"; do
    case $pf in
        gray|gray16) ext=pgm ;;
        *)           ext=ppm ;;
    esac
    rm -rf "$W/$pf"; mkdir -p "$W/$pf"
    ( cd "$W/$pf" && "$FFMPEG" -nostdin -hide_banner -loglevel error -auto_conversion_filters \
        -lavfi "testsrc2=size=300x200:rate=1:duration=5,format=$pf,split[ref][tmp];[tmp]avgblur=4[enc]" \
        -map "[enc]" -f image2 -start_number 0 "enc%d.$ext" \
        -map "[ref]" -f image2 -start_number 0 "ref%d.$ext" ) || die "$pf: ffmpeg failed"
    out=$REFDIR/filter-refcmp-ssimulacra2-$pf
    : > "$out.tmp"
    n=0
    while [ -f "$W/$pf/ref$n.$ext" ]; do
        s=$("$ORACLE" "$W/$pf/ref$n.$ext" "$W/$pf/enc$n.$ext") || die "$pf: oracle failed on frame $n"
        awk -v n=$n -v s="$s" 'BEGIN {
            printf "frame:%-4d pts:%-7s pts_time:%s\n", n, n, n
            printf "lavfi.ssimulacra2.score=%.15f\n", s }' >> "$out.tmp"
        n=$((n + 1))
    done
    [ $n = 5 ] || die "$pf: $n frames, expected 5"
    mv "$out.tmp" "$out"
    say "$out: $n frames ($(head -c 3 "$W/$pf/ref0.$ext" | head -1) $(sed -n 3p "$W/$pf/ref0.$ext" | head -c 6))"
    if have_filter ssimulacra2; then
        "$FFMPEG" -nostdin -nostats -hide_banner -auto_conversion_filters \
            -lavfi "testsrc2=size=300x200:rate=1:duration=5,format=$pf,split[ref][tmp];[tmp]avgblur=4[enc];[enc][ref]ssimulacra2,metadata=print:file=-" \
            -f null /dev/null 2> "$W/$pf/ffmpeg.err" |
        awk -F= 'FNR == NR { if ($1 == "lavfi.ssimulacra2.score") want[++n] = $2; next }
                 $1 == "lavfi.ssimulacra2.score" { d = $2 - want[++m]; if (d < 0) d = -d; if (d > max) max = d }
                 END { if (m != n) printf "  our filter: %d frames, expected %d (see ffmpeg.err)\n", m, n
                       else printf "  our filter vs these values: max |delta| %.3g\n", max }' "$out" -
        grep -m1 -iE "differ|unsupported|error" "$W/$pf/ffmpeg.err" | sed "s/^/  ffmpeg: /"
    fi
done
