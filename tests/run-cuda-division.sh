#!/usr/bin/env bash
# The CUDA kernels' divisions without the hardware's range check against IEEE division, on
# every operand their callers can give them (tests/tools/cuda-division-check.cu, built with
# nvcc). Needs nvcc and a CUDA device; part of tools/device-check.sh parity.
. "$(dirname "$0")/lib/common.sh"
NVCC=${NVCC:-$(command -v nvcc || ls /usr/local/cuda*/bin/nvcc 2>/dev/null | head -n 1)}
[ -n "$NVCC" ] || skip "no nvcc"
mkdir -p "$S2_BIN"
# for this machine's GPU where nvcc can tell (else its default, JIT-compiled by the driver)
build() { "$NVCC" -O2 --fmad=false "$@" -I "$S2_ROOT/libavfilter" -o "$S2_BIN/cuda-division-check" \
              "$S2_TESTS/tools/cuda-division-check.cu"; }
build -arch=native 2>/dev/null || build || die "cannot build tests/tools/cuda-division-check.cu"
"$S2_BIN/cuda-division-check"
rc=$?
[ $rc = 77 ] && skip "no CUDA device"
[ $rc = 0 ] || die "a division differs from IEEE division (above)"
echo "PASS: $s2_name"
