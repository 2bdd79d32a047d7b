#!/usr/bin/env bash
# tools/ssimu2-ladder, tools/ssimu2-plot, tools/ncu-blocks.py and tools/sass-loops.py: the
# ladder's scores are the filter's scores of the files it wrote, a failed rung fails the run
# and is named, --target lands on the boundary CRF, the plots are PNG files, bad input is an
# error, the profile summary sums the blocks of a source page, and the SASS summary finds the
# loops of one kernel.
. "$(dirname "$0")/lib/common.sh"
need_ffmpeg
W=$SSIMU2_TEST_OUT/tools
rm -rf "$W" && mkdir -p "$W" || die "cannot create $W"
LADDER=$S2_ROOT/tools/ssimu2-ladder PLOT=$S2_ROOT/tools/ssimu2-plot
n=0 bad=0
ok()   { n=$((n + 1)); say "  ok   $*"; }
fail() { n=$((n + 1)); bad=$((bad + 1)); say "  FAIL $*"; }

# ncu-blocks.py (the GPU profile's summary; needs no encoder): runs of equal execution
# counts are one block, their instructions and stall samples summed, the largest first;
# ncu's notes before the table are skipped
cat > "$W/source.csv" <<'EOT'
==WARNING== a note before the table
"Kernel Name","k",
"Address","Source","Warp Stall Sampling (All Samples)","Instructions Executed"
"0x0","      MOV R1, c[0x0][0x28]","1","10"
"0x10","      FFMA R2, R3, R4, R5","6","300"
"0x20","      @!P0  LDS R6, [R7]","2","300"
"0x30","      EXIT","1","10"
EOT
python3 "$S2_ROOT/tools/ncu-blocks.py" "$W/source.csv" > "$W/nb.out" 2>&1
if grep -q "620 warp instructions, 10 stall samples" "$W/nb.out" &&
   [ "$(sed -n 2p "$W/nb.out" | awk '{ print $1, $2, $5, $6, $10, $NF }')" = "0x10..0x20 2 300 96.8 80.0 LDS:1" ]; then
    ok "ncu-blocks: blocks, shares and opcodes of a source page"
else
    fail "ncu-blocks: $(tr '\n' ' ' < "$W/nb.out")"
fi

# sass-loops.py (SASS without a GPU): a backward branch closes a loop of the instructions
# from its target; a forward branch does not; predicates are not opcodes
cat > "$W/k.sass" <<'EOT'
        Function : other
        /*0000*/                   BRA 0x0 ;
        Function : kern
        /*0000*/                   MOV R1, c[0x0][0x28] ;
        /*0010*/                   FFMA R2, R3, R4, R5 ;
        /*0020*/              @!P0 LDS R6, [R7] ;
        /*0030*/               @P1 BRA 0x10 ;
        /*0040*/                   BRA 0x60 ;
        /*0050*/                   EXIT ;
EOT
python3 "$S2_ROOT/tools/sass-loops.py" "$W/k.sass" kern 1 > "$W/sl.out" 2>&1
if [ "$(tr -s ' \n' ' ' < "$W/sl.out")" = "kern: 6 instructions loop at 0x0010: 3 per iteration FFMA:1 LDS:1 BRA:1 " ]; then
    ok "sass-loops: loops of one kernel and their opcodes"
else
    fail "sass-loops: $(tr '\n' ' ' < "$W/sl.out")"
fi

"$FFMPEG" -hide_banner -encoders 2>/dev/null | grep -q ' libx264 ' || {
    [ $bad = 0 ] || die "ncu-blocks or sass-loops check failed"
    skip "the ladder needs libx264 (the full build, ./configure without --minimal)"
}

# refused WHAT PATTERN OUT -- COMMAND...: COMMAND must exit non-zero with PATTERN in its output
refused() {
    local what=$1 pattern=$2 out=$3; shift 4
    if "$@" > "$out" 2>&1; then fail "$what: exited 0"
    elif grep -q -- "$pattern" "$out"; then ok "$what: an error saying so"
    else fail "$what: no \"$pattern\" in: $(tail -n 1 "$out")"; fi
}
png_ok() { [ "$(head -c 8 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
have_gnuplot=no; command -v gnuplot > /dev/null && have_gnuplot=yes

# an MP4 source: its timestamps (1/12288 s) are not the rungs' (Matroska, 1 ms), as with
# real sources; the independent scores compare Y4M decodes frame by frame
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "testsrc2=s=192x108:r=24:d=0.5,format=yuv420p" \
    -c:v libx264 -qp 0 "$W/src.mp4" && "$FFMPEG" -nostdin -loglevel error -i "$W/src.mp4" "$W/src.y4m" ||
    die "cannot make the source clip"

# 1. three rungs: CSV rows, falling scores, and each score equal to the filter's own run
if python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --crf 20,32,44 -o "$W/l1" "$W/src.mp4" > "$W/l1.out" 2>&1; then
    ok "ladder: 3 rungs, exit 0"
else
    fail "ladder: 3 rungs: $(tail -n 2 "$W/l1.out" | tr '\n' ' ')"
fi
rows=$(tail -n +2 "$W/l1/ladder.csv" 2>/dev/null | wc -l)
[ "$rows" = 3 ] && ok "ladder: ladder.csv has 3 rows" || fail "ladder: ladder.csv has $rows rows"
for c in 20 32 44; do
    want=$(awk -F, -v r="crf$c" '$1 == r { print $4 }' "$W/l1/ladder.csv")
    "$FFMPEG" -nostdin -loglevel error -y -i "$W/l1/crf$c.mkv" "$W/crf$c.y4m"
    got=$("$FFMPEG" -nostdin -hide_banner -i "$W/crf$c.y4m" -i "$W/src.y4m" -lavfi "[0:v][1:v]ssimulacra2" \
              -f null - 2>&1 | sed -n 's/.*SSIMULACRA2 frames:.* mean:\([^ ]*\) .*/\1/p')
    if [ -n "$want" ] && [ -n "$got" ] && awk -v a="$want" -v b="$got" 'BEGIN { exit !(a - b < 1e-6 && b - a < 1e-6) }'; then
        ok "ladder: crf$c mean $want = the filter's $got"
    else
        fail "ladder: crf$c mean '$want', the filter says '$got'"
    fi
done
awk -F, 'NR > 1 { v[$2] = $4 } END { exit !(v[20] > v[32] && v[32] > v[44]) }' "$W/l1/ladder.csv" &&
    ok "ladder: the mean falls as the CRF rises" || fail "ladder: the mean does not fall with the CRF"
if [ $have_gnuplot = yes ]; then
    png_ok "$W/l1/ladder.png" && ok "ladder: ladder.png is a PNG" || fail "ladder: no ladder.png"
fi

# 2. a rung that fails makes the run fail, and names the rung
refused "ladder: a failing encode of rung crf30" "rung crf30: encoding failed" "$W/l2.out" -- \
    python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --crf 30 --enc-opt=-profile:v --enc-opt=nonsense \
        -o "$W/l2" "$W/src.mp4"

# --frames: the rungs and the source cut to the same frames
if python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --crf 30 --frames 5 --no-plot -o "$W/l6" "$W/src.mp4" > "$W/l6.out" 2>&1 &&
   python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["frames_scored"] != 5)' "$W/l6/crf30.json"; then
    ok "ladder --frames 5: 5 frames encoded and scored"
else
    fail "ladder --frames 5: $(tail -n 1 "$W/l6.out")"
fi

# a fractional CRF (x264's and x265's CRF is a float): rung crf30.5; whole ones only elsewhere
if python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --crf 30.5 --frames 5 --no-plot -o "$W/l15" "$W/src.mp4" > "$W/l15.out" 2>&1 &&
   python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["frames_scored"] != 5)' "$W/l15/crf30.5.json"; then
    ok "ladder --crf 30.5: rung crf30.5 encoded and scored"
else
    fail "ladder --crf 30.5: $(tail -n 1 "$W/l15.out")"
fi
refused "ladder: a fractional CRF for libsvtav1" "libsvtav1 takes whole CRF/QP values" "$W/l16.out" -- \
    python3 "$LADDER" --ffmpeg "$FFMPEG" -e libsvtav1 --crf 30.5 -o "$W/l16" "$W/src.mp4"

# --height: rungs encoded at 72 lines, scored scaled back to 192x108: the mean is that of the
# rung's frames scaled back by swscale (bicubic) in a run of their own
if python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --crf 30 --height 72 --frames 5 --no-plot -o "$W/l17" "$W/src.mp4" > "$W/l17.out" 2>&1; then
    size=$("$FFPROBE" -v error -show_entries stream=width,height -of csv=p=0 "$W/l17/crf30.mkv")
    "$FFMPEG" -nostdin -loglevel error -y -i "$W/l17/crf30.mkv" -vf scale=192:108:flags=bicubic "$W/l17-back.y4m"
    "$FFMPEG" -nostdin -loglevel error -y -i "$W/src.y4m" -frames:v 5 "$W/src5.y4m"
    got=$("$FFMPEG" -nostdin -hide_banner -i "$W/l17-back.y4m" -i "$W/src5.y4m" -lavfi "[0:v][1:v]ssimulacra2" \
              -f null - 2>&1 | sed -n 's/.*SSIMULACRA2 frames:5 mean:\([^ ]*\) .*/\1/p')
    want=$(awk -F, '$1 == "crf30" { print $4 }' "$W/l17/ladder.csv")
    if [ "$size" = 128,72 ] && [ -n "$got" ] && awk -v a="$want" -v b="$got" 'BEGIN { exit !(a - b < 1e-6 && b - a < 1e-6) }'; then
        ok "ladder --height 72: a 128x72 rung, mean $want = its frames scaled back, $got"
    else
        fail "ladder --height 72: rung $size, mean '$want', scaled back '$got'"
    fi
else
    fail "ladder --height 72: $(tail -n 1 "$W/l17.out")"
fi
# (nineteenth probe) a source with a rotation tag: ffmpeg turns it as it decodes it, so the
# rung is scaled back to the turned size (it was scaled to the stored one: sizes differ)
"$FFMPEG" -nostdin -loglevel error -display_rotation 90 -i "$W/src.mp4" -c copy "$W/rot90.mp4"
if python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --crf 30 --height 96 --frames 3 --no-plot -o "$W/l19" "$W/rot90.mp4" \
        > "$W/l19.out" 2>&1; then
    ok "ladder --height 96: a source turned by its rotation tag"
else
    fail "ladder --height 96 of a turned source: $(tail -n 1 "$W/l19.out")"
fi
# a paletted source (GIF, PNG8): the reference read as gbrap, as the filter's error advises;
# an RGBA source whose encodes drop the alpha: the metric's warning said, not left in a log
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "testsrc2=s=96x64:r=24:d=0.2,format=pal8" -c:v png "$W/pal8.mkv"
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "testsrc2=s=96x64:r=24:d=0.2,format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='128+X'" \
    -c:v png "$W/rgba.mkv"
python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --crf 30 --no-plot -o "$W/l20" "$W/pal8.mkv" > "$W/l20.out" 2>&1 &&
    ok "ladder: a paletted source" || fail "ladder: a paletted source: $(tail -n 1 "$W/l20.out")"
python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --crf 30 --no-plot -o "$W/l21" "$W/rgba.mkv" > "$W/l21.out" 2>&1 &&
    grep -q "warning of the metric.*The reference has alpha" "$W/l21.out" &&
    ok "ladder: an RGBA source's encodes without alpha: the metric's warning said" ||
    fail "ladder: an RGBA source: no warning in $(tail -n 1 "$W/l21.out")"
refused "ladder: --height 4" "at least 8" "$W/l18.out" -- \
    python3 "$LADDER" --ffmpeg "$FFMPEG" --height 4 -o "$W/l18" "$W/src.mp4"
# arguments that had run a whole search or labelled an x264 default rung b0.4
refused "ladder: --target nan" "wants a number" "$W/l22.out" -- \
    python3 "$LADDER" --ffmpeg "$FFMPEG" --target nan -o "$W/l22" "$W/src.mp4"
refused "ladder: --bitrate 0.4 (ffmpeg's 0)" "at least 1 bit/s" "$W/l23.out" -- \
    python3 "$LADDER" --ffmpeg "$FFMPEG" --bitrate 500k,0.4 -o "$W/l23" "$W/src.mp4"
# a relative source name with ':' is a file, not a protocol ("Protocol not found")
cp "$W/src.mp4" "$W/a:b.mp4"
(cd "$W" && python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --crf 30 --frames 4 --no-plot -o l24 "a:b.mp4") > "$W/l24.out" 2>&1 &&
    ok "ladder: a source named a:b.mp4" || fail "ladder: a source named a:b.mp4: $(tail -n 1 "$W/l24.out")"

# a rung that drops frames (half the frame rate) cannot be scored frame by frame: an error
refused "ladder: rung crf30 at half the frame rate" "rung crf30: .*do not line up" "$W/l5.out" -- \
    python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --crf 30 --enc-opt=-r --enc-opt=12 --no-plot \
        -o "$W/l5" "$W/src.mp4"

# 3. --target: the CRF found scores >= target, the next one up < target
target=60
if python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --target $target --crf-range 10,50 --no-plot \
        -o "$W/l3" "$W/src.mp4" > "$W/l3.out" 2>&1; then
    crf=$(sed -n 's/^crf \([0-9]*\) reaches.*/\1/p' "$W/l3.out")
    s0=$(awk -F, -v c="$crf" 'NR > 1 && $2 == c { print $4 }' "$W/l3/ladder.csv")
    s1=$(awk -F, -v c="$((crf + 1))" 'NR > 1 && $2 == c { print $4 }' "$W/l3/ladder.csv")
    if [ -n "$crf" ] && [ -n "$s0" ] && [ -n "$s1" ] &&
       awk -v a="$s0" -v b="$s1" -v t=$target 'BEGIN { exit !(a >= t && b < t) }'; then
        ok "ladder --target $target: crf $crf scores $s0, crf $((crf + 1)) scores $s1"
    else
        fail "ladder --target $target: crf '$crf' ($s0), next ($s1)"
    fi
else
    fail "ladder --target: $(tail -n 2 "$W/l3.out" | tr '\n' ' ')"
fi
# --gpu without a CUDA device: said before any rung is encoded
if ! "$FFMPEG" -hide_banner -loglevel quiet -nostdin -init_hw_device cuda -f lavfi -i nullsrc \
        -frames:v 1 -f null - 2>/dev/null; then
    refused "ladder: --gpu without a CUDA device" "CUDA device 0 cannot be opened.*drop --gpu" "$W/l25.out" -- \
        python3 "$LADDER" --ffmpeg "$FFMPEG" --gpu --crf 30 -o "$W/l25" "$W/src.mp4"
    [ ! -e "$W/l25/crf30.mkv" ] || fail "ladder: --gpu without a CUDA device encoded a rung first"
fi
# the logs' paths go into the graph as given: a working folder named "vids, 2024" is no
# matter (it had been refused), a comma in -o is
mkdir -p "$W/vids, 2024"
(cd "$W/vids, 2024" && python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --crf 30 --frames 4 --no-plot -o out "$W/src.mp4") \
    > "$W/l26.out" 2>&1 && ok "ladder: a working folder with a comma in its name" ||
    fail "ladder: a working folder with a comma in its name: $(tail -n 1 "$W/l26.out")"
refused "ladder: -o with a comma" "read specially" "$W/l27.out" -- \
    python3 "$LADDER" --ffmpeg "$FFMPEG" --crf 30 -o "$W/a,b" "$W/src.mp4"
refused "ladder: a missing source" "source .*missing.mkv not found" "$W/l4.out" -- \
    python3 "$LADDER" --ffmpeg "$FFMPEG" --crf 20 -o "$W/l4" "$W/missing.mkv"

refused "ladder: -o names a file" "cannot make the folder" "$W/l7.out" -- \
    python3 "$LADDER" --ffmpeg "$FFMPEG" --crf 30 -o "$W/src.y4m" "$W/src.mp4"
# an encoder that fails: the message quotes the line that says why, not the log's last lines
refused "ladder: an encoder error names its cause" "Error setting profile nonsense" "$W/l8.out" -- \
    python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --crf 30 --enc-opt=-profile:v --enc-opt=nonsense \
    --no-plot -o "$W/l8" "$W/src.mp4"
# Ctrl-C during the first rung: the ladder stops (130) and starts no other rung. SIGINT is
# restored first: a background job of a non-interactive shell inherits it ignored
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "testsrc2=s=1280x720:r=24:d=4" -pix_fmt yuv420p "$W/big.y4m"
python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' \
    python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --crf 20,30,40 -j 1 --no-plot -o "$W/l9" "$W/big.y4m" \
    > "$W/l9.out" 2>&1 &
pid=$!
for i in $(seq 100); do grep -q "crf20: encoding" "$W/l9.out" 2> /dev/null && break; sleep 0.1; done
kill -INT $pid
wait $pid; rc=$?
if [ $rc = 130 ] && grep -q "interrupted" "$W/l9.out" && [ ! -e "$W/l9/crf30.mkv.encode.log" ]; then
    ok "ladder: Ctrl-C stops it (exit 130) and starts no other rung"
else
    fail "ladder: after Ctrl-C exit $rc, $(ls "$W/l9" 2> /dev/null | tr '\n' ' ')"
fi

# Ctrl-C to the process group of a ladder that inherited SIGINT ignored (a background job of a
# script): ffmpeg stops all the same, and the ladder stops with it (the rung had been reported
# as failed, its partial files kept, and the next rungs run)
setsid bash -c "python3 '$LADDER' --ffmpeg '$FFMPEG' -e libx264 --crf 20,30 -j 1 --no-plot \
    -o '$W/l28' '$W/big.y4m' > '$W/l28.out' 2>&1 & wait \$!; echo \$? > '$W/l28.rc'" &
pid=$!
for i in $(seq 100); do grep -q "crf20: encoding" "$W/l28.out" 2> /dev/null && break; sleep 0.1; done
sleep 0.3
kill -INT -- -$pid
wait $pid
if [ "$(cat "$W/l28.rc")" = 130 ] && grep -q "interrupted" "$W/l28.out" && [ ! -e "$W/l28/crf30.mkv" ] &&
   [ ! -e "$W/l28/crf20.mkv" ]; then
    ok "ladder ignoring SIGINT: its ffmpeg stopped by a group Ctrl-C stops it (exit 130)"
else
    fail "ladder ignoring SIGINT: exit $(cat "$W/l28.rc"), files: $(ls "$W/l28" 2> /dev/null | tr '\n' ' ')"
fi
# --gpus without --gpu (or an NVENC encoder) had been ignored, the rungs scored on the CPU
refused "ladder: --gpus without --gpu" "give --gpu, or drop --gpus" "$W/l29.out" -- \
    python3 "$LADDER" --ffmpeg "$FFMPEG" --crf 30 --gpus 0,1 -o "$W/l29" "$W/src.mp4"
# a rung whose encoder never starts leaves no empty .mkv (a 0-byte file had been kept)
python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --crf 30 --enc-opt=-preset --enc-opt=nosuch --no-plot \
    -o "$W/l30" "$W/src.mp4" > "$W/l30.out" 2>&1
[ ! -e "$W/l30/crf30.mkv" ] && grep -q "rung crf30" "$W/l30.out" &&
    ok "ladder: a rung whose encoder never started leaves no empty encode" ||
    fail "ladder: a failed encoder's rung: $(ls -l "$W/l30" 2> /dev/null | grep mkv)"

# SIGTERM (a kill, a job scheduler) stops it as Ctrl-C does: ffmpeg had gone on alone, and the
# interrupted rung's files looked finished
python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --crf 20,30 -j 1 --no-plot -o "$W/l10" "$W/big.y4m" \
    > "$W/l10.out" 2>&1 &
pid=$!
for i in $(seq 100); do grep -q "crf20: encoding" "$W/l10.out" 2> /dev/null && break; sleep 0.1; done
kill -TERM $pid
wait $pid; rc=$?
sleep 0.5
if [ $rc = 143 ] && ! pgrep -f "$W/l10/" > /dev/null && [ ! -e "$W/l10/crf20.mkv" ] &&
   [ ! -e "$W/l10/crf20.mkv.encode.log" ]; then
    ok "ladder: SIGTERM stops it (exit 143), its ffmpeg and the unfinished rung's files too"
else
    fail "ladder: after SIGTERM exit $rc, ffmpeg left: $(pgrep -f "$W/l10/" | wc -l), files: $(ls "$W/l10" | tr '\n' ' ')"
    pkill -f "$W/l10/"
fi

# a rung killed by SIGXFSZ (a file size limit, 10 KiB: the encode fits, the score's log does
# not) while the filter wrote its log: the filter's temporary file is not left in the folder
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "testsrc2=s=64x48:r=25:d=8,format=yuv420p" -c:v libx264 \
    -qp 0 "$W/fsize.mp4"
(ulimit -f 10; python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --crf 51 --no-plot -o "$W/l20" "$W/fsize.mp4") \
    > "$W/l20.out" 2>&1
if grep -q "scoring failed.*SIGXFSZ" "$W/l20.out" && ! ls -a "$W/l20" | grep -q '^\..*\.ssimu2-.*\.tmp$'; then
    ok "ladder: a rung killed by a file size limit leaves no temporary file"
else
    fail "ladder: file size limit: $(ls -a "$W/l20" | tr '\n' ' '), $(tail -n 1 "$W/l20.out")"
fi

# a source cut by stream copy has packets its decoder drops (outside the MP4 edit list): the
# source's frames are the decoded ones (every rung failed as "do not line up")
"$FFMPEG" -nostdin -loglevel error -f lavfi -i "testsrc2=s=192x108:r=24:d=2" -pix_fmt yuv420p -c:v libx264 \
    -g 24 -bf 2 "$W/long.mp4" && "$FFMPEG" -nostdin -loglevel error -ss 1.3 -i "$W/long.mp4" -c copy "$W/cut.mp4"
if python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --crf 30 --no-plot -o "$W/l11" "$W/cut.mp4" > "$W/l11.out" 2>&1; then
    ok "ladder: a stream-copy cut as the source"
else
    fail "ladder: a stream-copy cut as the source: $(tail -n 1 "$W/l11.out")"
fi
# a source that is one of the files the run writes is refused, not removed
mkdir -p "$W/l14" && cp "$W/src.mp4" "$W/l14/crf30.mkv"
refused "ladder: a source among the run's outputs" "is one of the files this run writes" "$W/l14.out" -- \
    python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --crf 30 --no-plot -o "$W/l14" "$W/l14/crf30.mkv"
[ -s "$W/l14/crf30.mkv" ] && ok "ladder: that source is left as it was" || fail "ladder: the source was removed"
# a run into the folder of an earlier one leaves none of the earlier table beside its own
cp -r "$W/l1" "$W/l12"
refused "ladder: a failing re-run into an earlier run's folder" "rung crf30: encoding failed" "$W/l12.out" -- \
    python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --crf 30 --enc-opt=-profile:v --enc-opt=nonsense \
        -o "$W/l12" "$W/src.mp4"
[ ! -e "$W/l12/ladder.csv" ] && [ ! -e "$W/l12/ladder.png" ] && ok "ladder: the earlier run's table and plot are gone" ||
    fail "ladder: the earlier run's ladder.csv or ladder.png is left"
if [ $have_gnuplot = yes ]; then
    # names are data: a newline in the source's name ran gnuplot commands (system())
    rm -f "$W/INJECTED"
    nl=$'nl\nsystem("touch INJECTED")\nx.mp4'
    cp "$W/src.mp4" "$W/$nl"
    (cd "$W" && python3 "$LADDER" --ffmpeg "$FFMPEG" -e libx264 --crf 30 -o l13 "$nl") > "$W/l13.out" 2>&1
    if [ ! -e "$W/INJECTED" ] && png_ok "$W/l13/ladder.png"; then
        ok "ladder: a newline in the source's name is data"
    else
        fail "ladder: a newline in the source's name ran a command or gave no plot: $(tail -n 1 "$W/l13.out")"
    fi
fi

# 4. ssimu2-plot: a PNG from a log, an error on a file that is not one
if [ $have_gnuplot = yes ]; then
    if python3 "$PLOT" "$W/l1/crf32.json" -o "$W/crf32.png" > "$W/p1.out" 2>&1 && png_ok "$W/crf32.png"; then
        ok "plot: crf32.json -> crf32.png"
    else
        fail "plot: $(tail -n 1 "$W/p1.out")"
    fi
    # file names and titles are data: quotes and newlines in them run nothing
    mkdir -p "$W/q'd"; cp "$W/l1/crf32.json" "$W/q'd/it's.json"
    rm -f "$W/INJECTED"
    (cd "$W" && python3 "$PLOT" "q'd/it's.json" -o "q'd/o'); system('touch INJECTED'); set output ('x.png" \
        --title "t'"$'\n'"system('touch INJECTED')") > "$W/p3.out" 2>&1
    if [ ! -e "$W/INJECTED" ] && png_ok "$W/q'd/o'); system('touch INJECTED'); set output ('x.png"; then
        ok "plot: quotes and newlines in paths and title are data"
    else
        fail "plot: a quoted path or title ran a command or gave no PNG: $(tail -n 1 "$W/p3.out")"
    fi
    refused "plot: an output folder that does not exist" "cannot write" "$W/p4.out" -- \
        python3 "$PLOT" "$W/l1/crf32.json" -o "$W/nodir/x.png"
    # what -o names is written, never replaced: a link's file (the link stays), a FIFO
    # through its reader (as root, -o /dev/null had become a PNG); the log itself refused
    : > "$W/linked.png"; ln -sf linked.png "$W/link.png"
    mkfifo "$W/plot.fifo"; timeout 30 cat "$W/plot.fifo" > "$W/fifo.png" & reader=$!
    python3 "$PLOT" "$W/l1/crf32.json" -o "$W/link.png" > "$W/p5.out" 2>&1
    python3 "$PLOT" "$W/l1/crf32.json" -o "$W/plot.fifo" > "$W/p6.out" 2>&1 || kill $reader 2>/dev/null
    wait $reader
    if [ -L "$W/link.png" ] && png_ok "$W/linked.png" && [ -p "$W/plot.fifo" ] && png_ok "$W/fifo.png"; then
        ok "plot: -o a link or a FIFO is written through, not replaced"
    else
        fail "plot: -o a link or a FIFO was replaced or not written: $(tail -n 1 "$W/p5.out") $(tail -n 1 "$W/p6.out")"
    fi
    python3 "$PLOT" "$W/l1/crf32.json" -o /dev/stdout 2> "$W/p8.out" | cat > "$W/stdout.png"
    png_ok "$W/stdout.png" && ok "plot: -o /dev/stdout into a pipe" ||
        fail "plot: -o /dev/stdout into a pipe: $(tail -n 1 "$W/p8.out")"
    cp "$W/l1/crf32.json" "$W/self.json"
    refused "plot: -o the log itself" "is the log itself" "$W/p7.out" -- \
        python3 "$PLOT" "$W/self.json" -o "$W/self.json"
fi
echo "frame,score" > "$W/not.json"
refused "plot: a CSV file" "not a ssimulacra2 JSON log" "$W/p2.out" -- python3 "$PLOT" "$W/not.json"
# a missing log is said to be missing (it had been "not a ssimulacra2 JSON log")
refused "plot: a missing log" "cannot read .*missing.json: No such file" "$W/p3.out" -- \
    python3 "$PLOT" "$W/missing.json"

[ $have_gnuplot = yes ] || say "note: no gnuplot, the PNG checks were skipped"
say "tools: $n checks, $bad failure(s)"
[ $bad = 0 ] || die "$bad tool check(s) failed"
say "PASS: ladder, plot and profile tools, $n checks"
