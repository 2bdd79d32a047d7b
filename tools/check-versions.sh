#!/usr/bin/env bash
# Builds the filters against each FFmpeg version in its own folder (build-v/VERSION), runs
# make check and make patches (the series for that tree, with fate-source) there; prints a
# table. Versions the project refuses are listed with the reason.
# Usage: tools/check-versions.sh [--full] [VERSION...]    (default: 7.1.5 8.1.2 9.0.2)
#   --full   the complete component set (default: --minimal, the quick development build)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
set_args=--minimal
[ "${1:-}" = --full ] && { set_args=; shift; }
versions=${*:-7.1.5 8.1.2 9.0.2}
rows=()
rc=0
for v in $versions; do
    b=$ROOT/build-v/$v
    l=$ROOT/build-v/logs/$v
    mkdir -p "$l"
    echo "==> FFmpeg $v ($b)"
    t0=$(date +%s)
    if ! ./configure $set_args --ffmpeg-version="$v" --build-dir="$b" > "$l/configure.log" 2>&1; then
        why=$(grep -m1 'configure: error' "$l/configure.log" | sed 's/configure: error: //' | cut -c1-110)
        rows+=("$(printf '%-8s %-10s %-8s %s' "$v" refused - "$why")")
        continue
    fi
    if ! make S2_CONFIG="$b/config.mk" > "$l/build.log" 2>&1; then
        rows+=("$(printf '%-8s %-10s %-8s %s' "$v" "build FAIL" "$(( $(date +%s) - t0 ))s" "see $l/build.log")")
        rc=1; continue
    fi
    t1=$(date +%s)
    SSIMU2_TEST_OUT="$b/tests" make S2_CONFIG="$b/config.mk" check > "$l/check.log" 2>&1; r=$?
    summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped' "$l/check.log" | tail -n 1)
    fate=$(grep -c '^TEST ' "$l/check.log")
    # the patch series for this tree: git am onto the pristine tree, fate-source, same files
    make S2_CONFIG="$b/config.mk" patches > "$l/patches.log" 2>&1; p=$?
    [ $r = 0 ] && [ $p = 0 ] || rc=1
    rows+=("$(printf '%-8s %-10s %-8s %s' "$v" "$([ $r = 0 ] && [ $p = 0 ] && echo pass || echo FAIL)" "$(( t1 - t0 ))s" "suites: ${summary:-none}; FATE tests: $fate; patches: $([ $p = 0 ] && echo "$(ls "$b/patches" | wc -l), fate-source passes" || echo "FAIL, see $l/patches.log")")")
done
echo
printf '%-8s %-10s %-8s %s\n' version result build "make check"
for r in "${rows[@]}"; do echo "$r"; done
exit $rc
