#!/usr/bin/env bash
# make dist: a tarball of the build that runs on a Linux machine with no packages
# installed (the build machine's glibc or newer): ffmpeg and ffprobe with the shared
# libraries they need beside them (found through an $ORIGIN run path), the licence texts,
# the patch series of this project, and where each other source is (source/SOURCES.md:
# the FFmpeg release, the Debian source package of each bundled library), which whoever
# redistributes the tarball must ship with it or offer in writing (GPL 2, section 3).
#
# Usage: tools/make-dist.sh [OUTDIR]    (default build/dist; prints the tarball's path)
# Env: FFMPEG [build/ffmpeg]
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FFMPEG=${FFMPEG:-$ROOT/build/ffmpeg}
FFPROBE=$(dirname "$FFMPEG")/ffprobe
OUTDIR=${1:-$ROOT/build/dist}
die() { echo "make-dist: $*" >&2; exit 1; }
[ -x "$FFMPEG" ] && [ -x "$FFPROBE" ] || die "no ffmpeg/ffprobe at $(dirname "$FFMPEG"): run make first"
command -v patchelf > /dev/null || die "patchelf not found (apt-get install patchelf)"
# the settings of the build the binaries come from (another --build-dir keeps its own)
CONFIG=$(dirname "$FFMPEG")/config.mk; [ -f "$CONFIG" ] || CONFIG=$ROOT/config.mk
FFSRC=$(sed -n 's/^FFMPEG_SRC := //p' "$CONFIG")
version=$(sed -n 's/^FFMPEG_VERSION := //p' "$CONFIG")
rev=$(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)
name=ssimulacra2-ffmpeg-$version-$rev-linux-$(uname -m)
D=$OUTDIR/$name
rm -rf "$D" && mkdir -p "$D/bin" "$D/lib" "$D/licenses" "$D/source/patches"

# the C library stays the system's; everything else the binaries load is bundled
. "$ROOT/tools/dist-system-libs.sh"
for b in ffmpeg ffprobe; do
    cp "$(dirname "$FFMPEG")/$b" "$D/bin/$b"
    patchelf --set-rpath '$ORIGIN/../lib' "$D/bin/$b"
done
missing=$(ldd "$FFMPEG" "$FFPROBE" | grep "not found" || true)
[ -z "$missing" ] || die "the binaries need libraries this machine lacks: $missing"
ldd "$FFMPEG" "$FFPROBE" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u |
while read -r lib; do
    dist_system_lib "$lib" && continue
    cp -L "$lib" "$D/lib/$(basename "$lib")"
    patchelf --set-rpath '$ORIGIN' "$D/lib/$(basename "$lib")"
    echo "$lib"
done > "$D/lib/.from"

# licences: FFmpeg's, ours, and each bundled library's Debian copyright file
cp "$FFSRC/LICENSE.md" "$D/licenses/FFmpeg-LICENSE.md"
cp "$FFSRC/COPYING.GPLv2" "$FFSRC/COPYING.LGPLv2.1" "$D/licenses/"
{
    echo "# Sources of this build"
    echo
    if [ "$FFSRC" = "$(sed -n 's/^CACHE_DIR := //p' "$CONFIG")/src/ffmpeg-$version" ]; then
        echo "- FFmpeg $version: https://ffmpeg.org/releases/ffmpeg-$version.tar.xz (also Debian's"
        echo "  source package ffmpeg, orig tarball), with the patches in source/patches applied"
        echo "  (git am), configured with:"
    else
        echo "- FFmpeg $version, a tree given with --ffmpeg-source (not a release: ship that tree),"
        echo "  with the patches in source/patches applied (git am), configured with:"
    fi
    echo
    sed 's/^/      /' "$(dirname "$FFMPEG")/obj/s2-configure.cmd"
    echo
    echo "- the filters: ssimulacra2 project revision $rev (the same code as the patches)"
    echo "- bundled libraries (Debian source package and version; apt-get source fetches each):"
    echo
} > "$D/source/SOURCES.md"
while read -r lib; do
    pkg=
    for f in "$lib" "$(readlink -f "$lib")" "/usr$lib"; do
        pkg=$(dpkg -S "$f" 2>/dev/null | head -n 1 | cut -d: -f1)
        [ -n "$pkg" ] && break
    done
    [ -n "$pkg" ] || { echo "    $(basename "$lib"): package unknown" >> "$D/source/SOURCES.md"; continue; }
    src=$(dpkg-query -W -f='${source:Package} ${source:Version}' "$pkg")
    echo "    $(basename "$lib"): $src (apt-get source ${src% *}=${src#* })" >> "$D/source/SOURCES.md"
    [ -f "/usr/share/doc/$pkg/copyright" ] && cp "/usr/share/doc/$pkg/copyright" "$D/licenses/$pkg.copyright"
done < "$D/lib/.from"
rm -f "$D/lib/.from"
sh "$ROOT/build-aux/make-patches.sh" "$FFSRC" "$ROOT" "$D/source/patches" > /dev/null ||
    die "make-patches failed"
filters=$("$FFMPEG" -hide_banner -filters 2>/dev/null | awk '$2 ~ /^ssimulacra2/ { printf "%s%s", s, $2; s = " and " }')
libs=$(ls "$D/lib" | sed 's/\.so.*//' | tr '\n' ' ' | sed 's/ $//')
glibc=$(ldd --version 2>/dev/null | head -n 1 | grep -o '[0-9][0-9.]*$')
licence="LGPL 2.1 or later"
grep -q "'--enable-gpl'" "$(dirname "$FFMPEG")/obj/s2-configure.cmd" && licence="GPL 2 or later"
cat > "$D/README.txt" <<EOT
ffmpeg $version with the $filters filters (SSIMULACRA 2.1).

    bin/ffmpeg -i distorted.mkv -i reference.mkv -lavfi ssimulacra2 -f null -

The libraries it needs are in lib/ ($libs); no installation needed, glibc $glibc or newer.
CUDA filters and NVDEC/NVENC need an NVIDIA driver. Licence: $licence (see licenses/).
Sources: source/patches, and source/SOURCES.md for where the others are; whoever passes
this tarball on must ship those sources with it or offer them in writing.
EOT
tar -C "$OUTDIR" -cJf "$OUTDIR/$name.tar.xz.tmp" "$name"
mv "$OUTDIR/$name.tar.xz.tmp" "$OUTDIR/$name.tar.xz"
echo "$OUTDIR/$name.tar.xz"
