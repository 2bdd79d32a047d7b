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
# Y'CbCr tests (NAME below) are dumped as raw frames and turned into 16-bit PPM by
# tests/tools/yuv2ppm.c (its own conversion: matrix, limited range, bilinear chroma at the
# siting) before the oracle scores them; their FATE tolerance is 5e-4 relative (the 16-bit
# rounding).
#
# Usage: tools/gen-fate-refs.sh [NAME...]   (default: all of them)
# Env: FFMPEG [build/ffmpeg], SSIMU2_ORACLE_SRC [../shared/tools/ssimu2-oracle.c]
set -u
. "$(dirname "$0")/../tests/lib/common.sh"
s2_name=gen-fate-refs
[ -x "$FFMPEG" ] || die "ffmpeg not found at $FFMPEG"
ORACLE=$(build_oracle) || die "oracle not available (set SSIMU2_ORACLE_SRC)"
REFDIR=$S2_TESTS/ref/fate
W=$SSIMU2_TEST_OUT/gen-fate-refs
mkdir -p "$REFDIR"
YUV2PPM=$(build_c yuv2ppm "$S2_TESTS/tools/yuv2ppm.c" -Wall) || die "cannot build yuv2ppm"
# NAME  what refcmp_metadata's format= gets  BITS KR KB X0 Y0 LOG2CW LOG2CH (untagged 300x200:
# BT.601, left)
yuv_test() {
    case $1 in
        yuv420p)         echo "yuv420p 8 0.299 0.114 0 0.5 1 1" ;;
        yuv420p10)       echo "yuv420p10 10 0.299 0.114 0 0.5 1 1" ;;
        yuv420p-bt709)   echo "yuv420p,setparams=colorspace=bt709 8 0.2126 0.0722 0 0.5 1 1" ;;
        yuv420p-topleft) echo "yuv420p,setparams=chroma_location=topleft 8 0.299 0.114 0 0 1 1" ;;
        yuv440p)         echo "yuv440p 8 0.299 0.114 0 0.5 0 1" ;;
    esac
}
[ $# -gt 0 ] || set -- rgb24 gbrp rgb48 gray gray16 yuv420p yuv420p10 yuv420p-bt709 yuv420p-topleft yuv440p

for pf in "$@"; do
    yuv=$(yuv_test "$pf")
    chain=${yuv%% *}
    case $pf in
        gray|gray16) ext=pgm ;;
        *)           ext=ppm ;;
    esac
    rm -rf "$W/$pf"; mkdir -p "$W/$pf"
    if [ -n "$yuv" ]; then
        set -- $yuv
        ( cd "$W/$pf" && "$FFMPEG" -nostdin -hide_banner -loglevel error -auto_conversion_filters \
            -lavfi "testsrc2=size=300x200:rate=1:duration=5,format=$chain,split[ref][tmp];[tmp]avgblur=4[enc]" \
            -map "[enc]" -f rawvideo enc.yuv -map "[ref]" -f rawvideo ref.yuv ) || die "$pf: ffmpeg failed"
        for f in enc ref; do
            "$YUV2PPM" "$W/$pf/$f.yuv" 300 200 "$2" "$7" "$8" "$3" "$4" "$5" "$6" "$W/$pf/$f" > /dev/null ||
                die "$pf: yuv2ppm failed"
        done
    else
        chain=$pf
        ( cd "$W/$pf" && "$FFMPEG" -nostdin -hide_banner -loglevel error -auto_conversion_filters \
            -lavfi "testsrc2=size=300x200:rate=1:duration=5,format=$pf,split[ref][tmp];[tmp]avgblur=4[enc]" \
            -map "[enc]" -f image2 -start_number 0 "enc%d.$ext" \
            -map "[ref]" -f image2 -start_number 0 "ref%d.$ext" ) || die "$pf: ffmpeg failed"
    fi
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
            -lavfi "testsrc2=size=300x200:rate=1:duration=5,format=$chain,split[ref][tmp];[tmp]avgblur=4[enc];[enc][ref]ssimulacra2,metadata=print:file=-" \
            -f null /dev/null 2> "$W/$pf/ffmpeg.err" |
        awk -F= 'FNR == NR { if ($1 == "lavfi.ssimulacra2.score") want[++n] = $2; next }
                 $1 == "lavfi.ssimulacra2.score" { d = $2 - want[++m]; if (d < 0) d = -d; if (d > max) max = d }
                 END { if (m != n) printf "  our filter: %d frames, expected %d (see ffmpeg.err)\n", m, n
                       else printf "  our filter vs these values: max |delta| %.3g\n", max }' "$out" -
        grep -m1 -iE "differ|unsupported|error" "$W/$pf/ffmpeg.err" | sed "s/^/  ffmpeg: /"
    fi
done
