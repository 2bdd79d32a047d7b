#!/usr/bin/env bash
# Every command line of README.md, doc/ssimulacra2.texi and the doc/filters.texi entries
# (doc/filters/), run as written on small files
# named as the documentation names them (GPU ones where a CUDA device works), so that the
# examples stay true; and the documented pixel-format lists against the filters' own.
#
# Env: S2_DOCS_GPU=0 skips the GPU commands even where a CUDA device works.
. "$(dirname "$0")/lib/common.sh"
need_ffmpeg
W=$SSIMU2_TEST_OUT/docs
rm -rf "$W" && mkdir -p "$W/build" || die "cannot create $W"
DOCS="README.md doc/ssimulacra2.texi doc/filters/ssimulacra2.texi doc/filters/ssimulacra2_cuda.texi"
bad=0

# --- the pixel-format lists: the code's arrays against the documented lists
doc_formats() { # FILE START-REGEX END-REGEX: comma-separated names between the two lines
    sed -n "/$2/,/$3/p" "$1" | sed "s/$2//; s/$3.*//; s/^@item.*//; s/@[a-z]*//g; s/\`//g" |
        tr ',' '\n' | tr -d ' .' | grep -v '^$' | sort -u
}
compare_formats() { # WHAT CODE-LIST DOC-LIST
    local d; d=$(diff <(echo "$2") <(echo "$3") | grep '^[<>]' | sed 's/^</missing from the docs:/; s/^>/documented, not accepted:/' | tr '\n' ' ')
    if [ -z "$d" ]; then say "  ok   formats: $1 ($(echo "$2" | wc -l) formats)"
    else say "  FAIL formats: $1: $d"; bad=$((bad + 1)); fi
}
cpu=$(s2_code_formats "$S2_ROOT/libavfilter/ssimulacra2_formats.c" ff_ssimulacra2_pix_fmts | grep -v "be$")
compare_formats "both filters, README" "$cpu" "$(doc_formats "$S2_ROOT/README.md" '^`ssimulacra2` and `ssimulacra2_cuda` pixel formats (for CUDA frames, their sw_format):' '^$')"
compare_formats "ssimulacra2, texi"   "$cpu" "$(doc_formats "$S2_ROOT/doc/ssimulacra2.texi" '^Supported pixel formats:' '^@end table')"
# the CUDA filter reads the CPU filter's list (vf_ssimulacra2_cuda.c checks frames against it)
grep -q 'ff_ssimulacra2_pix_fmts' "$S2_ROOT/libavfilter/vf_ssimulacra2_cuda.c" &&
    grep -q 'in any of the formats of' "$S2_ROOT/doc/ssimulacra2.texi" &&
    say "  ok   formats: ssimulacra2_cuda takes those of ssimulacra2 (code and texi)" ||
    { say "  FAIL formats: ssimulacra2_cuda's list is not ssimulacra2's in the code or the texi"; bad=$((bad + 1)); }

# --- the command lines
"$FFMPEG" -hide_banner -encoders 2>/dev/null | grep -q ' libx264 ' ||
    { say "SKIP: the command lines need the full build (./configure without --minimal)"; [ $bad = 0 ] && exit 77; exit 1; }
gpu=no
if [ "${S2_DOCS_GPU:-1}" != 0 ] && "$FFMPEG" -v quiet -init_hw_device cuda -f lavfi -i nullsrc=s=64x64 \
        -frames:v 1 -f null - 2>/dev/null; then
    gpu=yes
fi
say "GPU commands: $([ $gpu = yes ] && echo run || echo "skipped (no CUDA device)")"

# the files the examples name: a 320x180 12-frame clip pair (H.264, BT.709), in the
# containers and formats the examples use
ln -s "$FFMPEG" "$W/build/ffmpeg" && ln -s "$FFPROBE" "$W/build/ffprobe" && ln -s "$S2_ROOT/tools" "$W/tools" ||
    die "cannot link the binaries into $W"
mk() { (cd "$W" && "$FFMPEG" -nostdin -hide_banner -loglevel error -y "$@") || die "making a fixture failed: $*"; }
tags="-color_primaries bt709 -color_trc bt709 -colorspace bt709"
mk -f lavfi -i "testsrc2=s=320x180:r=24:d=0.5,format=yuv420p" $tags -c:v libx264 -qp 0 ref.mkv
mk -i ref.mkv -c:v libx264 -crf 38 $tags dist.mkv
mk -i dist.mkv -f lavfi -i "sine=d=0.5" -c:v copy -c:a aac -shortest dist.mp4
mk -i ref.mkv -c:v libx264 -qp 0 reference.mp4
cp "$W/dist.mkv" "$W/distorted.mkv" && cp "$W/ref.mkv" "$W/reference.mkv" && cp "$W/dist.mkv" "$W/source.mkv"
mk -i dist.mkv -c:v copy distorted.mp4
mk -i ref.mkv -f yuv4mpegpipe ref.y4m
mk -i dist.mkv -f yuv4mpegpipe dist.y4m
mk -i ref.mkv -frames:v 1 reference.png
mk -i dist.mkv -frames:v 1 distorted.png

n=0; skipped=0
while IFS=$'\t' read -r where cmd; do
    case $cmd in *cuda*|*--gpu*) [ $gpu = yes ] || { skipped=$((skipped + 1)); continue; } ;; esac
    case $cmd in *ssimu2-plot*)
        command -v gnuplot > /dev/null || { say "  skip $where: no gnuplot"; skipped=$((skipped + 1)); continue; } ;; esac
    n=$((n + 1))
    log=$W/cmd$n.log
    out=$(printf '%s' "$cmd" | grep -o 'log_path=[^:" ]*' | head -n 1 | sed 's/log_path=//')
    [ -n "$out" ] && [ "$out" != - ] && rm -f "$W/$out"
    if (cd "$W" && PATH=$W/build:$PATH timeout 300 bash -o pipefail -c "$cmd" </dev/null >"$log" 2>&1); then
        if [ -n "$out" ] && [ "$out" != - ] && [ ! -s "$W/$out" ]; then
            say "  FAIL $where: exit 0 but no $out"; bad=$((bad + 1))
        else
            say "  ok   $where"
        fi
    else
        say "  FAIL $where: $(printf '%s' "$cmd" | cut -c1-120)"
        tail -n 4 "$log" | sed 's/^/      /'
        bad=$((bad + 1))
    fi
done < <(cd "$S2_ROOT" && python3 "$S2_TESTS/tools/doc-commands.py" $DOCS)
[ $n -gt 10 ] || die "only $n documented commands found: the extraction is broken"
say "docs: $n commands run, $skipped skipped (no CUDA device or no gnuplot), $bad failure(s)"
[ $bad = 0 ] || die "$bad documented command(s) or format list(s) wrong"
say "PASS: documentation checks, $n cases"
