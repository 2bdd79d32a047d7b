#!/usr/bin/env bash
# The filter used through the libavfilter API, as a program that scores one job after another
# does (tests/tools/api-runs.c, linked to the FFmpeg build): a graph freed before its end is
# not continued by the next one of the same names, and keeps no memory; a graph without slice
# threading scores as a default one.
. "$(dirname "$0")/lib/common.sh"
need_build_tree
W=$SSIMU2_TEST_OUT/api
rm -rf "$W"; mkdir -p "$W"
libs=$(build_tree_libs)
san=$(build_tree_san_flags)
"$CC" -O2 -Wall -I"$SRC" -I"$OBJ" $san -o "$W/api-runs" "$S2_TESTS/tools/api-runs.c" \
    -Wl,--start-group "$OBJ"/lib*/lib*.a -Wl,--end-group $san $libs -lm -lpthread ||
    die "cannot build api-runs"
"$W/api-runs" "$W/job.txt" ${san:+norss} | tee "$W/api.out"; rc=${PIPESTATUS[0]}
[ "$rc" = 0 ] || die "API jobs: see above"

# a program with a decimal-comma C locale: the numbers it is given keep their '.'
"$CC" -O2 -Wall -I"$SRC" -I"$OBJ" $san -o "$W/api-locale" "$S2_TESTS/tools/api-locale.c" \
    -Wl,--start-group "$OBJ"/lib*/lib*.a -Wl,--end-group $san $libs -lm -lpthread ||
    die "cannot build api-locale"
mkdir -p "$W/locale" "$W/de"
rc=77
localedef -i de_DE -f UTF-8 "$W/locale/de_DE.UTF-8" 2> /dev/null &&
    { LOCPATH=$W/locale "$W/api-locale" de_DE.UTF-8 "$W/de"; rc=$?; }
[ "$rc" = 0 ] || [ "$rc" = 77 ] || die "api-locale failed (exit $rc)"
if [ "$rc" = 0 ]; then
    python3 - "$W/de" > "$W/locale.out" <<'PY' || die "decimal-comma locale: numbers written with a comma"
import csv, json, re, sys
d = sys.argv[1]
j = json.load(open(d + "/l.json"))
assert j["frames"] and all(isinstance(f["metrics"]["ssimulacra2"], float) for f in j["frames"]), "json"
rows = list(csv.reader(open(d + "/l.csv")))
assert len(rows) > 1 and all(len(r) == 2 for r in rows), "csv fields: %s" % rows[1]
float(rows[1][1])
stats = open(d + "/s.txt").read()
assert re.search(r"^n:1 score:-?\d+\.\d+$", stats, re.M) and " mean:" in stats and "," not in stats, "stats"
meta = open(d + "/m.txt").read()
assert re.search(r"lavfi\.ssimulacra2\.score=-?\d+\.\d+$", meta, re.M), "metadata"
print("  ok   de_DE locale: JSON, CSV, stats file and metadata keep '.' (%d frames)" % len(j["frames"]))
PY
    tee -a "$W/api.out" < "$W/locale.out"
else
    say "  (decimal-comma locale skipped: localedef or setlocale cannot make de_DE.UTF-8 here)"
fi
say "api: $(grep -c '^  ok' "$W/api.out") checks, 0 failed"
say "PASS: $s2_name"
