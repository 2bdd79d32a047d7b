#!/usr/bin/env bash
# The robustness cases of run-robustness.sh that apply to ssimulacra2_cuda (outputs, a
# rebuilt graph, doubtful timing, a matrix it cannot read, GPU memory, software frames
# that change size, a missing device), each asserting a
# clean exit or error, its message and complete output files. Needs a CUDA device.
# Env: S2_MEDIA, a folder with reschange.264 (96x64 then 64x48), made by
#      tools/device-pack.sh with x264, for the NVDEC cases;
#      S2_WRAP, a command to run ffmpeg under (e.g. "compute-sanitizer --tool memcheck
#      --error-exitcode 9"), as tools/device-check.sh does.
. "$(dirname "$0")/lib/common.sh"
need_ffmpeg ssimulacra2_cuda
W=$SSIMU2_TEST_OUT/cuda-robustness
rm -rf "$W"; mkdir -p "$W"
"$FFMPEG" -hide_banner -loglevel error -nostdin -init_hw_device cuda=gpu -f lavfi -i nullsrc \
    -frames:v 1 -f null - > /dev/null 2>&1 || skip "no CUDA device"
HW=(-init_hw_device cuda=gpu -filter_hw_device gpu)
. "$S2_TESTS/lib/cases.sh"
n=0 bad=0
UP="[0:v]format=nv12,hwupload[a];[1:v]format=nv12,hwupload[b];[a][b]ssimulacra2_cuda"
SRC=(-f lavfi -i testsrc2=s=64x64:r=10:d=1 -f lavfi -i testsrc2=s=64x64:r=10:d=1)
check cuda-log-dev-full error "Could not write the log file '/dev/full'" -- "${HW[@]}" "${SRC[@]}" -lavfi "$UP=log_path=/dev/full" -f null -
check cuda-log-stdout ok "" -- "${HW[@]}" "${SRC[@]}" -lavfi "$UP=log_path=-" -f null -
json_ok "$W/cuda-log-stdout.out" || { echo "FAIL cuda-log-stdout: stdout is not one JSON document"; bad=$((bad + 1)); }
check cuda-two-instances error "written by another filter instance" -- "${HW[@]}" "${SRC[@]}" -lavfi \
    "[0:v]format=nv12,hwupload,split[a][b];[1:v]format=nv12,hwupload,split[c][d];[a][c]ssimulacra2_cuda=log_path=two.json[o1];[b][d]ssimulacra2_cuda=log_path=two.json[o2]" \
    -map "[o1]" -f null - -map "[o2]" -f null -
# FFmpeg 8.1 cannot rebuild a graph whose output is CUDA frames (it puts a software scaler
# before the output): graphs that may be rebuilt end in hwdownload
check cuda-rebuild ok "rebuilt" rb.json:json rb.txt:stats -- "${HW[@]}" -f lavfi -i \
    "testsrc2=s=64x64:r=25:d=2,scale=w='if(lt(n,25),64,32)':h='if(lt(n,25),64,32)':eval=frame" \
    -f lavfi -i "testsrc2=s=64x64:r=25:d=2" -lavfi \
    "[0:v]scale=64:64,noise=alls=10,format=nv12,hwupload[a];[1:v]scale=64:64,format=nv12,hwupload[b];[a][b]ssimulacra2_cuda=log_path=rb.json:stats_file=rb.txt,hwdownload,format=nv12" -f null -
check cuda-ref-ends-first ok "came after the reference's last frame" -- "${HW[@]}" -f lavfi -i testsrc2=s=64x64:r=10:d=2 \
    -f lavfi -i testsrc2=s=64x64:r=10:d=1 -lavfi "$UP" -f null -
check cuda-dist-ends-first ok "frames:10 " -- "${HW[@]}" -f lavfi -i testsrc2=s=64x64:r=10:d=1 \
    -f lavfi -i testsrc2=s=64x64:r=10 -lavfi "$UP" -f null -
# shortest=1, kept by the filter: the output ends where the reference's last frame ends, the
# frames queued on the GPU output before (10 scored, 10 output)
check cuda-shortest ok "frames:10 " -- "${HW[@]}" -f lavfi -i testsrc2=s=64x64:r=10:d=2 \
    -f lavfi -i testsrc2=s=64x64:r=10:d=1 -lavfi "$UP=shortest=1,hwdownload,format=nv12" -f framemd5 "$W/shortest.md5"
[ "$(grep -vc '^#' "$W/shortest.md5" 2>/dev/null)" = 10 ] ||
    { echo "FAIL cuda-shortest: $(grep -vc '^#' "$W/shortest.md5" 2>/dev/null) frames output, not 10"; bad=$((bad + 1)); }
# pairing: frames without timestamps, reference frames paired with none, a reference that
# goes on (software frames: the frames queued on the GPU are scored before the counts)
check cuda-ref-no-timestamps error "A frame of the reference input has no timestamp" -- "${SRC[@]}" \
    -lavfi "[1:v]setpts=0/0[b];[0:v][b]ssimulacra2_cuda" -f null -
check cuda-ref-frames-skipped ok "ref_skipped:9" -- -f lavfi -i testsrc2=s=64x64:r=10:d=1 \
    -f lavfi -i testsrc2=s=64x64:r=20:d=1 -lavfi "[0:v][1:v]ssimulacra2_cuda" -f null -
check cuda-dist-cut-ref-goes-on ok "The reference goes on after the last distorted frame" -- "${HW[@]}" "${SRC[@]}" \
    -lavfi "[0:v]trim=start_frame=3,setpts=PTS-STARTPTS,format=nv12,hwupload[a];[1:v]format=nv12,hwupload[b];[a][b]ssimulacra2_cuda" -f null -
check cuda-ycgco error "not a Kr/Kb Y'CbCr matrix" -- "${HW[@]}" "${SRC[@]}" -lavfi \
    "[0:v]format=yuv444p,setparams=colorspace=ycgco,hwupload[a];[1:v]format=yuv444p,hwupload[b];[a][b]ssimulacra2_cuda" -f null -
# scratch sets that do not fit in the GPU's memory: fewer frames in flight, same scores
check cuda-scratch-fallback ok "scratch sets of" -- "${HW[@]}" -f lavfi -i color=gray:s=16000x16000:r=5:d=0.4 \
    -f lavfi -i color=gray:s=16000x16000:r=5:d=0.4 -lavfi "$UP=max_memory=1000000:queue_depth=16" -f null -
# software frames, uploaded by the filter: a graph rebuilt on a size change (software output,
# which FFmpeg can rebuild), sizes that change without a rebuild (the upload buffers grow),
# a device that does not exist
RESIZE="scale=w='if(lt(n,12),32,64)':h='if(lt(n,12),32,64)':eval=frame"
check cuda-sw-rebuild ok "rebuilt" swrb.json:json swrb.txt:stats -- -f lavfi -i "testsrc2=s=64x64:r=25:d=1,$RESIZE" \
    -f lavfi -i "testsrc2=s=64x64:r=25:d=1,$RESIZE" -lavfi "[0:v]noise=alls=10[a];[a][1:v]ssimulacra2_cuda=log_path=swrb.json:stats_file=swrb.txt" -f null -
check cuda-sw-grow ok "" swgr.json:json -- -reinit_filter 0 -f lavfi -i "testsrc2=s=64x64:r=25:d=1,noise=alls=10,$RESIZE" \
    -reinit_filter 0 -f lavfi -i "testsrc2=s=64x64:r=25:d=1,$RESIZE" -lavfi "[0:v][1:v]ssimulacra2_cuda=log_path=swgr.json" -f null -
# the frames queued on the GPU when ffmpeg frees the old graph cannot be output: not scored
# either (they had been, up to queue_depth - 1 frames missing from the output unsaid)
scored=$(sed -n 's/.*"frames_scored": \([0-9]*\).*/\1/p' "$W/swrb.json" 2>/dev/null)
output=$(grep -o 'frame= *[0-9]*' "$W/cuda-sw-rebuild.log" | tail -n 1 | tr -dc 0-9)
n=$((n + 1))
if [ -n "$scored" ] && [ -n "$output" ] && [ "$scored" -le "$output" ]; then
    say "  ok   cuda-sw-rebuild-held           $scored frames scored, $output output"
else
    say "  FAIL cuda-sw-rebuild-held: $scored frames scored, $output output"; bad=$((bad + 1))
fi
# crop on CUDA frames only sets their crop fields: refused (the frame was scored whole)
check cuda-cropped error "cropped by their crop fields" -- "${HW[@]}" "${SRC[@]}" -lavfi \
    "[0:v]format=nv12,hwupload,crop=32:32[a];[1:v]crop=32:32,format=nv12,hwupload[b];[a][b]ssimulacra2_cuda" -f null -
# the rebuilt graph starts without the reference frames the old one held (run-robustness.sh)
check cuda-sw-rebuild-ref-gap ok "came before the first reference frame of the rebuilt filter graph" -- -f lavfi -i \
    "testsrc2=s=64x64:r=25:d=2,scale=w='if(lt(n,25),64,32)':h='if(lt(n,25),64,32)':eval=frame" \
    -f lavfi -i "testsrc2=s=64x64:r=25:d=2,select='not(between(n\,15\,29))'" \
    -lavfi "[0:v]scale=64:64,noise=alls=10[a];[1:v]scale=64:64[b];[a][b]ssimulacra2_cuda" -f null -
check cuda-sw-no-such-device error "Cannot open CUDA device 99" -- "${SRC[@]}" -lavfi "[0:v][1:v]ssimulacra2_cuda=device=99" -f null -

# short_memory NAME LEAVE_MIB FORMAT EXPECTED: a 4K pair of software frames in FORMAT on a GPU
# with LEAVE_MIB free (the rest held by tests/tools/cuda-hog.c): EXPECTED in the log and every
# frame scored. Not under a sanitizer (its own memory; 4K frames)
short_memory() {
    local name=$1 k4=testsrc2=s=3840x2160:r=5:d=1,format=$3
    "$HOG" "$2" 120 > "$W/hog.out" 2> "$W/hog.err" &
    hog=$!
    trap 'kill $hog 2> /dev/null' EXIT
    for _ in $(seq 200); do
        if grep -q ready "$W/hog.out" || ! kill -0 $hog 2> /dev/null; then break; fi
        sleep 0.1
    done
    if grep -q ready "$W/hog.out"; then
        check "$name" ok "$4" -- -f lavfi -i "$k4" -f lavfi -i "$k4" \
            -lavfi "[0:v][1:v]ssimulacra2_cuda=max_memory=1000000:queue_depth=4" -f null -
        grep -qF "frames:5 " "$W/$name.log" ||
            { echo "FAIL $name: not 5 frames scored"; bad=$((bad + 1)); }
    else
        echo "SKIP: $name ($(cat "$W/hog.err"))"
    fi
    kill $hog 2> /dev/null; wait $hog 2> /dev/null
    trap - EXIT
}
if [ -z "${S2_WRAP:-}" ] && HOG=$(build_c cuda-hog "$S2_TESTS/tools/cuda-hog.c" -Wall); then
    # a GPU whose free memory the scratch sets take (a small card): the last set yields to
    # the upload buffers of software frames, which had been allocated at the first frame, out
    # of memory (4K rgba64: 2 sets of 892 MiB fit in 2000 MiB, then not 4 upload pairs of 127
    # MiB)
    short_memory cuda-sw-short-memory 2000 rgba64le "freed for the upload buffers"
    # room for no set of the layout max_memory allows (4K planes: 892 MiB), but for sets of
    # the next smaller one (tasks: 323 MiB): that one, with a warning
    short_memory cuda-smaller-layout 800 nv12 "a smaller layout (322."
fi

# NVDEC frames that change size
M=${S2_MEDIA:-}
NV=(-reinit_filter 0 -hwaccel cuda -hwaccel_output_format cuda)
if [ -f "$M/reschange.264" ]; then
    # a new NVDEC frames context makes ffmpeg rebuild the graph even with -reinit_filter 0
    check cuda-nvdec-reschange-both ok "rebuilt" rc.json:json -- "${NV[@]}" -i "$M/reschange.264" "${NV[@]}" -i "$M/reschange.264" \
        -lavfi "[0:v][1:v]ssimulacra2_cuda=log_path=rc.json,hwdownload,format=nv12" -f null -
    check cuda-nvdec-reschange-cuda-out error "Error reinitializing filters" -- "${NV[@]}" -i "$M/reschange.264" \
        "${NV[@]}" -i "$M/reschange.264" -lavfi "[0:v][1:v]ssimulacra2_cuda=log_path=co.json" -f null -
else
    echo "SKIP: NVDEC size-change cases (no \$S2_MEDIA/reschange.264)"
fi
echo "cuda robustness: $n cases, $bad failed"
[ "$bad" = 0 ]

