#!/usr/bin/env bash
# Determinism: the same input scored with -filter_complex_threads 1/2/3/4/16/33, -threads 1/4 and twice
# in a row must give byte-identical json logs (bit-identical %.17g scores and pooled statistics), but
# for the line of the run's speed ("fps"). More threads than cores (33) makes the threads of the
# CPU filter wait for each other's tasks.
. "$(dirname "$0")/lib/common.sh"
need_ffmpeg
W=$SSIMU2_TEST_OUT/determinism
rm -rf "$W"; mkdir -p "$W"
bad=0; ncases=0

# run_case NAME "input args" ; compares all thread variants
run_case() {
    local name=$1; shift
    ncases=$((ncases + 1))
    local first= v log
    # -lavfi is a complex graph: its slice threads are -filter_complex_threads
    for v in "-filter_complex_threads 1" "-filter_complex_threads 2" "-filter_complex_threads 4" \
             "-threads 1 -filter_complex_threads 1" "-threads 4 -filter_complex_threads 3" \
             "-filter_complex_threads 16" "-filter_complex_threads 33" "-filter_complex_threads 1"; do
        log=$name-$(echo "$v" | tr -d ' -')-$RANDOM.json
        ( cd "$W" && "$FFMPEG" -nostdin -hide_banner -loglevel error $v "$@" \
            -lavfi "[0:v][1:v]ssimulacra2=log_path=$log:log_fmt=json" -f null - ) ||
            { echo "  FAIL $name ($v): ffmpeg failed"; bad=$((bad + 1)); continue; }
        if [ -z "$first" ]; then
            first=$log
            grep -q frameNum "$W/$first" || { echo "  FAIL $name: empty log"; bad=$((bad + 1)); }
        elif ! cmp -s <(grep -v '"fps"' "$W/$first") <(grep -v '"fps"' "$W/$log"); then
            echo "  FAIL $name: '$v' differs from '-filter_complex_threads 1':"
            diff "$W/$first" "$W/$log" | head -6 | sed 's/^/    /'
            bad=$((bad + 1))
        fi
    done
    echo "$name: $(awk -f "$S2_AWK/parselog.awk" "$W/$first" | grep -c '^frame') frame(s) x 8 runs compared"
}

D=$S2_TESTS/data/images
run_case still -i "$D/sunset_355x200_x264_crf36.png" -i "$D/sunset_355x200_ref.png"

if [ -n "${SSIMU2_SAMPLES:-}" ] && [ -d "$SSIMU2_SAMPLES/ssimulacra2-video" ]; then
    V=$SSIMU2_SAMPLES/ssimulacra2-video
    run_case video -colorspace bt709 -i "$V/picosdeeuropa_320x240_24f_x264_crf30.y4m" \
                   -colorspace bt709 -i "$V/picosdeeuropa_320x240_24f_ref.y4m"
else
    say "SKIP: determinism on the sample clip (SSIMU2_SAMPLES not set / not found)"
fi
# a generated 1280x720 clip (several slices per thread), rgb24 and yuv420p
run_case synth-rgb \
    -f lavfi -i "testsrc2=s=1280x720:r=25:d=0.32,format=rgb24,avgblur=2,format=rgb24" \
    -f lavfi -i "testsrc2=s=1280x720:r=25:d=0.32,format=rgb24"
run_case synth-yuv \
    -f lavfi -i "testsrc2=s=1280x720:r=25:d=0.32,format=yuv420p,avgblur=3" \
    -f lavfi -i "testsrc2=s=1280x720:r=25:d=0.32,format=yuv420p"

say "determinism: $ncases inputs x 8 thread settings, $bad not bit-identical"
[ $bad = 0 ] || die "$bad run(s) not bit-identical"
say "PASS: $s2_name"
