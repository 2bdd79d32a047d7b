#!/usr/bin/env bash
# The CPU filter's benchmark (tools/bench.sh) on a lent machine, for one or more make-dist
# tarballs side by side (e.g. before and after a change), with the oracle as yardstick.
# Pack here:  mkdir -p .device/cpu && cp ssimu2-oracle.c .device/cpu/ &&
#             cp OLD.tar.xz .device/cpu/1-before.tar.xz && cp NEW.tar.xz .device/cpu/2-after.tar.xz
#             (without tarballs there, the one of tools/device-pack.sh is benchmarked)
# Run there:  OUT=$OUT bash tools/device-bench-cpu.sh [SIZES...]   (carrying .device); one log per
#             tarball. Env as tools/bench.sh (BENCH_THREADS, BENCH_MEM_SIZES, ...).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
P=$ROOT/.device/cpu
OUT=${OUT:-/tmp/ssimu2-device}
mkdir -p "$OUT"
export SSIMU2_ORACLE_SRC=$P/ssimu2-oracle.c
tarballs=("$P"/*.tar.xz)
[ -e "${tarballs[0]}" ] || tarballs=("$ROOT/.device/ffmpeg-dist.tar.xz")
for t in "${tarballs[@]}"; do
    name=$(basename "$t" .tar.xz)
    bin=/tmp/ssimu2-bench/$name
    rm -rf "$bin" && mkdir -p "$bin" && tar -xJf "$t" -C "$bin" --strip-components=1 || exit 1
    echo "== $name: $("$bin/bin/ffmpeg" -hide_banner -version | head -1)" | tee "$OUT/bench-cpu-$name.log"
    FFMPEG=$bin/bin/ffmpeg SSIMU2_TEST_OUT=/tmp/ssimu2-bench/out bash "$ROOT/tools/bench.sh" "$@" 2>&1 |
        tee -a "$OUT/bench-cpu-$name.log"
done
