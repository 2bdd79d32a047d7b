#!/usr/bin/env bash
# Run the ssimulacra2 test suite against the real ffmpeg build and print a summary table.
# Exit status non-zero if any test FAILs (SKIPs are fine).
#
# Env: FFMPEG, SSIMU2_SAMPLES, SSIMU2_ORACLE_SRC, SSIMU2_SPEC_VECTORS (see tests/lib/common.sh),
#      SSIMU2_ORACLE_N (pairs for the differential test, default 40), SSIMU2_ORACLE_SEED (default 1).
. "$(dirname "$0")/lib/common.sh"
s2_name=run-all
say "ffmpeg:          $FFMPEG"
say "SSIMU2_SAMPLES:  ${SSIMU2_SAMPLES:-(not set; reference-data tests will be skipped)}"
say "oracle source:   ${SSIMU2_ORACLE_SRC:-(not set; the differential test will be skipped)}"
say "spec vectors:    ${SSIMU2_SPEC_VECTORS:-(not set)}"
if ORACLE=$(build_oracle 2>/dev/null); then say "oracle built:    $ORACLE"; fi

LOGS=$SSIMU2_TEST_OUT/logs
mkdir -p "$LOGS"
names=(); results=(); notes=()
run_test() { # NAME SCRIPT [ARGS]
    local name=$1 script=$2 rc=0; shift 2
    say ""
    say "=== $name"
    bash "$S2_TESTS/$script" "$@" 2>&1 | tee "$LOGS/$name.log"
    rc=${PIPESTATUS[0]}
    names+=("$name")
    case $rc in
        0)  results+=(PASS) ;;
        77) results+=(SKIP) ;;
        *)  results+=(FAIL) ;;
    esac
    notes+=("$(grep -E '^(SKIP|FAIL)|max \|delta\||(cases|checks|settings),' "$LOGS/$name.log" | grep -v '^  ' |
                sed 's/ (\(.\{28\}\).*)/ (\1..)/' | tr '\n' ';' | sed 's/;$//; s/;/; /g')")
}

run_test refscores     run-refscores.sh
run_test oracle-diff   run-oracle-diff.sh "${SSIMU2_ORACLE_N:-40}" "${SSIMU2_ORACLE_SEED:-1}"
run_test video         run-video.sh
run_test determinism   run-determinism.sh
run_test tasks         run-tasks.sh
run_test errors        run-errors.sh
run_test outputs       run-outputs.sh
run_test robustness    run-robustness.sh
run_test api           run-api.sh
run_test colour        run-colour.sh
run_test cuda-emu      run-cuda-emu.sh
run_test cuda-faults   run-cuda-faults.sh
run_test docs          run-docs.sh
run_test tools         run-tools.sh
run_test packaging     run-packaging.sh

say ""
say "=== summary"
p=0; f=0; s=0
for i in "${!names[@]}"; do
    printf '%-5s %-13s %s\n' "${results[$i]}" "${names[$i]}" "${notes[$i]}"
    case ${results[$i]} in PASS) p=$((p + 1)) ;; FAIL) f=$((f + 1)) ;; SKIP) s=$((s + 1)) ;; esac
done
say "logs: $LOGS"
say "$p passed, $f failed, $s skipped"
[ $f = 0 ]
