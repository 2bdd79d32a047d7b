#!/bin/sh
# make-patches.sh FFMPEG_SRC PROJECT OUTDIR [BUILD_SRC [CUDA]]   (CUDA=no: no CUDA filter patch,
# as ./configure --disable-cuda builds)
# Export the overlay as a `git am` series against the pristine FFmpeg tree FFMPEG_SRC:
#   0001 avutil/hwcontext_cuda: fix odd-height 4:2:0 frames
#   0002 avcodec/webp: tag lossy images' chroma as centre-sited
#   0003 avfilter: add ssimulacra2 filter        (CPU filter, shared code, FATE, registration,
#                                                 doc/filters.texi, Changelog, minor bump)
#   0004 avfilter: add ssimulacra2_cuda filter   (CUDA filter, kernels, the same)
# The registration edits come from build-aux/register.sh, the same code configure uses.
set -eu
src=$1 proj=$2 out=$3 build_src=${4:-} cuda=${5:-yes}
[ -n "$src" ] && [ -f "$src/libavfilter/allfilters.c" ] ||
    { echo "make-patches: no FFmpeg source ($src); run ./configure" >&2; exit 1; }
command -v git >/dev/null || { echo "make-patches: git not found" >&2; exit 1; }
. "$proj/build-aux/register.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/s2patches.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "==> pristine FFmpeg tree in a temporary git repository"
(cd "$src" && tar -cf - --exclude=.git --exclude=./config.h --exclude=./config_components.h \
    --exclude='./ffbuild/config.*' --exclude='*.o' --exclude='*.d' --exclude='*.a' .) |
    (mkdir "$tmp/ff" && cd "$tmp/ff" && tar --no-same-owner -xf -)
cd "$tmp/ff"
name=$(git -C "$proj" config user.name || echo "ssimulacra2 developers")
mail=$(git -C "$proj" config user.email || echo "ssimulacra2@localhost")
export GIT_AUTHOR_NAME="$name" GIT_AUTHOR_EMAIL="$mail" GIT_COMMITTER_NAME="$name" GIT_COMMITTER_EMAIL="$mail"
git init -q . && git add -A && git commit -q --no-verify -m "FFmpeg $(cat RELEASE 2>/dev/null || echo source)"

# release_bits NAME: the Changelog line and the libavfilter minor version bump of a new filter
release_bits() {
    if grep -q '^version <next>:' Changelog; then
        # the newest entry last, before the blank line that ends the <next> section
        awk -v l="- $1 filter" '/^version <next>:/ { n = 1 } n && /^$/ { print l; n = 0 } { print }' \
            Changelog > Changelog.tmp && mv Changelog.tmp Changelog
    else
        sed -i "0,/^version /s//version <next>:\n- $1 filter\n\n\nversion /" Changelog
    fi
    v=libavfilter/version.h
    minor=$(sed -n 's/^#define LIBAVFILTER_VERSION_MINOR *\([0-9]*\).*/\1/p' $v)
    sed -i -e "s/^\(#define LIBAVFILTER_VERSION_MINOR *\)[0-9]*/\1$((minor + 1))/" \
           -e "s/^\(#define LIBAVFILTER_VERSION_MICRO *\)[0-9]*/\1100/" $v
}

commit_part() { # commit_part PART NAME SUBJECT BODY
    files=$(s2_our_files "$proj" "$1")
    for f in $files; do
        mkdir -p "$(dirname "$f")"
        cp "$proj/$f" "$f"
    done
    s2_register "$tmp/ff" "$1" "$proj"
    release_bits "$2"
    git add -A
    git commit -q --no-verify -m "$3" -m "$4"
    echo "    $3 ($(echo $files | wc -w) files of ours + registration, doc, Changelog, version)"
}
commit_fix() { # commit_fix FIX SUBJECT BODY: FFmpeg fix FIX (register.sh) as a commit of its own
    "$1" "$tmp/ff"
    if ! git diff --quiet; then
        git commit -q -a --no-verify -m "$2" -m "$3"
        echo "    $2"
    fi
}
echo "==> commits"
# the fix the CUDA filter relies on comes first, on its own
commit_fix s2_fix_cuda_odd_height "avutil/hwcontext_cuda: fix odd-height 4:2:0 frames" \
    "Transfers skipped the last chroma row, and yuv420p placed U one row too early."
commit_fix s2_fix_webp_chroma_siting "avcodec/webp: tag lossy images' chroma as centre-sited" \
    "libwebp upsamples VP8 chroma as centre-sited (weights 9, 3, 3, 1); left was assumed."
commit_fix s2_fix_scale_chroma_siting "avfilter/vf_scale: keep the chroma siting tag where chroma is not moved" \
    "A conversion of the same subsampling and size reset it to unspecified; the pixels are unchanged."
commit_fix s2_fix_tiff_associated_alpha "avcodec/tiff: tag associated alpha as premultiplied" \
    "ExtraSamples 1 (TIFF 6.0 section 18) was not read; such images came out as straight alpha."
commit_fix s2_fix_avif_chroma_siting "avformat/mov: tag AVIF images' chroma as centre-sited" \
    "libavif upsamples chroma of an unknown sample position as centre-sited; left was assumed."
commit_fix s2_fix_hevc_container_colour "avcodec/hevc: keep the container's colour tags where the VUI has none" \
    "They were reset to unspecified and the range to limited; the H.264 decoder keeps them."
commit_fix s2_fix_pnm_maxval "avcodec/pnmdec: rescale PAM samples with alpha of a maxval under 255" \
    "They were copied unscaled; a rescale that rounds is now said."
commit_fix s2_fix_png_gray_trns "avcodec/pngdec: apply tRNS to gray images of 1, 2 and 4 bits" \
    "The value was compared with samples expanded to 8 bits, and refused at 1 bit."
commit_fix s2_fix_image_label "fftools/ffmpeg_filter: warn when a filtergraph label binds part of an image" \
    "A label such as [0:v] bound the first tile of a tiled image, or the still item of an animated one."
commit_fix s2_fix_graph_eof "fftools/ffmpeg_filter: send an EOF frame to a filtergraph fed by another" \
    "The scheduler disregards a closed queue that no EOF frame precedes, so that input never ended for it: a tiled image beside another input hung."
commit_part cpu ssimulacra2 "avfilter: add ssimulacra2 filter" \
    "SSIMULACRA2 perceptual image/video metric (CPU), with FATE tests."
if [ "$cuda" = yes ] && [ -n "$(s2_our_files "$proj" cuda)" ]; then
    commit_part cuda ssimulacra2_cuda "avfilter: add ssimulacra2_cuda filter" \
        "CUDA twin of the ssimulacra2 filter; same scores, options and outputs."
fi
# make fate-source: FFmpeg's source check (licence headers, include guards) against its
# reference output, as FATE runs it
if [ -f tests/fate/source-check.sh ] && [ -f tests/ref/fate/source ]; then
    if sh tests/fate/source-check.sh "$PWD/tests" | diff -u tests/ref/fate/source - > "$tmp/source.diff"; then
        echo "==> fate-source (tests/fate/source-check.sh): passes"
    else
        echo "make-patches: fate-source fails on the series:" >&2
        cat "$tmp/source.diff" >&2
        exit 1
    fi
fi
# the patched tree is the build tree (but for the Changelog and the version bump), so the
# FATE tests make check runs there are the series' fate-ssimulacra2
if [ -n "$build_src" ] && [ -d "$build_src" ]; then
    n=0
    for f in $(git diff --name-only HEAD~$(($(git rev-list --count HEAD) - 1)) HEAD); do
        case $f in Changelog|libavfilter/version.h) continue ;; esac
        cmp -s "$f" "$build_src/$f" || { echo "make-patches: $f differs from $build_src/$f (run ./configure again)" >&2; exit 1; }
        n=$((n + 1))
    done
    echo "==> the series gives the build tree's $n files ($build_src): make check-fate tests it"
fi
rm -rf "$out" && mkdir -p "$out"
git format-patch -q -o "$out" HEAD~$(($(git rev-list --count HEAD) - 1))
echo "==> $(ls "$out" | wc -l) patches in $out:"
ls "$out" | sed 's/^/    /'
