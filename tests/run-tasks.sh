#!/usr/bin/env bash
# The CPU filter's task order (libavfilter/ssimulacra2_tasks.c, linked from the FFmpeg build):
# random schedules of 1 to 16 threads over frame sizes from 8 rows to 2160 must never
# deadlock, never run conflicting tasks at once and never read a row before it is written
# (tests/tools/tasks-check.c models what each task reads and writes).
. "$(dirname "$0")/lib/common.sh"
OBJ=${BUILD_OBJ:-$S2_ROOT/build/obj}
SRC=$(dirname "$OBJ")/src
[ -f "$OBJ/libavfilter/libavfilter.a" ] && [ -f "$OBJ/ffbuild/config.mak" ] ||
    skip "no FFmpeg build tree at $OBJ (run ./configure && make)"
W=$SSIMU2_TEST_OUT/tasks
mkdir -p "$W"
libs=$(sed -n 's/^EXTRALIBS-[a-z_]*=//p' "$OBJ/ffbuild/config.mak" | tr ' ' '\n' | awk 'NF && !seen[$0]++' | tr '\n' ' ')
san=$(sed -n 's/^LDFLAGS=//p' "$OBJ/ffbuild/config.mak" | tr ' ' '\n' | grep -E '^-(fsanitize=|static-lib[a-z]*san$)' | tr '\n' ' ')
"$CC" -O2 -Wall -I"$SRC/libavfilter" -I"$SRC" -I"$OBJ" $san -o "$W/tasks-check" "$S2_TESTS/tools/tasks-check.c" \
    -Wl,--start-group "$OBJ"/lib*/lib*.a -Wl,--end-group $san $libs -lm -lpthread ||
    die "cannot build tasks-check"
"$W/tasks-check" || die "task order violates the model"
say "PASS: $s2_name"
