# check(): one ffmpeg run of a robustness case, for run-robustness.sh and run-cuda.sh.
# Sourced after common.sh; the caller sets W (work folder) and counts with n and bad.
# S2_WRAP, if set, is a command ffmpeg runs under (compute-sanitizer).
RUNCASE=$(build_c runcase "$S2_TESTS/tools/runcase.c") || die "cannot build tests/tools/runcase.c"

# check NAME EXPECT MESSAGE [FILE:KIND ...] -- ffmpeg-args...
#   EXPECT ok (exit 0) or error (exit non-zero); never a signal or a timeout.
#   MESSAGE a fixed string that must be in the output ("" for none).
#   FILE:KIND outputs to check afterwards: json (a complete JSON document with frames),
#   stats (n:N score:X lines, N from 1 in order), absent (no file), same=REF (unchanged).
check() {
    local name=$1 expect=$2 msg=$3 end f kind
    local problems=()
    shift 3
    local files=()
    while [ "$1" != -- ]; do files+=("$1"); shift; done
    shift
    n=$((n + 1))
    end=$(cd "$W" && "$RUNCASE" 120 "$name.out" "$name.log" \
              ${S2_WRAP:-} "$FFMPEG" -nostdin -hide_banner -loglevel info "$@")
    case $end in
        "exit 0") [ "$expect" = ok ] || problems+=("exit status 0, expected an error") ;;
        exit\ *)  [ "$expect" = error ] || problems+=("$end, expected exit 0") ;;
        *)        problems+=("$end") ;;
    esac
    if [ -n "$msg" ] && ! grep -qF -- "$msg" "$W/$name.log" "$W/$name.out"; then
        problems+=("no \"$msg\" in the output")
    fi
    grep -q "AddressSanitizer\|runtime error:\|LeakSanitizer" "$W/$name.log" &&
        problems+=("sanitizer report")
    for f in "${files[@]}"; do
        kind=${f#*:}; f=$W/${f%%:*}
        case $kind in
            json)   json_ok "$f" || problems+=("$(basename "$f"): not a complete JSON log") ;;
            stats)  stats_ok "$f" || problems+=("$(basename "$f"): not a complete stats file") ;;
            absent) [ ! -e "$f" ] || problems+=("$(basename "$f") exists") ;;
            same=*) cmp -s "$f" "$W/${kind#same=}" || problems+=("$(basename "$f") was changed") ;;
        esac
    done
    if [ ${#problems[@]} = 0 ]; then
        printf '  ok   %-30s %s%s\n' "$name" "$end" "${msg:+, \"$msg\"}"
    else
        printf '  FAIL %-30s %s\n' "$name" "$(IFS=';'; echo "${problems[*]}")"
        tail -n 3 "$W/$name.log" | sed 's/^/      /'
        bad=$((bad + 1))
    fi
}

# json_ok FILE: one JSON document whose frames are numbered 0.. in increasing order
json_ok() {
    [ -s "$1" ] || return 1
    if command -v python3 > /dev/null; then
        python3 - "$1" <<'EOF' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
nums = [f["frameNum"] for f in d["frames"]]
assert nums == sorted(set(nums)), "frame numbers not increasing"
assert d["frames_scored"] == len(nums)
EOF
    else
        tail -n 1 "$1" | grep -q '^}$'
    fi
}
# stats_ok FILE: lines n:N score:X with N from 1, increasing, then the summary line
stats_ok() {
    [ -s "$1" ] && tail -n 1 "$1" | grep -q '^SSIMULACRA2 frames:' &&
        sed '$d' "$1" | awk '!/^n:[0-9]+ score:-?[0-9.]+$/ { exit 1 }
            { split($1, a, ":"); if (a[2] + 0 <= last) exit 1; last = a[2] + 0 }'
}
