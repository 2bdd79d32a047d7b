#!/usr/bin/env bash
# Bad and awkward inputs: frames that change mid-stream, doubtful timing, outputs that cannot
# be written, damaged files, options out of range. Each case asserts how ffmpeg ended (a clean
# exit or a clean error: never a signal, never a hang), what it said, and that every output
# file it names is complete and parses (or, after an error, was not left truncated).
. "$(dirname "$0")/lib/common.sh"
need_ffmpeg
W=$SSIMU2_TEST_OUT/robustness
# (a tmpfs an earlier run killed left mounted)
mountpoint -q "$W/small" 2> /dev/null && umount "$W/small"
rm -rf "$W"; mkdir -p "$W"
. "$S2_TESTS/lib/cases.sh"
F=ssimulacra2
n=0 bad=0

# frames_in LOG: number of frames in a JSON log
frames_in() { awk -f "$S2_AWK/parselog.awk" "$1" | grep -c '^frame '; }

lavfi() { echo "testsrc2=s=${1:-64x64}:r=${2:-10}:d=${3:-1}"; }
HALF_ALPHA="format=rgba,colorchannelmixer=aa=0.5"   # transparent pixels
SRC=(-f lavfi -i "$(lavfi)" -f lavfi -i "$(lavfi)")
G="[0:v][1:v]$F"

# ---- media for the cases (made with this ffmpeg, and x264 where present)
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 96x64 10 1)" -pix_fmt yuv420p "$W/clip.y4m"
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 64x64 10 3)" -pix_fmt yuv420p "$W/clip30.y4m"
head -c $(( $(wc -c < "$W/clip.y4m") / 2 )) "$W/clip.y4m" > "$W/truncated.y4m"
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 96x64 1 1)" -frames:v 1 "$W/img.png"
head -c 700 "$W/img.png" > "$W/truncated.png"
: > "$W/empty.y4m"
# PNG sequence that switches from rgb24 to ya16be (gray + alpha, 16-bit), and to rgb48be
for i in 0 1 2; do
    "$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 64x64 1 1)" -frames:v 1 -pix_fmt rgb24 "$W/seq_$i.png"
    cp "$W/seq_$i.png" "$W/seq48_$i.png"
done
for i in 3 4 5; do
    "$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 64x64 1 1)" -frames:v 1 -pix_fmt ya16be "$W/seq_$i.png"
    "$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 64x64 1 1)" -frames:v 1 -pix_fmt rgb48be "$W/seq48_$i.png"
done
HAVE_X264=no
if command -v x264 > /dev/null; then
    HAVE_X264=yes
    "$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 96x64 10 1)" -pix_fmt yuv420p "$W/a.y4m"
    "$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 64x48 10 1)" -pix_fmt yuv420p "$W/b.y4m"
    x264 --quiet --crf 30 -o "$W/a.264" "$W/a.y4m" 2> /dev/null &&
        x264 --quiet --crf 30 -o "$W/b.264" "$W/b.y4m" 2> /dev/null || die "x264 failed"
    cat "$W/a.264" "$W/b.264" > "$W/reschange.264"
    cat "$W/a.264" "$W/a.264" > "$W/twice.264"
    # bytes flipped after the headers
    cp "$W/a.264" "$W/flipped.264"
    printf '\xff\x00\xff\x00\xff\x00\xff\x00' | dd of="$W/flipped.264" bs=1 seek=900 conv=notrunc 2> /dev/null
fi

say "$F: frames that change mid-stream"
# the issue's reproducers: the size changes inside the graph, so ffmpeg does not rebuild it
check shrink-main error "Input sizes differ" -- -f lavfi -i "$(lavfi 320x240 10 1)" -f lavfi -i "$(lavfi 320x240 10 1)" \
    -lavfi "[0:v]scale=w='if(lt(n,5),320,160)':h='if(lt(n,5),240,120)':eval=frame[a];[a][1:v]$F" -f null -
check grow-main error "Input sizes differ" -- -f lavfi -i "$(lavfi 160x120 10 1)" -f lavfi -i "$(lavfi 160x120 10 1)" \
    -lavfi "[0:v]scale=w='if(lt(n,5),160,320)':h='if(lt(n,5),120,240)':eval=frame[a];[a][1:v]$F" -f null -
check shrink-main-rebuilt error "Input sizes differ" -- -f lavfi -i "$(lavfi 320x240 10 1),scale=w='if(lt(n,5),320,160)':h='if(lt(n,5),240,120)':eval=frame" \
    -f lavfi -i "$(lavfi 320x240 10 1)" -lavfi "$G" -f null -
check shrink-both ok "" both.json:json -- -f lavfi -i "$(lavfi 320x240 10 1)" -lavfi \
    "[0:v]split[x][y];[x]noise=alls=8,scale=w='if(lt(n,5),320,160)':h='if(lt(n,5),240,120)':eval=frame[a];[y]scale=w='if(lt(n,5),320,160)':h='if(lt(n,5),240,120)':eval=frame[b];[a][b]$F=log_path=both.json" -f null -
[ -s "$W/both.json" ] && [ "$(frames_in "$W/both.json")" = 10 ] || { echo "  FAIL shrink-both: $(frames_in "$W/both.json" 2>/dev/null) frames scored, expected 10"; bad=$((bad + 1)); }
# (the error is "Unsupported pixel format ya16be", or, where the reference's first frame comes
# after the distorted input's fourth and ffmpeg configures the graph with ya16be, the refused
# conversion: ffmpeg takes an input's format from its latest frame until the graph exists)
check png-to-ya16be error "pixel format ya16be" -- -reinit_filter 0 -framerate 5 -i seq_%d.png -reinit_filter 0 \
    -framerate 5 -i seq_%d.png -lavfi "$G" -f null -
check png-to-rgb48be-both ok "" seq.json:json -- -reinit_filter 0 -framerate 5 -i seq48_%d.png -reinit_filter 0 \
    -framerate 5 -i seq48_%d.png -lavfi "[0:v][1:v]$F=log_path=seq.json" -f null -
check png-to-rgb48be-main ok "" -- -reinit_filter 0 -framerate 5 -i seq48_%d.png -reinit_filter 0 \
    -framerate 5 -i seq_0.png -lavfi "$G" -f null -
if [ $HAVE_X264 = yes ]; then
    check h264-reschange-main error "Input sizes differ" -- -reinit_filter 0 -i reschange.264 -i twice.264 \
        -lavfi "$G" -f null -
    check h264-reschange-both ok "" rc.json:json -- -reinit_filter 0 -i reschange.264 -reinit_filter 0 -i reschange.264 \
        -lavfi "[0:v][1:v]$F=log_path=rc.json" -f null -
    check h264-reschange-rebuild ok "rebuilt" rb.json:json rb.txt:stats -- -i reschange.264 -i reschange.264 \
        -lavfi "[0:v]scale=96:64[a];[1:v]scale=96:64[b];[a][b]$F=log_path=rb.json:stats_file=rb.txt" -f null -
    check h264-bitflip ok "" -- -i flipped.264 -i a.264 -lavfi "$G" -f null -
else
    say "  (x264 not found: the H.264 cases are skipped; apt-get install x264)"
fi
# a filter that counts from the start (setpts=PTS-STARTPTS) starts again in a rebuilt graph:
# the timestamps go back there, named as the rebuild's (it had been told -copyts or a clock
# that restarts: neither was there, and its advice gave the same error)
check rebuild-restarts-setpts ok "go back where ffmpeg rebuilt the filter graph" -- -f lavfi -i \
    "testsrc2=s=64x64:r=25:d=2,scale=w='if(lt(n,25),64,32)':h='if(lt(n,25),64,32)':eval=frame" \
    -f lavfi -i "testsrc2=s=64x64:r=25:d=2" \
    -lavfi "[0:v]setpts=PTS-STARTPTS,scale=64:64[a];[1:v]setpts=PTS-STARTPTS,scale=64:64[b];[a][b]$F" -f null -
# the graph is rebuilt when an input changes: the files cover every scored frame, in order
check rebuild-files ok "rebuilt" rl.json:json rl.txt:stats -- -f lavfi -i \
    "testsrc2=s=64x64:r=25:d=2,scale=w='if(lt(n,25),64,32)':h='if(lt(n,25),64,32)':eval=frame" \
    -f lavfi -i "testsrc2=s=64x64:r=25:d=2" \
    -lavfi "[0:v]scale=64:64,noise=alls=10[a];[1:v]scale=64:64[b];[a][b]$F=log_path=rl.json:stats_file=rl.txt" -f null -
if [ -s "$W/rl.json" ]; then
    nj=$(frames_in "$W/rl.json"); ns=$(grep -c '^n:' "$W/rl.txt")
    nsum=$(sed -n 's/.*SSIMULACRA2 frames:\([0-9]*\).*/\1/p' "$W/rebuild-files.log" | tail -n 1)
    if [ "$nj" -ge 45 ] && [ "$nj" = "$ns" ] && [ "$nj" = "$nsum" ]; then
        say "  ok   rebuild-files: log, stats file and summary all hold $nj frames (50 in, at most 2 per rebuild left inside ffmpeg)"
    else
        say "  FAIL rebuild-files: log $nj, stats $ns, summary $nsum frames"; bad=$((bad + 1))
    fi
fi
# ... also where the reference is a movie= source in the graph (it restarts with the rebuilt
# graph; the run had started again, its first scores overwritten)
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "testsrc2=s=64x64:r=25:d=2" "$W/ref25.y4m"
check rebuild-movie ok "rebuilt" -- -f lavfi -i \
    "testsrc2=s=64x64:r=25:d=2,scale=w='if(lt(n,25),64,32)':h='if(lt(n,25),64,32)':eval=frame" \
    -lavfi "[0:v]scale=64:64,noise=alls=10[a];movie=ref25.y4m[b];[a][b]$F" -f null -
n_movie=$(sed -n 's/.*SSIMULACRA2 frames:\([0-9]*\).*/\1/p' "$W/rebuild-movie.log" | tail -n 1)
# (50 frames, a few lost at the rebuild; a run started again holds about 25)
[ "${n_movie:-0}" -ge 45 ] || { say "  FAIL rebuild-movie: the last summary holds ${n_movie:-no} frames"; bad=$((bad + 1)); }
# a colour note is said once a run, not again by each rebuilt graph (an image sequence of
# mixed formats, rebuilt per image, said them per image)
check rebuild-notes-once ok "has no Y'CbCr matrix tag" -- -f lavfi -i \
    "testsrc2=s=64x64:r=25:d=2,scale=w='if(lt(mod(n,20),10),64,32)':h=64:eval=frame" \
    -f lavfi -i "testsrc2=s=64x64:r=25:d=2" \
    -lavfi "[0:v]scale=64:64,format=rgb24[a];[1:v]format=yuv420p[b];[a][b]$F" -f null -
[ "$(grep -c "has no Y'CbCr matrix tag" "$W/rebuild-notes-once.log")" = 1 ] ||
    { say "  FAIL rebuild-notes-once: the note is said $(grep -c "has no Y'CbCr matrix tag" "$W/rebuild-notes-once.log") times"; bad=$((bad + 1)); }
# frames lost at a rebuild (the last one of the old size left out; ffmpeg drops the ones it
# holds in the old graph): counted as unpaired, so that the frame numbers stay the input's
check rebuild-gap ok "rebuilt" rg.json:json -- -f lavfi -i \
    "testsrc2=s=64x64:r=25:d=2,scale=w='if(lt(n,25),64,32)':h='if(lt(n,25),64,32)':eval=frame,select='not(eq(n\,24))'" \
    -f lavfi -i "testsrc2=s=64x64:r=25:d=2" \
    -lavfi "[0:v]scale=64:64,noise=alls=10[a];[1:v]scale=64:64[b];[a][b]$F=log_path=rg.json" -f null -
if [ -s "$W/rg.json" ]; then
    sum=$(sed -n 's/.*SSIMULACRA2 frames:\([0-9]*\) .* unpaired:\([0-9]*\).*/\1 \2/p' "$W/rebuild-gap.log" | tail -n 1)
    last=$(awk -f "$S2_AWK/parselog.awk" "$W/rg.json" | awk '$1 == "frame" { n = $2 } END { print n }')
    if [ -n "$sum" ] && [ $(( ${sum% *} + ${sum#* } )) = 50 ] && [ "$last" = 49 ]; then
        say "  ok   rebuild-gap: scored + unpaired = 50, the last frame is number 49"
        # those frames are gone from the output too: not "passed through"; and whatever the
        # old graph held of the reference is no reason to blame the reference's end or start
        grep -qF "were lost when ffmpeg rebuilt the filter graph" "$W/rebuild-gap.log" &&
            ! grep -qE "had no reference frame and were passed|before the reference's first frame" "$W/rebuild-gap.log" ||
            { say "  FAIL rebuild-gap: the lost frames are said to be passed through"; bad=$((bad + 1)); }
    else
        say "  FAIL rebuild-gap: scored, unpaired = $sum; last frame number $last (expected a sum of 50, 49)"; bad=$((bad + 1))
    fi
fi

# the rebuilt graph starts without the reference frames the old one held (how many depends on
# ffmpeg's threads; the cut makes it at least 5): those distorted frames are passed through
# because of the rebuild, not because the reference ended or starts later
check rebuild-ref-gap ok "came before the first reference frame of the rebuilt filter graph" -- -f lavfi -i \
    "testsrc2=s=64x64:r=25:d=2,scale=w='if(lt(n,25),64,32)':h='if(lt(n,25),64,32)':eval=frame" \
    -f lavfi -i "testsrc2=s=64x64:r=25:d=2,select='not(between(n\,15\,29))'" \
    -lavfi "[0:v]scale=64:64,noise=alls=10[a];[1:v]scale=64:64[b];[a][b]$F" -f null -
grep -qE "had no reference frame and were passed|before the reference's first frame" "$W/rebuild-ref-gap.log" &&
    { say "  FAIL rebuild-ref-gap: frames after a rebuild blamed on the reference's end"; bad=$((bad + 1)); }

say "$F: timing"
# one image against another: the rates of their formats (1 and 25 fps) pair nothing wrongly
check image-rates ok "SSIMULACRA2 score:" -- -framerate 1 -i img.png -i img.png -lavfi "$G" -f null -
grep -qF "Frame rates differ" "$W/image-rates.log" &&
    { say "  FAIL image-rates: frame rates said to differ for one image against one"; bad=$((bad + 1)); }
# a doubled rate of repeated frames: each frame is a frame off its pair, but not by rounding
check rate-doubled ok "" -- -f lavfi -i "$(lavfi 64x64 10 1),fps=20" -f lavfi -i "$(lavfi 64x64 10 1)" -lavfi "$G" -f null -
grep -qF "use ts_sync_mode=nearest" "$W/rate-doubled.log" &&
    { say "  FAIL rate-doubled: a doubled frame rate is advised ts_sync_mode=nearest"; bad=$((bad + 1)); }
check rates-differ ok "Frame rates differ" -- -f lavfi -i "$(lavfi 64x64 30 2)" -f lavfi -i "$(lavfi 64x64 25 2)" -lavfi "$G" -f null -
# one-to-one frames labelled with another rate: the fix is new timestamps, not fps= (which
# drops or repeats frames)
grep -qF -- "-r 25/1 before its -i" "$W/rates-differ.log" ||
    { say "  FAIL rates-differ: the advice does not retime the distorted input"; bad=$((bad + 1)); }
# a rung made at another rate (fps=24 of a 29.97 fps source: 6.7 instead of 55.1) is scored
# against the reference converted the same way (the advice had said fps= drops frames)
grep -qF -- "[1:v]fps=30/1 before the filter" "$W/rates-differ.log" ||
    { say "  FAIL rates-differ: the advice does not convert the reference for a rung made at another rate"; bad=$((bad + 1)); }
# the same frames labelled 25 fps in a Y4M (time base 1/25) beside 24000/1001: the advised
# setpts, followed literally, pairs them one to one (setpts alone rounded some frames a tick
# early in that time base: -19.8 in the probe, where 100 is right)
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 64x64 24000/1001 3)" -pix_fmt yuv420p "$W/r2398.y4m" &&
"$FFMPEG" -nostdin -loglevel error -r 25 -i "$W/r2398.y4m" -c copy -f yuv4mpegpipe "$W/r25.y4m"
check rates-y4m ok "Frame rates differ" -- -i "$W/r25.y4m" -i "$W/r2398.y4m" -lavfi "$G" -f null -
adv=$(grep -o 'settb=AVTB,setpts=N\*[0-9]*/[0-9]*/TB' "$W/rates-y4m.log" | head -n 1)
check rates-y4m-advised ok "SSIMULACRA2 score: 100.000000" -- -i "$W/r25.y4m" -i "$W/r2398.y4m" \
    -lavfi "[0:v]${adv:-no-advice}[d];[d][1:v]$F" -f null -
# parts of two rates joined by concat: the link's rate is 1/0 ("variable"), taken as a frame of
# no length: no allowance for Matroska's rounding (69 of 71 mismatched, 39.1 for 100)
for part in var-a:24000/1001:1.7 var-b:30:1; do
    IFS=: read -r name rate len <<< "$part"
    src=$(lavfi 64x64 "$rate" "$len")
    "$FFMPEG" -nostdin -loglevel error -f lavfi -i "$src" -c:v ffv1 "$W/$name.mkv"
    "$FFMPEG" -nostdin -loglevel error -f lavfi -i "$src" -pix_fmt yuv420p "$W/$name.y4m"
done
check rates-variable ok "ref_repeated:0 ts_mismatched:0 unpaired:0 ref_skipped:0" -- \
    -i "$W/var-a.mkv" -i "$W/var-b.mkv" -i "$W/var-a.y4m" -i "$W/var-b.y4m" \
    -lavfi "[0:v][1:v]concat=n=2[d];[2:v][3:v]concat=n=2[r];[d][r]$F" -f null -
grep -qF "SSIMULACRA2 score: 100.000000" "$W/rates-variable.log" ||
    { say "  FAIL rates-variable: not every pair the same picture"; bad=$((bad + 1)); }
# ... and without durations either (setpts=strip_fps=1): no half frame to be off by (39 of 41
# right pairs had been counted mismatched)
check rates-stripped ok "ts_mismatched:0" -- -i "$W/var-a.mkv" -i "$W/var-a.y4m" \
    -lavfi "[0:v]setpts=strip_fps=1:expr=PTS[d];[d][1:v]$F" -f null -
# a raw MJPEG stream has no timing: ffmpeg reads it at 25 fps, and fps=25 on the reference (the
# advice for a rate conversion) scored a 24 fps encode -0.9 instead of 75.7, unwarned; the
# stream's rate given before its -i pairs it one to one
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 64x64 24 3)" -c:v mjpeg -q:v 2 -f mjpeg \
    "$W/r24.mjpeg"
check rates-raw-stream ok "give it its rate (-framerate 24/1 before its -i)" -- -i "$W/r24.mjpeg" \
    -f lavfi -i "$(lavfi 64x64 24 3)" -lavfi "$G" -f null -
check rates-raw-stream-given ok "ts_mismatched:0" -- -framerate 24 -i "$W/r24.mjpeg" \
    -f lavfi -i "$(lavfi 64x64 24 3)" -lavfi "$G" -f null -
grep -qF "Frame rates differ" "$W/rates-raw-stream-given.log" &&
    { say "  FAIL rates-raw-stream-given: rates still differ"; bad=$((bad + 1)); }
# frames without timestamps (a raw stream read by movie=): framesync took such a reference as
# earlier than every frame (all scored against its last frame), such a distorted input as
# never paired
check ref-no-timestamps error "A frame of the reference input has no timestamp" -- "${SRC[@]}" \
    -lavfi "[1:v]setpts=0/0[b];[0:v][b]$F" -f null -
check dist-no-timestamps error "A frame of the distorted input has no timestamp" -- "${SRC[@]}" \
    -lavfi "[0:v]setpts=0/0[a];[a][1:v]$F" -f null -
# the distorted video cut at the start (-ss on one input only) and given new timestamps: every
# pair is shifted, and the reference goes on after it
check dist-cut-ref-goes-on ok "The reference goes on after the last distorted frame" -- "${SRC[@]}" \
    -lavfi "[0:v]trim=start_frame=3,setpts=PTS-STARTPTS[a];[a][1:v]$F" -f null -
# the distorted video begins earlier, its timestamps right (both cut at the keyframe before the
# cut, -noaccurate_seek): the pairs are right, and realigning the starts (the advice given
# alone before) shifts every pair (-64.0 instead of 49.8)
check dist-begins-earlier ok "If the distorted video begins earlier" -- "${SRC[@]}" \
    -lavfi "[1:v]trim=start_frame=2[b];[0:v][b]$F" -f null -
# a cut at the end of the distorted video only shifts nothing: not told so
check dist-cut-end ok "cut at its end (-t, -frames or trim on it only: the pairs are right)" -- "${SRC[@]}" \
    -lavfi "[0:v]trim=end_frame=5[a];[a][1:v]$F" -f null -
# ... also where the reference does not drive the pairing (repeatlast=0, eof_action=pass):
# framesync ended with the distorted video before it read the reference's next frame, and
# the warning came in 2 runs of 5 (4 runs each here)
for o in repeatlast=0 eof_action=pass; do
    for i in 1 2 3 4; do
        check "dist-cut-ref-goes-on-${o%%=*}-$i" ok "The reference goes on after the last distorted frame" -- \
            -ss 0.3 -i "$W/clip.y4m" -i "$W/clip.y4m" -lavfi "[0:v][1:v]$F=$o" -f null -
    done
done
# ... and with a reference at twice the rate: framesync took the distorted input's time base
# alone and rounded the reference's timestamps onto it (35.0 instead of 100)
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 96x64 60 1)" -pix_fmt yuv420p "$W/r60.y4m"
"$FFMPEG" -nostdin -loglevel error -i "$W/r60.y4m" -vf fps=30 "$W/d30.y4m"
for o in repeatlast=0 eof_action=pass; do
    check "ref-double-rate-${o%%=*}" ok "frames:30 mean:100.00000000" -- -i "$W/d30.y4m" -i "$W/r60.y4m" \
        -lavfi "[0:v][1:v]$F=$o" -f null -
done
# the mirror of a distorted video whose timestamps start late: the reference's start late (an
# AVI with B-frames as the reference of its own re-encode: -34.4 instead of 62.6), said at
# error level once it goes on as long after the distorted video
check ref-starts-late-shifted ok "every frame was scored against another picture" -- "${SRC[@]}" \
    -lavfi "[1:v]setpts=PTS+0.3/TB[b];[0:v][b]$F" -f null -
grep -q "goes on after the last distorted frame" "$W/ref-starts-late-shifted.log" &&
    { say "  FAIL ref-starts-late-shifted: a cut of the distorted video named too"; bad=$((bad + 1)); }
# a reference at uneven times (a GIF's 40 and 50 ms steps) against the same frames an encoder
# put on its own grid: mispaired frames were told to check rates and start times, which does
# not mend them; the nearest pairing does (most of them here; all for a GIF's re-encode)
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 64x64 25 1.2)" -vf "setpts='round(N*4.5)/100/TB'" \
    -fps_mode passthrough -c:v ffv1 "$W/uneven.mkv"
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 64x64 25 1.2)" -vf "setpts='N*0.045/TB'" -r 200/9 \
    -pix_fmt yuv420p "$W/grid.y4m"
check ref-uneven-times ok "The reference's frames come at uneven times" -- -i "$W/grid.y4m" -i "$W/uneven.mkv" \
    -lavfi "[0:v][1:v]$F" -f null -
# a reference with gaps (every fourth frame's time left out), encoded at a constant rate with
# -r: ffmpeg fills each gap with a neighbour, at times the next picture early, which no pairing
# by time mends (told to round or use nearest: 47.7 and frames at -39 left): the reference made
# constant-rate the same way is advised, and pairs every frame (lossless here: 100)
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 64x64 24 2)" -vf "setpts='(N+floor(N/3))/(24*TB)'" \
    -fps_mode passthrough -c:v ffv1 "$W/gaps.mkv"
"$FFMPEG" -nostdin -loglevel error -i "$W/gaps.mkv" -fps_mode cfr -r 24 -c:v ffv1 "$W/gaps-cfr.mkv"
check cfr-encode-of-vfr ok "in a run of its own: ffmpeg -i REFERENCE -fps_mode cfr -r 24/1" -- \
    -i gaps-cfr.mkv -i gaps.mkv -lavfi "[0:v][1:v]$F" -f null -
"$FFMPEG" -nostdin -loglevel error -i "$W/gaps.mkv" -fps_mode cfr -r 24/1 -c:v ffv1 "$W/gaps-ref-cfr.mkv"
check cfr-encode-of-vfr-advice ok "SSIMULACRA2 score: 100.000000" -- \
    -i gaps-cfr.mkv -i gaps-ref-cfr.mkv -lavfi "[0:v][1:v]$F" -f null -
# framesync's other end rules (shortest=1, eof_action=endall or pass, repeatlast=0) had no
# pairing tolerance: an MKV (millisecond timestamps) against a Y4M of the same frames at 29.97
# fps scored 17.1 instead of 52.2 (here 100: lossless), either way round
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 64x48 30000/1001 1)" -pix_fmt yuv420p "$W/ntsc.y4m"
"$FFMPEG" -nostdin -loglevel error -i "$W/ntsc.y4m" -c:v ffv1 "$W/ntsc.mkv"
for o in shortest=1 eof_action=endall eof_action=pass repeatlast=0; do
    check "mkv-ms-${o%%=*}-${o#*=}" ok "frames:30 mean:100.00000000" -- -i "$W/ntsc.mkv" -i "$W/ntsc.y4m" \
        -lavfi "[0:v][1:v]$F=$o" -f null -
    check "mkv-ms-ref-${o%%=*}-${o#*=}" ok "frames:30 mean:100.00000000" -- -i "$W/ntsc.y4m" -i "$W/ntsc.mkv" \
        -lavfi "[0:v][1:v]$F=$o" -f null -
done
# ... and shortest=1 still ends the output with a shorter reference (20 of 30 frames)
check shortest-ends-with-ref ok "frames:20 " -- -i "$W/ntsc.mkv" -t 0.66 -i "$W/ntsc.y4m" \
    -lavfi "[0:v][1:v]$F=shortest=1" -f framemd5 short-ref.md5
[ "$(grep -vc '^#' "$W/short-ref.md5")" = 20 ] ||
    { say "  FAIL shortest-ends-with-ref: $(grep -vc '^#' "$W/short-ref.md5") frames output, not 20"; bad=$((bad + 1)); }
# a reference whose last frame is held longer (a GIF's final delay, 0.6 s): the distorted
# frames within it are its pairs (14 of 39 had been left unscored, "the reference is shorter")
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 64x64 25 1)" -final_delay 60 "$W/held.gif"
"$FFMPEG" -nostdin -loglevel error -i "$W/held.gif" -vf fps=25 -c:v ffv1 "$W/held.mkv"
check ref-last-frame-held ok "unpaired:0 " -- -i "$W/held.mkv" -i "$W/held.gif" -lavfi "[0:v][1:v]$F" -f null -
# the reference cut at the start on its own: every pair shifted, the distorted video goes on
# after it; the causes named had left out a cut of the reference
check ref-cut-dist-goes-on ok "-ss, -t or trim on the reference only; after a cut at its start every pair is shifted" -- \
    -i "$W/clip.y4m" -ss 0.3 -i "$W/clip.y4m" -lavfi "[0:v][1:v]$F" -f null -
check same-length-ends-quietly ok "frames:10 " -- "${SRC[@]}" -lavfi "$G" -f null -
grep -qF "goes on" "$W/same-length-ends-quietly.log" &&
    { say "  FAIL same-length-ends-quietly: inputs of the same length said to go on"; bad=$((bad + 1)); }
# a reference at twice the rate: every other frame is paired with none (counted: 10 of the 20
# frames, the last one after the distorted video's end)
check ref-frames-skipped ok "ref_skipped:9" -- -f lavfi -i "$(lavfi 64x64 10 1)" -f lavfi -i "$(lavfi 64x64 20 1)" \
    -lavfi "$G" -f null -
grep -qF "9 reference frames were paired with no distorted frame" "$W/ref-frames-skipped.log" ||
    { say "  FAIL ref-frames-skipped: no warning for the skipped reference frames"; bad=$((bad + 1)); }
# a start offset under a frame (MPEG-TS video after its audio): named, and not taken for
# container rounding (ts_sync_mode=nearest would pair every frame with the next reference frame)
check start-offset ok "The first distorted frame is 60.0 ms after the reference frame" -- "${SRC[@]}" \
    -lavfi "[0:v]settb=1/1000,setpts=PTS+0.06/TB[a];[a][1:v]$F" -f null -
grep -qF "use ts_sync_mode=nearest" "$W/start-offset.log" &&
    { say "  FAIL start-offset: a start offset is advised ts_sync_mode=nearest"; bad=$((bad + 1)); }
# ... and the last distorted frame, less than a frame after the reference's last, keeps its pair
grep -qF "unpaired:0 " "$W/start-offset.log" ||
    { say "  FAIL start-offset: the last frame was left unpaired"; bad=$((bad + 1)); }
# a distorted video whose timestamps start whole frames late (an AVI with B-frames: two) was
# scored against the reference two frames on (-64.1 instead of 54.6), warned in general terms
# only: said at error level where as many of its frames run past the reference's end (the
# same frames, shifted), with the fix
check dist-starts-frames-late ok "The distorted video starts 2 reference frames (200.0 ms) after the reference, and goes on as long" \
    -- "${SRC[@]}" -lavfi "[0:v]setpts=PTS+0.2/TB[a];[a][1:v]$F" -f null -
"$FFMPEG" -nostdin -loglevel error "${SRC[@]}" -lavfi "[0:v]setpts=PTS+0.2/TB[a];[a][1:v]$F" -f null - 2>&1 |
    grep -qF "setpts=PTS-STARTPTS on both inputs" ||
    { say "  FAIL dist-starts-frames-late: not said at -loglevel error"; bad=$((bad + 1)); }
# ... naming the other reading too: windows of one source cut at different times that kept its
# timestamps (-ss with -copyts on both) look the same, and their pairs are right
grep -qF "cut from one source at different times" "$W/dist-starts-frames-late.log" ||
    { say "  FAIL dist-starts-frames-late: a window kept by -copyts is not named"; bad=$((bad + 1)); }
# ... and a warning where the distorted video lacks the reference's first frames and ends with it
check dist-lacks-first-frames ok "starts 2 reference frames (200.0 ms) after the reference: the reference's first frames were not scored" \
    -- "${SRC[@]}" -lavfi "[0:v]trim=start_frame=2[a];[a][1:v]$F" -f null -
grep -qF "paired with a reference frame used before" "$W/rates-differ.log" ||
    { say "  FAIL rates-differ: repeated reference frames not counted"; bad=$((bad + 1)); }
# distorted frames after the reference's end are passed through unscored, not scored against its
# last frame again (so were the last frames of an encode with B-frames when ffmpeg was stopped)
check ref-ends-first ok "came after the reference's last frame" short.json:json -- -f lavfi -i "$(lavfi 64x64 10 2)" \
    -f lavfi -i "$(lavfi 64x64 10 1)" -lavfi "[0:v][1:v]$F=log_path=short.json" -f null -
grep -q '"frames_ref_repeated": 0' "$W/short.json" && grep -q '"frames_unpaired": 10' "$W/short.json" ||
    { say "  FAIL ref-ends-first: frames_ref_repeated is not 0, or frames_unpaired not 10, in the log"; bad=$((bad + 1)); }
check ref-ends-pass ok "came after the reference's last frame" -- -f lavfi -i "$(lavfi 64x64 10 2)" -f lavfi -i "$(lavfi 64x64 10 1)" \
    -lavfi "[0:v][1:v]$F=eof_action=pass" -f null -
grep -q "unpaired:10" "$W/ref-ends-pass.log" || { say "  FAIL ref-ends-pass: unpaired:10 not in the summary"; bad=$((bad + 1)); }
check ref-ends-shortest ok "" -- -f lavfi -i "$(lavfi 64x64 10 2)" -f lavfi -i "$(lavfi 64x64 10 1)" \
    -lavfi "[0:v][1:v]$F=shortest=1" -f null -
grep -qF "used before" "$W/ref-ends-shortest.log" && { say "  FAIL ref-ends-shortest: warned with shortest=1"; bad=$((bad + 1)); }
# the distorted input ends first: the output ends with it, and its frames score as they do
# against a reference of the same length (not its last frame again, at each later reference frame)
check dist-ends-first ok "frames:10 " -- -f lavfi -i "$(lavfi 64x64 10 1),noise=alls=20" -f lavfi -i "$(lavfi 64x64 10 2)" \
    -lavfi "$G" -f null -
check dist-ends-same ok "frames:10 " -- -f lavfi -i "$(lavfi 64x64 10 1),noise=alls=20" -f lavfi -i "$(lavfi 64x64 10 1)" \
    -lavfi "$G" -f null -
mean_of() { sed -n 's/.*SSIMULACRA2 frames:[0-9]* mean:\([^ ]*\).*/\1/p' "$W/$1.log" | tail -n 1; }
[ -n "$(mean_of dist-ends-same)" ] && [ "$(mean_of dist-ends-first)" = "$(mean_of dist-ends-same)" ] ||
    { say "  FAIL dist-ends-first: mean $(mean_of dist-ends-first), with a reference as long: $(mean_of dist-ends-same)"; bad=$((bad + 1)); }
check ref-endless ok "frames:10 " -- -f lavfi -i "$(lavfi 64x64 10 1)" -f lavfi -i "testsrc2=s=64x64:r=10" -lavfi "$G" -f null -
# timestamps rounded by a container (Matroska keeps milliseconds): the default pairing pairs the
# frames as with exact ones (at or before, it took the reference frame before for a third of them:
# an MP4 encode of an MKV source scored 3.8 instead of 40.9)
NTSC=testsrc2=s=64x64:r=24000/1001:d=2
MS=(settb=1/1000,setpts='round(N*1001/24)' settb=1/1000,setpts='floor(N*1001/24)')
check rounded-exact ok "ts_mismatched:0 " -- -f lavfi -i "$NTSC,avgblur=2" -f lavfi -i "$NTSC" -lavfi "$G" -f null -
check rounded-ref ok "ts_mismatched:0 " -- -f lavfi -i "$NTSC,avgblur=2" -f lavfi -i "$NTSC,${MS[0]}" -lavfi "$G" -f null -
check rounded-dist ok "ts_mismatched:0 " -- -f lavfi -i "$NTSC,avgblur=2,${MS[0]}" -f lavfi -i "$NTSC" -lavfi "$G" -f null -
check rounded-dist-down ok "ts_mismatched:0 " -- -f lavfi -i "$NTSC,avgblur=2,${MS[1]}" -f lavfi -i "$NTSC" -lavfi "$G" -f null -
score_of() { sed -n 's/.*SSIMULACRA2 score: \(.*\)/\1/p' "$W/$1.log" | tail -n 1; }
for c in rounded-ref rounded-dist rounded-dist-down; do
    [ -n "$(score_of rounded-exact)" ] && [ "$(score_of $c)" = "$(score_of rounded-exact)" ] ||
        { say "  FAIL $c: $(score_of $c), with exact timestamps $(score_of rounded-exact)"; bad=$((bad + 1)); }
done
# the tolerance is only made where the reference's last frame repeats: with shortest=1 or
# eof_action=pass, framesync ends the reference a tick after its last frame's moved time (the last
# distorted frame was dropped, or left unscored)
for o in shortest=1 eof_action=pass; do
    check "ends-$o" ok "frames:5 " -- -f lavfi -i "$(lavfi 64x64 25 0.2),settb=1/1000" -f lavfi -i "$(lavfi 64x64 25 0.2),settb=1/1000" \
        -lavfi "$G=$o" -f null -
    grep -q "unpaired:0 ref_skipped:0" "$W/ends-$o.log" || { say "  FAIL ends-$o: a frame unpaired or skipped"; bad=$((bad + 1)); }
done
# each doubtful pairing is reported with its cause and its fix: rounding beyond the tolerance
# (a quarter frame at 600 fps)
check rounded-timestamps ok "use ts_sync_mode=nearest" -- -f lavfi -i "$(lavfi 64x64 600 0.5),settb=1/1000,setpts='floor(N*5/3)'" \
    -f lavfi -i "$(lavfi 64x64 600 0.5)" -lavfi "$G=eof_action=endall" -f null -
check rounded-timestamps-nearest ok "ts_mismatched:0 " -- -f lavfi -i "$(lavfi 64x64 600 0.5),settb=1/1000,setpts='floor(N*5/3)'" \
    -f lavfi -i "$(lavfi 64x64 600 0.5)" -lavfi "$G=eof_action=endall:ts_sync_mode=nearest" -f null -
# ... and uneven timestamps (6 ms either way at 25 fps: 44.4 instead of 78.7), which the nearest
# pairing mends too (they had been told to check the rates and start times)
UNEVEN="[0:v]settb=1/1000,setpts='PTS+if(mod(N,2),6,-6)'[a];[a][1:v]$F"
check uneven-timestamps ok "use ts_sync_mode=nearest" -- -f lavfi -i "$(lavfi 64x64 25 2)" -f lavfi -i "$(lavfi 64x64 25 2)" \
    -lavfi "$UNEVEN" -f null -
check uneven-timestamps-nearest ok "ts_mismatched:0 " -- -f lavfi -i "$(lavfi 64x64 25 2)" -f lavfi -i "$(lavfi 64x64 25 2)" \
    -lavfi "$UNEVEN=ts_sync_mode=nearest" -f null -
check ref-starts-later ok "5 distorted frames before the reference's first frame" -- "${SRC[@]}" \
    -lavfi "[1:v]setpts=PTS+0.5/TB[b];[0:v][b]$F" -f null -
# unlabeled inputs take the first file's video streams in order: a second track of the
# distorted file became the reference (-1801 instead of 53.1, the reference file never read)
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi)" -f lavfi -i "$(lavfi),hflip" -map 0:v -map 1:v \
    -c:v ffv1 "$W/two-tracks.mkv"
check two-tracks-unlabeled ok "Both inputs are streams of input file #0 (0:0 distorted, 0:1 reference)" -- \
    -i two-tracks.mkv -f lavfi -i "$(lavfi)" -lavfi "$F" -f null -
check two-tracks-labeled ok "" -- -i two-tracks.mkv -f lavfi -i "$(lavfi)" -lavfi "$G" -f null -
grep -qF "Both inputs are streams" "$W/two-tracks-labeled.log" &&
    { say "  FAIL two-tracks-labeled: warned although the inputs are two files"; bad=$((bad + 1)); }
check one-stream-split ok "" -- -i two-tracks.mkv -lavfi "[0:v]split[a][b];[a]noise=alls=9[x];[x][b]$F" -f null -
grep -qF "Both inputs are streams" "$W/one-stream-split.log" &&
    { say "  FAIL one-stream-split: warned although both inputs are one stream, split"; bad=$((bad + 1)); }
# a frame left unscored carries no score, also not an earlier instance's (two references in a chain)
check chain-unscored-untagged ok "" -- "${SRC[@]}" -f lavfi -i "$(lavfi)" -lavfi \
    "$G[a];[a][2:v]$F=n_subsample=2,metadata=print:file=chain-meta.txt" -f null -
[ "$(grep -c "lavfi.ssimulacra2.score" "$W/chain-meta.txt")" = 5 ] ||
    { say "  FAIL chain-unscored-untagged: $(grep -c "lavfi.ssimulacra2.score" "$W/chain-meta.txt") of 10 frames carry a score, 5 were scored"; bad=$((bad + 1)); }
# timestamps that go back (files concatenated and read with -copyts): the frames after were
# scored against the last reference frame before (7.6 instead of 52.9), with warnings naming
# other causes; said at error level, for either input
BACK="setpts='if(lt(N,5),PTS,PTS-0.5/TB)'"
check ts-back-distorted ok "The distorted input's timestamps go back (from 0.400 s to 0.000 s" -- "${SRC[@]}" \
    -lavfi "[0:v]$BACK[a];[a][1:v]$F" -f null -
grep -qF "goes on after" "$W/ts-back-distorted.log" &&
    { say "  FAIL ts-back-distorted: other causes named"; bad=$((bad + 1)); }
# (not to its first frame's time: a reference that starts again ends there, ref-movie-loop)
check ts-back-reference ok "The reference's timestamps go back (from 0.400 s to 0.300 s" -- "${SRC[@]}" \
    -lavfi "[1:v]setpts='if(lt(N,5),PTS,PTS-0.2/TB)'[b];[0:v][b]$F" -f null -
# ... where the reference's frames repeat earlier ones: the concat demuxer's inpoint between
# keyframes gives the frames from the keyframe twice, skipped, so every pair is right (the
# advised numbered timestamps had turned 83.4 into -14.2): the score is the file's own
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 96x64 10 3)" -c:v mpeg4 -q:v 2 -g 10 "$W/gop.mkv"
printf "file 'gop.mkv'\noutpoint 1.5\nfile 'gop.mkv'\ninpoint 1.5\n" > "$W/inpoint.ffconcat"
check ts-back-inpoint-direct ok "" -- -i gop.mkv -f lavfi -i "$(lavfi 96x64 10 3)" -lavfi "[1:v][0:v]$F" -f null -
check ts-back-inpoint ok "they were skipped (ref_skipped) and the pairs are right" -- \
    -f concat -i inpoint.ffconcat -f lavfi -i "$(lavfi 96x64 10 3)" -lavfi "[1:v][0:v]$F" -f null -
inpoint_score=$(grep -o "SSIMULACRA2 score: [-0-9.]*" "$W/ts-back-inpoint.log")
[ -n "$inpoint_score" ] && [ "$inpoint_score" = "$(grep -o "SSIMULACRA2 score: [-0-9.]*" "$W/ts-back-inpoint-direct.log")" ] ||
    { say "  FAIL ts-back-inpoint: $inpoint_score, not the file's own score"; bad=$((bad + 1)); }
# ... in the distorted input the repeated frames are scored against later reference frames:
# said flatly, with a select= that drops them, tested by following it (the file's own score)
check ts-back-inpoint-distorted ok "drop them: select='isnan(prev_selected_t)+gt(t,prev_selected_t)'" -- \
    -f concat -i inpoint.ffconcat -f lavfi -i "$(lavfi 96x64 10 3)" -lavfi "[0:v][1:v]$F" -f null -
check ts-back-inpoint-direct-distorted ok "" -- -i gop.mkv -f lavfi -i "$(lavfi 96x64 10 3)" -lavfi "[0:v][1:v]$F" -f null -
check ts-back-inpoint-advised ok "" -- -f concat -i inpoint.ffconcat -f lavfi -i "$(lavfi 96x64 10 3)" \
    -lavfi "[0:v]select='isnan(prev_selected_t)+gt(t,prev_selected_t)'[a];[a][1:v]$F" -f null -
inpoint_score=$(grep -o "SSIMULACRA2 score: [-0-9.]*" "$W/ts-back-inpoint-advised.log")
[ -n "$inpoint_score" ] && [ "$inpoint_score" = "$(grep -o "SSIMULACRA2 score: [-0-9.]*" "$W/ts-back-inpoint-direct-distorted.log")" ] ||
    { say "  FAIL ts-back-inpoint-advised: $inpoint_score, not the file's own score"; bad=$((bad + 1)); }
# a gap in a reference of otherwise even steps (-stream_loop with a longer audio track offsets
# each pass: every pair after it off, 3.4 instead of 38.7): said, and ts_sync_mode=nearest,
# which does not mend it (5.1), not advised
check ts-gap-reference ok "The reference's timestamps jump forward by 170.0 ms at 0.400 s" -- \
    -f lavfi -i "$(lavfi 64x64 10 2)" -f lavfi -i "$(lavfi 64x64 10 2)" \
    -lavfi "[1:v]settb=1/1000,setpts='if(lt(N,5),PTS,PTS+0.07/TB)'[b];[0:v][b]$F" -f null -
grep -qF "ts_sync_mode=nearest" "$W/ts-gap-reference.log" &&
    { say "  FAIL ts-gap-reference: nearest advised"; bad=$((bad + 1)); }
# -ss with -copyts on both, the distorted input an MPEG-TS (its clock starts at 1.4 s) and the
# reference an MKV: 38 frames late at the start, 37 at the end; the "part of the reference,
# the pairs are right" reading had been given alone (every pair off, -72.7 in the probe). The
# advice, -start_at_zero, pairs a lossless encode's frames one to one (100; setpts=PTS-STARTPTS
# on both would not: the two seeks start 3 frames apart)
if "$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 160x96 25 4)" -pix_fmt yuv420p -c:v ffv1 "$W/cut-ref.mkv" &&
   "$FFMPEG" -nostdin -loglevel error -i "$W/cut-ref.mkv" -c:v libx264 -qp 0 -g 12 -bf 3 -f mpegts "$W/cut-dist.ts" 2> /dev/null; then
    check copyts-ts-offset ok "and goes on as long after the reference's last frame" -- -copyts \
        -ss 1.3 -i "$W/cut-dist.ts" -ss 1.3 -i "$W/cut-ref.mkv" -lavfi "$G" -f null -
    grep -qF "add -start_at_zero beside it" "$W/copyts-ts-offset.log" ||
        { say "  FAIL copyts-ts-offset: -start_at_zero not advised"; bad=$((bad + 1)); }
    check copyts-ts-offset-advised ok "SSIMULACRA2 score: 100.000000" -- -copyts -start_at_zero -ss 1.3 \
        -i "$W/cut-dist.ts" -ss 1.3 -i "$W/cut-ref.mkv" -lavfi "$G" -f null -
else
    say "  skip copyts-ts-offset: no libx264 encoder"
fi
# ... and in the distorted input: segments joined by the concat demuxer (a Matroska file's
# duration counts from its first timestamp: a gap at each join; the frames after it were
# scored against later reference frames or not at all, and only a shorter reference was
# named); the advised numbered timestamps pair all 30 frames
"$FFMPEG" -nostdin -loglevel error -i "$W/clip30.y4m" -c:v ffv1 -f segment -segment_time 1 "$W/seg_%02d.mkv" &&
    printf "file '%s'\n" "$W"/seg_0*.mkv > "$W/segs.txt"
check ts-gap-distorted ok "The distorted input's timestamps jump forward" -- -f concat -safe 0 -i "$W/segs.txt" \
    -i "$W/clip30.y4m" -lavfi "$G" -f null -
grep -qF "the reference is shorter" "$W/ts-gap-distorted.log" &&
    { say "  FAIL ts-gap-distorted: a shorter reference named for the frames the gap moved past its end"; bad=$((bad + 1)); }
# ... not where an encoder dropped a frame and kept the timestamps (the pairs are right: the
# advised numbered timestamps had turned 48.3 into -9.9)
"$FFMPEG" -nostdin -loglevel error -i "$W/clip30.y4m" -vf "select='not(eq(n\,12))'" -fps_mode passthrough \
    -c:v ffv1 "$W/dropped.mkv"
check ts-dropped-frame ok "frames:29 mean:100.0" -- -i "$W/dropped.mkv" -i "$W/clip30.y4m" -lavfi "$G" -f null -
grep -qF "the pairs after a jump are off" "$W/ts-dropped-frame.log" &&
    { say "  FAIL ts-dropped-frame: the dropped frame's gap said to put the pairs off"; bad=$((bad + 1)); }
# ... and joined files against a longer reference (no frame past its end): both readings said
check ts-gap-longer-reference ok "If files were joined there" -- -f concat -safe 0 -i "$W/segs.txt" \
    -f lavfi -i "$(lavfi 64x64 10 6)" -lavfi "$G" -f null -
# ... but a shorter reference is still named where a gap does not account for the late frames
check ts-gap-and-short-reference ok "the reference is shorter" -- -f lavfi -i "$(lavfi 64x64 10 3),select='not(eq(n\,10))'" \
    -f lavfi -i "$(lavfi 64x64 10 2)" -lavfi "$G" -f null -
check ts-gap-distorted-advised ok "frames:30 mean:100.0" -- -f concat -safe 0 -i "$W/segs.txt" -i "$W/clip30.y4m" \
    -lavfi "[0:v]setpts=N/(FRAME_RATE*TB)[d];[1:v]setpts=N/(FRAME_RATE*TB)[r];[d][r]$F" -f null -
# premultiplied alpha (JPEG XL, EXR) is refused, naming the input and unpremultiply (lavfi had
# premultiplied the reference to match, the alpha modes being one list)
check alpha-premultiplied error "The distorted input's alpha is premultiplied" -- -f lavfi -i "$(lavfi),format=rgba" \
    -f lavfi -i "$(lavfi),format=rgba" -lavfi "[0:v]setparams=alpha_mode=premultiplied[a];[a][1:v]$F" -f null -
# ... also a TIFF's associated alpha (ExtraSamples 1), which FFmpeg's decoder did not read:
# blended as straight, -49.1 instead of 95.3 (the overlay tags it; ffmpeg's encoder writes 2,
# unassociated, made 1 here)
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi),format=rgba" -frames:v 1 "$W/straight.tif"
perl -0777 -pe 's/\x52\x01\x03\x00\x01\x00\x00\x00\x02\x00/\x52\x01\x03\x00\x01\x00\x00\x00\x01\x00/' \
    "$W/straight.tif" > "$W/associated.tif"
cmp -s "$W/straight.tif" "$W/associated.tif" && die "no ExtraSamples 2 entry in ffmpeg's TIFF"
check alpha-tiff-associated error "The distorted input's alpha is premultiplied" -- -i "$W/associated.tif" \
    -i "$W/straight.tif" -lavfi "$G" -f null -
check alpha-tiff-unassociated ok "score: 100.0" -- -i "$W/straight.tif" -i "$W/straight.tif" -lavfi "$G" -f null -
# same_as_direct NAME SOURCE CONVERSION: the filter's output, converted, is the distorted
# input converted without the filter, frame for frame (the output shares the input's lists)
same_as_direct() {
    "$FFMPEG" -nostdin -loglevel error -f lavfi -i "$2" -f lavfi -i "$2" -lavfi "[0:v][1:v]$F,$3" \
        -f framemd5 "$W/$1-filter.md5"
    "$FFMPEG" -nostdin -loglevel error -f lavfi -i "$2" -vf "$3" -f framemd5 "$W/$1-direct.md5"
    n=$((n + 1))
    if [ -s "$W/$1-direct.md5" ] && cmp -s <(grep -v '^#' "$W/$1-filter.md5") <(grep -v '^#' "$W/$1-direct.md5"); then
        say "  ok   $1 $3 after the filter as without it"
    else
        say "  FAIL $1: the frames after the filter differ from $3 without it"; bad=$((bad + 1))
    fi
}
# ... and the output's alpha mode is the distorted input's: a filter after it that wants
# premultiplied alpha gets it converted (a list of its own for the output had passed straight
# alpha on as premultiplied, into an EXR, silently)
same_as_direct alpha-mode-passes-through "testsrc2=s=64x64:d=0.3,format=rgba,colorchannelmixer=aa=0.5" \
    "format=rgba:alpha_modes=premultiplied"
# the same for the colour space: a filter after it that wants BT.709 gets the frames converted
# (they passed on unconverted into a link said to be BT.709)
same_as_direct colour-space-passes-through "testsrc2=s=64x64:d=0.3,format=yuv420p,setparams=colorspace=bt470bg" \
    "format=yuv420p:color_spaces=bt709"
# a still image looped as the reference (-loop 1, which the filter advises): pairings with any of
# its frames are the same, and the rate and pairing warnings were false alarms
check ref-still-image ok "The reference frames paired were all one picture" -- -f lavfi -i "$(lavfi 64x64 30 1)" -loop 1 -i img.png \
    -lavfi "[1:v]scale=64:64[r];[0:v][r]$F" -f null -
grep -qF "Frame rates differ" "$W/ref-still-image.log" || grep -qF "cut (-ss, -t or trim" "$W/ref-still-image.log" &&
    { say "  FAIL ref-still-image: pairing warnings for a still reference"; bad=$((bad + 1)); }
# ... but a reference may only open on a still scene: a distorted video cut short within it is
# still said to be maybe cut (a first version said nothing of it)
check ref-opens-still ok "the distorted video may have been cut on its own" -- -f lavfi -i "$(lavfi 64x64 10 1),trim=end_frame=3" \
    -f lavfi -i "color=gray:s=64x64:r=10:d=1[g];$(lavfi 64x64 10 1)[m];[g][m]concat" -lavfi "$G" -f null -
check empty-distorted ok "the distorted input had no frame" -- -f lavfi -i "$(lavfi),trim=end_frame=0" -f lavfi -i "$(lavfi)" \
    -lavfi "$G" -f null -
check timeline-excludes-all ok "the enable expression excluded all 10" -- "${SRC[@]}" -lavfi "$G=enable=0" -f null -
# frames outside the enable expression still pair their reference frames (framesync gives the
# filter none there: they were counted as skipped, 18 of 30, with two false warnings)
check timeline-part ok "ref_skipped:0" -- "${SRC[@]}" -lavfi "$G=enable='between(t,0.3,0.6)'" -f null -
grep -qF "goes on after the last distorted frame" "$W/timeline-part.log" &&
    { say "  FAIL timeline-part: the reference is said to go on"; bad=$((bad + 1)); }
check empty-reference ok "No frame was scored" none.json:json -- -f lavfi -i "$(lavfi)" -f lavfi -i "$(lavfi),trim=start_frame=100" \
    -lavfi "[0:v][1:v]$F=log_path=none.json" -f null -
check no-overlap ok "No frame was scored" -- "${SRC[@]}" \
    -lavfi "[1:v]setpts=PTS+100/TB[b];[0:v][b]$F=shortest=1" -f null -
# an image pair of different sizes as a graph input: the error comes while ffmpeg probes it
# and the run exits 0 even with -xerror; the closing line blamed "an empty reference"
check refused-first-pair ok "the filter refused a frame pair with the error above" -- -xerror \
    -f lavfi -i "movie=img.png[d];movie=img.png,scale=48:32[r];[d][r]$F" -f null -
# a distorted input later than the whole reference: said so (the reference had been said to
# have no frame at or before them)
check all-after-reference ok "they all come after the reference's last frame" -- "${SRC[@]}" \
    -lavfi "[0:v]setpts=PTS+100/TB[a];[a][1:v]$F" -f null -
# ... and one whose frames the enable expression keeps all come after the reference's end (a
# probe: the same had been said)
check enable-after-reference ok "before every frame the enable expression keeps" -- \
    -f lavfi -i "$(lavfi 64x64 24 1)" -f lavfi -i "$(lavfi 64x64 24 1),trim=end_frame=10" \
    -lavfi "[0:v][1:v]$F=enable='gte(t,0.5)'" -f null -

say "$F: outputs"
check log-dev-full error "Could not write the log file '/dev/full'" -- "${SRC[@]}" -lavfi "$G=log_path=/dev/full" -f null -
check stats-dev-full error "Could not write the stats file '/dev/full'" -- "${SRC[@]}" -lavfi "$G=stats_file=/dev/full" -f null -
check log-no-dir error "Could not open log file" -- "${SRC[@]}" -lavfi "$G=log_path=nodir/x.json" -f null -
check log-is-dir error "names a directory" -- "${SRC[@]}" -lavfi "$G=log_path=./" -f null -
mkdir -p "$W/adir"
check stats-is-dir error "names a directory" -- "${SRC[@]}" -lavfi "$G=stats_file=adir" -f null -
cp "$W/img.png" "$W/in.png"; cp "$W/img.png" "$W/in.orig"
check log-is-input error "is open in this process" in.png:same=in.orig -- -i in.png -i img.png -lavfi "$G=log_path=in.png" -f null -
check stats-is-input error "is open in this process" in.png:same=in.orig -- -i img.png -i in.png -lavfi "$G=stats_file=in.png" -f null -
# a link: the file it leads to gets the log, the link stays (as ffmpeg's outputs do)
mkdir -p "$W/tgt"; echo old > "$W/tgt/real.json"; ln -sf tgt/real.json "$W/link.json"
check log-through-link ok "" tgt/real.json:json -- "${SRC[@]}" -lavfi "$G=log_path=link.json" -f null -
[ -L "$W/link.json" ] || { say "  FAIL log-through-link: the link was replaced by a file"; bad=$((bad + 1)); }
# /dev/stdout when stdout is a file (check() sends it to NAME.out): written, not refused as an input
check log-dev-stdout-file ok "" -- "${SRC[@]}" -lavfi "$G=log_path=/dev/stdout" -f null -
json_ok "$W/log-dev-stdout-file.out" || { say "  FAIL log-dev-stdout-file: stdout is not one JSON document"; bad=$((bad + 1)); }
check log-path-empty error "log_path is empty" -- "${SRC[@]}" -lavfi "$G=log_path=" -f null -
check stats-stdout-aliases error "are the same file" -- "${SRC[@]}" -lavfi "$G=f=-:log_path=/dev/stdout" -f null -
long=$(printf 'n%.0s' $(seq 250))
check log-name-250-bytes ok "" "$long:json" -- "${SRC[@]}" -lavfi "$G=log_path=$long" -f null -
# a name over the file system's limit: refused before the run (it failed after every frame)
check log-name-256-bytes error "File name too long" -- "${SRC[@]}" -lavfi "$G=log_path=${long}nnnnnn" -f null -
grep -q "^frame= *[1-9]" "$W/log-name-256-bytes.log" &&
    { say "  FAIL log-name-256-bytes: frames were processed before the error"; bad=$((bad + 1)); }
check stats-equals-log error "and log_path ('x.json') are the same file" -- "${SRC[@]}" -lavfi "$G=log_path=x.json:stats_file=x.json" -f null -
check stats-same-file-as-log error "are the same file" -- "${SRC[@]}" -lavfi "$G=log_path=x.json:stats_file=./x.json" -f null -
check two-instances-one-log error "written by another filter instance" -- "${SRC[@]}" -lavfi \
    "[0:v]split[a][b];[1:v]split[c][d];[a][c]$F=log_path=two.json[o1];[b][d]$F=log_path=two.json[o2]" \
    -map "[o1]" -f null - -map "[o2]" -f null -
# a graph refused while configured after this filter was (a filter after it, a second
# instance refused for the first one's file) never ran: an earlier run's files stay, as for
# the filter's own refusals (they had been replaced by empty ones)
echo previous > "$W/kept.json"; cp "$W/kept.json" "$W/kept.orig"
check refused-after-filter error "Failed to configure input pad" kept.json:same=kept.orig -- "${SRC[@]}" \
    -lavfi "$G=log_path=kept.json,crop=w=1000:h=1000" -f null -
check refused-second-instance error "written by another filter instance" kept.json:same=kept.orig -- "${SRC[@]}" -lavfi \
    "[0:v]split[a][b];[1:v]split[c][d];[a][c]$F=log_path=kept.json[o1];[b][d]$F=log_path=kept.json[o2]" \
    -map "[o1]" -f null - -map "[o2]" -f null -
# two -filter_complex graphs name their instances alike (each counts from 0): the other is
# said to be of another graph, not named as if it were this one
check two-graphs-one-log error "_0 of another filter graph)" -- "${SRC[@]}" \
    -filter_complex "[0:v][1:v]$F=log_path=two.json" -filter_complex "[0:v][1:v]$F=log_path=two.json" -f null -
# a replaced log keeps the permissions of the file it replaces (it got 0644 from the umask)
echo old > "$W/private.json"; chmod 600 "$W/private.json"
check log-keeps-mode ok "" private.json:json -- "${SRC[@]}" -lavfi "$G=log_path=private.json" -f null -
[ "$(stat -c %a "$W/private.json")" = 600 ] ||
    { say "  FAIL log-keeps-mode: the log's mode is $(stat -c %a "$W/private.json"), was 600"; bad=$((bad + 1)); }
# a log path linked to /dev/stdout (a container's log file), standard output a pipe or a file
# opened to append: written into it, appended (the link had been followed to the pipe's
# name, "Could not create a file beside", or to the file, replaced by a rename: its earlier
# lines lost)
ln -sf /dev/stdout "$W/ln-stdout"; echo first > "$W/link-append.out"
(cd "$W" && timeout -k 5 60 "$FFMPEG" -nostdin -loglevel error "${SRC[@]}" -lavfi "$G=log_path=ln-stdout" \
    -f null - 2> link-pipe.log | cat > link-pipe.out)
(cd "$W" && timeout -k 5 60 "$FFMPEG" -nostdin -loglevel error "${SRC[@]}" -lavfi "$G=log_path=ln-stdout" \
    -f null - 2> link-append.log >> link-append.out)
tail -n +2 "$W/link-append.out" > "$W/link-append.json"
# a descriptor that leads to a regular file (2> err.txt, 3> file): written through it (opened
# again, the log went to the file's end, and ffmpeg's own later lines, at the descriptor's
# position, wrote over it: no JSON left); one not open is said before the run
(cd "$W" && timeout -k 5 60 "$FFMPEG" -nostdin -loglevel info "${SRC[@]}" -lavfi "$G=log_path=/dev/stderr" \
    -f null - 2> fd-stderr.txt)
(cd "$W" && { echo HEADER >&3; timeout -k 5 60 "$FFMPEG" -nostdin -loglevel error "${SRC[@]}" \
    -lavfi "$G=log_path=/dev/fd/3" -f null - 2> fd3.log; echo FOOTER >&3; } 3> fd3.txt)
n=$((n + 1))
if sed -n '/^{$/,/^}$/p' "$W/fd-stderr.txt" > "$W/fd-stderr.json" && json_ok "$W/fd-stderr.json" &&
   sed '1d;$d' "$W/fd3.txt" > "$W/fd3.json" && json_ok "$W/fd3.json" &&
   [ "$(head -n 1 "$W/fd3.txt")" = HEADER ] && [ "$(tail -n 1 "$W/fd3.txt")" = FOOTER ]; then
    say "  ok   log-descriptor-file"
else
    say "  FAIL log-descriptor-file: $(head -c 200 "$W/fd3.txt"; tail -c 200 "$W/fd-stderr.txt")"; bad=$((bad + 1))
fi
check log-descriptor-closed error "names descriptor 1000, which is not open" -- "${SRC[@]}" -lavfi "$G=log_path=/dev/fd/1000" -f null -
# ... one open for reading only (standard input from a file: fdopen failed after the run), and
# two names of one descriptor are one output
check log-descriptor-read-only error "open for reading only" -- "${SRC[@]}" -lavfi "$G=log_path=/dev/fd/0" -f null - < "$W/clip.y4m"
check log-descriptor-aliases error "different paths" -- "${SRC[@]}" -lavfi "$G=log_path=/dev/stderr:stats_file=/proc/self/fd/2" -f null -
# ... and it is standard output to the checks too: with stats_file=- both went there, mixed
check log-link-stdout-and-stats error "different paths" -- "${SRC[@]}" -lavfi "$G=log_path=ln-stdout:stats_file=-" -f null -
for t in pipe append; do
    n=$((n + 1))
    if json_ok "$W/link-$t.$([ $t = pipe ] && echo out || echo json)" &&
       { [ $t = pipe ] || [ "$(head -n 1 "$W/link-append.out")" = first ]; }; then
        say "  ok   log-link-stdout-$t"
    else
        say "  FAIL log-link-stdout-$t: $(head -c 300 "$W/link-$t.log")"; bad=$((bad + 1))
    fi
done
# errors found before the run, not after every frame is scored (the scores lost): standard
# output closed (>&-), and a path over PATH_MAX whose every name is short (the temporary file
# beside it, shorter, could be made)
(cd "$W" && timeout -k 5 60 "$FFMPEG" -nostdin -loglevel error "${SRC[@]}" -lavfi "$G=log_path=-" \
    -f null - > /dev/null 2> stdout-closed.log >&-)
# ... also where an input file took its descriptor (read-only: a write error after the run)
(cd "$W" && timeout -k 5 60 "$FFMPEG" -nostdin -loglevel error -i clip.y4m -i clip.y4m -lavfi "$G=log_path=-" \
    -f null - > /dev/null 2>> stdout-closed.log >&-)
# (the folder's path within 250 bytes under PATH_MAX, a name of 255 bytes after it)
pm=$(getconf PATH_MAX / 2> /dev/null); case $pm in ''|*[!0-9]*) pm=4096 ;; esac
long=$(cd "$W" && pwd -P)/long; while [ ${#long} -le $((pm - 250)) ]; do long=$long/$(printf 'd%.0s' $(seq 190)); done
mkdir -p "$long"
check log-path-max error "its full path has" -- "${SRC[@]}" -lavfi \
    "$G=log_path=$long/$(printf 's%.0s' $(seq 250)).json" -f null -
n=$((n + 1))
if [ "$(grep -cF "is standard output, which is closed" "$W/stdout-closed.log")" = 2 ]; then
    say "  ok   stdout-closed"
else
    say "  FAIL stdout-closed: $(head -c 300 "$W/stdout-closed.log")"; bad=$((bad + 1))
fi
# where no rename can replace the file, it is written in place (eighteenth probe; both had
# failed, after every frame or at the start, where psnr's stats file is written): a file
# bind-mounted on its own (docker run -v host.json:/out/scores.json: EBUSY), and a writable
# file in a directory the user may not write
mkdir -p "$W/bm"; echo old > "$W/bm/mounted.json"; echo other > "$W/bm-source.json"
if [ "$(id -u)" = 0 ] && mount --bind "$W/bm-source.json" "$W/bm/mounted.json" 2> /dev/null; then
    # (a run stopped here must not leave the mount: the next one could not clear $W)
    trap 'umount "$W/bm/mounted.json" 2> /dev/null' EXIT INT TERM
    check log-bind-mounted ok "" bm/mounted.json:json -- "${SRC[@]}" -lavfi "$G=log_path=bm/mounted.json" -f null -
    # a write error (a file size limit for a full disk): the file, which cannot be removed, is
    # emptied (it kept the earlier run's log, to be read as this run's)
    RUNCASE_FSIZE=2048 check log-bind-mounted-fails error "was emptied" -- \
        -f lavfi -i "$(lavfi 64x64 25 2)" -f lavfi -i "$(lavfi 64x64 25 2)" -lavfi "$G=log_path=bm/mounted.json" -f null -
    [ -e "$W/bm/mounted.json" ] && [ ! -s "$W/bm/mounted.json" ] ||
        { say "  FAIL log-bind-mounted-fails: the mounted file is not empty"; bad=$((bad + 1)); }
    umount "$W/bm/mounted.json"
    trap - EXIT INT TERM
else
    say "  skip log-bind-mounted: bind mounts need root"
fi
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
mkdir -p "$W/rodir"; chmod 755 "$W/rodir"; echo old > "$W/rodir/shared.json"; chmod 666 "$W/rodir/shared.json"
# (another user must reach the work folder and ffmpeg: a private clone folder is skipped)
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null && "${NOBODY[@]}" test -w "$W/rodir/shared.json" &&
        "${NOBODY[@]}" "$FFMPEG" -version > /dev/null 2>&1; then
    S2_WRAP="${NOBODY[*]}" check log-dir-not-writable ok "" \
        rodir/shared.json:json -- "${SRC[@]}" -lavfi "$G=log_path=rodir/shared.json" -f null -
    # another user's file, writable, in a sticky directory (/tmp): no rename may replace it,
    # so it is written in place (it had been emptied, the run failing)
    mkdir -p "$W/sticky"; chmod 1777 "$W/sticky"; echo old > "$W/sticky/theirs.json"
    chown 1 "$W/sticky/theirs.json"; chmod 666 "$W/sticky/theirs.json"
    S2_WRAP="${NOBODY[*]}" check log-sticky-dir ok "" \
        sticky/theirs.json:json -- "${SRC[@]}" -lavfi "$G=log_path=sticky/theirs.json" -f null -
    # the folder made read-only during the run: the earlier run's file can be neither
    # replaced nor removed, and is said not to be this run's (nothing had been said; with
    # -frames the exit status is 0)
    # (locked once frames flow, as -progress shows: the folder is checked at configuration)
    mkdir -p "$W/lock"; chmod 777 "$W/lock"; echo old > "$W/lock/kept.json"; chmod 644 "$W/lock/kept.json"
    rm -f "$W/lock/progress.txt"
    (for i in $(seq 600); do grep -qs "^frame=[1-9]" "$W/lock/progress.txt" && break; sleep 0.1; done
     chmod 755 "$W/lock") &
    S2_WRAP="${NOBODY[*]}" check log-dir-locked ok "could be neither removed nor emptied: it is NOT this run's" -- \
        -progress lock/progress.txt -re -f lavfi -i "$(lavfi 64x64 25 4)" -re -f lavfi -i "$(lavfi 64x64 25 4)" \
        -lavfi "$G=log_path=lock/kept.json" -frames:v 60 -f null -
    wait
else
    say "  skip log-dir-not-writable, log-sticky-dir, log-dir-locked: needs root, setpriv, and a work folder other users reach"
fi
# a full disk where the earlier run's files take the room the new ones need beside them:
# those go first (the run had failed and removed them, leaving nothing)
# (sizes in 4 KiB pages: the files take 26 of the 32)
mkdir -p "$W/small"
if [ "$(id -u)" = 0 ] && [ "$(getconf PAGESIZE)" = 4096 ] &&
        mount -t tmpfs -o size=128k tmpfs "$W/small" 2> /dev/null; then
    trap 'umount "$W/small" 2> /dev/null' EXIT
    trap 'umount "$W/small" 2> /dev/null; exit 130' INT TERM
    for k in 1 2; do
        check disk-room-of-old-files-$k ok "" small/a.json:json small/a.txt:stats -- \
            -f lavfi -i "$(lavfi 64x48 25 40)" -f lavfi -i "$(lavfi 64x48 25 40),noise=alls=20" \
            -lavfi "$G=log_path=small/a.json:stats_file=small/a.txt" -f null -
    done
    grep -q "No room for the new log file 'small/a.json' beside the earlier run's" "$W/disk-room-of-old-files-2.log" ||
        { say "  FAIL disk-room-of-old-files-2: no word of the earlier file removed for room"; bad=$((bad + 1)); }
    umount "$W/small"
    trap - EXIT INT TERM
else
    say "  skip disk-room-of-old-files: mounting a tmpfs needs root (and pages of 4 KiB)"
fi
# a FIFO that no process reads: an error, where the run had hung after scoring every frame
rm -f "$W/nobody.fifo"; mkfifo "$W/nobody.fifo"
check log-fifo-no-reader error "is a FIFO that no process reads" -- "${SRC[@]}" -lavfi "$G=log_path=nobody.fifo" -f null -
# a file size limit (SIGXFSZ ignored: writes fail with EFBIG) stands for a full disk: the
# earlier run's file is removed, not left to be read as this run's (a run stopped by a signal,
# or a -f lavfi graph, cannot show the error in its exit status; it had been kept)
echo previous > "$W/keep.json"
RUNCASE_FSIZE=2048 check write-fails-removes-old error "Could not write the log file" keep.json:absent -- \
    -f lavfi -i "$(lavfi 64x64 25 2)" -f lavfi -i "$(lavfi 64x64 25 2)" -lavfi "$G=log_path=keep.json" -loglevel error -f null -
ls "$W"/keep.json.*.tmp "$W"/.*.ssimu2-*.tmp > /dev/null 2>&1 && { say "  FAIL write-fails-removes-old: temporary file left"; bad=$((bad + 1)); }
# the same with the output closed first (-frames): ffmpeg's exit status cannot show the error,
# so the earlier run's file is not left to be read as this run's
echo previous > "$W/stale.json"
RUNCASE_FSIZE=2048 check write-fails-frames-limit ok "from an earlier run, was removed" stale.json:absent -- \
    -f lavfi -i "$(lavfi 64x64 25 4)" -f lavfi -i "$(lavfi 64x64 25 4)" -lavfi "$G=log_path=stale.json" -frames:v 60 -f null -
# ffmpeg's own output file (open for writing, not an input)
check log-is-output error "is open in this process" -- "${SRC[@]}" -lavfi "$G=log_path=out.nut" -f nut out.nut
check log-stdout-one-document ok "" -- "${SRC[@]}" -lavfi "$G=log_path=-" -f null -
json_ok "$W/log-stdout-one-document.out" || { say "  FAIL log-stdout-one-document: stdout is not one JSON document"; bad=$((bad + 1)); }
check log-stdout-frames-limit ok "" -- -f lavfi -i "$(lavfi 64x64 10 3)" -f lavfi -i "$(lavfi 64x64 10 3)" \
    -lavfi "$G=log_path=-" -frames:v 5 -f null -
json_ok "$W/log-stdout-frames-limit.out" || { say "  FAIL log-stdout-frames-limit: stdout is not one JSON document"; bad=$((bad + 1)); }
check frames-limit-files ok "" fl.json:json fl.txt:stats -- -f lavfi -i "$(lavfi 64x64 10 3)" -f lavfi -i "$(lavfi 64x64 10 3)" \
    -lavfi "$G=log_path=fl.json:stats_file=fl.txt" -frames:v 5 -f null -
# ... but a graph rebuilt before its first scored frame does not give standard output an
# empty document before the run's (a FIFO's reader would have stopped after it)
check rebuild-before-score-stdout ok "" -- -f lavfi -i "$(lavfi 64x64 25 2),scale=w='if(lt(n,25),64,32)':h='if(lt(n,25),64,32)':eval=frame" \
    -f lavfi -i "$(lavfi 64x64 25 2)" -lavfi "[0:v]scale=64:64[a];[1:v]scale=64:64[b];[a][b]$F=enable='gte(t,1.5)':log_path=-" -f null -
json_ok "$W/rebuild-before-score-stdout.out" || { say "  FAIL rebuild-before-score-stdout: stdout is not one JSON document"; bad=$((bad + 1)); }
# ... also when no frame was scored yet (an enable= expression's first frame after -frames):
# the files of an earlier run had been left, read as this run's
echo previous > "$W/fl0.json"; echo previous > "$W/fl0.txt"
check frames-limit-none-scored ok "" fl0.json:json fl0.txt:stats -- -f lavfi -i "$(lavfi 64x64 10 3)" \
    -f lavfi -i "$(lavfi 64x64 10 3)" -lavfi "$G=enable='gte(n,10)':log_path=fl0.json:stats_file=fl0.txt" \
    -frames:v 5 -f null -
# ... and say that they hold part of a run (the graph was freed before the inputs ended: an
# output limit, or a rebuild that a killed process never got past), where a run to the end says
# it ended; the stats file's summary line too
n=$((n + 1))
if grep -q '"inputs_ended": false' "$W/fl.json" && grep -q ' inputs_ended:0$' "$W/fl.txt" &&
        grep -q '"inputs_ended": true' "$W/rl.json"; then
    say "  ok   frames-limit-files: marked inputs_ended false; a rebuilt run that ended: true"
else say "  FAIL frames-limit-files: no inputs_ended false (or a whole run's log without true)"; bad=$((bad + 1)); fi
check csv-xml-logs ok "" -- "${SRC[@]}" -lavfi "[0:v]split[a][b];[1:v]split[c][d];[a][c]$F=log_path=l.csv:log_fmt=csv[o1];[b][d]$F=log_path=l.xml:log_fmt=xml[o2]" \
    -map "[o1]" -f null - -map "[o2]" -f null -
# Ctrl-C or a kill (SIGTERM, as SIGINT is ignored in a background job): ffmpeg ends the inputs,
# the files are complete. The sources are finite (30 s) so that a missed signal ends anyway;
# once under ASan, ffmpeg's scheduler kept a -re lavfi input running for minutes after SIGTERM.
( cd "$W"; "$FFMPEG" -nostdin -hide_banner -re -f lavfi -i "testsrc2=s=64x64:r=10:d=30" -f lavfi -i "testsrc2=s=64x64:r=10:d=30" \
    -lavfi "$G=log_path=int.json:stats_file=int.txt" -f null - 2> int.log & pid=$!
    # once frames are scored (slow under a sanitizer), stop it
    for i in $(seq 60); do grep -q "frame= *[1-9]" int.log && break; sleep 0.5; done
    sleep 1; kill -TERM $pid
    for i in $(seq 120); do kill -0 $pid 2> /dev/null || break; sleep 0.5; done
    kill -0 $pid 2> /dev/null && { echo "  (no exit 60 s after SIGTERM)"; kill -KILL $pid; }
    wait $pid ) 2> /dev/null
n=$((n + 1))
if json_ok "$W/int.json" && stats_ok "$W/int.txt"; then say "  ok   sigint: log and stats file complete ($(frames_in "$W/int.json") frames)"
else say "  FAIL sigint: log or stats file incomplete"; bad=$((bad + 1)); fi
# stats on standard output into a reader that goes (| head): ffmpeg ignores SIGPIPE, so the
# write error stops the run (endless inputs: it went on until killed), and the log is complete
( cd "$W"; timeout -k 5 60 "$FFMPEG" -nostdin -hide_banner -f lavfi -i "testsrc2=s=64x64:r=10" -f lavfi -i "testsrc2=s=64x64:r=10" \
    -lavfi "$G=stats_file=-:log_path=pipe.json" -f null - 2> pipe.log | head -n 3 > /dev/null; echo "${PIPESTATUS[0]}" > pipe.rc )
n=$((n + 1))
rc=$(cat "$W/pipe.rc")
if [ "$rc" != 0 ] && [ "$rc" != 124 ] && [ "$rc" != 137 ] && grep -qF "standard output: Broken pipe; stopping" "$W/pipe.log" && json_ok "$W/pipe.json"; then
    say "  ok   stats-stdout-reader-gone: exit $rc, log complete ($(frames_in "$W/pipe.json") frames)"
else say "  FAIL stats-stdout-reader-gone: exit $rc (124: went on), or no message, or the log incomplete"; bad=$((bad + 1)); fi

say "$F: damaged inputs, sizes, options"
check truncated-y4m ok "" -- -i truncated.y4m -i clip.y4m -lavfi "$G" -f null -
check truncated-png error "" -- -i truncated.png -i img.png -lavfi "$G" -f null -
check empty-file error "" -- -i empty.y4m -i clip.y4m -lavfi "$G" -f null -
check size-mismatch error "Input sizes differ" -- -f lavfi -i "$(lavfi 64x64)" -f lavfi -i "$(lavfi 96x54)" -lavfi "$G" -f null -
# sizes that are each other's transpose: a rotation tag (ffmpeg turns the video as it decodes)
check size-turned error "Is one rotated?" -- -f lavfi -i "$(lavfi 64x48),transpose" -f lavfi -i "$(lavfi 64x48)" -lavfi "$G" -f null -
# ... and of the same size (180 degrees, a flip, a square image turned): one input turned by
# ffmpeg, the other not, is named with -noautorotate (an EXIF orientation of 3 scored -926.6
# against the same pixels untagged, silently); both turned alike is not
check turned-180 ok "and not the reference, as rotation tags or EXIF orientations say" -- \
    -display_rotation 180 -i clip.y4m -i clip.y4m -lavfi "$G" -f null -
# 90 against 270 degrees: the same size, both turned, but not alike (-232 against 100)
check turned-90-270 ok "turned the distorted input (transpose=2) and the reference (transpose=1) differently" -- \
    -display_rotation 90 -i clip.y4m -display_rotation 270 -i clip.y4m -lavfi "$G" -f null -
# a quarter turn of one input only, not square: the stored pictures differ in shape, so the turn
# pairs them (a phone video's tag against an encode ffmpeg turned as it made it): no warning
"$FFMPEG" -nostdin -loglevel error -i "$W/clip.y4m" -vf transpose=clock -pix_fmt yuv420p "$W/upright.y4m"
check turned-phone ok "" -- -i upright.y4m -display_rotation -90 -i clip.y4m -lavfi "$G" -f null -
grep -qF "ffmpeg turned" "$W/turned-phone.log" &&
    { say "  FAIL turned-phone: warned although the turn makes the shapes match"; bad=$((bad + 1)); }
check turned-both ok "" -- -display_rotation 180 -i clip.y4m -display_rotation 180 -i clip.y4m -lavfi "$G" -f null -
grep -qF "ffmpeg turned" "$W/turned-both.log" &&
    { say "  FAIL turned-both: warned although both inputs were turned alike"; bad=$((bad + 1)); }
# a rotation that starts mid-stream (an H.264 display orientation SEI from frame 3: ffmpeg
# rebuilds the graph with hflip,vflip) had gone unwarned: -792 to -977 from there on
if "$FFMPEG" -nostdin -loglevel error -i "$W/clip.y4m" -frames:v 3 -c:v libx264 -qp 0 -bf 0 "$W/upright.h264" 2> /dev/null &&
   "$FFMPEG" -nostdin -loglevel error -ss 0.3 -i "$W/clip.y4m" -c:v libx264 -qp 0 -bf 0 \
       -bsf:v h264_metadata=display_orientation=insert:rotate=180 "$W/turning.h264" 2> /dev/null; then
    cat "$W/upright.h264" "$W/turning.h264" > "$W/turned-mid.h264"
    check turned-mid-stream ok "ffmpeg turned the distorted input (vflip,hflip) and not the reference" -- \
        -r 10 -i turned-mid.h264 -i clip.y4m -lavfi "$G" -f null -
else
    say "  skip turned-mid-stream: no libx264 encoder"
fi
# a few rows or columns more: an encoder's padding, cropped (scaling compares other pixels)
check size-padded error "crop=64:48:0:0" -- -f lavfi -i "$(lavfi 64x48),pad=64:56" -f lavfi -i "$(lavfi 64x48)" -lavfi "$G" -f null -
# smaller in another shape: a cropped encode, told to crop the reference (scaling the encode
# back gave -9.3 instead of 50.9); a rung of the same shape is told to scale
check size-cropped error "Crop the reference the same way (crop=64:40:X:Y" -- -f lavfi -i "$(lavfi 64x48),crop=64:40" \
    -f lavfi -i "$(lavfi 64x48)" -lavfi "$G" -f null -
check size-rung error "Scale one input to the other's size (e.g. scale=64:48" -- -f lavfi -i "$(lavfi 32x24)" \
    -f lavfi -i "$(lavfi 64x48)" -lavfi "$G" -f null -
# a few rows and columns fewer, the same shape: a container's crop (an AVIF clap box, which
# libavif ignores), told -apply_cropping 0 (scaling it back had been the advice)
check size-container-crop error "-apply_cropping 0 before its -i" -- -f lavfi -i "$(lavfi 60x60)" \
    -f lavfi -i "$(lavfi 64x64)" -lavfi "$G" -f null -
check sar-differs ok "sample aspect ratios differ" -- -f lavfi -i "$(lavfi 64x48),setsar=4/3" -f lavfi -i "$(lavfi 64x48),setsar=1" \
    -lavfi "$G" -f null -
# an unset ratio is shown square: against 4:3, warned too (it had been taken as no ratio)
check sar-unset ok "reference 1:1 (unset: square)" -- -f lavfi -i "$(lavfi 64x48),setsar=4/3" \
    -f lavfi -i "$(lavfi 64x48),setsar=0" -lavfi "$G" -f null -
# ... but not a ratio a container or scale= rounded (VP9 in WebM of a 32:27 source: 853:720)
check sar-rounded ok "" -- -f lavfi -i "$(lavfi 64x48),setsar=853/720" \
    -f lavfi -i "$(lavfi 64x48),setsar=32/27" -lavfi "$G" -f null -
grep -q "sample aspect ratios differ" "$W/sar-rounded.log" &&
    { say "  FAIL sar-rounded: a rounded ratio warned"; bad=$((bad + 1)); }
# Bayer samples are demosaiced by swscale, not widened packed RGB (the warning had said so)
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 32x24 10 0.3)" -pix_fmt gray -f rawvideo "$W/bayer.raw"
check bayer-demosaiced ok "samples are demosaiced by swscale" -- -f rawvideo -pix_fmt bayer_rggb8 -s 32x24 \
    -i bayer.raw -f rawvideo -pix_fmt bayer_rggb8 -s 32x24 -i bayer.raw -lavfi "$G" -f null -
grep -q "packed RGB under 8 bits" "$W/bayer-demosaiced.log" &&
    { say "  FAIL bayer-demosaiced: said to be packed RGB"; bad=$((bad + 1)); }
check size-7x9 error "at least 8x8" -- -f lavfi -i "$(lavfi 7x9)" -f lavfi -i "$(lavfi 7x9)" -lavfi "$G" -f null -
check size-100x7 error "at least 8x8" -- -f lavfi -i "$(lavfi 100x7)" -f lavfi -i "$(lavfi 100x7)" -lavfi "$G" -f null -
check size-8x8 ok "" -- -f lavfi -i "$(lavfi 8x8)" -f lavfi -i "$(lavfi 8x8)" -lavfi "$G" -f null -
check size-odd ok "" -- -f lavfi -i "$(lavfi 9x13)" -f lavfi -i "$(lavfi 9x13)" -lavfi "$G" -f null -
check n-subsample-0 error "out of range" -- "${SRC[@]}" -lavfi "$G=n_subsample=0" -f null -
check matrix-bogus error "matrix" -- "${SRC[@]}" -lavfi "$G=matrix=bt999" -f null -
check chroma-loc-bogus error "chroma_loc" -- "${SRC[@]}" -lavfi "$G=chroma_loc=middle" -f null -
check log-fmt-bogus error "log_fmt" -- "${SRC[@]}" -lavfi "$G=log_path=x:log_fmt=yaml" -f null -
check unknown-option error "ssimulacra2" -- "${SRC[@]}" -lavfi "$G=no_such_option=1" -f null -
check matrix-ycgco error "not a Kr/Kb Y'CbCr matrix" -- "${SRC[@]}" -lavfi "[0:v]format=yuv444p,setparams=colorspace=ycgco[a];[1:v]format=yuv444p[b];[a][b]$F" -f null -
check matrix-ictcp error "not a Kr/Kb Y'CbCr matrix" -- "${SRC[@]}" -lavfi "[0:v]format=yuv420p10,setparams=colorspace=ictcp[a];[1:v]format=yuv420p10[b];[a][b]$F" -f null -
check matrix-override-ycgco error "not a Kr/Kb Y'CbCr matrix" -- "${SRC[@]}" -lavfi "[0:v]format=yuv420p[a];[1:v]format=yuv420p[b];[a][b]$F=matrix=8" -f null -
# the fix named must be one this FFmpeg can have: swscale does not convert YCgCo (a format=
# conversion "to RGB first" failed); not the warning that each input is read with its own
check matrix-ycgco-advice error "Convert it first (zscale or libplacebo" -- "${SRC[@]}" -lavfi "[0:v]format=yuv444p,setparams=colorspace=ycgco[a];[1:v]format=yuv444p,setparams=colorspace=bt709[b];[a][b]$F" -f null -
grep -q "tags differ" "$W/matrix-ycgco-advice.log" &&
    { say "  FAIL matrix-ycgco-advice: warned as a matrix read with its own"; bad=$((bad + 1)); }
check transfer-pq ok "transfer is smpte2084" -- "${SRC[@]}" -lavfi "[0:v]format=yuv420p10,setparams=color_trc=smpte2084[a];[1:v]format=yuv420p10[b];[a][b]$F" -f null -
check transfer-hlg ok "transfer is arib-std-b67" -- "${SRC[@]}" -lavfi "[0:v]format=yuv420p10[a];[1:v]format=yuv420p10,setparams=color_trc=arib-std-b67[b];[a][b]$F" -f null -
check primaries-bt2020 ok "primaries are bt2020" -- "${SRC[@]}" -lavfi "[0:v]setparams=color_primaries=bt2020[a];[1:v]setparams=color_primaries=bt2020[b];[a][b]$F" -f null -
# the colorspace filter converts the primaries of SDR Y'CbCr, but not of PQ or HLG (it refused
# smpte2084): named only where it works, with every input property it needs (it refuses unknown
# ones: "on both" had failed on an untagged input); followed literally, it runs
# advised NAME: the colorspace=... filter a case's log advises
advised() { grep -o 'colorspace=all=bt709[^ ]*' "$W/$1.log" | head -n 1; }
P2020="format=yuv420p10,setparams=color_primaries=bt2020"
check primaries-bt2020-sdr ok "convert both inputs to BT.709 primaries first: colorspace=all=bt709:ispace=smpte170m:iprimaries=bt2020:itrc=bt709 on this input" -- \
    "${SRC[@]}" -lavfi "[0:v]$P2020[a];[1:v]$P2020[b];[a][b]$F" -f null -
cs=$(advised primaries-bt2020-sdr)
check primaries-bt2020-sdr-followed ok "SSIMULACRA2 score: 100" -- "${SRC[@]}" \
    -lavfi "[0:v]$P2020,$cs[a];[1:v]$P2020,$cs[b];[a][b]$F" -f null -
check primaries-bt2020-pq ok "convert both inputs to BT.709 primaries first (zscale, or libplacebo" -- "${SRC[@]}" -lavfi "[0:v]format=yuv420p10,setparams=color_primaries=bt2020:color_trc=smpte2084[a];[1:v]format=yuv420p10,setparams=color_primaries=bt2020:color_trc=smpte2084[b];[a][b]$F" -f null -
grep -q "colorspace=all" "$W/primaries-bt2020-pq.log" &&
    { say "  FAIL primaries-bt2020-pq: the colorspace filter named for PQ"; bad=$((bad + 1)); }
# linear-light Y'CbCr: the colorspace filter converts it (scored -62.0 read as sRGB, 62.7 converted)
check transfer-linear-yuv ok "convert this input first: colorspace=all=bt709:ispace=smpte170m:iprimaries=bt709:itrc=linear on it" -- \
    "${SRC[@]}" -lavfi "[0:v]format=yuv420p,setparams=color_trc=linear[a];[1:v]format=yuv420p[b];[a][b]$F" -f null -
cs=$(advised transfer-linear-yuv)
check transfer-linear-yuv-followed ok "SSIMULACRA2 score:" -- "${SRC[@]}" \
    -lavfi "[0:v]format=yuv420p,setparams=color_trc=linear,$cs[a];[1:v]format=yuv420p[b];[a][b]$F" -f null -
# a video's bt470bg (gamma 2.8) transfer, as PAL encodes tag it, is SDR video: no image warning
check transfer-gamma28-video ok "" -- "${SRC[@]}" -lavfi "[0:v]format=yuv420p,setparams=color_trc=bt470bg[a];[1:v]format=yuv420p,setparams=color_trc=bt470bg[b];[a][b]$F" -f null -
grep -q "gAMA\|transfer is" "$W/transfer-gamma28-video.log" &&
    { say "  FAIL transfer-gamma28-video: a video's bt470bg transfer warned"; bad=$((bad + 1)); }
# an override that reads nothing of these inputs says so (range=tv on RGB had been dropped silently)
check range-on-rgb ok "range=tv has no effect on these inputs" -- -f lavfi -i "$(lavfi 64x48 10 0.3),format=rgb24" \
    -f lavfi -i "$(lavfi 64x48 10 0.3),format=rgb24" -lavfi "$G=range=tv" -f null -
check range-on-yuvj ok "range=tv has no effect on these inputs" -- -f lavfi -i "$(lavfi 64x48 10 0.3),format=yuvj420p" \
    -f lavfi -i "$(lavfi 64x48 10 0.3),format=yuvj420p" -lavfi "$G=range=tv" -f null -
check chroma-loc-on-444 ok "chroma_loc=center has no effect" -- -f lavfi -i "$(lavfi 64x48 10 0.3),format=yuv444p" \
    -f lavfi -i "$(lavfi 64x48 10 0.3),format=yuv444p" -lavfi "$G=chroma_loc=center" -f null -
# a graph written for libvmaf, as ab-av1 builds it, with its n_threads (had been refused)
check libvmaf-n-threads ok "SSIMULACRA2 score:" -- "${SRC[@]}" -lavfi "[0:v]format=yuv420p10le,setpts=PTS-STARTPTS,settb=AVTB[dis];[1:v]format=yuv420p10le,setpts=PTS-STARTPTS,settb=AVTB[ref];[dis][ref]$F=shortest=true:ts_sync_mode=nearest:n_threads=2:n_subsample=2" -f null -
# an untagged pair is read by its height; scaled in the graph, the source's height is lost: said
check matrix-guess-named ok "Neither input is tagged with a Y'CbCr matrix: read as BT.709" -- \
    -f lavfi -i "$(lavfi 320x240 10 0.3),format=yuv420p" -f lavfi -i "$(lavfi 320x240 10 0.3),format=yuv420p" \
    -lavfi "[0:v]scale=1280:720[a];[1:v]scale=1280:720[b];[a][b]$F" -f null -
# the pooled means of equal scores are those scores (the harmonic mean of 10 x 100 had been
# 100.00000000000001)
check identical-means ok "" same.json:json -- -f lavfi -i "$(lavfi 64x48 10 1)" -f lavfi -i "$(lavfi 64x48 10 1)" \
    -lavfi "[0:v][1:v]$F=log_path=same.json" -f null -
grep -q '"mean": 100, "harmonic_mean": 100,' "$W/same.json" ||
    { say "  FAIL identical-means: $(grep -o '"mean":[^p]*' "$W/same.json")"; bad=$((bad + 1)); }
# one stream given to both inputs ([0:v][0:v]: the reference file never read) scored 100
# without a word; a split with a filter on one branch (a filter's own effect) is not said;
# the same file given twice (two inputs of their own) is said by its scores, all 100
check same-file-twice ok "Every scored frame scored 100" -- -i img.png -i img.png -lavfi "$G" -f null -
check one-stream-both-inputs ok "were one picture in both inputs (one stream given to both" -- "${SRC[@]}" \
    -lavfi "[0:v][0:v]$F" -f null -
check split-filtered-branch ok "" -- "${SRC[@]}" -lavfi "[0:v]split[a][b];[a]noise=alls=10[c];[c][b]$F" -f null -
! grep -q "one picture in both" "$W/split-filtered-branch.log" ||
    { say "  FAIL split-filtered-branch: a filtered branch was said to be one picture"; bad=$((bad + 1)); }
# a distorted input without alpha that lavfi converts to the RGBA reference's format gets its
# alpha from the conversion: still warned (an ARGB1555 BMP, whose alpha FFmpeg drops: -661.0)
check alpha-added-by-conversion ok "The reference has alpha and the distorted input has none" -- \
    -f lavfi -i "$(lavfi 64x48),format=rgb555le" -f lavfi -i "$(lavfi 64x48),$HALF_ALPHA" -lavfi "$G" -f null -
# ... but not where a conversion gave the reference its alpha too (format=rgba on both: it
# had been said, of two opaque inputs)
check alpha-added-to-both ok "" -- "${SRC[@]}" -lavfi "[0:v]format=rgba[a];[1:v]format=rgba[b];[a][b]$F" -f null -
# ... but a filter writing alpha after the conversion (colorkey) makes it real: warned (it
# had been taken as the conversion's)
check alpha-keyed-after-conversion ok "The reference has alpha and the distorted input has none" -- \
    "${SRC[@]}" -lavfi "[1:v]format=rgba,colorkey=black:0.3[r];[0:v][r]$F" -f null -
! grep -q "has alpha and" "$W/alpha-added-to-both.log" ||
    { say "  FAIL alpha-added-to-both: the reference's alpha from a conversion was warned"; bad=$((bad + 1)); }
# a tiled image (AVIF grid): [0:v] binds one tile, and a pair of them scored that tile alone
# (100 for two grids differing outside it); ffmpeg says so and names the stream group
cp "$S2_ROOT/tests/data/coffee_tiles_2x2.avif" "$W/tiles.avif"
check tiled-image-label ok "one of the 4 tiles of a tiled image: the filters get that tile alone. The whole image is stream group 0:g:0 ([0:g:0])" -- \
    -i tiles.avif -i tiles.avif -lavfi "$G" -f null -
check tiled-image-group ok "SSIMULACRA2 score: 100" -- -i tiles.avif -i tiles.avif -lavfi "[0:g:0][1:g:0]$F" -f null -
# unlabeled, the graph's first input takes the tiled image (its tiles' graph is an unbound
# output) before any stream: a tiled reference had become the distorted input, silently
check tiled-image-unlabeled error "Unlabeled input 0 of the filter graph takes a tiled image" -- \
    -i tiles.avif -i tiles.avif -lavfi "$F" -f null -
# a tiled image beside an input of another kind: stock FFmpeg 8.1 never ended the tiled
# input for the graph, whose other input stayed choked (a hang: 1 run in 5 to 10 beside a
# PNG, every run beside 5 frames; psnr too), overlay fix s2_fix_graph_eof; and chained
# -filter_complex graphs, which hung alike
"$FFMPEG" -nostdin -loglevel error -i "$W/tiles.avif" -lavfi "[0:g:0]null" -frames:v 1 "$W/tiles.png"
# (beside a PNG it hung 1 run in 5 to 10: the 5-frame and chained cases hung every run)
check tiled-image-beside-png ok "SSIMULACRA2 score:" -- -i tiles.avif -i tiles.png -lavfi "[0:g:0][1:v]$F" -f null -
check tiled-image-beside-5-frames ok "SSIMULACRA2 score:" -- -i tiles.avif -f lavfi -i "testsrc2=s=128x128:r=25:d=0.2" \
    -lavfi "[0:g:0][1:v]$F" -f null -
check chained-graphs ok "SSIMULACRA2 score:" -- -f lavfi -i "$(lavfi 64x64 10 0.5)" -f lavfi -i "$(lavfi 64x64 10 1)" \
    -filter_complex "[0:v]null[a]" -filter_complex "[a][1:v]$F" -f null -
# ... and a graph fed by one that made no frame: a NULL dereference in stock 8.1 (no fallback
# parameters), now FFmpeg's error for an input of no format
check chained-graphs-empty error "Cannot determine format of input" -- "${SRC[@]}" -filter_complex \
    "[0:v]select=0[a]" -filter_complex "[a][1:v]$F" -f null -
# an animated AVIF: [0:v] binds its still image item (one frame), not the sequence
cp "$S2_ROOT/tests/data/coffee_anim_3f.avif" "$W/anim.avif"
check animated-image-label ok "a still image of one frame; stream 0:1 of that file has 3 frames (an animated image's sequence): [0:1] binds it" -- \
    -i anim.avif -i anim.avif -lavfi "$G" -f null -
check animated-image-sequence ok "frames:3 mean:100" -- -i anim.avif -i anim.avif -lavfi "[0:1][1:1]$F" -f null -
grep -q "a still image of one frame" "$W/animated-image-sequence.log" &&
    { say "  FAIL animated-image-sequence: the sequence's own label warned about"; bad=$((bad + 1)); }
grep -q "tiles of a tiled image" "$W/tiled-image-group.log" &&
    { say "  FAIL tiled-image-group: the stream group's own tiles warned about"; bad=$((bad + 1)); }
# an image sequence of mixed formats makes ffmpeg rebuild the graph at each change, losing
# frames the old graph held (1 to 3 of 3 scored from run to run): the unscored frames had been
# blamed on a shorter reference alone; the rebuild is named, with -reinit_filter 0
mkdir -p "$W/mixed"
for f in "1 rgb24" "2 rgba" "3 rgb48be"; do
    set -- $f
    "$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 96x54 10 0.1)" -frames:v 1 -pix_fmt "$2" "$W/mixed/d$1.png"
    "$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 96x54 10 0.1)" -frames:v 1 -pix_fmt rgb24 "$W/mixed/r$1.png"
done
for k in 1 2 3; do
    check "mixed-sequence-$k" ok "" -- -i mixed/d%d.png -i mixed/r%d.png -lavfi "$G" -f null -
    if grep -q "came after the reference's last frame" "$W/mixed-sequence-$k.log" &&
        ! grep -qE "rebuilt the filter graph [0-9]+ time|were lost when ffmpeg rebuilt" \
            "$W/mixed-sequence-$k.log"; then
        say "  FAIL mixed-sequence-$k: frames unscored at a rebuild blamed on the reference alone"
        bad=$((bad + 1))
    fi
done
# -loop 1 on the distorted input instead of the reference: an endless input, which ffmpeg
# runs until stopped (as with psnr); said once it has gone on 60 s past the reference's end
check endless-distorted ok "If it is a looped image (-loop 1 before its -i)" -- -loop 1 -framerate 1 -i img.png \
    -f lavfi -i "$(lavfi 96x64 10 1)" -lavfi "$G" -frames:v 70 -f null -
# a reference that starts again (movie=...:loop=0): framesync read it for ever for a frame past
# the last distorted one (ffmpeg hung, deaf to signals); it ends where it starts again
check ref-movie-loop ok "The reference starts again after its frame at 0.900 s" -- -f lavfi -i "$(lavfi 96x64 10 1)" \
    -vf "movie=clip.y4m:loop=0[r];[in][r]$F=shortest=1" -f null -
# ... also in framesync's finer time base (the distorted input's 1/50: the frames after it were
# scored against its last frame), and an image looped by movie= (every frame at one time: it
# had hung too) pairs every distorted frame, as -loop 1 does
check ref-movie-loop-tb ok "It is taken as ending there: 5 distorted frames after it were passed through unscored" -- \
    -f lavfi -i "$(lavfi 96x64 10 1.5)" -vf "settb=1/50[m];movie=clip.y4m:loop=0[r];[m][r]$F" -f null -
check ref-movie-loop-image ok "were all one picture" -- -f lavfi -i "$(lavfi 96x64 10 1)" \
    -vf "movie=img.png:loop=0[r];[in][r]$F" -f null -
grep -q "frames:10 " "$W/ref-movie-loop-image.log" ||
    { say "  FAIL ref-movie-loop-image: not every distorted frame scored"; bad=$((bad + 1)); }
check ref-movie-loop-short ok "It is taken as ending there: 5 distorted frames after it were passed through unscored" -- \
    -f lavfi -i "$(lavfi 96x64 10 1.5)" -vf "movie=clip.y4m:loop=0[r];[in][r]$F" -f null -
# wall-clock timestamps kept (-copyts) in microseconds are past the far time restarted frames get:
# a gap in such a reference was taken for its end (4 frames unpaired, "the reference is shorter")
WALL="settb=1/1000000,setpts=PTS+1.7e9/TB"
check ref-gap-wallclock ok "frames:20 " -- \
    -f lavfi -i "$(lavfi 64x64 10 2)" -f lavfi -i "$(lavfi 64x64 10 2)" \
    -lavfi "[0:v]$WALL[a];[1:v]$WALL,select='not(between(n\,5\,8))'[b];[a][b]$F" -f null -
grep -qF "ref_repeated:4 ts_mismatched:4 unpaired:0" "$W/ref-gap-wallclock.log" ||
    { say "  FAIL ref-gap-wallclock: the gap's frames unpaired"; bad=$((bad + 1)); }
# ... but three frames at the first time, then on (an image sequence's file times), are no image
# looped (a third had made it one: 22 of 24 frames scored against the third, 13.9 to -15)
BURST="$(lavfi 64x64 24 1),setpts='if(lt(N,3),0,N-2)/(24*TB)'"
check ref-three-at-first ok "SSIMULACRA2 score: 100.000000" -- \
    -f lavfi -i "$BURST" -f lavfi -i "$BURST" -lavfi "$G" -f null -
# ... while an image looped a few times is one still (an eighth frame had been wanted: loop=3
# was scored as a reference of one frame, 9 unpaired)
check ref-movie-loop3-image ok "frames:10 " -- -f lavfi -i "$(lavfi 96x64 10 1)" \
    -vf "movie=img.png:loop=3[r];[in][r]$F" -f null -
grep -q "unpaired:0" "$W/ref-movie-loop3-image.log" ||
    { say "  FAIL ref-movie-loop3-image: frames unpaired"; bad=$((bad + 1)); }
# a looped reference of wall-clock times (-copyts): its restarted frames were moved before its
# times, and framesync read it for ever (deaf to TERM)
check ref-movie-loop-wallclock ok "unpaired:5" -- -f lavfi -i "$(lavfi 96x64 10 1.5)" \
    -vf "$WALL[m];movie=clip.y4m:loop=0,$WALL[r];[m][r]$F" -f null -
check primaries-bt470m ok "primaries are bt470m" -- "${SRC[@]}" -lavfi "[0:v]setparams=color_primaries=bt470m[a];[1:v]setparams=color_primaries=bt470m[b];[a][b]$F" -f null -
if [ -z "${ASAN_OPTIONS:-}" ] && [ "$F" = ssimulacra2 ]; then
    # 2 GiB of address space: the 16000x16000 frames fit, the filter's scratch (2.1 GiB) does not
    RUNCASE_AS=$((2 << 30)) check out-of-memory error "needs" -- \
        -f lavfi -i "color=gray:s=16000x16000:d=0.1,format=gray" \
        -f lavfi -i "color=gray:s=16000x16000:d=0.1,format=gray" -lavfi "$G" -f null -
    # 3 GiB: an 8192x8192 pair is scored (the scratch is ~10 bytes per pixel; at 77 it did not fit)
    RUNCASE_AS=$((3 << 30)) check memory-8k ok "SSIMULACRA2 score:" -- \
        -f lavfi -i "color=gray:s=8192x8192:d=0.04,format=gray" \
        -f lavfi -i "color=gray:s=8192x8192:d=0.04,format=gray" -lavfi "$G" -f null -
fi

check matrix-not-kr-kb error "matrix=8 (ycgco) is not a Kr/Kb" -- "${SRC[@]}" -lavfi "$G=matrix=8" -f null -

say "$F: formats the filter does not read"
# lavfi converts the distorted input to the reference's format when it can (the output shares
# its list): a conversion that drops alpha or chroma is refused, and the format it names scores
# the pixels as the same pixels in a format read directly do (gray16); the example is gray
# with alpha, 16 bits (gbrap had been, until it was read directly)
GRAYN="testsrc2=s=64x48:r=10:d=0.3,format=gray16le,noise=alls=15:allf=t,format=gray16le"
check ya16-to-yuv420p error "loses alpha, bit depth, chroma resolution" -- -f lavfi -i "$GRAYN,format=ya16le" \
    -f lavfi -i "$(lavfi 64x48 10 0.3),format=yuv420p" -lavfi "$G" -f null -
grep -qF "format=gbrap16le" "$W/ya16-to-yuv420p.log" ||
    { say "  FAIL ya16-to-yuv420p: the message names no format=gbrap16le"; bad=$((bad + 1)); }
check ya16-as-gbrap16 ok "" -- -f lavfi -i "$GRAYN,format=ya16le" -f lavfi -i "$(lavfi 64x48 10 0.3),format=yuv420p" \
    -lavfi "[0:v]format=gbrap16le[d];[d][1:v]$F" -f null -
check gray16-direct ok "" -- -f lavfi -i "$GRAYN" -f lavfi -i "$(lavfi 64x48 10 0.3),format=yuv420p" -lavfi "$G" -f null -
[ -n "$(score_of gray16-direct)" ] && [ "$(score_of ya16-as-gbrap16)" = "$(score_of gray16-direct)" ] ||
    { say "  FAIL ya16-as-gbrap16: $(score_of ya16-as-gbrap16), the same pixels as gray16: $(score_of gray16-direct)"; bad=$((bad + 1)); }
# a paletted reference becomes RGB without the palette's alpha (PNG tRNS)
check pal8-reference error "loses alpha" -- -f lavfi -i "$(lavfi 64x48 10 0.3),format=rgba" \
    -f lavfi -i "$(lavfi 64x48 10 0.3),format=pal8" -lavfi "$G" -f null -
# gray with alpha: the format named keeps the alpha (gray would drop it)
check ya8-to-gray error "e.g. with format=gbrap on that input" -- -f lavfi -i "$(lavfi 64x48 10 0.3),format=ya8" \
    -f lavfi -i "$(lavfi 64x48 10 0.3),format=gray" -lavfi "$G" -f null -
# an opaque palette is refused too (a palette has alpha to lavfi): the message says rgb24 does
check pal8-opaque error "for an opaque image format=rgb24" -- -f lavfi -i "$(lavfi 64x48 10 0.3),format=rgb24" \
    -f lavfi -i "$(lavfi 64x48 10 0.3),format=pal8" -lavfi "$G" -f null -
# float images (EXR, PFM): the conversion named clips and quantises, and they are usually linear
check float-to-16bit error "add transfer=linear" -- -f lavfi -i "$(lavfi 64x48 10 0.3),format=gbrpf32le" \
    -f lavfi -i "$(lavfi 64x48 10 0.3),format=gbrpf32le" -lavfi "$G" -f null -
# interlaced 4:2:0: its chroma is read as a progressive frame's, which is said
check interlaced-420 ok "The distorted input is interlaced" -- -f lavfi -i "$(lavfi 64x48 10 0.3),format=yuv420p,setfield=tff" \
    -f lavfi -i "$(lavfi 64x48 10 0.3),format=yuv420p" -lavfi "$G" -f null -
# ... but not a progressive stream with a few frames flagged (soft telecine: 5 of 72), here
# every third: said from two flagged frames in a row
check interlaced-sparse ok "SSIMULACRA2 score:" -- -f lavfi -i "$(lavfi 64x48 10 1),format=yuv420p" \
    -f lavfi -i "$(lavfi 64x48 10 1),format=yuv420p" -lavfi \
    "[0:v]split[p][i];[p]select='mod(n,3)',setfield=prog[a];[i]select='not(mod(n,3))',setfield=tff[b];[a][b]interleave[d];[d][1:v]$F" -f null -
grep -q "is interlaced" "$W/interlaced-sparse.log" &&
    { say "  FAIL interlaced-sparse: warned as interlaced"; bad=$((bad + 1)); }
# AV1 film grain left unapplied (-export_side_data film_grain): the frames lack the grain a
# player adds (47.0 instead of 42.1 at film-grain=50), said; decoded as usual, nothing said
if "$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi 160x96 10 0.5),noise=alls=14:allf=t" -pix_fmt yuv420p \
        -c:v libsvtav1 -svtav1-params film-grain=50 "$W/grain.ivf" 2> /dev/null; then
    check grain-exported ok "film grain parameters that their decoder did not apply" -- -export_side_data film_grain \
        -i "$W/grain.ivf" -f lavfi -i "$(lavfi 160x96 10 0.5)" -lavfi "$G" -f null -
    check grain-applied ok "SSIMULACRA2 score:" -- -i "$W/grain.ivf" -f lavfi -i "$(lavfi 160x96 10 0.5)" -lavfi "$G" -f null -
    grep -q "film grain" "$W/grain-applied.log" && { say "  FAIL grain-applied: grain said"; bad=$((bad + 1)); }
else
    say "  skip grain-*: no libsvtav1 encoder"
fi
# the frames lost at a rebuild had also been said a jump of the timestamps (5 runs in 6 with
# these lossless parts of 12 frames): three runs, none may say it
if "$FFMPEG" -hide_banner -encoders 2> /dev/null | grep -q libx264; then
    for s in 64x64 80x48; do
        "$FFMPEG" -nostdin -loglevel error -f lavfi -i "$(lavfi $s 24 0.5)" -c:v libx264 -qp 0 \
            -f h264 "$W/part-$s.264"
    done
    cat "$W/part-64x64.264" "$W/part-80x48.264" > "$W/parts.264"
    for k in 1 2 3; do
        check rebuild-no-jump-$k ok "rebuilt" -- -i parts.264 -i parts.264 -lavfi "$G" -f null -
        grep -qF "timestamps jump forward" "$W/rebuild-no-jump-$k.log" &&
            { say "  FAIL rebuild-no-jump-$k: the frames lost said a jump"; bad=$((bad + 1)); }
    done
fi
# alpha on the reference only (VP9 in WebM read by FFmpeg's own decoder drops it): said
check ref-alpha-only ok "The reference has alpha and the distorted input has none" -- \
    -f lavfi -i "$(lavfi 64x48 10 0.3),format=yuv420p" -f lavfi -i "$(lavfi 64x48 10 0.3),$HALF_ALPHA,format=yuva420p" \
    -lavfi "$G" -f null -
# ... and on the distorted input only (the reference's dropped by that decoder: -72.6 against
# 83.2, unwarned)
check dist-alpha-only ok "The distorted input has alpha and the reference has none" -- \
    -f lavfi -i "$(lavfi 64x48 10 0.3),$HALF_ALPHA,format=yuva420p" -f lavfi -i "$(lavfi 64x48 10 0.3),format=yuv420p" \
    -lavfi "$G" -f null -
# ... but alpha that is all opaque (a GIF, a lossless WebP, an RGBA PNG of an opaque picture)
# scores as none: not warned (it had been, on both sides)
check opaque-alpha-either-side ok "" -- -f lavfi -i "$(lavfi 64x48 10 0.3),format=yuva420p" \
    -f lavfi -i "$(lavfi 64x48 10 0.3),format=rgba" -lavfi "[0:v][1:v]$F;[1:v][0:v]$F" -f null -
grep -q "has alpha and" "$W/opaque-alpha-either-side.log" &&
    { say "  FAIL opaque-alpha-either-side: all-opaque alpha warned"; bad=$((bad + 1)); }
# ... in every alpha format the filter reads (the scan reads whole-byte alpha itself): one
# half-transparent pixel, the last one read, is warned; all opaque is not (both through the
# same conversions; rgba to 16 bits makes 255 65532)
alpha_at_end() {
    local rgb="r='r(X,Y)':g='g(X,Y)':b='b(X,Y)'"
    echo "format=rgba,geq=$rgb:a='if(eq(X,W-1)*eq(Y,H-1),$1,255)',format=rgba"
}
for fmt in rgba bgra argb abgr rgba64le rgba64be bgra64be gbrap gbrap10le gbrap12be gbrap14le \
           gbrap16be yuva420p yuva422p10le yuva444p12le yuva420p16le; do
    for alpha in opaque one-pixel; do
        case $alpha in opaque) a=$(alpha_at_end 255) ;; *) a=$(alpha_at_end 128) ;; esac
        check "alpha-$fmt-$alpha" ok "" -- -f lavfi -i "$(lavfi 67x37 10 0.2),format=yuv444p" \
            -f lavfi -i "$(lavfi 67x37 10 0.2),$a,format=$fmt" -lavfi "$G" -f null -
        warned=$(grep -c "The reference has alpha and" "$W/alpha-$fmt-$alpha.log")
        [ "$warned" = "$([ $alpha = opaque ] && echo 0 || echo 1)" ] ||
            { say "  FAIL alpha-$fmt-$alpha: warned $warned times"; bad=$((bad + 1)); }
    done
done
# ... and 8-bit alpha planes that swscale made 16 bits (255: 65280) are opaque too
for pair in gbrap:gbrap16le yuva420p:yuva420p16le yuva444p:rgba64le; do
    check "alpha-${pair%:*}-to-${pair#*:}" ok "" -- \
        -f lavfi -i "$(lavfi 68x38 10 0.2),format=yuv444p" \
        -f lavfi -i "$(lavfi 68x38 10 0.2),format=${pair%:*},format=${pair#*:}" \
        -lavfi "$G" -f null -
    grep -q "The reference has alpha and" "$W/alpha-${pair%:*}-to-${pair#*:}.log" &&
        { say "  FAIL alpha-${pair%:*}-to-${pair#*:}: opaque alpha warned"; bad=$((bad + 1)); }
done
# packed Y'CbCr with alpha: lavfi unpacks it to yuva444p, which the filter reads (it made such
# formats RGB with swscale's matrix, and the filter's Y'CbCr options went unused)
check vuya-as-yuva ok "SSIMULACRA2 score:" -- -f lavfi -i "$(lavfi 64x48 10 0.3),format=vuya" \
    -f lavfi -i "$(lavfi 64x48 10 0.3),format=yuva444p" -lavfi "$G" -f null -
grep -q "auto_scale.*rgb\|auto_scale.*gbr" "$W/vuya-as-yuva.log" &&
    { say "  FAIL vuya-as-yuva: converted to RGB"; bad=$((bad + 1)); }
check ycgco-on-distorted error "The distorted input is tagged with the ycgco matrix" -- \
    -f lavfi -i "$(lavfi 64x48 10 0.3),format=yuv420p,setparams=colorspace=ycgco" \
    -f lavfi -i "$(lavfi 64x48 10 0.3),format=yuv420p" -lavfi "$G" -f null -
grep -q "Neither input is tagged" "$W/ycgco-on-distorted.log" &&
    { say "  FAIL ycgco-on-distorted: 'Neither input is tagged' said of a tagged pair"; bad=$((bad + 1)); }
# ... but said of an untagged encode against an RGB source (PNG), the commonest guess, which
# is BT.601 there (FFmpeg made it from RGB so)
check guess-beside-rgb ok "beside an RGB or gray input it is read as BT.601" -- \
    -f lavfi -i "$(lavfi 64x48 10 0.3),format=yuv420p" -f lavfi -i "$(lavfi 64x48 10 0.3),format=rgb24" \
    -lavfi "$G" -f null -
# (twentieth probe) below 720 lines players read BT.601 too: no matrix=bt709 hint there
grep -q "matrix=bt709" "$W/guess-beside-rgb.log" &&
    { say "  FAIL guess-beside-rgb: matrix=bt709 advised for 48 lines"; bad=$((bad + 1)); }

# both cut with -ss where the containers round the cut apart (Y4M's time base is a frame, MKV's
# finer): each starts at another frame, offset by part of a frame. setpts=PTS-STARTPTS, which
# the warning named alone, pairs every frame with a neighbour silently: -copyts is named too
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "testsrc2=s=96x64:r=24000/1001:d=3" -pix_fmt yuv420p "$W/cut24.y4m"
"$FFMPEG" -nostdin -loglevel error -i "$W/cut24.y4m" -c:v rawvideo "$W/cut24.mkv"
check cut-both-offset ok "keep the source's timestamps with -copyts before both -i" -- \
    -ss 1.3 -t 1 -i cut24.mkv -ss 1.3 -t 1 -i cut24.y4m -lavfi "$G" -f null -

say "$F: an image's own colour encoding (PNG gAMA, iCCP), which the filter does not apply"
"$FFMPEG" -nostdin -loglevel error -i "$W/img.png" -vf setparams=color_trc=bt470m "$W/gamma22.png"
check png-gamma22 ok "carries the transfer gamma 2.2" -- -i img.png -i gamma22.png -lavfi "$G" -f null -
# the input that carries it is named (the reference took the tag from the distorted input, and
# was named)
check png-gamma22-distorted ok "The distorted input carries the transfer gamma 2.2" -- \
    -i gamma22.png -i img.png -lavfi "$G" -f null -
# FFmpeg's TIFF decoder tags every gray image gamma 2.2 (seventeenth probe): not the image's
# own; a gray PNG's gAMA (and cICP) chunk is
"$FFMPEG" -nostdin -loglevel error -i "$W/img.png" -pix_fmt gray16le "$W/gray.tif"
"$FFMPEG" -nostdin -loglevel error -i "$W/img.png" -vf format=gray,setparams=color_trc=bt470m "$W/gray-gamma22.png"
check tiff-gray ok "" -- -i gray.tif -i img.png -lavfi "$G" -f null -
grep -q "carries\|input's: bt470m" "$W/tiff-gray.log" &&
    { say "  FAIL tiff-gray: the TIFF decoder's gamma 2.2 tag taken for the image's"; bad=$((bad + 1)); }
check png-gray-gamma22 ok "The distorted input carries the transfer gamma 2.2" -- \
    -i gray-gamma22.png -i img.png -lavfi "$G" -f null -
# a PNG cICP chunk of a video transfer (FFmpeg's encoder writes one for a frame tagged bt709)
# is read by the reference tool, not by the filter: said for a pair of images; video, made
# RGB in the graph or beside such an image, is read as sRGB without a word
"$FFMPEG" -nostdin -loglevel error -i "$W/img.png" -vf setparams=color_trc=bt709:color_primaries=bt709 "$W/cicp709.png"
"$FFMPEG" -nostdin -loglevel error -i "$W/cicp709.png" -vf noise=alls=20 "$W/cicp709-d.png"
check png-cicp-bt709 ok "The reference input carries the transfer bt709 (its own tag: a PNG cICP chunk" -- \
    -i cicp709-d.png -i cicp709.png -lavfi "$G" -f null -
check video-rgb-bt709 ok "" -- -f lavfi -i "$(lavfi 64x64 10 1),format=yuv420p,setparams=color_trc=bt709" \
    -f lavfi -i "$(lavfi 64x64 10 1),format=yuv420p,setparams=color_trc=bt709" \
    -lavfi "[0:v]format=gbrp[d];[1:v]format=gbrp[r];[d][r]$F" -f null -
check video-beside-cicp ok "" -- -i cicp709-d.png -f lavfi -i "$(lavfi 96x64 10 0.1),format=yuv444p" -lavfi "$G" -f null -
# ... also where a filter that joins inputs (hstack, overlay) comes before the conversion
check video-joined-rgb ok "" -- -f lavfi -i "$(lavfi 64x64 10 1),format=yuv420p,setparams=color_trc=bt709" \
    -f lavfi -i "$(lavfi 64x64 10 1),format=yuv420p,setparams=color_trc=bt709" \
    -lavfi "[0:v]split[x][y];[x][y]hstack,format=gbrp[d];[1:v]split[p][q];[p][q]hstack,format=gbrp[r];[d][r]$F" -f null -
for c in video-rgb-bt709 video-beside-cicp video-joined-rgb; do
    grep -qF "cICP" "$W/$c.log" && { say "  FAIL $c: video read as sRGB is warned about"; bad=$((bad + 1)); }
done
if command -v python3 > /dev/null; then
    # gAMA 1.8 (55556): FFmpeg's PNG decoder leaves it out of the tags, in the frame's metadata
    python3 -c 'import struct, sys, zlib
d = open(sys.argv[1], "rb").read(); c = b"gAMA" + struct.pack(">I", 55556)
open(sys.argv[2], "wb").write(d[:33] + struct.pack(">I", 4) + c + struct.pack(">I", zlib.crc32(c)) + d[33:])' \
        "$W/img.png" "$W/gamma18.png"
    check png-gamma18 ok "The distorted input carries the transfer gamma 1.80" -- -i gamma18.png -i img.png -lavfi "$G" -f null -
    python3 "$S2_TESTS/tools/png-icc.py" "$W/img.png" "$W/adobe.png" "Adobe RGB (1998)"
    python3 "$S2_TESTS/tools/png-icc.py" "$W/img.png" "$W/srgb.png" "sRGB IEC61966-2.1"
    check png-icc-other ok "carries an ICC profile" -- -i adobe.png -i img.png -lavfi "$G" -f null -
    check png-icc-srgb ok "" -- -i srgb.png -i img.png -lavfi "$G" -f null -
    grep -qF "carries" "$W/png-icc-srgb.log" &&
        { say "  FAIL png-icc-srgb: an sRGB profile is warned about"; bad=$((bad + 1)); }
    # sRGB named inside the description (Ghostscript's profile) is sRGB; e-sRGB is not
    python3 "$S2_TESTS/tools/png-icc.py" "$W/img.png" "$W/srgb-gs.png" "Artifex Software sRGB ICC Profile"
    python3 "$S2_TESTS/tools/png-icc.py" "$W/img.png" "$W/esrgb.png" "e-sRGB"
    check png-icc-srgb-named ok "" -- -i srgb-gs.png -i img.png -lavfi "$G" -f null -
    grep -qF "carries" "$W/png-icc-srgb-named.log" &&
        { say "  FAIL png-icc-srgb-named: Ghostscript's sRGB profile is warned about"; bad=$((bad + 1)); }
    check png-icc-esrgb ok "carries an ICC profile" -- -i esrgb.png -i img.png -lavfi "$G" -f null -
fi

say "robustness ($F): $n cases, $bad failed"
[ $bad = 0 ] || die "$bad case(s) failed"
say "PASS: $s2_name"
