#!/usr/bin/env bash
# The loops of a kernel's SASS for the H200 (sm_90) without a GPU: the build's PTX compiled by
# the ptxas of Debian's nvidia-cuda-toolkit and listed by its cuobjdump (the CUDA toolkit here
# has no disassembler). The package comes from the non-free component of this system's Debian
# mirror and is unpacked into a cache folder, not installed. The GPU driver's compiler is newer,
# so counts differ a little from ncu's; read what a change does to an iteration.
# Usage: tools/sass-loops.sh KERNEL [PTX]   (e.g. ssimu2_hblur; PTX: the build's)
# Environment: SSIMU2_SASS_CACHE [~/.cache/ssimu2-sass]
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
kernel=${1:?usage: tools/sass-loops.sh KERNEL [PTX]}
ptx=${2:-$ROOT/build/obj/libavfilter/vf_ssimulacra2_cuda.ptx}
cache=${SSIMU2_SASS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ssimu2-sass}
bin=$cache/root/usr/bin
[ -f "$ptx" ] || { echo "$ptx not found: run make first" >&2; exit 1; }
if [ ! -x "$bin/cuobjdump" ]; then
    # the first mirror of the Debian sources (deb822, else one-line, [options] or not)
    uri=$(awk '$1 == "URIs:" { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
    [ -n "$uri" ] || uri=$(awk '$1 == "deb" { print ($2 ~ /^\[/) ? $3 : $2; exit }' /etc/apt/sources.list 2>/dev/null || true)
    suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    [ -n "$uri" ] && [ -n "$suite" ] || { echo "no Debian mirror found in the apt sources" >&2; exit 1; }
    apt=$cache/apt
    mkdir -p "$apt/lists/partial" "$apt/archives/partial"
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite non-free" > "$apt/sources.list"
    opts=(-o "Dir::Etc::sourcelist=$apt/sources.list" -o Dir::Etc::sourceparts=/dev/null
          -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt")
    apt-get -q "${opts[@]}" update >&2
    rm -f "$apt"/*.deb
    (cd "$apt" && apt-get -q "${opts[@]}" download nvidia-cuda-toolkit >&2)
    dpkg -x "$apt"/nvidia-cuda-toolkit_*.deb "$cache/root"
fi
w=$(mktemp -d "${TMPDIR:-/tmp}/sass-loops.XXXXXX")
trap 'rm -rf "$w"' EXIT
"$bin/ptxas" -arch=sm_90 -O3 "$ptx" -o "$w/kernels.cubin"
"$bin/cuobjdump" -sass "$w/kernels.cubin" > "$w/kernels.sass"
python3 "$ROOT/tools/sass-loops.py" "$w/kernels.sass" "$kernel"
