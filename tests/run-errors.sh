#!/usr/bin/env bash
# Bad inputs: each case must make ffmpeg exit non-zero AND print the expected message.
. "$(dirname "$0")/lib/common.sh"
need_ffmpeg
W=$SSIMU2_TEST_OUT/errors
rm -rf "$W"; mkdir -p "$W"
bad=0; n=0

# expect_error NAME SUBSTRING ffmpeg-args...
expect_error() {
    local name=$1 msg=$2; shift 2
    local rc=0
    n=$((n + 1))
    "$FFMPEG" -nostdin -hide_banner -loglevel info "$@" > "$W/$name.log" 2>&1 || rc=$?
    if [ $rc = 0 ]; then
        printf '  FAIL %-28s exit status 0 (expected non-zero)\n' "$name"; bad=$((bad + 1))
    elif ! grep -qF -- "$msg" "$W/$name.log"; then
        printf '  FAIL %-28s exit %d but no "%s" in the output:\n' "$name" $rc "$msg"
        tail -n 4 "$W/$name.log" | sed 's/^/      /'
        bad=$((bad + 1))
    else
        printf '  ok   %-28s exit %d, "%s"\n' "$name" $rc "$msg"
    fi
}

src() { echo "testsrc2=s=$1:r=5:d=0.4"; }   # 2 frames

for F in ssimulacra2 ssimulacra2_cuda; do
    if [ $F = ssimulacra2_cuda ] && ! "$FFMPEG" -hide_banner -loglevel quiet -h filter=$F 2>/dev/null | grep -q "#1: reference"; then
        say "SKIP: $F error cases (filter not in this build, or a placeholder without a reference input)"; continue
    fi
    [ $F = ssimulacra2_cuda ] && { say "$F (software frames, no CUDA device):"; } || say "$F:"
    if [ $F = ssimulacra2_cuda ]; then
        # software frames are uploaded by the filter (run-cuda.sh); without a GPU, say so
        if "$FFMPEG" -hide_banner -loglevel quiet -nostdin -init_hw_device cuda -f lavfi -i nullsrc \
                -frames:v 1 -f null - 2>/dev/null; then
            say "  SKIP: a CUDA device is present"
        else
            expect_error cuda-no-device "Cannot open CUDA device 0 (the default" \
                -f lavfi -i "$(src 64x64)" -f lavfi -i "$(src 64x64)" -lavfi "[0:v][1:v]$F" -f null -
        fi
        # the name given to -init_hw_device is not a device number (it had opened device 0)
        expect_error cuda-device-name "device='gpu' is not a CUDA device number" \
            -f lavfi -i "$(src 64x64)" -f lavfi -i "$(src 64x64)" -lavfi "[0:v][1:v]$F=device=gpu" -f null -
        continue
    fi
    # FFmpeg's "unspecified" read tagged frames as untagged (range=0: 4.9 instead of 11.9)
    expect_error range-0 "range=0 (unspecified) is not a reading" \
        -f lavfi -i "$(src 64x64)" -f lavfi -i "$(src 64x64)" -lavfi "[0:v][1:v]$F=range=0" -f null -
    expect_error chroma-loc-0 "chroma_loc=0 (unspecified) is not a reading" \
        -f lavfi -i "$(src 64x64)" -f lavfi -i "$(src 64x64)" -lavfi "[0:v][1:v]$F=chroma_loc=0" -f null -
    expect_error size-mismatch "Input sizes differ" \
        -f lavfi -i "$(src 64x64)" -f lavfi -i "$(src 96x54)" -lavfi "[0:v][1:v]$F" -f null -
    # bars added to the encode (a letterbox): crop them; scaled back, the bars were scored;
    # the picture scaled too: its size within the bars, then scaled back
    expect_error size-letterbox "Were bars added to the distorted video (pad: a letterbox)? Crop them" \
        -f lavfi -i "$(src 64x64),pad=64:160:0:48" -f lavfi -i "$(src 64x64)" -lavfi "[0:v][1:v]$F" -f null -
    expect_error size-pillarbox-scaled "(crop=96:72:X:Y:exact=1,scale=64:48 on the main input" \
        -f lavfi -i "$(src 64x48),scale=96:72,pad=128:72:16:0" -f lavfi -i "$(src 64x48)" -lavfi "[0:v][1:v]$F" -f null -
    # an encoder's padding of up to 63 rows (2160 -> 2176, 480 -> 512): at the end, 0:0
    expect_error size-encoder-padding "(crop=64:48:0:0:exact=1 on the main input" \
        -f lavfi -i "$(src 64x48),pad=64:96" -f lavfi -i "$(src 64x48)" -lavfi "[0:v][1:v]$F" -f null -
    expect_error size-7x9 "at least 8x8" \
        -f lavfi -i "$(src 7x9)" -f lavfi -i "$(src 7x9)" -lavfi "[0:v][1:v]$F" -f null -
    expect_error size-100x7 "at least 8x8" \
        -f lavfi -i "$(src 100x7)" -f lavfi -i "$(src 100x7)" -lavfi "[0:v][1:v]$F" -f null -
    # a kernel file system: a root run had written its document into a kernel setting there
    # (a file that does not exist, so that nothing is written whatever the code does)
    [ -d /sys/kernel ] && expect_error log-on-sysfs "is on a kernel file system (/proc, /sys)" \
        -f lavfi -i "$(src 64x64)" -f lavfi -i "$(src 64x64)" \
        -lavfi "[0:v][1:v]$F=log_path=/sys/kernel/ssimu2-test.json" -f null -
    # a block over FFmpeg's limit for one (frames 600000 wide: the blurred rows grow with the
    # width alone) is named with the option that raises it, not as memory to free
    expect_error width-over-max-alloc "more than FFmpeg's default limit for one allocation (2 GiB): if it was not raised, give -max_alloc" \
        -f lavfi -i "color=s=600000x64:d=0.2:r=5" -f lavfi -i "color=s=600000x64:d=0.2:r=5" \
        -lavfi "[0:v][1:v]$F" -f null -
    # the scores' array that cannot grow mid-run (-max_alloc 100000: at 8192 frames) is named
    # (ffmpeg's "Cannot allocate memory" had been the only line)
    [ "$F" = ssimulacra2 ] && expect_error scores-out-of-memory "Out of memory for the scores of 16384 frames" \
        -max_alloc 100000 -f lavfi -i "color=s=16x16:r=25:d=400" -f lavfi -i "color=s=16x16:r=25:d=400" \
        -lavfi "[0:v][1:v]$F" -f null -
    # formats that differ are read each with its own descriptor (run-colour.sh); an
    # unsupported one is converted by lavfi, or refused when conversion is off
    expect_error unsupported-noauto "do not have a common format" -noauto_conversion_filters \
        -f lavfi -i "$(src 64x64),format=yuv410p" -f lavfi -i "$(src 64x64),format=yuv420p" \
        -lavfi "[0:v][1:v]$F" -f null -
    expect_error stats-file-unwritable "Could not open stats file" \
        -f lavfi -i "$(src 64x64)" -f lavfi -i "$(src 64x64)" \
        -lavfi "[0:v][1:v]$F=stats_file=/nonexistent/dir/x.log" -f null -
    expect_error log-file-unwritable "Could not open log file" \
        -f lavfi -i "$(src 64x64)" -f lavfi -i "$(src 64x64)" \
        -lavfi "[0:v][1:v]$F=log_path=/nonexistent/dir/x.json:log_fmt=json" -f null -
    expect_error n-subsample-0 "out of range" \
        -f lavfi -i "$(src 64x64)" -f lavfi -i "$(src 64x64)" \
        -lavfi "[0:v][1:v]$F=n_subsample=0" -f null -
    expect_error bad-log-fmt "log_fmt" \
        -f lavfi -i "$(src 64x64)" -f lavfi -i "$(src 64x64)" \
        -lavfi "[0:v][1:v]$F=log_path=x:log_fmt=yaml" -f null -
done

say "errors: $n cases, $bad failed"
[ $bad = 0 ] || die "$bad error case(s) failed"
say "PASS: $s2_name"
