#!/bin/sh
# make-patches.sh FFMPEG_SRC PROJECT OUTDIR
# Export the overlay as a `git am` series against the pristine FFmpeg tree FFMPEG_SRC:
#   0001 avfilter: add ssimulacra2 filter        (CPU filter, shared code, FATE, registration)
#   0002 avfilter: add ssimulacra2_cuda filter   (CUDA filter, kernels, registration)
# The registration edits come from build-aux/register.sh, the same code configure uses.
set -eu
src=$1 proj=$2 out=$3
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

commit_part() { # commit_part PART SUBJECT BODY
    files=$(s2_our_files "$proj" "$1")
    for f in $files; do
        mkdir -p "$(dirname "$f")"
        cp "$proj/$f" "$f"
    done
    s2_register "$tmp/ff" "$1" "$proj"
    git add -A
    git commit -q --no-verify -m "$2" -m "$3"
    echo "    $2 ($(echo $files | wc -w) files of ours + registration)"
}
echo "==> commits"
commit_part cpu "avfilter: add ssimulacra2 filter" \
    "SSIMULACRA2 perceptual image/video metric (CPU), with FATE tests."
if [ -n "$(s2_our_files "$proj" cuda)" ]; then
    commit_part cuda "avfilter: add ssimulacra2_cuda filter" \
        "CUDA twin of the ssimulacra2 filter; same scores, options and outputs."
fi
s2_fix_cuda_odd_height "$tmp/ff"
if ! git diff --quiet; then
    git commit -q -a --no-verify -m "avutil/hwcontext_cuda: fix odd-height 4:2:0 frames" \
        -m "Transfers skipped the last chroma row, and yuv420p placed U one row too early."
    echo "    avutil/hwcontext_cuda: fix odd-height 4:2:0 frames"
fi
rm -rf "$out" && mkdir -p "$out"
git format-patch -q -o "$out" HEAD~$(($(git rev-list --count HEAD) - 1))
echo "==> $(ls "$out" | wc -l) patches in $out:"
ls "$out" | sed 's/^/    /'
