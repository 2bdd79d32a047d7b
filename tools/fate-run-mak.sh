#!/usr/bin/env bash
# Runs the FATE tests of one of our .mak files with FFmpeg's tests/fate-run.sh, as FFmpeg's
# tests/Makefile would, but without the FFmpeg build tree: for a GPU machine that has only the
# binaries (the make-dist tarball). Prints one line per test; exit status 1 if any fails.
# Usage: tools/fate-run-mak.sh MAK TESTS_DIR BIN_DIR
#   MAK        tests/fate/ssimulacra2_cuda.mak (or ssimulacra2.mak)
#   TESTS_DIR  the build tree's tests/ folder (fate-run.sh with our function, refcmp-metadata.awk,
#              ref/fate/), copied by tools/device-pack.sh
#   BIN_DIR    the folder with ffmpeg
set -u
mak=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") tests=$(cd "$2" && pwd) bin=$(cd "$3" && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/fate.XXXXXX")
mkdir -p "$W/tests/data/fate" && cd "$W" || exit 1
n=0 bad=0
for t in $(sed -n 's/^\(fate-[^:]*\): CMD = .*/\1/p' "$mak"); do
    cmd=$(sed -n "s/^$t: CMD = //p" "$mak")
    ref=$(sed -n "s/^$t: REF = //p" "$mak" | sed "s|\$(SRC_PATH)/tests|$tests|")
    [ -n "$ref" ] || ref=$tests/ref/fate/${t#fate-}
    n=$((n + 1))
    if sh "$tests/fate-run.sh" "$t" "" "" "$bin" "$cmd" "" "$ref" > "$W/$t.out" 2>&1; then
        echo "  ok   ${t#fate-}"
    else
        echo "  FAIL ${t#fate-}"; bad=$((bad + 1))
        { grep -v '^[-+ @]' "$W/tests/data/fate/${t#fate-}.err" 2>/dev/null; tail -n 3 "$W/$t.out"; } | tail -n 4 | sed 's/^/      /'
    fi
done
echo "fate $(basename "$mak"): $n tests, $bad failed"
rm -rf "$W"
[ $bad = 0 ] && [ $n -gt 0 ]
