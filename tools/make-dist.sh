#!/usr/bin/env bash
# make dist: a tarball of the build that runs on a Linux machine with no packages
# installed (glibc 2.36 or newer): ffmpeg and ffprobe with the shared libraries they need
# beside them (found through an $ORIGIN run path), the licence texts, and the
# corresponding source: the patch series of this project, the FFmpeg release it applies
# to, and the Debian source packages of the bundled libraries.
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

# the C library stays the system's (every Linux has it, and it must match the kernel's
# loader); everything else the binaries load is bundled
system_lib() {
    case $(basename "$1") in
        ld-linux*|libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|libresolv.so*) return 0 ;;
    esac
    return 1
}
for b in ffmpeg ffprobe; do
    cp "$(dirname "$FFMPEG")/$b" "$D/bin/$b"
    patchelf --set-rpath '$ORIGIN/../lib' "$D/bin/$b"
done
ldd "$FFMPEG" "$FFPROBE" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u |
while read -r lib; do
    system_lib "$lib" && continue
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
    echo "- FFmpeg $version: https://ffmpeg.org/releases/ffmpeg-$version.tar.xz (also Debian's"
    echo "  source package ffmpeg, orig tarball), with the patches in source/patches applied"
    echo "  (git am), configured with:"
    echo
    sed 's/^/      /' "$(dirname "$FFMPEG")/obj/s2-configure.cmd"
    echo
    echo "- the filters: ssimulacra2 project revision $rev (the same code as the patches)"
    echo "- bundled libraries (Debian source package and version):"
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
cat > "$D/README.txt" <<EOT
ffmpeg $version with the ssimulacra2 and ssimulacra2_cuda filters (SSIMULACRA 2.1), built
with libx264, libx265, libsvtav1, libdav1d, libvpx, libopus and NVDEC/NVENC.

    bin/ffmpeg -i distorted.mkv -i reference.mkv -lavfi ssimulacra2 -f null -

The libraries it needs are in lib/ (no installation needed; glibc 2.36 or newer).
ssimulacra2_cuda and NVDEC/NVENC need an NVIDIA driver. Licence: GPL 2 or later (see
licenses/); sources: source/SOURCES.md and source/patches.
EOT
tar -C "$OUTDIR" -cJf "$OUTDIR/$name.tar.xz.tmp" "$name"
mv "$OUTDIR/$name.tar.xz.tmp" "$OUTDIR/$name.tar.xz"
echo "$OUTDIR/$name.tar.xz"
