#!/usr/bin/env bash
# The filter's outputs: frame metadata, stats_file, json/csv/xml logs, the summary line,
# n_subsample and frame pass-through. Pooled statistics are checked against an independent
# awk computation (tests/lib/stats.awk) from the per-frame scores.
# Input: the 24-frame sample clip (SSIMU2_SAMPLES) or, without it, a generated 24-frame clip.
. "$(dirname "$0")/lib/common.sh"
need_ffmpeg
W=$SSIMU2_TEST_OUT/outputs
rm -rf "$W"; mkdir -p "$W"
bad=0
fail() { echo "  FAIL $*"; bad=$((bad + 1)); nchk=$((nchk + 1)); }
ok()   { echo "  ok   $*"; nchk=$((nchk + 1)); }
nchk=0

if [ -n "${SSIMU2_SAMPLES:-}" ] && [ -d "$SSIMU2_SAMPLES/ssimulacra2-video" ]; then
    V=$SSIMU2_SAMPLES/ssimulacra2-video
    IN=(-colorspace bt709 -i "$V/picosdeeuropa_320x240_24f_x264_crf30.y4m"
        -colorspace bt709 -i "$V/picosdeeuropa_320x240_24f_ref.y4m")
    say "input: sample clip (24 frames, yuv420p)"
else
    IN=(-f lavfi -i "testsrc2=s=320x240:r=24:d=1,format=yuv420p,noise=alls=12:allf=t,avgblur=1"
        -f lavfi -i "testsrc2=s=320x240:r=24:d=1,format=yuv420p")
    say "input: generated clip (24 frames, yuv420p; SSIMU2_SAMPLES not found)"
fi
NF=24

# run NAME FILTER-OPTIONS [extra output args]: filter + metadata=print, stderr kept
run() {
    local name=$1 opts=$2; shift 2
    [ $# -gt 0 ] || set -- -f null -
    ( cd "$W" && "$FFMPEG" -nostdin -hide_banner -loglevel info "${IN[@]}" \
        -lavfi "[0:v][1:v]ssimulacra2=$opts,metadata=print:file=$name.meta" "$@" \
        > "$name.stdout" 2> "$name.stderr" ) || { fail "$name: ffmpeg failed"; tail -3 "$W/$name.stderr"; return 1; }
}
P() { awk -f "$S2_AWK/parselog.awk" "$@"; }
same() { [ -s "$1" ] && cmp -s "$1" "$2"; }  # same FILE1 FILE2: equal and not empty

# ---- 1. json + stats_file + metadata + summary in one run
run all "stats_file=stats.log:log_path=log.json:log_fmt=json"
awk -F= '/^lavfi\.ssimulacra2\.score=/ { print $2 }' "$W/all.meta" > "$W/meta.txt"
[ "$(wc -l < "$W/meta.txt")" = $NF ] && ok "metadata: $NF lavfi.ssimulacra2.score values" ||
    fail "metadata: $(wc -l < "$W/meta.txt") lavfi.ssimulacra2.score values, expected $NF"
awk '!/^-?[0-9]+\.[0-9]+$/ || length($0) - index($0, ".") != 15 { b++ } END { exit b > 0 || NR == 0 }' "$W/meta.txt" &&
    ok "metadata: printed with %.15f" || fail "metadata values not in %.15f format"

# stats file: n:<from 1> score:<%.15f>, one line per frame, equal to the metadata, then
# the summary line
tail -n 1 "$W/stats.log" | grep -q '^SSIMULACRA2 frames:'"$NF"' mean:' && ok "stats_file: ends with the summary line" ||
    fail "stats_file: no summary line at the end"
sed '$d' "$W/stats.log" | awk -v nf=$NF '
    { if ($0 !~ /^n:[0-9]+ score:-?[0-9]+\.[0-9]+$/) { b++; print "    bad line: " $0; next }
      split($1, a, ":"); split($2, s, ":")
      if (a[2] != NR) { b++; print "    n:" a[2] " on line " NR }
      if (length(s[2]) - index(s[2], ".") != 15) { b++; print "    not %.15f: " s[2] } }
    END { if (NR != nf) { b++; print "    " NR " lines, expected " nf }; exit b > 0 }' &&
    ok "stats_file: $NF lines 'n:N score:%.15f', n from 1" || fail "stats_file format"
same "$W/meta.txt" <(grep '^n:' "$W/stats.log" | sed "s/.* score://") && ok "stats_file scores == metadata" ||
    fail "stats_file scores differ from the metadata"

# json: version, frames 0..23, frames_scored, values == metadata (as %.15f)
P "$W/log.json" > "$W/json.txt"
grep -q '^version 2.1$' "$W/json.txt" && ok "json: version 2.1" || fail "json: no version 2.1"
grep -q "^scored $NF\$" "$W/json.txt" && ok "json: frames_scored $NF" || fail "json: frames_scored != $NF"
awk '$1 == "frame" { if ($2 != n++) b++ } END { exit b > 0 || n == 0 }' "$W/json.txt" &&
    ok "json: frameNum 0..$((NF - 1))" || fail "json: frameNum sequence"
same "$W/meta.txt" <(awk '$1 == "frame" { printf "%.15f\n", $3 }' "$W/json.txt") &&
    ok "json: per-frame scores == metadata" || fail "json: per-frame scores differ from the metadata"
[ "$(grep -c frameNum "$W/log.json")" = $NF ] && ok "json: one frame per line" || fail "json: not one frame per line"

# pooled statistics: json vs independent awk computation
check_stats() { # LABEL FILE-with-stat-lines TOLERANCE(relative)
    awk -v label="$1" -v tol="$3" '
        FNR == NR { if ($1 == "stat") want[$2] = $3; next }
        $1 == "stat" { got[$2] = $3 }
        END { for (k in want) { nw++
                if (!(k in got)) { printf "    %s: no %s\n", label, k; b++; continue }
                d = got[k] - want[k]; if (d < 0) d = -d
                m = want[k] < 0 ? -want[k] : want[k]; if (m < 1) m = 1
                if (d > tol * m) { printf "    %s: %s = %s, expected %s\n", label, k, got[k], want[k]; b++ } }
              exit b > 0 || nw < 10 }' "$W/expected-stats.txt" "$2"
}
awk -f "$S2_AWK/stats.awk" "$W/json.txt" > "$W/expected-stats.txt"
check_stats json "$W/json.txt" 1e-12 && ok "json: pooled min/max/mean/harmonic_mean/p1/p5/p10/median/p95/stddev" ||
    fail "json: pooled statistics"

# summary line at info level: all keys, values (%.8f) == independent computation
grep -o 'SSIMULACRA2 frames:.*' "$W/all.stderr" | tail -1 > "$W/summary.txt"
if [ -s "$W/summary.txt" ]; then
    # "harmonic" there is the logs' harmonic_mean (no key may end with another: "mean:")
    awk '{ for (i = 2; i <= NF; i++) { split($i, kv, ":"); if (kv[1] == "frames") print "frames", kv[2];
           else print "stat", kv[1] == "harmonic" ? "harmonic_mean" : kv[1], kv[2] } }' \
        "$W/summary.txt" > "$W/summary-kv.txt"
    awk '{ for (i = 2; i <= NF; i++) { split($i, kv, ":"); k[i] = kv[1] }
           for (i = 2; i <= NF; i++) for (j = 2; j <= NF; j++)
               if (i != j && length(k[i]) > length(k[j]) && substr(k[i], length(k[i]) - length(k[j]) + 1) == k[j]) {
                   print "    key " k[j] " ends " k[i]; b++ }
           exit b > 0 }' "$W/summary.txt" && ok "summary: no key is the end of another" ||
        fail "summary: a key is the end of another"
    miss=
    for k in frames mean harmonic_mean min p1 p5 p10 median p95 max stddev; do
        awk -v k=$k '($1 == "frames" && k == "frames") || ($1 == "stat" && $2 == k) { f = 1 } END { exit !f }' \
            "$W/summary-kv.txt" || miss="$miss $k"
    done
    [ -z "$miss" ] && ok "summary line has all keys" || fail "summary line lacks:$miss"
    grep -q "^frames $NF\$" "$W/summary-kv.txt" && ok "summary: frames:$NF" || fail "summary: frames != $NF"
    check_stats summary "$W/summary-kv.txt" 1.5e-8 && ok "summary values == independent statistics (%.8f)" ||
        fail "summary values"
else
    fail "no 'SSIMULACRA2 frames:' summary line at info level"
fi
# the one number for scripts: "SSIMULACRA2 score: <mean>" (%f), or the pool option's statistic
score_line() { sed -n 's/.*SSIMULACRA2 score: \(-*[0-9.]*\)$/\1/p' "$1" | tail -n 1; }
want=$(awk '$1 == "stat" && $2 == "mean" { printf "%f", $3 }' "$W/expected-stats.txt")
[ -n "$want" ] && [ "$(score_line "$W/all.stderr")" = "$want" ] && ok "score line: SSIMULACRA2 score: $want (the mean)" ||
    fail "score line: '$(score_line "$W/all.stderr")', expected the mean $want"
# (p95 and max: "max" was the option's upper limit, the median, silently)
for pool in harmonic_mean min p1 p5 p10 median p95 max; do
    run pool-$pool "pool=$pool" || continue
    want=$(awk -v k=$pool '$1 == "stat" && $2 == k { printf "%f", $3 }' "$W/expected-stats.txt")
    [ "$(score_line "$W/pool-$pool.stderr")" = "$want" ] || { fail "pool=$pool: score line '$(score_line "$W/pool-$pool.stderr")', expected $want"; continue; }
    ok "pool=$pool: SSIMULACRA2 score: $want"
done

# ---- 2. csv and xml logs: same frames and statistics as json
for fmt in csv xml; do
    run $fmt "log_path=log.$fmt:log_fmt=$fmt" || continue
    P "$W/log.$fmt" > "$W/$fmt.txt"
    [ "$fmt" = csv ] && { head -1 "$W/log.csv" | tr -d '\r' | grep -qx 'frame,score' && ok "csv: header frame,score" || fail "csv: header"; }
    [ "$fmt" = xml ] && { grep -q '<ssimulacra2[^>]*version="2.1"' "$W/log.xml" && grep -q '</ssimulacra2>' "$W/log.xml" &&
        ok "xml: <ssimulacra2 version=\"2.1\"> ... </ssimulacra2>" || fail "xml: root element"; }
    awk '$1 == "frame"' "$W/json.txt" > "$W/json-frames.txt"
    same "$W/json-frames.txt" <(awk '$1 == "frame"' "$W/$fmt.txt") &&
        ok "$fmt: frames identical to json (%.17g)" || fail "$fmt: frames differ from json"
    if [ "$fmt" = csv ]; then
        # one table of numbers (the statistics are in the summary line and json/xml)
        tail -n +2 "$W/log.csv" | awk -F, -v nf=$NF 'NF != 2 || $1 !~ /^[0-9]+$/ || $2 !~ /^-?[0-9.e+-]+$/ { b++ }
            END { exit b > 0 || NR != nf }' && ok "csv: $NF rows of two numbers, nothing else" ||
            fail "csv: not one table of numbers"
    else
        check_stats $fmt "$W/$fmt.txt" 1e-12 && [ "$(grep -c '^stat' "$W/$fmt.txt")" -ge 10 ] &&
            ok "$fmt: pooled statistics" || fail "$fmt: pooled statistics"
    fi
done

# ---- 3. stats_file=- goes to stdout
run stdout "stats_file=-" || true
[ "$(grep -c '^n:[0-9]* score:' "$W/stdout.stdout")" = $NF ] && tail -n 1 "$W/stdout.stdout" | grep -q '^SSIMULACRA2 frames:' &&
    ok "stats_file=- : $NF lines and the summary on stdout" ||
    fail "stats_file=- : $(grep -c '^n:[0-9]* score:' "$W/stdout.stdout") lines on stdout, or no summary"

# ---- 4. n_subsample=3: frames 0,3,..,21 scored, all 24 passed through
run sub "n_subsample=3:stats_file=sub.log:log_path=sub.json:log_fmt=json" -f framecrc sub.crc
P "$W/sub.json" > "$W/sub.txt"
exp_frames=$(seq 0 3 $((NF - 1)) | tr '\n' ' ')
got_frames=$(awk '$1 == "frame" { printf "%s ", $2 }' "$W/sub.txt")
[ "$got_frames" = "$exp_frames" ] && ok "n_subsample=3: scored frames $exp_frames" ||
    fail "n_subsample=3: scored frames '$got_frames', expected '$exp_frames'"
nsub=$(echo $exp_frames | wc -w)
grep -q "^scored $nsub\$" "$W/sub.txt" && ok "n_subsample=3: frames_scored $nsub" || fail "n_subsample=3: frames_scored"
exp_n=$(seq 1 3 $NF | tr '\n' ' ')
got_n=$(grep '^n:' "$W/sub.log" | sed 's/^n:\([0-9]*\) .*/\1/' | tr '\n' ' ')
[ "$got_n" = "$exp_n" ] && ok "n_subsample=3: stats_file n: $exp_n" || fail "n_subsample=3: stats_file n '$got_n', expected '$exp_n'"
awk 'FNR == NR { if ($1 == "frame") s[$2] = $3; next } $1 == "frame" { if (!($2 in s) || s[$2] != $3) b++; n++ }
     END { exit b > 0 || n == 0 }' "$W/json.txt" "$W/sub.txt" &&
    ok "n_subsample=3: scores equal the full run's" || fail "n_subsample=3: scores differ from the full run"
crcn=$(grep -vc '^#' "$W/sub.crc")
[ "$crcn" = $NF ] && ok "n_subsample=3: $NF frames passed through (framecrc)" || fail "n_subsample=3: $crcn frames out, expected $NF"
grep -q "SSIMULACRA2 frames:$nsub " "$W/sub.stderr" && ok "n_subsample=3: summary frames:$nsub" || fail "n_subsample=3: summary frame count"
awk -f "$S2_AWK/stats.awk" "$W/sub.txt" > "$W/expected-stats.txt"
check_stats sub-json "$W/sub.txt" 1e-12 && ok "n_subsample=3: pooled statistics" || fail "n_subsample=3: pooled statistics"

# ---- 5. pass-through: output frames are the main (distorted) input, unchanged
( cd "$W" && "$FFMPEG" -nostdin -hide_banner -loglevel error "${IN[@]}" -lavfi "[0:v][1:v]ssimulacra2" -f framecrc pt.crc &&
  "$FFMPEG" -nostdin -hide_banner -loglevel error "${IN[@]:0:$((${#IN[@]} / 2))}" -map 0:v -f framecrc in.crc ) || fail "pass-through: ffmpeg failed"
if [ -s "$W/pt.crc" ]; then
    grep -v '^#' "$W/pt.crc" | awk -F, '{ print $NF }' > "$W/pt.sum"
    grep -v '^#' "$W/in.crc" | awk -F, '{ print $NF }' > "$W/in.sum"
    same "$W/pt.sum" "$W/in.sum" && ok "pass-through: output frames == input 0 (framecrc)" ||
        fail "pass-through: output differs from input 0"
fi

# ---- 6. ab-av1's graph shape (its libvmaf graph with the filter swapped), read as ab-av1
# reads "VMAF score:" from stderr; the documented command, run as written
( cd "$W" && "$FFMPEG" -nostdin -hide_banner "${IN[@]}" -lavfi \
    "[0:v]format=yuv420p10le,setpts=PTS-STARTPTS,settb=AVTB[dis];[1:v]format=yuv420p10le,setpts=PTS-STARTPTS,settb=AVTB[ref];[dis][ref]ssimulacra2=shortest=true:ts_sync_mode=nearest:log_path=abav1.json" \
    -f null - 2> abav1.stderr ) || fail "ab-av1 graph: ffmpeg failed"
got=$(grep -o 'SSIMULACRA2 score: [-0-9.]*' "$W/abav1.stderr" | awk '{ print $3 }')
want=$(P "$W/abav1.json" | awk '$1 == "stat" && $2 == "mean" { printf "%f", $3 }')
[ -n "$got" ] && [ "$got" = "$want" ] && [ "$(P "$W/abav1.json" | grep -c '^frame')" = $NF ] &&
    ok "ab-av1 graph (shortest=true:ts_sync_mode=nearest): SSIMULACRA2 score: $got, $NF frames" ||
    fail "ab-av1 graph: score line '$got', log mean '$want'"

# ---- 7. outputs that would not hold what their names say: warned once (ffmpeg initialises a
# graph twice), silent where name and format agree
names_warn() { # WANT-LINES MESSAGE OPTIONS
    local got
    got=$(cd "$W" && "$FFMPEG" -nostdin -hide_banner -loglevel warning "${IN[@]}" \
        -lavfi "[0:v][1:v]ssimulacra2=$3" -f null - 2>&1 | grep -cF "$2")
    [ "$got" = "$1" ] && ok "output names, $3: '$2' said $1 time(s)" ||
        fail "output names, $3: '$2' said $got time(s), not $1"
}
names_warn 1 "log_fmt=csv has no effect without log_path" "log_fmt=csv"
names_warn 1 "will hold JSON (log_fmt=json), not CSV" "log_path=names.csv"
names_warn 1 "for a log in JSON, give log_path=names.json" "names.json"
names_warn 0 "will hold" "log_path=names.json:stats_file=names.txt"
names_warn 1 "give log_path='a\\:b.json'" "'a\\:b.json'"
names_warn 1 "name it .txt (the JSON log is log_path)" "stats_file=names.json:log_path=names2.json"

say "outputs: $nchk checks, $bad failed"
[ $bad = 0 ] || die "$bad check(s) failed"
say "PASS: $s2_name"
