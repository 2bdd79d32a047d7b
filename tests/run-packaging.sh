#!/usr/bin/env bash
# make install and make dist: the installed ffmpeg runs and has the filters, the man and HTML
# pages carry their entries; the dist tarball runs with an empty environment and takes every
# library but the C library from itself, and carries licences, sources and the patch series.
. "$(dirname "$0")/lib/common.sh"
need_ffmpeg
W=$SSIMU2_TEST_OUT/packaging
rm -rf "$W" && mkdir -p "$W" || die "cannot create $W"
n=0 bad=0
ok()   { n=$((n + 1)); say "  ok   $*"; }
fail() { n=$((n + 1)); bad=$((bad + 1)); say "  FAIL $*"; }
has_filters() { "$1" -hide_banner -filters 2>/dev/null | grep -q ' ssimulacra2 ' &&
                { [ "$CUDA_EXPECTED" = no ] || "$1" -hide_banner -filters 2>/dev/null | grep -q ' ssimulacra2_cuda '; }; }
CUDA_EXPECTED=no; have_filter ssimulacra2_cuda && CUDA_EXPECTED=yes

# make install
if ! command -v makeinfo > /dev/null; then
    say "note: no makeinfo (texinfo), make install not checked"
elif make --no-print-directory -C "$S2_ROOT" S2_CONFIG="${S2_CONFIG:-config.mk}" install \
        DESTDIR="$W/root" PREFIX=/opt/s2 > "$W/install.log" 2>&1; then
    ok "make install DESTDIR=... PREFIX=/opt/s2"
else
    fail "make install: $(tail -n 2 "$W/install.log" | tr '\n' ' ')"
fi
P=$W/root/opt/s2
command -v makeinfo > /dev/null && {
has_filters "$P/bin/ffmpeg" && ok "installed bin/ffmpeg has the filters" || fail "installed bin/ffmpeg lacks the filters"
[ -x "$P/bin/ffprobe" ] && ok "installed bin/ffprobe" || fail "no bin/ffprobe"
grep -q 'ssimulacra2' "$P/share/man/man1/ffmpeg-filters.1" 2>/dev/null &&
    ok "man page ffmpeg-filters.1 has the ssimulacra2 entry" || fail "ffmpeg-filters.1 lacks ssimulacra2"
grep -q 'id="ssimulacra2"' "$P/share/doc/ffmpeg/ffmpeg-filters.html" 2>/dev/null &&
    ok "ffmpeg-filters.html has the ssimulacra2 entry" || fail "ffmpeg-filters.html lacks ssimulacra2"
[ -s "$P/share/doc/ffmpeg/ssimulacra2.html" ] && ok "ssimulacra2.html (the manual)" || fail "no ssimulacra2.html"
}

# make dist
if ! command -v patchelf > /dev/null; then
    say "note: no patchelf, make dist not checked"
elif tarball=$("$S2_ROOT/tools/make-dist.sh" "$W/dist" 2> "$W/dist.log"); then
    ok "make dist: $(basename "$tarball") ($(du -m "$tarball" | cut -f1) MB)"
    mkdir -p "$W/unpacked" && tar -xJf "$tarball" -C "$W/unpacked" --strip-components=1
    D=$W/unpacked
    if env -i "$D/bin/ffmpeg" -hide_banner -filters 2>/dev/null | grep -q ' ssimulacra2 '; then
        ok "dist bin/ffmpeg runs with an empty environment and has the filter"
    else
        fail "dist bin/ffmpeg does not run with an empty environment"
    fi
    . "$S2_ROOT/tools/dist-system-libs.sh"
    outside=$(dist_outside_libs "$D" "$D/bin/ffmpeg" | tr '\n' ' ')
    [ -z "$outside" ] && ok "dist: every library but the C library from the tarball" ||
        fail "dist: libraries from the system: $outside"
    for f in licenses/COPYING.GPLv2 licenses/COPYING.LGPLv2.1 source/SOURCES.md README.txt; do
        [ -s "$D/$f" ] || { fail "dist: no $f"; continue; }
        ok "dist: $f"
    done
    np=$(ls "$D/source/patches"/*.patch 2>/dev/null | wc -l)
    [ "$np" -ge 2 ] && ok "dist: $np patches in source/patches" || fail "dist: $np patches"
    for l in "$D"/lib/*.so*; do
        grep -q "^    $(basename "$l"): [^ ]* [^ ]* (apt-get source " "$D/source/SOURCES.md" ||
            fail "dist: $(basename "$l") has no source package in SOURCES.md"
    done
else
    fail "make dist: $(tail -n 2 "$W/dist.log" | tr '\n' ' ')"
fi
say "packaging: $n checks, $bad failure(s)"
[ $bad = 0 ] || die "$bad packaging check(s) failed"
say "PASS: make install and make dist, $n checks"
