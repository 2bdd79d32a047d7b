#!/usr/bin/env bash
# The CPU filter's task order (libavfilter/ssimulacra2_tasks.c, linked from the FFmpeg build):
# random schedules of 1 to 16 threads over frame sizes from 8 rows to 2160 must never
# deadlock, never run conflicting tasks at once and never read a row before it is written
# (tests/tools/tasks-check.c models what each task reads and writes).
. "$(dirname "$0")/lib/common.sh"
need_build_tree
W=$SSIMU2_TEST_OUT/tasks
mkdir -p "$W"
libs=$(build_tree_libs)
san=$(build_tree_san_flags)
"$CC" -O2 -Wall -I"$SRC/libavfilter" -I"$SRC" -I"$OBJ" $san -o "$W/tasks-check" "$S2_TESTS/tools/tasks-check.c" \
    -Wl,--start-group "$OBJ"/lib*/lib*.a -Wl,--end-group $san $libs -lm -lpthread ||
    die "cannot build tasks-check"
"$W/tasks-check" || die "task order violates the model"
say "PASS: $s2_name"
