#!/usr/bin/env bash
# Differential test against the independent oracle (ssimu2-oracle.c, $SSIMU2_ORACLE_SRC):
# N random pairs from tests/tools/randpair.c (random sizes 8..2000, content, distortions,
# containers PPM/PGM/PAM at 8/16 bits), scored by the oracle and by ffmpeg's ssimulacra2
# (json log, %.17g). Requires |delta| <= 1e-9 on every pair.
# Usage: tests/run-oracle-diff.sh [N=40] [SEED=1] [MAXAREA]
#   MAXAREA caps width*height (default 160000 when N <= 100, else 4000000).
# Failing pairs are kept under tests/out/oracle-diff/fail-<seed>/ with a repro.sh.
. "$(dirname "$0")/lib/common.sh"
N=${1:-40}
SEED=${2:-1}
MAXAREA=${3:-}
[ -n "$MAXAREA" ] || { [ "$N" -le 100 ] && MAXAREA=160000 || MAXAREA=4000000; }
need_ffmpeg
ORACLE=$(build_oracle) || skip "oracle source not found: set SSIMU2_ORACLE_SRC"
RANDPAIR=$(build_randpair) || die "cannot build tests/tools/randpair.c"

W=$SSIMU2_TEST_OUT/oracle-diff
rm -rf "$W"; mkdir -p "$W/cur"
res=$W/results.txt
: > "$res"
bad=0
for i in $(seq 1 "$N"); do
    s=$((SEED * 1000003 + i))
    rm -f "$W"/cur/*
    desc=$("$RANDPAIR" "$s" "$W/cur" "$MAXAREA") || die "randpair failed for seed $s"
    ext=${desc%% *}
    o=$("$ORACLE" "$W/cur/ref.$ext" "$W/cur/dist.$ext" 2>&1)
    f=$(s2_score "$W/cur/dist.$ext" "$W/cur/ref.$ext" "$W/cur/log.json" 2>"$W/cur/ffmpeg.err")
    [ -n "$f" ] || f=ERROR
    line=$(awk -v s="$s" -v o="$o" -v f="$f" -v desc="$desc" 'BEGIN {
        ok = (o ~ /^-?[0-9.e+-]+$/) && (f ~ /^-?[0-9.e+-]+$/)
        d = ok ? o - f : 1e30; if (d < 0) d = -d
        printf "%s %.3g %s %s %s\n", s, d, (ok && d <= 1e-9) ? "ok" : "FAIL", o, f " | " desc }')
    echo "$line" >> "$res"
    case $line in
    *" FAIL "*)
        bad=$((bad + 1))
        keep=$W/fail-$s
        mkdir -p "$keep"; cp "$W"/cur/* "$keep"/
        cat > "$keep/repro.sh" <<EOS
#!/bin/sh
# oracle: $o   ffmpeg: $f   ($desc)
# regenerate: randpair $s DIR $MAXAREA
"\${FFMPEG:-ffmpeg}" -hide_banner -i dist.$ext -i ref.$ext -lavfi "[0:v][1:v]ssimulacra2=log_path=log.json:log_fmt=json" -f null -
cat log.json
EOS
        echo "  FAIL seed $s: oracle $o ffmpeg $f ($desc); kept in $keep"
        [ -s "$W/cur/ffmpeg.err" ] && sed 's/^/  /' "$W/cur/ffmpeg.err" | head -5
        ;;
    esac
done
awk -v n="$N" '{ if ($2 + 0 > max || NR == 1) { max = $2 + 0; worst = $0 } }
    $3 == "FAIL" { bad++ }
    END { printf "oracle-diff: %d pairs, %d failed, max |delta| %.3g\n  worst: seed %s\n", NR, bad, max, worst }' "$res"
rm -rf "$W/cur"
[ $bad = 0 ] || die "$bad of $N pairs differ from the oracle by more than 1e-9 (see $res)"
say "PASS: $s2_name"
