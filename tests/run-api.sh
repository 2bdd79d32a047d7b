#!/usr/bin/env bash
# The filter used through the libavfilter API, as a program that scores one job after another
# does (tests/tools/api-runs.c, linked to the FFmpeg build): a graph freed before its end is
# not continued by the next one of the same names, and keeps no memory.
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
say "api: $(grep -c '^  ok' "$W/api.out") checks, 0 failed"
say "PASS: $s2_name"
